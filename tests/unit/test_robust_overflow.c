/* Sizes near the limits: dims, strides, paddings and offsets near INT64_MAX give
 * specific errors (never wrapped arithmetic: the ASan+UBSan and fuzz stages run
 * this too), huge but valid descriptors are refused for small buffers without a
 * byte written, and on 32-bit targets (armv7 under qemu) 64-bit sizes beyond
 * SIZE_MAX are clean errors, not truncated lengths. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test.h"

#define SENTINEL 0xC3
#define I64MAX "9223372036854775807"

static int all_bytes(const void *p, size_t n, uint8_t v)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v) return 0;
    return 1;
}

/* ---- spec strings ------------------------------------------------------- */
typedef struct spec_case {
    const char *spec;
    tl_status want; /* TL_OK: valid, but far too large for any buffer here */
} spec_case;

static const spec_case spec_cases[] = {
    {"NCHW:u8:1x1x1x" I64MAX, TL_ERR_OVERFLOW},                 /* 8 * dim bits */
    {"NCHW:i4:1x1x1x" I64MAX, TL_ERR_OVERFLOW},
    {"NCHW:u8:1x1x1x1152921504606846975", TL_OK},                /* 2^60 - 1 bytes */
    {"NCHW:u8:3037000500x3037000500x1x1", TL_ERR_OVERFLOW},      /* product > 2^63 */
    {"abcdefghijkl:u8:64x64x64x64x64x64x64x64x64x64x64x64", TL_ERR_OVERFLOW},
    {"NCHW16c:f32:1x" I64MAX "x1x1", TL_ERR_OVERFLOW},           /* C rounded up to 16 */
    {"NCHW16c:f32:1x9223372036854775800x1x1", TL_ERR_OVERFLOW},
    {"NCHW:u8:1x1x1x1:pad=0,0,0," I64MAX ",0,0,0,0", TL_ERR_OVERFLOW},
    {"NCHW:u8:1x1x1x1:pad=0,0,0,0,0,0,0," I64MAX, TL_ERR_OVERFLOW},
    {"NCHW:u8:1x1x1x2:pad=0,0,0,4611686018427387904,0,0,0,4611686018427387904", TL_ERR_OVERFLOW},
    {"NCHW:u8:1x1x1x1:pad=0,0,0,-1,0,0,0,0", TL_ERR_PAD},
    {"NCHW:f32:2x1x1x1:strides=2305843009213693952,1,1,1", TL_ERR_OVERFLOW}, /* x 32 bits */
    {"NCHW:f32:2x1x1x1:strides=288230376151711744,1,1,1", TL_ERR_OVERFLOW},  /* = 2^63 bits */
    {"NCHW:f32:2x1x1x1:strides=144115188075855872,1,1,1", TL_OK},            /* 2^59 + 4 bytes */
    {"NCHW:f32:3x1x1x1:strides=144115188075855872,1,1,1", TL_ERR_OVERFLOW},  /* 2 x 2^62 bits */
    {"NCHW:f32:2x1x1x1:strides=" I64MAX ",1,1,1", TL_ERR_OVERFLOW},
    {"NCHW:f32:2x1x1x1:strides=-1,1,1,1", TL_ERR_STRIDE},
    {"NHWC:u8:1x2x2x3:align=0,0,4611686018427387904,0", TL_ERR_OVERFLOW},
    {"NHWC:u8:1x2x2x3:align=" I64MAX ",0,0,0", TL_ERR_OVERFLOW},
    {"NCHW:f32:1x1x1x1:offset=" I64MAX, TL_ERR_OVERFLOW},         /* offset x 8 bits */
    {"NCHW:f32:1x1x1x1:offset=1152921504606846968", TL_OK},       /* offset x 8 + 39 bits just fits */
    {"NCHW:f32:1x1x1x1:size=" I64MAX, TL_OK},
    {"NCHW:f32:1x1x1x1:size=-1", TL_ERR_SIZE},
    {"NCHW:f32:1x1x1x9223372036854775808", TL_ERR_SPEC_VALUE},   /* not an int64 */
    {"NCHW:f32:1x1x1x-9223372036854775808", TL_ERR_DIM},
};

