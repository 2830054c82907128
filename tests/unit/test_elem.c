/* Element semantics (src/core/elem.c): dtypes, f16/bf16, raw access,
 * quantization vectors of docs/conversion.md, and the element conversion rule,
 * checked against computations written independently here (libm, plain
 * integer arithmetic, nearest-value search). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numerics/elem.h"
#include "tl_test.h"

static uint32_t f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float f32_from(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint64_t f64_bits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }


/* ---- independent references ------------------------------------------------ */
/* Value of a finite f16 by the textbook formula; 0x7C00 reads as 65536, the
 * value inf stands for when choosing the nearest. */
static double ref_f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : ldexp(1024 + m, e - 25);
    if (e == 31) v = 65536.0;
    return (h & 0x8000) ? -v : v;
}

static double ref_bf16_value(uint16_t h) { return (double)f32_from((uint32_t)h << 16); }

/* Nearest f16 of a non-NaN double: binary search among 0x0000..0x7C00, then
 * the closer neighbour, ties to the even encoding. */
static uint16_t ref_to_f16(double x)
{
    uint16_t sign = signbit(x) ? 0x8000 : 0;
    double a = fabs(x);
    if (a >= 65536.0) return sign | 0x7C00;
    unsigned lo = 0, hi = 0x7C00;
    while (hi - lo > 1) {
        unsigned mid = (lo + hi) / 2;
        if (ref_f16_value((uint16_t)mid) <= a) lo = mid;
        else hi = mid;
    }
    double dl = a - ref_f16_value((uint16_t)lo), dh = ref_f16_value((uint16_t)hi) - a;
    unsigned pick = dl < dh ? lo : dh < dl ? hi : ((lo & 1) ? hi : lo);
    if (dl == 0) pick = lo;
    return (uint16_t)(sign | pick);
}

