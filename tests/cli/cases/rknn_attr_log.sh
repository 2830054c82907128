# A pasted demo log on stdin: only the lines with dims= are attrs.
printf 'model input num: 1, output num: 1\n  index=0, name=in, n_dims=4, dims=[1, 2, 3, 4], n_elems=24, size=24, w_stride = 3, size_with_stride=32, fmt=NHWC, type=UINT8, qnt_type=NONE, zp=0, scale=1.000000\nmodel is NHWC input fmt\n' | tlayout rknn-attr -
