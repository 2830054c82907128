/* RKNN quantization and post-processing helpers: dequantization (R8, R10),
 * quantization (R9), the quantized threshold (R6, R7) checked over every code of
 * i8/u8 (and i16, u16, i4, u4) for many (scale, zp, t), and the view. */
#include <math.h>
#include <stdbool.h>

#include "tl_test.h"

#define SENTINEL 0xA5

#define CHECK_FAIL(expr, status, needle)               \
    do {                                               \
        CHECK_STATUS((expr), (status));                \
        CHECK_STR_CONTAINS(tl_last_error(), (needle)); \
    } while (0)

static tl_quant affine(float scale, int32_t zp)
{
    tl_quant q = {TL_Q_AFFINE, TL_ROUND_EVEN, 0, 0, zp, scale};
    return q;
}

static tl_quant dfp(int fl)
{
    tl_quant q = {TL_Q_DFP, TL_ROUND_EVEN, (int8_t)fl, 0, 0, 0.0f};
    return q;
}

static int32_t thr(tl_quant q, tl_dtype dt, double t)
{
    int32_t T = INT32_MIN;
    tl_status s = tl_rknn_quant_threshold(&q, dt, t, &T);
    if (s != TL_OK) FAILF("threshold(t=%g): %s %s", t, tl_status_str(s), tl_last_error());
    return T;
}

/* The rknn-runtime crate's threshold_i8 (v0.1.1), re-typed in C. */
static int32_t crate_threshold_i8(float conf, float scale, int32_t zp)
{
    if (!(scale > 0.0f)) return INT8_MIN;
    float x = ceilf(conf / scale + (float)zp);
    int32_t v = x > 1e9f ? INT32_MAX : x < -1e9f ? INT32_MIN : (int32_t)x;
    return v < INT8_MIN ? INT8_MIN : v > INT8_MAX ? INT8_MAX : v;
}

static void range_of(tl_dtype dt, int64_t *lo, int64_t *hi)
{
    switch (dt) {
    case TL_I8: *lo = -128, *hi = 127; break;
    case TL_U8: *lo = 0, *hi = 255; break;
    case TL_I16: *lo = -32768, *hi = 32767; break;
    case TL_U16: *lo = 0, *hi = 65535; break;
    case TL_I4: *lo = -8, *hi = 7; break;
    default: *lo = 0, *hi = 15; break;
    }
}

/* The property, over every code: deq(q) >= t  <=>  q >= T. */
static int property_holds(const tl_quant *q, tl_dtype dt, double t, int32_t T)
{
    int64_t lo, hi;
    range_of(dt, &lo, &hi);
    if (T < lo || T > hi + 1) {
        FAILF("T=%d outside [%lld, %lld]", (int)T, (long long)lo, (long long)hi + 1);
        return 0;
    }
    for (int64_t c = lo; c <= hi; c++) {
        bool pass = tl_dequantize_value(q, c) >= t;
        if (pass != (c >= T)) {
            FAILF("%s kind=%d scale=%.9g zp=%d fl=%d t=%.17g: code %lld -> %.9g %s but T=%d", tl_dtype_name(dt),
                  q->kind, (double)q->scale, (int)q->zp, (int)q->fl, t, (long long)c, tl_dequantize_value(q, c),
                  pass ? "passes" : "fails", (int)T);
            return 0;
        }
    }
    return 1;
}

static void check_property(tl_quant q, tl_dtype dt, double t)
{
    int32_t T = INT32_MIN;
    tl_status s = tl_rknn_quant_threshold(&q, dt, t, &T);
    if (s != TL_OK) {
        FAILF("threshold: %s %s", tl_status_str(s), tl_last_error());
        return;
    }
    property_holds(&q, dt, t, T);
}

/* ---- vectors ---------------------------------------------------------------- */
TL_TEST(r6_threshold)
{
    CHECK_EQ_I64(thr(affine(0.1f, 5), TL_I8, 0.55), 11);
    CHECK_EQ_I64(crate_threshold_i8(0.55f, 0.1f, 5), 11); /* the crate agrees here */
    CHECK_NEAR(0.55f / 0.1f + 5.0f, 10.5, 1e-5);         /* "raw 10.5" */
    CHECK(property_holds(&(tl_quant){TL_Q_AFFINE, 0, 0, 0, 5, 0.1f}, TL_I8, 0.55, 11));
}

