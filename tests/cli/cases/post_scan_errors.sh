# Named errors: an empty or out-of-range channel range, a NaN threshold, a
# negative scale (refused by the spec already), a short input, k above C.
printf '\000\001\002\003\004\000\000\001\001\005\002\377' > t.bin
S='NCHW:i8:1x3x2x2:zp=0:scale=0.5'
tlayout scan "$S" -i t.bin --threshold 1 --channels 1,0 2>&1 || echo "exit $?"
tlayout scan "$S" -i t.bin --threshold 1 --channels 2,2 2>&1 || echo "exit $?"
tlayout scan "$S" -i t.bin --threshold nan 2>&1 || echo "exit $?"
tlayout scan 'NCHW:i8:1x3x2x2:zp=0:scale=-0.5' -i t.bin --threshold 1 2>&1 || echo "exit $?"
tlayout scan 'NCHW:i8:1x3x2x3' -i t.bin --threshold 1 2>&1 || echo "exit $?"
tlayout topk "$S" -i t.bin --k 4 2>&1 || echo "exit $?"
