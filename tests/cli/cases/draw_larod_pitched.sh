# larod Example 2 shrunk to 4x6: 4-byte pixels (C 3 -> 4) in 32-byte rows.
# Well-formed SVG; 24 boxes per channel value (+1 legend swatch label each)
# and 24 per padding lane (grey: no legend entry); 4 rows of
# 8 bytes of slack; the stats line says how the 128 bytes divide.
tlayout draw larod.nhwc:u8:1x4x6x3:align=0,0,32,4 -o m.svg
sh "$DATA/svgcheck.sh" m.svg
for t in '>c0<' '>c1<' '>c2<' '>c3<' '>w0<' '>w5<' '>h0<' '>h3<' '>8 B<'; do
    printf '%s %s\n' "$t" "$(grep -o "$t" m.svg | wc -l | tr -d ' ')"
done
grep -o '128 bytes = 72 of values + 24 of padding elements + 32 of slack' m.svg
grep -o 'bytes 0-127, 4 lines of 32 bytes (one step of h)' m.svg