/* The well-known add-and-shift f32 -> bf16 (round to nearest even). */
static uint16_t ref_f32_to_bf16(float f)
{
    uint32_t u = f32_bits(f);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

static bool is_nan16(uint16_t h, int mbits)
{
    unsigned emax = mbits == 10 ? 0x7C00u : 0x7F80u;
    return (h & emax) == emax && (h & ((1u << mbits) - 1)) != 0;
}

static double ref_round(double v, tl_round r)
{
    switch (r) {
    case TL_ROUND_AWAY: return round(v);
    case TL_ROUND_ZERO: return trunc(v);
    default: return nearbyint(v); /* default environment: ties to even */
    }
}

/* ---- dtypes ------------------------------------------------------------------- */
TL_TEST(dtype_names)
{
    static const char *names[] = {"u8", "i8", "u16", "i16", "u32", "i32", "u64", "i64",
                                  "f16", "bf16", "f32", "f64", "bool", "u4", "i4"};
    static const unsigned bits[] = {8, 8, 16, 16, 32, 32, 64, 64, 16, 16, 32, 64, 8, 4, 4};
    for (int t = 1; t < TL_DT_COUNT; t++) {
        CHECK_STR_EQ(tl_dtype_name((tl_dtype)t), names[t - 1]);
        CHECK_EQ_I64(tl_dtype_bits((tl_dtype)t), bits[t - 1]);
        CHECK_EQ_I64(tl_dtype_from_name(names[t - 1]), t);
    }
    CHECK_STR_EQ(tl_dtype_name(TL_DT_INVALID), "?");
    CHECK_STR_EQ(tl_dtype_name((tl_dtype)99), "?");
    CHECK_EQ_I64(tl_dtype_bits((tl_dtype)-1), 0);
    CHECK_EQ_I64(tl_dtype_from_name("F32"), TL_DT_INVALID); /* names are case-sensitive */
    CHECK_EQ_I64(tl_dtype_from_name("float33"), TL_DT_INVALID);
}

/* Framework names (numpy, ONNX, PyTorch) are read as the canonical dtype, and
 * a descriptor parsed with one formats back with the canonical name. */
TL_TEST(dtype_aliases)
{
    static const struct { const char *alias; tl_dtype t; } cases[] = {
        {"float32", TL_F32}, {"float", TL_F32}, {"fp32", TL_F32}, {"float16", TL_F16}, {"fp16", TL_F16},
        {"half", TL_F16}, {"bfloat16", TL_BF16}, {"bf16", TL_BF16}, {"uint8", TL_U8}, {"int8", TL_I8},
        {"uint16", TL_U16}, {"int16", TL_I16}, {"int32", TL_I32}, {"uint32", TL_U32}, {"int64", TL_I64},
        {"uint64", TL_U64}, {"float64", TL_F64}, {"double", TL_F64}, {"bool", TL_BOOL}, {"int4", TL_I4},
        {"uint4", TL_U4},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK_EQ_I64(tl_dtype_from_name(cases[k].alias), cases[k].t);
        char spec[64], back[64], want[64];
        tl_desc d;
        snprintf(spec, sizeof spec, "NHWC:%s:1x2x2x3", cases[k].alias);
        snprintf(want, sizeof want, "NHWC:%s:1x2x2x3", tl_dtype_name(cases[k].t));
        REQUIRE_STATUS(tl_desc_parse(&d, spec), TL_OK);
        REQUIRE_STATUS(tl_desc_format(&d, back, sizeof back), TL_OK);
        CHECK_STR_EQ(back, want);
    }
    CHECK_EQ_I64(tl_dtype_from_name(""), TL_DT_INVALID);
    CHECK_EQ_I64(tl_dtype_from_name(NULL), TL_DT_INVALID);
    CHECK_EQ_I64(tl_dtype_max(TL_I64), INT64_MAX);
    CHECK(tl_dtype_neg_limit(TL_I64) == (uint64_t)1 << 63);
    CHECK(tl_dtype_max(TL_U64) == UINT64_MAX);
    CHECK_EQ_I64(tl_dtype_neg_limit(TL_I4), 8);
}

/* ---- f16 / bf16 ---------------------------------------------------------------- */
TL_TEST(f16_exhaustive_roundtrip)
{
    for (uint32_t i = 0; i < 65536 && TL_TEST_FAILURES() < 10; i++) {
        uint16_t h = (uint16_t)i;
        float f = tl_f16_to_f32(h);
        double d = tl_f16_to_f64(h);
        if (is_nan16(h, 10)) {
            uint16_t quiet = h | 0x0200; /* quieted, payload and sign kept */
            CHECK(isnan(f) && isnan(d));
            CHECK_EQ_I64(f32_bits(f) >> 31, h >> 15);
            CHECK_EQ_I64(tl_f32_to_f16(f), quiet);
            CHECK_EQ_I64(tl_f64_to_f16(d), quiet);
            continue;
        }
        if ((double)f != d || f64_bits(d) != f64_bits((double)f)) FAILF("f16 0x%04x: f32 %a, f64 %a", h, f, d);
        if ((h & 0x7FFF) != 0x7C00 && d != ref_f16_value(h))
            FAILF("f16 0x%04x reads %a, expected %a", h, d, ref_f16_value(h));
        if (tl_f32_to_f16(f) != h) FAILF("f16 0x%04x -> f32 -> 0x%04x", h, tl_f32_to_f16(f));
        if (tl_f64_to_f16(d) != h) FAILF("f16 0x%04x -> f64 -> 0x%04x", h, tl_f64_to_f16(d));
    }
}

TL_TEST(bf16_exhaustive_roundtrip)
{
    for (uint32_t i = 0; i < 65536 && TL_TEST_FAILURES() < 10; i++) {
        uint16_t h = (uint16_t)i;
        float f = tl_bf16_to_f32(h);
        double d = tl_bf16_to_f64(h);
        if (is_nan16(h, 7)) {
            uint16_t quiet = h | 0x0040;
            CHECK(isnan(f) && isnan(d));
            CHECK_EQ_I64(f32_bits(f), (uint32_t)quiet << 16);
            CHECK_EQ_I64(tl_f32_to_bf16(f), quiet);
            CHECK_EQ_I64(tl_f64_to_bf16(d), quiet);
            continue;
        }
        if (f32_bits(f) != (uint32_t)h << 16 || d != ref_bf16_value(h)) FAILF("bf16 0x%04x reads %a", h, f);
        if (f64_bits(d) != f64_bits((double)f)) FAILF("bf16 0x%04x: f64 %a", h, d);
        if (tl_f32_to_bf16(f) != h) FAILF("bf16 0x%04x -> f32 -> 0x%04x", h, tl_f32_to_bf16(f));
        if (tl_f64_to_bf16(d) != h) FAILF("bf16 0x%04x -> f64 -> 0x%04x", h, tl_f64_to_bf16(d));
    }
}

/* Every pair of neighbouring f16 values: the midpoint is a tie (goes to the
 * even encoding), one f32 ulp either side goes to the nearer one, and a
 * double a hair above the midpoint rounds up (it would not through f32). */
static void check_f16_pair(uint16_t h)
{
    uint16_t n = (uint16_t)(h + 1);
    double lo = ref_f16_value(h), hi = ref_f16_value(n);
    float mid = (float)((lo + hi) / 2); /* 12 significant bits: exact in f32 */
    uint16_t even = (h & 1) ? n : h;
    float below = nextafterf(mid, (float)lo), above = nextafterf(mid, (float)hi);
    double hair = (double)mid + (double)mid * 0x1p-40;
    if (tl_f32_to_f16(mid) != even) FAILF("tie %a -> 0x%04x, expected 0x%04x", mid, tl_f32_to_f16(mid), even);
    if (tl_f32_to_f16(below) != h) FAILF("%a -> 0x%04x, expected 0x%04x", below, tl_f32_to_f16(below), h);
    if (tl_f32_to_f16(above) != n) FAILF("%a -> 0x%04x, expected 0x%04x", above, tl_f32_to_f16(above), n);
    if (tl_f64_to_f16(hair) != n)
        FAILF("%a -> 0x%04x, expected 0x%04x (double rounding?)", hair, tl_f64_to_f16(hair), n);
}

TL_TEST(f16_ties_all_pairs)
{
    for (uint32_t h = 0; h < 0x7C00 && TL_TEST_FAILURES() < 10; h++) {
        check_f16_pair((uint16_t)h);
        check_f16_pair((uint16_t)(h | 0x8000));
    }
}

TL_TEST(f16_crafted)
{
    CHECK_EQ_I64(tl_f32_to_f16(1.0f + 0x1p-11f), 0x3C00);          /* tie -> even */
    CHECK_EQ_I64(tl_f32_to_f16(1.0f + 3 * 0x1p-11f), 0x3C02);      /* tie -> even (up) */
    CHECK_EQ_I64(tl_f64_to_f16(1.0 + 0x1p-11 + 0x1p-40), 0x3C01);  /* single rounding */
    CHECK_EQ_I64(tl_f32_to_f16(65504.0f), 0x7BFF);
    CHECK_EQ_I64(tl_f32_to_f16(65519.996f), 0x7BFF);
    CHECK_EQ_I64(tl_f32_to_f16(65520.0f), 0x7C00);                 /* overflow by rounding */
    CHECK_EQ_I64(tl_f32_to_f16(-1e10f), 0xFC00);
    CHECK_EQ_I64(tl_f32_to_f16(0x1p-25f), 0x0000);                 /* half the min subnormal */
    CHECK_EQ_I64(tl_f32_to_f16(-0x1p-25f), 0x8000);
    CHECK_EQ_I64(tl_f32_to_f16(0x1.000002p-25f), 0x0001);
    CHECK_EQ_I64(tl_f32_to_f16(3 * 0x1p-25f), 0x0002);
    CHECK_EQ_I64(tl_f32_to_f16(1023.5f * 0x1p-24f), 0x0400);       /* into the normals */
    CHECK_EQ_I64(tl_f64_to_f16(0x1p-1074), 0x0000);                /* double subnormal */
    CHECK_EQ_I64(tl_f64_to_f16(-0.0), 0x8000);
    CHECK_EQ_I64(tl_f64_to_f16(INFINITY), 0x7C00);
    CHECK_EQ_I64(tl_f32_to_f16(f32_from(0x7F800001u)), 0x7E00);     /* sNaN -> qNaN */
    CHECK_EQ_I64(tl_f32_to_f16(f32_from(0xFFC00000u)), 0xFE00);
    CHECK_EQ_I64(tl_f64_to_bf16(1.0 + 0x1p-8 + 0x1p-40), 0x3F81);  /* bf16: single rounding */
    CHECK_EQ_I64(tl_f32_to_bf16(3.4028235e38f), 0x7F80);            /* rounds to inf */
    CHECK_EQ_I64(tl_f32_to_bf16(f32_from(0x00010000u)), 0x0001);    /* subnormal */
    CHECK_EQ_I64(tl_f32_to_bf16(f32_from(0x00008000u)), 0x0000);    /* tie -> even */
    CHECK_EQ_I64(tl_f32_to_bf16(f32_from(0x00018000u)), 0x0002);
    /* integers round once: 2^60 + 2^52 + 1 is above the bf16 tie, its double is on it */
    CHECK_EQ_I64(tl_int_to_bf16(false, ((uint64_t)1 << 60) + ((uint64_t)1 << 52) + 1), 0x5D81);
    CHECK_EQ_I64(tl_int_to_bf16(true, UINT64_MAX), 0xDF80);          /* -2^64 */
    CHECK_EQ_I64(tl_int_to_f16(false, 65519), 0x7BFF);
    CHECK_EQ_I64(tl_int_to_f16(false, 65520), 0x7C00);
    CHECK_EQ_I64(tl_int_to_f16(true, 2049), 0xE800);                 /* -2048: tie -> even */
    CHECK_EQ_I64(tl_int_to_f16(false, 0), 0);
}

TL_TEST(f16_bf16_random_sweep)
{
    tl_rng r = tl_test_rng();
    for (int i = 0; i < 400000 && TL_TEST_FAILURES() < 10; i++) {
        uint32_t u = (uint32_t)tl_rng_next(&r);
        if (i & 1) /* half of the draws in and around the f16 range */
            u = (u & 0x807FFFFFu) | ((uint32_t)tl_rng_range(&r, 127 - 27, 127 + 17) << 23);
        float f = f32_from(u);
        if (isnan(f)) continue;
        uint16_t want = ref_to_f16((double)f);
        if (tl_f32_to_f16(f) != want) FAILF("f32 %a -> f16 0x%04x, expected 0x%04x", f, tl_f32_to_f16(f), want);
        if (tl_f64_to_f16((double)f) != want) FAILF("f64 %a -> f16 0x%04x", f, tl_f64_to_f16((double)f));
        if (tl_f32_to_bf16(f) != ref_f32_to_bf16(f))
            FAILF("f32 %a -> bf16 0x%04x, expected 0x%04x", f, tl_f32_to_bf16(f), ref_f32_to_bf16(f));
        if (tl_f64_to_bf16((double)f) != ref_f32_to_bf16(f)) FAILF("f64 %a -> bf16", f);
        double d = (double)f * (1.0 + tl_rng_unit(&r) * 0x1p-20); /* between floats */
        if (tl_f64_to_f16(d) != ref_to_f16(d)) FAILF("f64 %a -> f16 0x%04x, expected 0x%04x", d, tl_f64_to_f16(d), ref_to_f16(d));
    }
}

/* ---- raw access --------------------------------------------------------------- */
TL_TEST(nibbles_n18)
{
    const uint8_t buf[2] = {0x21, 0xF3};
    const int64_t want_i4[4] = {1, 2, 3, -1}, want_u4[4] = {1, 2, 3, 15};
    for (int k = 0; k < 4; k++) {
        CHECK_EQ_I64(tl_elem_read(TL_I4, buf, 4 * k).i, want_i4[k]);
        CHECK_EQ_I64(tl_elem_read(TL_U4, buf, 4 * k).i, want_u4[k]);
    }
    uint8_t w[2] = {0xAB, 0xCD};
    tl_value v = {.i = -2};
    tl_elem_write(TL_I4, w, 0, v);
    CHECK_EQ_I64(w[0], 0xAE);
    v.i = 100; /* saturates to 7 */
    tl_elem_write(TL_I4, w, 12, v);
    CHECK_EQ_I64(w[1], 0x7D);
    v.i = -1;
    tl_elem_write(TL_U4, w, 4, v);
    CHECK_EQ_I64(w[0], 0x0E);
}

TL_TEST(raw_unaligned)
{
    uint8_t buf[16] = {0};
    tl_store_raw(buf, 8, 32, 0x11223344u);
    CHECK_EQ_I64(buf[1], 0x44);
    CHECK_EQ_I64(buf[4], 0x11);
    CHECK_EQ_I64(tl_load_raw(buf, 8, 32), 0x11223344);
    tl_store_raw(buf, 24, 64, 0x0102030405060708ull);
    CHECK(tl_load_raw(buf, 24, 64) == 0x0102030405060708ull);
    CHECK_EQ_I64(tl_load_raw(buf, 24, 16), 0x0708);
    tl_value v = {.f = 1.5};
    tl_elem_write(TL_F16, buf, 8 * 11, v);
    CHECK_EQ_I64(tl_load_raw(buf, 8 * 11, 16), 0x3E00);
    CHECK(tl_elem_read(TL_F16, buf, 8 * 11).f == 1.5);
    v.u = UINT64_MAX;
    tl_elem_write(TL_U64, buf, 8, v);
    CHECK(tl_elem_read(TL_U64, buf, 8).u == UINT64_MAX);
    v.i = -300;
    tl_elem_write(TL_I8, buf, 0, v);
    CHECK_EQ_I64(tl_elem_read(TL_I8, buf, 0).i, -128);
    buf[0] = 7;
    CHECK_EQ_I64(tl_elem_read(TL_BOOL, buf, 0).i, 1);
}

/* ---- quantization vectors ------------------------------------------------------ */
TL_TEST(quant_tidl_t5_t6_t7)
{
    tl_quant q = tl_test_quant(TL_Q_INV, 0, 25.0f, 0, TL_ROUND_ZERO);
    CHECK(tl_dequantize_value(&q, -50) == -2.0);                       /* T5 */
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.99f), 24);             /* T6, TIDL-RT */
    q.round = TL_ROUND_EVEN;
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.99f), 25);             /* T6, nearest */
    q.round = TL_ROUND_AWAY;
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.99f), 25);
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, -6.0f), -128);           /* T7 */
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I16, -6.0f), -150);
}

