# TIDL with a 1-element border: the model's offset formula, and TI's own account
# from the vendor hook (line pitch, first valid element, bug B1).
tlayout explain tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25 | tr '\n' ' ' | tr -s ' ' > t.txt
for s in 'real = q * (1 / 25) (inverse scale, times its f32 reciprocal as TIDL-RT computes it). Quantizing into this tensor rounds toward zero' \
    'H is padded from 4 to 6 (1 before, 1 after); W is padded from 10 to 12 (1 before, 1 after).' \
    'Byte offset of (n, c, h, w) = 144*c + 24*(h+1) + 2*(w+1).' \
    'As TI TIDL-RT describes it:' \
    'Line pitch lp = Width + PadL + PadR = 10 + 1 + 1 = 12 elements (24 bytes).' \
    'The first valid element is at PadT x lp + PadL = 1 x 12 + 1 = 13 elements (byte 26).'; do
    grep -qF -- "$s" t.txt && echo "found: $s" || echo "MISSING: $s"
done
