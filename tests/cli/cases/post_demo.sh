# The RKNN decode paragraph of `tlayout demo`: the detection count of the
# synthetic YOLOv8n heads (the same 34 examples/rknn_decode checks against a
# dequantize-everything decode) and the best detection; times cut out.
tlayout demo --no-svg --runs 1 > demo.txt
grep -oE '[0-9]+ detections in' demo.txt
grep -E '^    class 38  score 0.820' demo.txt
