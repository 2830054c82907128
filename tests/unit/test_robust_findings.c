/* Regression tests of the robustness findings of issue 15, each built from
 * its reproducer: a vendor tag over another layout, forged vendor fields,
 * builders that wrote on failure, wrapped plan-part arithmetic, messages that
 * named no option, a spec that parsed but did not format back. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS, MAP_NORESERVE */
#define _FILE_OFFSET_BITS 64
#include <stdarg.h>
#include <sys/mman.h>

#include "tl_test.h"

#define SENTINEL 0xA5
#define CHECK_MSG(cond, ...)              \
    do {                                  \
        if (!(cond)) FAILF(__VA_ARGS__);  \
    } while (0)

/* Append to a spec being generated (always fits: 512 bytes). */
typedef struct spec_text {
    char s[512];
    size_t n;
} spec_text;
static void put(spec_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(t->s + t->n, sizeof t->s - t->n, fmt, ap);
    va_end(ap);
    if (k > 0) t->n += (size_t)k;
}

/* A TIDL tag over a layout that is not TIDL's (W:u8:8 with a subsampled axis,
 * size 4): valid as a description, but TIDL's zero padding must refuse it
 * without writing, where it used to memset with a wrapped length. */
TL_TEST(tidl_tag_over_other_layout)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "W:u8:8"), TL_OK);
    d.planes[0].axes[0].block = 2;
    d.planes[0].axes[0].extent = 4;
    d.size_bytes = 4;
    d.vendor = TL_VENDOR_TIDL;
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    uint8_t buf[4 + 64], keep[sizeof buf];
    memset(buf, SENTINEL, sizeof buf);
    memcpy(keep, buf, sizeof buf);
    CHECK_STATUS(tl_tidl_zero_padding(&d, buf, 4), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "(TIDL)");
    CHECK(memcmp(buf, keep, sizeof buf) == 0);
    /* nor does it format as a tidl: spec that would describe another buffer */
    char text[256];
    CHECK(tl_desc_format(&d, text, sizeof text) != TL_OK);
}

/* A padded TIDL descriptor changed by hand (its rows moved) is refused too. */
TL_TEST(tidl_edited_rows)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:2x2x3x4:pad=1,1,1,1"), TL_OK);
    d.planes[0].axes[0].stride_bits += 8 * 64; /* batch pitch + 64 bytes */
    REQUIRE_STATUS(tl_desc_update_size(&d), TL_OK);
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    size_t n = (size_t)d.size_bytes;
    uint8_t *buf = malloc(n), *keep = malloc(n);
    REQUIRE(buf && keep);
    memset(buf, SENTINEL, n);
    memcpy(keep, buf, n);
    CHECK(tl_tidl_zero_padding(&d, buf, n) != TL_OK);
    CHECK(memcmp(buf, keep, n) == 0);
    free(buf);
    free(keep);
}

