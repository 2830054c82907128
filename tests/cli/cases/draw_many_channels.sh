# 84 channels: one hue per channel instead of a palette that repeats every few
# channels; no two channels drawn share a fill colour.
tlayout draw NCHW:u8:1x84x1x2 -o m.svg --lines 100
sh "$DATA/svgcheck.sh" m.svg
grep -o 'each of the 84 channels its own hue: no two share a colour' m.svg
rows=$(grep -o 'class="l">c[0-9]*<' m.svg | sort -u | wc -l | tr -d ' ')
fills=$(grep -o 'fill="#[0-9a-f]*" class="e"' m.svg | sort -u | wc -l | tr -d ' ')
echo "channel rows drawn: $rows"
[ "$fills" -eq "$rows" ] && echo "distinct fills: one per channel"
