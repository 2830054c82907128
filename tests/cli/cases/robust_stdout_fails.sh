# Every command that prints fails (exit 1, a message) when standard output
# cannot be written (issue 15): /dev/full, then a closed stdout.
tlayout tidl-info --write-sample 2 1 io.bin
for args in "describe NCHW:u8:1x2x3x4" "describe --json NCHW:u8:1x2x3x4" "explain NCHW:u8:1x2x3x4" \
    "offset NCHW:u8:1x2x3x4 0,1,2,3" "tidl-info io.bin" "tidl-info --json io.bin" \
    "threshold NCHW:u8:1x1x1x1:scale=0.5:zp=3 1.0" "draw NCHW:u8:1x2x3x4 -o -" "--help" "--version" \
    "describe --help"; do
    # shellcheck disable=SC2086
    if tlayout $args >/dev/full 2>err; then rc=0; else rc=$?; fi
    echo "$args: exit $rc: $(cat err)"
done
if tlayout describe NCHW:u8:1x2x3x4 >&- 2>err; then rc=0; else rc=$?; fi
echo "closed: exit $rc: $(cat err)"