/* Validation checks every vendor field against its vendor's domain. */
TL_TEST(vendor_fields_validated)
{
    static const struct {
        const char *spec;
        int field; /* -2 vendor, -1 vendor_format, else vendor_params[field] */
        int64_t value;
        const char *msg;
    } cases[] = {
        {"NCHW:u8:1x2x3x4", -2, 99, "vendor=99: not a tl_vendor"},
        {"NCHW:u8:1x2x3x4", -2, -1, "vendor=-1"},
        {"NCHW:u8:1x2x3x4", -1, 3, "vendor_format=3: must be 0..0 (no vendor: zero them)"},
        {"NCHW:u8:1x2x3x4", 7, 1, "vendor_params[7]=1"},
        {"rknn.nc1hwc2:i8:1x1x4x4x16:c=16", -1, 77, "vendor_format=77: must be 0..3 (rknn)"},
        {"rknn.nc1hwc2:i8:1x1x4x4x16:c=16", 1, -16, "vendor_params[1]=-16"},
        {"rknn.nhwc:u8:1x4x4x3", 5, 99, "vendor_params[5]=99"},
        {"yuv.nv12:u8:3x4x4", -1, 0, "vendor_format=0: must be 1..5 (yuv)"},
        {"yuv.nv12:u8:3x4x4", 0, -4, "vendor_params[0]=-4"},
        {"tidl:u8:1x3x4x5", -1, 2, "vendor_format=2: must be 0..1 (TIDL)"},
        {"tidl:u8:1x3x4x5", 0, INT64_C(1) << 40, "vendor_params[0]=1099511627776"},
        {"larod.nhwc:u8:1x2x2x3", -1, 0, "vendor_format=0: must be 1..4 (larod)"},
        {"dml:f32:1x3x4x5", 3, 256, "vendor_params[3]=256"},
        {"trt.chw4:i8:1x4x2x2", 1, 4, "vendor_params[1]=4: must be 0..3, see the vendor header (TensorRT)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, cases[i].spec), TL_OK);
        if (cases[i].field == -2) d.vendor = (int32_t)cases[i].value;
        else if (cases[i].field == -1) d.vendor_format = (int32_t)cases[i].value;
        else d.vendor_params[cases[i].field] = cases[i].value;
        CHECK_STATUS(tl_desc_validate(&d), TL_ERR_VENDOR);
        CHECK_STR_CONTAINS(tl_last_error(), cases[i].msg);
        char text[512];
        CHECK_STATUS(tl_desc_format(&d, text, sizeof text), TL_ERR_VENDOR);
        CHECK_STATUS(tl_desc_explain_vendor(&d, text, sizeof text, NULL), TL_ERR_VENDOR);
    }
}

/* Forged values inside the domains: format and explain do their arithmetic
 * overflow-checked (the UBSan stages run this) and answer. */
TL_TEST(vendor_arithmetic_overflow_checked)
{
    char text[4096];
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "yuv.nv12:u8:3x4x4"), TL_OK);
    d.vendor_params[0] = INT64_MAX / 2; /* H x pitch overflows */
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    CHECK(tl_desc_format(&d, text, sizeof text) != TL_OK); /* not the layout it describes */
    CHECK_STR_CONTAINS(tl_last_error(), "would describe another descriptor");
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x1x4x4x16:c=16"), TL_OK);
    d.vendor_params[0] = INT64_MAX / 3; /* C1 x C2 overflows */
    d.vendor_params[1] = INT64_MAX / 5;
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    CHECK_STATUS(tl_desc_explain_vendor(&d, text, sizeof text, NULL), TL_OK);
    CHECK_STR_CONTAINS(text, "overflows int64");
    CHECK(tl_desc_format(&d, text, sizeof text) != TL_OK);
    d.vendor_params[0] = 1;
    d.vendor_params[1] = INT64_MAX / 2; /* W x C2 overflows */
    CHECK_STATUS(tl_desc_explain_vendor(&d, text, sizeof text, NULL), TL_OK);
    CHECK_STR_CONTAINS(text, "overflows int64");
}

/* rknn.nc1hwc2 + padding used to format to a spec of a 256-byte layout for a
 * 1344-byte buffer. set_padding now makes a generic descriptor, whose spec
 * round-trips; a hand-edited vendor descriptor does not format at all. */
