# DirectML broadcast: stride 0, read-only, and DirectML's own size rule.
tlayout explain dml:f32:1x3x4x4:strides=1,0,0,0 | tr '\n' ' ' | tr -s ' ' > t.txt
for s in 'Stride 0 along C, H, W: every position along them reads the same stored element (broadcast).' \
    'The descriptor is read-only: it can be converted from, never into.' \
    'As DirectML describes it:'; do
    grep -qF -- "$s" t.txt && echo "found: $s" || echo "MISSING: $s"
done
