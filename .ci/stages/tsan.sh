#!/usr/bin/env bash
# Stage (f): ThreadSanitizer on the concurrency tests: test_robust_threads
# (tl_last_error per thread, one plan run from many threads, plans created and
# destroyed concurrently) and test_parallel (the thread pool: tiles from an
# atomic counter, errors from worker tiles, nested and concurrent callers,
# pinning, shutdown; image plans and tl_argmax_parallel on the pool) and
# test_dmabuf (conversions and image plans into fds on the pool).
# Any data race report fails it.
source "$(dirname "$0")/lib.sh"
need_build_tools
need_clang

B=build-tsan
TESTS=(test_robust_threads test_parallel test_dmabuf)
step "configure" cmake -S . -B "$B" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DTL_SANITIZE=thread -DTL_BUILD_SHARED=OFF -DTL_WERROR=ON
step "build" cmake --build "$B" -j"$JOBS" --target "${TESTS[@]}"
step "${TESTS[*]} under TSan" env TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir "$B" -R "^($(IFS='|'; echo "${TESTS[*]}"))\$" --output-on-failure
