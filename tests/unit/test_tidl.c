/* TIDL-RT buffers as descriptors: TI's addressing and vectors T1-T7,
 * the B1 start-offset bug, spec strings, errors, padding, conversions.
 * (io_1.bin images and T8-T10: test_tidl_iobin.c.) */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

/* ---- helpers ---------------------------------------------------------- */

static tl_tidl_buf make_buf(int32_t et, int32_t c, int32_t h, int32_t w)
{
    tl_tidl_buf b;
    memset(&b, 0, sizeof b);
    b.element_type = et;
    b.num_channels = c;
    b.height = h;
    b.width = w;
    b.num_batches = 1;
    b.tensor_scale = 1.0f;
    b.index = -1;
    return b;
}

static void set_pads(tl_tidl_buf *b, int32_t l, int32_t t, int32_t r, int32_t bo)
{
    b->pad_l = l;
    b->pad_t = t;
    b->pad_r = r;
    b->pad_b = bo;
}

/* §2.4 written out independently of the library's axes: element offset of
 * (n, d1, d2, c, h, w) from the TIDL fields. */
static int64_t ref_off(const tl_tidl_buf *b, int64_t n, int64_t d1, int64_t d2, int64_t c, int64_t h, int64_t w)
{
    int64_t lp = b->width + b->pad_l + b->pad_r;
    int64_t cp = b->channel_pitch ? b->channel_pitch : lp * (b->height + b->pad_t + b->pad_b);
    int64_t d2p = cp * (b->num_channels + b->pad_ch);
    int64_t d1p = d2p * (b->dim2 ? b->dim2 : 1);
    int64_t bp = d1p * (b->dim1 ? b->dim1 : 1);
    int64_t base = b->pad_t * lp + b->pad_l;
    return base + n * bp + d1 * d1p + d2 * d2p + c * cp + h * lp + w;
}

static const char *fmt(const tl_desc *d)
{
    static char buf[1024];
    if (tl_desc_format(d, buf, sizeof buf) != TL_OK) snprintf(buf, sizeof buf, "(format failed: %s)", tl_last_error());
    return buf;
}

static int64_t elem_off(const tl_desc *d, const int64_t *x)
{
    uint64_t off = 0;
    if (tl_desc_offset(d, x, &off) != TL_OK) return -1;
    return (int64_t)(off / (tl_dtype_bits((tl_dtype)d->dtype) / 8));
}

/* ---- T1-T4: geometry -------------------------------------------------- */

#define T1_SPEC "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72"

TL_TEST(t1_line_pitch_and_first_element)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, T1_SPEC), TL_OK);
    CHECK_EQ_I64(d.rank, 4);
    CHECK_STR_EQ(d.labels, "NCHW");
    /* axes N C H W; H stride = lp = 12 elements, C stride = cp = 72 */
    CHECK_EQ_I64(d.planes[0].axes[2].stride_bits, 12 * 16);
    CHECK_EQ_I64(d.planes[0].axes[1].stride_bits, 72 * 16);
    CHECK_EQ_I64(d.planes[0].offset_bytes, 0);
    const int64_t first[4] = {0, 0, 0, 0};
    CHECK_EQ_I64(elem_off(&d, first), 13); /* PadT*lp + PadL */
}

/* B1 (docs/sources.md): TI's document starts at PadT + PadL. For T1
 * that is element 2, not 13; every element would be 11 elements early. This
 * test fails with the seed's start offset. */
TL_TEST(b1_start_offset_is_not_padt_plus_padl)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x2x5x7:pad=2,3,1,0"), TL_OK);
    const int64_t first[4] = {0, 0, 0, 0};
    int64_t lp = 7 + 2 + 1;
    CHECK_EQ_I64(elem_off(&d, first), 3 * lp + 2);
    CHECK(elem_off(&d, first) != 3 + 2);
    /* and through a buffer: the value written at PadT*lp+PadL is element 0 */
    tl_tidl_buf b = make_buf(TL_TIDL_UNSIGNED_CHAR, 2, 5, 7);
    set_pads(&b, 2, 3, 1, 0);
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    uint8_t buf[256] = {0}, out[70];
    REQUIRE(d.size_bytes <= (int64_t)sizeof buf);
    buf[ref_off(&b, 0, 0, 0, 0, 0, 0)] = 42;
    buf[3 + 2] = 99; /* where the buggy formula would look */
    tl_desc dense;
    const int64_t dims[4] = {1, 2, 5, 7};
    REQUIRE_STATUS(tl_desc_init(&dense, "NCHW", TL_U8, dims, 4), TL_OK);
    REQUIRE_STATUS(tl_convert(&d, buf, sizeof buf, &dense, out, sizeof out), TL_OK);
    CHECK_EQ_I64(out[0], 42);
}

TL_TEST(t2_element_offset)
{
    tl_desc d;
    uint64_t off;
    REQUIRE_STATUS(tl_desc_parse(&d, T1_SPEC), TL_OK);
    const int64_t x[4] = {0, 2, 3, 9};
    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
    CHECK_EQ_I64(off, 404); /* element 13 + 144 + 36 + 9 = 202 */
}

TL_TEST(t3_size_and_last_element)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, T1_SPEC), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 432); /* 3 x 72 elements x 2 bytes */
    const int64_t last[4] = {0, 2, 3, 9};
    CHECK_EQ_I64(elem_off(&d, last), 202);
}

TL_TEST(t4_dim_pitches)
{
    /* DIM1=2, DIM2=3, C=4, PadCh=1, cp=100: d2p 500, d1p 1500, bp 3000 */
    tl_tidl_buf b = make_buf(TL_TIDL_SIGNED_CHAR, 4, 5, 6);
    b.dim1 = 2;
    b.dim2 = 3;
    b.pad_ch = 1;
    b.channel_pitch = 100;
    b.num_batches = 2;
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    REQUIRE_EQ_I64(d.rank, 6);
    CHECK_STR_EQ(d.labels, "NEFCHW");
    const tl_plane *p = &d.planes[0];
    CHECK_EQ_I64(p->axes[0].stride_bits, 3000 * 8);
    CHECK_EQ_I64(p->axes[1].stride_bits, 1500 * 8);
    CHECK_EQ_I64(p->axes[2].stride_bits, 500 * 8);
    CHECK_EQ_I64(p->axes[3].stride_bits, 100 * 8);
    CHECK_EQ_I64(p->axes[3].extent, 5); /* C + PadCh */
    CHECK_EQ_I64(d.size_bytes, 2 * 3000);
    const int64_t x[6] = {1, 1, 2, 3, 4, 5};
    CHECK_EQ_I64(elem_off(&d, x), 3000 + 1500 + 1000 + 300 + 24 + 5);
    /* the same as a spec */
    tl_desc s;
    REQUIRE_STATUS(tl_desc_parse(&s, "tidl:i8:2x2x3x4x5x6:padch=1:cp=100"), TL_OK);
    s.quant = d.quant;
    CHECK(memcmp(&s, &d, sizeof d) == 0);
}

