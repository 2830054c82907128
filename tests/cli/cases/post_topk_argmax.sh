# The tensor of post_scan: top-2 per position (ties: the earlier channel first)
# and the label map (ties: the lowest channel), int32 little-endian.
printf '\000\001\002\003\004\000\000\001\001\005\002\377' > t.bin
S='NCHW:i8:1x3x2x2:zp=0:scale=0.5'
tlayout topk "$S" -i t.bin --k 2
echo "argmax"
tlayout argmax "$S" -i t.bin -o labels.bin
od -An -v -td4 labels.bin | tr -s ' ' | sed 's/^ //'
echo "argmax nearest 4x4 u8"
tlayout argmax "$S" -i t.bin -o l8.bin --size 4x4 --resize nearest --u8
od -An -v -tu1 l8.bin | tr -s ' ' | sed 's/^ //'
