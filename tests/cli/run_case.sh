#!/bin/sh
# Run one CLI case and compare what tlayout did with what the case expects.
#
#   sh run_case.sh CASE_FILE SCRATCH_DIR COMMAND...
#
# CASE_FILE is tests/cli/cases/NAME.args or NAME.sh; COMMAND... runs the tlayout
# under test (an emulator and its options first when cross-compiling).
#
#   NAME.args          one line: the arguments (split at blanks, no quoting);
#                      @TMP@ is replaced by the scratch dir, @DATA@ by tests/cli/data
#   NAME.sh            a POSIX sh script instead, run in the scratch dir with
#                      `tlayout` on PATH and $DATA set; its stdout/stderr/exit count
#   NAME.in            optional stdin (default: empty)
#   NAME.out           optional: stdout must equal it exactly
#   NAME.out.contains  optional: each non-empty line must occur in stdout
#   NAME.err           optional: stderr must equal it exactly
#   NAME.err.contains  optional: each non-empty line must occur in stderr
#   NAME.exit          optional: the exit code (default 0)
set -u

case_file=$1
tmp=$2
shift 2

dir=$(dirname "$case_file")
base=${case_file%.*}
name=$(basename "$base")
data=$(cd "$dir/../data" 2>/dev/null && pwd || echo "$dir/../data")

rm -rf "$tmp"
mkdir -p "$tmp/bin" "$tmp/work" || exit 1

# A `tlayout` wrapper that runs the command under test, each word quoted.
{
    printf '#!/bin/sh\nexec'
    for word in "$@"; do
        printf " '%s'" "$(printf '%s' "$word" | sed "s/'/'\\\\''/g")"
    done
    printf ' "$@"\n'
} > "$tmp/bin/tlayout"
chmod +x "$tmp/bin/tlayout"

stdin=/dev/null
[ -f "$base.in" ] && stdin="$base.in"

PATH="$tmp/bin:$PATH"
DATA=$data
export PATH DATA

case "$case_file" in
*.args)
    args=$(sed -e "s|@TMP@|$tmp/work|g" -e "s|@DATA@|$data|g" "$case_file")
    set -f
    # shellcheck disable=SC2086  # splitting the argument line is the point
    (cd "$tmp/work" && tlayout $args) < "$stdin" > "$tmp/stdout" 2> "$tmp/stderr"
    code=$?
    set +f
    ;;
*.sh)
    abs_case=$(cd "$dir" && pwd)/$(basename "$case_file")
    (cd "$tmp/work" && sh -e "$abs_case") < "$stdin" > "$tmp/stdout" 2> "$tmp/stderr"
    code=$?
    ;;
*)
    echo "run_case.sh: $case_file is neither .args nor .sh" >&2
    exit 1
    ;;
esac

fail=0
report() {
    echo "FAIL cli_$name: $1" >&2
    fail=1
}

want_exit=0
[ -f "$base.exit" ] && want_exit=$(tr -d ' \n' < "$base.exit")
[ "$code" = "$want_exit" ] || report "exit code $code, expected $want_exit"

check_exact() { # stream expected-file
    [ -f "$2" ] || return 0
    if ! diff -u "$2" "$tmp/$1" > "$tmp/$1.diff"; then
        report "$1 differs from $(basename "$2"):"
        cat "$tmp/$1.diff" >&2
    fi
}

check_contains() { # stream expected-lines-file
    [ -f "$2" ] || return 0
    while IFS= read -r line || [ -n "$line" ]; do
        [ -z "$line" ] && continue
        line=$(printf '%s' "$line" | sed -e "s|@TMP@|$tmp/work|g" -e "s|@DATA@|$data|g")
        grep -qF -- "$line" "$tmp/$1" || report "$1 does not contain: $line"
    done < "$2"
}

check_exact stdout "$base.out"
check_exact stderr "$base.err"
check_contains stdout "$base.out.contains"
check_contains stderr "$base.err.contains"

if [ "$fail" != 0 ]; then
    echo "--- stdout of cli_$name:" >&2
    cat "$tmp/stdout" >&2
    echo "--- stderr of cli_$name:" >&2
    cat "$tmp/stderr" >&2
    exit 1
fi
echo "ok cli_$name"
exit 0
