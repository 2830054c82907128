/* Axis larod conversions against an independent per-element computation:
 * NHWC u8 pitched <-> NCHW f32 with quantization (larod carries none, so
 * scale/zp are spec options), and 420SP <-> dense planar (3, H, W) u8 with
 * odd heights and widths. Indexing here uses the pitch formulas of
 * larod.h's pitch comments directly, never the library's offset function. */
#include <math.h>
#include <string.h>

#include "tl_test.h"

#define SENTINEL 0xAB
#define GUARD 64 /* bytes after each buffer that must stay untouched */

static unsigned char src_buf[8192], dst_buf[8192], want_buf[8192];

static int untouched(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != SENTINEL) return 0;
    return 1;
}

/* ---- NHWC u8 (pitched, quantized) <-> NCHW f32 ------------------------------------- */

typedef struct nhwc_case {
    const char *larod;   /* the larod.nhwc spec, quantization included */
    int64_t n, h, w, c;
    int64_t p1, p2, p3;  /* its pitches[1..3] */
    int64_t size;        /* pitches[0] */
    float scale;
    int32_t zp;
} nhwc_case;

static const nhwc_case nhwc_cases[] = {
    /* larod Example 2 shape, smaller: C 3 -> 4 bytes (padding), rows 28 -> 32 bytes (slack) */
    {"larod.nhwc:u8:2x5x7x3:align=0,0,32,4:scale=0.5:zp=10", 2, 5, 7, 3, 160, 32, 4, 320, 0.5f, 10},
    /* no channel padding; 11 bytes of row slack */
    {"larod.nhwc:u8:1x5x7x3:align=0,0,32,0:scale=0.25:zp=128", 1, 5, 7, 3, 160, 32, 3, 160, 0.25f, 128},
    /* explicit pitches with slack at every level: 5 pad channels, 10 bytes of row slack */
    {"larod.nhwc:u8:3x3x5x1:pitches=300,100,30,6:scale=0.1:zp=0", 3, 3, 5, 1, 100, 30, 6, 300, 0.1f, 0},
};

static int64_t nhwc_off(const nhwc_case *k, int64_t n, int64_t h, int64_t w, int64_t c)
{
    return n * k->p1 + h * k->p2 + w * k->p3 + c;
}

static int64_t nchw_idx(const nhwc_case *k, int64_t n, int64_t c, int64_t h, int64_t w)
{
    return ((n * k->c + c) * k->h + h) * k->w + w;
}

static void nchw_spec(const nhwc_case *k, char *buf, size_t len)
{
    snprintf(buf, len, "NCHW:f32:%lldx%lldx%lldx%lld", (long long)k->n, (long long)k->c, (long long)k->h,
             (long long)k->w);
}

TL_TEST(nhwc_u8_pitched_to_nchw_f32_dequant)
{
    tl_rng r = tl_test_rng();
    for (size_t i = 0; i < sizeof nhwc_cases / sizeof nhwc_cases[0]; i++) {
        const nhwc_case *k = &nhwc_cases[i];
        char spec[64];
        tl_desc s, d;
        REQUIRE_STATUS(tl_desc_parse(&s, k->larod), TL_OK);
        REQUIRE_EQ_I64(s.size_bytes, k->size);
        nchw_spec(k, spec, sizeof spec);
        REQUIRE_STATUS(tl_desc_parse(&d, spec), TL_OK);
        size_t dlen = (size_t)(k->n * k->c * k->h * k->w * 4);
        tl_rng_bytes(&r, src_buf, (size_t)k->size);
        memset(dst_buf, SENTINEL, dlen + GUARD);
        REQUIRE_STATUS(tl_convert(&s, src_buf, (size_t)k->size, &d, dst_buf, dlen), TL_OK);
        for (int64_t n = 0; n < k->n; n++)
            for (int64_t c = 0; c < k->c; c++)
                for (int64_t h = 0; h < k->h; h++)
                    for (int64_t w = 0; w < k->w; w++) {
                        int q = src_buf[nhwc_off(k, n, h, w, c)];
                        float want = (float)(q - k->zp) * k->scale, got;
                        memcpy(&got, dst_buf + 4 * nchw_idx(k, n, c, h, w), 4);
                        if (got != want && TL_TEST_FAILURES() < 5)
                            FAILF("%s (%lld,%lld,%lld,%lld): q=%d -> %.9g, want %.9g", k->larod, (long long)n,
                                  (long long)h, (long long)w, (long long)c, q, (double)got, (double)want);
                    }
        CHECK(untouched(dst_buf + dlen, GUARD));
    }
}

