#!/usr/bin/env bash
# Stage: python. The module `tlayout` (python/, docs/python.md) as users get it:
#  - built by CMake for Debian's interpreter (TL_PYTHON=ON: a missing header
#    is an error here, not a skip) and its pytest suite run under ctest; the
#    suite must run, not be skipped, now that numpy and pytest are installed;
#  - `pip install ./python` offline with Debian's setuptools into a temporary
#    directory, and the whole suite again against that copy;
#  - `cmake --install` into a temporary prefix: the package imports from there;
#  - the overhead benchmark runs (a smoke run: its numbers mean nothing here).
source "$(dirname "$0")/lib.sh"
need_build_tools
need python3-dev python3-numpy python3-pytest python3-setuptools python3-pip

PY=/usr/bin/python3
B=build-python
work=$(mktemp -d "${TMPDIR:-/tmp}/tlayout-python.XXXXXX")
trap 'rm -rf "$work"' EXIT

step "configure" cmake -S . -B "$B" -DTL_PYTHON=ON -DPython3_EXECUTABLE="$PY" -DTL_WERROR=ON \
    -DCMAKE_INSTALL_PREFIX="$work/prefix"
step "build" cmake --build "$B" -j"$JOBS" --target tlayout_python tlayout

suite_in_ctest() {
    local out
    out=$(ctest --test-dir "$B" -R '^python$' --output-on-failure) || { echo "$out"; return 1; }
    echo "$out" | tail -n 3
    if [[ $out == *"Skipped"* || $out == *"skipped:"* ]]; then
        echo "the python suite was skipped although numpy and pytest are installed:" >&2
        echo "$out" >&2
        return 1
    fi
}
step "pytest suite (ctest)" suite_in_ctest

pip_install() {
    "$PY" -m pip install --no-build-isolation --no-index --no-deps --target "$work/pip" ./python
    rm -rf python/build python/*.egg-info # what setuptools leaves beside setup.py
    "$PY" python/tests/run.py "$work/pip" "$B/tlayout"
}
step "pip install ./python, then the suite against it" pip_install

cmake_install() {
    cmake --install "$B" --component python
    local dir
    dir=$(sed -n 's/^TL_PYTHON_INSTALL_DIR:STRING=//p' "$B/CMakeCache.txt")
    (cd "$work" && PYTHONPATH="$work/prefix/$dir" "$PY" -c \
        'import tlayout, sys; d = tlayout.Desc("NCHW:u8:1x3x2x2"); assert tlayout.__file__.startswith(sys.argv[1]); print("imported", tlayout.__file__, d.spec)' \
        "$work/prefix")
}
step "cmake --install" cmake_install

step "benchmark smoke run" env PYTHONPATH="$B/python" "$PY" python/bench_overhead.py --smoke