/* A valid, huge descriptor: every call that takes buffers refuses lengths
 * below its size and touches nothing. */
static void check_huge_valid(const tl_desc *d, const char *what)
{
    uint8_t src[64], dst[64];
    tl_desc small;
    memset(src, 0x11, sizeof src);
    memset(dst, SENTINEL, sizeof dst);
    CHECK(d->size_bytes > (int64_t)sizeof dst);
    tl_status s = tl_convert(d, src, sizeof src, d, dst, sizeof dst);
    if (s != TL_ERR_BUFFER_SMALL) FAILF("%s: convert with 64-byte buffers: %s", what, tl_status_str(s));
    s = tl_fill_padding(d, dst, sizeof dst, 0);
    if (s != TL_ERR_BUFFER_SMALL) FAILF("%s: fill_padding into 64 bytes: %s", what, tl_status_str(s));
    tl_plan *plan = NULL;
    s = tl_plan_create(&plan, d, d, 0);
    if (s == TL_OK) { /* a plan must not allocate in proportion to the tensor */
        s = tl_plan_run(plan, src, sizeof src, dst, sizeof dst);
        if (s != TL_ERR_BUFFER_SMALL) FAILF("%s: plan run with 64-byte buffers: %s", what, tl_status_str(s));
        s = tl_plan_run_part(plan, 0, 3, src, sizeof src, dst, sizeof dst);
        if (s != TL_ERR_BUFFER_SMALL) FAILF("%s: plan part with 64-byte buffers: %s", what, tl_status_str(s));
        tl_plan_destroy(plan);
    } else if (tl_last_error()[0] == '\0') {
        FAILF("%s: tl_plan_create failed (%s) without a message", what, tl_status_str(s));
    }
    /* the largest coordinate still addresses inside the size */
    int64_t x[TL_MAX_DIMS];
    for (int i = 0; i < d->rank; i++) x[i] = d->dims[i] - 1;
    uint64_t off = 0;
    CHECK_STATUS(tl_desc_offset(d, x, &off), TL_OK);
    CHECK(off < (uint64_t)d->size_bytes);
    if (!all_bytes(dst, sizeof dst, SENTINEL)) FAILF("%s: a refused call wrote the destination", what);
    /* and as a source for a small destination of other dims: a mismatch */
    const int64_t one = 1;
    REQUIRE_STATUS(tl_desc_init(&small, "W", TL_U8, &one, 1), TL_OK);
    s = tl_convert(d, src, sizeof src, &small, dst, sizeof dst);
    CHECK(s != TL_OK);
    CHECK(all_bytes(dst, sizeof dst, SENTINEL));
}

TL_TEST(specs_near_int64_limits)
{
    for (size_t i = 0; i < sizeof spec_cases / sizeof spec_cases[0]; i++) {
        const spec_case *c = &spec_cases[i];
        tl_desc d;
        memset(&d, SENTINEL, sizeof d);
        tl_status s = tl_desc_parse(&d, c->spec);
        if (s != c->want) {
            FAILF("'%s': %s (%s), expected %s", c->spec, tl_status_str(s), tl_last_error(),
                  tl_status_str(c->want));
            continue;
        }
        if (s != TL_OK) {
            if (tl_last_error()[0] == '\0') FAILF("'%s': no message", c->spec);
            if (!all_bytes(&d, sizeof d, SENTINEL)) FAILF("'%s': rejected, but *out written", c->spec);
            continue;
        }
        check_huge_valid(&d, c->spec);
    }
}