TL_TEST(rknn_padding_round_trip)
{
    tl_desc d, back;
    char text[512];
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x16x4x4:c2=16"), TL_OK); /* the spec */
    const int64_t lo[4] = {0, 0, 1, 1}, hi[4] = {0, 0, 2, 2};
    REQUIRE_STATUS(tl_desc_set_padding(&d, lo, hi), TL_OK);
    CHECK_EQ_I64(d.vendor, TL_VENDOR_NONE);
    CHECK_EQ_I64(d.size_bytes, 1 * 16 * 7 * 7);
    REQUIRE_STATUS(tl_desc_format(&d, text, sizeof text), TL_OK);
    CHECK_STR_EQ(text, "NCHW16c:i8:1x16x4x4:pad=0,0,1,1,0,0,2,2");
    REQUIRE_STATUS(tl_desc_parse(&back, text), TL_OK);
    CHECK(memcmp(&back, &d, sizeof d) == 0);
    /* the same padding put in by hand keeps the tag: format refuses */
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x1x4x4x16:c=16"), TL_OK);
    tl_desc generic = back;
    generic.vendor = d.vendor;
    generic.vendor_format = d.vendor_format;
    memcpy(generic.vendor_params, d.vendor_params, sizeof d.vendor_params);
    REQUIRE_STATUS(tl_desc_validate(&generic), TL_OK);
    memset(text, SENTINEL, sizeof text);
    CHECK_STATUS(tl_desc_format(&generic, text, sizeof text), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "would describe another descriptor");
    CHECK((uint8_t)text[0] == SENTINEL);
}

/* ---- builders: a failure leaves *d byte for byte as it was ------------- */

static void expect_untouched(const tl_desc *d, const tl_desc *before, tl_status s, tl_status want, const char *what)
{
    CHECK_MSG(s == want, "%s returned %s, expected %s", what, tl_status_str(s), tl_status_str(want));
    CHECK_MSG(tl_last_error()[0] != '\0', "%s: no message", what);
    CHECK_MSG(memcmp(d, before, sizeof *d) == 0, "%s failed but changed *d", what);
}

TL_TEST(builders_untouched_on_failure)
{
    tl_desc valid, d, before;
    REQUIRE_STATUS(tl_desc_parse(&valid, "NCHW16c:u8:1x3x4x5:pad=0,0,1,1,0,0,1,1"), TL_OK);
    tl_desc starts[2];
    starts[0] = valid;
    memset(&starts[1], SENTINEL, sizeof starts[1]); /* garbage: builders must not read it as input */
    for (int k = 0; k < 2; k++) {
        before = starts[k];
        const int64_t dims[4] = {1, 3, INT64_MAX / 2, 5}, bad_dims[4] = {1, 0, 4, 5};
        d = before;
        expect_untouched(&d, &before, tl_desc_init(&d, "NCHW16c", TL_U8, bad_dims, 4), TL_ERR_DIM, "init dims");
        d = before;
        expect_untouched(&d, &before, tl_desc_init(&d, "NCHW16c", TL_U8, dims, 4), TL_ERR_OVERFLOW, "init overflow");
        d = before;
        expect_untouched(&d, &before, tl_desc_init(&d, "NCH?", TL_U8, dims, 4), TL_ERR_SPEC_LAYOUT, "init layout");
        /* strides: the first two are fine, the third is negative (the old code
         * had written dims, strides and flags by then) */
        const int64_t sdims[4] = {2, 3, 4, 5}, strides[4] = {0, 20, -1, 1}, big[4] = {INT64_MAX / 4, 20, 5, 1};
        d = before;
        expect_untouched(&d, &before, tl_desc_init_strided(&d, TL_F32, sdims, strides, 4), TL_ERR_STRIDE,
                         "init_strided negative");
        d = before;
        expect_untouched(&d, &before, tl_desc_init_strided(&d, TL_F32, sdims, big, 4), TL_ERR_OVERFLOW,
                         "init_strided overflow");
        d = before;
        expect_untouched(&d, &before, tl_desc_init_yuv420(&d, TL_YUV_I420, INT64_C(1) << 58, INT64_C(1) << 58, 0, 0),
                         TL_ERR_OVERFLOW, "init_yuv420 I420 overflow");
        d = before;
        expect_untouched(&d, &before, tl_desc_init_yuv420(&d, TL_YUV_NV12, 4, 8, 4, 0), TL_ERR_STRIDE,
                         "init_yuv420 pitch");
    }
    /* set_padding: the second dim's padding overflows after the first was set */
    const int64_t lo[4] = {1, INT64_MAX - 2, 0, 0}, hi[4] = {0, 0, 0, 0}, neg[4] = {0, 0, 0, -1};
    const int64_t huge_lo[4] = {0, 0, INT64_C(1) << 61, 0};
    before = valid;
    d = before;
    expect_untouched(&d, &before, tl_desc_set_padding(&d, lo, hi), TL_ERR_OVERFLOW, "set_padding overflow");
    d = before;
    expect_untouched(&d, &before, tl_desc_set_padding(&d, hi, neg), TL_ERR_PAD, "set_padding negative");
    d = before;
    expect_untouched(&d, &before, tl_desc_set_padding(&d, huge_lo, hi), TL_ERR_OVERFLOW, "set_padding size");
    memset(&before, SENTINEL, sizeof before); /* an invalid input is refused, not read past its rank */
    d = before;
    CHECK(tl_desc_set_padding(&d, lo, hi) != TL_OK);
    CHECK(memcmp(&d, &before, sizeof d) == 0);
    REQUIRE_STATUS(tl_desc_parse(&before, "yuv.nv12:u8:3x4x4"), TL_OK);
    d = before;
    expect_untouched(&d, &before, tl_desc_set_padding(&d, hi, hi), TL_ERR_UNSUPPORTED, "set_padding multi-plane");
}

