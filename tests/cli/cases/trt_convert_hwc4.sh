# NHWC u8 1x2x2x3 -> kDLA_HWC4 i8 with scale=2 (round half to even, saturate):
# C=3 becomes 4 lanes, rows are 64 bytes on Orin; the existing 0xAA bytes of
# out.bin are replaced, every padding byte written as zero.
printf '\001\002\003\004\005\006\007\010\011\012\013\377' > img.bin
head -c 128 /dev/zero | tr '\000' '\252' > out.bin
tlayout convert --from NHWC:u8:1x2x2x3 --to trt.dla_hwc4:i8:1x3x2x2:scale=2 -i img.bin -o out.bin
od -An -td1 -v out.bin | xargs