/* ---- descriptors built by hand ------------------------------------------ */
/* A dense u8 row of n elements, one axis. */
static void row(tl_desc *d, int64_t n)
{
    memset(d, 0, sizeof *d);
    d->rank = 1;
    d->dtype = TL_U8;
    d->dims[0] = n;
    d->plane_dim = -1;
    d->nplanes = 1;
    d->planes[0].naxes = 1;
    d->planes[0].axes[0] = (tl_axis){.dim = 0, .block = 1, .extent = n, .stride_bits = 8};
    d->size_bytes = n;
}

typedef void (*mutate_fn)(tl_desc *d);
typedef struct desc_case {
    const char *what;
    mutate_fn mutate;
    tl_status want;
} desc_case;

static void m_dim_max(tl_desc *d) { d->dims[0] = INT64_MAX; d->planes[0].axes[0].extent = INT64_MAX; d->size_bytes = INT64_MAX; }
static void m_pad_wrap(tl_desc *d) { d->pad_hi[0] = INT64_MAX - 5; }
static void m_pad_lo_wrap(tl_desc *d) { d->pad_lo[0] = INT64_MAX; d->pad_hi[0] = INT64_MAX; }
static void m_stride_max(tl_desc *d) { d->planes[0].axes[0].stride_bits = INT64_MAX - 7; }
static void m_stride_odd(tl_desc *d) { d->planes[0].axes[0].stride_bits = INT64_MAX; }
static void m_offset_max(tl_desc *d) { d->planes[0].offset_bytes = INT64_MAX / 4; d->size_bytes = INT64_MAX; }
static void m_size_min(tl_desc *d) { d->size_bytes = INT64_MIN; }
static void m_extent_max(tl_desc *d) { d->planes[0].axes[0].extent = INT64_MAX; }
static void m_block_max(tl_desc *d) /* a block axis whose block*extent wraps */
{
    tl_plane *p = &d->planes[0];
    p->naxes = 2;
    p->axes[0] = (tl_axis){.dim = 0, .block = INT64_MAX / 2 + 1, .extent = 4, .stride_bits = 64};
    p->axes[1] = (tl_axis){.dim = 0, .block = 1, .extent = INT64_MAX / 2 + 1, .stride_bits = 8};
}
static void m_subsampled_max(tl_desc *d) /* subsampled: outer extent is cdiv(P, block) */
{
    d->dims[0] = INT64_MAX - 1;
    d->planes[0].axes[0] = (tl_axis){.dim = 0, .block = INT64_MAX, .extent = 1, .stride_bits = 8};
    d->size_bytes = 1;
}
static void m_subsampled_big(tl_desc *d)
{
    d->dims[0] = INT64_MAX - 200;
    d->pad_hi[0] = 100;
    d->planes[0].axes[0] = (tl_axis){.dim = 0, .block = INT64_MAX - 1, .extent = 2, .stride_bits = 8};
}
static void m_planes_wrap(tl_desc *d) /* two planes whose first + count wraps */
{
    d->dims[0] = 4;
    d->planes[0].axes[0].extent = 2;
    d->planes[0].count = 2;
    d->nplanes = 2;
    d->plane_dim = 0;
    d->planes[1] = d->planes[0];
    d->planes[1].first = 2;
    d->planes[1].count = INT64_MAX;
    d->planes[1].offset_bytes = 2;
    d->size_bytes = 4;
}
static void m_planes_offset(tl_desc *d)
{
    m_planes_wrap(d);
    d->planes[1].count = 2;
    d->planes[1].offset_bytes = INT64_MAX - 1;
    d->size_bytes = INT64_MAX;
}
static void m_rank_big(tl_desc *d) { d->rank = INT32_MAX; }
static void m_rank_neg(tl_desc *d) { d->rank = INT32_MIN; }
static void m_naxes_big(tl_desc *d) { d->planes[0].naxes = INT32_MAX; }
static void m_nplanes_neg(tl_desc *d) { d->nplanes = INT32_MIN; }
static void m_axis_dim(tl_desc *d) { d->planes[0].axes[0].dim = INT32_MIN; }
static void m_dtype(tl_desc *d) { d->dtype = INT32_MAX; }

