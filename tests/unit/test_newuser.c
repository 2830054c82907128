/* What a new user meets: separate chroma pitches for odd-width NV12/I420
 * (tl_desc_init_yuv420_pitches, uvpitch=), the "did you mean" name matcher,
 * and messages of tl_convert that name the side and say what to do. Offsets
 * and bytes are checked against the 4:2:0 layout written out by hand. */
#include "tl_test.h"

/* NV12 by definition: Y at y*yp + x; the CbCr pair of (y, x) at
 * H*yp + (y/2)*uvp + (x/2)*2, Cb first. */
static uint64_t nv12_offset(int64_t h, int64_t yp, int64_t uvp, int64_t c, int64_t y, int64_t x)
{
    if (c == 0) return (uint64_t)(y * yp + x);
    return (uint64_t)(h * yp + (y / 2) * uvp + (x / 2) * 2 + (c - 1));
}

TL_TEST(nv12_uvpitch_offsets_and_spec)
{
    const int64_t H = 5, W = 7, YP = 7, UVP = 8; /* libyuv/FFmpeg for odd W: Y stride W, UV stride W+1 */
    tl_desc a, b;
    REQUIRE_STATUS(tl_desc_init_yuv420_pitches(&a, TL_YUV_NV12, H, W, YP, UVP, 0), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&b, "yuv.nv12:u8:3x5x7:uvpitch=8"), TL_OK);
    CHECK_MEM_EQ(&a, &b, sizeof a);
    CHECK_EQ_I64(a.size_bytes, H * YP + 2 * UVP + 8); /* 3 CbCr rows, the last one 8 bytes long */
    for (int64_t c = 0; c < 3; c++)
        for (int64_t y = 0; y < H; y++)
            for (int64_t x = 0; x < W; x++) {
                const int64_t co[3] = {c, y, x};
                uint64_t off = 0;
                REQUIRE_STATUS(tl_desc_offset(&a, co, &off), TL_OK);
                CHECK_EQ_I64(off, nv12_offset(H, YP, UVP, c, y, x));
            }
    char spec[128];
    REQUIRE_STATUS(tl_desc_format(&a, spec, sizeof spec), TL_OK);
    CHECK_STR_EQ(spec, "yuv.nv12:u8:3x5x7:uvpitch=8");
    REQUIRE_STATUS(tl_desc_parse(&b, spec), TL_OK);
    CHECK_MEM_EQ(&a, &b, sizeof a);
    /* The single-pitch form is unchanged: pitch 0 still means W+1 for both planes. */
    REQUIRE_STATUS(tl_desc_init_yuv420_pitches(&a, TL_YUV_NV12, H, W, 0, 0, 0), TL_OK);
    REQUIRE_STATUS(tl_desc_init_yuv420(&b, TL_YUV_NV12, H, W, 0, 0), TL_OK);
    CHECK_MEM_EQ(&a, &b, sizeof a);
    REQUIRE_STATUS(tl_desc_format(&a, spec, sizeof spec), TL_OK);
    CHECK_STR_EQ(spec, "yuv.nv12:u8:3x5x7:pitch=8");
    /* uvpitch equal to what the pitch implies says nothing. */
    REQUIRE_STATUS(tl_desc_parse(&b, "yuv.nv12:u8:3x5x7:pitch=8:uvpitch=8"), TL_OK);
    CHECK_MEM_EQ(&a, &b, sizeof a);
}

TL_TEST(nv12_uvpitch_rules)
{
    tl_desc d;
    CHECK_STATUS(tl_desc_init_yuv420_pitches(&d, TL_YUV_NV12, 4, 5, 5, 5, 0), TL_ERR_STRIDE);
    CHECK_STR_CONTAINS(tl_last_error(), "use uvpitch=6 or more");
    CHECK_STATUS(tl_desc_init_yuv420_pitches(&d, TL_YUV_NV12, 4, 5, 4, 6, 0), TL_ERR_STRIDE);
    CHECK_STATUS(tl_desc_init_yuv420_pitches(&d, TL_YUV_I420, 4, 5, 5, 2, 0), TL_ERR_STRIDE);
    CHECK_STATUS(tl_desc_init_yuv420_pitches(&d, TL_YUV_NV12, 4, 5, 0, -1, 0), TL_ERR_STRIDE);
    CHECK_STATUS(tl_desc_parse(&d, "yuv.nv12:u8:3x480x641:pitch=641"), TL_ERR_STRIDE);
    CHECK_STR_CONTAINS(tl_last_error(), "use pitch=642 or more");
}

