# NCHW16c with C=20 (the README's example): blocked order, padding, and an offset
# formula that gives 708 for (0, 17, 1, 2) as `tlayout offset` does.
tlayout explain NCHW16c:f32:1x20x2x3 | tr '\n' ' ' | tr -s ' ' > t.txt
for s in 'Memory order, outermost first (steps x bytes per step): C/16 2 x 384 bytes, H 2 x 192 bytes, W 3 x 64 bytes, C%16 16 x 4 bytes.' \
    'C is padded from 20 to 32 (12 after).' \
    'Byte offset of (n, c, h, w) = 384*(c/16) + 192*h + 64*w + 4*(c%16).' \
    'A buffer needs 768 bytes: 480 bytes of values, 288 bytes of padding elements; 62.5% of the buffer holds values.'; do
    grep -qF -- "$s" t.txt && echo "found: $s" || echo "MISSING: $s"
done
grep -q 'describes it' t.txt && echo 'a vendor section for a generic layout' || echo 'no vendor section'
