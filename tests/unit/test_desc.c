/* The descriptor model, layout words and spec strings: vectors, round trips,
 * brute-force offset properties and a table of bad inputs. */
#include <ctype.h>
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

static int64_t offset_of(const char *spec, const int64_t *c)
{
    tl_desc d;
    uint64_t off = 0;
    if (tl_desc_parse(&d, spec) != TL_OK) return -1;
    if (tl_desc_offset(&d, c, &off) != TL_OK) return -2;
    return (int64_t)off;
}

TL_TEST(vector_O1_onednn_nChw16c)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "nChw16c:f32:1x20x2x3"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 192 * 4);
    const int64_t c[4] = {0, 17, 1, 2};
    CHECK_EQ_I64(offset_of("nChw16c:f32:1x20x2x3", c), 177 * 4);
    CHECK_EQ_I64(offset_of("NCHW16c:f32:1x20x2x3", c), 708);
    CHECK_EQ_I64(offset_of("aBcd16b:f32:1x20x2x3", c), 708);
    CHECK_EQ_I64(d.pad_hi[1], 12);
}

TL_TEST(tvm_and_onednn_agree)
{
    /* oneDNN gives dims in logical order, TVM in the word's order. */
    const int64_t nchw[4] = {0, 2, 3, 1}, nhwc[4] = {0, 3, 1, 2};
    CHECK_EQ_I64(offset_of("nhwc:u8:1x3x4x5", nchw), (3 * 5 + 1) * 3 + 2);
    CHECK_EQ_I64(offset_of("NHWC:u8:1x4x5x3", nhwc), (3 * 5 + 1) * 3 + 2);
    const int64_t c5[5] = {0, 9, 1, 2, 3};
    /* NCDHW8c: [N][C/8][D][H][W][8], C=10 -> 2 blocks, D=2 H=3 W=4 */
    CHECK_EQ_I64(offset_of("NCDHW8c:u8:1x10x2x3x4", c5), ((((1 * 2 + 1) * 3 + 2) * 4 + 3) * 8 + 1));
    const int64_t hwc8[4] = {0, 1, 3, 2}; /* N H W C */
    CHECK_EQ_I64(offset_of("NHWC8c:f16:1x4x5x3", hwc8), ((1 * 5 + 3) * 8 + 2) * 2);
}

TL_TEST(align_and_strides_options)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "NHWC:u8:1x224x300x3:align=0,0,32,4"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 272384);
    CHECK_EQ_I64(d.planes[0].axes[1].stride_bits / 8, 1216);
    CHECK_EQ_I64(d.planes[0].axes[2].stride_bits / 8, 4);
    const int64_t c[4] = {0, 223, 299, 2};
    CHECK_EQ_I64(offset_of("NHWC:u8:1x224x300x3:align=0,0,32,4", c), 272366); /* FORMATS L4 */
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x4x4:strides=1,0,0,0"), TL_OK);
    CHECK(d.flags & TL_DESC_READONLY);
    CHECK_EQ_I64(d.size_bytes, 4);
    CHECK(!tl_desc_writable(&d));
}

TL_TEST(yuv420_planes)
{
    const int64_t y[3] = {0, 223, 299}, u[3] = {1, 223, 299}, v[3] = {2, 223, 299};
    const char *nv12 = "yuv.nv12:u8:3x224x300:pitch=320:chroma=71680"; /* FORMATS L5/L6 */
    CHECK_EQ_I64(offset_of(nv12, y), 71659);
    CHECK_EQ_I64(offset_of(nv12, u), 107498);
    CHECK_EQ_I64(offset_of(nv12, v), 107499);
    const char *nv21 = "yuv.nv21:u8:3x224x300:pitch=320:chroma=71680";
    CHECK_EQ_I64(offset_of(nv21, u), 107499);
    CHECK_EQ_I64(offset_of(nv21, v), 107498);
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "yuv.i420:u8:3x5x7"), TL_OK);
    /* Y 5x7 = 35, chroma 3x4 each, pitch 4 */
    CHECK_EQ_I64(d.size_bytes, 35 + 12 + 12);
    const int64_t last_v[3] = {2, 4, 6};
    CHECK_EQ_I64(offset_of("yuv.i420:u8:3x5x7", last_v), 35 + 12 + 2 * 4 + 3);
    /* odd sizes: the last chroma row and column exist */
    REQUIRE_STATUS(tl_desc_parse(&d, "yuv.nv12:u8:3x5x7"), TL_OK); /* pitch defaults to 8 */
    CHECK_EQ_I64(d.size_bytes, 5 * 8 + 3 * 8);
    CHECK_STATUS(tl_desc_parse(&d, "yuv.nv12:u8:3x5x7:pitch=7"), TL_ERR_STRIDE);
    CHECK_STR_CONTAINS(tl_last_error(), "chroma row");
}