/* NV12 with uvpitch -> planar CHW -> back, both ways through tl_convert, the
 * planar bytes checked against the definition. */
TL_TEST(nv12_uvpitch_convert_both_ways)
{
    const int64_t H = 5, W = 7, YP = 7, UVP = 8;
    tl_desc nv, chw;
    REQUIRE_STATUS(tl_desc_init_yuv420_pitches(&nv, TL_YUV_NV12, H, W, YP, UVP, 0), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&chw, "CHW:u8:3x5x7"), TL_OK);
    uint8_t src[128], planar[3 * 5 * 7], back[128];
    REQUIRE((size_t)nv.size_bytes <= sizeof src);
    tl_rng r = tl_test_rng();
    memset(src, 0, sizeof src);
    for (int64_t c = 0; c < 3; c++) /* only the stored bytes: the row tails stay 0 */
        for (int64_t y = 0; y < H; y++)
            for (int64_t x = 0; x < W; x++) src[nv12_offset(H, YP, UVP, c, y, x)] = (uint8_t)tl_rng_range(&r, 0, 255);
    REQUIRE_STATUS(tl_convert(&nv, src, (size_t)nv.size_bytes, &chw, planar, sizeof planar), TL_OK);
    for (int64_t c = 0; c < 3; c++)
        for (int64_t y = 0; y < H; y++)
            for (int64_t x = 0; x < W; x++)
                CHECK_EQ_I64(planar[(c * H + y) * W + x], src[nv12_offset(H, YP, UVP, c, y, x)]);
    memset(back, 0xee, sizeof back);
    REQUIRE_STATUS(tl_convert(&chw, planar, sizeof planar, &nv, back, (size_t)nv.size_bytes), TL_OK);
    CHECK_MEM_EQ(back, src, (size_t)nv.size_bytes);
}

TL_TEST(closest_name)
{
    static const char *const keys[] = {"pad", "align", "strides", "scale", "zp", "round"};
    CHECK_STR_EQ(tl_closest_name("scael", keys, 6), "scale");   /* a swap */
    CHECK_STR_EQ(tl_closest_name("stride", keys, 6), "strides"); /* a deletion */
    CHECK_STR_EQ(tl_closest_name("ROUND", keys, 6), "round");    /* case */
    CHECK_STR_EQ(tl_closest_name("zz", keys, 6), "zp"); /* one edit, fewer than its 2 letters */
    CHECK(tl_closest_name("banana", keys, 6) == NULL);
    CHECK(tl_closest_name("x", keys, 6) == NULL);     /* as many edits as letters: no guess */
    CHECK(tl_closest_name(NULL, keys, 6) == NULL);
}

/* Every descriptor error from tl_convert says which side it is about, and a
 * dims mismatch says which order the layout expects. */
TL_TEST(convert_messages)
{
    tl_desc good, zero;
    uint8_t buf[64] = {0}, out[64];
    memset(&zero, 0, sizeof zero);
    REQUIRE_STATUS(tl_desc_parse(&good, "NCHW:u8:1x1x2x2"), TL_OK);
    CHECK_STATUS(tl_convert(&zero, buf, sizeof buf, &good, out, sizeof out), TL_ERR_RANK);
    CHECK_STR_CONTAINS(tl_last_error(), "src: rank=0");
    CHECK_STATUS(tl_convert(&good, buf, sizeof buf, &zero, out, sizeof out), TL_ERR_RANK);
    CHECK_STR_CONTAINS(tl_last_error(), "dst: rank=0");
    tl_desc nhwc, nchw;
    REQUIRE_STATUS(tl_desc_parse(&nhwc, "NHWC:u8:1x3x4x5"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&nchw, "NCHW:u8:1x3x4x5"), TL_OK);
    uint8_t big[60];
    CHECK_STATUS(tl_convert(&nhwc, big, sizeof big, &nchw, big, sizeof big), TL_ERR_MISMATCH);
    CHECK_STR_CONTAINS(tl_last_error(), "src: NHWC dims are N,H,W,C: did you mean NHWC:u8:1x4x5x3?");
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(nv12_uvpitch_offsets_and_spec);
    TL_RUN(nv12_uvpitch_rules);
    TL_RUN(nv12_uvpitch_convert_both_ways);
    TL_RUN(closest_name);
    TL_RUN(convert_messages);
    return tl_test_finish();
}