TL_TEST(six_d_flag_and_collapse)
{
    tl_tidl_buf b = make_buf(TL_TIDL_UNSIGNED_CHAR, 3, 2, 2);
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK_EQ_I64(d.rank, 4);
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, TL_TIDL_DESC_6D), TL_OK);
    CHECK_EQ_I64(d.rank, 6);
    CHECK_STR_EQ(fmt(&d), "tidl:u8:1x1x1x3x2x2:q=inv:scale=1:round=zero");
    b.num_batches = 0; /* read as 1 */
    b.dim1 = 0;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK_EQ_I64(d.dims[0], 1);
}

/* Random geometries: every element's offset is §2.4's. */
TL_TEST(offsets_match_formula_random)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 300 && !TL_TEST_FAILURES(); iter++) {
        tl_tidl_buf b = make_buf((int32_t)tl_rng_range(&r, 0, 8), (int32_t)tl_rng_range(&r, 1, 4),
                                 (int32_t)tl_rng_range(&r, 1, 5), (int32_t)tl_rng_range(&r, 1, 7));
        set_pads(&b, (int32_t)tl_rng_range(&r, 0, 3), (int32_t)tl_rng_range(&r, 0, 3), (int32_t)tl_rng_range(&r, 0, 3),
                 (int32_t)tl_rng_range(&r, 0, 3));
        b.pad_ch = (int32_t)tl_rng_range(&r, 0, 2);
        b.num_batches = (int32_t)tl_rng_range(&r, 1, 2);
        b.dim1 = (int32_t)tl_rng_range(&r, 0, 2);
        b.dim2 = (int32_t)tl_rng_range(&r, 0, 3);
        int64_t plane = (int64_t)(b.width + b.pad_l + b.pad_r) * (b.height + b.pad_t + b.pad_b);
        b.channel_pitch = tl_rng_pick(&r, 3) ? (int32_t)(plane + tl_rng_range(&r, 0, 9)) : 0;
        tl_desc d;
        REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, TL_TIDL_DESC_6D), TL_OK);
        int64_t x[6];
        for (x[0] = 0; x[0] < d.dims[0]; x[0]++)
            for (x[1] = 0; x[1] < d.dims[1]; x[1]++)
                for (x[2] = 0; x[2] < d.dims[2]; x[2]++)
                    for (x[3] = 0; x[3] < d.dims[3]; x[3]++)
                        for (x[4] = 0; x[4] < d.dims[4]; x[4]++)
                            for (x[5] = 0; x[5] < d.dims[5]; x[5]++) {
                                int64_t want = ref_off(&b, x[0], x[1], x[2], x[3], x[4], x[5]);
                                if (elem_off(&d, x) != want) {
                                    FAILF("%s: element (%lld,%lld,%lld,%lld,%lld,%lld) at %lld, want %lld", fmt(&d),
                                          (long long)x[0], (long long)x[1], (long long)x[2], (long long)x[3],
                                          (long long)x[4], (long long)x[5], (long long)elem_off(&d, x),
                                          (long long)want);
                                    return;
                                }
                            }
        /* §2.5: NumBatches * bp * es (cp >= the padded plane here) */
        int64_t es = tl_dtype_bits((tl_dtype)d.dtype) / 8;
        int64_t bp = ref_off(&b, 1, 0, 0, 0, 0, 0) - ref_off(&b, 0, 0, 0, 0, 0, 0);
        CHECK_EQ_I64(d.size_bytes, b.num_batches * bp * es);
    }
}

TL_TEST(buf_size_sets_the_size)
{
    tl_tidl_buf b = make_buf(TL_TIDL_SIGNED_SHORT, 3, 4, 10);
    set_pads(&b, 1, 1, 1, 1);
    b.buf_size = 300; /* >= 216 the layout spans */
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 600);
    CHECK_STR_EQ(fmt(&d), "tidl:i16:1x3x4x10:pad=1,1,1,1:bufsize=300:q=inv:scale=1:round=zero");
}

/* ---- T5-T7: quantization ------------------------------------------------- */

TL_TEST(t5_dequantize)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i8:1x1x1x1:scale=25"), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_INV);
    CHECK_NEAR(tl_dequantize_value(&d.quant, -50), -2.0, 0.0);
}

TL_TEST(t6_quantize_truncates)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i8:1x1x1x1:scale=25"), TL_OK);
    CHECK_EQ_I64(d.quant.round, TL_ROUND_ZERO);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, 0.99f), 24); /* trunc(24.75) */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i8:1x1x1x1:scale=25:round=even"), TL_OK);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, 0.99f), 25);
}

TL_TEST(t7_quantize_saturates)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i8:1x1x1x1:scale=25"), TL_OK);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, -6.0f), -128); /* -150 */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x1x1x1:scale=25"), TL_OK);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_U8, -1.0f), 0);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_U8, 11.0f), 255);
}

TL_TEST(zero_point_and_float)
{
    tl_tidl_buf b = make_buf(TL_TIDL_UNSIGNED_CHAR, 1, 1, 4);
    b.tensor_scale = 10.0f;
    b.zero_point = 128;
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK_NEAR(tl_dequantize_value(&d.quant, 78), -5.0, 0.0); /* (78 - 128) / 10 */
    char msg[512];
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 1);
    CHECK_STR_CONTAINS(msg, "ZeroPoint=128: TI's own conversion ignores the descriptor's zero point");
    /* float32: no quantization whatever the fields say (TIDL-RT forces 1/0) */
    b = make_buf(TL_TIDL_SINGLE_PREC_FLOAT, 1, 1, 4);
    b.tensor_scale = 0.0f;
    b.zero_point = 5;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_NONE);
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, NULL, 0), 0);
}

/* ---- spec strings ---------------------------------------------------------- */

TL_TEST(canonical_spec)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25"), TL_OK);
    CHECK_STR_EQ(fmt(&d), "tidl:i16:1x3x4x10:pad=1,1,1,1:q=inv:scale=25:round=zero");
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:f32:2x1x1x10"), TL_OK);
    CHECK_STR_EQ(fmt(&d), "tidl:f32:2x1x1x10");
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x4x4:layout=nhwc"), TL_OK);
    CHECK_STR_EQ(fmt(&d), "tidl:u8:1x3x4x4:layout=nhwc:q=inv:scale=1:round=zero");
}

