# A 1x3x2x2 i8 tensor, scale 0.5 (code 2 = 1.0), by channel:
#   c0: 0 1 2 3   c1: 4 0 0 1   c2: 1 5 2 -1
# Threshold 1.0 passes codes >= 2. The same tensor converted to RKNN NC1HWC2
# (13 pad channels filled with 127, above the threshold) must give the same lines:
# pad channels are never reported.
printf '\000\001\002\003\004\000\000\001\001\005\002\377' > t.bin
S='NCHW:i8:1x3x2x2:zp=0:scale=0.5'
R='rknn.nc1hwc2:i8:1x1x2x2x16:c=3:zp=0:scale=0.5'
echo "all"
tlayout scan "$S" -i t.bin --threshold 1.0
echo "best"
tlayout scan "$S" -i t.bin --threshold 1 --best
echo "channels 1,2 best"
tlayout scan "$S" -i t.bin --threshold 1 --channels 1,2 --best
tlayout convert --from "$S" --to "$R" -i t.bin -o r.bin
# fill the pad lanes (bytes 3..15 of every 16) with 127
od -An -v -tu1 r.bin | tr -s ' ' '\n' | grep -v '^$' | awk '{ if ((NR-1)%16 >= 3) printf "\\177"; else printf "\\%03o", $1 }' > r.fmt
printf "$(cat r.fmt)" > r.bin
echo "nc1hwc2 all"
tlayout scan "$R" -i r.bin --threshold 1.0
echo "json"
tlayout scan "$R" -i r.bin --threshold 2 --json
