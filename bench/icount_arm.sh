#!/usr/bin/env bash
# Instructions per byte of every tl_bench case on Arm, under qemu-user
# (docs/performance.md, "Arm: instructions per byte under qemu"): cross-builds
# bench/icount_arm for aarch64 and armv7 (NEON on, Release, static), builds
# the counting plugin bench/icount_plugin.c for the host's qemu, runs each
# with TL_CPU=neon and TL_CPU=scalar and prints one Markdown table.
#
#   bench/icount_arm.sh                          # every case at 4K and 256K
#   bench/icount_arm.sh --size 4K --case C=3     # fewer (icount_arm's options)
#
# Needs gcc-aarch64-linux-gnu, gcc-arm-linux-gnueabihf, qemu-user (7.x, with
# plugin support: Debian's has it), gcc, cmake. Build trees: build-icount-*.
# Counts are per dense byte (source + destination bytes, as tl_bench's GB/s);
# memcpy copies half of them, source to destination. Deterministic.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
NICE=(nice -n 10)
out=build-icount
mkdir -p "$out"
gcc -O2 -shared -fPIC bench/icount_plugin.c -o "$out/icount_plugin.so"

# build DIR CMAKE-ARGS...: the static icount_arm of one target.
build() {
    local dir=$1
    mkdir -p "$dir"
    shift
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXE_LINKER_FLAGS=-static \
        -DTL_BUILD_TESTS=OFF "$@" >"$dir/icount.log" 2>&1 || { cat "$dir/icount.log" >&2; exit 1; }
    "${NICE[@]}" cmake --build "$dir" --target icount_arm -j2 >>"$dir/icount.log" 2>&1 || { cat "$dir/icount.log" >&2; exit 1; }
}

# count QEMU NM BIN ISA ARGS...: "name<TAB>size<TAB>kernels<TAB>run/byte<TAB>memcpy/byte" per case.
count() {
    local qemu=$1 nm=$2 bin=$3 isa=$4 mark
    shift 4
    mark=$(printf '0x%x' $((0x$("$nm" "$bin" | awk '$3 == "tl_icount_mark" { print $1 }') & ~1))) # no Thumb bit
    TL_CPU=$isa "${NICE[@]}" "$qemu" -plugin "$out/icount_plugin.so,mark=$mark" -d plugin -D "$out/marks.txt" \
        "$bin" "$@" >"$out/cases.txt"
    # three marks per case: the deltas are setup (ignored), the run, memcpy
    awk -F'\t' 'NR == FNR { d[NR] = $1; marks = NR; next }
        { k = 3 * (FNR - 1); printf "%s\t%s\t%s\t%.3f\t%.3f\n", $1, $2, $4, d[k + 2] / $3, d[k + 3] / $3 }
        END { if (marks != 3 * (FNR)) { print "icount_arm.sh: " marks " marks for " FNR " cases" > "/dev/stderr"; exit 1 } }' \
        "$out/marks.txt" "$out/cases.txt"
}

build build-icount-aarch64 -DCMAKE_SYSTEM_NAME=Linux -DCMAKE_SYSTEM_PROCESSOR=aarch64 \
    -DCMAKE_C_COMPILER=aarch64-linux-gnu-gcc
build build-icount-armv7 -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-armhf.cmake "-DCMAKE_C_FLAGS=-mfpu=neon -mfloat-abi=hard"
a64=build-icount-aarch64/bench/icount_arm
a32=build-icount-armv7/bench/icount_arm
count qemu-aarch64 aarch64-linux-gnu-nm "$a64" neon "$@" >"$out/a64-neon.tsv"
count qemu-aarch64 aarch64-linux-gnu-nm "$a64" scalar "$@" >"$out/a64-scalar.tsv"
count qemu-arm arm-linux-gnueabihf-nm "$a32" neon "$@" >"$out/a32-neon.tsv"
count qemu-arm arm-linux-gnueabihf-nm "$a32" scalar "$@" >"$out/a32-scalar.tsv"

echo "| case | size | aarch64 NEON | aarch64 scalar | aarch64 memcpy | NEON x memcpy | armv7 NEON | armv7 scalar | armv7 memcpy | NEON x memcpy | aarch64 NEON kernels |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|"
# NEON x memcpy: memcpy's instructions / the run's (like tl_bench's ratio, higher is better)
paste "$out/a64-neon.tsv" "$out/a64-scalar.tsv" "$out/a32-neon.tsv" "$out/a32-scalar.tsv" | awk -F'\t' '
    function kib(b) { return b >= 1048576 ? b / 1048576 " MiB" : b / 1024 " KiB" }
    { printf "| %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %.2f | %s |\n", $1, kib($2), $4, $9, $5,
             $5 / $4, $14, $19, $15, $15 / $14, $3 }'
