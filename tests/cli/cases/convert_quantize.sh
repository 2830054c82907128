# f32 {1.0, -2.0, 0.25, 100.0} -> i8 scale 0.5 (q = 2, -4, 0.5 rounded, 200 saturated)
printf '\000\000\200\077\000\000\000\300\000\000\200\076\000\000\310\102' > f32.bin
for r in even away zero; do
    tlayout convert --from NCHW:f32:1x1x1x4 --to NCHW:i8:1x1x1x4:scale=0.5:round=$r -i f32.bin -o q.bin
    echo "round=$r: $(od -An -td1 -v q.bin | xargs)"
done
tlayout convert --from NCHW:i8:1x1x1x4:scale=0.5 --to NCHW:f32:1x1x1x4 -i q.bin -o back.bin
echo "dequantized: $(od -An -tx1 -v back.bin | xargs)"