static const desc_case desc_cases[] = {
    {"dim INT64_MAX (bits overflow)", m_dim_max, TL_ERR_OVERFLOW},
    {"pad_hi wraps the padded extent", m_pad_wrap, TL_ERR_OVERFLOW},
    {"pad_lo and pad_hi INT64_MAX", m_pad_lo_wrap, TL_ERR_OVERFLOW},
    {"stride near INT64_MAX", m_stride_max, TL_ERR_OVERFLOW},
    {"stride INT64_MAX (not whole bytes)", m_stride_odd, TL_ERR_STRIDE},
    {"plane offset x 8 overflows", m_offset_max, TL_ERR_OVERFLOW},
    {"size INT64_MIN", m_size_min, TL_ERR_SIZE},
    {"extent INT64_MAX != dim", m_extent_max, TL_ERR_AXIS},
    {"block x extent wraps", m_block_max, TL_ERR_AXIS},
    {"subsampled block INT64_MAX", m_subsampled_max, TL_OK},
    {"subsampled extent cdiv near INT64_MAX", m_subsampled_big, TL_ERR_AXIS},
    {"plane first + count wraps", m_planes_wrap, TL_ERR_PLANE},
    {"plane offset near INT64_MAX", m_planes_offset, TL_ERR_OVERFLOW},
    {"rank INT32_MAX", m_rank_big, TL_ERR_RANK},
    {"rank INT32_MIN", m_rank_neg, TL_ERR_RANK},
    {"naxes INT32_MAX", m_naxes_big, TL_ERR_AXIS},
    {"nplanes INT32_MIN", m_nplanes_neg, TL_ERR_PLANE},
    {"axis dim INT32_MIN", m_axis_dim, TL_ERR_AXIS},
    {"dtype INT32_MAX", m_dtype, TL_ERR_DTYPE},
};

TL_TEST(descriptors_near_limits)
{
    for (size_t i = 0; i < sizeof desc_cases / sizeof desc_cases[0]; i++) {
        const desc_case *c = &desc_cases[i];
        tl_desc d;
        row(&d, 6);
        c->mutate(&d);
        tl_status s = tl_desc_validate(&d);
        if (s != c->want) {
            FAILF("%s: validate %s (%s), expected %s", c->what, tl_status_str(s), tl_last_error(),
                  tl_status_str(c->want));
            continue;
        }
        uint8_t src[64] = {0}, dst[64];
        memset(dst, SENTINEL, sizeof dst);
        tl_desc other;
        row(&other, 6);
        if (s != TL_OK) {
            if (tl_last_error()[0] == '\0') FAILF("%s: no message", c->what);
            CHECK_STATUS(tl_convert(&other, src, sizeof src, &d, dst, sizeof dst), c->want);
            CHECK_STATUS(tl_convert(&d, src, sizeof src, &other, dst, sizeof dst), c->want);
            CHECK_STATUS(tl_fill_padding(&d, dst, sizeof dst, 0), c->want);
            uint64_t off = 99;
            int64_t x[TL_MAX_DIMS] = {0};
            CHECK_STATUS(tl_desc_offset(&d, x, &off), c->want);
            CHECK_EQ_I64(off, 99);
            if (!all_bytes(dst, sizeof dst, SENTINEL)) FAILF("%s: destination written", c->what);
        } else {
            int64_t x[TL_MAX_DIMS] = {0};
            uint64_t off = 0;
            x[0] = d.dims[0] - 1;
            CHECK_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
            CHECK(off < (uint64_t)d.size_bytes);
        }
    }
}

TL_TEST(coordinates_near_limits)
{
    tl_desc d;
    const int64_t dims[4] = {2, 3, 4, 5};
    REQUIRE_STATUS(tl_desc_init(&d, "NCHW16c", TL_F32, dims, 4), TL_OK);
    const int64_t bad[] = {INT64_MAX, INT64_MIN, -1, 5, INT64_MAX - 1, INT64_MIN + 1};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (int i = 0; i < 4; i++) {
            int64_t x[4] = {0, 0, 0, 0};
            uint64_t off = 7;
            x[i] = bad[k] == 5 ? dims[i] : bad[k];
            CHECK_STATUS(tl_desc_offset(&d, x, &off), TL_ERR_COORD);
            CHECK_EQ_I64(off, 7);
            CHECK_STATUS(tl_desc_offset_bits(&d, x, &off), TL_ERR_COORD);
        }
}

