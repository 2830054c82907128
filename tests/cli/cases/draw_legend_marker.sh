# The picture's legend says what one box is; TIDL's first valid element (after
# the PadT row and the PadL column: 1 x 8 + 1 = element 9, byte 18) is marked;
# byte counts have thousands separators; element text is dark (#111) on light fills.
tlayout draw 'tidl:i16:1x2x3x6:pad=1,1,1,1:cp=48' -o t.svg
sh "$DATA/svgcheck.sh" t.svg
grep -o '1 box = 2 bytes (one i16 element)' t.svg
grep -o 'first valid element (byte 18)' t.svg
printf 'markers %s\n' "$(grep -c 'class="m"' t.svg)"
grep -o '\.c{font-size:9px;text-anchor:middle;fill:#111}' t.svg
# No padding before the first element: no marker.
tlayout draw NCHW:u8:1x3x2x2 -o n.svg
printf 'markers %s\n' "$(grep -c 'class="m"' n.svg)"
# 1,228,800 bytes, separated, and in MiB.
tlayout draw NCHW:f32:1x3x320x320 -o big.svg
grep -o '1,228,800 bytes (1.2 MiB)' big.svg
