# NV12 into HWC: the samples move unchanged, and a warning says there is no colour conversion.
printf '\001\002\003\004\005\006\007\010\011\012\013\014' > nv12.bin
tlayout convert --from yuv.nv12:u8:3x2x4 --to HWC:u8:2x4x3 -i nv12.bin -o hwc.bin
echo "$(od -An -tu1 -v hwc.bin | xargs)"
