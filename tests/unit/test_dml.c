/* DirectML buffer tensors (src/vendors/dml.c, docs/dml.md): the test vectors
 * D1-D10, sizes above 4 GiB (computed, never allocated), 4-bit types with odd
 * counts, every validation rule (status, message naming DirectML, nothing
 * written), import/export, spec round trips and the describe --json extras. */
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

#define SENTINEL 0xA5
#define U32MAX UINT32_C(4294967295)

/* A tl_desc pre-filled with the sentinel, and the check that it still is. */
static void sentinel_desc(tl_desc *d) { memset(d, SENTINEL, sizeof *d); }
static int desc_untouched(const tl_desc *d)
{
    const uint8_t *p = (const uint8_t *)d;
    for (size_t i = 0; i < sizeof *d; i++)
        if (p[i] != SENTINEL) return 0;
    return 1;
}

static tl_dml_buffer_tensor_desc dml_desc(tl_dml_data_type t, uint32_t n, const uint32_t *sizes,
                                          const uint32_t *strides, uint64_t total)
{
    tl_dml_buffer_tensor_desc m;
    memset(&m, 0, sizeof m);
    m.DataType = t;
    m.DimensionCount = n;
    m.Sizes = sizes;
    m.Strides = strides;
    m.TotalTensorSizeInBytes = total;
    return m;
}

/* ---- element types ---------------------------------------------------------- */
TL_TEST(data_types)
{
    static const struct { uint32_t v; const char *name; tl_dtype dt; unsigned bits; } t[] = {
        {0, "UNKNOWN", TL_DT_INVALID, 0}, {1, "FLOAT32", TL_F32, 32}, {2, "FLOAT16", TL_F16, 16},
        {3, "UINT32", TL_U32, 32},        {4, "UINT16", TL_U16, 16},  {5, "UINT8", TL_U8, 8},
        {6, "INT32", TL_I32, 32},         {7, "INT16", TL_I16, 16},   {8, "INT8", TL_I8, 8},
        {9, "FLOAT64", TL_F64, 64},       {10, "UINT64", TL_U64, 64}, {11, "INT64", TL_I64, 64},
        {12, "UINT4", TL_U4, 4},          {13, "INT4", TL_I4, 4},     {14, "?", TL_DT_INVALID, 0},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        CHECK_STR_EQ(tl_dml_data_type_name(t[i].v), t[i].name);
        CHECK_EQ_I64(tl_dml_data_type_to_dtype(t[i].v), t[i].dt);
        CHECK_EQ_I64(tl_dml_data_type_bits(t[i].v), t[i].bits);
        if (t[i].dt != TL_DT_INVALID) CHECK_EQ_I64(tl_dml_data_type_from_dtype(t[i].dt), t[i].v);
    }
    CHECK_EQ_I64(tl_dml_data_type_from_dtype(TL_BF16), TL_DML_TENSOR_DATA_TYPE_UNKNOWN);
    CHECK_EQ_I64(tl_dml_data_type_from_dtype(TL_BOOL), TL_DML_TENSOR_DATA_TYPE_UNKNOWN);
    CHECK_EQ_I64(tl_dml_data_type_from_dtype(TL_DT_INVALID), TL_DML_TENSOR_DATA_TYPE_UNKNOWN);
}

/* ---- vectors ---------------------------------------------------------------- */
typedef struct size_case {
    const char *id;
    tl_dml_data_type t;
    uint32_t n;
    uint32_t sizes[8];
    int has_strides;
    uint32_t strides[8];
    uint64_t want;
} size_case;

static void check_size_case(const size_case *c)
{
    uint64_t got = 0;
    tl_status s = tl_dml_buffer_tensor_size(c->t, c->n, c->sizes, c->has_strides ? c->strides : NULL, &got);
    if (s != TL_OK || got != c->want)
        FAILF("%s: status %s, size %llu, expected %llu (%s)", c->id, tl_status_str(s),
              (unsigned long long)got, (unsigned long long)c->want, tl_last_error());
}

TL_TEST(vectors_d1_to_d7_size_function)
{
    static const size_case k[] = {
        {"D1", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 3, 5, 5}, 0, {0}, 300},
        {"D2", TL_DML_TENSOR_DATA_TYPE_FLOAT16, 4, {1, 1, 1, 3}, 0, {0}, 8},
        {"D3", TL_DML_TENSOR_DATA_TYPE_UINT8, 4, {1, 3, 224, 224}, 1, {150528, 1, 672, 3}, 150528},
        {"D4", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 3, 4, 4}, 1, {1, 0, 0, 0}, 4},
        {"D5", TL_DML_TENSOR_DATA_TYPE_INT4, 4, {1, 1, 1, 5}, 0, {0}, 4},
        {"D6", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 1, 2, 3}, 1, {8, 8, 4, 1}, 28},
        {"D7", TL_DML_TENSOR_DATA_TYPE_UINT8, 3, {2, 3, 5}, 0, {0}, 32},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) check_size_case(&k[i]);
}

/* The same vectors through spec strings: size_bytes is TotalTensorSizeInBytes. */
TL_TEST(vectors_d1_to_d7_specs)
{
    static const struct { const char *id, *spec; int64_t size; } k[] = {
        {"D1", "dml:f32:1x3x5x5", 300},
        {"D2", "dml:f16:1x1x1x3", 8},
        {"D3", "dml.nhwc:u8:1x3x224x224", 150528},
        {"D3", "dml:u8:1x3x224x224:strides=150528,1,672,3", 150528},
        {"D4", "dml.nchw:f32:1x3x4x4:broadcast=0,1,1,1", 4},
        {"D4", "dml:f32:1x3x4x4:strides=1,0,0,0", 4},
        {"D5", "dml:i4:1x1x1x5", 4},
        {"D6", "dml:f32:1x1x2x3:strides=8,8,4,1", 28},
        {"D7", "dml:u8:2x3x5", 32},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d;
        tl_status s = tl_desc_parse(&d, k[i].spec);
        if (s != TL_OK) {
            FAILF("%s %s: %s (%s)", k[i].id, k[i].spec, tl_status_str(s), tl_last_error());
            continue;
        }
        if (d.size_bytes != k[i].size)
            FAILF("%s %s: size %lld, expected %lld", k[i].id, k[i].spec, (long long)d.size_bytes,
                  (long long)k[i].size);
        CHECK_EQ_I64(d.vendor, TL_VENDOR_DML);
    }
}

static void check_strides(tl_dml_layout lay, uint32_t n, const uint32_t *sizes, uint32_t mask,
                          const uint32_t *want, const char *what)
{
    uint32_t got[8];
    memset(got, SENTINEL, sizeof got);
    tl_status s = tl_dml_calc_strides(lay, n, sizes, mask, got);
    if (s != TL_OK) {
        FAILF("%s: %s (%s)", what, tl_status_str(s), tl_last_error());
        return;
    }
    for (uint32_t i = 0; i < n; i++)
        if (got[i] != want[i]) FAILF("%s: stride[%u]=%u, expected %u", what, i, got[i], want[i]);
    for (uint32_t i = n; i < 8; i++)
        if (got[i] != 0xA5A5A5A5u) FAILF("%s: stride[%u] written beyond DimensionCount", what, i);
}

