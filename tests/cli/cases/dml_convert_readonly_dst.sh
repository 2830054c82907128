# A broadcast DirectML tensor is never a destination: an error, and no output file.
printf '\001\002\003\004\005\006\007\010\011\012\013\014' > in.bin
if tlayout convert --from NCHW:u8:1x3x2x2 --to dml.nchw:u8:1x3x2x2:broadcast=0,0,1,1 -i in.bin -o out.bin; then
    echo "unexpected success"
else
    echo "exit $?"
fi
[ -e out.bin ] || echo "no output written"
