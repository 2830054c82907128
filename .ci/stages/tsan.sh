#!/usr/bin/env bash
# Stage (f): ThreadSanitizer on the concurrency test (test_robust_threads:
# tl_last_error per thread, one plan run from many threads, plans created and
# destroyed concurrently). Any data race report fails it.
source "$(dirname "$0")/lib.sh"
need_build_tools
need_clang

B=build-tsan
step "configure" cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTL_SANITIZE=thread -DTL_BUILD_SHARED=OFF -DTL_WERROR=ON
step "build" cmake --build "$B" -j"$JOBS" --target test_robust_threads
step "test_robust_threads under TSan" env TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir "$B" -R '^test_robust_threads$' --output-on-failure