TL_TEST(spec_roundtrip)
{
    static const char *const specs[] = {
        "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25",
        "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=80:scale=25:zp=-3",
        "tidl:u8:1x3x224x224",
        "tidl:u8:2x3x5x7:pad=2,3,1,0:padch=1",
        "tidl:i8:2x2x3x4x5x6:padch=1:cp=100:scale=0.125",
        "tidl:i8:1x1x1x4x5x6",
        "tidl:f32:1x8x1x1",
        "tidl:u16:1x2x3x4:bufsize=100",
        "tidl:i32:1x2x3x4:pad=0,0,0,0:cp=12",
        "tidl:u32:1x2x3x4:cp=0",
        "tidl:u64:1x1x2x2",
        "tidl:i64:1x1x2x2:scale=3",
        "tidl:u8:1x3x4x4:layout=nhwc",
        "tidl:u8:2x3x4x4:layout=nchw",
        "tidl:i16:1x3x4x10:q=none",
        "tidl:i16:1x3x4x10:q=none:round=zero",
        "tidl:i16:1x3x4x10:round=even",
        "tidl:i16:1x3x4x10:round=away:scale=7.5",
        "tidl:i16:1x3x4x10:q=affine:scale=0.5:zp=2",
        "tidl:i8:1x3x4x10:q=dfp:fl=3",
        "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=60",  /* shared padding rows: read-only */
        "tidl:f32:1x2x3x4:round=zero",
        "tidl:u8:1x3x4x2000000000", /* default cp 8e9: beyond the int32 field */
        "tidl:u8:2x1x4x2000000000:pad=0,0,100000000,0:padch=1",
        "tidl:u8:1x3x1x40:scale=1.17549435e-38", /* FLT_MIN, the smallest normal TensorScale */
        "tidl:u8:1x3x1x40:scale=3.39e38",
        "tidl:i16:1x3x1x40:q=affine:scale=1e-45", /* not a TensorScale: TIDL exports scale 1 */
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        tl_desc a, b;
        char s1[1024];
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        if (tl_desc_parse(&a, specs[i]) != TL_OK) {
            FAILF("%s: %s", specs[i], tl_last_error());
            continue;
        }
        CHECK_STATUS(tl_desc_format(&a, s1, sizeof s1), TL_OK);
        CHECK_STATUS(tl_desc_parse(&b, s1), TL_OK);
        if (memcmp(&a, &b, sizeof a) != 0) FAILF("%s -> %s does not parse back identically", specs[i], s1);
    }
}

TL_TEST(spec_defaults)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i16:1x3x4x10"), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_INV);
    CHECK_NEAR(d.quant.scale, 1.0, 0.0);
    CHECK_EQ_I64(d.vendor, TL_VENDOR_TIDL);
    CHECK_EQ_I64(d.vendor_params[5], 4 * 10); /* cp defaults to the padded plane */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i16:1x3x4x10:q=none"), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_NONE);
    CHECK_NEAR(d.quant.scale, 0.0, 0.0);
}

/* Descriptors built from random buffers format and parse back identically. */
TL_TEST(buffer_roundtrip_random)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 500 && !TL_TEST_FAILURES(); iter++) {
        tl_tidl_buf b = make_buf((int32_t)tl_rng_range(&r, 0, 8), (int32_t)tl_rng_range(&r, 1, 300),
                                 (int32_t)tl_rng_range(&r, 1, 300), (int32_t)tl_rng_range(&r, 1, 300));
        bool nhwc = tl_rng_pick(&r, 5) == 0;
        b.layout = nhwc;
        if (!nhwc) {
            set_pads(&b, (int32_t)tl_rng_range(&r, 0, 4), (int32_t)tl_rng_range(&r, 0, 4),
                     (int32_t)tl_rng_range(&r, 0, 4), (int32_t)tl_rng_range(&r, 0, 4));
            b.pad_ch = (int32_t)tl_rng_range(&r, 0, 3);
            int64_t plane = (int64_t)(b.width + b.pad_l + b.pad_r) * (b.height + b.pad_t + b.pad_b);
            b.channel_pitch = tl_rng_pick(&r, 2) ? (int32_t)(plane + tl_rng_range(&r, 0, 64)) : 0;
        }
        b.num_batches = (int32_t)tl_rng_range(&r, 0, 3);
        b.dim1 = (int32_t)tl_rng_range(&r, 0, 2);
        b.dim2 = (int32_t)tl_rng_range(&r, 0, 2);
        b.tensor_scale = (float)tl_rng_range(&r, 1, 100000) / 64.0f;
        b.zero_point = (int32_t)tl_rng_range(&r, -5, 5);
        tl_desc d, e;
        char s[1024];
        tl_status st = tl_desc_from_tidl(&d, &b, tl_rng_pick(&r, 2) ? TL_TIDL_DESC_6D : 0);
        if (st != TL_OK) {
            FAILF("buffer %d: %s", iter, tl_last_error());
            continue;
        }
        if (tl_rng_pick(&r, 2)) { /* and with BufSize a little over the layout */
            b.buf_size = (int32_t)(d.size_bytes / (tl_dtype_bits((tl_dtype)d.dtype) / 8) + tl_rng_range(&r, 0, 9));
            REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, d.rank == 6 ? TL_TIDL_DESC_6D : 0), TL_OK);
        }
        REQUIRE_STATUS(tl_desc_format(&d, s, sizeof s), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&e, s), TL_OK);
        if (memcmp(&d, &e, sizeof d) != 0) FAILF("%s does not parse back identically", s);
    }
}

/* ---- errors: status, message, nothing written ---------------------------- */

static void expect_buf_error(tl_tidl_buf b, unsigned flags, tl_status want, const char *needle, int line)
{
    tl_desc d, sentinel;
    memset(&d, 0xAB, sizeof d);
    memset(&sentinel, 0xAB, sizeof sentinel);
    tl_status got = tl_desc_from_tidl(&d, &b, flags);
    if (got != want)
        FAILF("line %d: status %s, want %s (%s)", line, tl_status_str(got), tl_status_str(want), tl_last_error());
    if (!strstr(tl_last_error(), needle)) FAILF("line %d: message \"%s\" lacks \"%s\"", line, tl_last_error(), needle);
    if (!strstr(tl_last_error(), "(TIDL)")) FAILF("line %d: message \"%s\" does not name TIDL", line, tl_last_error());
    if (memcmp(&d, &sentinel, sizeof d) != 0) FAILF("line %d: the descriptor was written", line);
}
#define BUF_ERR(b, flags, want, needle) expect_buf_error((b), (flags), (want), (needle), __LINE__)

