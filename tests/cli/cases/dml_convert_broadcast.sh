# A DirectML tensor broadcast over H and W (3 stored values + DirectML's rounding
# byte) converted into dense NCHW and NHWC: every position reads its channel's value.
printf '\001\002\003\377' > bc.bin
tlayout convert --from dml.nchw:u8:1x3x2x2:broadcast=0,0,1,1 --to NCHW:u8:1x3x2x2 -i bc.bin -o nchw.bin
od -An -tu1 -v nchw.bin | xargs
tlayout convert --from dml.nchw:u8:1x3x2x2:broadcast=0,0,1,1 --to NHWC:u8:1x2x2x3 -i bc.bin -o nhwc.bin
od -An -tu1 -v nhwc.bin | xargs
# dense NCHW 0..11 into DirectML NHWC strides {12,1,6,3}, and back
printf '\000\001\002\003\004\005\006\007\010\011\012\013' > dense.bin
tlayout convert --from NCHW:u8:1x3x2x2 --to dml.nhwc:u8:1x3x2x2 -i dense.bin -o dml.bin
od -An -tu1 -v dml.bin | xargs
tlayout convert --from dml.nhwc:u8:1x3x2x2 --to dml:u8:1x3x2x2 -i dml.bin -o back.bin
cmp dense.bin back.bin && echo "NCHW -> dml.nhwc -> dml: identical"
