# An endless input (/dev/zero, as a file and on stdin): tlayout reads only the
# source's size plus one byte, so it stops and reports the excess. `timeout`
# turns the old unbounded read into exit 124 instead of a hang.
run() {
    if timeout 10 tlayout convert --from "$1" --to NCHW:u8:1x1x1x4 -i "$2" -o out.bin < /dev/zero; then
        echo "unexpected success"
    else
        echo "exit $?"
    fi
}
run NCHW:u8:1x1x1x4 /dev/zero
run NCHW:u8:1x1x1x4 -
run NCHW:f32:1x1x1x4 /dev/zero
[ -e out.bin ] || echo "no output written"
