# --json of the sample image (V3, 2 cores): one object, every buffer.
tlayout tidl-info --write-sample 3 2 io.bin
tlayout tidl-info --json io.bin
