#!/usr/bin/env bash
# Stage (d): libFuzzer. Every target of tests/fuzz/ is built with clang
# -fsanitize=fuzzer,address,undefined (the library too, for coverage), replays
# its corpus (the committed tests/fuzz/corpus/<target>/ plus the struct images
# fuzz_seedgen writes), then fuzzes for FUZZ_SECONDS (default 30) each. New
# inputs go to build-fuzz/work/<target>/, crashes to build-fuzz/artifacts/
# (the stage fails and names the file; add it to the corpus once fixed).
# A long local campaign: tests/fuzz/campaign.sh (docs/robustness.md).
source "$(dirname "$0")/lib.sh"
need_build_tools
need_clang

FUZZ_SECONDS=${FUZZ_SECONDS:-30}
TARGETS=(spec desc tidl_io rknn_attr plan)
B=build-fuzz
F=$B/tests/fuzz
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

step "configure" cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTL_FUZZ=ON -DTL_SANITIZE=address,undefined -DTL_BUILD_SHARED=OFF -DTL_WERROR=ON
step "build" cmake --build "$B" -j"$JOBS" --target fuzz_seedgen "${TARGETS[@]/#/fuzz_}"
rm -rf "$F/seeds" "$B/work" "$B/artifacts"
mkdir -p "$B/artifacts"
step "seeds" "$F/fuzz_seedgen" "$F/seeds" tests/fuzz/corpus/spec

summary=()
for t in "${TARGETS[@]}"; do
    corpora=("tests/fuzz/corpus/$t")
    [[ -d $F/seeds/$t ]] && corpora+=("$F/seeds/$t")
    seeds=$(find "${corpora[@]}" -type f | wc -l)
    max_len=()
    [[ $t == tidl_io ]] && max_len=(-max_len=378392) # raw io_1.bin images
    step "replay $t ($seeds inputs)" "$F/fuzz_$t" -runs=0 "${max_len[@]}" "${corpora[@]}"
    mkdir -p "$B/work/$t"
    log=$B/work/$t.log
    printf -- '---- fuzz %s for %ss\n' "$t" "$FUZZ_SECONDS"
    if ! "$F/fuzz_$t" -max_total_time="$FUZZ_SECONDS" -timeout=60 -print_final_stats=1 \
        -artifact_prefix="$B/artifacts/$t-" "${max_len[@]}" "$B/work/$t" "${corpora[@]}" >"$log" 2>&1; then
        tail -n 60 "$log" >&2
        echo "fuzz_$t failed: the input is in $B/artifacts/ (replay: $F/fuzz_${t} FILE)" >&2
        exit 1
    fi
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1 | cut -d' ' -f2)
    corpus=$(find "$B/work/$t" -type f | wc -l)
    summary+=("$(printf '| %-10s | %6s | %10s | %6s | %6s |' "$t" "$seeds" "${execs:-?}" "$corpus" "${cov:-?}")")
done
say "fuzzing summary (${FUZZ_SECONDS}s per target)"
echo "| target     |  seeds | executions | corpus |  edges |"
echo "|------------|--------|------------|--------|--------|"
printf '%s\n' "${summary[@]}"
