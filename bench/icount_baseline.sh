#!/usr/bin/env bash
# The Arm cost figures as a regression check (docs/performance.md, "Arm:
# instructions per byte under qemu"): the NEON instructions per byte of the
# C = 3 cases at 4 KiB, the vendor paths' rows, on AArch64 and Armv7, against
# bench/icount_baseline.tsv. The counts are deterministic for one compiler and
# qemu (Debian 12's gcc 12.2 cross compilers and qemu-user 7.2, as CI
# installs), so a row more than 5 % (and 0.005) above its baseline is a change
# that made the NEON path costlier, not noise.
#
#   bench/icount_baseline.sh            # count, compare, exit 1 on a costlier row
#   bench/icount_baseline.sh --write    # count and write the baseline (after a
#                                       # change that moves the counts on purpose)
#
# Needs what bench/icount_arm.sh needs. Output: the comparison, one line a row.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
base=bench/icount_baseline.tsv
bench/icount_arm.sh --size 4K --case C=3 >/dev/null
# case, bytes, AArch64 NEON and Armv7 NEON instructions per byte (3 decimals)
paste build-icount/a64-neon.tsv build-icount/a32-neon.tsv |
    awk -F'\t' -v OFS='\t' '{ print $1, $2, $4, $9 }' >build-icount/now.tsv
if [[ ${1:-} == --write ]]; then
    {
        echo "# NEON instructions per byte, bench/icount_arm.sh --size 4K --case C=3 (written by"
        echo "# bench/icount_baseline.sh --write; checked by CI's icount-arm stage)"
        echo "# case	bytes	aarch64	armv7"
        cat build-icount/now.tsv
    } >"$base"
    echo "wrote $base ($(wc -l <build-icount/now.tsv) rows)"
    exit 0
fi
awk -F'\t' '
    NR == FNR { if ($0 !~ /^#/) { a64[$1 FS $2] = $3; a32[$1 FS $2] = $4 } next }
    function check(name, now, was) {
        if (now > was * 1.05 + 0.005) {
            printf "%s: %.3f instructions per byte, its baseline %.3f (+%.0f %%)\n", name, now, was, 100 * (now / was - 1)
            bad = 1
        } else if (now < was * 0.95 - 0.005) {
            printf "%s: %.3f, below its baseline %.3f: bench/icount_baseline.sh --write records it\n", name, now, was
        }
    }
    {
        key = $1 FS $2
        rows++
        if (!(key in a64)) {
            printf "%s (%s bytes): no baseline row; bench/icount_baseline.sh --write adds it\n", $1, $2
            bad = 1
            next
        }
        check($1 " " $2 " B, AArch64", $3, a64[key])
        check($1 " " $2 " B, Armv7", $4, a32[key])
    }
    END {
        if (rows == 0) { print "no rows counted"; bad = 1 }
        if (bad) print "a NEON path costs more than its baseline (bench/icount_baseline.tsv): find the change, or, if it is meant, run bench/icount_baseline.sh --write and say why in the commit"
        else print rows " rows within 5 % of bench/icount_baseline.tsv on both targets"
        exit bad
    }' "$base" build-icount/now.tsv
