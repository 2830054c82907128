# C=1 blocked by 4: three padding bytes after each element.
printf '\007\011' > in.bin
printf '\377\377\377\377\377\377\377\377' > out.bin
tlayout convert --from NCHW:u8:1x1x1x2 --to NCHW4c:u8:1x1x1x2 -i in.bin -o out.bin --keep-padding
echo "kept:   $(od -An -tu1 -v out.bin | xargs)"
tlayout convert --from NCHW:u8:1x1x1x2 --to NCHW4c:u8:1x1x1x2 -i in.bin -o out.bin
echo "zeroed: $(od -An -tu1 -v out.bin | xargs)"
