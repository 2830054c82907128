/* The bad-input destination harness: whatever is wrong with a call, the
 * destination comes back byte-identical (the API's rule: "nothing is written to a
 * destination unless the whole call is valid").
 *
 *  - every spec string the project's tests know to be invalid (gathered from each
 *    vendor's tests into the table below) is rejected with a message, leaves the
 *    output descriptor untouched, and that untouched descriptor is refused by
 *    every converter without a byte written;
 *  - valid descriptors of every vendor, each broken one field at a time (about 30
 *    ways), are refused by every entry point that validates, with the status
 *    tl_desc_validate gives, destination untouched;
 *  - valid descriptors in invalid calls (mismatched dims, short buffers, NULLs,
 *    read-only or byte-pitched destinations, bad plan parts) write nothing.
 * Destinations are exact heap blocks with guard bytes after them, pre-filled
 * with a sentinel. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test.h"

#define SENTINEL 0xB7
#define GUARD 64

/* Invalid specs from the vendors' own tests (each test asserts its status and
 * message; here only: rejected, with a message, nothing written). */
static const char *const bad_specs[] = {
    /* test_desc.c */
    "yuv.nv12:u8:3x5x7:pitch=7", "NCHW:f32:1x0x3x3", "NCHW:f32:1x-3x3x3", "NCHW:f32:1x3x3",
    "LAYOUT:DTYPE:DIMS", "NCHW:f33:1x3x3x3", "NCHW:f32:1x3xx3", "NCHW:f32:1x3x3xA",
    "NCHW:f32:99999999999999999999x1x1x1", "NCHN:f32:1x3x3x3", "NHW16c:f32:1x3x3",
    "NCHW16c8c:f32:1x3x3x3", "NCHW0c:f32:1x3x3x3", "NCHW1c:f32:1x3x3x3", "NCHW16C:f32:1x3x3x3",
    "nChw:f32:1x3x3x3", "nchw16c:f32:1x3x3x3", "abce:f32:1x3x3x3", "nqhw:f32:1x3x3x3",
    "ABCDEFGHIJKLM:f32:1x1x1x1x1x1x1x1x1x1x1x1x1", "foo.bar:f32:1", "NCHW:f32:1x3x3x3:foo=1",
    "NCHW:f32:1x3x3x3:pad=1,1", "NCHW:f32:1x3x3x3:pad=0,0,0,0,0,0,0,-1",
    "NCHW:f32:1x3x3x3:pad=1,1,1,1,1,1,1,1:pad=0,0,0,0,0,0,0,0", "NCHW:f32:1x3x3x3:strides=1,1,1",
    "NCHW:f32:1x3x3x3:strides=27,9,3,-1", "NCHW:f32:1x3x3x3:strides=1,1,1,1",
    "NCHW:f32:1x3x3x3:strides=27,9,3,1:align=1,1,1,1", "NCHW:f32:1x3x3x3:size=10",
    "NCHW:f32:1x3x3x3:offset=-4", "NCHW:f32:3037000500x3037000500x3x3",
    "NCHW:f32:1x1x1x1:strides=4611686018427387904,1,1,1",
    "NCHW:f32:1x1x1x2:pad=0,0,0,0,0,0,0,9223372036854775807", "NCHW:i8:1x1x1x1:scale=0",
    "NCHW:i8:1x1x1x1:scale=-0.5", "NCHW:i8:1x1x1x1:scale=abc", "NCHW:i8:1x1x1x1:zp=3",
    "NCHW:i8:1x1x1x1:zp=99999999999", "NCHW:i8:1x1x1x1:q=dfp:fl=300",
    "NCHW:i8:1x1x1x1:q=dfp:fl=2:zp=1", "NCHW:i8:1x1x1x1:q=wavelet", "NCHW:i8:1x1x1x1:round=up",
    "NCHW:f32:1x1x1x1:scale=0.5", "NCHW:f32:1x1x1x1:labels=NCH", "abcd:f32:1x1x1x1:labels=NNHW",
    "NCHW:f32:1x1x1x1:readonly=2", "NCHW:f32:1x1x1x1:=3", "NCHW:f32:1x1x1x1:pad",
    "yuv.nv12:u8:3x4x5:pitch=4", "yuv.nv12:f32:3x4x4", "yuv.nv16:u8:3x4x4",
    "yuv.nv12:u8:3x4x4:chroma=8",
    /* test_dml.c */
    "dml:f32:1x0x2x2", "dml.xyz:f32:1x3x4x4", "dml:bf16:1x3x4x4", "dml:bool:4",
    "dml:f32:1x2x1x2x1x2x1x2x1", "dml:u8:4294967296", "dml:u8:65536x65536", "dml:f32:2x2:strides=1",
    "dml:f32:2x2:strides=-1,1", "dml:f32:2x2:strides=4294967296,1", "dml:f32:2x2:broadcast=1,0",
    "dml.nchw:f32:2x2:strides=2,1", "dml.nhwc:f32:1x2x2x2:strides=4,1,4,2",
    "dml.nchw:f32:2x2:broadcast=2,0", "dml.nchw:f32:2x2:broadcast=1", "dml.nhwc:f32:1x2x1x2x1x2x1x2x1",
    "dml:f16:1x1x1x3:total=6", "dml:f32:2x2:total=-1",
    "dml:f32:2x2:total=abc", "dml:f32:2x2:base_align=2", "dml:f32:2x2:base_align=12",
    "dml:f32:2x2:base_align=4294967296", "dml:f32:2x2:owned=2", "dml:f32:2x2:readonly=yes",
    "dml:f32:2x2:pad=0,0,1,1", "dml:f32:2x2:align=0,0",
    "dml:f64:2x2x2x2x2x2x2x2:strides=4294967295,4294967295,4294967295,4294967295,4294967295,4294967295,",
    /* test_larod.c */
    "larod.nhcw:u8:1x2x3x4", "larod:u8:1x2x3x4", "larod.nhwc:bf16:1x2x3x4", "larod.nhwc:u4:1x2x3x4",
    "larod.nhwc:u8:2x3x4", "larod.unspecified:u8:1x1x1x1x1x1x1x1x1x1x1x1x1",
    "larod.nhwc:u8:1x2x3x4:align=0,0,4", "larod.420sp:u8:3x4x4:align=32",
    "larod.nhwc:u8:1x2x3x4:align=0,0,-4,0", "larod.nhwc:u8:1x2x3x4:pitches=24,24,12",
    "larod.nhwc:u8:1x2x3x4:pitches=24,24,12,-4",
    "larod.nhwc:u8:1x2x3x4:pitches=24,24,12,4:align=0,0,0,0",
    "larod.nchw:f32:1x1x2x3:pitches=24,24,12,8",
    "larod.420sp:u8:3x361x640:pitches=346560,231040,640", "larod.420sp:u8:2x4x4",
    "larod.420sp:i8:3x4x4", "larod.nhwc:u8:1x2x3x4:size=100",
    /* test_rknn.c */
    "rknn.nhwc:u8:1x100x100x3:wstride=104:platform=rk3588", "rknn.nc1hwc2:i8:1x6x80x80x16",
    "rknn.nc1hwc2:i8:1x84x80x80:c=84", "rknn.nc1hwc2:i8:1x84x80x80",
    "rknn.nc1hwc2:i8:1x84x80x80:c2=0", "rknn.nc1hwc2:f32:1x84x80x80:platform=rk3588",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:c2=16", "rknn.nc1hwc2:i8:84x80x80:c=84",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=85:x=1", "rknn.nc1hwc2:i8:1x6x80x80x16:c=100",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=0", "rknn.nc1hwc2:i8:1x6x80x80x16:c=zz",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:platform=rk3566",
    "rknn.nc1hwc2:f16:1x6x80x80x16:c=84:platform=rk3588",
    "rknn.nc1hwc2:f32:1x6x80x80x16:c=84:platform=rk3588",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:platform=rk9999",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:wstride=79", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:wstride=0",
    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:hstride=80", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:size=1000",
    "rknn.nc1hwc2:f64:1x6x80x80x16:c=84", "rknn.nhwc:u8:1x4x5x3:wstride=4",
    "rknn.nhwc:u8:1x4x5x3:hstride=3", "rknn.nchw:u8:1x4x5:wstride=8",
    "rknn.undefined:u8:1x4x5x6:platform=rk3588", "rknn.nc2hwc1:u8:1x4x5x6", "rknn:u8:1x4x5x6",
    "rknn.nchw:u4:1x4x5x6",
    /* test_tidl.c */
    "tidl:f16:1x3x4x4", "tidl:bool:1x3x4x4", "tidl:u8:1x3x4", "tidl:u8:1x1x3x4x4",
    "tidl.nchw:u8:1x3x4x4", "tidl:u8:1x3x4x4:pad=1,1,1", "tidl:u8:1x3x4x4:pad=1,1,1,x",
    "tidl:u8:1x3x4x4:pad=1,1,1,3000000000", "tidl:u8:1x3x4x4:pad=-1,0,0,0",
    "tidl:u8:1x3x4x4:padch=-1", "tidl:u8:1x3x4x4:cp=9999999999", "tidl:u8:1x3x4x4:cp=-5",
    "tidl:u8:1x3x4x4:cp=12", "tidl:u8:1x3x4x4:bufsize=47", "tidl:u8:1x3x4x4:layout=chw",
    "tidl:u8:1x3x4x4:layout=nhwc:cp=16", "tidl:u8:1x3x4x4:layout=nhwc:pad=0,1,0,0",
    "tidl:u8:1x3x4x3000000000", "tidl:u8:1x3x4x4:scale=0", "tidl:f32:1x3x4x4:scale=2",
    "tidl:u8:1x3x4x4:c2=16",
    /* test_trt_errors.c */
    "trt:f16:1x3x4x5", "trt.chw64:f16:1x3x4x5", "trt.chw16:i8:1x3x4x5", "trt.hwc8:f32:1x3x4x5",
    "trt.hwc:i8:1x3x4x5", "trt.dhwc:f16:1x3x2x4x5", "trt.chw32:i4:1x3x4x5", "trt.linear:u16:4",
    "trt.linear:f64:4", "trt.chw32:i8:4x4", "trt.dhwc8:f16:3x4x5",
    "trt.linear:f32:1x1x1x1x1x1x1x1x1", "trt.dla_hwc4:i8:1x2x4x4",
    "trt.dla_hwc4:i8:1x3x4x4:dla=output", "trt.hwc8:f16:1x3x4x4:dla=input",
    "trt.linear:f16:1x3x4x4:dla=output", "trt.chw4:i8:1x3x2x16:dla=output",
    "trt.chw32:f16:1x3x4x4:dla=input", "trt.chw16:f16:1x9000x4x4:dla=input",
    "trt.dla_linear:i8:1x3x4x8193", "trt.dla_hwc4:f16:1x3x8200x4",
    "trt.chw32:i8:4097x3x4x4:dla=input", "trt.chw32:i8:64x65x3x4x4:dla=output",
    "trt.chw4:i8:1x5x2x16:dla=input", "trt.chw4:i8:1x3x2x5:dla=input",
    "trt.chw4:i8:1x3x2x5:dla=input:gen=xavier", "trt.chw32:i8:1x3x4x4:gen=xavier",
    "trt.chw32:i8:1x3x4x4:gen=orin", "trt.dla_hwc4:i8:1x3x4x4:gen=pascal",
    "trt.chw32:i8:1x3x4x4:dla=yes", "trt.hwc8:f16:1x3x4x5:strides=20,1,5",
    "trt.hwc8:f16:1x3x4x5:strides=20,1,-5,1", "trt.hwc8:f16:1x3x4x5:strides=20,1,0,1",
    "trt.linear:f32:1x3x4x5:strides=60,20,4,2",
    "trt.dla_linear:i8:1x3x4x300:strides=3720,1240,310,1",
    "trt.dla_hwc4:i8:1x3x2x5:strides=128,1,32,2", "trt.dla_hwc4:i8:1x3x2x5:strides=48,1,24,1",
    "trt.linear:u8:2x3:strides=576460752303423488,1",
    "trt.linear:f32:2x3:strides=576460752303423488,1", "trt.chw32:i8:1x3x4x4:zp=3",
    "trt.chw32:i8:1x3x4x4:scale=0.5:zp=-1", "trt.chw32:i8:1x3x4x4:q=inv:scale=2",
    "trt.chw32:i8:1x3x4x4:fl=3", "trt.chw32:i8:1x3x4x4:scale=1:round=away",
    "trt.chw32:f16:1x3x4x4:scale=1", "trt.hwc:u8:1x3x4x4:q=affine:scale=1",
    "trt.chw32:i8:1x3x4x4:zp=x", "trt.chw32:i8:1x3x4x4:foo=1",
    /* found by fuzzing (tests/fuzz) and the overflow tests */
    "yuv.nv12:u8:3x4x9223372036854775807", "yuv.i420:u8:3x9223372036854775807x4",
    "NCHW16c:f32:1x9223372036854775800x1x1", "NCHW:u8:1x1x1x9223372036854775807",
};

