#!/bin/sh
# Visual check of `tlayout draw` and the demo's pictures: render each SVG to a
# PNG with headless Chromium, for a person (or a model with an image viewer) to
# look at. Not run by CI or ctest: it needs Debian's chromium
# (apt-get install chromium) and judging a picture needs eyes. The CLI tests
# already check that every SVG is well formed and holds the expected labels.
#
#   tests/visual/render.sh [TLAYOUT] [OUTDIR]
#       TLAYOUT  the tlayout binary (default build/tlayout)
#       OUTDIR   where the .svg and .png files go (default build/visual)
#
# What to look for in each PNG:
#  - memory runs left to right, top to bottom; one line per row of the layout;
#  - colour = channel (legend), padding elements hatched over a pale tint,
#    slack (bytes no element uses) cross-hatched, planes (NV12) in separate
#    panels, pixels / vectors / CbCr pairs outlined;
#  - labels inside boxes readable and not overflowing; summaries of large
#    tensors show the gaps they leave out ("476 lines not drawn", "1872 B");
#  - nothing cut off at the right or bottom edge.
set -eu
tlayout=${1:-build/tlayout}
out=${2:-build/visual}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "render.sh: chromium not found (apt-get install chromium)" >&2; exit 2; }
[ -x "$tlayout" ] || { echo "render.sh: $tlayout is not an executable (build first)" >&2; exit 2; }
mkdir -p "$out"
out=$(cd "$out" && pwd)

# name|spec: small tensors drawn whole, and the demo's 640x480 formats summarised
specs='larod-nhwc|larod.nhwc:u8:1x4x6x3:align=0,0,32,4
larod-420sp|larod.420sp:u8:3x4x6:align=8,0
tidl|tidl:i16:1x2x3x6:pad=1,1,1,1
dml|dml:f16:1x3x2x4:strides=24,1,12,3
rknn-nc1hwc2|rknn.nc1hwc2:i8:1x2x2x4x16:c=20
trt-chw32|trt.chw32:i8:1x3x2x2
trt-dla-hwc4|trt.dla_hwc4:i8:1x3x2x5
nchw16c|NCHW16c:f32:1x20x2x3
u4|NCHW:u4:1x2x3x5
broadcast|dml:f32:1x3x4x4:strides=1,0,0,0
large-larod|larod.nhwc:u8:1x480x640x3:align=0,0,256,0
large-tidl|tidl:i8:1x3x480x640:pad=1,1,1,1:scale=0.5'

# shot SVG PNG: the window is the size the SVG declares.
shot() {
    w=$(sed -n 's/.*<svg[^>]* width="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
    h=$(sed -n 's/.*<svg[^>]* height="\([0-9]*\)".*/\1/p' "$1" | head -n 1)
    profile=$(mktemp -d)
    "$browser" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --hide-scrollbars \
        --user-data-dir="$profile" --window-size="${w:-1200},${h:-800}" \
        --screenshot="$2" "file://$1" >/dev/null 2>&1 || true
    rm -rf "$profile"
    if [ -s "$2" ]; then echo "  $2"; else echo "  FAILED: $2" >&2; fails=$((fails + 1)); fi
}

fails=0
echo "tlayout draw:"
while IFS='|' read -r name spec; do
    "$tlayout" draw "$spec" -o "$out/$name.svg"
    shot "$out/$name.svg" "$out/$name.png"
done <<EOF
$specs
EOF
echo "tlayout demo:"
(cd "$out" && "$tlayout" demo --runs 1 --out demo > demo.txt)
for f in "$out"/demo/*.svg; do shot "$f" "${f%.svg}.png"; done
echo "done: open the PNGs in $out"
[ "$fails" -eq 0 ]