/* ---- round trips --------------------------------------------------------- */

static void check_roundtrip(const char *spec)
{
    tl_desc a, b;
    char buf[1024];
    if (tl_desc_parse(&a, spec) != TL_OK) {
        FAILF("parse '%s': %s", spec, tl_last_error());
        return;
    }
    if (tl_desc_format(&a, buf, sizeof buf) != TL_OK) {
        FAILF("format '%s': %s", spec, tl_last_error());
        return;
    }
    if (tl_desc_parse(&b, buf) != TL_OK) {
        FAILF("reparse '%s' (from '%s'): %s", buf, spec, tl_last_error());
        return;
    }
    if (memcmp(&a, &b, sizeof a) != 0) FAILF("'%s' -> '%s' is not the same descriptor", spec, buf);
}

TL_TEST(roundtrip_fixed)
{
    static const char *specs[] = {
        "NCHW:f32:1x3x224x224", "NCHW16c:f16:1x80x40x40", "NHWC8c:bf16:2x3x5x17", "nChw16c:f32:1x20x2x3",
        "aBcd16b:f32:1x20x2x3", "nhwc:u8:1x3x4x5", "acdb:u8:1x3x4x5", "NCDHW32c:i8:1x40x2x3x3",
        "NCHW:f32:1x3x4x4:strides=1,0,0,0", "NCHW:u8:1x3x4x10:pad=0,0,1,1,0,0,1,1",
        "NCHW:i8:1x3x4x10:scale=0.1:zp=-3", "NCHW:i8:1x3x4x10:q=dfp:fl=-2", "HW:i16:2x2:scale=25:q=inv:round=zero",
        "NCHW:u8:1x1x1x1:round=away", "NHWC:u8:1x224x300x3:align=0,0,32,4", "yuv.nv12:u8:3x224x300:pitch=320",
        "yuv.nv21:u8:3x7x9", "yuv.i420:u8:3x5x7:chroma=100", "abcd:f32:1x2x3x4:labels=N-HW", "X:u4:7",
        "XY:i4:3x5:pad=1,0,0,1", "NCHW:f32:1x3x4x4:offset=64", "NCHW:f32:1x3x4x4:size=4096",
        "NCHW:f32:1x3x4x4:readonly=1", "HW:f64:3x3:strides=8,1", "NC:bool:2x3", "NC:u64:2x3", "NC:i64:2x3",
        "NCHW4c:u32:1x5x1x1", "NCHW2c:f16:3x3x3x3:pad=0,1,0,0,0,2,0,0",
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) check_roundtrip(specs[i]);
}

/* Every layout family, vendors included, with extreme quantization options:
 * whatever parses must format, and the string must parse to the same bytes.
 * (tidl with a subnormal scale and a -0 scale under q=none once broke this.) */
