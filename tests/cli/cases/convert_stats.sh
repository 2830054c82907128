# u8 pixels 0 100 200 255 into i8 with scale 1 ("forgot the scale"): two saturate.
printf '\000\144\310\377' > in.bin
tlayout convert --from NCHW:u8:1x4x1x1 --to NCHW:i8:1x4x1x1 -i in.bin -o out.bin --stats 2>&1
echo "$(od -An -td1 -v out.bin | xargs)"
# With scale=2 (real = 2q) the range is -256 .. 254: only 255 saturates, to 254.
tlayout convert --from NCHW:u8:1x4x1x1 --to NCHW:i8:1x4x1x1:scale=2 -i in.bin -o out.bin --stats 2>&1
echo "$(od -An -td1 -v out.bin | xargs)"
# A float destination holds everything: nothing saturates.
tlayout convert --from NCHW:u8:1x4x1x1 --to NCHW:f16:1x4x1x1 -i in.bin -o - --stats 2>&1 >/dev/null
