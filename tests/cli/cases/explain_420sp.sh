# larod Example 3 (NV12 with 32-byte rows): one formula per plane, subsampling.
tlayout explain larod.420sp:u8:3x224x300:pitches=107520,71680,320 | tr '\n' ' ' | tr -s ' ' > t.txt
for s in 'It is stored in 3 planes split along C.' \
    'Plane 1 (Cb: C 1) starts at byte 71680 and stores H and W subsampled by 2.' \
    'Plane 0 (Y): byte offset of (c, h, w) = 320*h + w.' \
    'Plane 2 (Cr): byte offset of (c, h, w) = 71681 + 320*(h/2) + 2*(w/2).' \
    'A buffer needs 107520 bytes: 100800 bytes of values and 6720 bytes of slack'; do
    grep -qF -- "$s" t.txt && echo "found: $s" || echo "MISSING: $s"
done