TL_TEST(buffer_errors)
{
    tl_tidl_buf ok = make_buf(TL_TIDL_SIGNED_SHORT, 3, 4, 10), b;
    ok.index = 2;
    ok.is_output = 1;
    b = ok; b.element_type = 9;
    BUF_ERR(b, 0, TL_ERR_DTYPE, "outElementType[2]=9");
    b = ok; b.element_type = -1;
    BUF_ERR(b, 0, TL_ERR_DTYPE, "outElementType[2]=-1");
    b = ok; b.layout = 2;
    BUF_ERR(b, 0, TL_ERR_VENDOR, "outLayout[2]=2");
    b = ok; b.width = 0;
    BUF_ERR(b, 0, TL_ERR_DIM, "outWidth[2]=0");
    b = ok; b.height = -4;
    BUF_ERR(b, 0, TL_ERR_DIM, "outHeight[2]=-4");
    b = ok; b.num_channels = 0;
    BUF_ERR(b, 0, TL_ERR_DIM, "outNumChannels[2]=0");
    b = ok; b.num_batches = -1;
    BUF_ERR(b, 0, TL_ERR_DIM, "outNumBatches[2]=-1");
    b = ok; b.dim1 = -1;
    BUF_ERR(b, 0, TL_ERR_DIM, "outDIM1[2]=-1");
    b = ok; b.dim2 = -2;
    BUF_ERR(b, 0, TL_ERR_DIM, "outDIM2[2]=-2");
    b = ok; b.pad_t = -1;
    BUF_ERR(b, 0, TL_ERR_PAD, "outPadT[2]=-1");
    b = ok; b.pad_ch = -3;
    BUF_ERR(b, 0, TL_ERR_PAD, "outPadCh[2]=-3");
    b = ok; b.layout = TL_TIDL_LT_NHWC; b.pad_r = 1;
    BUF_ERR(b, 0, TL_ERR_VENDOR, "outPadR[2]=1 with layout NHWC");
    b = ok; b.layout = TL_TIDL_LT_NHWC; b.pad_ch = 1;
    BUF_ERR(b, 0, TL_ERR_VENDOR, "no padded NHWC geometry");
    b = ok; b.channel_pitch = -8;
    BUF_ERR(b, 0, TL_ERR_STRIDE, "outChannelPitch[2]=-8");
    b = ok; b.channel_pitch = 39; /* (H-1)*lp + W = 40 */
    BUF_ERR(b, 0, TL_ERR_ALIAS, "outChannelPitch[2]=39 < (Height-1)*lp + Width = 40");
    b = ok; b.buf_size = -1;
    BUF_ERR(b, 0, TL_ERR_SIZE, "outBufSize[2]=-1");
    b = ok; b.buf_size = 119; /* the layout spans 120 */
    BUF_ERR(b, 0, TL_ERR_SIZE, "outBufSize[2]=119 elements (238 bytes) < 240 bytes");
    b = ok; b.tensor_scale = 0.0f;
    BUF_ERR(b, 0, TL_ERR_QUANT, "outTensorScale[2]=0");
    b = ok; b.tensor_scale = -2.0f;
    BUF_ERR(b, 0, TL_ERR_QUANT, "outTensorScale[2]=-2");
    b = ok; b.tensor_scale = 1e-40f; /* subnormal */
    BUF_ERR(b, 0, TL_ERR_QUANT, "needs a finite, normal scale > 0");
    b = ok; b.tensor_scale = NAN;
    BUF_ERR(b, 0, TL_ERR_QUANT, "outTensorScale[2]=nan");
    b = ok; b.tensor_scale = INFINITY;
    BUF_ERR(b, 0, TL_ERR_QUANT, "outTensorScale[2]=inf");
    b = ok; b.width = INT32_MAX; b.height = INT32_MAX; b.num_channels = INT32_MAX; b.num_batches = INT32_MAX;
    BUF_ERR(b, 0, TL_ERR_OVERFLOW, "overflows");
    b = ok; b.index = -1; b.pad_l = -1; /* not from an image: TI's short names */
    BUF_ERR(b, 0, TL_ERR_PAD, "PadL=-1");
    BUF_ERR(ok, 4, TL_ERR_UNSUPPORTED, "flags=0x4");
    CHECK_STATUS(tl_desc_from_tidl(NULL, &ok, 0), TL_ERR_NULL);
    tl_desc d;
    CHECK_STATUS(tl_desc_from_tidl(&d, NULL, 0), TL_ERR_NULL);
}

static void expect_spec_error(const char *spec, tl_status want, const char *needle, int line)
{
    tl_desc d, sentinel;
    memset(&d, 0xAB, sizeof d);
    memset(&sentinel, 0xAB, sizeof sentinel);
    tl_status got = tl_desc_parse(&d, spec);
    if (got != want)
        FAILF("line %d: %s: status %s, want %s (%s)", line, spec, tl_status_str(got), tl_status_str(want),
              tl_last_error());
    if (!strstr(tl_last_error(), needle))
        FAILF("line %d: %s: message \"%s\" lacks \"%s\"", line, spec, tl_last_error(), needle);
    if (memcmp(&d, &sentinel, sizeof d) != 0) FAILF("line %d: %s: the descriptor was written", line, spec);
}
#define SPEC_ERR(spec, want, needle) expect_spec_error((spec), (want), (needle), __LINE__)

