/* TIDL output dequantization, bit for bit as TIDL-RT computes it.
 *
 * TIDL-RT's output copy (the TIDL-RT OVX conversion, cp_out_*_float) reads a
 * code q of a buffer whose TensorScale is s as q * inv with inv = 1.0f / s,
 * both operations in float32. The oracle below is that arithmetic written out
 * here; the library must give the same bits through tl_dequantize_value, the
 * scalar reference converter, every convert row kernel of every ISA path
 * this machine has (TL_CPU may narrow the default path: the kernel loop runs
 * all of them anyway) and a whole-buffer conversion. dequant=divide keeps the
 * quotient q / s, and the test checks it is a different reading. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "tl_engine_test.h"
#include "tl_test.h"

/* The runtime's arithmetic: volatile keeps the compiler from fusing or
 * reassociating the two f32 roundings. */
static float runtime_value(int32_t q, int32_t zp, float scale)
{
    volatile float inv = 1.0f / scale;
    volatile float x = (float)(q - zp);
    volatile float r = x * inv;
    return r;
}

static float quotient_value(int32_t q, int32_t zp, float scale)
{
    volatile float x = (float)(q - zp);
    volatile float r = x / scale;
    return r;
}

static uint32_t bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

/* Scales TIDL models carry: powers of two, the usual 8-bit ranges (127.5,
 * 255, 127), odd ones, tiny and huge, then random ones over 12 decades. */
static int make_scales(tl_rng *r, float *s, int cap)
{
    static const float fixed[] = {1.0f, 2.0f, 0.5f, 64.0f, 127.5f, 255.0f, 127.0f, 25.0f, 0.3f, 3.0f,
                                  7.0f, 10.0f, 56.38f, 14435.27f, 0.0039215689f, 1e-30f, 3e37f};
    int n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) s[n++] = fixed[i];
    while (n < cap) s[n++] = (float)pow(10.0, tl_rng_unit(r) * 12.0 - 6.0);
    return n;
}

static int code_range(tl_dtype t, int32_t *lo, int32_t *hi)
{
    *lo = t == TL_U8 ? 0 : t == TL_I8 ? -128 : -32768;
    *hi = t == TL_U8 ? 255 : t == TL_I8 ? 127 : 32767;
    return (int)(*hi - *lo + 1);
}

static void store_code(tl_dtype t, uint8_t *p, int32_t q)
{
    if (t == TL_I16) {
        int16_t v = (int16_t)q;
        memcpy(p, &v, 2);
    } else {
        *p = (uint8_t)q;
    }
}

/* The reproducer: code -127 (0x81) with scale 127.5. */
TL_TEST(reproducer_matches_tidl_rt)
{
    tl_quant q = tl_test_quant(TL_Q_INV, 0, 127.5f, 0, TL_ROUND_ZERO);
    float v = (float)tl_dequantize_value(&q, -127);
    char txt[32];
    snprintf(txt, sizeof txt, "%.10f", (double)v);
    CHECK_STR_EQ(txt, "-0.9960784912");
    CHECK(bits(v) == bits(runtime_value(-127, 0, 127.5f)));
    q.dequant = TL_DEQ_DIVIDE;
    v = (float)tl_dequantize_value(&q, -127);
    snprintf(txt, sizeof txt, "%.10f", (double)v);
    CHECK_STR_EQ(txt, "-0.9960784316");
}

/* tl_dequantize_value for every 8-bit code and a stride of 16-bit codes. */
TL_TEST(scalar_rule_every_code_many_scales)
{
    tl_rng r = tl_test_rng();
    float scales[200];
    int ns = make_scales(&r, scales, quick() ? 60 : 200), differ = 0;
    for (int k = 0; k < ns && TL_TEST_FAILURES() == 0; k++) {
        int32_t zp = k % 3 == 0 ? 0 : (int32_t)tl_rng_range(&r, -20, 20);
        tl_quant rec = tl_test_quant(TL_Q_INV, zp, scales[k], 0, TL_ROUND_ZERO), div = rec;
        div.dequant = TL_DEQ_DIVIDE;
        for (int32_t q = -32768; q <= 32767; q += (q >= -256 && q < 256) ? 1 : 97) {
            float got = (float)tl_dequantize_value(&rec, q), want = runtime_value(q, zp, scales[k]);
            float got_d = (float)tl_dequantize_value(&div, q), want_d = quotient_value(q, zp, scales[k]);
            if (bits(got) != bits(want) || bits(got_d) != bits(want_d)) {
                FAILF("scale %.9g zp %d code %d: %.9g / %.9g, runtime %.9g / quotient %.9g", (double)scales[k],
                      (int)zp, (int)q, (double)got, (double)got_d, (double)want, (double)want_d);
                break;
            }
            differ += bits(want) != bits(want_d);
        }
    }
    CHECK(differ > 0); /* the two readings are not the same thing */
}

