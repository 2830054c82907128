/* Conversions with DirectML descriptors (docs/dml.md, broadcast read-only):
 * broadcast and overlapping-window sources into dense destinations, each
 * result checked against index arithmetic written out here (strides computed
 * independently of the library); broadcast and aliasing destinations
 * rejected with the destination untouched; 4-bit tensors with odd counts. */
#include <string.h>

#include "tl_test.h"

#define SENTINEL 0xA5

static tl_desc parse_ok(const char *spec)
{
    tl_desc d;
    memset(&d, 0, sizeof d);
    tl_status s = tl_desc_parse(&d, spec);
    if (s != TL_OK) FAILF("%s: %s (%s)", spec, tl_status_str(s), tl_last_error());
    return d;
}

static float f32_at(const uint8_t *b, int64_t i) { float f; memcpy(&f, b + 4 * i, 4); return f; }
static void put_f32(uint8_t *b, int64_t i, float f) { memcpy(b + 4 * i, &f, 4); }

static int all_sentinel(const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (b[i] != SENTINEL) return 0;
    return 1;
}

/* 4-bit element k of a packed buffer, element 0 in the low nibble. */
static unsigned nibble_at(const uint8_t *b, int64_t k) { return (b[k / 2] >> (k % 2 ? 4 : 0)) & 15u; }

/* Broadcast N and H of a 2x3x4x5 f32 tensor: 3x5 stored values. */
TL_TEST(broadcast_nchw_into_dense_nchw_and_nhwc)
{
    enum { N = 2, C = 3, H = 4, W = 5 };
    tl_desc s = parse_ok("dml.nchw:f32:2x3x4x5:broadcast=1,0,1,0");
    REQUIRE(TL_TEST_FAILURES() == 0);
    CHECK_EQ_I64(s.size_bytes, C * W * 4);
    uint8_t src[C * W * 4];
    tl_rng r = tl_test_rng();
    for (int i = 0; i < C * W; i++) put_f32(src, i, (float)tl_rng_range(&r, -1000, 1000) / 8.0f);

    tl_desc d1 = parse_ok("NCHW:f32:2x3x4x5"), d2 = parse_ok("NHWC:f32:2x4x5x3");
    uint8_t o1[N * C * H * W * 4], o2[sizeof o1];
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d1, o1, sizeof o1), TL_OK);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d2, o2, sizeof o2), TL_OK);
    for (int n = 0; n < N; n++)
        for (int c = 0; c < C; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    float want = f32_at(src, c * W + w); /* strides {0, 5, 0, 1} */
                    float a = f32_at(o1, ((n * C + c) * H + h) * W + w);
                    float b = f32_at(o2, ((n * H + h) * W + w) * C + c);
                    if (memcmp(&a, &want, 4) || memcmp(&b, &want, 4))
                        FAILF("(%d,%d,%d,%d): %g / %g, expected %g", n, c, h, w, a, b, want);
                }
}

/* D4: one stored value broadcast over C, H and W. */
TL_TEST(vector_d4_single_value_broadcast)
{
    tl_desc s = parse_ok("dml:f32:1x3x4x4:strides=1,0,0,0"), d = parse_ok("NCHW:f32:1x3x4x4");
    REQUIRE(TL_TEST_FAILURES() == 0);
    uint8_t src[4], dst[48 * 4];
    put_f32(src, 0, 2.5f);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int i = 0; i < 48; i++) CHECK(f32_at(dst, i) == 2.5f);
}

/* Overlapping windows (strides 1,1) read as a source: out[i][j] = src[i + j]. */
TL_TEST(aliasing_source_sliding_window)
{
    tl_desc s = parse_ok("dml:u8:3x4:strides=1,1"), d = parse_ok("ab:u8:3x4");
    REQUIRE(TL_TEST_FAILURES() == 0);
    CHECK(s.flags & TL_DESC_READONLY);
    CHECK_EQ_I64(s.size_bytes, 8); /* 6 bytes spanned, rounded up to 4 */
    const uint8_t src[8] = {10, 11, 12, 13, 14, 15, 99, 99};
    uint8_t dst[12];
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++) CHECK_EQ_I64(dst[i * 4 + j], 10 + i + j);
}

/* Broadcast u8 with quantization into f32: real = (q - zp) * scale. */
TL_TEST(broadcast_dequantize)
{
    tl_desc s = parse_ok("dml.nchw:u8:1x3x2x2:broadcast=0,0,1,1:zp=128:scale=0.5");
    tl_desc d = parse_ok("NCHW:f32:1x3x2x2");
    REQUIRE(TL_TEST_FAILURES() == 0);
    CHECK_EQ_I64(s.size_bytes, 4);
    const uint8_t src[4] = {0, 128, 255, 77}; /* byte 3 is DirectML's rounding, not an element */
    uint8_t dst[12 * 4];
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int c = 0; c < 3; c++)
        for (int k = 0; k < 4; k++) CHECK(f32_at(dst, c * 4 + k) == ((float)src[c] - 128.0f) * 0.5f);
}

