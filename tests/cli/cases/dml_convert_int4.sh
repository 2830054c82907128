# Five i8 values into DirectML INT4 {1,1,1,5}: 20 bits, a 4-byte buffer
# (DMLCalcBufferTensorSize rounds 3 bytes up to 4); element 0 in the low nibble.
printf '\370\007\377\000\005' > i8.bin
tlayout convert --from NCHW:i8:1x1x1x5 --to dml:i4:1x1x1x5 -i i8.bin -o i4.bin
od -An -tu1 -v i4.bin | xargs
tlayout convert --from dml:i4:1x1x1x5 --to NCHW:i8:1x1x1x5 -i i4.bin -o back.bin
od -An -td1 -v back.bin | xargs