/* Valid specs of every layout family (dims small enough for real buffers). */
static const char *const good_specs[] = {
    "NCHW:f32:1x3x4x5", "NCHW16c:f16:1x20x2x3", "nChw16c:f32:1x20x2x3", "aBcd16b:u8:1x20x2x3",
    "NHWC8c:bf16:2x3x5x17", "NCDHW32c:i8:1x40x2x3x3", "NCHW16c2h:f32:1x20x4x3", "acdb:u8:1x3x4x5",
    "NCHW:u4:1x3x3x5", "XY:i4:3x5:pad=1,0,0,1", "NCHW2c:f16:3x3x3x3:pad=0,1,0,0,0,2,0,0",
    "HW:i16:2x2:scale=25:q=inv:round=zero", "NC:bool:2x3", "NC:i64:2x3", "HW:f64:3x3:strides=8,1",
    "NCHW:i8:1x16x8x8:q=dfp:fl=5", "NCHW:i8:1x3x4x10:scale=0.1:zp=-3",
    "abcd:f32:2x3x4x5:labels=NC-W", "NCHW:f32:2x3x4x5:strides=64,20,5,1:offset=8:size=1000",
    "yuv.nv12:u8:3x6x8", "yuv.nv21:u8:3x5x7:pitch=8", "yuv.i420:u8:3x5x7:chroma=100",
    "larod.nhwc:u8:1x224x300x3:align=0,0,32,4", "larod.420sp:u8:3x224x300:pitches=107520,71680,320",
    "larod.nchw:u8:1x3x2x2:align=1,1,1,1:zp=5:scale=2", "larod.nhwc:bool:1x2x2x1",
    "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=72:scale=25", "tidl:i8:1x1x1x1:scale=25",
    "tidl:u8:1x3x4x10:pad=1,1,1,1:bufsize=216:q=inv:scale=1:round=zero",
    "dml:f32:2x2", "dml.nhwc:f16:2x3x5", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039",
    "rknn.nhwc:i8:3x4x5x3:wstride=16:hstride=6:zp=-128:scale=1", "rknn.undefined:f16:1x1000",
    "trt.dla_hwc4:i8:1x3x2x5:gen=orin", "trt.chw32:i8:1x3x4x5", "trt.hwc8:f16:1x3x4x5",
    "trt.linear:i4:4", "trt.dhwc8:f16:1x3x2x4x5",
};

