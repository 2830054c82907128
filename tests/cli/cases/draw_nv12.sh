# NV12 4x6: the Y plane and the interleaved CbCr plane drawn apart; chroma
# boxes name their channel, rows and column groups their 2x2 block.
tlayout draw yuv.nv12:u8:3x4x6 -o - > m.svg
sh "$DATA/svgcheck.sh" m.svg
for t in '>Y h0<' '>Y h3<' '>h0-1<' '>h2-3<' '>w0-1<' '>w4-5<' '>Cb<' '>Cr<' '>w5<'; do
    printf '%s %s\n' "$t" "$(grep -o "$t" m.svg | wc -l | tr -d ' ')"
done
grep -o 'plane 0 (Y): bytes 0-23' m.svg
grep -o 'planes 1 (Cb) + 2 (Cr): bytes 24-35' m.svg