TL_TEST(quant_rknn_r8_r9_r10)
{
    tl_quant q = tl_test_quant(TL_Q_AFFINE, 5, 0.1f, 0, TL_ROUND_EVEN);
    double r8 = tl_dequantize_value(&q, 11);                           /* R8 */
    CHECK(r8 == (double)(6.0f * 0.1f));
    CHECK_NEAR(r8, 0.6, 1e-6);
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.56f), 11);             /* R9 */
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.55f), 10);             /* R6's raw 10.5: even */
    q.round = TL_ROUND_AWAY;
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I8, 0.55f), 11);             /* away */
    tl_quant d = tl_test_quant(TL_Q_DFP, 0, 0.0f, 5, TL_ROUND_EVEN);
    CHECK(tl_dequantize_value(&d, 48) == 1.5);                         /* R10 */
    CHECK_EQ_I64(tl_quantize_value(&d, TL_I8, 1.5f), 48);
    d.fl = -2;
    CHECK(tl_dequantize_value(&d, 3) == 12.0);
    CHECK_EQ_I64(tl_quantize_value(&d, TL_I8, 12.0f), 3);
    d.fl = -128; /* the extremes of an int8 fl */
    CHECK(isinf(tl_dequantize_value(&d, 1)));                          /* 2^128 overflows f32 */
    d.fl = 127;
    CHECK(tl_dequantize_value(&d, 1) == 0x1p-127);
    CHECK_EQ_I64(tl_quantize_value(&d, TL_I32, 0x1p-126f), 2);
}