TL_TEST(vectors_d8_d9_calc_strides)
{
    const uint32_t sz[4] = {2, 3, 4, 5};
    check_strides(TL_DML_LAYOUT_NHWC, 4, sz, 0, (const uint32_t[]){60, 1, 15, 3}, "D8");
    check_strides(TL_DML_LAYOUT_NCHW, 4, sz, 1u, (const uint32_t[]){0, 20, 5, 1}, "D9");
    /* D3 and D4 come from the same helper. */
    check_strides(TL_DML_LAYOUT_NHWC, 4, (const uint32_t[]){1, 3, 224, 224}, 0,
                  (const uint32_t[]){150528, 1, 672, 3}, "D3");
    check_strides(TL_DML_LAYOUT_NCHW, 4, (const uint32_t[]){1, 3, 4, 4}, 0xEu,
                  (const uint32_t[]){1, 0, 0, 0}, "D4");
}

/* InterleavedChannel for 3-D and 5-D, broadcast with NHWC, NCHW for ranks 1..8. */
TL_TEST(calc_strides_other_ranks)
{
    check_strides(TL_DML_LAYOUT_NHWC, 3, (const uint32_t[]){2, 3, 5}, 0, (const uint32_t[]){15, 1, 3}, "NCW->NWC");
    check_strides(TL_DML_LAYOUT_NHWC, 5, (const uint32_t[]){2, 3, 4, 5, 6}, 0,
                  (const uint32_t[]){360, 1, 90, 18, 3}, "NCDHW->NDHWC");
    /* broadcast C in NHWC: c counts as 1, so W is innermost with stride 1 */
    check_strides(TL_DML_LAYOUT_NHWC, 4, (const uint32_t[]){2, 3, 4, 5}, 2u,
                  (const uint32_t[]){20, 0, 5, 1}, "NHWC broadcast C");
    check_strides(TL_DML_LAYOUT_NCHW, 1, (const uint32_t[]){7}, 0, (const uint32_t[]){1}, "rank 1");
    check_strides(TL_DML_LAYOUT_NCHW, 2, (const uint32_t[]){7, 9}, 1u, (const uint32_t[]){0, 1}, "rank 2 bc");
    check_strides(TL_DML_LAYOUT_NCHW, 8, (const uint32_t[]){2, 1, 3, 1, 2, 2, 1, 5}, 0,
                  (const uint32_t[]){60, 60, 20, 20, 10, 5, 5, 1}, "rank 8");
    /* a stride may be just below 2^32 */
    check_strides(TL_DML_LAYOUT_NCHW, 2, (const uint32_t[]){1, U32MAX}, 0, (const uint32_t[]){U32MAX, 1},
                  "stride 2^32-1");
}

TL_TEST(calc_strides_errors)
{
    static const struct {
        int lay;
        uint32_t n, sizes[8], mask;
        tl_status want;
        const char *msg;
    } k[] = {
        {TL_DML_LAYOUT_NHWC, 9, {1, 1, 1, 1, 1, 1, 1, 1}, 0, TL_ERR_RANK, "DimensionCount=9"},
        {TL_DML_LAYOUT_NCHW, 0, {1}, 0, TL_ERR_RANK, "DimensionCount=0"},
        {TL_DML_LAYOUT_NCHW, 9, {1, 1, 1, 1, 1, 1, 1, 1}, 0, TL_ERR_RANK, "DimensionCount=9"},
        {7, 4, {1, 2, 3, 4}, 0, TL_ERR_VENDOR, "layout=7"},
        {TL_DML_LAYOUT_NCHW, 4, {1, 0, 3, 4}, 0, TL_ERR_DIM, "Sizes[1]=0"},
        {TL_DML_LAYOUT_NCHW, 2, {2, 3}, 4u, TL_ERR_VENDOR, "broadcast mask 0x4"},
        {TL_DML_LAYOUT_NCHW, 3, {2, 65536, 65536}, 0, TL_ERR_VENDOR, "Strides[0]"},
        {TL_DML_LAYOUT_NHWC, 4, {2, 65536, 2, 32768}, 0, TL_ERR_VENDOR, "Strides[0]"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        uint32_t out[8];
        memset(out, SENTINEL, sizeof out);
        CHECK_STATUS(tl_dml_calc_strides((tl_dml_layout)k[i].lay, k[i].n, k[i].sizes, k[i].mask, out), k[i].want);
        CHECK_STR_CONTAINS(tl_last_error(), k[i].msg);
        CHECK_STR_CONTAINS(tl_last_error(), "DirectML");
        for (int j = 0; j < 8; j++) CHECK(out[j] == 0xA5A5A5A5u);
    }
    uint32_t out[4];
    CHECK_STATUS(tl_dml_calc_strides(TL_DML_LAYOUT_NCHW, 4, NULL, 0, out), TL_ERR_NULL);
    CHECK_STATUS(tl_dml_calc_strides(TL_DML_LAYOUT_NCHW, 4, (const uint32_t[]){1, 1, 1, 1}, 0, NULL), TL_ERR_NULL);
}

/* D10 through every entry point: size function, import, calc_strides, spec. */
TL_TEST(vector_d10_zero_size_rejected)
{
    const uint32_t sz[4] = {1, 0, 2, 2};
    uint64_t bytes = 12345;
    CHECK_STATUS(tl_dml_buffer_tensor_size(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, sz, NULL, &bytes), TL_ERR_DIM);
    CHECK_STR_CONTAINS(tl_last_error(), "Sizes[1]=0");
    CHECK_STR_CONTAINS(tl_last_error(), "DirectML");
    CHECK_EQ_I64(bytes, 12345);
    /* with strides the published helper computes (0-1)*stride: wraps; we reject */
    CHECK_STATUS(tl_dml_buffer_tensor_size(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, sz,
                                           (const uint32_t[]){4, 4, 2, 1}, &bytes), TL_ERR_DIM);
    CHECK_EQ_I64(bytes, 12345);
    tl_dml_buffer_tensor_desc m = dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, sz, NULL, 64);
    tl_desc d;
    sentinel_desc(&d);
    CHECK_STATUS(tl_dml_import(&d, &m), TL_ERR_DIM);
    CHECK_STR_CONTAINS(tl_last_error(), "DirectML");
    CHECK(desc_untouched(&d));
    CHECK_STATUS(tl_dml_validate(&m), TL_ERR_DIM);
    CHECK_STATUS(tl_desc_parse(&d, "dml:f32:1x0x2x2"), TL_ERR_DIM); /* the core's dims rule */
    CHECK(desc_untouched(&d));
}

