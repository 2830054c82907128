#!/usr/bin/env bash
# Stage: the Arm instruction-count harness still works (bench/icount_arm.sh,
# docs/performance.md "Arm: instructions per byte under qemu"), on a reduced
# run: the C=3 cases at 4 KiB, aarch64 and armv7, NEON and scalar. Checks that
# every case gives a row of positive counts and that NEON never executes more
# instructions than scalar on the byte moves (interleave, de-interleave); then
# that no NEON row costs more than 5 % above bench/icount_baseline.tsv
# (bench/icount_baseline.sh). Counts, not time: deterministic for one compiler
# and qemu. Skipped when qemu-user has no plugin support.
source "$(dirname "$0")/lib.sh"
need_build_tools
need gcc-aarch64-linux-gnu:aarch64-linux-gnu-gcc libc6-dev-arm64-cross \
    gcc-arm-linux-gnueabihf:arm-linux-gnueabihf-gcc libc6-dev-armhf-cross qemu-user:qemu-aarch64

if ! qemu-aarch64 -h | grep -q -- '^-plugin'; then
    echo "icount-arm: skipped (this qemu-user has no TCG plugin support)"
    exit 0
fi
mkdir -p build-icount
say "icount: the C=3 cases at 4K"
bench/icount_arm.sh --size 4K --case C=3 >build-icount/smoke.md
cat build-icount/smoke.md
# | case | size | a64 NEON | a64 scalar | a64 memcpy | ratio | a32 NEON | a32 scalar | a32 memcpy | ratio | kernels |
awk -F' [|] ' 'NR > 2 {
        rows++
        for (i = 3; i <= 10; i++) if ($i + 0 <= 0) { print "not a positive count: " $0; bad = 1 }
        if ($1 ~ /nchw->nhwc|nhwc->nchw/ && ($3 + 0 > $4 + 0 || $7 + 0 > $8 + 0)) { print "NEON above scalar: " $0; bad = 1 }
    }
    END { if (rows < 4) { print rows " rows, expected every C=3 case (4 or more)"; bad = 1 } exit bad }' build-icount/smoke.md
say "icount: the same rows against bench/icount_baseline.tsv"
bench/icount_baseline.sh
