#!/usr/bin/env bash
# The scheduled fuzz campaign (not part of CI; docs/robustness.md): every
# libFuzzer target, one after the other, for a time budget each, under
# ASan + UBSan (+ LeakSanitizer), starting from the committed corpora and the
# generated struct seeds. Prints one table row per target with the executions,
# the edge coverage (cov) and features (ft) libFuzzer reached, the corpus it
# grew, and the machine; exits 1 if any target crashed (the inputs are in
# build-fuzz/campaign/artifacts/, replay with build-fuzz/tests/fuzz/fuzz_<t> FILE).
#
#   tests/fuzz/campaign.sh [SECONDS_PER_TARGET [TARGET...]]
#   SECONDS_PER_TARGET defaults to 600; TARGETS to all five.
#   FUZZ_FORK=N runs N fuzzing processes per target (libFuzzer -fork=N).
#   Run it niced on a shared machine: nice -n 10 tests/fuzz/campaign.sh 150
#
# The campaign's corpora stay in build-fuzz/campaign/work/<target>/ between
# runs, so a nightly run goes on from the last one. Fold what is worth keeping
# into the committed corpus with -merge=1 (docs/robustness.md).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

SECONDS_PER_TARGET=${1:-600}
shift || true
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=(spec desc tidl_io rknn_attr plan)
B=build-fuzz
F=$B/tests/fuzz
C=$B/campaign
JOBS=${JOBS:-2}
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

command -v clang >/dev/null || { echo "campaign: clang is needed (apt-get install clang libclang-rt-14-dev)" >&2; exit 2; }
cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTL_FUZZ=ON -DTL_SANITIZE=address,undefined -DTL_BUILD_SHARED=OFF >/dev/null
cmake --build "$B" -j"$JOBS" --target fuzz_seedgen "${TARGETS[@]/#/fuzz_}" >/dev/null
rm -rf "$F/seeds"
"$F/fuzz_seedgen" "$F/seeds" tests/fuzz/corpus/spec >/dev/null
mkdir -p "$C/artifacts"

fork=()
[[ -n ${FUZZ_FORK:-} ]] && fork=(-fork="$FUZZ_FORK" -ignore_crashes=1)
rows=()
failed=0
for t in "${TARGETS[@]}"; do
    corpora=("tests/fuzz/corpus/$t")
    [[ -d $F/seeds/$t ]] && corpora+=("$F/seeds/$t")
    max_len=()
    [[ $t == tidl_io ]] && max_len=(-max_len=378392) # raw io_1.bin images
    mkdir -p "$C/work/$t"
    log=$C/$t.log
    echo "campaign: fuzz_$t for ${SECONDS_PER_TARGET}s (log $log)"
    if ! "$F/fuzz_$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=60 -print_final_stats=1 \
        "${fork[@]}" "${max_len[@]}" -artifact_prefix="$C/artifacts/$t-" "$C/work/$t" "${corpora[@]}" \
        >"$log" 2>&1; then
        failed=1
        tail -n 30 "$log" >&2
        echo "campaign: fuzz_$t crashed; inputs in $C/artifacts/" >&2
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    [[ -z $execs ]] && execs=$(grep -o '^#[0-9]*' "$log" | tail -n 1 | tr -d '#')
    last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' <<<"$last" | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' <<<"$last" | cut -d' ' -f2)
    corpus=$(find "$C/work/$t" -type f | wc -l)
    rows+=("$(printf '| %-9s | %6ss | %11s | %5s | %6s | %6s |' "$t" "$SECONDS_PER_TARGET" "${execs:-?}" \
        "${cov:-?}" "${ft:-?}" "$corpus")")
done

echo
echo "fuzz campaign, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "machine: $(nproc) cores, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| target    | budget  | executions  |  cov  |   ft   | corpus |"
echo "|-----------|---------|-------------|-------|--------|--------|"
printf '%s\n' "${rows[@]}"
exit "$failed"
