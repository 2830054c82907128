/* What TIDL-RT itself requires of the buffers an application hands it:
 * the allocation of an input (one padded plane more than the layout on
 * V2/V3, inBufSize on V4). Numbers worked out from TI's rules by hand. */
#include <string.h>

#include "tl_test.h"

static uint64_t alloc_of(const char *spec)
{
    tl_desc d;
    uint64_t n = 0;
    if (tl_desc_parse(&d, spec) != TL_OK || tl_tidl_input_alloc_size(&d, &n) != TL_OK) {
        FAILF("%s: %s", spec, tl_last_error());
        return 0;
    }
    return n;
}

/* 224x224 u8 with a 1-pixel border: cp = 226*226 = 51076; the layout spans
 * 3 cp = 153228 bytes, TI's test bench allocates (3 + 1) cp = 204304. */
TL_TEST(input_alloc_v2_v3_one_plane_more)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x224x224:pad=1,1,1,1"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 153228);
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x224x224:pad=1,1,1,1"), 204304);
    /* int16, cp 80, 2 batches: 2 * (3 + 1) * 80 * 2 bytes */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:i16:2x3x4x10:pad=1,1,1,1:cp=80"), 1280);
    /* 6-D: N * DIM1 * DIM2 * (C + 1) * cp * es = 1*2*3*(4+1)*12*1 */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x2x3x4x3x4"), 360);
    /* PadCh 2: the layout (C + PadCh planes) already spans more than C + 1 */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x4x4:padch=2"), 80);
    /* dense NHWC: the channel slot is H*W */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x4x5:layout=nhwc"), 80);
}

/* V4: inBufSize already counts the plane, so it is the allocation. */
TL_TEST(input_alloc_v4_is_bufsize)
{
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x224x224:pad=1,1,1,1:bufsize=204304"), 204304);
    CHECK_EQ_I64((int64_t)alloc_of("tidl:i16:1x3x4x10:pad=1,1,1,1:bufsize=300"), 600);
}

TL_TEST(input_alloc_errors)
{
    tl_desc d;
    uint64_t n = 7;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x3x4x4"), TL_OK);
    CHECK_STATUS(tl_tidl_input_alloc_size(&d, &n), TL_ERR_VENDOR_EXPORT);
    CHECK(n == 7);
    CHECK_STATUS(tl_tidl_input_alloc_size(NULL, &n), TL_ERR_NULL);
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x4x4"), TL_OK);
    CHECK_STATUS(tl_tidl_input_alloc_size(&d, NULL), TL_ERR_NULL);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(input_alloc_v2_v3_one_plane_more);
    TL_RUN(input_alloc_v4_is_bufsize);
    TL_RUN(input_alloc_errors);
    return tl_test_finish();
}