/* Read-only descriptors: sources only. */
static const char *const readonly_specs[] = {
    "dml:f32:1x3x4x4:strides=1,0,0,0", "NCHW:f32:2x3x4x5:strides=60,20,5,1:readonly=1",
    "dml.nhwc:f16:2x3x4x5x6:broadcast=0,0,1,0,0",
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* ---- buffers ------------------------------------------------------------------ */
typedef struct buf {
    uint8_t *p;
    size_t len; /* the usable part; GUARD more bytes follow */
} buf;

static buf buf_new(size_t len)
{
    buf b = {malloc(len + GUARD), len};
    if (b.p) memset(b.p, SENTINEL, len + GUARD);
    return b;
}

static int buf_clean(const buf *b)
{
    for (size_t i = 0; i < b->len + GUARD; i++)
        if (b->p[i] != SENTINEL) return 0;
    return 1;
}

static void buf_fill(buf *b, tl_rng *r)
{
    tl_rng_bytes(r, b->p, b->len);
}

/* A dense row-major descriptor with d's dims, labels and dtype (a partner that is
 * valid whatever d's physical map is). */
static tl_status dense_like(tl_desc *out, const tl_desc *d)
{
    int64_t strides[TL_MAX_DIMS], acc = 1;
    int rank = d->rank >= 1 && d->rank <= TL_MAX_DIMS ? d->rank : 1;
    int64_t dims[TL_MAX_DIMS];
    for (int i = 0; i < rank; i++) dims[i] = d->dims[i] >= 1 && d->dims[i] <= 4096 ? d->dims[i] : 1;
    for (int i = rank - 1; i >= 0; i--) {
        strides[i] = acc;
        acc *= dims[i];
    }
    tl_dtype dt = tl_dtype_bits((tl_dtype)d->dtype) ? (tl_dtype)d->dtype : TL_U8;
    tl_status s = tl_desc_init_strided(out, dt, dims, strides, rank);
    if (s != TL_OK) return s;
    for (int i = 0; i < rank; i++) out->labels[i] = d->labels[i];
    if (tl_desc_validate(out) != TL_OK) memset(out->labels, 0, sizeof out->labels);
    return tl_desc_validate(out);
}

/* Every converter entry point with `bad` as source and as destination: the
 * status `want`, and dst untouched. `what` names the case in failures. */
static void check_refused(const tl_desc *bad, const tl_desc *partner, tl_status want, const char *what,
                          buf *src, buf *dst)
{
    tl_status got[8];
    int n = 0;
    got[n++] = tl_convert(partner, src->p, src->len, bad, dst->p, dst->len);
    got[n++] = tl_convert_ex(partner, src->p, src->len, bad, dst->p, dst->len, TL_KEEP_PADDING);
    got[n++] = tl_convert_reference(partner, src->p, src->len, bad, dst->p, dst->len, 0);
    got[n++] = tl_convert(bad, src->p, src->len, partner, dst->p, dst->len);
    got[n++] = tl_convert_reference(bad, src->p, src->len, partner, dst->p, dst->len, TL_KEEP_PADDING);
    tl_plan *plan = NULL;
    got[n++] = tl_plan_create(&plan, partner, bad, 0);
    if (got[n - 1] == TL_OK) tl_plan_destroy(plan);
    plan = NULL;
    got[n++] = tl_plan_create(&plan, bad, partner, 0);
    if (got[n - 1] == TL_OK) tl_plan_destroy(plan);
    got[n++] = tl_fill_padding(bad, dst->p, dst->len, 0x5A);
    for (int k = 0; k < n; k++)
        if (got[k] != want)
            FAILF("%s: call %d returned %s, validate says %s", what, k, tl_status_str(got[k]),
                  tl_status_str(want));
    if (!buf_clean(dst)) FAILF("%s: the destination was written", what);
}

/* ---- 1. invalid spec strings ------------------------------------------------------- */
TL_TEST(bad_specs_write_nothing)
{
    tl_rng r = tl_test_rng();
    tl_desc partner;
    const int64_t dims[4] = {1, 3, 4, 5};
    REQUIRE_STATUS(tl_desc_init(&partner, "NCHW", TL_F32, dims, 4), TL_OK);
    buf src = buf_new(4096), dst = buf_new(4096);
    REQUIRE(src.p && dst.p);
    buf_fill(&src, &r);
    for (size_t i = 0; i < N(bad_specs); i++) {
        tl_desc d;
        memset(&d, SENTINEL, sizeof d);
        tl_status s = tl_desc_parse(&d, bad_specs[i]);
        if (s == TL_OK) {
            FAILF("'%s' is accepted (the vendor test that lists it expects an error)", bad_specs[i]);
            continue;
        }
        if (tl_last_error()[0] == '\0') FAILF("'%s': %s without a message", bad_specs[i], tl_status_str(s));
        const uint8_t *b = (const uint8_t *)&d;
        for (size_t k = 0; k < sizeof d; k++)
            if (b[k] != SENTINEL) {
                FAILF("'%s': rejected, but byte %zu of *out was written", bad_specs[i], k);
                break;
            }
        /* a caller who ignores the error and converts with it anyway */
        check_refused(&d, &partner, tl_desc_validate(&d), bad_specs[i], &src, &dst);
        char text[256];
        memset(text, SENTINEL, sizeof text);
        CHECK(tl_desc_format(&d, text, sizeof text) != TL_OK);
    }
    free(src.p);
    free(dst.p);
}

/* ---- 2. valid descriptors broken one field at a time -------------------------------- */
typedef void (*breaker)(tl_desc *d);
static int last_axis(const tl_desc *d) { return d->planes[0].naxes > 0 ? d->planes[0].naxes - 1 : 0; }
static void b_rank0(tl_desc *d) { d->rank = 0; }
static void b_rank_big(tl_desc *d) { d->rank = TL_MAX_DIMS + 1; }
static void b_dim0(tl_desc *d) { d->dims[0] = 0; }
static void b_dim_neg(tl_desc *d) { d->dims[d->rank - 1] = -1; }
static void b_dim_grow(tl_desc *d) { d->dims[d->rank - 1] += 1000; }
static void b_dtype0(tl_desc *d) { d->dtype = TL_DT_INVALID; }
static void b_dtype_big(tl_desc *d) { d->dtype = TL_DT_COUNT; }
static void b_pad_neg(tl_desc *d) { d->pad_lo[0] = -1; }
static void b_pad_max(tl_desc *d) { d->pad_hi[d->rank - 1] = INT64_MAX; }
static void b_label_lower(tl_desc *d) { d->labels[0] = 'n'; }
static void b_label_dup(tl_desc *d) { if (d->rank > 1) d->labels[0] = d->labels[1] = 'Q'; else d->labels[0] = '#'; }
static void b_qkind(tl_desc *d) { d->quant.kind = 9; }
static void b_qnan(tl_desc *d) { d->quant.kind = TL_Q_AFFINE; d->quant.scale = NAN; d->quant.fl = 0; }
static void b_qneg(tl_desc *d) { d->quant.kind = TL_Q_INV; d->quant.scale = -1.0f; d->quant.fl = 0; }
static void b_round(tl_desc *d) { d->quant.round = 7; }
static void b_nplanes0(tl_desc *d) { d->nplanes = 0; }
static void b_nplanes_big(tl_desc *d) { d->nplanes = TL_MAX_PLANES + 1; }
static void b_naxes0(tl_desc *d) { d->planes[0].naxes = 0; }
static void b_naxes_big(tl_desc *d) { d->planes[0].naxes = TL_MAX_AXES + 1; }
static void b_axis_dim(tl_desc *d) { d->planes[0].axes[0].dim = d->rank; }
static void b_block0(tl_desc *d) { d->planes[0].axes[0].block = 0; }
static void b_extent0(tl_desc *d) { d->planes[0].axes[last_axis(d)].extent = 0; }
static void b_extent_grow(tl_desc *d) { d->planes[0].axes[0].extent += 1; }
static void b_stride_neg(tl_desc *d) { d->planes[0].axes[last_axis(d)].stride_bits = -8; }
static void b_stride_odd(tl_desc *d) { d->planes[0].axes[last_axis(d)].stride_bits += 1; }
static void b_stride_zero(tl_desc *d) /* a broadcast without the read-only flag */
{
    tl_plane *p = &d->planes[0];
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].extent > 1) { p->axes[a].stride_bits = 0; return; }
    d->dims[0] = -5;
}
static void b_alias(tl_desc *d) /* two axes with the same stride */
{
    tl_plane *p = &d->planes[0];
    int first = -1;
    for (int a = 0; a < p->naxes; a++) {
        if (p->axes[a].extent <= 1) continue;
        if (first < 0) first = a;
        else { p->axes[first].stride_bits = p->axes[a].stride_bits; return; }
    }
    d->rank = -1;
}
static void b_size_short(tl_desc *d) { d->size_bytes -= 1; }
static void b_size_neg(tl_desc *d) { d->size_bytes = -1; }
static void b_offset_neg(tl_desc *d) { d->planes[0].offset_bytes = -1; }
static void b_offset_huge(tl_desc *d) { d->planes[0].offset_bytes = INT64_MAX / 2; }
static void b_plane_dim(tl_desc *d) { if (d->nplanes > 1) d->plane_dim = d->rank; else { d->nplanes = 2; d->plane_dim = 0; } }