TL_TEST(spec_errors)
{
    SPEC_ERR("tidl:f16:1x3x4x4", TL_ERR_DTYPE, "dtype f16: TIDL element types are");
    SPEC_ERR("tidl:bool:1x3x4x4", TL_ERR_DTYPE, "(TIDL)");
    SPEC_ERR("tidl:u8:1x3x4", TL_ERR_RANK, "tidl spec has 3 dims");
    SPEC_ERR("tidl:u8:1x1x3x4x4", TL_ERR_RANK, "NxD1xD2xCxHxW");
    SPEC_ERR("tidl.nchw:u8:1x3x4x4", TL_ERR_SPEC_LAYOUT, "layout tidl.nchw");
    SPEC_ERR("tidl:u8:1x3x4x4:pad=1,1,1", TL_ERR_SPEC_VALUE, "pad=1,1,1");
    SPEC_ERR("tidl:u8:1x3x4x4:pad=1,1,1,x", TL_ERR_SPEC_VALUE, "pad=");
    SPEC_ERR("tidl:u8:1x3x4x4:pad=1,1,1,3000000000", TL_ERR_SPEC_VALUE, "must fit int32");
    SPEC_ERR("tidl:u8:1x3x4x4:pad=-1,0,0,0", TL_ERR_PAD, "PadL=-1");
    SPEC_ERR("tidl:u8:1x3x4x4:padch=-1", TL_ERR_PAD, "PadCh=-1");
    SPEC_ERR("tidl:u8:1x3x4x4:cp=9999999999", TL_ERR_SPEC_VALUE, "cp=9999999999");
    SPEC_ERR("tidl:u8:1x3x4x4:cp=-5", TL_ERR_STRIDE, "ChannelPitch=-5");
    SPEC_ERR("tidl:u8:1x3x4x4:cp=12", TL_ERR_ALIAS, "ChannelPitch=12 < (Height-1)*lp + Width = 16");
    SPEC_ERR("tidl:u8:1x3x4x4:bufsize=47", TL_ERR_SIZE, "BufSize=47");
    SPEC_ERR("tidl:u8:1x3x4x4:layout=chw", TL_ERR_SPEC_VALUE, "layout=chw");
    SPEC_ERR("tidl:u8:1x3x4x4:layout=nhwc:cp=16", TL_ERR_SPEC_OPTION, "cp= with layout=nhwc");
    SPEC_ERR("tidl:u8:1x3x4x4:layout=nhwc:pad=0,1,0,0", TL_ERR_VENDOR, "PadT=1 with layout NHWC");
    SPEC_ERR("tidl:u8:1x3x4x3000000000", TL_ERR_DIM, "dims[3]=3000000000");
    SPEC_ERR("tidl:u8:1x3x4x4:scale=0", TL_ERR_QUANT, "scale");
    /* subnormal: parsed once, then format() refused its TensorScale */
    SPEC_ERR("tidl:u8:1x3x1x40:scale=1e-45", TL_ERR_QUANT,
             "scale=1e-45: an integer TIDL buffer needs a finite, normal scale > 0 (TensorScale");
    SPEC_ERR("tidl:i16:1x3x1x40:q=inv:scale=1e-38", TL_ERR_QUANT, "scale=1e-38: an integer TIDL buffer");
    SPEC_ERR("tidl:u8:1x3x1x40:zp=3:scale=-2", TL_ERR_QUANT, "scale=-2: an integer TIDL buffer");
    SPEC_ERR("tidl:u8:1x3x1x40:scale=abc", TL_ERR_SPEC_VALUE, "scale=abc");
    SPEC_ERR("tidl:f32:1x3x4x4:scale=2", TL_ERR_QUANT, "cannot be quantized");
    SPEC_ERR("tidl:u8:1x3x4x4:c2=16", TL_ERR_SPEC_OPTION, "c2");
}

/* cp between (H-1)*lp + W and the padded plane: accepted, read-only, warned. */
TL_TEST(shared_padding_rows)
{
    tl_tidl_buf b = make_buf(TL_TIDL_SIGNED_SHORT, 3, 4, 10);
    set_pads(&b, 1, 1, 1, 1);
    b.channel_pitch = 60; /* plane 72, minimum 3*12 + 10 = 46 */
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK(d.flags & TL_DESC_READONLY);
    CHECK(!tl_desc_writable(&d));
    char msg[512];
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 1);
    CHECK_STR_CONTAINS(msg, "ChannelPitch=60 < lp*(Height+PadT+PadB)=72");
    /* valid elements are still where §2.4 puts them, and never overlap */
    const int64_t x[4] = {0, 2, 3, 9};
    CHECK_EQ_I64(elem_off(&d, x), ref_off(&b, 0, 0, 0, 2, 3, 9));
    /* the size covers the last channel's padding rows */
    CHECK_EQ_I64(d.size_bytes, (2 * 60 + 72) * 2);
    /* a single channel has nothing to share: writable, no warning */
    b.num_channels = 1;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    CHECK(!(d.flags & TL_DESC_READONLY));
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 0);
    CHECK_STR_EQ(msg, "");
}

TL_TEST(warnings_nhwc_and_bad_buffers)
{
    tl_tidl_buf b = make_buf(TL_TIDL_UNSIGNED_CHAR, 3, 4, 5);
    b.layout = TL_TIDL_LT_NHWC;
    b.channel_pitch = 7;
    char msg[256];
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 1);
    CHECK_STR_CONTAINS(msg, "ChannelPitch=7 is ignored");
    b.channel_pitch = 20; /* H*W: consistent, no warning */
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 0);
    b.width = 0; /* an error is not a warning */
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 0);
    CHECK_EQ_I64(tl_tidl_buf_warnings(NULL, msg, sizeof msg), 0);
    /* two warnings, one per line */
    b = make_buf(TL_TIDL_SIGNED_SHORT, 3, 4, 10);
    set_pads(&b, 0, 1, 0, 1);
    b.channel_pitch = 55; /* plane 60, minimum 40 */
    b.zero_point = 1;
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, msg, sizeof msg), 2);
    CHECK(strchr(msg, '\n') != NULL);
    /* a short buffer truncates, NUL-terminated */
    char tiny[8];
    CHECK_EQ_I64(tl_tidl_buf_warnings(&b, tiny, sizeof tiny), 2);
    CHECK_EQ_I64(strlen(tiny), 7);
}

TL_TEST(nhwc_dense)
{
    tl_desc d, ref;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:2x3x4x5:layout=nhwc"), TL_OK);
    const int64_t dims[4] = {2, 4, 5, 3};
    REQUIRE_STATUS(tl_desc_init(&ref, "NHWC", TL_U8, dims, 4), TL_OK);
    CHECK_EQ_I64(d.size_bytes, ref.size_bytes);
    const int64_t x[4] = {1, 2, 3, 4}; /* n c h w */
    const int64_t y[4] = {1, 3, 4, 2}; /* n h w c */
    uint64_t a, b;
    REQUIRE_STATUS(tl_desc_offset(&d, x, &a), TL_OK);
    REQUIRE_STATUS(tl_desc_offset(&ref, y, &b), TL_OK);
    CHECK_EQ_I64(a, b);
    CHECK_EQ_I64(a, 60 + 3 * 15 + 4 * 3 + 2);
}

/* ---- back to a buffer ------------------------------------------------------ */