TL_TEST(r7_threshold)
{
    CHECK_EQ_I64(thr(affine(0.1f, 5), TL_I8, 0.5), 10);
    CHECK_EQ_I64(crate_threshold_i8(0.5f, 0.1f, 5), 10);
    CHECK_EQ_I64(thr(affine(0.00390625f, -128), TL_I8, 0.25), -64);
    CHECK_EQ_I64(crate_threshold_i8(0.25f, 0.00390625f, -128), -64);
    /* (100, 0.1, 5): code 127 is 12.2 < 100, so no code passes. The crate's
     * clamped 127 lets code 127 through; the library returns qmax+1 = 128. */
    CHECK_EQ_I64(crate_threshold_i8(100.0f, 0.1f, 5), 127);
    CHECK_EQ_I64(thr(affine(0.1f, 5), TL_I8, 100.0), 128);
    CHECK(tl_dequantize_value(&(tl_quant){TL_Q_AFFINE, 0, 0, 0, 5, 0.1f}, 127) < 100.0);
    /* (x, 0.0, 3): the crate passes everything (i8::MIN). With scale 0 every
     * code is 0.0: all pass when x <= 0, none when x > 0. */
    CHECK_EQ_I64(crate_threshold_i8(0.3f, 0.0f, 3), -128);
    CHECK_EQ_I64(thr(affine(0.0f, 3), TL_I8, 0.3), 128);
    CHECK_EQ_I64(thr(affine(0.0f, 3), TL_I8, 0.0), -128);
    CHECK_EQ_I64(thr(affine(0.0f, 3), TL_I8, -0.3), -128);
    CHECK_EQ_I64(thr(affine(0.0f, 3), TL_U8, 1e-30), 256);
}

TL_TEST(r8_r9_r10_values)
{
    tl_quant q = affine(0.1f, 5);
    CHECK(tl_dequantize_value(&q, 11) == (double)0.6f); /* R8: (11-5)*0.1 in f32 */
    CHECK_NEAR(tl_dequantize_value(&q, 11), 0.6, 1e-6);
    q.round = TL_ROUND_AWAY;
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.56f), 11); /* R9: 10.6 rounds up */
    q.round = TL_ROUND_EVEN;
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.56f), 11);
    tl_quant d = dfp(5);
    CHECK(tl_dequantize_value(&d, 48) == 1.5); /* R10: 48 * 2^-5 */
    d = dfp(-2);
    CHECK(tl_dequantize_value(&d, 3) == 12.0); /* 3 * 2^2, not 3 * 2^-2 (§4.6 item 8) */
    /* The same through a descriptor and the view. */
    tl_desc desc;
    tl_rknn_view v;
    REQUIRE_STATUS(tl_desc_parse(&desc, "rknn.nc1hwc2:i8:1x1x1x1x16:c=16:zp=5:scale=0.1"), TL_OK);
    REQUIRE_STATUS(tl_rknn_view_init(&v, &desc), TL_OK);
    CHECK(tl_rknn_dequant(&v, 11) == 0.6f);
    REQUIRE_STATUS(tl_desc_parse(&desc, "rknn.nc1hwc2:i8:1x1x1x1x16:c=16:fl=5"), TL_OK);
    REQUIRE_STATUS(tl_rknn_view_init(&v, &desc), TL_OK);
    CHECK(tl_rknn_dequant(&v, 48) == 1.5f);
}

/* ---- the property, exhaustively ------------------------------------------------ */
/* t values that stress the boundary: each code's own value, its neighbours in
 * f32 and f64, midpoints, and random ones. */
static double pick_t(tl_rng *r, const tl_quant *q, tl_dtype dt)
{
    int64_t lo, hi;
    range_of(dt, &lo, &hi);
    double v = tl_dequantize_value(q, tl_rng_range(r, lo, hi));
    switch (tl_rng_pick(r, 8)) {
    case 0: return v;
    case 1: return nextafter(v, INFINITY);
    case 2: return nextafter(v, -INFINITY);
    case 3: return (double)nextafterf((float)v, INFINITY);
    case 4: return (double)nextafterf((float)v, -INFINITY);
    case 5: return (v + tl_dequantize_value(q, tl_rng_range(r, lo, hi))) / 2;
    case 6: return (double)(float)(v + (tl_rng_unit(r) - 0.5) * 1e-3);
    default: {
        double a = tl_dequantize_value(q, lo), b = tl_dequantize_value(q, hi);
        return a + (b - a) * (tl_rng_unit(r) * 1.4 - 0.2);
    }
    }
}