/* ---- above 4 GiB: exact 64-bit results, nothing allocated ----------------------- */
TL_TEST(sizes_above_4gib)
{
    static const size_case k[] = {
        /* 2^30 f32 elements = 2^32 bytes: a 32-bit UINT product gives 0 (§3.6 (a)) */
        {"4GiB", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 1, 65536, 16384}, 0, {0}, UINT64_C(4294967296)},
        {"f64 65535^2", TL_DML_TENSOR_DATA_TYPE_FLOAT64, 2, {65535, 65535}, 0, {0}, UINT64_C(34358689800)},
        /* last index 3e9+2 does not fit the published helpers' 32-bit UINT sum */
        {"strided u8", TL_DML_TENSOR_DATA_TYPE_UINT8, 2, {2, 3}, 1, {3000000000u, 1}, UINT64_C(3000000004)},
        {"strided f16", TL_DML_TENSOR_DATA_TYPE_FLOAT16, 3, {3, 2, 2}, 1, {U32MAX, 1, 0}, UINT64_C(17179869184)},
        {"huge u4", TL_DML_TENSOR_DATA_TYPE_UINT4, 1, {U32MAX}, 0, {0}, UINT64_C(2147483648)},
        {"8 dims", TL_DML_TENSOR_DATA_TYPE_INT64, 8, {2, 2, 2, 2, 2, 2, 2, 2}, 1,
         {U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX}, UINT64_C(274877906888)},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) check_size_case(&k[i]);
}

TL_TEST(above_4gib_descriptors)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "dml:f64:65535x65535"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, INT64_C(34358689800));
    REQUIRE_STATUS(tl_desc_parse(&d, "dml:u8:2x3:strides=3000000000,1"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, INT64_C(3000000004));
    uint64_t off = 0;
    REQUIRE_STATUS(tl_desc_offset(&d, (const int64_t[]){1, 2}, &off), TL_OK);
    CHECK_EQ_I64(off, INT64_C(3000000002));
    char buf[256];
    REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
    CHECK_STR_EQ(buf, "dml:u8:2x3:strides=3000000000,1");
    /* an explicit total above 4 GiB, through the C API and back */
    const uint32_t sz[4] = {1, 1, 65536, 16384};
    tl_dml_buffer_tensor_desc m = dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, sz, NULL, UINT64_C(5000000000));
    REQUIRE_STATUS(tl_dml_import(&d, &m), TL_OK);
    CHECK_EQ_I64(d.size_bytes, INT64_C(5000000000));
    tl_dml_buffer_tensor_desc e;
    uint32_t es[8], et[8];
    REQUIRE_STATUS(tl_dml_export(&d, &e, es, et), TL_OK);
    CHECK_EQ_I64(e.TotalTensorSizeInBytes, INT64_C(5000000000));
    CHECK_EQ_I64(et[0], 1073741824);
}

TL_TEST(size_overflow_rejected)
{
    uint64_t bytes = 7;
    /* (2^32-2) * (2^32-1) is above 2^63 */
    CHECK_STATUS(tl_dml_buffer_tensor_size(TL_DML_TENSOR_DATA_TYPE_UINT8, 1, (const uint32_t[]){U32MAX},
                                           (const uint32_t[]){U32MAX}, &bytes), TL_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(tl_last_error(), "overflows 64 bits (DirectML)");
    /* the sum overflows although each term (2^29 x (2^32-1) < 2^61) fits */
    const uint32_t s29 = UINT32_C(536870913);
    CHECK_STATUS(tl_dml_buffer_tensor_size(TL_DML_TENSOR_DATA_TYPE_UINT8, 8,
                                           (const uint32_t[]){s29, s29, s29, s29, s29, s29, s29, s29},
                                           (const uint32_t[]){U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX, U32MAX},
                                           &bytes), TL_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(tl_last_error(), "index of the last element overflows 64 bits (DirectML)");
    /* the bit count overflows although the element index (2^26 x (2^32-1)) fits */
    CHECK_STATUS(tl_dml_buffer_tensor_size(TL_DML_TENSOR_DATA_TYPE_FLOAT64, 1, (const uint32_t[]){67108865},
                                           (const uint32_t[]){U32MAX}, &bytes), TL_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(tl_last_error(), "x 64 bits overflows 64 bits (DirectML)");
    CHECK_EQ_I64(bytes, 7);
    CHECK_STATUS(tl_dml_buffer_tensor_size(TL_DML_TENSOR_DATA_TYPE_UINT8, 1, (const uint32_t[]){1}, NULL, NULL),
                 TL_ERR_NULL);
}

/* ---- 4-bit types: bits, not bytes ----------------------------------------------- */
TL_TEST(int4_odd_counts)
{
    static const size_case k[] = {
        {"i4 x5 (D5)", TL_DML_TENSOR_DATA_TYPE_INT4, 1, {5}, 0, {0}, 4},
        {"u4 x7", TL_DML_TENSOR_DATA_TYPE_UINT4, 1, {7}, 0, {0}, 4},
        {"i4 x9", TL_DML_TENSOR_DATA_TYPE_INT4, 1, {9}, 0, {0}, 8},         /* 36 bits = 5 B */
        {"u4 x17", TL_DML_TENSOR_DATA_TYPE_UINT4, 1, {17}, 0, {0}, 12},     /* 68 bits = 9 B, not 8 */
        {"u4 x1", TL_DML_TENSOR_DATA_TYPE_UINT4, 4, {1, 1, 1, 1}, 0, {0}, 4},
        {"i4 3x3 s5", TL_DML_TENSOR_DATA_TYPE_INT4, 2, {3, 3}, 1, {5, 1}, 8}, /* 13 x 4 = 52 bits */
        {"u4 3x3 s3", TL_DML_TENSOR_DATA_TYPE_UINT4, 2, {3, 3}, 1, {3, 1}, 8}, /* 36 bits */
        {"i4 1x3x5x5", TL_DML_TENSOR_DATA_TYPE_INT4, 4, {1, 3, 5, 5}, 0, {0}, 40}, /* 75 x 4 bits = 37.5 B */
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) check_size_case(&k[i]);
    /* odd strides: element (i, j) of u4 3x3 with row stride 5 is nibble 5i + j */
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "dml:u4:3x3:strides=5,1"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 8);
    CHECK(!(d.flags & TL_DESC_READONLY));
    for (int64_t i = 0; i < 3; i++)
        for (int64_t j = 0; j < 3; j++) {
            uint64_t bits = 0;
            REQUIRE_STATUS(tl_desc_offset_bits(&d, (const int64_t[]){i, j}, &bits), TL_OK);
            CHECK_EQ_I64(bits, (5 * i + j) * 4);
        }
    /* GuaranteedBaseOffsetAlignment 1 is a power of two >= half a byte */
    REQUIRE_STATUS(tl_desc_parse(&d, "dml:i4:5:base_align=1"), TL_OK);
    CHECK_EQ_I64(d.vendor_params[2], 1);
}

/* ---- validation: each rule, its status, its message, nothing written ------------ */
typedef struct bad_case {
    const char *what;
    tl_dml_buffer_tensor_desc m;
    tl_status want;
    const char *msg;
} bad_case;

static void check_bad(const bad_case *c)
{
    tl_desc d;
    sentinel_desc(&d);
    tl_status s = tl_dml_validate(&c->m);
    if (s != c->want) FAILF("%s: validate gave %s, expected %s", c->what, tl_status_str(s), tl_status_str(c->want));
    CHECK_STR_CONTAINS(tl_last_error(), c->msg);
    CHECK_STR_CONTAINS(tl_last_error(), "(DirectML)");
    s = tl_dml_import(&d, &c->m);
    if (s != c->want) FAILF("%s: import gave %s, expected %s", c->what, tl_status_str(s), tl_status_str(c->want));
    CHECK_STR_CONTAINS(tl_last_error(), c->msg);
    if (!desc_untouched(&d)) FAILF("%s: import wrote its output", c->what);
}

TL_TEST(validation_errors)
{
    static const uint32_t s4[4] = {1, 3, 4, 4}, s0[4] = {1, 3, 0, 4}, big[2] = {65536, 65536},
                          s9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, d2[4] = {1, 1, 1, 3};
    static const uint32_t wide[1] = {U32MAX}, wst[1] = {U32MAX};
    const bad_case k[] = {
        {"UNKNOWN type", dml_desc(TL_DML_TENSOR_DATA_TYPE_UNKNOWN, 4, s4, NULL, 192), TL_ERR_DTYPE, "DataType=0 (UNKNOWN)"},
        {"type 14", dml_desc((tl_dml_data_type)14, 4, s4, NULL, 192), TL_ERR_DTYPE, "DataType=14"},
        {"rank 0", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 0, s4, NULL, 192), TL_ERR_RANK, "DimensionCount=0: must be 1..8"},
        {"rank 9", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 9, s9, NULL, 64), TL_ERR_RANK, "DimensionCount=9"},
        {"Sizes NULL", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, NULL, NULL, 192), TL_ERR_NULL, "Sizes is NULL"},
        {"zero size", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, s0, NULL, 192), TL_ERR_DIM, "Sizes[2]=0"},
        {"2^32 elements", dml_desc(TL_DML_TENSOR_DATA_TYPE_UINT8, 2, big, NULL, UINT64_C(4294967296)), TL_ERR_VENDOR,
         "at most 2^32-1"},
        {"total 6 < 8 (D2)", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT16, 4, d2, NULL, 6), TL_ERR_SIZE,
         "TotalTensorSizeInBytes=6 < 8 bytes required by DMLCalcBufferTensorSize"},
        {"total 0", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, s4, NULL, 0), TL_ERR_SIZE, "TotalTensorSizeInBytes=0 < 192"},
        {"overflow", dml_desc(TL_DML_TENSOR_DATA_TYPE_UINT8, 1, wide, wst, 64), TL_ERR_OVERFLOW, "overflows 64 bits"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) check_bad(&k[i]);
}