TL_TEST(from_desc)
{
    tl_tidl_buf b = make_buf(TL_TIDL_SIGNED_SHORT, 3, 4, 10), back;
    set_pads(&b, 1, 2, 3, 0);
    b.pad_ch = 1;
    b.channel_pitch = 100;
    b.tensor_scale = 25.0f;
    b.zero_point = -2;
    b.buf_size = 500;
    b.num_batches = 1;
    b.dim1 = b.dim2 = 1;
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    REQUIRE_STATUS(tl_tidl_from_desc(&d, &back), TL_OK);
    CHECK(memcmp(&b, &back, sizeof b) == 0);
    /* affine quantization cannot be carried */
    tl_desc a = d;
    a.quant.kind = TL_Q_AFFINE;
    memset(&back, 0x5A, sizeof back);
    tl_tidl_buf sentinel = back;
    CHECK_STATUS(tl_tidl_from_desc(&a, &back), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "inverse-scale");
    CHECK(memcmp(&back, &sentinel, sizeof back) == 0);
    /* a changed physical map is refused, by format too */
    a = d;
    a.planes[0].axes[1].stride_bits += 16;
    CHECK_STATUS(tl_tidl_from_desc(&a, &back), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "changed after it was built");
    char s[256];
    CHECK_STATUS(tl_desc_format(&a, s, sizeof s), TL_ERR_VENDOR_EXPORT);
    a = d;
    a.vendor_params[7] = 1;
    CHECK_STATUS(tl_tidl_from_desc(&a, &back), TL_ERR_VENDOR_EXPORT);
    /* not a TIDL descriptor */
    const int64_t dims[4] = {1, 3, 4, 10};
    REQUIRE_STATUS(tl_desc_init(&a, "NCHW", TL_I16, dims, 4), TL_OK);
    CHECK_STATUS(tl_tidl_from_desc(&a, &back), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "not a TIDL descriptor");
    CHECK(memcmp(&back, &sentinel, sizeof back) == 0);
    /* no quantization on an integer type: scale 1, zp 0 (the same numbers) */
    REQUIRE_STATUS(tl_desc_parse(&a, "tidl:u8:1x1x2x2:q=none"), TL_OK);
    REQUIRE_STATUS(tl_tidl_from_desc(&a, &back), TL_OK);
    CHECK_NEAR(back.tensor_scale, 1.0, 0.0);
    CHECK_EQ_I64(back.element_type, TL_TIDL_UNSIGNED_CHAR);
    CHECK_STATUS(tl_tidl_from_desc(NULL, &back), TL_ERR_NULL);
    /* a default cp beyond int32 comes back as 0 (the same meaning) */
    REQUIRE_STATUS(tl_desc_parse(&a, "tidl:u8:1x3x4x2000000000"), TL_OK);
    CHECK_EQ_I64(a.vendor_params[5], 8000000000);
    REQUIRE_STATUS(tl_tidl_from_desc(&a, &back), TL_OK);
    CHECK_EQ_I64(back.channel_pitch, 0);
    a.vendor_params[5] = 8000000001; /* and a non-default one is refused */
    CHECK_STATUS(tl_tidl_from_desc(&a, &back), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "channel pitch exceeds the int32 field");
}

TL_TEST(element_type_names)
{
    static const tl_dtype want[9] = {TL_U8, TL_I8, TL_U16, TL_I16, TL_U32, TL_I32, TL_F32, TL_U64, TL_I64};
    for (int32_t e = 0; e < 9; e++) {
        tl_dtype t;
        int32_t back = -1;
        REQUIRE_STATUS(tl_tidl_dtype(e, &t), TL_OK);
        CHECK_EQ_I64(t, want[e]);
        REQUIRE_STATUS(tl_tidl_element_type_of(t, &back), TL_OK);
        CHECK_EQ_I64(back, e);
    }
    CHECK_STR_EQ(tl_tidl_element_type_name(TL_TIDL_SIGNED_SHORT), "TIDL_SignedShort");
    CHECK_STR_EQ(tl_tidl_element_type_name(9), "?");
    CHECK_STR_EQ(tl_tidl_layout_name(TL_TIDL_LT_NHWC), "TIDL_LT_NHWC");
    CHECK_STR_EQ(tl_tidl_layout_name(7), "?");
    tl_dtype t = TL_U8;
    int32_t e = 77;
    CHECK_STATUS(tl_tidl_dtype(9, &t), TL_ERR_DTYPE);
    CHECK_EQ_I64(t, TL_U8);
    CHECK_STATUS(tl_tidl_element_type_of(TL_F16, &e), TL_ERR_DTYPE);
    CHECK_EQ_I64(e, 77);
    CHECK_STATUS(tl_tidl_dtype(0, NULL), TL_ERR_NULL);
}

/* ---- padding ------------------------------------------------------------------ */

/* Mark the bytes of valid elements (from §2.4, not from the library). */
static void mark_valid(const tl_tidl_buf *b, int64_t es, uint8_t *valid)
{
    int64_t n = b->num_batches ? b->num_batches : 1, d1 = b->dim1 ? b->dim1 : 1, d2 = b->dim2 ? b->dim2 : 1;
    for (int64_t i = 0; i < n; i++)
        for (int64_t j = 0; j < d1; j++)
            for (int64_t k = 0; k < d2; k++)
                for (int64_t c = 0; c < b->num_channels; c++)
                    for (int64_t h = 0; h < b->height; h++)
                        for (int64_t w = 0; w < b->width; w++)
                            memset(valid + ref_off(b, i, j, k, c, h, w) * es, 1, (size_t)es);
}

TL_TEST(zero_padding_random)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 200 && !TL_TEST_FAILURES(); iter++) {
        tl_tidl_buf b = make_buf((int32_t)tl_rng_range(&r, 0, 5), (int32_t)tl_rng_range(&r, 1, 4),
                                 (int32_t)tl_rng_range(&r, 1, 5), (int32_t)tl_rng_range(&r, 1, 6));
        set_pads(&b, (int32_t)tl_rng_range(&r, 0, 2), (int32_t)tl_rng_range(&r, 0, 2), (int32_t)tl_rng_range(&r, 0, 2),
                 (int32_t)tl_rng_range(&r, 0, 2));
        b.pad_ch = (int32_t)tl_rng_range(&r, 0, 1);
        b.num_batches = (int32_t)tl_rng_range(&r, 1, 2);
        b.dim2 = (int32_t)tl_rng_range(&r, 1, 2);
        int64_t lp = b.width + b.pad_l + b.pad_r, plane = lp * (b.height + b.pad_t + b.pad_b);
        int64_t min_cp = (b.height - 1) * lp + b.width;
        b.channel_pitch = (int32_t)tl_rng_range(&r, min_cp, plane + 6); /* slack, exact or shared rows */
        tl_desc d;
        REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
        if (tl_rng_pick(&r, 2)) { /* BufSize with a tail */
            b.buf_size = (int32_t)(d.size_bytes / (tl_dtype_bits((tl_dtype)d.dtype) / 8) + tl_rng_range(&r, 0, 5));
            REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
        }
        int64_t es = tl_dtype_bits((tl_dtype)d.dtype) / 8;
        size_t len = (size_t)d.size_bytes + 16;
        uint8_t *buf = malloc(len), *valid = calloc(len, 1);
        REQUIRE(buf && valid);
        memset(buf, 0xFF, len);
        mark_valid(&b, es, valid);
        REQUIRE_STATUS(tl_tidl_zero_padding(&d, buf, len), TL_OK);
        for (size_t i = 0; i < len; i++) {
            uint8_t want = i >= (size_t)d.size_bytes || valid[i] ? 0xFF : 0; /* beyond the size: untouched */
            if (buf[i] != want) {
                FAILF("%s: byte %zu = 0x%02x, want 0x%02x", fmt(&d), i, buf[i], want);
                break;
            }
        }
        free(buf);
        free(valid);
    }
}