static tl_quant random_quant(tl_rng *r, tl_dtype dt)
{
    int64_t lo, hi;
    range_of(dt, &lo, &hi);
    switch (tl_rng_pick(r, 10)) {
    case 0: return dfp((int)tl_rng_range(r, -10, 20));
    case 1: { tl_quant q = {TL_Q_INV, 0, 0, 0, (int32_t)tl_rng_range(r, lo, hi), (float)(tl_rng_unit(r) * 50 + 0.01)}; return q; }
    case 2: { tl_quant q = {TL_Q_NONE, 0, 0, 0, 0, 0.0f}; return q; }
    case 3: return affine((float)pow(10.0, tl_rng_unit(r) * 12 - 8), (int32_t)tl_rng_range(r, -100000, 100000));
    default: return affine((float)pow(10.0, tl_rng_unit(r) * 6 - 5), (int32_t)tl_rng_range(r, lo, hi));
    }
}

TL_TEST(threshold_property_i8_u8)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 20000 && TL_TEST_FAILURES() == 0; iter++) {
        tl_dtype dt = tl_rng_pick(&r, 2) ? TL_I8 : TL_U8;
        tl_quant q = random_quant(&r, dt);
        for (int k = 0; k < 4; k++) check_property(q, dt, pick_t(&r, &q, dt));
    }
}

/* A grid of typical RKNN scales and zero points, every t at a code boundary. */
TL_TEST(threshold_property_grid)
{
    static const float scales[] = {0.1f, 0.00390625f, 0.003860f, 1.0f / 255, 0.0235f, 0.5f, 1.0f, 3.0f, 1e-6f};
    static const int32_t zps[] = {-128, -127, -1, 0, 5, 127, 128, 255};
    for (size_t s = 0; s < sizeof scales / sizeof scales[0]; s++)
        for (size_t z = 0; z < sizeof zps / sizeof zps[0]; z++)
            for (int dti = 0; dti < 2; dti++) {
                tl_dtype dt = dti ? TL_U8 : TL_I8;
                tl_quant q = affine(scales[s], zps[z]);
                for (int64_t c = dti ? 0 : -128; c <= (dti ? 255 : 127); c += 3) {
                    double v = tl_dequantize_value(&q, c);
                    check_property(q, dt, v);
                    check_property(q, dt, nextafter(v, INFINITY));
                    check_property(q, dt, nextafter(v, -INFINITY));
                }
                if (TL_TEST_FAILURES()) return;
            }
}

TL_TEST(threshold_property_wide)
{
    static const tl_dtype dts[] = {TL_I16, TL_U16, TL_I4, TL_U4};
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 240 && TL_TEST_FAILURES() == 0; iter++) {
        tl_dtype dt = dts[iter % 4];
        tl_quant q = random_quant(&r, dt);
        check_property(q, dt, pick_t(&r, &q, dt));
    }
}

TL_TEST(threshold_special_t)
{
    tl_quant q = affine(0.1f, 5);
    CHECK_EQ_I64(thr(q, TL_I8, -INFINITY), -128);
    CHECK_EQ_I64(thr(q, TL_I8, INFINITY), 128);
    CHECK_EQ_I64(thr(q, TL_I8, NAN), 128);
    CHECK_EQ_I64(thr(q, TL_I8, -1e300), -128);
    CHECK_EQ_I64(thr(q, TL_I8, 1e300), 128);
    CHECK_EQ_I64(thr(q, TL_I16, 1e300), 32768);
    CHECK_EQ_I64(thr(q, TL_U16, -0.0), 5);
    CHECK_EQ_I64(thr(q, TL_U16, 0.0), 5);
    check_property(q, TL_I8, -0.0);
    /* A huge scale: the top codes dequantize to +inf in f32, which passes t = inf. */
    tl_quant big = affine(3e38f, 0);
    CHECK_EQ_I64(thr(big, TL_I8, INFINITY), 2);
    check_property(big, TL_I8, INFINITY);
    check_property(big, TL_I8, 3e38);
    /* DFP with extreme fl. */
    check_property(dfp(127), TL_I16, 1e-35);
    check_property(dfp(-128), TL_I8, 1e38);
    check_property(dfp(-128), TL_I8, 0.0);
    /* No quantization: the code itself. */
    tl_quant none = {0};
    CHECK_EQ_I64(thr(none, TL_U8, 41.5), 42);
    CHECK_EQ_I64(thr(none, TL_I8, -3.0), -3);
}