TL_TEST(quant_rounding_modes_half)
{
    static const float x[] = {0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.4999998f, -3.5000002f};
    static const int64_t even[] = {0, 2, 2, 0, -2, -2, 2, -4};
    static const int64_t away[] = {1, 2, 3, -1, -2, -3, 2, -4};
    static const int64_t zero[] = {0, 1, 2, 0, -1, -2, 2, -3};
    for (int i = 0; i < 8; i++) {
        tl_quant q = tl_test_quant(TL_Q_NONE, 0, 0, 0, TL_ROUND_EVEN);
        CHECK_EQ_I64(tl_quantize_value(&q, TL_I32, x[i]), even[i]);
        q.round = TL_ROUND_AWAY;
        CHECK_EQ_I64(tl_quantize_value(&q, TL_I32, x[i]), away[i]);
        q.round = TL_ROUND_ZERO;
        CHECK_EQ_I64(tl_quantize_value(&q, TL_I32, x[i]), zero[i]);
    }
    CHECK_EQ_I64(tl_quantize_value(NULL, TL_I32, 2.5f), 2);
}

TL_TEST(quant_saturation_nan_inf)
{
    tl_quant a = tl_test_quant(TL_Q_AFFINE, 5, 0.5f, 0, TL_ROUND_EVEN);
    tl_quant n = tl_test_quant(TL_Q_NONE, 0, 0, 0, TL_ROUND_EVEN);
    tl_quant f = tl_test_quant(TL_Q_DFP, 0, 0, 3, TL_ROUND_EVEN);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_U8, 1000.0f), 255);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_U8, -1000.0f), 0);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I16, 1e9f), 32767);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_U4, 100.0f), 15);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I4, -100.0f), -8);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I4, 0.0f), 5);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I4, 1.0f), 7);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I8, NAN), 5);               /* NaN -> zp */
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I8, INFINITY), 127);
    CHECK_EQ_I64(tl_quantize_value(&a, TL_I8, -INFINITY), -128);
    CHECK_EQ_I64(tl_quantize_value(&n, TL_I8, NAN), 0);
    CHECK_EQ_I64(tl_quantize_value(&f, TL_I8, NAN), 0);
    CHECK_EQ_I64(tl_quantize_value(&n, TL_BOOL, 0.3f), 0);            /* rounds to 0 */
    CHECK_EQ_I64(tl_quantize_value(&n, TL_BOOL, 0.7f), 1);
    CHECK_EQ_I64(tl_quantize_value(&n, TL_BOOL, -3.0f), 1);           /* non-zero -> 1 */
    CHECK_EQ_I64(tl_quantize_value(&n, TL_I64, 1e19f), INT64_MAX);
    CHECK(tl_quantize_value(&n, TL_I64, -1e19f) == INT64_MIN);
    CHECK((uint64_t)tl_quantize_value(&n, TL_U64, 1e19f) == 9999999980506447872ull);
    CHECK((uint64_t)tl_quantize_value(&n, TL_U64, 1e20f) == UINT64_MAX);
    CHECK_EQ_I64(tl_quantize_value(&n, TL_U64, -5.0f), 0);
    CHECK_EQ_I64(tl_quantize_value(&n, TL_U32, 4294967296.0f), 4294967295);
    /* the zero point is added in f32: (float)zp rounds above 2^24 */
    tl_quant big = tl_test_quant(TL_Q_AFFINE, 16777217, 1.0f, 0, TL_ROUND_EVEN);
    CHECK_EQ_I64(tl_quantize_value(&big, TL_I32, 0.0f), 16777216);
    CHECK(tl_dequantize_value(&n, -7) == -7.0);
    CHECK(tl_dequantize_value(NULL, 3) == 3.0);
    CHECK(tl_dequantize_value(&a, INT64_MIN) == (double)((float)(-0x1p63) * 0.5f));
}

