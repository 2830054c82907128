#!/usr/bin/env bash
# Stage: packaging. What a user of the installed library meets:
#  - `cmake --install build --prefix DIR` (the prefix chosen at install time, not
#    at configure time) puts the headers, libtlayout.a, libtlayout.so with its
#    SONAME, the tlayout binary, the man pages, the docs, tlayout.pc and the
#    CMake package in place;
#  - the prefix is then moved: tlayout.pc and the CMake package must follow it;
#  - the README's C example builds out of tree against the moved prefix with
#    pkg-config (shared and static) and with find_package (tlayout::tlayout and
#    tlayout::tlayout_static), and runs;
#  - every program in examples/ builds and runs against it, both ways: the
#    examples' own CMakeLists.txt (find_package, then ctest) and pkg-config;
#  - the installed tlayout runs the demo; the API reference builds with doxygen;
#  - a project embedding tlayout with add_subdirectory() builds and runs the
#    README's example, without tlayout's tests, examples or benchmark.
source "$(dirname "$0")/lib.sh"
need_build_tools
need pkgconf:pkg-config binutils:readelf doxygen:doxygen

work=$(mktemp -d "${TMPDIR:-/tmp}/tlayout-packaging.XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
build=build-packaging

# Warnings are stage werror's business: here only what a user's build does matters.
# No CMAKE_INSTALL_PREFIX: the prefix is given at install time, and then moved.
step "configure" cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DTL_WERROR=OFF -DTL_BUILD_TESTS=OFF
step "build" cmake --build "$build" -j"$JOBS"
step "install" cmake --install "$build" --prefix "$work/first-prefix"
step "move the prefix" mv "$work/first-prefix" "$prefix"

# ---- what was installed -------------------------------------------------------------
check_installed() {
    local f libdir
    for f in include/tlayout.h include/tlayout/larod.h include/tlayout/tidl.h include/tlayout/dml.h \
        include/tlayout/rknn.h include/tlayout/trt.h include/tlayout/vendors.h include/tlayout/post.h \
        include/tlayout/detect.h include/tlayout/image.h include/tlayout/parallel.h \
        include/tlayout/dmabuf.h include/tlayout/names.h bin/tlayout \
        share/man/man1/tlayout.1 share/man/man3/tlayout.3 share/doc/tlayout/guide.md \
        share/doc/tlayout/sources.md; do
        [[ -s $prefix/$f ]] || { echo "missing: $prefix/$f" >&2; return 1; }
    done
    libdir=$(dirname "$(find "$prefix" -name libtlayout.a | head -n 1)")
    for f in libtlayout.a libtlayout.so libtlayout.so.0 pkgconfig/tlayout.pc cmake/tlayout/tlayoutConfig.cmake \
        cmake/tlayout/tlayoutConfigVersion.cmake cmake/tlayout/tlayoutTargets.cmake; do
        [[ -e $libdir/$f ]] || { echo "missing: $libdir/$f" >&2; return 1; }
    done
    f=$(readelf -d "$libdir/libtlayout.so")
    [[ $f == *"SONAME"*"[libtlayout.so.0]"* ]] || { echo "libtlayout.so has no SONAME libtlayout.so.0" >&2; return 1; }
    echo "installed: headers, $libdir/libtlayout.{a,so.0}, tlayout, tlayout.1, tlayout.pc, CMake package"
    echo "$libdir" >"$work/libdir"
}
step "installed files" check_installed
libdir=$(cat "$work/libdir")
export PKG_CONFIG_PATH=$libdir/pkgconfig
export LD_LIBRARY_PATH=$libdir  # programs linked by hand (pkg-config) find the shared library

# ---- an out-of-tree program: the README's example ----------------------------------------
mkdir -p "$work/app"
sed -n '/^```c$/,/^```$/p' README.md | sed '1d;$d' >"$work/app/app.c"
grep -q 'tl_convert' "$work/app/app.c" || { echo "README.md has no C example" >&2; exit 1; }
cat >"$work/app/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(tlayout_app LANGUAGES C)
find_package(tlayout 0.1 REQUIRED)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE tlayout::tlayout)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE tlayout::tlayout_static)
EOF

