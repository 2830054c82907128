# A 4-core V4 image (378392 bytes) told to be read as a 1-core V4 runtime
# reads it (94616 bytes): rejected with both sizes.
tlayout tidl-info --write-sample 4 4 io.bin
tlayout tidl-info io.bin --variant 4,4 | head -1
tlayout tidl-info io.bin --variant 4,1
