# --threads gives the same bytes as one thread: a 1080p NV12 frame (3 MB, big
# enough to be split) letterboxed into NCHW f32 with mean/std (exact mode),
# at 1, 2 and 3 threads and on the fast cores.
awk 'BEGIN { for (i = 0; i < 3110400; i++) printf "%c", (i * 7 + i / 1920) % 251 + 1 }' > frame.nv12
set -- --from yuv.nv12:u8:3x1080x1920 --to NCHW:f32:1x3x640x640 --fit letterbox --mean 123.5,116.25,103.5 \
    --std 58.5,57,57.5 -i frame.nv12
tlayout image "$@" -o one.bin --threads 1
tlayout image "$@" -o two.bin --threads 2
tlayout image "$@" -o three.bin --threads 3
tlayout image "$@" -o fast.bin --threads 0
tlayout image "$@" -o default.bin
cmp one.bin two.bin && echo "2 threads: identical"
cmp one.bin three.bin && echo "3 threads: identical"
cmp one.bin fast.bin && echo "fast cores: identical"
cmp one.bin default.bin && echo "no --threads: identical"
wc -c < two.bin | xargs