/* The vendor builders: a valid input, each 32-bit word of it replaced by
 * values at the edges; whenever the builder fails, *d (sentinel bytes, then a
 * valid descriptor) is byte for byte as it was. */
typedef tl_status (*vendor_builder)(tl_desc *d, void *input);

static tl_status build_tidl(tl_desc *d, void *in) { return tl_desc_from_tidl(d, in, 0); }
static tl_status build_rknn(tl_desc *d, void *in) { return tl_rknn_desc_from_attr(d, in, 3); }
static tl_status build_trt(tl_desc *d, void *in) { return tl_trt_desc_init(d, in); }
typedef struct larod_input {
    tl_larod_tensor_layout layout;
    tl_larod_tensor_data_type dt;
    tl_larod_tensor_dims dims;
    tl_larod_tensor_pitches pitches;
} larod_input;
static tl_status build_larod(tl_desc *d, void *in)
{
    larod_input *l = in;
    return tl_larod_desc_init(d, l->layout, l->dt, &l->dims, &l->pitches);
}
typedef struct dml_input {
    uint32_t data_type, flags, count, align;
    uint64_t total;
    uint32_t sizes[8], strides[8];
} dml_input;
static tl_status build_dml(tl_desc *d, void *in)
{
    dml_input *m = in;
    tl_dml_buffer_tensor_desc b = {(tl_dml_data_type)m->data_type, m->flags, m->count, m->sizes, m->strides,
                                   m->total, m->align};
    return tl_dml_import(d, &b);
}

static void check_vendor_builder(const char *name, vendor_builder build, const void *valid, size_t n)
{
    static const uint32_t edges[] = {0, 1, 2, 3, 0xffffffffu, 0x7fffffffu, 0x80000000u, 65536, 4097};
    uint32_t in[256];
    tl_desc good, d, before;
    REQUIRE(n <= sizeof in);
    memcpy(in, valid, n);
    CHECK_MSG(build(&good, in) == TL_OK, "%s: the valid input fails: %s", name, tl_last_error());
    int refused = 0;
    for (size_t w = 0; w < n / 4; w++)
        for (size_t e = 0; e < sizeof edges / sizeof edges[0]; e++)
            for (int start = 0; start < 2; start++) {
                memcpy(in, valid, n);
                in[w] = edges[e];
                if (start) before = good;
                else memset(&before, SENTINEL, sizeof before);
                d = before;
                if (build(&d, in) == TL_OK) continue;
                refused++;
                CHECK_MSG(memcmp(&d, &before, sizeof d) == 0, "%s: word %zu = %u: refused but changed *d", name, w,
                          edges[e]);
            }
    CHECK_MSG(refused > 0, "%s: no variant was refused", name);
}

