#!/usr/bin/env bash
# Stage: the library's layers point down only (src/LAYERS). Every #include "..."
# of src/<layer>/ must name a header of its own directory (no slash, found
# beside the file) or of a layer src/LAYERS allows it; no "../". Programs
# (programs/, bench/) include the public header and their own headers only.
# Kernels never ask the CPU (no tl_cpu_ call under src/kernels/), and no
# kernel name is built by token pasting (## under src/kernels/). The build
# enforces the same table through per-layer include paths; this check also
# catches what an include path cannot (a relative "../" path). Also a ctest
# test (`layers`). No build needed.
source "$(dirname "$0")/lib.sh"

declare -A allowed
layers=()
while read -r layer deps; do
    [[ -z $layer || $layer == \#* ]] && continue
    layers+=("$layer")
    allowed[$layer]=" $layer $deps "
done <src/LAYERS

bad=0
complain() { echo "layers: $*" >&2; bad=1; }

# check_file FILE ALLOWED [DIR [DIR2]]: ALLOWED is " dir dir ... " or ""
# (programs: none); a header without a slash is found beside the file (or in
# DIR, DIR2: the programs and the examples' shared headers).
check_file() {
    local file=$1 ok=$2 also=${3:-} line inc top
    while IFS= read -r line; do
        inc=${line#*\"}
        inc=${inc%%\"*}
        case $inc in
        ../* | */../*) complain "$file: #include \"$inc\" climbs out with ../" ;;
        tlayout/*) [[ -e include/$inc ]] || complain "$file: #include \"$inc\": no such public header" ;;
        */*)
            top=${inc%%/*}
            [[ $ok == *" $top "* ]] ||
                complain "$file: #include \"$inc\": src/$top/ is not below this layer (src/LAYERS allows:${ok:- nothing but its own headers})"
            ;;
        *)
            [[ -e $(dirname "$file")/$inc || $inc == tlayout.h || (-n $also && -e $also/$inc) ||
                (-n ${4:-} && -e $4/$inc) ]] ||
                complain "$file: #include \"$inc\": no such header beside the file"
            ;;
        esac
    done < <(grep -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" || true)
}

for dir in src/*/; do
    layer=$(basename "$dir")
    [[ -n ${allowed[$layer]:-} ]] || { complain "src/$layer/ has no line in src/LAYERS"; continue; }
    while IFS= read -r -d '' f; do
        check_file "$f" "${allowed[$layer]}"
    done < <(find "$dir" -type f \( -name '*.c' -o -name '*.h' -o -name '*.inc' \) -print0)
done
for f in programs/*.[ch]; do check_file "$f" "" examples; done
for f in bench/*.[ch]; do
    [[ $f == bench/icount_arm.c ]] && continue # not built (an ARM harness on engine internals)
    check_file "$f" "" programs examples
done
if grep -rn 'tl_cpu_' src/kernels; then complain "a kernel asks the CPU (tl_cpu_*): the engine tells it"; fi
# Kernel names are found with grep: no identifier under src/kernels/ is built by
# token pasting (##); a body macro gets the full name as an argument. Only Arm
# intrinsic and vector type names (vld1q_##SFX, VT##x##C##_t) may be pasted:
# they are the compiler's names, not ours.
while IFS= read -r hit; do
    chain=${hit#*:*:}
    first=${chain%%#*}
    first=${first%"${first##*[![:space:]]}"}
    [[ $first =~ ^(v[a-z0-9_]*|VT)$ ]] ||
        complain "${hit%%:*}: '$chain' builds a name by token pasting; write the kernel's full name out (its .inc row and its definition)"
done < <(grep -rnoE '[A-Za-z_0-9]*[[:space:]]*##[[:space:]]*[A-Za-z_0-9]+([[:space:]]*##[[:space:]]*[A-Za-z_0-9]+)*' src/kernels || true)

((bad == 0)) || exit 1
echo "layers: ${#layers[@]} layers (${layers[*]}), every include points down, no kernel name pasted"
