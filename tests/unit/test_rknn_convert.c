/* RKNN conversions through tl_convert, checked element by element against
 * independent index arithmetic, for batch >= 3: NC1HWC2 int8 -> NCHW / NHWC
 * f32 (dequantized), u8 NHWC images -> native inputs, R5, and the vendor
 * sample's bugs (docs/sources.md, RKNN) shown to disagree. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "tl_test.h"

/* Independent of the library: the §4.2 element offset. */
static int64_t nc1hwc2_index(int64_t n, int64_t c, int64_t h, int64_t w, int64_t C1, int64_t H, int64_t Wr,
                             int64_t C2)
{
    return (((n * C1 + c / C2) * H + h) * Wr + w) * C2 + c % C2;
}

/* f32 dequantization as RKNN defines it: (q - zp) * scale, one f32 multiply. */
static float deq(int8_t q, int32_t zp, float scale)
{
    volatile float d = (float)((int32_t)q - zp); /* exact */
    return d * scale;
}

static int8_t *random_i8(tl_rng *r, size_t n)
{
    int8_t *p = malloc(n);
    if (p) tl_rng_bytes(r, p, n);
    return p;
}

/* A batch-3 and a batch-4 NC1HWC2 output with padded channels and rows. */
typedef struct native_case {
    int64_t N, C, H, W, Wr, C2;
} native_case;

static const native_case k_cases[] = {
    {3, 20, 3, 5, 8, 16}, {4, 84, 2, 4, 16, 16}, {3, 9, 4, 3, 3, 8}, {5, 3, 2, 2, 2, 4},
};

static void check_to_f32(const native_case *k, int nhwc)
{
    const int32_t zp = -3;
    const float scale = 0.0371f;
    int64_t C1 = (k->C + k->C2 - 1) / k->C2;
    char spec[160], dspec[96];
    snprintf(spec, sizeof spec, "rknn.nc1hwc2:i8:%lldx%lldx%lldx%lldx%lld:c=%lld:wstride=%lld:zp=%d:scale=0.0371",
             (long long)k->N, (long long)C1, (long long)k->H, (long long)k->W, (long long)k->C2, (long long)k->C,
             (long long)k->Wr, (int)zp);
    if (nhwc)
        snprintf(dspec, sizeof dspec, "NHWC:f32:%lldx%lldx%lldx%lld", (long long)k->N, (long long)k->H,
                 (long long)k->W, (long long)k->C);
    else
        snprintf(dspec, sizeof dspec, "NCHW:f32:%lldx%lldx%lldx%lld", (long long)k->N, (long long)k->C,
                 (long long)k->H, (long long)k->W);
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, spec), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, dspec), TL_OK);
    tl_rng r = tl_test_rng();
    int8_t *src = random_i8(&r, (size_t)s.size_bytes);
    float *dst = malloc((size_t)d.size_bytes);
    REQUIRE(src && dst);
    CHECK_STATUS(tl_convert(&s, src, (size_t)s.size_bytes, &d, dst, (size_t)d.size_bytes), TL_OK);
    for (int64_t n = 0; n < k->N && !TL_TEST_FAILURES(); n++)
        for (int64_t c = 0; c < k->C; c++)
            for (int64_t h = 0; h < k->H; h++)
                for (int64_t w = 0; w < k->W; w++) {
                    float want = deq(src[nc1hwc2_index(n, c, h, w, C1, k->H, k->Wr, k->C2)], zp, scale);
                    int64_t o = nhwc ? ((n * k->H + h) * k->W + w) * k->C + c : ((n * k->C + c) * k->H + h) * k->W + w;
                    if (memcmp(&want, &dst[o], 4) != 0)
                        FAILF("%s -> %s (%lld,%lld,%lld,%lld): %.9g != %.9g", spec, dspec, (long long)n, (long long)c,
                              (long long)h, (long long)w, (double)dst[o], (double)want);
                }
    free(src);
    free(dst);
}

TL_TEST(nc1hwc2_to_nchw_f32)
{
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) check_to_f32(&k_cases[i], 0);
}

TL_TEST(nc1hwc2_to_nhwc_f32)
{
    for (size_t i = 0; i < sizeof k_cases / sizeof k_cases[0]; i++) check_to_f32(&k_cases[i], 1);
}

/* R5: the crate's doc-test nc1hwc2_to_flat([10,20,30,40], 2, 1, 1, 2, 4). */
TL_TEST(r5_crate_flat)
{
    const int8_t src[4] = {10, 20, 30, 40};
    int8_t dst[4] = {0};
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, "rknn.nc1hwc2:i8:1x2x1x1x2:c=4"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:i8:1x4x1x1"), TL_OK);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    CHECK_MEM_EQ(dst, src, 4);
}

/* u8 NHWC images (batch 3) into native inputs: w_stride/h_stride padding, an
 * int8 model's quantized input, and a pass-through NC1HWC2 input (C = 5). */