TL_TEST(validation_flags_and_alignment)
{
    static const uint32_t s4[4] = {1, 3, 4, 4};
    bad_case c = {"flags 2", dml_desc(TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, s4, NULL, 192), TL_ERR_VENDOR, "Flags=0x2"};
    c.m.Flags = 2;
    check_bad(&c);
    static const struct { uint32_t t, align; tl_status want; } k[] = {
        {TL_DML_TENSOR_DATA_TYPE_FLOAT32, 3, TL_ERR_VENDOR}, {TL_DML_TENSOR_DATA_TYPE_FLOAT32, 2, TL_ERR_VENDOR},
        {TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, TL_OK},        {TL_DML_TENSOR_DATA_TYPE_FLOAT32, 0, TL_OK},
        {TL_DML_TENSOR_DATA_TYPE_FLOAT32, 256, TL_OK},      {TL_DML_TENSOR_DATA_TYPE_FLOAT64, 4, TL_ERR_VENDOR},
        {TL_DML_TENSOR_DATA_TYPE_INT64, 8, TL_OK},          {TL_DML_TENSOR_DATA_TYPE_UINT8, 1, TL_OK},
        {TL_DML_TENSOR_DATA_TYPE_INT4, 1, TL_OK},           {TL_DML_TENSOR_DATA_TYPE_FLOAT16, 48, TL_ERR_VENDOR},
        {TL_DML_TENSOR_DATA_TYPE_FLOAT16, UINT32_C(2147483648), TL_OK},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        bad_case b = {"align", dml_desc((tl_dml_data_type)k[i].t, 4, s4, NULL, 512), k[i].want,
                      "GuaranteedBaseOffsetAlignment="};
        b.m.GuaranteedBaseOffsetAlignment = k[i].align;
        if (k[i].want != TL_OK) {
            check_bad(&b);
        } else {
            tl_desc d;
            CHECK_STATUS(tl_dml_import(&d, &b.m), TL_OK);
            CHECK_EQ_I64(d.vendor_params[2], k[i].align);
        }
    }
    c.m.Flags = TL_DML_TENSOR_FLAG_OWNED_BY_DML;
    tl_desc d;
    REQUIRE_STATUS(tl_dml_import(&d, &c.m), TL_OK);
    CHECK_EQ_I64(d.vendor_params[1], 1);
    CHECK_STATUS(tl_dml_validate(NULL), TL_ERR_NULL);
    CHECK_STATUS(tl_dml_import(NULL, &c.m), TL_ERR_NULL);
    /* a total above INT64_MAX cannot be a tl_desc size */
    c.m.TotalTensorSizeInBytes = UINT64_C(0x8000000000000000);
    sentinel_desc(&d);
    CHECK_STATUS(tl_dml_import(&d, &c.m), TL_ERR_OVERFLOW);
    CHECK_STR_CONTAINS(tl_last_error(), "TotalTensorSizeInBytes=9223372036854775808 exceeds int64 (DirectML)");
    CHECK(desc_untouched(&d));
}