/* INV is real*scale + zp with the product rounded to f32 first: a fused
 * multiply-add would give 25465470 here (found by search). */
TL_TEST(quant_inv_no_fma)
{
    tl_quant q = tl_test_quant(TL_Q_INV, -27, 0x1.39ccccp+8f, 0, TL_ROUND_EVEN);
    float real = 0x1.3dp+16f;
    volatile float p = real * q.scale;
    float t = p + (float)q.zp;
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I32, real), (int64_t)t);
    CHECK_EQ_I64(tl_quantize_value(&q, TL_I32, real), (int64_t)0x1.84927cp+24);
}

/* Random quantize/dequantize against the formulas written with libm. */
TL_TEST(quant_random_vs_libm)
{
    static const tl_dtype dts[] = {TL_U8, TL_I8, TL_U16, TL_I16, TL_I32, TL_U4, TL_I4};
    tl_rng r = tl_test_rng();
    for (int i = 0; i < 200000 && TL_TEST_FAILURES() < 10; i++) {
        tl_dtype t = dts[tl_rng_pick(&r, 7)];
        tl_round rm = (tl_round)tl_rng_pick(&r, 3);
        tl_qkind k = (tl_qkind)tl_rng_range(&r, 0, 3);
        float scale = (float)ldexp(1.0 + tl_rng_unit(&r), (int)tl_rng_range(&r, -10, 6));
        int32_t zp = (int32_t)tl_rng_range(&r, -20, 20);
        int fl = (int)tl_rng_range(&r, -4, 10);
        tl_quant q = tl_test_quant(k, k == TL_Q_AFFINE || k == TL_Q_INV ? zp : 0, scale, fl, rm);
        float real = (float)((tl_rng_unit(&r) - 0.5) * ldexp(1.0, (int)tl_rng_range(&r, -4, 12)));
        /* AFFINE multiplies by the f32 reciprocal (conversion.md §5), not real / scale */
        float inv = 1.0f / scale;
        float tq = k == TL_Q_AFFINE ? real * inv : k == TL_Q_INV ? real * scale
                 : k == TL_Q_DFP ? ldexpf(real, fl) : real;
        volatile float tv = tq;
        float tz = tv + (float)q.zp;
        double lim_lo = -(double)tl_dtype_neg_limit(t), lim_hi = (double)tl_dtype_max(t);
        double want = fmin(fmax(ref_round(tz, rm), lim_lo), lim_hi);
        int64_t got = tl_quantize_value(&q, t, real);
        if ((double)got != want) FAILF("quantize %a kind %d scale %a zp %d fl %d round %d -> %lld, expected %g",
                                       real, k, scale, q.zp, fl, rm, (long long)got, want);
        int64_t code = (int64_t)tl_rng_range(&r, -200, 200);
        float dq = k == TL_Q_AFFINE ? (float)(code - q.zp) * scale
                 : k == TL_Q_INV ? (float)(code - q.zp) * inv /* TIDL-RT's reciprocal */
                 : k == TL_Q_DFP ? ldexpf((float)code, -fl) : (float)code;
        if (tl_dequantize_value(&q, code) != (double)dq) FAILF("dequantize %lld kind %d", (long long)code, k);
    }
}

