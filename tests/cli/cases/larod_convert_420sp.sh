# larod 420SP 3x3 pixels (odd H and W): dense row pitch 4 (3 Y bytes, 2 CbCr
# pairs), Y plane 12 bytes, 2 CbCr rows -> 20 bytes. To planar CHW: chroma
# is shared by each 2x2 block (the last block is 1 wide / 1 high).
printf '\012\013\014\000\015\016\017\000\020\021\022\000\024\025\026\027\030\031\032\033' > nv12.bin
tlayout convert --from larod.420sp:u8:3x3x3 --to CHW:u8:3x3x3 -i nv12.bin -o chw.bin
echo "$(od -An -tu1 -v chw.bin | xargs)"
tlayout convert --from CHW:u8:3x3x3 --to larod.420sp:u8:3x3x3 -i chw.bin -o back.bin
cmp nv12.bin back.bin && echo "420SP -> CHW -> 420SP: identical"