pkgconfig_app() {
    local cflags libs
    cflags=$(pkg-config --cflags tlayout)
    libs=$(pkg-config --libs tlayout)
    echo "pkg-config: $cflags $libs (version $(pkg-config --modversion tlayout))"
    # The paths must lead into the moved prefix, however pkg-config spells them.
    local inc
    inc=$(pkg-config --variable=includedir tlayout)
    [[ $(cd "$inc" && pwd -P) == $(cd "$prefix/include" && pwd -P) ]] ||
        { echo "tlayout.pc points at $inc, not the moved prefix $prefix/include" >&2; return 1; }
    # shellcheck disable=SC2086  # word splitting of the flags is intended
    cc -std=c11 -Wall -Wextra -Werror $cflags "$work/app/app.c" $libs -o "$work/app/app_pc"
    # static: the archive plus Libs.private
    # shellcheck disable=SC2086
    cc -std=c11 -Wall -Wextra -Werror $cflags "$work/app/app.c" "$libdir/libtlayout.a" \
        $(pkg-config --libs-only-l --static tlayout | sed 's/-ltlayout//') -o "$work/app/app_pc_static"
    "$work/app/app_pc" && "$work/app/app_pc_static"
    local deps
    deps=$(ldd "$work/app/app_pc") # not piped into grep -q: pipefail and SIGPIPE
    [[ $deps == *"$libdir/libtlayout.so.0"* ]] ||
        { echo "app_pc does not use the installed libtlayout.so.0: $deps" >&2; return 1; }
}
step "README example with pkg-config" pkgconfig_app

cmake_app() {
    cmake -S "$work/app" -B "$work/app/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$work/app/build"
    env -u LD_LIBRARY_PATH "$work/app/build/app_shared" # the build RPATH finds the library
    "$work/app/build/app_static"
}
step "README example with find_package" cmake_app

# ---- every example, against the installed package -----------------------------------------
examples_cmake() {
    cmake -S examples -B "$work/examples" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
    cmake --build "$work/examples" -j"$JOBS"
    ctest --test-dir "$work/examples" --output-on-failure
}
step "examples with find_package" examples_cmake

examples_pkgconfig() {
    local src name n=0
    for src in examples/*.c; do
        name=$(basename "$src" .c)
        # shellcheck disable=SC2046
        cc -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags tlayout) "$src" $(pkg-config --libs tlayout) -lm \
            -o "$work/$name"
        echo "+ $name"
        "$work/$name" >"$work/$name.out" || { cat "$work/$name.out"; return 1; }
        tail -n 1 "$work/$name.out"
        n=$((n + 1))
    done
    echo "$n examples built with pkg-config and run"
}
step "examples with pkg-config" examples_pkgconfig

# ---- the installed command and the API reference ---------------------------------------
installed_demo() {
    (cd "$work" && "$prefix/bin/tlayout" demo --runs 1 --out "$work/pictures" | tail -n 1)
    [[ $(find "$work/pictures" -name '*.svg' | wc -l) -eq 7 ]] || { echo "the demo wrote no 7 pictures" >&2; return 1; }
}
step "installed tlayout demo" installed_demo

api_reference() {
    cmake --build "$build" --target docs
    grep -q 'tl_convert' "$build/docs/api/html/tlayout_8h.html" ||
        { echo "the API reference lacks tl_convert" >&2; return 1; }
    echo "API reference: $build/docs/api/html/index.html"
}
step "API reference (doxygen)" api_reference

# ---- tlayout as a subproject (add_subdirectory) --------------------------------------------
subproject() {
    local sub=$work/sub opt
    mkdir -p "$sub"
    cp "$work/app/app.c" "$sub/app.c"
    ln -s "$PWD" "$sub/tlayout"
    cat >"$sub/CMakeLists.txt" <<'EOF'
cmake_minimum_required(VERSION 3.16)
project(embeds_tlayout LANGUAGES C)
add_subdirectory(tlayout)
add_executable(app app.c)
target_link_libraries(app PRIVATE tlayout::tlayout_static)
EOF
    cmake -S "$sub" -B "$sub/build" -DCMAKE_BUILD_TYPE=Release >"$sub/configure.log"
    for opt in TL_BUILD_TESTS TL_BUILD_EXAMPLES TL_BUILD_BENCH TL_WERROR; do
        grep -qx "$opt:BOOL=OFF" "$sub/build/CMakeCache.txt" ||
            { echo "as a subproject, $opt is not OFF by default" >&2; return 1; }
    done
    cmake --build "$sub/build" -j"$JOBS"
    "$sub/build/app"
    [[ ! -e $sub/build/tlayout/bench && ! -e $sub/build/tlayout/tests && ! -e $sub/build/tlayout/examples ]] ||
        { echo "the subproject built tlayout's tests, examples or benchmark" >&2; return 1; }
    echo "add_subdirectory: the README example built and ran; no tests, examples or benchmark"
}
step "README example with add_subdirectory" subproject