/* ---- the element rule ------------------------------------------------------------ */
static uint64_t conv(tl_dtype s, const tl_quant *sq, tl_dtype d, const tl_quant *dq, uint64_t raw)
{
    tl_elem_op op;
    tl_elem_op_init_dt(&op, s, sq, d, dq);
    return tl_elem_convert_raw(&op, raw) & (tl_dtype_bits(d) == 64 ? UINT64_MAX
                                             : ((uint64_t)1 << tl_dtype_bits(d)) - 1);
}

static uint64_t f32r(float f) { return f32_bits(f); }

/* Value of a raw integer code of dtype t (signed types sign-extended). */
static int64_t sign_extend_for_test(tl_dtype t, uint64_t raw)
{
    unsigned b = tl_dtype_bits(t);
    if (!tl_dtype_is_signed_int(t) || b == 64) return (int64_t)raw;
    return (raw >> (b - 1)) & 1 ? (int64_t)raw - ((int64_t)1 << b) : (int64_t)raw;
}

TL_TEST(rule_paths)
{
    tl_elem_op op;
    tl_quant a = tl_test_quant(TL_Q_AFFINE, 5, 0.1f, 0, TL_ROUND_EVEN);
    tl_quant a_away = tl_test_quant(TL_Q_AFFINE, 5, 0.1f, 0, TL_ROUND_AWAY);
    tl_quant b = tl_test_quant(TL_Q_AFFINE, 5, 0.2f, 0, TL_ROUND_EVEN);
    tl_elem_op_init_dt(&op, TL_F32, NULL, TL_F32, NULL);
    CHECK_EQ_I64(op.path, TL_EP_COPY);
    tl_elem_op_init_dt(&op, TL_I8, &a, TL_I8, &a_away); /* rounding ignored for copy */
    CHECK_EQ_I64(op.path, TL_EP_COPY);
    tl_elem_op_init_dt(&op, TL_I8, &a, TL_I8, &b);
    CHECK_EQ_I64(op.path, TL_EP_REAL);
    tl_elem_op_init_dt(&op, TL_I8, NULL, TL_F16, &a); /* quant on a float is ignored */
    CHECK_EQ_I64(op.path, TL_EP_INT);
    tl_elem_op_init_dt(&op, TL_F16, NULL, TL_I8, NULL);
    CHECK_EQ_I64(op.path, TL_EP_FLOAT);
    /* a) signalling NaN copied bit for bit */
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_F32, NULL, 0x7F800001u), 0x7F800001u);
    /* requantize: code 11 of (5, 0.1) is 0.6 -> 0.6/0.2 + 5 = 8 */
    CHECK_EQ_I64(conv(TL_I8, &a, TL_I8, &b, 11), 8);
    CHECK_EQ_I64(conv(TL_I8, &a, TL_F32, NULL, 11), f32r(6.0f * 0.1f));
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, &a, f32r(0.56f)), 11);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_U8, &a, f32r(-3.0f)), 0);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_U8, &a, f32r(NAN)), 5);
    /* b) quantized source into a plain integer: the destination's rounding */
    CHECK_EQ_I64(conv(TL_I8, &a, TL_I32, NULL, 10), 0);              /* 0.5 -> even 0 */
    tl_quant away = tl_test_quant(TL_Q_NONE, 0, 0, 0, TL_ROUND_AWAY);
    CHECK_EQ_I64(conv(TL_I8, &a, TL_I32, &away, 10), 1);
    CHECK_EQ_I64(conv(TL_I8, &a, TL_BOOL, NULL, 5), 0);
    CHECK_EQ_I64(conv(TL_I8, &a, TL_BOOL, NULL, 6), 1);
    CHECK_EQ_I64(conv(TL_I8, &a, TL_F16, NULL, 15), tl_f32_to_f16(10.0f * 0.1f));
    /* b) plain integer source into a quantized one: int -> f32 then quantize */
    CHECK_EQ_I64(conv(TL_I32, NULL, TL_I8, &a, 1), 15);
    CHECK_EQ_I64(conv(TL_I32, NULL, TL_I8, &a, (uint32_t)-100), (uint8_t)-128);
    CHECK_EQ_I64(conv(TL_F64, NULL, TL_I8, &a, f64_bits(0.05)), 6);   /* 0.05 -> f32 first */
    tl_quant u64q = tl_test_quant(TL_Q_AFFINE, -5, 1.0f, 0, TL_ROUND_EVEN);
    CHECK_EQ_I64(conv(TL_U64, &u64q, TL_F32, NULL, UINT64_MAX), f32r(0x1p64f));
    CHECK_EQ_I64(conv(TL_I64, &u64q, TL_F32, NULL, (uint64_t)INT64_MIN), f32r(-0x1p63f));
}

