# A file of no known sTIDL_IOBufDesc_t size: rejected, the known sizes listed.
tlayout tidl-info --write-sample 4 1 io.bin
head -c 94000 io.bin > short.bin
tlayout tidl-info short.bin