/* ---- import ---------------------------------------------------------------------- */
TL_TEST(import_maps_to_one_axis_per_dim)
{
    const uint32_t sz[4] = {1, 3, 224, 224}, st[4] = {150528, 1, 672, 3};
    tl_dml_buffer_tensor_desc m = dml_desc(TL_DML_TENSOR_DATA_TYPE_UINT8, 4, sz, st, 150528);
    tl_desc d;
    REQUIRE_STATUS(tl_dml_import(&d, &m), TL_OK);
    CHECK_EQ_I64(d.rank, 4);
    CHECK_EQ_I64(d.dtype, TL_U8);
    CHECK(memcmp(d.labels, "NCHW", 4) == 0);
    CHECK_EQ_I64(d.nplanes, 1);
    CHECK_EQ_I64(d.planes[0].naxes, 4);
    for (int i = 0; i < 4; i++) {
        CHECK_EQ_I64(d.planes[0].axes[i].dim, i);
        CHECK_EQ_I64(d.planes[0].axes[i].block, 1);
        CHECK_EQ_I64(d.planes[0].axes[i].extent, sz[i]);
        CHECK_EQ_I64(d.planes[0].axes[i].stride_bits, (int64_t)st[i] * 8);
    }
    CHECK_EQ_I64(d.size_bytes, 150528);
    CHECK(!(d.flags & TL_DESC_READONLY));
    CHECK_EQ_I64(d.vendor, TL_VENDOR_DML);
    CHECK_EQ_I64(d.vendor_format, TL_DML_FORMAT_STRIDES);
    CHECK_EQ_I64(d.vendor_params[0], TL_DML_TENSOR_DATA_TYPE_UINT8);
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, (const int64_t[]){0, 2, 10, 7}, &off), TL_OK);
    CHECK_EQ_I64(off, 2 + 10 * 672 + 7 * 3);
    /* labels: NCW for 3-D, NCDHW for 5-D, none otherwise */
    static const struct { uint32_t n; const char *labels; } lk[] = {
        {1, ""}, {2, ""}, {3, "NCW"}, {5, "NCDHW"}, {6, ""}, {8, ""},
    };
    const uint32_t ones[8] = {2, 2, 2, 2, 2, 2, 2, 2};
    for (size_t i = 0; i < sizeof lk / sizeof lk[0]; i++) {
        tl_dml_buffer_tensor_desc mm = dml_desc(TL_DML_TENSOR_DATA_TYPE_INT16, lk[i].n, ones, NULL, 1024);
        REQUIRE_STATUS(tl_dml_import(&d, &mm), TL_OK);
        for (uint32_t j = 0; j < lk[i].n; j++)
            CHECK_EQ_I64(d.labels[j], lk[i].labels[0] ? lk[i].labels[j] : 0);
    }
}

/* Broadcast and aliasing strides make a read-only descriptor; the core's
 * non-aliasing rule decides, and a stride 0 over a size of 1 is harmless. */
TL_TEST(read_only_decisions)
{
    static const struct { const char *spec; int ro; } k[] = {
        {"dml:u8:2x3:strides=1,1", 1},      /* overlapping windows */
        {"dml:u8:2x3:strides=2,1", 1},      /* (0,2) and (1,0) share a byte */
        {"dml:u8:2x3:strides=3,1", 0},
        {"dml:u8:2x3:strides=1,2", 0},      /* column-major */
        {"dml:u8:2x3:strides=0,1", 1},      /* broadcast rows */
        {"dml:u8:1x3:strides=0,1", 0},      /* stride 0 over one position */
        {"dml.nchw:f32:1x3x4x4:broadcast=1,0,0,0", 0},
        {"dml.nchw:f32:2x3x4x4:broadcast=1,0,0,0", 1},
        {"dml:i4:4:strides=1", 0},
        {"dml:f32:2x2:readonly=1", 1},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d;
        tl_status s = tl_desc_parse(&d, k[i].spec);
        if (s != TL_OK) {
            FAILF("%s: %s (%s)", k[i].spec, tl_status_str(s), tl_last_error());
            continue;
        }
        if (!!(d.flags & TL_DESC_READONLY) != k[i].ro) FAILF("%s: readonly=%d, expected %d", k[i].spec, !k[i].ro, k[i].ro);
        CHECK_EQ_I64(tl_desc_writable(&d), !k[i].ro);
        CHECK_STATUS(tl_desc_validate(&d), TL_OK);
    }
}

/* ---- export ----------------------------------------------------------------------- */
typedef struct export_case {
    const char *spec;
    tl_dml_data_type t;
    uint32_t n, sizes[8], strides[8];
    uint64_t total;
} export_case;

static void check_export(const export_case *c)
{
    tl_desc d;
    tl_dml_buffer_tensor_desc m;
    uint32_t sz[8], st[8];
    tl_status s = tl_desc_parse(&d, c->spec);
    if (s == TL_OK) s = tl_dml_export(&d, &m, sz, st);
    if (s != TL_OK) {
        FAILF("%s: %s (%s)", c->spec, tl_status_str(s), tl_last_error());
        return;
    }
    CHECK_STR_EQ(tl_last_error(), "");
    if (m.DataType != c->t || m.DimensionCount != c->n || m.TotalTensorSizeInBytes != c->total ||
        m.Sizes != sz || m.Strides != st)
        FAILF("%s: DataType %d n %u total %llu", c->spec, (int)m.DataType, m.DimensionCount,
              (unsigned long long)m.TotalTensorSizeInBytes);
    for (uint32_t i = 0; i < c->n && i < m.DimensionCount; i++)
        if (sz[i] != c->sizes[i] || st[i] != c->strides[i])
            FAILF("%s: dim %u: size %u stride %u, expected %u %u", c->spec, i, sz[i], st[i], c->sizes[i],
                  c->strides[i]);
    CHECK_STATUS(tl_dml_validate(&m), TL_OK);
}

TL_TEST(export_from_generic_layouts)
{
    static const export_case k[] = {
        /* NHWC given as N,H,W,C: Sizes come out in DirectML's N,C,H,W order */
        {"NHWC:u8:1x224x224x3", TL_DML_TENSOR_DATA_TYPE_UINT8, 4, {1, 3, 224, 224}, {150528, 1, 672, 3}, 150528},
        {"NCHW:f16:1x1x1x3", TL_DML_TENSOR_DATA_TYPE_FLOAT16, 4, {1, 1, 1, 3}, {3, 3, 3, 1}, 8}, /* size 6 -> 8 */
        {"NDHWC:f32:2x3x4x5x6", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 5, {2, 6, 3, 4, 5}, {360, 1, 120, 30, 6}, 2880},
        {"NWC:i8:2x5x3", TL_DML_TENSOR_DATA_TYPE_INT8, 3, {2, 3, 5}, {15, 1, 3}, 32},
        {"CHW:u16:3x4x5", TL_DML_TENSOR_DATA_TYPE_UINT16, 3, {3, 4, 5}, {20, 5, 1}, 120}, /* not N,C,W: by position */
        {"ab:i32:3x4", TL_DML_TENSOR_DATA_TYPE_INT32, 2, {3, 4}, {4, 1}, 48},
        {"NCHW:f32:1x1x2x3:strides=8,8,4,1", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 1, 2, 3}, {8, 8, 4, 1}, 28},
        /* row padding after W: the buffer spans 32 bytes, above DirectML's 28 */
        {"NCHW:f32:1x1x2x3:pad=0,0,0,0,0,0,0,1", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 1, 2, 3}, {8, 8, 4, 1}, 32},
        {"NCHW:u4:1x1x1x5", TL_DML_TENSOR_DATA_TYPE_UINT4, 4, {1, 1, 1, 5}, {5, 5, 5, 1}, 4},
        {"NCHW:f32:1x3x4x4:strides=1,0,0,0", TL_DML_TENSOR_DATA_TYPE_FLOAT32, 4, {1, 3, 4, 4}, {1, 0, 0, 0}, 4},
        {"NCHW:u8:1x3x4x4:size=100", TL_DML_TENSOR_DATA_TYPE_UINT8, 4, {1, 3, 4, 4}, {48, 16, 4, 1}, 100},
        {"dml.nhwc:u8:1x3x224x224", TL_DML_TENSOR_DATA_TYPE_UINT8, 4, {1, 3, 224, 224}, {150528, 1, 672, 3}, 150528},
        {"dml:f16:1x1x1x3", TL_DML_TENSOR_DATA_TYPE_FLOAT16, 4, {1, 1, 1, 3}, {3, 3, 3, 1}, 8},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) check_export(&k[i]);
}