TL_TEST(rule_int_to_int_exhaustive_small)
{
    static const tl_dtype srcs[] = {TL_U8, TL_I8, TL_U4, TL_I4, TL_BOOL};
    static const tl_dtype dsts[] = {TL_U8, TL_I8, TL_U16, TL_I16, TL_U32, TL_I32,
                                    TL_U64, TL_I64, TL_BOOL, TL_U4, TL_I4};
    for (int s = 0; s < 5; s++)
        for (int d = 0; d < 11; d++)
            for (int raw = 0; raw < (1 << tl_dtype_bits(srcs[s])); raw++) {
                tl_dtype st = srcs[s], dt = dsts[d];
                int64_t v = raw;
                if (st == TL_I8 && raw > 127) v = raw - 256;
                if (st == TL_I4 && raw > 7) v = raw - 16;
                if (st == TL_BOOL) v = raw != 0;
                int64_t lo = dt == TL_I64 ? INT64_MIN : -(int64_t)tl_dtype_neg_limit(dt);
                int64_t hi = dt == TL_U64 || dt == TL_I64 ? INT64_MAX : (int64_t)tl_dtype_max(dt);
                int64_t want = dt == TL_BOOL ? v != 0 : v < lo ? lo : v > hi ? hi : v;
                unsigned db = tl_dtype_bits(dt);
                uint64_t wraw = (uint64_t)want & (db == 64 ? UINT64_MAX : ((uint64_t)1 << db) - 1);
                uint64_t got = conv(st, NULL, dt, NULL, (uint64_t)raw);
                if (got != wraw && (st != dt || got != (uint64_t)raw))
                    FAILF("%s %d -> %s: 0x%llx, expected 0x%llx", tl_dtype_name(st), raw,
                          tl_dtype_name(dt), (unsigned long long)got, (unsigned long long)wraw);
            }
}

TL_TEST(rule_int_extremes)
{
    CHECK(conv(TL_U64, NULL, TL_I64, NULL, UINT64_MAX) == (uint64_t)INT64_MAX);
    CHECK(conv(TL_U64, NULL, TL_I64, NULL, (uint64_t)1 << 63) == (uint64_t)INT64_MAX);
    CHECK(conv(TL_I64, NULL, TL_U64, NULL, (uint64_t)INT64_MIN) == 0);
    CHECK(conv(TL_I64, NULL, TL_U64, NULL, (uint64_t)INT64_MAX) == (uint64_t)INT64_MAX);
    CHECK(conv(TL_I64, NULL, TL_I8, NULL, (uint64_t)INT64_MIN) == 0x80);
    CHECK(conv(TL_U64, NULL, TL_U32, NULL, UINT64_MAX) == UINT32_MAX);
    CHECK(conv(TL_I32, NULL, TL_U16, NULL, (uint32_t)-1) == 0);
    CHECK(conv(TL_U32, NULL, TL_I32, NULL, UINT32_MAX) == INT32_MAX);
    CHECK(conv(TL_I64, NULL, TL_F32, NULL, (uint64_t)INT64_MAX) == f32r(0x1p63f));
    CHECK(conv(TL_U64, NULL, TL_F64, NULL, UINT64_MAX) == f64_bits(0x1p64));
    CHECK(conv(TL_I64, NULL, TL_F64, NULL, (uint64_t)-3) == f64_bits(-3.0));
    CHECK(conv(TL_I32, NULL, TL_F16, NULL, 65520) == 0x7C00);
    CHECK(conv(TL_I32, NULL, TL_F16, NULL, (uint32_t)-2049) == 0xE800);
    CHECK(conv(TL_I32, NULL, TL_BF16, NULL, 257) == 0x4380);          /* 256: tie -> even */
    CHECK(conv(TL_BOOL, NULL, TL_F32, NULL, 2) == f32r(1.0f));
    /* int -> f32 rounds once: 2^60 + 2^36 + 1 is above the f32 tie, its double sits on it */
    uint64_t x = ((uint64_t)1 << 60) + ((uint64_t)1 << 36) + 1;
    CHECK(conv(TL_U64, NULL, TL_F32, NULL, x) == f32r(0x1p60f + 0x1p37f));
}

