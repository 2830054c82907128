/* larod pitches from a row pitch and a height (larodBuildTensorPitches'
 * shortcut): the VDO stride case that no alignment expresses, every layout,
 * the spec keys and the errors. Expected pitches worked out by hand from the
 * pitch definition (pitches[i] = bytes from one index of dims[i-1] to the next). */
#include <string.h>

#include "tl_test.h"

static void check_pitches(const tl_larod_tensor_pitches *p, const size_t *want, size_t n)
{
    CHECK_EQ_I64((int64_t)p->len, (int64_t)n);
    for (size_t i = 0; i < n && i < p->len; i++) CHECK_EQ_I64((int64_t)p->pitches[i], (int64_t)want[i]);
}

/* 640x360 RGB from VDO with a 2048-byte stride: a 1920-byte row, 128 bytes of slack. */
TL_TEST(vdo_stride_nhwc)
{
    tl_larod_tensor_dims dims = {{1, 360, 640, 3}, 4};
    tl_larod_tensor_pitches p;
    REQUIRE_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                             2048, 0, &p), TL_OK);
    check_pitches(&p, (const size_t[]){360 * 2048, 360 * 2048, 2048, 3}, 4);
    /* 368 rows per plane (height aligned to 16) */
    REQUIRE_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                             2048, 368, &p), TL_OK);
    check_pitches(&p, (const size_t[]){368 * 2048, 368 * 2048, 2048, 3}, 4);
    /* the same through the spec: pixel (y 2, x 5, c 1) at 2*2048 + 5*3 + 1 */
    tl_desc d;
    uint64_t off;
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x360x640x3:pitch=2048"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 360 * 2048);
    REQUIRE_STATUS(tl_desc_offset(&d, (const int64_t[]){0, 2, 5, 1}, &off), TL_OK);
    CHECK_EQ_I64((int64_t)off, 2 * 2048 + 5 * 3 + 1);
}

TL_TEST(nchw_and_420sp)
{
    tl_larod_tensor_dims nchw = {{2, 3, 4, 5}, 4}, yuv = {{3, 361, 640}, 3};
    tl_larod_tensor_pitches p;
    /* f32 rows of 5 floats = 20 bytes in 32-byte rows, 6 rows per plane */
    REQUIRE_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_NCHW, TL_LAROD_TENSOR_DATA_TYPE_FLOAT32, &nchw,
                                             32, 6, &p), TL_OK);
    check_pitches(&p, (const size_t[]){2 * 3 * 6 * 32, 3 * 6 * 32, 6 * 32, 32}, 4);
    /* NV12, odd height 361 in 362 rows of 704: Y 362*704, then ceil(362/2) CbCr rows */
    REQUIRE_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &yuv,
                                             704, 362, &p), TL_OK);
    check_pitches(&p, (const size_t[]){362 * 704 + 181 * 704, 362 * 704, 704}, 3);
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.420sp:u8:3x361x640:pitch=704"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 361 * 704 + 181 * 704);
}

TL_TEST(errors)
{
    tl_larod_tensor_dims dims = {{1, 360, 640, 3}, 4}, flat = {{4, 4}, 2};
    tl_larod_tensor_pitches p = {{7}, 1};
    CHECK_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                           1900, 0, &p), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "pitch=1900 < 1920 bytes of one row");
    CHECK_EQ_I64((int64_t)p.len, 1); /* untouched */
    CHECK_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                           2048, 359, &p), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "height=359 < 360");
    CHECK_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED, TL_LAROD_TENSOR_DATA_TYPE_UINT8,
                                           &flat, 8, 0, &p), TL_ERR_VENDOR);
    CHECK_STATUS(tl_larod_pitches_from_row(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                           2048, 0, NULL), TL_ERR_NULL);
    tl_desc d;
    CHECK_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x360x640x3:height=368"), TL_ERR_SPEC_OPTION);
    CHECK_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x360x640x3:pitch=2048:align=0,0,32,0"), TL_ERR_SPEC_OPTION);
    CHECK_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x360x640x3:pitch=0"), TL_ERR_SPEC_VALUE);
    /* the odd-width NV12 row needs W+1 bytes */
    CHECK_STATUS(tl_desc_parse(&d, "larod.420sp:u8:3x4x5:pitch=5"), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "pitch=5 < 6 bytes");
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(vdo_stride_nhwc);
    TL_RUN(nchw_and_420sp);
    TL_RUN(errors);
    return tl_test_finish();
}