/* Independent quantization: f32 real * (1 / scale) + zp, nearest-even,
 * saturated. AFFINE multiplies by the f32 reciprocal (conversion.md §5); with
 * scale 0.1 about one f32 in two million quantizes differently from x / scale. */
static unsigned char quantize_u8(float x, float scale, int32_t zp)
{
    float inv = 1.0f / scale;
    float v = x * inv;
    v = v + (float)zp;
    v = rintf(v);
    return v <= 0.0f ? 0 : v >= 255.0f ? 255 : (unsigned char)v;
}

/* The slack of the innermost pitch, pitches[3] - C bytes (whole u8
 * elements), is channel padding that conversions zero (larod.h); the slack
 * of outer pitches is never written. */
static void zero_padding(const nhwc_case *k, unsigned char *buf)
{
    for (int64_t n = 0; n < k->n; n++)
        for (int64_t h = 0; h < k->h; h++)
            for (int64_t w = 0; w < k->w; w++)
                for (int64_t c = k->c; c < k->p3; c++) buf[nhwc_off(k, n, h, w, c)] = 0;
}

TL_TEST(nchw_f32_to_nhwc_u8_pitched_quant)
{
    tl_rng r = tl_test_rng();
    for (size_t i = 0; i < sizeof nhwc_cases / sizeof nhwc_cases[0]; i++) {
        const nhwc_case *k = &nhwc_cases[i];
        char spec[64];
        tl_desc s, d;
        REQUIRE_STATUS(tl_desc_parse(&d, k->larod), TL_OK);
        nchw_spec(k, spec, sizeof spec);
        REQUIRE_STATUS(tl_desc_parse(&s, spec), TL_OK);
        int64_t count = k->n * k->c * k->h * k->w;
        for (int64_t e = 0; e < count; e++) {
            /* reals over and beyond the code range, some on exact .5 ties */
            float x = e % 7 == 0 ? ((float)tl_rng_range(&r, -40, 600) + 0.5f) * k->scale
                                 : (float)(tl_rng_unit(&r) * 300.0 - 100.0) * k->scale * 4.0f;
            memcpy(src_buf + 4 * e, &x, 4);
        }
        /* expected: padding zero, byte slack untouched, elements quantized */
        memset(want_buf, SENTINEL, (size_t)k->size + GUARD);
        zero_padding(k, want_buf);
        for (int64_t n = 0; n < k->n; n++)
            for (int64_t c = 0; c < k->c; c++)
                for (int64_t h = 0; h < k->h; h++)
                    for (int64_t w = 0; w < k->w; w++) {
                        float x;
                        memcpy(&x, src_buf + 4 * nchw_idx(k, n, c, h, w), 4);
                        want_buf[nhwc_off(k, n, h, w, c)] = quantize_u8(x, k->scale, k->zp);
                    }
        memset(dst_buf, SENTINEL, (size_t)k->size + GUARD);
        REQUIRE_STATUS(tl_convert(&s, src_buf, (size_t)(4 * count), &d, dst_buf, (size_t)k->size), TL_OK);
        CHECK_MEM_EQ(dst_buf, want_buf, (size_t)k->size + GUARD);
    }
}