TL_TEST(roundtrip_extreme_quant_every_vendor)
{
    static const char *const bases[] = {
        "NCHW:u8:1x3x4x5", "NCHW:f32:1x3x4x5", "tidl:u8:1x3x1x40", "tidl:i16:1x3x2x4", "tidl:f32:1x3x1x4",
        "larod.nhwc:u8:1x2x3x4", "larod.420sp:u8:3x4x4", "dml:u8:1x3x2x2", "dml.nchw:i8:1x3x2x2",
        "rknn.nc1hwc2:i8:1x84x8x8", "rknn.nchw:u8:1x84x84", "rknn.undefined:f16:1x1000", "trt.chw32:i8:1x3x4x5",
        "trt.linear:i8:1x3x4x5", "trt.linear:i4:1x3x4x4", "trt.chw4:f16:1x3x2x2",
    };
    static const char *const opts[] = {
        "", ":scale=1e-45", ":scale=1e-40", ":scale=1e-38", ":scale=1.17549435e-38", ":scale=3.39e38",
        ":scale=-0", ":scale=0", ":scale=-1e-45", ":scale=0.5:zp=-2147483648", ":scale=1e-45:zp=2147483647",
        ":zp=-1", ":fl=-128", ":fl=127", ":q=none", ":q=affine", ":q=inv", ":q=dfp", ":q=dfp:fl=-128",
        ":q=none:scale=-0", ":q=none:scale=0", ":q=dfp:scale=-0", ":q=inv:scale=1e-45", ":q=inv:scale=-0",
        ":q=affine:scale=1e-45", ":q=affine:scale=1e-45:zp=-7", ":round=away", ":round=zero", ":round=even",
        ":q=none:round=away", ":q=inv:scale=2e-38:round=even",
    };
    int parsed = 0;
    for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
        for (size_t o = 0; o < sizeof opts / sizeof opts[0]; o++) {
            char spec[256];
            tl_desc d;
            snprintf(spec, sizeof spec, "%s%s", bases[b], opts[o]);
            if (tl_desc_parse(&d, spec) != TL_OK) continue; /* a rejection is fine: an unformattable descriptor is not */
            parsed++;
            check_roundtrip(spec);
        }
    CHECK(parsed > 100); /* the sweep tests something */
}

/* A -0 scale cannot be printed (it reads back as +0): not a valid descriptor. */
TL_TEST(negative_zero_scale)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x1x1x1:q=none:scale=-0"), TL_OK);
    CHECK(!signbit(d.quant.scale));
    d.quant.scale = -0.0f;
    CHECK_STATUS(tl_desc_validate(&d), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "without a quantization kind");
    d.quant.kind = TL_Q_DFP;
    CHECK_STATUS(tl_desc_validate(&d), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "has no zp or scale");
}

/* A random TVM-style word: a permutation of some letters, up to two blocked. */
static void random_spec(tl_rng *r, char *out, size_t n)
{
    static const char letters[] = "NCDHWXYZ";
    static const char *dts[] = {"u8", "i8", "u16", "i16", "f16", "bf16", "f32", "f64", "i32", "u4", "i4"};
    char word[64] = "", dims[128] = "", opts[256] = "";
    char used[8];
    int rank = (int)tl_rng_range(r, 1, 5);
    for (int i = 0; i < rank; i++) {
        char c;
        do c = letters[tl_rng_pick(r, 8)]; while (memchr(used, c, (size_t)i));
        used[i] = c;
    }
    size_t wl = 0;
    for (int i = 0; i < rank; i++) word[wl++] = used[i];
    for (int b = 0; b < 2; b++) {
        if (tl_rng_pick(r, 2)) continue;
        char c = used[tl_rng_pick(r, rank)];
        if (strchr(word, tolower((unsigned char)c))) continue;
        static const int blocks[] = {2, 3, 4, 8, 16, 32};
        int pos;
        do pos = (int)tl_rng_range(r, (int64_t)(strchr(word, c) - word) + 1, (int64_t)wl);
        while (!isalpha((unsigned char)word[pos - 1])); /* between tokens */
        char tail[64];
        strcpy(tail, word + pos);
        wl = (size_t)pos + (size_t)snprintf(word + pos, sizeof word - (size_t)pos, "%d%c%s", blocks[tl_rng_pick(r, 6)],
                                            tolower((unsigned char)c), tail);
    }
    size_t dl = 0;
    for (int i = 0; i < rank; i++) dl += (size_t)snprintf(dims + dl, sizeof dims - dl, "%s%d", i ? "x" : "", (int)tl_rng_range(r, 1, 7));
    if (tl_rng_pick(r, 3) == 0) {
        size_t ol = (size_t)snprintf(opts, sizeof opts, ":pad=");
        for (int i = 0; i < 2 * rank; i++) ol += (size_t)snprintf(opts + ol, sizeof opts - ol, "%s%d", i ? "," : "", (int)tl_rng_range(r, 0, 2));
    }
    snprintf(out, n, "%s:%s:%s%s", word, dts[tl_rng_pick(r, 11)], dims, opts);
}

