# NCHW u8 1x3x2x2 holding 0..11 -> NHWC -> NCHW, and through NCHW4c on stdin/stdout.
printf '\000\001\002\003\004\005\006\007\010\011\012\013' > nchw.bin
tlayout convert --from NCHW:u8:1x3x2x2 --to NHWC:u8:1x2x2x3 -i nchw.bin -o nhwc.bin
od -An -tu1 -v nhwc.bin | xargs
tlayout convert --from NHWC:u8:1x2x2x3 --to NCHW:u8:1x3x2x2 -i nhwc.bin -o back.bin
cmp nchw.bin back.bin && echo "NCHW -> NHWC -> NCHW: identical"
tlayout convert --from NCHW:u8:1x3x2x2 --to NCHW4c:u8:1x3x2x2 -i - -o - < nchw.bin > blocked.bin
od -An -tu1 -v blocked.bin | xargs
tlayout convert --from=NCHW4c:u8:1x3x2x2 --to=NCHW:u8:1x3x2x2 --input blocked.bin --output back2.bin
cmp nchw.bin back2.bin && echo "NCHW -> NCHW4c -> NCHW: identical"
