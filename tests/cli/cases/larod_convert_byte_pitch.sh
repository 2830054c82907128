# NHWC u16 with pitches[3]=7: a valid description (offsets work), but pixels
# 7 bytes apart are not whole u16 elements, so element-wise conversion refuses.
tlayout offset larod.nhwc:u16:1x2x3x3:pitches=42,42,21,7 0,1,2,1
head -c 42 /dev/zero > in.bin
if tlayout convert --from larod.nhwc:u16:1x2x3x3:pitches=42,42,21,7 --to NHWC:u16:1x2x3x3 -i in.bin -o out.bin; then
    echo "unexpected success"
else
    echo "exit $?"
fi
[ -e out.bin ] || echo "no output written"