/* Expected offsets by walking memory in order: the k-th physical position of a
 * dense layout is at k elements; map its axis digits back to a coordinate. */
static void check_offsets_brute(const tl_desc *d, const char *spec)
{
    const tl_plane *p = &d->planes[0];
    int64_t digit[TL_MAX_AXES] = {0};
    int64_t total = 1, ebits = tl_dtype_bits((tl_dtype)d->dtype), logical = 0;
    for (int a = 0; a < p->naxes; a++) total *= p->axes[a].extent;
    for (int64_t k = 0; k < total; k++) {
        int64_t x[TL_MAX_DIMS] = {0};
        for (int a = 0; a < p->naxes; a++) x[p->axes[a].dim] += digit[a] * p->axes[a].block;
        bool inside = true;
        for (int i = 0; i < d->rank; i++) {
            x[i] -= d->pad_lo[i];
            inside &= x[i] >= 0 && x[i] < d->dims[i];
        }
        if (inside) {
            uint64_t bits = 0;
            logical++;
            if (tl_desc_offset_bits(d, x, &bits) != TL_OK || (int64_t)bits != k * ebits) {
                FAILF("%s: position %lld: offset %llu bits, expected %lld", spec, (long long)k,
                      (unsigned long long)bits, (long long)(k * ebits));
                return;
            }
        }
        for (int a = p->naxes - 1; a >= 0 && ++digit[a] == p->axes[a].extent; a--) digit[a] = 0;
    }
    int64_t want = 1;
    for (int i = 0; i < d->rank; i++) want *= d->dims[i];
    CHECK_EQ_I64(logical, want);
    CHECK_EQ_I64(d->size_bytes, (total * ebits + 7) / 8);
}

TL_TEST(property_random_layouts)
{
    tl_rng r = tl_test_rng();
    int parsed = 0;
    for (int it = 0; it < 3000; it++) {
        char spec[512];
        tl_desc d;
        random_spec(&r, spec, sizeof spec);
        if (tl_desc_parse(&d, spec) != TL_OK) {
            FAILF("random spec '%s' rejected: %s", spec, tl_last_error());
            continue;
        }
        parsed++;
        check_roundtrip(spec);
        check_offsets_brute(&d, spec);
        if (TL_TEST_FAILURES() > 5) return;
    }
    CHECK_EQ_I64(parsed, 3000);
}

TL_TEST(fill_padding_touches_only_padding)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x2x3x4:pad=0,0,1,2,0,0,1,3"), TL_OK);
    /* ONNX order: lo (0,0,1,2), hi (0,0,1,3): padded H = 5, W = 9: 90 bytes, 24 logical */
    REQUIRE_EQ_I64(d.size_bytes, 90);
    uint8_t buf[90];
    memset(buf, 0xAA, sizeof buf);
    REQUIRE_STATUS(tl_fill_padding(&d, buf, sizeof buf, 0), TL_OK);
    int zeros = 0;
    for (int i = 0; i < 90; i++) zeros += buf[i] == 0;
    CHECK_EQ_I64(zeros, 90 - 24);
    const int64_t c[4] = {0, 1, 2, 3};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, c, &off), TL_OK);
    CHECK_EQ_I64((int64_t)off, 45 + (2 + 1) * 9 + 3 + 2);
    CHECK_EQ_I64(buf[off], 0xAA);
    /* blocked: the 12 lanes of the second C block are padding */
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW16c:u8:1x20x1x1"), TL_OK);
    uint8_t b2[32];
    memset(b2, 0xAA, sizeof b2);
    REQUIRE_STATUS(tl_fill_padding(&d, b2, sizeof b2, 7), TL_OK);
    for (int i = 0; i < 32; i++) CHECK_EQ_I64(b2[i], i < 20 ? 0xAA : 7);
    /* 4-bit: padding nibbles only */
    REQUIRE_STATUS(tl_desc_parse(&d, "X:u4:3:pad=0,1"), TL_OK);
    uint8_t b3[2] = {0xFF, 0xFF};
    REQUIRE_STATUS(tl_fill_padding(&d, b3, 2, 0), TL_OK);
    CHECK_EQ_I64(b3[0], 0xFF);
    CHECK_EQ_I64(b3[1], 0x0F);
}

