#!/usr/bin/env bash
# Stage (c2): cross build for 32-bit armv7 (hard float) with the toolchain file
# the project ships, NEON on for every file (-mfpu=neon), whole suite under
# qemu-user. This is the 32-bit size_t target: test_robust_overflow checks that
# 64-bit sizes beyond SIZE_MAX give clean errors here. A second tree builds
# Release (-O3) with -Werror: gcc's warnings at -O3 (maybe-uninitialized,
# stringop-overflow) differ from those at -O2, and users build Release.
source "$(dirname "$0")/lib.sh"
need_build_tools
need gcc-arm-linux-gnueabihf:arm-linux-gnueabihf-gcc libc6-dev-armhf-cross qemu-user:qemu-arm file:file

step "configure" cmake -S . -B build-armhf -DTL_WERROR=ON \
    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armhf.cmake \
    "-DCMAKE_C_FLAGS=-mfpu=neon -mfloat-abi=hard"
step "build" cmake --build build-armhf -j"$JOBS"
file build-armhf/tlayout | grep -q 'ARM, EABI5' || { echo "build-armhf/tlayout is not an armv7 binary" >&2; exit 1; }
step "suite under qemu-arm" env TL_TEST_QUICK=1 \
    ctest --test-dir build-armhf --output-on-failure -j"$JOBS" --timeout 900
step "configure Release" cmake -S . -B build-armhf-release -DTL_WERROR=ON -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armhf.cmake \
    "-DCMAKE_C_FLAGS=-mfpu=neon -mfloat-abi=hard"
step "build Release" cmake --build build-armhf-release -j"$JOBS"