/* Strides computed here from the DirectML formulas, not by the library. */
static void expected_strides(int nhwc, int n, const int64_t *sz, unsigned mask, int64_t *st)
{
    int64_t eff[8] = {0}, acc;
    for (int i = 0; i < n; i++) eff[i] = (mask >> i & 1u) ? 1 : sz[i];
    if (!nhwc) {
        acc = 1;
        for (int i = n - 1; i >= 0; i--) { st[i] = acc; acc *= eff[i]; }
    } else {
        acc = eff[1];
        st[1] = 1;
        for (int i = n - 1; i >= 2; i--) { st[i] = acc; acc *= eff[i]; }
        st[0] = acc;
    }
    for (int i = 0; i < n; i++)
        if (mask >> i & 1u) st[i] = 0;
}

static void build_spec(char *spec, size_t cap, int nhwc, const char *dt, int n, const int64_t *sz, unsigned mask)
{
    size_t len = (size_t)snprintf(spec, cap, "dml.%s:%s:", nhwc ? "nhwc" : "nchw", dt);
    for (int i = 0; i < n; i++) len += (size_t)snprintf(spec + len, cap - len, "%s%lld", i ? "x" : "", (long long)sz[i]);
    len += (size_t)snprintf(spec + len, cap - len, ":broadcast=");
    for (int i = 0; i < n; i++) len += (size_t)snprintf(spec + len, cap - len, "%s%u", i ? "," : "", mask >> i & 1u);
}

/* Random ranks, sizes, broadcast masks, NCHW/NHWC and element sizes: every
 * element of the dense destination equals the source bytes at Σ x*stride. */
TL_TEST(random_broadcast_sources)
{
    static const struct { const char *name; tl_dtype t; int bytes; } types[] = {
        {"u8", TL_U8, 1}, {"i16", TL_I16, 2}, {"f32", TL_F32, 4}, {"u64", TL_U64, 8},
    };
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 200 && TL_TEST_FAILURES() == 0; iter++) {
        int nhwc = tl_rng_pick(&r, 2), n = nhwc ? (int)tl_rng_range(&r, 3, 5) : (int)tl_rng_range(&r, 1, 6);
        int ti = tl_rng_pick(&r, 4), es = types[ti].bytes;
        int64_t sz[8], st[8], dense[8], total = 1;
        unsigned mask = (unsigned)tl_rng_range(&r, 0, (1 << n) - 1);
        for (int i = 0; i < n; i++) { sz[i] = tl_rng_range(&r, 1, 4); total *= sz[i]; }
        char spec[160];
        build_spec(spec, sizeof spec, nhwc, types[ti].name, n, sz, mask);
        expected_strides(nhwc, n, sz, mask, st);
        tl_desc s = parse_ok(spec), d;
        REQUIRE(TL_TEST_FAILURES() == 0);
        expected_strides(0, n, sz, 0, dense);
        REQUIRE_STATUS(tl_desc_init_strided(&d, types[ti].t, sz, dense, n), TL_OK);
        static uint8_t src[32768], dst[32768]; /* up to 4^6 elements of 8 bytes */
        REQUIRE(s.size_bytes <= (int64_t)sizeof src && total * es <= (int64_t)sizeof dst);
        tl_rng_bytes(&r, src, sizeof src);
        REQUIRE_STATUS(tl_convert(&s, src, (size_t)s.size_bytes, &d, dst, (size_t)(total * es)), TL_OK);
        int64_t x[8] = {0};
        for (int64_t k = 0; k < total; k++) {
            int64_t rem = k, off = 0;
            for (int i = n - 1; i >= 0; i--) { x[i] = rem % sz[i]; rem /= sz[i]; off += x[i] * st[i]; }
            if (memcmp(dst + k * es, src + off * es, (size_t)es)) {
                FAILF("%s: element %lld differs", spec, (long long)k);
                break;
            }
        }
    }
}

/* A broadcast or aliasing DML descriptor is never a destination. */
TL_TEST(broadcast_and_aliasing_destinations_rejected)
{
    static const struct { const char *dst, *src, *msg; } k[] = {
        {"dml.nchw:f32:2x3x4x5:broadcast=1,0,1,0", "NCHW:f32:2x3x4x5", "stride 0"},
        {"dml:f32:1x3x4x4:strides=1,0,0,0", "NCHW:f32:1x3x4x4", "broadcast destination"},
        {"dml:u8:3x4:strides=1,1", "ab:u8:3x4", "TL_DESC_READONLY"},
        {"dml:f32:2x2:readonly=1", "ab:f32:2x2", "TL_DESC_READONLY"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d = parse_ok(k[i].dst), s = parse_ok(k[i].src);
        REQUIRE(TL_TEST_FAILURES() == 0);
        uint8_t src[2048], dst[2048];
        memset(src, 1, sizeof src);
        memset(dst, SENTINEL, sizeof dst);
        CHECK_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_ERR_READONLY);
        CHECK_STR_CONTAINS(tl_last_error(), k[i].msg);
        CHECK(all_sentinel(dst, sizeof dst));
        CHECK_STATUS(tl_fill_padding(&d, dst, sizeof dst, 0), TL_ERR_READONLY);
        CHECK(all_sentinel(dst, sizeof dst));
    }
}

