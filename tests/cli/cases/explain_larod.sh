# The example: larod's Example 2. Lines are joined (explain wraps at 78
# columns), then each expected sentence is looked up.
tlayout explain larod.nhwc:u8:1x224x300x3:align=0,0,32,4 | tr '\n' ' ' | tr -s ' ' > t.txt
for s in 'larod.nhwc:u8:1x224x300x3:pitches=272384,272384,1216,4' \
    'Row pitch pitches[2] = 1216 bytes per row = 300 pixels x 4 bytes, rounded up to a multiple of 32 (16 bytes of padding, not written by conversions).' \
    'C is padded from 3 to 4 (1 after).' \
    'Byte offset of (n, h, w, c) = 1216*h + 4*w + c.' \
    'A buffer needs 272384 bytes: 201600 bytes of values, 67200 bytes of padding elements and 3584 bytes of slack' \
    'The last element (n=0, h=223, w=299, c=2) is at byte 272366.' \
    'As Axis larod describes it:'; do
    grep -qF -- "$s" t.txt && echo "found: $s" || echo "MISSING: $s"
done