TL_TEST(vendor_builders_untouched_on_failure)
{
    tl_desc d;
    tl_tidl_buf tb;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x4x5:pad=1,1,1,1:padch=2"), TL_OK);
    REQUIRE_STATUS(tl_tidl_from_desc(&d, &tb), TL_OK);
    check_vendor_builder("tl_desc_from_tidl", build_tidl, &tb, sizeof tb);
    tl_rknn_tensor_attr attr;
    REQUIRE_STATUS(tl_rknn_native_attr_synth(&attr, TL_RKNN_RK3588, TL_I8, 1, 3, 4, 5), TL_OK);
    check_vendor_builder("tl_rknn_desc_from_attr", build_rknn, &attr, sizeof attr);
    larod_input l;
    memset(&l, 0, sizeof l);
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x2x3x3:align=1,1,16,1"), TL_OK);
    REQUIRE_STATUS(tl_larod_from_desc(&d, &l.layout, &l.dt, &l.dims, &l.pitches), TL_OK);
    check_vendor_builder("tl_larod_desc_init", build_larod, &l, sizeof l);
    tl_trt_tensor t;
    memset(&t, 0, sizeof t);
    t.format = TL_TRT_DLA_HWC4;
    t.type = TL_TRT_INT8;
    t.dims.nbDims = 4;
    const int64_t tdims[4] = {1, 3, 4, 5};
    for (int i = 0; i < 4; i++) t.dims.d[i] = tdims[i];
    check_vendor_builder("tl_trt_desc_init", build_trt, &t, sizeof t);
    dml_input m = {0};
    REQUIRE_STATUS(tl_desc_parse(&d, "dml:f32:1x3x4x5:strides=80,20,5,1"), TL_OK);
    tl_dml_buffer_tensor_desc b;
    REQUIRE_STATUS(tl_dml_export(&d, &b, m.sizes, m.strides), TL_OK);
    m.data_type = (uint32_t)b.DataType;
    m.flags = b.Flags;
    m.count = b.DimensionCount;
    m.align = b.GuaranteedBaseOffsetAlignment;
    m.total = b.TotalTensorSizeInBytes;
    check_vendor_builder("tl_dml_import", build_dml, &m, sizeof m);
}

/* ---- plan parts: count * part can pass 2^64 ------------------------------- */

/* An 8 GiB u8 tensor in 2^32 - 1 parts: part 2^32 - 2 is the last two
 * elements. The source and destination are reserved, not committed: the part
 * touches one page of each. (The old arithmetic wrapped and wrote elsewhere.) */
TL_TEST(plan_part_no_wrap)
{
#if defined(__SIZEOF_INT128__) && UINTPTR_MAX > 0xffffffffu
    const uint64_t n = UINT64_C(1) << 33;
    tl_desc s, d;
    tl_plan *p = NULL;
    REQUIRE_STATUS(tl_desc_parse(&s, "N:u8:8589934592:scale=1"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "N:u8:8589934592:scale=1:zp=7"), TL_OK); /* 0 -> 7 */
    REQUIRE_STATUS(tl_plan_create(&p, &s, &d, 0), TL_OK);
    uint8_t *src = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    uint8_t *dst = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (src == MAP_FAILED || dst == MAP_FAILED) {
        printf("plan_part_no_wrap: skipped (cannot reserve 2 x 8 GiB of address space)\n");
    } else {
        const unsigned nparts = 0xffffffffu;
        for (unsigned part = nparts - 2; part < nparts; part++) {
            uint64_t b = (uint64_t)((unsigned __int128)n * part / nparts);
            uint64_t e = (uint64_t)((unsigned __int128)n * (part + 1) / nparts);
            CHECK_STATUS(tl_plan_run_part(p, part, nparts, src, n, dst, n), TL_OK);
            CHECK_EQ_I64(dst[b - 1], part == nparts - 2 ? 0 : 7); /* the part before */
            for (uint64_t i = b; i < e; i++) CHECK_EQ_I64(dst[i], 7);
            if (e < n) CHECK_EQ_I64(dst[e], 0);
        }
        CHECK_EQ_I64(dst[0], 0); /* where the wrapped slice began */
    }
    if (src != MAP_FAILED) munmap(src, n);
    if (dst != MAP_FAILED) munmap(dst, n);
    tl_plan_destroy(p);
#else
    printf("plan_part_no_wrap: skipped (32-bit address space)\n");
#endif
}