static void check_export_fails(const tl_desc *d, const char *what, const char *msg)
{
    tl_dml_buffer_tensor_desc m;
    uint32_t sz[8], st[8];
    memset(&m, SENTINEL, sizeof m);
    memset(sz, SENTINEL, sizeof sz);
    memset(st, SENTINEL, sizeof st);
    tl_status s = tl_dml_export(d, &m, sz, st);
    if (s != TL_ERR_VENDOR_EXPORT) FAILF("%s: export gave %s (%s)", what, tl_status_str(s), tl_last_error());
    CHECK_STR_CONTAINS(tl_last_error(), msg);
    CHECK_STR_CONTAINS(tl_last_error(), "DirectML");
    const uint8_t *p = (const uint8_t *)&m;
    for (size_t i = 0; i < sizeof m; i++)
        if (p[i] != SENTINEL) { FAILF("%s: output desc written", what); break; }
    for (int i = 0; i < 8; i++)
        if (sz[i] != 0xA5A5A5A5u || st[i] != 0xA5A5A5A5u) { FAILF("%s: arrays written", what); break; }
}

TL_TEST(export_rejects)
{
    static const struct { const char *spec, *msg; } k[] = {
        {"NCHW16c:f32:1x20x2x3", "axes (a blocked layout)"},
        {"NCHW:f32:1x3x4x4:pad=0,0,1,0,0,0,1,0", "pad_lo[2]=1"},
        {"NCHW:bf16:1x3x4x4", "dtype bf16"},
        {"NCHW:bool:1x3x4x4", "dtype bool"},
        {"NCHW:u8:1x3x4x4:offset=16", "plane offset=16"},
        {"abcdefghi:u8:1x1x1x1x1x1x1x1x2", "rank=9"},
        {"ab:u8:65536x65536", "at most 2^32-1"},
        {"NCHW:u8:1x1x65536x65536", "dim 0: stride 4294967296 elements does not fit a UINT"},
        {"ab:u8:2x2:strides=4294967296,1", "does not fit a UINT"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d;
        tl_status s = tl_desc_parse(&d, k[i].spec);
        if (s != TL_OK) {
            /* a generic layout word may not exist for this rank: skip loudly */
            FAILF("%s: %s (%s)", k[i].spec, tl_status_str(s), tl_last_error());
            continue;
        }
        check_export_fails(&d, k[i].spec, k[i].msg);
    }
    /* NV12: three planes */
    tl_desc y;
    REQUIRE_STATUS(tl_desc_init_yuv420(&y, TL_YUV_NV12, 4, 6, 0, 0), TL_OK);
    check_export_fails(&y, "nv12", "nplanes=3");
    /* a byte-granular pitch (larod-style) is not whole f32 elements */
    tl_desc b;
    REQUIRE_STATUS(tl_desc_init_strided(&b, TL_F32, (const int64_t[]){2, 3}, (const int64_t[]){3, 1}, 2), TL_OK);
    b.planes[0].axes[0].stride_bits = 13 * 8;
    REQUIRE_STATUS(tl_desc_update_size(&b), TL_OK);
    REQUIRE_STATUS(tl_desc_validate(&b), TL_OK);
    check_export_fails(&b, "byte pitch", "not a whole number of 32-bit elements");
    tl_dml_buffer_tensor_desc m;
    uint32_t sz[8], st[8];
    CHECK_STATUS(tl_dml_export(NULL, &m, sz, st), TL_ERR_NULL);
    CHECK_STATUS(tl_dml_export(&b, &m, NULL, st), TL_ERR_NULL);
}

/* import(export(import(x))) == import(x), and export(import(x)) == x with
 * explicit strides, over random DML descriptors of every rank and type. */
TL_TEST(random_import_export_round_trip)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 400 && TL_TEST_FAILURES() == 0; iter++) {
        uint32_t n = (uint32_t)tl_rng_range(&r, 1, 8), sz[8], st[8];
        for (uint32_t i = 0; i < n; i++) {
            sz[i] = (uint32_t)tl_rng_range(&r, 1, 5);
            st[i] = (uint32_t)(tl_rng_pick(&r, 4) == 0 ? 0 : tl_rng_range(&r, 1, 500));
        }
        tl_dml_buffer_tensor_desc m = dml_desc((tl_dml_data_type)tl_rng_range(&r, 1, 13), n, sz,
                                               tl_rng_pick(&r, 3) ? st : NULL, 0);
        uint64_t min;
        REQUIRE_STATUS(tl_dml_buffer_tensor_size(m.DataType, n, sz, m.Strides, &min), TL_OK);
        m.TotalTensorSizeInBytes = min + (uint64_t)tl_rng_pick(&r, 3) * 4;
        m.Flags = (uint32_t)tl_rng_pick(&r, 2);
        m.GuaranteedBaseOffsetAlignment = tl_rng_pick(&r, 2) ? 0u : 64u;
        tl_desc d, d2;
        REQUIRE_STATUS(tl_dml_import(&d, &m), TL_OK);
        tl_dml_buffer_tensor_desc e;
        uint32_t es[8], et[8];
        REQUIRE_STATUS(tl_dml_export(&d, &e, es, et), TL_OK);
        CHECK_EQ_I64(e.DataType, m.DataType);
        CHECK_EQ_I64(e.Flags, m.Flags);
        CHECK_EQ_I64(e.DimensionCount, n);
        CHECK_EQ_I64(e.TotalTensorSizeInBytes, m.TotalTensorSizeInBytes);
        CHECK_EQ_I64(e.GuaranteedBaseOffsetAlignment, m.GuaranteedBaseOffsetAlignment);
        CHECK(memcmp(es, sz, n * 4) == 0);
        if (m.Strides) CHECK(memcmp(et, st, n * 4) == 0);
        REQUIRE_STATUS(tl_dml_import(&d2, &e), TL_OK);
        CHECK(memcmp(&d, &d2, sizeof d) == 0);
        /* and the spec string says the same */
        char buf[512];
        REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&d2, buf), TL_OK);
        if (memcmp(&d, &d2, sizeof d) != 0) FAILF("spec %s does not parse back to the same descriptor", buf);
    }
}