static const struct { const char *name; breaker fn; } breakers[] = {
    {"rank 0", b_rank0}, {"rank 13", b_rank_big}, {"dims[0] 0", b_dim0}, {"last dim -1", b_dim_neg},
    {"last dim + 1000", b_dim_grow}, {"dtype 0", b_dtype0}, {"dtype past the end", b_dtype_big},
    {"pad_lo -1", b_pad_neg}, {"pad_hi INT64_MAX", b_pad_max}, {"label 'n'", b_label_lower},
    {"duplicate label", b_label_dup}, {"quant kind 9", b_qkind}, {"scale NaN", b_qnan},
    {"scale -1", b_qneg}, {"round 7", b_round}, {"nplanes 0", b_nplanes0},
    {"nplanes 4", b_nplanes_big}, {"naxes 0", b_naxes0}, {"naxes 17", b_naxes_big},
    {"axis dim = rank", b_axis_dim}, {"block 0", b_block0}, {"extent 0", b_extent0},
    {"extent + 1", b_extent_grow}, {"stride -8", b_stride_neg}, {"stride + 1 bit", b_stride_odd},
    {"stride 0, writable", b_stride_zero}, {"two axes, one stride", b_alias},
    {"size - 1", b_size_short}, {"size -1", b_size_neg}, {"offset -1", b_offset_neg},
    {"offset INT64_MAX/2", b_offset_huge}, {"plane dim", b_plane_dim},
};