/* Builders with extreme arguments: an error with a message, never wrapped
 * arithmetic (UBSan would stop the ASan stage). */
TL_TEST(builders_near_limits)
{
    tl_desc d;
    const int64_t huge[2] = {INT64_MAX, INT64_MAX}, big[2] = {INT64_MAX / 2, 3};
    const int64_t str[2] = {INT64_MAX / 8, 1}, one[2] = {1, 1};
    CHECK(tl_desc_init(&d, "HW", TL_U8, huge, 2) != TL_OK);
    CHECK(tl_desc_init(&d, "HW", TL_U8, big, 2) != TL_OK);
    CHECK(tl_desc_init(&d, "HW16w", TL_U8, huge, 2) != TL_OK);
    CHECK(tl_desc_init_strided(&d, TL_F64, huge, one, 2) != TL_OK);
    CHECK(tl_desc_init_strided(&d, TL_F64, big, str, 2) != TL_OK);
    const tl_yuv_kind kinds[3] = {TL_YUV_NV12, TL_YUV_NV21, TL_YUV_I420};
    for (int k = 0; k < 3; k++) {
        CHECK(tl_desc_init_yuv420(&d, kinds[k], INT64_MAX, INT64_MAX, 0, 0) != TL_OK);
        CHECK(tl_desc_init_yuv420(&d, kinds[k], 4, INT64_MAX, 0, 0) != TL_OK);
        CHECK(tl_desc_init_yuv420(&d, kinds[k], INT64_MAX, 4, 0, 0) != TL_OK);
        CHECK(tl_desc_init_yuv420(&d, kinds[k], 4, 4, INT64_MAX, 0) != TL_OK);
        CHECK(tl_desc_init_yuv420(&d, kinds[k], 4, 4, 0, INT64_MAX) != TL_OK);
    }
    const int64_t dims[2] = {3, 4}, lo[2] = {0, INT64_MAX}, hi[2] = {0, 1};
    REQUIRE_STATUS(tl_desc_init(&d, "HW", TL_U8, dims, 2), TL_OK);
    CHECK_STATUS(tl_desc_set_padding(&d, lo, hi), TL_ERR_OVERFLOW);
}

/* ---- size_t on 32-bit targets ------------------------------------------- */
/* 2^32 + 16 bytes: a length truncated to 32 bits would read as 16 and pass a
 * 64-byte buffer. It must not, on any target. */
TL_TEST(size_just_above_4gib)
{
    tl_desc d;
    const int64_t n = (INT64_C(1) << 32) + 16;
    REQUIRE_STATUS(tl_desc_init(&d, "W", TL_U8, &n, 1), TL_OK);
    CHECK_EQ_I64(d.size_bytes, n);
    check_huge_valid(&d, "W:u8:4294967312");
    uint64_t bytes = 0;
    CHECK_STATUS(tl_desc_size(&d, &bytes), TL_OK);
    CHECK(bytes == (uint64_t)n);
}

/* Where size_t is 32 bits, even SIZE_MAX is below a 2^33-byte size: the
 * library must say so (BUFFER_SMALL), whatever length it is handed. */