TL_TEST(threshold_errors)
{
    int32_t T = 12345;
    tl_quant neg = affine(-0.1f, 0), nan_s = affine(NAN, 0), inf_s = affine(INFINITY, 0);
    tl_quant inv0 = {TL_Q_INV, 0, 0, 0, 0, 0.0f}, bad = {9, 0, 0, 0, 0, 0.0f}, ok = affine(0.1f, 0);
    CHECK_FAIL(tl_rknn_quant_threshold(&neg, TL_I8, 0.5, &T), TL_ERR_QUANT,
               "scale=-0.1: the quantized threshold needs a finite scale >= 0 (a negative scale reverses");
    CHECK_FAIL(tl_rknn_quant_threshold(&nan_s, TL_I8, 0.5, &T), TL_ERR_QUANT, "scale=nan");
    CHECK_FAIL(tl_rknn_quant_threshold(&inf_s, TL_I8, 0.5, &T), TL_ERR_QUANT, "scale=inf");
    CHECK_FAIL(tl_rknn_quant_threshold(&inv0, TL_I8, 0.5, &T), TL_ERR_QUANT, "inverse-scale quantization needs");
    CHECK_FAIL(tl_rknn_quant_threshold(&bad, TL_I8, 0.5, &T), TL_ERR_QUANT, "quant.kind=9");
    CHECK_FAIL(tl_rknn_quant_threshold(&ok, TL_F32, 0.5, &T), TL_ERR_DTYPE,
               "dtype f32: the quantized threshold needs codes of i8 u8 i16 u16 i4 or u4");
    CHECK_FAIL(tl_rknn_quant_threshold(&ok, TL_I32, 0.5, &T), TL_ERR_DTYPE, "dtype i32");
    CHECK_FAIL(tl_rknn_quant_threshold(&ok, TL_I8, 0.5, NULL), TL_ERR_NULL, "threshold is NULL");
    CHECK_EQ_I64(T, 12345);
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:f16:1x1x4x4x8:c=8"), TL_OK);
    CHECK_FAIL(tl_rknn_threshold(&d, 0.5, &T), TL_ERR_DTYPE, "dtype f16");
    CHECK_FAIL(tl_rknn_threshold(NULL, 0.5, &T), TL_ERR_NULL, "descriptor is NULL");
    CHECK_EQ_I64(T, 12345);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=5:scale=0.1"), TL_OK);
    REQUIRE_STATUS(tl_rknn_threshold(&d, 0.55, &T), TL_OK);
    CHECK_EQ_I64(T, 11);
}

/* ---- the view ------------------------------------------------------------------ */
/* Every element through the view equals the descriptor's offset. */
static void check_view(const char *spec)
{
    tl_desc d;
    tl_rknn_view v;
    int64_t choff[256];
    if (tl_desc_parse(&d, spec) != TL_OK || tl_rknn_view_init(&v, &d) != TL_OK) {
        FAILF("%s: %s", spec, tl_last_error());
        return;
    }
    REQUIRE(v.c <= 256);
    REQUIRE_STATUS(tl_rknn_channel_offsets(&d, 0, v.c, choff), TL_OK);
    int in[4]; /* dims index of N C H W */
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 4; i++)
            if (d.labels[i] == "NCHW"[k]) in[k] = i;
    int64_t es = tl_dtype_bits((tl_dtype)d.dtype) / 8, x[4];
    for (x[in[0]] = 0; x[in[0]] < v.n; x[in[0]]++)
        for (x[in[1]] = 0; x[in[1]] < v.c; x[in[1]]++)
            for (x[in[2]] = 0; x[in[2]] < v.h; x[in[2]]++)
                for (x[in[3]] = 0; x[in[3]] < v.w; x[in[3]]++) {
                    uint64_t off;
                    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
                    int64_t e = choff[x[in[1]]] + x[in[0]] * v.batch_stride + x[in[2]] * v.row_stride +
                                x[in[3]] * v.pixel_stride;
                    if (e * es != (int64_t)off) {
                        FAILF("%s: view %lld elements != offset %llu bytes", spec, (long long)e,
                              (unsigned long long)off);
                        return;
                    }
                }
}

