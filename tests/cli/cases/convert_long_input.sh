# 5 bytes where NCHW:u8:1x1x2x2 needs 4: an error (usually a wrong --from), no output.
printf '\000\001\002\003\004' > in.bin
if tlayout convert --from NCHW:u8:1x1x2x2 --to NHWC:u8:1x2x2x1 -i in.bin -o out.bin; then
    echo "unexpected success"
else
    echo "exit $?"
fi
[ -e out.bin ] || echo "no output written"
# A 2 MiB source read through the growing buffer: exact is fine, one byte more is not.
head -c 2097152 /dev/zero > big.bin
tlayout convert --from NCHW:u8:1x1x1024x2048 --to NHWC:u8:1x1024x2048x1 -i big.bin -o big.out
echo "exact: $(wc -c < big.out | tr -d ' ') bytes written"
printf '\000' >> big.bin
if tlayout convert --from NCHW:u8:1x1x1024x2048 --to NHWC:u8:1x1024x2048x1 -i big.bin -o big2.out; then
    echo "unexpected success"
else
    echo "exit $?"
fi
[ -e big2.out ] || echo "no output written"