TL_TEST(broken_descriptors_write_nothing)
{
    tl_rng r = tl_test_rng();
    int refused = 0, tried = 0;
    for (size_t i = 0; i < N(good_specs) + N(readonly_specs); i++) {
        const char *spec = i < N(good_specs) ? good_specs[i] : readonly_specs[i - N(good_specs)];
        tl_desc good, partner;
        if (tl_desc_parse(&good, spec) != TL_OK) {
            FAILF("'%s' no longer parses: %s", spec, tl_last_error());
            continue;
        }
        REQUIRE_STATUS(dense_like(&partner, &good), TL_OK);
        size_t cap = (size_t)(good.size_bytes > partner.size_bytes ? good.size_bytes : partner.size_bytes);
        buf src = buf_new(cap), dst = buf_new(cap);
        REQUIRE(src.p && dst.p);
        buf_fill(&src, &r);
        for (size_t k = 0; k < N(breakers); k++) {
            tl_desc bad = good;
            breakers[k].fn(&bad);
            tl_status want = tl_desc_validate(&bad);
            tried++;
            if (want == TL_OK) continue; /* this field does not matter for this layout */
            refused++;
            char what[160];
            snprintf(what, sizeof what, "'%s' with %s (%s)", spec, breakers[k].name, tl_status_str(want));
            check_refused(&bad, &partner, want, what, &src, &dst);
            uint64_t off = 77;
            int64_t x[TL_MAX_DIMS] = {0};
            CHECK_STATUS(tl_desc_offset(&bad, x, &off), want);
            CHECK_EQ_I64(off, 77);
            if (good.vendor == 2 /* TL_VENDOR_TIDL */) {
                CHECK(tl_tidl_zero_padding(&bad, dst.p, dst.len) != TL_OK);
                if (!buf_clean(&dst)) FAILF("%s: tl_tidl_zero_padding wrote", what);
            }
        }
        free(src.p);
        free(dst.p);
    }
    /* most breakages must matter, or this harness tests nothing */
    CHECK(refused * 10 >= tried * 8);
    printf("     %d of %d broken descriptors refused, destinations untouched\n", refused, tried);
}

