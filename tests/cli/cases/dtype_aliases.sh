# Framework dtype names are read as tlayout's and printed back canonically.
for t in float32 float fp32 float16 fp16 half bfloat16 uint8 int8 uint16 int16 int32 uint32 int64 uint64 float64 double bool; do
    tlayout describe "NHWC:$t:1x2x2x3" | head -n 1
done
