# A custom io_1.bin written from specs reads back with the same buffers.
tlayout tidl-info --write io.bin --in 'data=tidl:i8:1x3x224x224:pad=1,1,1,1:scale=0.5' --out 'tidl:i16:1x10x1x1:scale=25' --out 'prob=tidl:f32:1x1x1x10'
wc -c < io.bin | xargs
tlayout tidl-info io.bin | grep -E '^  (in|out)\[|spec '
tlayout tidl-info --write io3.bin --version 3 --cores 2 --in 'tidl:u8:1x3x4x10:pad=1,1,1,1'
tlayout tidl-info io3.bin | head -n 1