TL_TEST(rule_float_to_int)
{
    tl_quant away = tl_test_quant(TL_Q_NONE, 0, 0, 0, TL_ROUND_AWAY);
    tl_quant zero = tl_test_quant(TL_Q_NONE, 0, 0, 0, TL_ROUND_ZERO);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, NULL, f32r(2.5f)), 2);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, &away, f32r(2.5f)), 3);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, &zero, f32r(-2.5f)), (uint8_t)-2);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, NULL, f32r(NAN)), 0);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, NULL, f32r(INFINITY)), 127);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_I8, NULL, f32r(-INFINITY)), 0x80);
    CHECK_EQ_I64(conv(TL_F16, NULL, TL_U8, NULL, 0xBC00), 0);            /* -1 */
    CHECK(conv(TL_F32, NULL, TL_U64, NULL, f32r(1e30f)) == UINT64_MAX);
    CHECK(conv(TL_F32, NULL, TL_U64, NULL, f32r(-1e30f)) == 0);
    CHECK(conv(TL_F64, NULL, TL_I64, NULL, f64_bits(9.3e18)) == (uint64_t)INT64_MAX);
    CHECK(conv(TL_F64, NULL, TL_I64, NULL, f64_bits(-0x1p63)) == (uint64_t)INT64_MIN);
    CHECK(conv(TL_F64, NULL, TL_U64, NULL, f64_bits(0x1p64 - 2048)) == 0xFFFFFFFFFFFFF800ull);
    CHECK_EQ_I64(conv(TL_F64, NULL, TL_U4, NULL, f64_bits(15.49)), 15);
    CHECK_EQ_I64(conv(TL_F64, NULL, TL_I4, NULL, f64_bits(-9.0)), 8);    /* -8 as a nibble */
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_BOOL, NULL, f32r(NAN)), 0);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_BOOL, NULL, f32r(-0.0f)), 0);
    CHECK_EQ_I64(conv(TL_F32, NULL, TL_BOOL, NULL, f32r(0.1f)), 1);      /* not rounded */
    CHECK_EQ_I64(conv(TL_F16, NULL, TL_F32, NULL, 0x7C01), 0x7FC02000u); /* quieted */
    CHECK_EQ_I64(conv(TL_F64, NULL, TL_F16, NULL, f64_bits(1.0 + 0x1p-11 + 0x1p-40)), 0x3C01);
    CHECK_EQ_I64(conv(TL_BF16, NULL, TL_F16, NULL, 0x3F81), tl_f64_to_f16(1.0078125));
}

/* Float -> int over random doubles against libm rounding and clamping. */
TL_TEST(rule_float_to_int_random)
{
    static const tl_dtype dts[] = {TL_U8, TL_I8, TL_U16, TL_I16, TL_U32, TL_I32, TL_I64, TL_U4, TL_I4};
    tl_rng r = tl_test_rng();
    for (int i = 0; i < 200000 && TL_TEST_FAILURES() < 10; i++) {
        tl_dtype t = dts[tl_rng_pick(&r, 9)];
        tl_round rm = (tl_round)tl_rng_pick(&r, 3);
        tl_quant q = tl_test_quant(TL_Q_NONE, 0, 0, 0, rm);
        double d = (tl_rng_unit(&r) - 0.5) * ldexp(1.0, (int)tl_rng_range(&r, 0, 40));
        if (i % 4 == 0) d = floor(d) + 0.5; /* ties */
        double lo = -(double)tl_dtype_neg_limit(t), hi = (double)tl_dtype_max(t);
        double want = fmin(fmax(ref_round(d, rm), lo), hi);
        int64_t got = sign_extend_for_test(t, conv(TL_F64, NULL, t, &q, f64_bits(d)));
        if ((double)got != want) FAILF("%a -> %s round %d: %lld, expected %.17g", d, tl_dtype_name(t), rm, (long long)got, want);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(dtype_names);
    TL_RUN(dtype_aliases);
    TL_RUN(f16_exhaustive_roundtrip);
    TL_RUN(bf16_exhaustive_roundtrip);
    TL_RUN(f16_ties_all_pairs);
    TL_RUN(f16_crafted);
    TL_RUN(f16_bf16_random_sweep);
    TL_RUN(nibbles_n18);
    TL_RUN(raw_unaligned);
    TL_RUN(quant_tidl_t5_t6_t7);
    TL_RUN(quant_rknn_r8_r9_r10);
    TL_RUN(quant_rounding_modes_half);
    TL_RUN(quant_saturation_nan_inf);
    TL_RUN(quant_inv_no_fma);
    TL_RUN(quant_random_vs_libm);
    TL_RUN(rule_paths);
    TL_RUN(rule_int_to_int_exhaustive_small);
    TL_RUN(rule_int_extremes);
    TL_RUN(rule_float_to_int);
    TL_RUN(rule_float_to_int_random);
    return tl_test_finish();
}