/* ---- spec strings ------------------------------------------------------------------ */
TL_TEST(spec_round_trip)
{
    /* canonical specs: format(parse(s)) == s */
    static const char *const k[] = {
        "dml:f32:1x3x5x5",
        "dml:f16:1x1x1x3",
        "dml:u8:2x3x5",
        "dml:i4:1x1x1x5",
        "dml:u4:17",
        "dml:f64:7",
        "dml:i64:2x3",
        "dml:u64:1x2x3x4x5x6x7x8",
        "dml:u32:2x2x2x2x2x2",
        "dml:i32:3x3:strides=1,3",
        "dml:f32:1x1x2x3:strides=8,8,4,1",
        "dml:f32:1x3x4x4:strides=1,0,0,0",
        "dml:u8:2x3:strides=1,1",
        "dml:u8:1x3x224x224:strides=150528,1,672,3",
        "dml.nhwc:u8:1x3x224x224",
        "dml.nhwc:f16:2x3x5",
        "dml.nhwc:f16:2x3x4x5x6:broadcast=0,0,1,0,0",
        "dml.nchw:f32:1x3x4x4",
        "dml.nchw:f32:1x3x4x4:broadcast=0,1,1,1",
        "dml.nchw:i16:7:broadcast=1",
        "dml:f32:1x3x4x4:total=256",
        "dml:f32:1x3x4x4:base_align=32",
        "dml:f32:1x3x4x4:owned=1",
        "dml:f32:2x2:readonly=1",
        "dml.nchw:u8:1x3x2x2:broadcast=0,1,0,0:total=64:base_align=16:owned=1",
        "dml:u8:1x3x4x4:q=affine:scale=0.5:zp=128",
        "dml:i8:4:q=affine:scale=0.25:round=away",
        "dml:u8:2x3:strides=3000000000,1",
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d, d2;
        char buf[512];
        tl_status s = tl_desc_parse(&d, k[i]);
        if (s == TL_OK) s = tl_desc_format(&d, buf, sizeof buf);
        if (s != TL_OK) {
            FAILF("%s: %s (%s)", k[i], tl_status_str(s), tl_last_error());
            continue;
        }
        CHECK_STR_EQ(buf, k[i]);
        REQUIRE_STATUS(tl_desc_parse(&d2, buf), TL_OK);
        if (memcmp(&d, &d2, sizeof d) != 0) FAILF("%s: reparsed descriptor differs", k[i]);
    }
}