TL_TEST(view_strides)
{
    tl_desc d;
    tl_rknn_view v;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039"), TL_OK);
    REQUIRE_STATUS(tl_rknn_view_init(&v, &d), TL_OK);
    CHECK_EQ_I64(v.pixel_stride, 16);     /* C2, not W*C2 (§4.6 item 7) */
    CHECK_EQ_I64(v.row_stride, 80 * 16);  /* W*C2 is the row stride */
    CHECK_EQ_I64(v.batch_stride, 614400); /* C1*H*W*C2 */
    CHECK_EQ_I64(v.c, 84);
    CHECK_EQ_I64(v.size_bytes, 614400);
    int64_t off[3];
    REQUIRE_STATUS(tl_rknn_channel_offsets(&d, 15, 3, off), TL_OK);
    CHECK_EQ_I64(off[0], 15);
    CHECK_EQ_I64(off[1], 80 * 80 * 16); /* channel 16 opens block 1 */
    CHECK_EQ_I64(off[2], 80 * 80 * 16 + 1);
    check_view("rknn.nc1hwc2:i8:3x3x4x5x16:c=40:wstride=8");
    check_view("rknn.nc1hwc2:f16:2x2x3x3x8:c=9");
    check_view("rknn.nhwc:u8:3x4x5x3:wstride=16:hstride=6");
    check_view("rknn.nchw:i16:2x3x4x5:wstride=8");
    check_view("NCHW16c:f32:2x20x2x3");
    check_view("nhwc:u8:2x3x4x5"); /* oneDNN order: labelled N C H W, stored NHWC */
}

TL_TEST(view_errors)
{
    tl_desc d;
    tl_rknn_view v;
    int64_t off[4] = {7, 7, 7, 7};
    memset(&v, SENTINEL, sizeof v);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nchw:u8:1x84x8400"), TL_OK);
    CHECK_FAIL(tl_rknn_view_init(&v, &d), TL_ERR_RANK, "rank=3: the view needs 4 dims labelled N, C, H, W");
    REQUIRE_STATUS(tl_desc_parse(&d, "aBcd16b:u8:1x20x2x3"), TL_OK);
    CHECK_FAIL(tl_rknn_view_init(&v, &d), TL_ERR_LABEL, "no dim labelled N");
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW4w:u8:1x3x2x8"), TL_OK);
    CHECK_FAIL(tl_rknn_view_init(&v, &d), TL_ERR_UNSUPPORTED, "dim W is blocked or split over axes");
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i4:1x1x2x2x16:c=16"), TL_OK);
    CHECK_FAIL(tl_rknn_view_init(&v, &d), TL_ERR_DTYPE, "dtype i4: the view needs whole-byte elements");
    CHECK_FAIL(tl_rknn_view_init(NULL, &d), TL_ERR_NULL, "NULL");
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84"), TL_OK);
    CHECK_FAIL(tl_rknn_channel_offsets(&d, 82, 3, off), TL_ERR_COORD, "channels [82, +3): must lie in [0, 84)");
    CHECK_FAIL(tl_rknn_channel_offsets(&d, -1, 1, off), TL_ERR_COORD, "channels [-1, +1)");
    CHECK(off[0] == 7 && off[3] == 7);
    unsigned char *b = (unsigned char *)&v;
    int untouched = 1;
    for (size_t i = 0; i < sizeof v; i++) untouched &= b[i] == SENTINEL;
    CHECK(untouched);
}

/* tl_rknn_dequant is tl_dequantize_value, code for code. */
TL_TEST(view_dequant_matches_library)
{
    static const char *specs[] = {"rknn.nc1hwc2:i8:1x1x1x1x16:c=3:zp=-128:scale=0.0039",
                                  "rknn.nc1hwc2:i8:1x1x1x1x16:c=3:zp=17:scale=1.7",
                                  "rknn.nc1hwc2:i8:1x1x1x1x16:c=3:fl=-128",
                                  "rknn.nc1hwc2:i8:1x1x1x1x16:c=3:fl=7",
                                  "rknn.nc1hwc2:i8:1x1x1x1x16:c=3"};
    for (size_t s = 0; s < sizeof specs / sizeof specs[0]; s++) {
        tl_desc d;
        tl_rknn_view v;
        REQUIRE_STATUS(tl_desc_parse(&d, specs[s]), TL_OK);
        REQUIRE_STATUS(tl_rknn_view_init(&v, &d), TL_OK);
        for (int32_t c = -128; c < 128; c++) {
            double want = tl_dequantize_value(&d.quant, c);
            float got = tl_rknn_dequant(&v, c);
            if (!((double)got == want || (isnan(want) && isnan(got)))) {
                FAILF("%s code %d: %.9g != %.9g", specs[s], (int)c, (double)got, want);
                break;
            }
        }
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(r6_threshold);
    TL_RUN(r7_threshold);
    TL_RUN(r8_r9_r10_values);
    TL_RUN(threshold_property_i8_u8);
    TL_RUN(threshold_property_grid);
    TL_RUN(threshold_property_wide);
    TL_RUN(threshold_special_t);
    TL_RUN(threshold_errors);
    TL_RUN(view_strides);
    TL_RUN(view_errors);
    TL_RUN(view_dequant_matches_library);
    return tl_test_finish();
}
