# Packed 4-bit elements: half-byte strides; the last element is a high nibble.
tlayout explain NCHW:u4:1x1x2x3 | tr '\n' ' ' | tr -s ' ' > t.txt
for s in 'A tensor of u4 (0.5 bytes per element)' \
    'Byte offset of (n, c, h, w) = 1.5*h + 0.5*w' \
    'A buffer needs 3 bytes, all of them values: the layout is dense.' \
    'The last element (n=0, c=0, h=1, w=2) is at byte 2.5.'; do
    grep -qF -- "$s" t.txt && echo "found: $s" || echo "MISSING: $s"
done
