# A raw 376-byte little-endian rknn_tensor_attr: index 0, n_dims 4, dims 1,2,3,4,
# name "in", n_elems 24, size 24, fmt NHWC, type UINT8, qnt NONE, scale 1.0f,
# size_with_stride 24 (field offsets of rknn_api.h: name @72, n_elems @328, scale @356).
{
    printf '\0\0\0\0\4\0\0\0\1\0\0\0\2\0\0\0\3\0\0\0\4\0\0\0'
    head -c 48 /dev/zero
    printf 'in'
    head -c 254 /dev/zero
    printf '\30\0\0\0\30\0\0\0\1\0\0\0\3\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\200\77\0\0\0\0\30\0\0\0\0\0\0\0\0\0\0\0'
} > attr.bin
tlayout rknn-attr --dump attr.bin
