# --threads gives the same bytes as one thread: a 3x480x640 f32 image (3.7 MB,
# big enough to be split) NCHW -> NHWC, with 2 threads and with the fast cores.
awk 'BEGIN { for (i = 0; i < 921600; i++) printf "%c%c%c%c", i % 97 + 1, 7, 65, 64 }' > nchw.bin
tlayout convert --from NCHW:f32:1x3x480x640 --to NHWC:f32:1x480x640x3 -i nchw.bin -o one.bin
tlayout convert --from NCHW:f32:1x3x480x640 --to NHWC:f32:1x480x640x3 -i nchw.bin -o two.bin --threads 2
tlayout convert --from NCHW:f32:1x3x480x640 --to NHWC:f32:1x480x640x3 -i nchw.bin -o fast.bin --threads=0
cmp one.bin two.bin && echo "2 threads: identical"
cmp one.bin fast.bin && echo "fast cores: identical"
wc -c < two.bin | xargs