TL_TEST(nhwc_round_trip_exact)
{
    /* scale 0.5: every code maps to an exact real and back */
    const nhwc_case *k = &nhwc_cases[0];
    tl_desc a, f;
    char spec[64];
    tl_rng r = tl_test_rng();
    REQUIRE_STATUS(tl_desc_parse(&a, k->larod), TL_OK);
    nchw_spec(k, spec, sizeof spec);
    REQUIRE_STATUS(tl_desc_parse(&f, spec), TL_OK);
    static unsigned char mid[4096];
    /* random elements, zero channel padding, sentinel row slack */
    memset(src_buf, SENTINEL, (size_t)k->size);
    zero_padding(k, src_buf);
    for (int64_t n = 0; n < k->n; n++)
        for (int64_t h = 0; h < k->h; h++)
            for (int64_t w = 0; w < k->w; w++)
                for (int64_t c = 0; c < k->c; c++) src_buf[nhwc_off(k, n, h, w, c)] = (unsigned char)tl_rng_next(&r);
    REQUIRE_STATUS(tl_convert(&a, src_buf, (size_t)k->size, &f, mid, sizeof mid), TL_OK);
    memset(dst_buf, SENTINEL, (size_t)k->size);
    REQUIRE_STATUS(tl_convert(&f, mid, sizeof mid, &a, dst_buf, (size_t)k->size), TL_OK);
    CHECK_MEM_EQ(dst_buf, src_buf, (size_t)k->size);
}

TL_TEST(nhwc_bad_conversion_writes_nothing)
{
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, "larod.nhwc:u8:1x5x7x3:align=0,0,32,4"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x5x6"), TL_OK);
    memset(dst_buf, SENTINEL, 1024);
    CHECK_STATUS(tl_convert(&s, src_buf, 160, &d, dst_buf, 1024), TL_ERR_MISMATCH);
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x5x7"), TL_OK);
    CHECK_STATUS(tl_convert(&d, src_buf, 420, &s, dst_buf, 159), TL_ERR_BUFFER_SMALL);
    CHECK(untouched(dst_buf, 1024));
}

/* ---- 420SP <-> planar (3, H, W) ----------------------------------------------------- */

typedef struct sp_case {
    const char *larod;
    int64_t h, w, p0, p1, p2;
} sp_case;

static const sp_case sp_cases[] = {
    {"larod.420sp:u8:3x5x7:align=32,32", 5, 7, 256, 160, 32},
    {"larod.420sp:u8:3x5x7", 5, 7, 64, 40, 8},        /* dense: odd W makes the row 8 */
    {"larod.420sp:u8:3x9x4:pitches=200,80,8", 9, 4, 200, 80, 8},
    {"larod.420sp:u8:3x1x1", 1, 1, 4, 2, 2},
};

static int64_t y_off(const sp_case *k, int64_t h, int64_t w) { return h * k->p2 + w; }
static int64_t cb_off(const sp_case *k, int64_t h, int64_t w) { return k->p1 + (h / 2) * k->p2 + (w / 2) * 2; }

TL_TEST(sp420_to_planar)
{
    tl_rng r = tl_test_rng();
    for (size_t i = 0; i < sizeof sp_cases / sizeof sp_cases[0]; i++) {
        const sp_case *k = &sp_cases[i];
        tl_desc s, d;
        char spec[64];
        REQUIRE_STATUS(tl_desc_parse(&s, k->larod), TL_OK);
        REQUIRE_EQ_I64(s.size_bytes, k->p0);
        snprintf(spec, sizeof spec, "CHW:u8:3x%lldx%lld", (long long)k->h, (long long)k->w);
        REQUIRE_STATUS(tl_desc_parse(&d, spec), TL_OK);
        size_t plane = (size_t)(k->h * k->w);
        tl_rng_bytes(&r, src_buf, (size_t)k->p0);
        memset(dst_buf, SENTINEL, 3 * plane + GUARD);
        REQUIRE_STATUS(tl_convert(&s, src_buf, (size_t)k->p0, &d, dst_buf, 3 * plane), TL_OK);
        for (int64_t h = 0; h < k->h; h++)
            for (int64_t w = 0; w < k->w; w++) {
                size_t e = (size_t)(h * k->w + w);
                CHECK_EQ_I64(dst_buf[e], src_buf[y_off(k, h, w)]);
                CHECK_EQ_I64(dst_buf[plane + e], src_buf[cb_off(k, h, w)]);          /* Cb, 2x2 shared */
                CHECK_EQ_I64(dst_buf[2 * plane + e], src_buf[cb_off(k, h, w) + 1]);  /* Cr */
            }
        CHECK(untouched(dst_buf + 3 * plane, GUARD));
    }
}