TL_TEST(zero_padding_covers_fill_padding)
{
    /* Every padding element tl_fill_padding knows, plus the cp slack. */
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:2x3x4x5:pad=1,2,0,1:padch=1:cp=60"), TL_OK); /* plane 42 */
    uint8_t a[600], b[600];
    REQUIRE(d.size_bytes <= (int64_t)sizeof a);
    memset(a, 0xFF, sizeof a);
    memset(b, 0xFF, sizeof b);
    REQUIRE_STATUS(tl_fill_padding(&d, a, sizeof a, 0), TL_OK);
    REQUIRE_STATUS(tl_tidl_zero_padding(&d, b, sizeof b), TL_OK);
    int slack = 0;
    for (size_t i = 0; i < sizeof a; i++) {
        if (a[i] == 0 && b[i] != 0) FAILF("byte %zu: padding not zeroed", i);
        slack += a[i] == 0xFF && b[i] == 0;
    }
    CHECK_EQ_I64(slack, 2 * 4 * (60 - 42)); /* 18 slack elements after each of 8 channel slots */
}

TL_TEST(zero_padding_errors)
{
    tl_desc d;
    uint8_t buf[512], sentinel[512];
    memset(buf, 0xEE, sizeof buf);
    memcpy(sentinel, buf, sizeof buf);
    REQUIRE_STATUS(tl_desc_parse(&d, T1_SPEC), TL_OK);
    CHECK_STATUS(tl_tidl_zero_padding(&d, buf, 431), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "len=431 < 432 bytes of the TIDL buffer");
    CHECK_STATUS(tl_tidl_zero_padding(NULL, buf, sizeof buf), TL_ERR_NULL);
    CHECK_STATUS(tl_tidl_zero_padding(&d, NULL, sizeof buf), TL_ERR_NULL);
    tl_desc g;
    const int64_t dims[4] = {1, 3, 4, 10};
    REQUIRE_STATUS(tl_desc_init(&g, "NCHW", TL_I16, dims, 4), TL_OK);
    CHECK_STATUS(tl_tidl_zero_padding(&g, buf, sizeof buf), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "not a TIDL descriptor");
    tl_desc bad = d;
    bad.dims[1] = 0;
    CHECK_STATUS(tl_tidl_zero_padding(&bad, buf, sizeof buf), TL_ERR_DIM);
    CHECK_MEM_EQ(buf, sentinel, sizeof buf);
    /* NHWC: no padding, only the tail past the elements */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x2x2x2:layout=nhwc:bufsize=12"), TL_OK);
    REQUIRE_STATUS(tl_tidl_zero_padding(&d, buf, sizeof buf), TL_OK);
    for (int i = 0; i < 12; i++) CHECK_EQ_I64(buf[i], i < 8 ? 0xEE : 0);
    CHECK_EQ_I64(buf[12], 0xEE);
}

/* ---- conversions against §2.4/§2.6 computed element by element ---------------- */

TL_TEST(dequantize_padded_i16_to_dense_f32)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 60 && !TL_TEST_FAILURES(); iter++) {
        tl_tidl_buf b = make_buf(TL_TIDL_SIGNED_SHORT, (int32_t)tl_rng_range(&r, 1, 5), (int32_t)tl_rng_range(&r, 1, 6),
                                 (int32_t)tl_rng_range(&r, 1, 9));
        set_pads(&b, (int32_t)tl_rng_range(&r, 0, 2), (int32_t)tl_rng_range(&r, 0, 2), (int32_t)tl_rng_range(&r, 0, 2),
                 (int32_t)tl_rng_range(&r, 0, 2));
        b.num_batches = (int32_t)tl_rng_range(&r, 1, 3);
        int64_t plane = (int64_t)(b.width + b.pad_l + b.pad_r) * (b.height + b.pad_t + b.pad_b);
        b.channel_pitch = (int32_t)(plane + tl_rng_range(&r, 0, 8));
        b.tensor_scale = (float)tl_rng_range(&r, 1, 4000) / 16.0f;
        b.zero_point = (int32_t)tl_rng_range(&r, -3, 3);
        tl_desc src, dst;
        REQUIRE_STATUS(tl_desc_from_tidl(&src, &b, 0), TL_OK);
        const int64_t dims[4] = {b.num_batches, b.num_channels, b.height, b.width};
        REQUIRE_STATUS(tl_desc_init(&dst, "NCHW", TL_F32, dims, 4), TL_OK);
        size_t slen = (size_t)src.size_bytes, n = (size_t)(dst.size_bytes / 4);
        int16_t *in = malloc(slen);
        float *out = malloc(n * sizeof *out);
        REQUIRE(in && out);
        tl_rng_bytes(&r, in, slen); /* padding holds garbage: it must not leak */
        REQUIRE_STATUS(tl_convert(&src, in, slen, &dst, out, n * sizeof *out), TL_OK);
        size_t i = 0;
        for (int64_t bn = 0; bn < dims[0]; bn++)
            for (int64_t c = 0; c < dims[1]; c++)
                for (int64_t h = 0; h < dims[2]; h++)
                    for (int64_t w = 0; w < dims[3]; w++, i++) {
                        int32_t q = in[ref_off(&b, bn, 0, 0, c, h, w)];
                        /* TIDL-RT multiplies by the f32 reciprocal */
                        float want = (float)(q - b.zero_point) * (1.0f / b.tensor_scale);
                        if (memcmp(&want, &out[i], 4) != 0) {
                            FAILF("%s: (%lld,%lld,%lld,%lld): q=%d -> %.9g, want %.9g", fmt(&src), (long long)bn,
                                  (long long)c, (long long)h, (long long)w, (int)q, (double)out[i], (double)want);
                            bn = dims[0];
                            c = dims[1];
                            h = dims[2];
                            break;
                        }
                    }
        free(in);
        free(out);
    }
}

/* TIDL-RT's input path: q = (uint8)clamp(real * scale) -- truncation. */
static uint8_t tidl_quant_u8(float real, float scale)
{
    volatile float prod = real * scale;
    float x = prod;
    if (x < 0.0f) x = 0.0f;
    if (x > 255.0f) x = 255.0f;
    return (uint8_t)x;
}