/* i8 -> INT4 with 5 elements: 20 bits in a 4-byte DirectML buffer. The
 * elements are packed low nibble first; the rounding byte is not touched. */
TL_TEST(int4_odd_count_pack_and_unpack)
{
    tl_desc s = parse_ok("NCHW:i8:1x1x1x5"), d = parse_ok("dml:i4:1x1x1x5");
    REQUIRE(TL_TEST_FAILURES() == 0);
    CHECK_EQ_I64(d.size_bytes, 4);
    const int8_t vals[5] = {-8, 7, -1, 0, 5};
    uint8_t packed[4];
    memset(packed, SENTINEL, sizeof packed);
    REQUIRE_STATUS(tl_convert(&s, vals, sizeof vals, &d, packed, sizeof packed), TL_OK);
    for (int k = 0; k < 5; k++) CHECK_EQ_I64(nibble_at(packed, k), (unsigned)vals[k] & 15u);
    CHECK_EQ_I64(packed[2] >> 4, SENTINEL >> 4); /* nibble 5: not an element */
    CHECK_EQ_I64(packed[3], SENTINEL);
    int8_t back[5];
    REQUIRE_STATUS(tl_convert(&d, packed, sizeof packed, &s, back, sizeof back), TL_OK);
    CHECK_MEM_EQ(back, vals, sizeof vals);
    /* a short buffer: 3 bytes hold the elements but DirectML needs 4 */
    memset(packed, SENTINEL, sizeof packed);
    CHECK_STATUS(tl_convert(&s, vals, sizeof vals, &d, packed, 3), TL_ERR_BUFFER_SMALL);
    CHECK(all_sentinel(packed, sizeof packed));
}

/* UINT4 3x3 with row stride 5 nibbles: element (i, j) is nibble 5i + j. */
TL_TEST(uint4_odd_strides)
{
    tl_desc s = parse_ok("ab:u8:3x3"), d = parse_ok("dml:u4:3x3:strides=5,1");
    REQUIRE(TL_TEST_FAILURES() == 0);
    CHECK_EQ_I64(d.size_bytes, 8);
    uint8_t vals[9], out[8], back[9];
    for (int k = 0; k < 9; k++) vals[k] = (uint8_t)(k + 3);
    memset(out, SENTINEL, sizeof out);
    REQUIRE_STATUS(tl_convert(&s, vals, sizeof vals, &d, out, sizeof out), TL_OK);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) CHECK_EQ_I64(nibble_at(out, 5 * i + j), vals[i * 3 + j]);
    /* the gap nibbles between rows (3, 4, 8, 9) keep their old value */
    CHECK_EQ_I64(nibble_at(out, 3), SENTINEL >> 4);
    CHECK_EQ_I64(nibble_at(out, 4), SENTINEL & 15);
    CHECK_EQ_I64(nibble_at(out, 8), SENTINEL & 15);
    CHECK_EQ_I64(nibble_at(out, 9), SENTINEL >> 4);
    REQUIRE_STATUS(tl_convert(&d, out, sizeof out, &s, back, sizeof back), TL_OK);
    CHECK_MEM_EQ(back, vals, sizeof vals);
}

/* dml.nhwc -> dml (packed NCHW) is the NHWC -> NCHW transpose. */
TL_TEST(dml_nhwc_to_dml_nchw)
{
    tl_desc s = parse_ok("dml.nhwc:u8:1x3x2x2"), d = parse_ok("dml:u8:1x3x2x2");
    REQUIRE(TL_TEST_FAILURES() == 0);
    const uint8_t nhwc[12] = {0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11};
    uint8_t nchw[12];
    REQUIRE_STATUS(tl_convert(&s, nhwc, sizeof nhwc, &d, nchw, sizeof nchw), TL_OK);
    for (int i = 0; i < 12; i++) CHECK_EQ_I64(nchw[i], i);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(broadcast_nchw_into_dense_nchw_and_nhwc);
    TL_RUN(vector_d4_single_value_broadcast);
    TL_RUN(aliasing_source_sliding_window);
    TL_RUN(broadcast_dequantize);
    TL_RUN(random_broadcast_sources);
    TL_RUN(broadcast_and_aliasing_destinations_rejected);
    TL_RUN(int4_odd_count_pack_and_unpack);
    TL_RUN(uint4_odd_strides);
    TL_RUN(dml_nhwc_to_dml_nchw);
    return tl_test_finish();
}