TL_TEST(builders)
{
    tl_desc d;
    const int64_t dims[4] = {1, 20, 2, 3};
    REQUIRE_STATUS(tl_desc_init(&d, "NCHW16c", TL_F32, dims, 4), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 768);
    const int64_t lo[4] = {0, 0, 1, 1}, hi[4] = {0, 0, 1, 1};
    REQUIRE_STATUS(tl_desc_set_padding(&d, lo, hi), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 32 * 4 * 5 * 4);
    const int64_t st[2] = {1, 3}, d2[2] = {3, 2};
    REQUIRE_STATUS(tl_desc_init_strided(&d, TL_I16, d2, st, 2), TL_OK); /* column-major 3x2 */
    const int64_t c[2] = {2, 1};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, c, &off), TL_OK);
    CHECK_EQ_I64((int64_t)off, (2 + 3) * 2);
    CHECK_EQ_I64(d.size_bytes, 12);
    REQUIRE_STATUS(tl_desc_init_yuv420(&d, TL_YUV_NV12, 4, 6, 8, 0), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 32 + 8 + 6); /* last chroma row holds 6 bytes */
    CHECK_EQ_I64(tl_version(), TLAYOUT_VERSION_NUMBER);
    CHECK_STR_EQ(tl_version_string(), TLAYOUT_VERSION_STRING);
}

/* ---- bad inputs ---------------------------------------------------------- */

typedef struct bad_spec {
    const char *spec;
    tl_status status;
    const char *msg; /* substring of tl_last_error() */
} bad_spec;

