# A 640x480 pitched image is summarised: the first rows, a gap that says how
# many were left out, the last row; each row its start, a gap, its end and the
# 128-byte slack run as one box. The file stays small.
tlayout draw larod.nhwc:u8:1x480x640x3:align=0,0,256,0 -o m.svg
sh "$DATA/svgcheck.sh" m.svg
grep -o '476 lines not drawn (bytes 6,144 to 980,992)' m.svg
grep -o '>h479<' m.svg
grep -o '>w639<' m.svg
printf '128 B boxes: %s\n' "$(grep -o '>128 B<' m.svg | wc -l | tr -d ' ')"
[ "$(wc -c < m.svg)" -lt 100000 ] && echo 'under 100 kB'