/* Non-canonical spellings format to the canonical one, same descriptor. */
TL_TEST(spec_canonical_forms)
{
    static const struct { const char *in, *out; } k[] = {
        {"dml:f32:1x3x4x4:strides=48,16,4,1", "dml:f32:1x3x4x4"},
        {"dml:f16:1x1x1x3:total=8", "dml:f16:1x1x1x3"},
        {"dml.nchw:f32:2x2:broadcast=0,0", "dml.nchw:f32:2x2"},
        {"dml:f32:2x2:owned=0:base_align=0", "dml:f32:2x2"},
        {"dml:u8:2x3:strides=1,1:readonly=1", "dml:u8:2x3:strides=1,1"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d, d2;
        char buf[256];
        REQUIRE_STATUS(tl_desc_parse(&d, k[i].in), TL_OK);
        REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
        CHECK_STR_EQ(buf, k[i].out);
        REQUIRE_STATUS(tl_desc_parse(&d2, buf), TL_OK);
        CHECK(memcmp(&d, &d2, sizeof d) == 0);
    }
}

TL_TEST(spec_errors)
{
    static const struct { const char *spec; tl_status want; const char *msg; } k[] = {
        {"dml.xyz:f32:1x3x4x4", TL_ERR_SPEC_LAYOUT, "dml.xyz: unknown DirectML format"},
        {"dml:bf16:1x3x4x4", TL_ERR_DTYPE, "DirectML has no such"},
        {"dml:bool:4", TL_ERR_DTYPE, "dtype bool"},
        {"dml:f32:1x2x1x2x1x2x1x2x1", TL_ERR_RANK, "9 dims given: DimensionCount must be 1..8 (DirectML)"},
        {"dml:u8:4294967296", TL_ERR_VENDOR, "dims[0]=4294967296"},
        {"dml:u8:65536x65536", TL_ERR_VENDOR, "at most 2^32-1"},
        {"dml:f32:2x2:strides=1", TL_ERR_SPEC_VALUE, "strides=1"},
        {"dml:f32:2x2:strides=-1,1", TL_ERR_STRIDE, "strides[0]=-1"},
        {"dml:f32:2x2:strides=4294967296,1", TL_ERR_SPEC_VALUE, "strides[0]=4294967296"},
        {"dml:f32:2x2:broadcast=1,0", TL_ERR_SPEC_OPTION, "broadcast= is for dml.nchw and dml.nhwc"},
        {"dml.nchw:f32:2x2:strides=2,1", TL_ERR_SPEC_OPTION, "strides= is not for dml.nchw"},
        {"dml.nhwc:f32:1x2x2x2:strides=4,1,4,2", TL_ERR_SPEC_OPTION, "strides= is not for dml.nhwc"},
        {"dml.nchw:f32:2x2:broadcast=2,0", TL_ERR_SPEC_VALUE, "each must be 0 or 1"},
        {"dml.nchw:f32:2x2:broadcast=1", TL_ERR_SPEC_VALUE, "broadcast=1"},
        {"dml.nhwc:f32:1x2x1x2x1x2x1x2x1", TL_ERR_RANK, "DimensionCount must be 1..8"},
        {"dml:f16:1x1x1x3:total=6", TL_ERR_SIZE, "TotalTensorSizeInBytes=6 < 8"},
        {"dml:f32:2x2:total=-1", TL_ERR_SPEC_VALUE, "total=-1"},
        {"dml:f32:2x2:total=abc", TL_ERR_SPEC_VALUE, "total=abc"},
        {"dml:f32:2x2:base_align=2", TL_ERR_VENDOR, "GuaranteedBaseOffsetAlignment=2"},
        {"dml:f32:2x2:base_align=12", TL_ERR_VENDOR, "GuaranteedBaseOffsetAlignment=12"},
        {"dml:f32:2x2:base_align=4294967296", TL_ERR_SPEC_VALUE, "base_align=4294967296"},
        {"dml:f32:2x2:owned=2", TL_ERR_SPEC_VALUE, "owned=2: must be 0 or 1 (DirectML)"},
        {"dml:f32:2x2:readonly=yes", TL_ERR_SPEC_VALUE, "readonly=yes"},
        {"dml:f32:2x2:pad=0,0,1,1", TL_ERR_SPEC_OPTION, "option 'pad' is not known for layout dml"},
        {"dml:f32:2x2:align=0,0", TL_ERR_SPEC_OPTION, "option 'align' is not known"},
        {"dml:u8:1x1x1x1:strides=4294967295,4294967295,4294967295,4294967295", TL_OK, ""},
        {"dml:f64:2x2x2x2x2x2x2x2:strides=4294967295,4294967295,4294967295,4294967295,4294967295,4294967295,"
         "4294967295,4294967295", TL_OK, ""},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d;
        sentinel_desc(&d);
        tl_status s = tl_desc_parse(&d, k[i].spec);
        if (s != k[i].want) {
            FAILF("%s: %s, expected %s (%s)", k[i].spec, tl_status_str(s), tl_status_str(k[i].want), tl_last_error());
            continue;
        }
        if (s == TL_OK) continue;
        CHECK_STR_CONTAINS(tl_last_error(), k[i].msg);
        if (!desc_untouched(&d)) FAILF("%s: output written on failure", k[i].spec);
    }
}

/* A DirectML descriptor changed after it was built has no spec string: format
 * says so instead of printing one that describes something else. */
TL_TEST(format_refuses_edited_descriptor)
{
    tl_desc d;
    char buf[256];
    REQUIRE_STATUS(tl_desc_parse(&d, "dml.nhwc:u8:1x3x2x2"), TL_OK);
    tl_desc e = d;
    e.labels[0] = 0; /* still valid, but not what dml.nhwc builds */
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(tl_desc_format(&e, buf, sizeof buf), TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "(DirectML)");
    CHECK((uint8_t)buf[0] == SENTINEL);
    e = d;
    e.planes[0].axes[3].stride_bits = 8 * 9; /* W stride 9: no longer NHWC */
    REQUIRE_STATUS(tl_desc_update_size(&e), TL_OK);
    REQUIRE_STATUS(tl_desc_validate(&e), TL_OK);
    CHECK_STATUS(tl_desc_format(&e, buf, sizeof buf), TL_ERR_UNSUPPORTED);
    e = d;
    e.vendor_format = 9; /* validation checks the vendor fields' domains */
    CHECK_STATUS(tl_desc_format(&e, buf, sizeof buf), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "vendor_format=9: must be 0..2 (DirectML)");
}

/* ---- describe --json and explain ----------------------------------------------------- */
static void json_of(const char *spec, char *buf, size_t cap)
{
    tl_desc d;
    tl_strbuf sb = {buf, cap, 0};
    buf[0] = 0;
    if (tl_desc_parse(&d, spec) != TL_OK) {
        FAILF("%s: %s", spec, tl_last_error());
        return;
    }
    tl_desc_json(&d, &sb);
    if (sb.len >= cap) FAILF("%s: json truncated", spec);
}

TL_TEST(json_extras)
{
    static char buf[16384];
    json_of("dml.nhwc:u8:1x3x224x224", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"dml_strides\": [150528, 1, 672, 3]");
    CHECK_STR_CONTAINS(buf, "\"dml_total_bytes\": 150528,");
    CHECK_STR_CONTAINS(buf, "\"dml_data_type\": \"UINT8\"");
    CHECK_STR_CONTAINS(buf, "\"dml_sizes\": [1, 3, 224, 224]");
    CHECK_STR_CONTAINS(buf, "\"spec\": \"dml.nhwc:u8:1x3x224x224\"");
    json_of("dml:f16:1x1x1x3", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"dml_total_bytes\": 8,");
    CHECK_STR_CONTAINS(buf, "\"dml_strides\": [3, 3, 3, 1]");
    json_of("dml:f32:1x3x4x4:total=256:base_align=32:owned=1", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"dml_total_bytes\": 256, \"dml_min_total_bytes\": 192, \"dml_base_align\": 32, "
                            "\"dml_flags\": 1}");
    json_of("NCHW:f32:1x3x4x4", buf, sizeof buf); /* not a DirectML descriptor: no extras */
    CHECK(strstr(buf, "dml_") == NULL);
}

TL_TEST(explain_sentences)
{
    const tl_vendor_ops *ops = tl_vendor_find(TL_VENDOR_DML);
    REQUIRE(ops && ops->explain);
    static const struct { const char *spec; const char *want[3]; } k[] = {
        {"dml.nhwc:u8:1x3x224x224", {"fixed logical order NCHW", "CalculateStrides(NHWC)", "memory order N,H,W,C"}},
        {"dml.nchw:f32:1x3x4x4:broadcast=0,1,1,1", {"Broadcast (stride 0) Sizes index 1, 2, 3", "never a destination",
                                                    "= 4. TotalTensorSizeInBytes is 4"}},
        {"dml:u8:2x3:strides=1,1", {"share memory", "operator decides", "GuaranteedBaseOffsetAlignment 0"}},
        {"dml:i4:1x1x1x5:total=8:owned=1", {"low nibble", "above the minimum", "OWNED_BY_DML"}},
        {"dml:f16:1x1x1x3:base_align=16", {"(2 + 1) x 16 bits = 48 bits, 6 bytes rounded up to a multiple of 4 = 8",
                                           "packed row-major", "multiples of 16 bytes"}},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++) {
        tl_desc d;
        char buf[4096];
        tl_strbuf sb = {buf, sizeof buf, 0};
        buf[0] = 0;
        REQUIRE_STATUS(tl_desc_parse(&d, k[i].spec), TL_OK);
        ops->explain(&d, &sb);
        for (int j = 0; j < 3; j++) CHECK_STR_CONTAINS(buf, k[i].want[j]);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(data_types);
    TL_RUN(vectors_d1_to_d7_size_function);
    TL_RUN(vectors_d1_to_d7_specs);
    TL_RUN(vectors_d8_d9_calc_strides);
    TL_RUN(calc_strides_other_ranks);
    TL_RUN(calc_strides_errors);
    TL_RUN(vector_d10_zero_size_rejected);
    TL_RUN(sizes_above_4gib);
    TL_RUN(above_4gib_descriptors);
    TL_RUN(size_overflow_rejected);
    TL_RUN(int4_odd_counts);
    TL_RUN(validation_errors);
    TL_RUN(validation_flags_and_alignment);
    TL_RUN(import_maps_to_one_axis_per_dim);
    TL_RUN(read_only_decisions);
    TL_RUN(export_from_generic_layouts);
    TL_RUN(export_rejects);
    TL_RUN(random_import_export_round_trip);
    TL_RUN(spec_round_trip);
    TL_RUN(spec_canonical_forms);
    TL_RUN(spec_errors);
    TL_RUN(format_refuses_edited_descriptor);
    TL_RUN(json_extras);
    TL_RUN(explain_sentences);
    return tl_test_finish();
}