/* ---- 3. valid descriptors, invalid calls ------------------------------------------- */
static tl_status byte_pitched_f32(tl_desc *d)
{
    const int64_t dims[4] = {1, 3, 2, 2};
    tl_status s = tl_desc_init(d, "NCHW", TL_F32, dims, 4);
    if (s != TL_OK) return s;
    tl_plane *p = &d->planes[0];
    p->axes[2].stride_bits = 9 * 8; /* rows of 9 bytes: not whole f32 elements */
    p->axes[1].stride_bits = 20 * 8;
    p->axes[0].stride_bits = 60 * 8;
    s = tl_desc_update_size(d);
    return s != TL_OK ? s : tl_desc_validate(d);
}

static void call_refused(const char *what, tl_status got, buf *dst)
{
    if (got == TL_OK) FAILF("%s: accepted", what);
    else if (tl_last_error()[0] == '\0') FAILF("%s: %s without a message", what, tl_status_str(got));
    if (!buf_clean(dst)) FAILF("%s: the destination was written", what);
}

TL_TEST(invalid_calls_write_nothing)
{
    tl_rng r = tl_test_rng();
    tl_desc a, b, c, ro, bc, pitched, chw;
    REQUIRE_STATUS(tl_desc_parse(&a, "NCHW:f32:1x3x4x5"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&b, "NCHW16c:f16:1x3x4x5"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&c, "NCHW:f32:1x3x4x6"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&chw, "CHW:f32:3x4x5"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&ro, "NCHW:f16:1x3x4x5:strides=60,20,5,1:readonly=1"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&bc, "dml:f16:1x3x4x5:strides=0,1,0,0"), TL_OK);
    REQUIRE_STATUS(byte_pitched_f32(&pitched), TL_OK);
    size_t al = (size_t)a.size_bytes, bl = (size_t)b.size_bytes;
    buf src = buf_new(4096), dst = buf_new(bl);
    REQUIRE(src.p && dst.p);
    buf_fill(&src, &r);
    call_refused("dims differ", tl_convert(&c, src.p, src.len, &b, dst.p, dst.len), &dst);
    call_refused("ranks differ", tl_convert(&chw, src.p, src.len, &b, dst.p, dst.len), &dst);
    call_refused("src_len one short", tl_convert(&a, src.p, al - 1, &b, dst.p, dst.len), &dst);
    call_refused("dst_len one short", tl_convert(&a, src.p, al, &b, dst.p, bl - 1), &dst);
    call_refused("src_len 0", tl_convert(&a, src.p, 0, &b, dst.p, dst.len), &dst);
    call_refused("NULL src", tl_convert(&a, NULL, al, &b, dst.p, dst.len), &dst);
    call_refused("NULL src_d", tl_convert(NULL, src.p, al, &b, dst.p, dst.len), &dst);
    call_refused("NULL dst_d", tl_convert(&a, src.p, al, NULL, dst.p, dst.len), &dst);
    call_refused("read-only dst", tl_convert(&a, src.p, al, &ro, dst.p, dst.len), &dst);
    call_refused("broadcast dst", tl_convert(&a, src.p, al, &bc, dst.p, dst.len), &dst);
    call_refused("byte-pitched src", tl_convert(&pitched, src.p, src.len, &b, dst.p, dst.len), &dst);
    call_refused("byte-pitched dst", tl_convert(&a, src.p, al, &pitched, dst.p, dst.len), &dst);
    call_refused("reference, dst short", tl_convert_reference(&a, src.p, al, &b, dst.p, bl - 1, 0), &dst);
    call_refused("fill_padding, short", tl_fill_padding(&b, dst.p, bl - 1, 1), &dst);
    call_refused("fill_padding, read-only", tl_fill_padding(&bc, dst.p, dst.len, 1), &dst);

    tl_plan *plan = NULL;
    REQUIRE_STATUS(tl_plan_create(&plan, &a, &b, 0), TL_OK);
    call_refused("plan, src short", tl_plan_run(plan, src.p, al - 1, dst.p, dst.len), &dst);
    call_refused("plan, dst short", tl_plan_run(plan, src.p, al, dst.p, bl - 1), &dst);
    call_refused("plan, NULL dst", tl_plan_run(plan, src.p, al, NULL, bl), &dst);
    call_refused("plan, NULL src", tl_plan_run(plan, NULL, al, dst.p, bl), &dst);
    call_refused("plan part 3 of 3", tl_plan_run_part(plan, 3, 3, src.p, al, dst.p, bl), &dst);
    call_refused("plan part 0 of 0", tl_plan_run_part(plan, 0, 0, src.p, al, dst.p, bl), &dst);
    call_refused("plan part, dst short", tl_plan_run_part(plan, 0, 2, src.p, al, dst.p, bl - 1), &dst);
    call_refused("NULL plan", tl_plan_run(NULL, src.p, al, dst.p, bl), &dst);
    tl_plan_destroy(plan);
    tl_plan *none = (tl_plan *)&r; /* must stay as it was: no plan for a bad pair */
    tl_plan *keep = none;
    CHECK(tl_plan_create(&none, &c, &b, 0) != TL_OK);
    CHECK(none == keep || none == NULL);
    CHECK(tl_plan_create(NULL, &a, &b, 0) != TL_OK);
    tl_plan_destroy(NULL); /* like free(NULL) */
    free(src.p);
    free(dst.p);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(bad_specs_write_nothing);
    TL_RUN(broken_descriptors_write_nothing);
    TL_RUN(invalid_calls_write_nothing);
    return tl_test_finish();
}
