# larod NHWC u8 with pitches[3]=4 (larod Example 2 style, C=3 padded to 4 bytes)
# -> NCHW and back: the pad byte (99 here) comes back zeroed.
printf '\001\002\003\143\004\005\006\143\007\010\011\143\012\013\014\143' > nhwc.bin
tlayout convert --from larod.nhwc:u8:1x2x2x3:align=0,0,0,4 --to NCHW:u8:1x3x2x2 -i nhwc.bin -o nchw.bin
echo "planar: $(od -An -tu1 -v nchw.bin | xargs)"
tlayout convert --from NCHW:u8:1x3x2x2 --to larod.nhwc:u8:1x2x2x3:align=0,0,0,4 -i nchw.bin -o back.bin
echo "larod:  $(od -An -tu1 -v back.bin | xargs)"
# dequantized with scale/zp given in the spec (larod has none): codes 10 12 8 -> 0 1 -1
printf '\012\014\010\000' > q.bin
tlayout convert --from larod.nhwc:u8:1x1x1x3:align=0,0,0,4:scale=0.5:zp=10 --to NCHW:f32:1x3x1x1 -i q.bin -o f.bin
echo "f32:    $(od -An -tx1 -v f.bin | xargs)"
