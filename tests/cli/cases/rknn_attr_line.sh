# The attr line a Rockchip demo prints, as a spec and the rknn_create_mem size
# (85 channels in 6 blocks of 16: 1*6*80*80*16 = 614400 bytes).
tlayout rknn-attr 'index=0, name=output0, n_dims=4, dims=[1, 6, 80, 80, 16], n_elems=614400, size=614400, w_stride=80, size_with_stride=614400, fmt=NC1HWC2, type=INT8, qnt_type=AFFINE, zp=-128, scale=0.003922' --channels 85
