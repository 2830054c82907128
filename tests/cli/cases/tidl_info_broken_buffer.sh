# outPadT[0] = -1 (V4, 1 core: outWidth at 19352, outPadT eight arrays of
# 128 int32 later, 19352 + 8*512 = 23448). Every buffer is still listed;
# the broken one shows its error, and the exit code is 1.
tlayout tidl-info --write-sample 4 1 io.bin
printf '\377\377\377\377' | dd of=io.bin bs=1 seek=23448 conv=notrunc 2>/dev/null
tlayout tidl-info io.bin
