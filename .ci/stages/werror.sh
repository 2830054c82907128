#!/usr/bin/env bash
# Stage (b): warnings are errors under both compilers.
#  - gcc, Release (-O3): optimised builds see more of the data flow (maybe-
#    uninitialized, stringop-overflow, array-bounds); build only: the README
#    stage already ran the suite with gcc.
#  - clang, RelWithDebInfo: its own warning set; the whole suite runs too.
source "$(dirname "$0")/lib.sh"
need_build_tools
need_clang

step "gcc -O3 -Werror configure" \
    cmake -S . -B build-gcc-werror -DCMAKE_C_COMPILER=gcc -DCMAKE_BUILD_TYPE=Release -DTL_WERROR=ON
step "gcc -O3 -Werror build" cmake --build build-gcc-werror -j"$JOBS"

step "clang -Werror configure" \
    cmake -S . -B build-clang -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTL_WERROR=ON
step "clang -Werror build" cmake --build build-clang -j"$JOBS"
step "clang suite" ctest --test-dir build-clang --output-on-failure -j"$JOBS"