/* Every convert row kernel from u8/i8/i16 to f32, on every ISA path here. */
TL_TEST(every_kernel_every_isa)
{
    const tl_row_kernel *ks;
    size_t nk;
    tl_registry_rows(&ks, &nk);
    tl_rng r = tl_test_rng();
    float scales[48];
    int ns = make_scales(&r, scales, quick() ? 24 : 48), checked = 0;
    static uint8_t src[65536 * 2 + 64];
    static float out[65536 + 16];
    for (size_t k = 0; k < nk && TL_TEST_FAILURES() == 0; k++) {
        const tl_row_kernel *kr = &ks[k];
        if (!tl_cpu_has(kr->isa) || kr->ddt != TL_F32 || !is_intt(kr->sdt)) continue;
        int32_t lo, hi;
        int n = code_range((tl_dtype)kr->sdt, &lo, &hi);
        for (int i = 0; i < n; i++) store_code((tl_dtype)kr->sdt, src + (size_t)i * bytes_of(kr->sdt), lo + i);
        for (int s = 0; s < ns; s++)
            for (int mode = TL_DEQ_RECIPROCAL; mode <= TL_DEQ_DIVIDE; mode++) {
                int32_t zp = s % 2 ? 0 : (int32_t)tl_rng_range(&r, -9, 9);
                tl_quant q = tl_test_quant(TL_Q_INV, zp, scales[s], 0, TL_ROUND_ZERO);
                q.dequant = (uint8_t)mode;
                tl_cvt cv;
                tl_cvt_init_dt(&cv, (tl_dtype)kr->sdt, &q, TL_F32, NULL);
                if (!cv.fast) continue;
                kr->fn(src, 0, (uint8_t *)out, 0, 1, (size_t)n, &cv);
                for (int i = 0; i < n; i++) {
                    float want = mode ? quotient_value(lo + i, zp, scales[s]) : runtime_value(lo + i, zp, scales[s]);
                    if (bits(out[i]) != bits(want)) {
                        FAILF("%s dequant=%d scale %.9g zp %d code %d: %.9g != %.9g", kr->name, mode,
                              (double)scales[s], (int)zp, (int)(lo + i), (double)out[i], (double)want);
                        break;
                    }
                }
                checked++;
            }
    }
    CHECK(checked > 20);
}

/* A padded TIDL output to dense f32: planned conversion and the reference. */
TL_TEST(padded_buffer_conversion)
{
    tl_rng r = tl_test_rng();
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, "tidl:i16:1x3x5x7:pad=1,2,1,0:scale=93.7"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x5x7"), TL_OK);
    size_t sn = (size_t)s.size_bytes, dn = (size_t)d.size_bytes;
    uint8_t *sb = malloc(sn);
    float *a = malloc(dn), *b = malloc(dn);
    REQUIRE(sb && a && b);
    tl_rng_bytes(&r, sb, sn);
    REQUIRE_STATUS(tl_convert(&s, sb, sn, &d, a, dn), TL_OK);
    REQUIRE_STATUS(tl_convert_reference(&s, sb, sn, &d, b, dn, 0), TL_OK);
    for (int64_t c = 0; c < 3; c++)
        for (int64_t h = 0; h < 5; h++)
            for (int64_t w = 0; w < 7; w++) {
                int64_t x[4] = {0, c, h, w};
                uint64_t off;
                REQUIRE_STATUS(tl_desc_offset(&s, x, &off), TL_OK);
                int16_t q;
                memcpy(&q, sb + off, 2);
                float want = runtime_value(q, 0, 93.7f);
                size_t i = (size_t)((c * 5 + h) * 7 + w);
                if (bits(a[i]) != bits(want) || bits(b[i]) != bits(want))
                    FAILF("(c%lld h%lld w%lld) code %d: engine %.9g reference %.9g runtime %.9g", (long long)c,
                          (long long)h, (long long)w, q, (double)a[i], (double)b[i], (double)want);
            }
    free(sb);
    free(a);
    free(b);
}

/* The option in specs, JSON and validation. */
TL_TEST(dequant_option)
{
    tl_desc d;
    char buf[256];
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x1x2x2:scale=127.5:dequant=divide"), TL_OK);
    CHECK(d.quant.dequant == TL_DEQ_DIVIDE);
    REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
    CHECK_STR_CONTAINS(buf, ":dequant=divide");
    REQUIRE_STATUS(tl_desc_to_json(&d, NULL, 0, NULL), TL_ERR_BUFFER_SMALL);
    char json[4096];
    REQUIRE_STATUS(tl_desc_to_json(&d, json, sizeof json, NULL), TL_OK);
    CHECK_STR_CONTAINS(json, "\"dequant\": \"divide\"");
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x1x2x2:scale=127.5"), TL_OK);
    CHECK(d.quant.dequant == TL_DEQ_RECIPROCAL);
    REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
    CHECK(strstr(buf, "dequant") == NULL);
    REQUIRE_STATUS(tl_desc_to_json(&d, json, sizeof json, NULL), TL_OK);
    CHECK_STR_CONTAINS(json, "\"dequant\": \"recip\"");
    CHECK_STATUS(tl_desc_parse(&d, "NCHW:u8:1x1x2x2:scale=0.5:dequant=divide"), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "only inverse-scale quantization");
    CHECK_STATUS(tl_desc_parse(&d, "tidl:u8:1x1x2x2:dequant=halve"), TL_ERR_SPEC_VALUE);
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x1x2x2:scale=3"), TL_OK);
    d.quant.dequant = 2;
    CHECK_STATUS(tl_desc_validate(&d), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "quant.dequant=2");
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(reproducer_matches_tidl_rt);
    TL_RUN(scalar_rule_every_code_many_scales);
    TL_RUN(every_kernel_every_isa);
    TL_RUN(padded_buffer_conversion);
    TL_RUN(dequant_option);
    return tl_test_finish();
}
