# NCHW16c, C=20 padded to 32: two channel blocks of two rows, 16-lane vectors
# outlined (one per pixel and block: 12, +1 in the legend), channels 20..31
# hatched padding (12 lanes x 3 pixels x 2 rows = 72, +1 in the legend).
tlayout draw NCHW16c:f32:1x20x2x3 -o m.svg
sh "$DATA/svgcheck.sh" m.svg
for t in '>c0-15 h0<' '>c16-31 h1<' 'class="o"' 'url(#hatch)'; do
    printf '%s %s\n' "$t" "$(grep -o "$t" m.svg | wc -l | tr -d ' ')"
done
grep -o '768 bytes = 480 of values + 288 of padding elements' m.svg
