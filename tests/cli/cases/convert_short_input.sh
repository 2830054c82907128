# 3 bytes where NCHW:u8:1x1x2x2 needs 4: an error, and no output file.
printf '\000\001\002' > in.bin
if tlayout convert --from NCHW:u8:1x1x2x2 --to NHWC:u8:1x2x2x1 -i in.bin -o out.bin; then
    echo "unexpected success"
else
    echo "exit $?"
fi
[ -e out.bin ] || echo "no output written"
