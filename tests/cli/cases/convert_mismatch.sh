# Logical dims differ (W 2 vs 3): rejected, nothing written.
printf '\000\001\002\003' > in.bin
if tlayout convert --from NCHW:u8:1x1x2x2 --to NCHW:u8:1x1x2x3 -i in.bin -o out.bin; then
    echo "unexpected success"
else
    echo "exit $?"
fi
[ -e out.bin ] || echo "no output written"