TL_TEST(quantize_f32_into_padded_u8)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 60 && !TL_TEST_FAILURES(); iter++) {
        tl_tidl_buf b = make_buf(TL_TIDL_UNSIGNED_CHAR, (int32_t)tl_rng_range(&r, 1, 4),
                                 (int32_t)tl_rng_range(&r, 1, 7), (int32_t)tl_rng_range(&r, 1, 9));
        set_pads(&b, (int32_t)tl_rng_range(&r, 0, 3), (int32_t)tl_rng_range(&r, 0, 3), (int32_t)tl_rng_range(&r, 0, 3),
                 (int32_t)tl_rng_range(&r, 0, 3));
        b.pad_ch = (int32_t)tl_rng_range(&r, 0, 1);
        b.num_batches = (int32_t)tl_rng_range(&r, 1, 2);
        b.tensor_scale = (float)tl_rng_range(&r, 1, 2000) / 32.0f;
        tl_desc src, dst;
        REQUIRE_STATUS(tl_desc_from_tidl(&dst, &b, 0), TL_OK);
        const int64_t dims[4] = {b.num_batches, b.num_channels, b.height, b.width};
        REQUIRE_STATUS(tl_desc_init(&src, "NCHW", TL_F32, dims, 4), TL_OK);
        size_t n = (size_t)(src.size_bytes / 4), dlen = (size_t)dst.size_bytes;
        float *in = malloc(n * sizeof *in);
        uint8_t *out = malloc(dlen), *valid = calloc(dlen, 1);
        REQUIRE(in && out && valid);
        for (size_t i = 0; i < n; i++) in[i] = (float)(tl_rng_unit(&r) * 14.0 - 2.0);
        memset(out, 0xAA, dlen);
        mark_valid(&b, 1, valid);
        REQUIRE_STATUS(tl_convert(&src, in, n * sizeof *in, &dst, out, dlen), TL_OK);
        size_t i = 0;
        for (int64_t bn = 0; bn < dims[0]; bn++)
            for (int64_t c = 0; c < dims[1]; c++)
                for (int64_t h = 0; h < dims[2]; h++)
                    for (int64_t w = 0; w < dims[3]; w++, i++) {
                        uint8_t got = out[ref_off(&b, bn, 0, 0, c, h, w)], want = tidl_quant_u8(in[i], b.tensor_scale);
                        if (got != want) FAILF("%s: real %.9g -> %d, want %d", fmt(&dst), (double)in[i], got, want);
                    }
        for (size_t k = 0; k < dlen; k++)
            if (!valid[k] && out[k] != 0) {
                FAILF("%s: padding byte %zu = 0x%02x, want 0", fmt(&dst), k, out[k]);
                break;
            }
        free(in);
        free(out);
        free(valid);
    }
}

/* ---- describe --json and explain ------------------------------------------- */

TL_TEST(json_extra_and_explain)
{
    tl_desc d;
    char buf[8192];
    tl_strbuf sb = {buf, sizeof buf, 0};
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=80:scale=25"), TL_OK);
    tl_desc_json(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"vendor\": \"tidl\"");
    CHECK_STR_CONTAINS(buf, "\"tidl\": {\"layout\": \"NCHW\"");
    CHECK_STR_CONTAINS(buf, "\"line_pitch\": 12, \"channel_pitch\": 80, \"padded_plane\": 72");
    CHECK_STR_CONTAINS(buf, "\"pad\": [1, 1, 1, 1], \"pad_ch\": 0");
    CHECK_STR_CONTAINS(buf, "\"first_valid_element\": 13, \"first_valid_byte\": 26");
    const tl_vendor_ops *ops = tl_vendor_find(TL_VENDOR_TIDL);
    REQUIRE(ops && ops->explain && ops->json_extra);
    sb.len = 0;
    buf[0] = '\0';
    ops->explain(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "Line pitch lp = Width + PadL + PadR = 10 + 1 + 1 = 12 elements (24 bytes)");
    CHECK_STR_CONTAINS(buf, "Channel pitch cp = 80 elements (160 bytes)");
    CHECK_STR_CONTAINS(buf, "8 elements of slack");
    CHECK_STR_CONTAINS(buf, "PadT x lp + PadL = 1 x 12 + 1 = 13 elements (byte 26)");
    CHECK_STR_CONTAINS(buf, "PadT + PadL = 2 instead, which is wrong");
    CHECK_STR_CONTAINS(buf, "bug B1");
    CHECK_STR_CONTAINS(buf, "q = trunc(real x 25), saturated");
    CHECK_STR_CONTAINS(buf, "real = q x (1.0f / 25), the f32 reciprocal");
    CHECK(buf[sb.len - 1] == ')' || buf[sb.len - 1] == '.');
    /* NHWC: the element steps of H and C */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:2x3x4x5:layout=nhwc"), TL_OK);
    sb.len = 0;
    ops->json_extra(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"layout\": \"NHWC\"");
    CHECK_STR_CONTAINS(buf, "\"line_pitch\": 15, \"channel_pitch\": 1, \"padded_plane\": 60, \"dim2_pitch\": 60");
    CHECK_STR_CONTAINS(buf, "\"batch_pitch\": 60, \"pad\": [0, 0, 0, 0]");
    /* a descriptor whose map is not what its TIDL fields build gets nothing */
    const int64_t dims[4] = {1, 2, 2, 3};
    REQUIRE_STATUS(tl_desc_init(&d, "NHWC", TL_U8, dims, 4), TL_OK);
    d.vendor = TL_VENDOR_TIDL; /* inconsistent on purpose */
    sb.len = 0;
    buf[0] = '\0';
    ops->json_extra(&d, &sb);
    ops->explain(&d, &sb);
    CHECK_EQ_I64(sb.len, 0);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(t1_line_pitch_and_first_element);
    TL_RUN(b1_start_offset_is_not_padt_plus_padl);
    TL_RUN(t2_element_offset);
    TL_RUN(t3_size_and_last_element);
    TL_RUN(t4_dim_pitches);
    TL_RUN(six_d_flag_and_collapse);
    TL_RUN(offsets_match_formula_random);
    TL_RUN(buf_size_sets_the_size);
    TL_RUN(t5_dequantize);
    TL_RUN(t6_quantize_truncates);
    TL_RUN(t7_quantize_saturates);
    TL_RUN(zero_point_and_float);
    TL_RUN(canonical_spec);
    TL_RUN(spec_roundtrip);
    TL_RUN(spec_defaults);
    TL_RUN(buffer_roundtrip_random);
    TL_RUN(buffer_errors);
    TL_RUN(spec_errors);
    TL_RUN(shared_padding_rows);
    TL_RUN(warnings_nhwc_and_bad_buffers);
    TL_RUN(nhwc_dense);
    TL_RUN(from_desc);
    TL_RUN(element_type_names);
    TL_RUN(zero_padding_random);
    TL_RUN(zero_padding_covers_fill_padding);
    TL_RUN(zero_padding_errors);
    TL_RUN(dequantize_padded_i16_to_dense_f32);
    TL_RUN(quantize_f32_into_padded_u8);
    TL_RUN(json_extra_and_explain);
    return tl_test_finish();
}
