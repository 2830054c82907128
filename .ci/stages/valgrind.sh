#!/usr/bin/env bash
# Stage (e): valgrind memcheck on a subset: the unit tests (TL_TEST_QUICK=1), the
# fuzz corpus replays and the CLI's hostile-input case. Any memcheck error or
# definite leak fails the test that showed it.
# How: ctest runs every test executable through CMAKE_CROSSCOMPILING_EMULATOR
# when it is set (CMake < 3.28 or policy CMP0158 OLD, as this project's
# cmake_minimum_required gives), so valgrind is set as the "emulator" of a
# native build; CLI cases run through run_case.sh with valgrind in front.
source "$(dirname "$0")/lib.sh"
need_build_tools
need valgrind:valgrind

B=build-valgrind
VG=(valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite
    --show-leak-kinds=definite --track-fds=no)
vg_list=$(IFS=';'; echo "${VG[*]}")
step "configure" cmake -S . -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTL_WERROR=ON \
    -DTL_BUILD_SHARED=OFF "-DCMAKE_CROSSCOMPILING_EMULATOR=$vg_list"
step "build" cmake --build "$B" -j"$JOBS"
# test_elem is left out: its exact u64 -> f32 rounding checks fail under
# valgrind's emulation of the conversion (it passes natively and everywhere else).
step "unit tests and fuzz replays under memcheck" env TL_TEST_QUICK=1 \
    ctest --test-dir "$B" -L 'unit|fuzz' -E '^test_elem$' --output-on-failure -j"$JOBS" --timeout 1500
for c in robust_hostile demo convert_roundtrip; do
    case_file=tests/cli/cases/$c.sh
    [[ -f $case_file ]] || continue
    step "cli_$c under memcheck" sh tests/cli/run_case.sh "$case_file" "$PWD/$B/cli-valgrind/$c" \
        "${VG[@]}" "$PWD/$B/tlayout"
done