/* ---- messages name the option and the value at fault --------------------- */
TL_TEST(messages_name_option)
{
    static const struct {
        const char *spec;
        tl_status status;
        const char *msg;
    } cases[] = {
        {"NCHW:u8:1x1x3x5:align=0,0,9223372036854775807,0", TL_ERR_OVERFLOW,
         "align=0,0,9223372036854775807,0: layout size overflows int64"},
        {"NCHW:u8:1x1x3x5:pad=0,0,0,4611686018427387904,0,0,0,0", TL_ERR_OVERFLOW,
         "pad=0,0,0,4611686018427387904,0,0,0,0: layout size overflows int64"},
        {"NCHW:u8:1x1x3x5:offset=9223372036854775807:align=0,0,64,0", TL_ERR_OVERFLOW,
         "offset=9223372036854775807, align=0,0,64,0: layout size + offset overflows int64"},
        {"NCHW:u8:1x1x3x5:strides=1,1,1,1", TL_ERR_ALIAS, "strides=1,1,1,1: stride 8 bits"},
        {"NCHW:i8:1x1x1x1:zp=3", TL_ERR_QUANT, "zp=3 without scale="},
        {"yuv.nv12:u8:3x4x4:pitch=-1", TL_ERR_SPEC_VALUE, "pitch=-1: must be >= 0"},
        {"yuv.nv12:u8:3x4x4:chroma=-5", TL_ERR_SPEC_VALUE, "chroma=-5: must be >= 0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tl_desc d;
        memset(&d, SENTINEL, sizeof d);
        CHECK_STATUS(tl_desc_parse(&d, cases[i].spec), cases[i].status);
        CHECK_STR_CONTAINS(tl_last_error(), cases[i].msg);
        CHECK((uint8_t)d.rank == SENTINEL);
    }
    /* aliasing strides stay legal for a read-only descriptor */
    tl_desc d;
    CHECK_STATUS(tl_desc_parse(&d, "NCHW:u8:1x1x3x5:strides=1,1,1,1:readonly=1"), TL_OK);
}

/* ---- every spec that parses formats back to itself ------------------------ */

static void check_round_trip(const char *spec)
{
    tl_desc d, back;
    char text[1024], again[1024];
    if (tl_desc_parse(&d, spec) != TL_OK) return;
    CHECK_MSG(tl_desc_format(&d, text, sizeof text) == TL_OK, "'%s' parses but does not format: %s", spec,
              tl_last_error());
    if (tl_desc_format(&d, text, sizeof text) != TL_OK) return;
    CHECK_MSG(tl_desc_parse(&back, text) == TL_OK && memcmp(&back, &d, sizeof d) == 0,
              "'%s' -> '%s' does not parse back to the same descriptor", spec, text);
    CHECK_MSG(tl_desc_format(&back, again, sizeof again) == TL_OK && strcmp(text, again) == 0,
              "'%s' formats to '%s', then to '%s'", spec, text, again);
}

TL_TEST(round_trip_align)
{
    tl_desc d;
    char text[256];
    REQUIRE_STATUS(tl_desc_parse(&d, "HW:f64:2x87:align=0,10"), TL_OK);
    REQUIRE_STATUS(tl_desc_format(&d, text, sizeof text), TL_OK);
    CHECK_STR_EQ(text, "HW:f64:2x87:align=0,700");
    check_round_trip("HW:f64:2x87:align=0,10");
    check_round_trip("NCHW:f32:1x3x5x7:align=0,0,6,0");
    check_round_trip("NCHW:f32:1x3x5x7:align=0,0,6,0:offset=3");
    check_round_trip("NCHW:f32:1x3x5x7:align=0,0,6,0:size=1000");
}

/* Random generic specs (layout words, dtypes, padding, alignment, strides,
 * offsets, sizes, quantization): every one that parses formats back to a
 * spec that parses to the identical descriptor. */
TL_TEST(round_trip_generated)
{
    static const char *const words[] = {"NCHW", "NHWC", "NCHW16c", "nChw8c", "HW", "W", "aBcd4b", "NC4HW2c", "CHW"};
    static const char *const dtypes[] = {"u8", "i8", "f16", "f32", "f64", "u4", "i4", "bool", "u64"};
    tl_rng r = tl_test_rng();
    const char *quick = getenv("TL_TEST_QUICK");
    int parsed = 0, total = quick && *quick && strcmp(quick, "0") != 0 ? 3000 : 30000;
    for (int it = 0; it < total; it++) {
        const char *w = words[tl_rng_pick(&r, 9)];
        int rank = 0; /* letters that are not the tail of a block such as 16c */
        for (const char *c = w; *c; c++)
            if (*c >= 'A' && *c <= 'Z') rank++;
            else if (*c >= 'a' && *c <= 'z' && !(c > w && c[-1] >= '0' && c[-1] <= '9')) rank++;
        spec_text sb = {{0}, 0};
        put(&sb, "%s:%s:", w, dtypes[tl_rng_pick(&r, 9)]);
        for (int i = 0; i < rank; i++) put(&sb, "%s%d", i ? "x" : "", (int)tl_rng_range(&r, 1, 9));
        if (tl_rng_pick(&r, 3) == 0) {
            put(&sb, ":pad=");
            for (int i = 0; i < 2 * rank; i++) put(&sb, "%s%d", i ? "," : "", (int)tl_rng_range(&r, 0, 2));
        }
        int naxes = rank + (int)(strpbrk(w, "0123456789") != NULL);
        int kind = tl_rng_pick(&r, 3);
        if (kind == 1) {
            put(&sb, ":align=");
            for (int a = 0; a < naxes; a++) put(&sb, "%s%d", a ? "," : "", (int)tl_rng_range(&r, 0, 12));
        } else if (kind == 2) {
            put(&sb, ":strides=");
            for (int a = 0; a < naxes; a++) put(&sb, "%s%d", a ? "," : "", (int)tl_rng_range(&r, 0, 300));
        }
        if (tl_rng_pick(&r, 4) == 0) put(&sb, ":offset=%d", (int)tl_rng_range(&r, 1, 9));
        if (tl_rng_pick(&r, 4) == 0) put(&sb, ":size=%d", (int)tl_rng_range(&r, 1, 5000));
        if (tl_rng_pick(&r, 5) == 0) put(&sb, ":readonly=1");
        if (tl_rng_pick(&r, 4) == 0) put(&sb, ":scale=0.5:zp=%d", (int)tl_rng_range(&r, -3, 3));
        tl_desc d;
        if (tl_desc_parse(&d, sb.s) == TL_OK) parsed++;
        check_round_trip(sb.s);
    }
    CHECK_MSG(parsed > total / 10, "only %d of %d generated specs parse: the generator drifted", parsed, total);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(tidl_tag_over_other_layout);
    TL_RUN(tidl_edited_rows);
    TL_RUN(vendor_fields_validated);
    TL_RUN(vendor_arithmetic_overflow_checked);
    TL_RUN(rknn_padding_round_trip);
    TL_RUN(builders_untouched_on_failure);
    TL_RUN(vendor_builders_untouched_on_failure);
    TL_RUN(plan_part_no_wrap);
    TL_RUN(messages_name_option);
    TL_RUN(round_trip_align);
    TL_RUN(round_trip_generated);
    return tl_test_finish();
}