static const bad_spec bad_specs[] = {
    {"NCHW:f32:1x0x3x3", TL_ERR_DIM, "dims[1]=0"},
    {"NCHW:f32:1x-3x3x3", TL_ERR_DIM, "dims[1]=-3"},
    {"NCHW:f32:1x3x3", TL_ERR_SPEC_VALUE, "4 dims (N,C,H,W) but 3 were given: dims include N, e.g. 1x1x3x3"},
    {"NCHW:f32", TL_ERR_SPEC_SYNTAX, "LAYOUT:DTYPE:DIMS"},
    {"", TL_ERR_SPEC_SYNTAX, "LAYOUT:DTYPE:DIMS"},
    {"NCHW:f33:1x3x3x3", TL_ERR_DTYPE, "f33"},
    {"NCHW:f32:1x3xx3", TL_ERR_SPEC_SYNTAX, "item 2"},
    {"NCHW:f32:1x3x3xA", TL_ERR_SPEC_VALUE, "not a 64-bit integer"},
    {"NCHW:f32:99999999999999999999x1x1x1", TL_ERR_SPEC_VALUE, "not a 64-bit integer"},
    {"NCHN:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "letter N appears twice"},
    {"NHW16c:f32:1x3x3", TL_ERR_SPEC_LAYOUT, "no dim C"},
    {"NCHW16c8c:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "blocked twice"},
    {"NCHW0c:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "block factor 0"},
    {"NCHW1c:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "block factor 1"},
    {"NCHW16C:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "lowercase"},
    {"NC-HW:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "expected a letter"},
    {"nChw:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "must be lowercase"},
    {"nchw16c:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "must be uppercase"},
    {"abce:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "without gaps"},
    {"nqhw:f32:1x3x3x3", TL_ERR_SPEC_LAYOUT, "not a oneDNN dim name"},
    {"no:u8:1x1", TL_ERR_SPEC_LAYOUT, "name the same oneDNN dim"},
    {"oihw:f32:2x3x3x3", TL_OK, ""},
    {"ABCDEFGHIJKLM:f32:1x1x1x1x1x1x1x1x1x1x1x1x1", TL_ERR_SPEC_LAYOUT, "more than 12 dims"},
    {"foo.bar:f32:1", TL_ERR_SPEC_LAYOUT, "unknown vendor 'foo'"},
    {"NCHW:f32:1x3x3x3:foo=1", TL_ERR_SPEC_OPTION, "'foo'"},
    {"NCHW:f32:1x3x3x3:pad=1,1", TL_ERR_SPEC_VALUE, "expected 8 values"},
    {"NCHW:f32:1x3x3x3:pad=0,0,0,0,0,0,0,-1", TL_ERR_PAD, "padding must be >= 0"},
    {"NCHW:f32:1x3x3x3:pad=1,1,1,1,1,1,1,1:pad=0,0,0,0,0,0,0,0", TL_ERR_SPEC_OPTION, "given twice"},
    {"NCHW:f32:1x3x3x3:strides=1,1,1", TL_ERR_SPEC_VALUE, "expected 4 values"},
    {"NCHW:f32:1x3x3x3:strides=27,9,3,-1", TL_ERR_STRIDE, "strides[3]=-1"},
    {"NCHW:f32:1x3x3x3:strides=1,1,1,1", TL_ERR_ALIAS, "share bytes"},
    {"NCHW:f32:1x3x3x3:strides=27,9,3,1:align=1,1,1,1", TL_ERR_SPEC_OPTION, "exclude"},
    {"NCHW:f32:1x3x3x3:size=10", TL_ERR_SIZE, "size=10"},
    {"NCHW:f32:1x3x3x3:offset=-4", TL_ERR_SPEC_VALUE, "offset=-4"},
    {"NCHW:f32:3037000500x3037000500x3x3", TL_ERR_OVERFLOW, "overflows"},
    {"NCHW:f32:1x1x1x1:strides=4611686018427387904,1,1,1", TL_ERR_OVERFLOW, "overflows"},
    {"NCHW:f32:1x1x1x2:pad=0,0,0,0,0,0,0,9223372036854775807", TL_ERR_OVERFLOW, "overflows"},
    {"NCHW:i8:1x1x1x1:scale=0", TL_ERR_QUANT, "scale=0"},
    {"NCHW:i8:1x1x1x1:scale=-0.5", TL_ERR_QUANT, "scale > 0"},
    {"NCHW:i8:1x1x1x1:scale=-0", TL_ERR_QUANT, "scale=0: affine quantization needs a finite scale > 0"},
    {"tidl:u8:1x3x1x40:scale=1e-45", TL_ERR_QUANT, "scale=1e-45: an integer TIDL buffer needs a finite, normal scale > 0"},
    {"NCHW:i8:1x1x1x1:scale=abc", TL_ERR_SPEC_VALUE, "scale=abc"},
    {"NCHW:i8:1x1x1x1:zp=3", TL_ERR_QUANT, "zp=3 without scale="},
    {"NCHW:i8:1x1x1x1:zp=99999999999", TL_ERR_QUANT, "int32"},
    {"NCHW:i8:1x1x1x1:q=dfp:fl=300", TL_ERR_QUANT, "int8"},
    {"NCHW:i8:1x1x1x1:q=dfp:fl=2:zp=1", TL_ERR_QUANT, "DFP"},
    {"NCHW:i8:1x1x1x1:q=wavelet", TL_ERR_SPEC_VALUE, "q=wavelet"},
    {"NCHW:i8:1x1x1x1:round=up", TL_ERR_SPEC_VALUE, "round=up"},
    {"NCHW:f32:1x1x1x1:scale=0.5", TL_ERR_QUANT, "cannot be quantized"},
    {"NCHW:f32:1x1x1x1:labels=NCH", TL_ERR_SPEC_VALUE, "expected 4 letters"},
    {"abcd:f32:1x1x1x1:labels=NNHW", TL_ERR_LABEL, "unique"},
    {"NCHW:f32:1x1x1x1:readonly=2", TL_ERR_SPEC_VALUE, "readonly=2"},
    {"NCHW:f32:1x1x1x1:=3", TL_ERR_SPEC_SYNTAX, "KEY=VALUE"},
    {"NCHW:f32:1x1x1x1:pad", TL_ERR_SPEC_SYNTAX, "KEY=VALUE"},
    {"yuv.nv12:u8:3x4x5:pitch=4", TL_ERR_STRIDE, "pitch=4 < width 5"},
    {"yuv.nv12:f32:3x4x4", TL_ERR_DTYPE, "u8"},
    {"yuv.nv16:u8:3x4x4", TL_ERR_SPEC_LAYOUT, "yuv.nv16"},
    {"yuv.nv12:u8:3x4x4:chroma=8", TL_ERR_PLANE, "chroma offset=8"},
    {"X:u4:3:strides=1", TL_OK, ""}, /* nibble strides are fine */
};

TL_TEST(bad_spec_table)
{
    CHECK(sizeof bad_specs / sizeof bad_specs[0] >= 50);
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
        tl_desc d;
        memset(&d, 0x5A, sizeof d);
        tl_desc before = d;
        tl_status s = tl_desc_parse(&d, bad_specs[i].spec);
        if (s != bad_specs[i].status) {
            FAILF("'%s': got %s (%s), expected %s", bad_specs[i].spec, tl_status_str(s), tl_last_error(),
                  tl_status_str(bad_specs[i].status));
            continue;
        }
        if (s == TL_OK) continue;
        CHECK_STR_CONTAINS(tl_last_error(), bad_specs[i].msg);
        if (memcmp(&d, &before, sizeof d) != 0) FAILF("'%s': output written on failure", bad_specs[i].spec);
    }
}

/* Hand-made descriptors that break one rule each. */
TL_TEST(bad_descriptor_table)
{
    tl_desc good, d;
    REQUIRE_STATUS(tl_desc_parse(&good, "NCHW16c:f32:1x20x2x3"), TL_OK);
#define BAD(mutate, status, msg)                          \
    do {                                                  \
        d = good;                                         \
        mutate;                                           \
        CHECK_STATUS(tl_desc_validate(&d), status);       \
        CHECK_STR_CONTAINS(tl_last_error(), msg);         \
    } while (0)
    BAD(d.rank = 0, TL_ERR_RANK, "rank=0");
    BAD(d.rank = 13, TL_ERR_RANK, "rank=13");
    BAD(d.dtype = 99, TL_ERR_DTYPE, "dtype=99");
    BAD(d.dims[2] = 0, TL_ERR_DIM, "H=0");
    BAD(d.pad_lo[3] = -1, TL_ERR_PAD, "pad of W");
    BAD(d.labels[2] = 'C', TL_ERR_LABEL, "unique");
    BAD(d.labels[2] = '7', TL_ERR_LABEL, "labels[2]");
    BAD(d.planes[0].axes[1].block = 0, TL_ERR_AXIS, "block=0");
    BAD(d.planes[0].axes[1].extent = 0, TL_ERR_AXIS, "extent=0");
    BAD(d.planes[0].axes[1].dim = 7, TL_ERR_AXIS, "dim=7");
    BAD(d.planes[0].axes[1].block = 8, TL_ERR_AXIS, "do not nest");
    BAD(d.planes[0].axes[1].extent = 3, TL_ERR_AXIS, "padded extent 32");
    BAD(d.planes[0].axes[4].stride_bits = 12, TL_ERR_STRIDE, "multiple of 8 bits");
    BAD(d.planes[0].axes[4].stride_bits = -32, TL_ERR_STRIDE, "must be >= 0");
    BAD(d.planes[0].axes[4].stride_bits = 0, TL_ERR_READONLY, "broadcast");
    BAD(d.planes[0].axes[3].stride_bits = 32, TL_ERR_ALIAS, "share bytes");
    BAD(d.planes[0].naxes = 0, TL_ERR_AXIS, "naxes=0");
    BAD(d.planes[0].offset_bytes = -1, TL_ERR_PLANE, "offset=-1");
    BAD(d.nplanes = 0, TL_ERR_PLANE, "nplanes=0");
    BAD(d.nplanes = 2, TL_ERR_PLANE, "plane_dim=-1");
    BAD(d.size_bytes = 767, TL_ERR_SIZE, "size=767");
    BAD(d.quant.kind = 9, TL_ERR_QUANT, "kind=9");
    BAD(d.quant.round = 3, TL_ERR_QUANT, "round=3");
    BAD(d.planes[0].axes[1].stride_bits = (INT64_MAX / 64) * 8, TL_ERR_SIZE, "size=768");
    BAD((d.dims[0] = INT64_MAX / 4, d.planes[0].axes[0].extent = INT64_MAX / 4), TL_ERR_OVERFLOW, "overflows");
#undef BAD
    /* 4-bit with odd padding: nibble positions are fine, a bit stride is not */
    REQUIRE_STATUS(tl_desc_parse(&good, "XY:u4:3x3:pad=0,1,0,0"), TL_OK);
    d = good;
    d.planes[0].axes[1].stride_bits = 2;
    CHECK_STATUS(tl_desc_validate(&d), TL_ERR_STRIDE);
    CHECK_STR_CONTAINS(tl_last_error(), "multiple of 4 bits");
    CHECK_STATUS(tl_desc_validate(NULL), TL_ERR_NULL);
}

TL_TEST(bad_calls_leave_outputs_alone)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x2x3x4:pad=0,0,1,1,0,0,1,1"), TL_OK);
    uint64_t off = 12345;
    const int64_t out_of_range[4] = {0, 2, 0, 0}, neg[4] = {0, 0, -1, 0};
    CHECK_STATUS(tl_desc_offset(&d, out_of_range, &off), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "C=2");
    CHECK_STATUS(tl_desc_offset(&d, neg, &off), TL_ERR_COORD);
    CHECK_EQ_I64((int64_t)off, 12345);
    CHECK_STATUS(tl_desc_offset(&d, NULL, &off), TL_ERR_NULL);
    uint8_t buf[256];
    memset(buf, 0xEE, sizeof buf);
    CHECK_STATUS(tl_fill_padding(&d, buf, (size_t)d.size_bytes - 1, 0), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "len=");
    for (size_t i = 0; i < sizeof buf; i++)
        if (buf[i] != 0xEE) {
            FAILF("byte %zu written by a failed fill", i);
            break;
        }
    CHECK_STATUS(tl_fill_padding(&d, NULL, 256, 0), TL_ERR_NULL);
    tl_desc ro;
    REQUIRE_STATUS(tl_desc_parse(&ro, "NCHW:u8:1x2x3x4:strides=0,0,0,1"), TL_OK);
    CHECK_STATUS(tl_fill_padding(&ro, buf, sizeof buf, 0), TL_ERR_READONLY);
    char small[8] = "xxxxxxx";
    CHECK_STATUS(tl_desc_format(&d, small, sizeof small), TL_ERR_BUFFER_SMALL);
    CHECK_STR_EQ(small, "xxxxxxx");
    uint64_t size = 99;
    d.dims[0] = 0;
    CHECK_STATUS(tl_desc_size(&d, &size), TL_ERR_DIM);
    CHECK_EQ_I64((int64_t)size, 99);
    CHECK_STATUS(tl_desc_parse(NULL, "NCHW:f32:1x1x1x1"), TL_ERR_NULL);
    CHECK_STATUS(tl_desc_parse(&d, NULL), TL_ERR_NULL);
    char longspec[1100];
    memset(longspec, 'N', sizeof longspec - 1);
    longspec[sizeof longspec - 1] = '\0';
    CHECK_STATUS(tl_desc_parse(&d, longspec), TL_ERR_SPEC_SYNTAX);
}

TL_TEST(status_names)
{
    CHECK_STR_EQ(tl_status_str(TL_OK), "TL_OK");
    CHECK_STR_EQ(tl_status_str(TL_ERR_ALIAS), "TL_ERR_ALIAS");
    CHECK_STR_EQ(tl_status_str(TL_ERR_VENDOR_FILE), "TL_ERR_VENDOR_FILE");
    CHECK_STR_EQ(tl_status_str((tl_status)12345), "TL_ERR_UNKNOWN");
    tl_desc d;
    CHECK_STATUS(tl_desc_parse(&d, "NCHW:f32:1x1x1x1"), TL_OK);
    CHECK_STR_EQ(tl_last_error(), "");
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(vector_O1_onednn_nChw16c);
    TL_RUN(tvm_and_onednn_agree);
    TL_RUN(align_and_strides_options);
    TL_RUN(yuv420_planes);
    TL_RUN(roundtrip_fixed);
    TL_RUN(roundtrip_extreme_quant_every_vendor);
    TL_RUN(negative_zero_scale);
    TL_RUN(property_random_layouts);
    TL_RUN(fill_padding_touches_only_padding);
    TL_RUN(builders);
    TL_RUN(bad_spec_table);
    TL_RUN(bad_descriptor_table);
    TL_RUN(bad_calls_leave_outputs_alone);
    TL_RUN(status_names);
    return tl_test_finish();
}