TL_TEST(sizes_beyond_size_max)
{
    tl_desc d;
    const int64_t n = INT64_C(1) << 33;
    REQUIRE_STATUS(tl_desc_init(&d, "W", TL_U8, &n, 1), TL_OK);
    if ((uint64_t)SIZE_MAX >= (uint64_t)n) {
        printf("     (64-bit size_t: SIZE_MAX holds 2^33; only the 2^32+16 case applies)\n");
        return;
    }
    uint8_t src[64] = {0}, dst[64];
    memset(dst, SENTINEL, sizeof dst);
    CHECK_STATUS(tl_convert(&d, src, SIZE_MAX, &d, dst, SIZE_MAX), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "8589934592");
    CHECK_STATUS(tl_convert_reference(&d, src, SIZE_MAX, &d, dst, SIZE_MAX, 0), TL_ERR_BUFFER_SMALL);
    CHECK_STATUS(tl_fill_padding(&d, dst, SIZE_MAX, 0), TL_ERR_BUFFER_SMALL);
    tl_plan *plan = NULL;
    if (tl_plan_create(&plan, &d, &d, 0) == TL_OK) {
        CHECK_STATUS(tl_plan_run(plan, src, SIZE_MAX, dst, SIZE_MAX), TL_ERR_BUFFER_SMALL);
        tl_plan_destroy(plan);
    }
    CHECK(all_bytes(dst, sizeof dst, SENTINEL));
    char text[8];
    CHECK_STATUS(tl_desc_format(&d, text, 0), TL_ERR_BUFFER_SMALL);
}

/* Vendor specs with one number pushed to the limits: each is a clean error, or
 * valid and then refused for small buffers (check_huge_valid). */
static const char *const vendor_templates[] = {
    "larod.nchw:f32:1x3x%sx4", "larod.nhwc:u8:1x%sx300x3:align=0,0,32,4",
    "larod.420sp:u8:3x%sx300", "larod.nhwc:u8:1x2x2x3:pitches=%s,24,12,3",
    "tidl:i16:1x3x%sx10:pad=1,1,1,1:scale=25", "tidl:u8:1x3x4x10:pad=1,1,%s,1:scale=1",
    "tidl:u8:1x3x4x10:cp=%s:scale=1", "dml:f32:1x3x%sx4", "dml:f32:1x3x4x4:strides=%s,0,0,1",
    "rknn.nc1hwc2:i8:1x1x%sx4x16:c=3", "rknn.nhwc:u8:1x4x4x3:wstride=%s",
    "rknn.nchw:u8:1x3x4x4:hstride=%s", "trt.chw32:i8:1x3x%sx5", "trt.hwc8:f16:1x%sx2x5",
    "trt.dla_hwc4:i8:1x3x2x%s", "yuv.nv12:u8:3x%sx8", "yuv.i420:u8:3x6x8:pitch=%s",
};
static const char *const limit_values[] = {
    I64MAX, "9223372036854775806", "4611686018427387904", "2305843009213693952",
    "4294967296", "4294967295", "2147483648", "2147483647", "-1", "0",
};

TL_TEST(vendor_specs_near_limits)
{
    for (size_t t = 0; t < sizeof vendor_templates / sizeof vendor_templates[0]; t++)
        for (size_t v = 0; v < sizeof limit_values / sizeof limit_values[0]; v++) {
            char spec[256];
            snprintf(spec, sizeof spec, vendor_templates[t], limit_values[v]);
            tl_desc d;
            memset(&d, SENTINEL, sizeof d);
            tl_status s = tl_desc_parse(&d, spec);
            if (s != TL_OK) {
                if (tl_last_error()[0] == '\0') FAILF("'%s': %s without a message", spec, tl_status_str(s));
                if (!all_bytes(&d, sizeof d, SENTINEL)) FAILF("'%s': rejected, but *out written", spec);
                continue;
            }
            CHECK_STATUS(tl_desc_validate(&d), TL_OK);
            if (d.size_bytes > 64) check_huge_valid(&d, spec);
        }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(specs_near_int64_limits);
    TL_RUN(descriptors_near_limits);
    TL_RUN(coordinates_near_limits);
    TL_RUN(builders_near_limits);
    TL_RUN(size_just_above_4gib);
    TL_RUN(sizes_beyond_size_max);
    TL_RUN(vendor_specs_near_limits);
    return tl_test_finish();
}
