# TIDL-RT reads code -127 (0x81) at scale 127.5 as q * (1.0f/127.5) = -0.9960784912
# (f32 bits 0xbf7eff00); dequant=divide gives the quotient -0.9960784316 (0xbf7efeff).
printf '\201' | tlayout convert --from tidl:i8:1x1x1x1:scale=127.5 --to NCHW:f32:1x1x1x1 -i - -o - | od -An -tx4
printf '\201' | tlayout convert --from tidl:i8:1x1x1x1:scale=127.5:dequant=divide --to NCHW:f32:1x1x1x1 -i - -o - | od -An -tx4