TL_TEST(planar_to_sp420)
{
    tl_rng r = tl_test_rng();
    for (size_t i = 0; i < sizeof sp_cases / sizeof sp_cases[0]; i++) {
        const sp_case *k = &sp_cases[i];
        tl_desc s, d;
        char spec[64];
        REQUIRE_STATUS(tl_desc_parse(&d, k->larod), TL_OK);
        snprintf(spec, sizeof spec, "CHW:u8:3x%lldx%lld", (long long)k->h, (long long)k->w);
        REQUIRE_STATUS(tl_desc_parse(&s, spec), TL_OK);
        size_t plane = (size_t)(k->h * k->w);
        tl_rng_bytes(&r, src_buf, 3 * plane);
        /* expected: Y everywhere; one Cb,Cr pair per 2x2 block from its top-left
         * pixel (odd H/W: the last block is 1 wide or high); row slack and the
         * Y-plane tail are not elements and stay as they were */
        memset(want_buf, SENTINEL, (size_t)k->p0 + GUARD);
        for (int64_t h = 0; h < k->h; h++)
            for (int64_t w = 0; w < k->w; w++) {
                size_t e = (size_t)(h * k->w + w);
                want_buf[y_off(k, h, w)] = src_buf[e];
                if (h % 2 == 0 && w % 2 == 0) {
                    want_buf[cb_off(k, h, w)] = src_buf[plane + e];
                    want_buf[cb_off(k, h, w) + 1] = src_buf[2 * plane + e];
                }
            }
        memset(dst_buf, SENTINEL, (size_t)k->p0 + GUARD);
        REQUIRE_STATUS(tl_convert(&s, src_buf, 3 * plane, &d, dst_buf, (size_t)k->p0), TL_OK);
        CHECK_MEM_EQ(dst_buf, want_buf, (size_t)k->p0 + GUARD);
    }
}

TL_TEST(sp420_planar_round_trip)
{
    /* 420SP -> planar -> 420SP gives every stored sample back (odd H and W) */
    const sp_case *k = &sp_cases[0];
    tl_desc a, p;
    static unsigned char mid[512];
    tl_rng r = tl_test_rng();
    REQUIRE_STATUS(tl_desc_parse(&a, k->larod), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&p, "CHW:u8:3x5x7"), TL_OK);
    tl_rng_bytes(&r, src_buf, (size_t)k->p0);
    memcpy(dst_buf, src_buf, (size_t)k->p0);
    REQUIRE_STATUS(tl_convert(&a, src_buf, (size_t)k->p0, &p, mid, sizeof mid), TL_OK);
    memset(dst_buf, SENTINEL, (size_t)k->p0);
    REQUIRE_STATUS(tl_convert(&p, mid, sizeof mid, &a, dst_buf, (size_t)k->p0), TL_OK);
    for (int64_t h = 0; h < k->h; h++)
        for (int64_t w = 0; w < k->w; w++) {
            CHECK_EQ_I64(dst_buf[y_off(k, h, w)], src_buf[y_off(k, h, w)]);
            CHECK_EQ_I64(dst_buf[cb_off(k, h, w)], src_buf[cb_off(k, h, w)]);
            CHECK_EQ_I64(dst_buf[cb_off(k, h, w) + 1], src_buf[cb_off(k, h, w) + 1]);
        }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(nhwc_u8_pitched_to_nchw_f32_dequant);
    TL_RUN(nchw_f32_to_nhwc_u8_pitched_quant);
    TL_RUN(nhwc_round_trip_exact);
    TL_RUN(nhwc_bad_conversion_writes_nothing);
    TL_RUN(sp420_to_planar);
    TL_RUN(planar_to_sp420);
    TL_RUN(sp420_planar_round_trip);
    return tl_test_finish();
}
