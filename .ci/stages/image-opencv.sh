#!/usr/bin/env bash
# Stage: tlayout image against OpenCV 4.6 live. Random frames, crops, resizes,
# letterboxes, orders, gray/RGBX and f32 mean/std through `tlayout image`,
# each compared with cv2's chain (tests/image/cvchain.py): 0 LSB difference.
# Needs Debian's python3-opencv; skipped, saying so, when it cannot be had.
source "$(dirname "$0")/lib.sh"
need_build_tools
if ! need python3-opencv python3-numpy || ! /usr/bin/python3 -c 'import cv2, numpy' 2>/dev/null; then
    say "skipped: python3-opencv is not available"
    exit 0
fi
B=build-image
step "configure" cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTL_BUILD_TESTS=OFF
step "build" cmake --build "$B" -j"$JOBS" --target tlayout
step "500 random cases against OpenCV" /usr/bin/python3 tests/image/live_compare.py "$PWD/$B/tlayout" 500 "$RANDOM"
