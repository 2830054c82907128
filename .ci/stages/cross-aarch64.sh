#!/usr/bin/env bash
# Stage (c1): cross build for 64-bit Arm with the plain variables the project
# promises to work with (no toolchain file), whole suite under qemu-user.
# TL_TEST_QUICK=1: the engine tests sweep fewer sizes under emulation.
source "$(dirname "$0")/lib.sh"
need_build_tools
need gcc-aarch64-linux-gnu:aarch64-linux-gnu-gcc libc6-dev-arm64-cross qemu-user:qemu-aarch64 file:file

step "configure" cmake -S . -B build-aarch64 -DTL_WERROR=ON \
    -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
    -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc \
    "-DCMAKE_CROSSCOMPILING_EMULATOR=qemu-aarch64;-L;/usr/aarch64-linux-gnu"
step "build" cmake --build build-aarch64 -j"$JOBS"
file build-aarch64/tlayout | grep -q 'ARM aarch64' || { echo "build-aarch64/tlayout is not an aarch64 binary" >&2; exit 1; }
step "suite under qemu-aarch64" env TL_TEST_QUICK=1 \
    ctest --test-dir build-aarch64 --output-on-failure -j"$JOBS" --timeout 900
