# Odd width 5, libyuv/FFmpeg style: Y rows of 5 bytes, CbCr rows of 6.
tlayout describe yuv.nv12:u8:3x4x5:uvpitch=6 | grep -E '^(spec|size)'
# Y(3,4) = 3*5+4; U(2,4) = 20 + 1*6 + 2*2, V one byte on; U(3,3) = 20 + 6 + 2.
tlayout offset yuv.nv12:u8:3x4x5:uvpitch=6 0,3,4 1,2,4 2,2,4 1,3,3
# Equivalent spellings give the canonical spec (Y pitch = W is the default).
tlayout describe yuv.nv12:u8:3x4x5:pitch=5:uvpitch=6 | head -n 1
tlayout describe yuv.nv12:u8:3x4x5:pitch=6:uvpitch=6 | head -n 1
# I420 with U and V rows of 4 bytes: V's last row ends at 28 + 4 + 3 = 35.
tlayout describe yuv.i420:u8:3x4x5:uvpitch=4 | grep -E '^(spec|size)'
# Into planar CHW and back: the bytes survive (the 2 row-tail bytes stay zero).
printf '\001\002\003\004\005\006\007\010\011\012\013\014\015\016\017\020\021\022\023\024\101\102\103\104\105\106\000\000\000\000\000\000' > a.yuv
printf '\107\110\111\112\113\114' | dd of=a.yuv bs=1 seek=26 conv=notrunc 2>/dev/null
tlayout convert --from yuv.nv12:u8:3x4x5:uvpitch=6 --to CHW:u8:3x4x5 -i a.yuv -o chw.bin 2>/dev/null
echo "$(od -An -tu1 -v -j20 -N20 chw.bin | xargs)"
tlayout convert --from CHW:u8:3x4x5 --to yuv.nv12:u8:3x4x5:uvpitch=6 -i chw.bin -o back.yuv
cmp a.yuv back.yuv && echo "NV12 (uvpitch) -> CHW -> NV12: identical"
