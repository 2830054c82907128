# A 2x2 NV12 frame of Y=235, U=V=128 (limited-range white) to a 1x1 RGB
# input on stdout: 255 255 255. Then -i - from stdin to NCHW f32 /255.
printf '\353\353\353\353\200\200' > white.nv12
tlayout image --from yuv.nv12:u8:3x2x2 --to NHWC:u8:1x1x1x3 -i white.nv12 -o - | od -An -tu1
tlayout image --from yuv.nv12:u8:3x2x2 --to NCHW:f32:1x3x1x1 --std 255 -i - -o - < white.nv12 | od -An -tf4
