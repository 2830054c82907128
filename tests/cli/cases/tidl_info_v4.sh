# The full human listing of the sample image (V4, 1 core).
tlayout tidl-info --write-sample 4 1 io.bin
tlayout tidl-info io.bin