TL_TEST(image_to_native_input)
{
    enum { N = 3, H = 4, W = 5, C = 3, WS = 16, HS = 6 };
    tl_rng r = tl_test_rng();
    uint8_t img[N * H * W * C], out[N * HS * WS * C];
    int8_t qout[N * HS * WS * C];
    tl_rng_bytes(&r, img, sizeof img);
    tl_desc s, d, q;
    REQUIRE_STATUS(tl_desc_parse(&s, "NHWC:u8:3x4x5x3"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nhwc:u8:3x4x5x3:wstride=16:hstride=6"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&q, "rknn.nhwc:i8:3x4x5x3:wstride=16:hstride=6:zp=-128:scale=1"), TL_OK);
    memset(out, 0xEE, sizeof out);
    memset(qout, 0x11, sizeof qout);
    REQUIRE_STATUS(tl_convert(&s, img, sizeof img, &d, out, sizeof out), TL_OK);
    REQUIRE_STATUS(tl_convert(&s, img, sizeof img, &q, qout, sizeof qout), TL_OK);
    for (int n = 0; n < N; n++)
        for (int h = 0; h < HS; h++)
            for (int w = 0; w < WS; w++)
                for (int c = 0; c < C; c++) {
                    int o = ((n * HS + h) * WS + w) * C + c; /* §4.3 */
                    bool valid = h < H && w < W;
                    int v = valid ? img[((n * H + h) * W + w) * C + c] : 0;
                    if (out[o] != (valid ? v : 0) || qout[o] != (valid ? v - 128 : 0)) {
                        FAILF("(%d,%d,%d,%d): %d / %d, want %d / %d", n, h, w, c, out[o], qout[o], valid ? v : 0,
                              valid ? v - 128 : 0);
                        return;
                    }
                }
}

TL_TEST(image_to_nc1hwc2_input)
{
    enum { N = 3, H = 3, W = 4, C = 5, C2 = 16 };
    tl_rng r = tl_test_rng();
    uint8_t img[N * H * W * C];
    int8_t out[N * 1 * H * W * C2];
    tl_rng_bytes(&r, img, sizeof img);
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, "NHWC:u8:3x3x4x5"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:3x1x3x4x16:c=5:zp=-3:scale=2"), TL_OK);
    CHECK_EQ_I64(d.quant.round, TL_ROUND_AWAY);
    memset(out, 0x55, sizeof out);
    REQUIRE_STATUS(tl_convert(&s, img, sizeof img, &d, out, sizeof out), TL_OK);
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C2; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    int64_t o = nc1hwc2_index(n, c, h, w, 1, H, W, C2);
                    int want = 0; /* padding channels are zero */
                    if (c < C) {
                        float x = (float)img[((n * H + h) * W + w) * C + c] / 2.0f + -3.0f;
                        float rx = roundf(x); /* halves away from zero (User Guide 1.5.2) */
                        want = rx > 127 ? 127 : rx < -128 ? -128 : (int)rx;
                    }
                    if (out[o] != want) {
                        FAILF("(%d,%d,%d,%d): %d != %d", n, c, h, w, out[o], want);
                        return;
                    }
                }
}

/* ---- the vendor sample's formulas (re-typed from the User Guide) --------------- */
/* NC1HWC2 int8 -> NCHW f32 as Rockchip's sample does it: the per-batch pointers
 * advance cumulatively (item 1) and the source row length is the destination
 * width (item 2). src/dst must be large enough for where it lands. */
static void sample_nc1hwc2_to_nchw(const int8_t *src, float *dst, const int64_t dims[5], int64_t channel, int64_t h,
                                   int64_t w, int32_t zp, float scale)
{
    int64_t batch = dims[0], C1 = dims[1], C2 = dims[4], hw_src = dims[2] * dims[3], hw_dst = h * w;
    for (int64_t i = 0; i < batch; i++) {
        src = src + i * C1 * hw_src * C2;
        dst = dst + i * channel * hw_dst;
        for (int64_t c = 0; c < channel; c++) {
            const int8_t *src_c = src + (c / C2) * hw_src * C2;
            for (int64_t y = 0; y < h; y++)
                for (int64_t x = 0; x < w; x++) {
                    int64_t cur_hw = y * w + x;
                    dst[c * hw_dst + cur_hw] = deq(src_c[C2 * cur_hw + c % C2], zp, scale);
                }
        }
    }
}

static float *library_nchw(const char *spec, const int8_t *src, int64_t n_out)
{
    tl_desc s, d;
    char dspec[96];
    float *out = malloc((size_t)n_out * 4);
    if (!out || tl_desc_parse(&s, spec) != TL_OK) return out;
    snprintf(dspec, sizeof dspec, "NCHW:f32:%lldx%lldx%lldx%lld", (long long)s.dims[0], (long long)s.dims[1],
             (long long)s.dims[2], (long long)s.dims[3]);
    if (tl_desc_parse(&d, dspec) != TL_OK ||
        tl_convert(&s, src, (size_t)s.size_bytes, &d, out, (size_t)d.size_bytes) != TL_OK)
        FAILF("convert %s: %s", spec, tl_last_error());
    return out;
}

/* Item 1: batch 3 of the sample lands at 3x the batch stride, not 2x. */
TL_TEST(sample_batch_pointer_bug)
{
    enum { N = 3, C1 = 2, H = 3, W = 4, C2 = 8, C = 13 };
    const int64_t dims[5] = {N, C1, H, W, C2}, per_batch_out = C * H * W, per_batch_in = C1 * H * W * C2;
    tl_rng r = tl_test_rng();
    int8_t *src = random_i8(&r, 6 * per_batch_in); /* the sample reads past batch 3 */
    float *smp = calloc(6 * per_batch_out, 4);     /* and writes past it */
    REQUIRE(src && smp);
    float *lib = library_nchw("rknn.nc1hwc2:i8:3x2x3x4x8:c=13:zp=7:scale=0.5", src, N * per_batch_out);
    REQUIRE(lib);
    sample_nc1hwc2_to_nchw(src, smp, dims, C, H, W, 7, 0.5f);
    /* Batches 1 and 2 (i = 0, 1) agree: 0 and 0+1 strides are right. */
    CHECK_MEM_EQ(smp, lib, (size_t)(2 * per_batch_out) * 4);
    /* Batch 3 (i = 2) differs: read from 3 strides in and written 3 strides out. */
    CHECK(memcmp(smp + 2 * per_batch_out, lib + 2 * per_batch_out, (size_t)per_batch_out * 4) != 0);
    CHECK(memcmp(smp + 3 * per_batch_out, lib + 2 * per_batch_out, (size_t)per_batch_out * 4) != 0);
    /* The fix, base + i*stride, agrees with the library for every batch. */
    for (int64_t i = 0; i < N; i++) {
        const int64_t one[5] = {1, C1, H, W, C2};
        sample_nc1hwc2_to_nchw(src + i * per_batch_in, smp + i * per_batch_out, one, C, H, W, 7, 0.5f);
    }
    CHECK_MEM_EQ(smp, lib, (size_t)(N * per_batch_out) * 4);
    free(src);
    free(smp);
    free(lib);
}

/* Item 2: with padded rows (w_stride > W) the destination width is the wrong
 * source row length; the native dims[3]/w_stride is right. */
TL_TEST(sample_row_stride_bug)
{
    enum { H = 3, W = 5, WR = 8, C2 = 16, C = 16 };
    const int64_t dims[5] = {1, 1, H, WR, C2};
    tl_rng r = tl_test_rng();
    int8_t *src = random_i8(&r, H * WR * C2);
    float *smp = calloc(C * H * W, 4);
    REQUIRE(src && smp);
    float *lib = library_nchw("rknn.nc1hwc2:i8:1x1x3x5x16:c=16:wstride=8:zp=0:scale=1", src, C * H * W);
    REQUIRE(lib);
    sample_nc1hwc2_to_nchw(src, smp, dims, C, H, W, 0, 1.0f);
    CHECK_MEM_EQ(smp, lib, (size_t)W * 4);                        /* row 0 agrees */
    CHECK(memcmp(smp + W, lib + W, (size_t)W * 4) != 0);           /* row 1 of channel 0 does not */
    free(src);
    free(smp);
    free(lib);
}

/* Item 7: the crate's loop `p_off += W*C2` over H*W predictions reads the
 * right elements only when W == 1; the pixel stride is C2. */
TL_TEST(crate_prediction_stride_bug)
{
    static const char *specs[] = {"rknn.nc1hwc2:i8:1x2x6x1x16:c=20", "rknn.nc1hwc2:i8:1x2x3x4x16:c=20"};
    for (int k = 0; k < 2; k++) {
        tl_desc d;
        tl_rknn_view v;
        int64_t off[20];
        REQUIRE_STATUS(tl_desc_parse(&d, specs[k]), TL_OK);
        REQUIRE_STATUS(tl_rknn_view_init(&v, &d), TL_OK);
        REQUIRE_STATUS(tl_rknn_channel_offsets(&d, 0, 20, off), TL_OK);
        int64_t crate_stride = v.w * 16, total = 32 * v.h * v.w, agree = 0, checked = 0;
        for (int64_t ch = 0; ch < 20; ch++)
            for (int64_t p = 0; p < v.h * v.w; p++) {
                int64_t crate = (ch / 16) * v.h * v.w * 16 + ch % 16 + p * crate_stride;
                int64_t right = off[ch] + (p / v.w) * v.row_stride + (p % v.w) * v.pixel_stride;
                checked++;
                agree += crate == right && crate < total;
            }
        if (k == 0) CHECK_EQ_I64(agree, checked); /* W == 1: a [1, C, N, 1] head */
        else CHECK(agree < checked / 2);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(nc1hwc2_to_nchw_f32);
    TL_RUN(nc1hwc2_to_nhwc_f32);
    TL_RUN(r5_crate_flat);
    TL_RUN(image_to_native_input);
    TL_RUN(image_to_nc1hwc2_input);
    TL_RUN(sample_batch_pointer_bug);
    TL_RUN(sample_row_stride_bug);
    TL_RUN(crate_prediction_stride_bug);
    return tl_test_finish();
}
