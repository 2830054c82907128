/* TensorRT / DLA formats (src/vendors/trt.c): every numbered case N1-N18 of
 * docs/tensorrt.md, derived from NvInferRuntime.h, the runtime strides of getTensorStrides, descriptors from runtime
 * strides, INT4 packing, symmetric INT8 quantization, and the two conversions
 * of the issue, each checked against index arithmetic written out here. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

#define SENTINEL 0xA5

static tl_desc parse_ok(const char *spec)
{
    tl_desc d;
    memset(&d, 0, sizeof d);
    tl_status s = tl_desc_parse(&d, spec);
    if (s != TL_OK) FAILF("parse '%s': %s: %s", spec, tl_status_str(s), tl_last_error());
    return d;
}

static int64_t offset_of(const tl_desc *d, int64_t n, int64_t c, int64_t h, int64_t w)
{
    const int64_t x[4] = {n, c, h, w};
    uint64_t off = 0;
    tl_status s = tl_desc_offset(d, x, &off);
    if (s != TL_OK) FAILF("offset: %s: %s", tl_status_str(s), tl_last_error());
    return (int64_t)off;
}

/* Byte stride of the H axis (the row pitch). */
static int64_t row_bytes(const tl_desc *d)
{
    for (int a = 0; a < d->planes[0].naxes; a++)
        if (d->planes[0].axes[a].dim == d->rank - 2) return d->planes[0].axes[a].stride_bits / 8;
    return -1;
}

static tl_trt_dims mkdims(int n, const int64_t *v)
{
    tl_trt_dims t;
    memset(&t, 0, sizeof t);
    t.nbDims = n;
    for (int i = 0; i < n; i++) t.d[i] = v[i];
    return t;
}

static void check_strides(const tl_desc *d, const int64_t *want, int v, int V)
{
    tl_trt_runtime rt;
    REQUIRE_STATUS(tl_trt_runtime_info(d, &rt), TL_OK);
    REQUIRE_EQ_I64(rt.strides.nbDims, d->rank);
    for (int i = 0; i < d->rank; i++)
        if (rt.strides.d[i] != want[i]) FAILF("strides[%d] = %lld, want %lld", i, (long long)rt.strides.d[i], (long long)want[i]);
    CHECK_EQ_I64(rt.vectorized_dim, v);
    CHECK_EQ_I64(rt.components_per_element, V);
}

/* ---- vectors ---------------------------------------------------------------- */

TL_TEST(n1_n2_chw32_int8)
{
    tl_desc d = parse_ok("trt.chw32:i8:1x3x224x224");
    CHECK_EQ_I64(d.size_bytes, 1605632);
    CHECK_EQ_I64(d.pad_hi[1], 29);
    CHECK_EQ_I64(offset_of(&d, 0, 2, 1, 5), 7330);
    CHECK_EQ_I64(d.vendor_format, TL_TRT_CHW32);
}

TL_TEST(n3_chw16_fp16)
{
    tl_desc d = parse_ok("trt.chw16:f16:1x3x224x224");
    CHECK_EQ_I64(d.size_bytes, 16 * 50176 * 2);
    CHECK_EQ_I64(d.size_bytes, 1605632);
}

TL_TEST(n4_chw4_int8)
{
    tl_desc d = parse_ok("trt.chw4:i8:2x5x3x3");
    CHECK_EQ_I64(d.size_bytes, 144);
    CHECK_EQ_I64(offset_of(&d, 1, 4, 2, 1), 136);
}

TL_TEST(n5_n6_hwc8_fp16)
{
    tl_desc d = parse_ok("trt.hwc8:f16:1x3x4x5");
    CHECK_EQ_I64(d.size_bytes, 320);
    CHECK_EQ_I64(offset_of(&d, 0, 2, 1, 3), 66 * 2);
    /* N6: the runtime strides {N:20, C:1, H:5, W:1}, v=1, V=8, through the
     * trtexec formula give the same element 66. */
    const int64_t want[4] = {20, 1, 5, 1};
    check_strides(&d, want, 1, 8);
    int64_t n = 0, c = 2, h = 1, w = 3, V = 8;
    int64_t off = n * 20 * V + h * 5 * V + w * 1 * V + (c / V) * 1 * V + c % V;
    CHECK_EQ_I64(off, 66);
}

TL_TEST(n7_hwc16_int8)
{
    tl_desc d = parse_ok("trt.hwc16:i8:1x20x2x2");
    CHECK_EQ_I64(d.size_bytes, 128);
    CHECK_EQ_I64(d.pad_hi[1], 12);
}

TL_TEST(n8_dhwc8_fp16)
{
    tl_desc d = parse_ok("trt.dhwc8:f16:1x3x2x4x5");
    CHECK_EQ_I64(d.size_bytes, 640);
    CHECK_STR_EQ(d.labels, "NCDHW");
}

TL_TEST(n9_cdhw32_int8)
{
    tl_desc d = parse_ok("trt.cdhw32:i8:1x40x2x3x3");
    CHECK_EQ_I64(d.size_bytes, 1152);
    const int64_t x[5] = {0, 35, 1, 2, 1};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
    CHECK_EQ_I64(off, (((1 * 2 + 1) * 3 + 2) * 3 + 1) * 32 + 3);
}

TL_TEST(n10_hwc_fp32)
{
    tl_desc d = parse_ok("trt.hwc:f32:1x3x2x2");
    CHECK_EQ_I64(d.size_bytes, 48);
    for (int c = 0; c < 3; c++)
        for (int h = 0; h < 2; h++)
            for (int w = 0; w < 2; w++) CHECK_EQ_I64(offset_of(&d, 0, c, h, w), ((h * 2 + w) * 3 + c) * 4);
}

TL_TEST(n11_dla_linear_int8)
{
    tl_desc d = parse_ok("trt.dla_linear:i8:1x3x10x300");
    CHECK_EQ_I64(row_bytes(&d), 320);
    CHECK_EQ_I64(d.size_bytes, 9600);
    CHECK_EQ_I64(d.pad_hi[3], 20);
}

TL_TEST(n12_dla_linear_fp16)
{
    tl_desc d = parse_ok("trt.dla_linear:f16:1x3x10x300");
    CHECK_EQ_I64(row_bytes(&d), 640);
    CHECK_EQ_I64(d.size_bytes, 19200);
    CHECK_EQ_I64(d.pad_hi[3], 20);
}

TL_TEST(n13_dla_hwc4_orin)
{
    tl_desc d = parse_ok("trt.dla_hwc4:i8:1x3x2x5");
    tl_desc e = parse_ok("trt.dla_hwc4:i8:1x3x2x5:gen=orin");
    CHECK(memcmp(&d, &e, sizeof d) == 0); /* Orin is the default */
    CHECK_EQ_I64(d.pad_hi[1], 1);         /* C' = 4 */
    CHECK_EQ_I64(d.pad_hi[3], 11);        /* W' = rup(5, 16) = 16 */
    CHECK_EQ_I64(row_bytes(&d), 64);
    CHECK_EQ_I64(d.size_bytes, 128);
    CHECK_EQ_I64(offset_of(&d, 0, 2, 1, 4), 64 + 4 * 4 + 2);
}

TL_TEST(n14_dla_hwc4_xavier)
{
    tl_desc d = parse_ok("trt.dla_hwc4:i8:1x3x2x5:gen=xavier");
    CHECK_EQ_I64(d.pad_hi[3], 3); /* W' = rup(5, 8) = 8 */
    CHECK_EQ_I64(row_bytes(&d), 32);
    CHECK_EQ_I64(d.size_bytes, 64);
    CHECK_EQ_I64(d.vendor_params[0], TL_TRT_DLA_XAVIER);
}

/* N15: the developer guide's "multiple of 64/elementSize" reading drops /C':
 * W' = rup(5, 64) = 64 pixels of 4 lanes, 256-byte rows, 512 bytes. It differs
 * from what tlayout produces, and tlayout never produces it. */
TL_TEST(n15_dla_hwc4_misreading_rejected)
{
    tl_desc d = parse_ok("trt.dla_hwc4:i8:1x3x2x5");
    int64_t es = 1, cp = 4, w = 5, h = 2;
    int64_t mis_w = (w + 64 / es - 1) / (64 / es) * (64 / es);
    int64_t mis_row = mis_w * cp * es, mis_size = h * mis_row;
    CHECK_EQ_I64(mis_row, 256);
    CHECK_EQ_I64(mis_size, 512);
    CHECK(row_bytes(&d) != mis_row);
    CHECK(d.size_bytes != mis_size);
    CHECK_EQ_I64(mis_row / row_bytes(&d), 4);
    /* Nor can the misread layout be handed in as runtime strides: its W'
     * (64 pixels) is accepted only because 256 is a multiple of 64; what we
     * build from the spec is not it. */
    tl_trt_runtime rt;
    REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    CHECK(rt.strides.d[2] != mis_w);
    CHECK_EQ_I64(rt.strides.d[2], 16);
    char buf[4096];
    tl_strbuf sb = {buf, sizeof buf, 0};
    tl_vendor_find(TL_VENDOR_TRT)->explain(&d, &sb);
    CHECK_STR_CONTAINS(buf, "256-byte rows");
}

TL_TEST(n16_dla_hwc4_fp16_gray)
{
    tl_desc d = parse_ok("trt.dla_hwc4:f16:1x1x1x5");
    CHECK_EQ_I64(d.pad_hi[1], 0); /* C' = 1 */
    CHECK_EQ_I64(d.pad_hi[3], 27); /* W' = rup(5, 32) = 32 */
    CHECK_EQ_I64(row_bytes(&d), 64);
    tl_trt_runtime rt;
    REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    CHECK_EQ_I64(rt.vectorized_dim, -1); /* one scalar per vector */
    CHECK_EQ_I64(rt.components_per_element, -1);
}

TL_TEST(n17_dla_hwc4_w300)
{
    tl_desc d = parse_ok("trt.dla_hwc4:i8:1x3x300x300:gen=orin");
    CHECK_EQ_I64(d.pad_hi[3], 4); /* W' = 304 */
    CHECK_EQ_I64(row_bytes(&d), 1216);
    CHECK_EQ_I64(row_bytes(&d), 19 * 64);
    CHECK_EQ_I64(d.size_bytes, 300 * 1216);
}

TL_TEST(n18_int4_low_nibble_first)
{
    tl_desc s = parse_ok("trt.linear:i4:4"), d = parse_ok("trt.linear:i8:4");
    CHECK_EQ_I64(s.size_bytes, 2);
    CHECK_EQ_I64(s.labels[0], 'W');
    const uint8_t src[2] = {0x21, 0xF3};
    int8_t dst[4];
    memset(dst, SENTINEL, sizeof dst);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    CHECK_EQ_I64(dst[0], 1);
    CHECK_EQ_I64(dst[1], 2);
    CHECK_EQ_I64(dst[2], 3);
    CHECK_EQ_I64(dst[3], -1);
    /* and back: element 0 is the low nibble */
    uint8_t back[2] = {0, 0};
    REQUIRE_STATUS(tl_convert(&d, dst, sizeof dst, &s, back, sizeof back), TL_OK);
    CHECK_EQ_I64(back[0], 0x21);
    CHECK_EQ_I64(back[1], 0xF3);
}

/* ---- §5.3 runtime strides ---------------------------------------------------------- */

TL_TEST(runtime_strides_derived)
{
    /* kCHW32 {N,C,H,W}: W 1, H W, C H*W, N cdiv(C,32)*H*W. */
    tl_desc d = parse_ok("trt.chw32:i8:2x40x3x5");
    const int64_t chw32[4] = {2 * 15, 15, 5, 1};
    check_strides(&d, chw32, 1, 32);
    /* kHWC8: C 1, W cdiv(C,8), H W*cdiv(C,8), N H*W*cdiv(C,8). */
    d = parse_ok("trt.hwc8:f16:2x20x3x5");
    const int64_t hwc8[4] = {3 * 5 * 3, 1, 5 * 3, 3};
    check_strides(&d, hwc8, 1, 8);
    /* kHWC: C 1, W C, H W*C, N H*W*C (v = -1). */
    d = parse_ok("trt.hwc:u8:2x3x4x5");
    const int64_t hwc[4] = {60, 1, 15, 3};
    check_strides(&d, hwc, -1, -1);
    /* kDLA_LINEAR: W 1, H rup(W,64/es), C H*rup, N C*H*rup (v = -1). */
    d = parse_ok("trt.dla_linear:i8:2x3x10x300");
    const int64_t dlal[4] = {3 * 10 * 320, 10 * 320, 320, 1};
    check_strides(&d, dlal, -1, -1);
    /* kLINEAR of any rank, kDHWC. */
    d = parse_ok("trt.linear:f32:7");
    const int64_t lin1[1] = {1};
    check_strides(&d, lin1, -1, -1);
    d = parse_ok("trt.dhwc:f32:1x3x2x4x5");
    const int64_t dhwc[5] = {120, 1, 60, 15, 3};
    check_strides(&d, dhwc, -1, -1);
    tl_trt_runtime rt;
    REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    CHECK_EQ_I64(rt.bytes_per_component, -1);
    CHECK_EQ_I64(rt.format, TL_TRT_DHWC);
    d = parse_ok("trt.chw16:f16:1x3x2x2");
    REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    CHECK_EQ_I64(rt.bytes_per_component, 2);
}

TL_TEST(done_when_hwc8_json)
{
    tl_desc d = parse_ok("trt.hwc8:f16:1x3x4x5");
    char buf[8192];
    tl_strbuf sb = {buf, sizeof buf, 0};
    tl_desc_json(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"trt_strides\": [20, 1, 5, 1]");
    CHECK_STR_CONTAINS(buf, "\"trt_format\": \"kHWC8\"");
    CHECK_STR_CONTAINS(buf, "\"trt_vectorized_dim\": 1");
    CHECK_STR_CONTAINS(buf, "\"trt_components_per_element\": 8");
    CHECK_STR_CONTAINS(buf, "\"trt_dla\": null");
    CHECK_STR_CONTAINS(buf, "\"spec\": \"trt.hwc8:f16:1x3x4x5\"");
}

TL_TEST(json_dla_members)
{
    tl_desc d = parse_ok("trt.dla_hwc4:i8:1x3x2x5:gen=xavier");
    char buf[8192];
    tl_strbuf sb = {buf, sizeof buf, 0};
    tl_desc_json(&d, &sb);
    CHECK_STR_CONTAINS(buf, "\"trt_dla\": \"input\", \"trt_dla_gen\": \"xavier\"");
    CHECK_STR_CONTAINS(buf, "\"trt_strides\": [16, 1, 8, 1]");
    sb.len = 0;
    d = parse_ok("trt.chw4:f16:1x5x3x3");
    tl_desc_json(&d, &sb);
    CHECK_STR_CONTAINS(buf, "\"trt_type_versions\": [\"8.6\", \"10.x\"]");
}

/* ---- labels and types ------------------------------------------------------------------ */

TL_TEST(labels_by_role)
{
    CHECK_STR_EQ(parse_ok("trt.chw32:i8:3x4x5").labels, "CHW");
    CHECK_STR_EQ(parse_ok("trt.linear:f32:4x5").labels, "HW");
    CHECK_STR_EQ(parse_ok("trt.linear:f32:2x3x4x5x6").labels, "NCDHW");
    tl_desc d = parse_ok("trt.linear:f32:2x2x3x4x5x6");
    CHECK(d.labels[0] == 0);
    CHECK_STR_EQ(d.labels + 1, "NCDHW");
    d = parse_ok("trt.chw32:i8:2x1x3x4x5");
    CHECK(d.labels[0] == 0);
    CHECK_STR_EQ(d.labels + 1, "NCHW");
    CHECK_STR_EQ(parse_ok("trt.cdhw32:f16:3x2x4x5").labels, "CDHW");
    CHECK_STR_EQ(parse_ok("trt.dhwc:f32:7x3x2x4x5").labels, "NCDHW");
}

/* Types some versions allow are accepted (the union), and the JSON and the
 * explanation say which versions. */
TL_TEST(types_union_of_versions)
{
    static const struct { const char *spec, *versions; } ok[] = {
        {"trt.chw2:bf16:1x3x2x2", "[\"11.1\"]"},
        {"trt.chw2:f16:1x3x2x2", "[\"8.6\", \"10.x\", \"11.1\"]"},
        {"trt.chw4:f16:1x3x2x2", "[\"8.6\", \"10.x\"]"},
        {"trt.hwc8:bf16:1x3x2x2", "[\"10.x\", \"11.1\"]"},
        {"trt.hwc16:i8:1x3x2x2", "[\"10.x\", \"11.1\"]"},
        {"trt.hwc:f16:1x3x2x2", "[\"10.x\"]"},
        {"trt.hwc:u8:1x3x2x2", "[\"8.6\", \"10.x\", \"11.1\"]"},
        {"trt.chw32:f32:1x3x2x2", "[\"8.6\", \"10.x\", \"11.1\"]"},
        {"trt.dhwc:f32:1x3x2x2x2", "[\"10.x\", \"11.1\"]"},
        {"trt.linear:i4:8", "[\"10.x\", \"11.1\"]"},
        {"trt.linear:bool:8", "[\"8.6\", \"10.x\", \"11.1\"]"},
        {"trt.linear:i64:8", "[\"10.x\", \"11.1\"]"},
    };
    for (size_t k = 0; k < sizeof ok / sizeof ok[0]; k++) {
        tl_desc d = parse_ok(ok[k].spec);
        char buf[8192], want[128];
        tl_strbuf sb = {buf, sizeof buf, 0};
        tl_desc_json(&d, &sb);
        snprintf(want, sizeof want, "\"trt_type_versions\": %s", ok[k].versions);
        CHECK_STR_CONTAINS(buf, want);
    }
    tl_desc d = parse_ok("trt.chw4:f16:1x3x2x2");
    char buf[4096];
    tl_strbuf sb = {buf, sizeof buf, 0};
    tl_vendor_find(TL_VENDOR_TRT)->explain(&d, &sb);
    CHECK_STR_CONTAINS(buf, "allowed for kCHW4 by TensorRT 8.6 and 10.x only");
}

TL_TEST(enum_names_and_dtypes)
{
    CHECK_STR_EQ(tl_trt_format_name(TL_TRT_DLA_HWC4), "kDLA_HWC4");
    CHECK_STR_EQ(tl_trt_format_name(13), "?");
    CHECK_STR_EQ(tl_trt_datatype_name(TL_TRT_E8M0), "kE8M0");
    CHECK_STR_EQ(tl_trt_datatype_name(-1), "?");
    CHECK_EQ_I64(tl_trt_dtype_of(TL_TRT_INT4), TL_I4);
    CHECK_EQ_I64(tl_trt_dtype_of(TL_TRT_FP8), TL_DT_INVALID);
    CHECK_EQ_I64(tl_trt_datatype_of(TL_BF16), TL_TRT_BF16);
    CHECK_EQ_I64(tl_trt_datatype_of(TL_U16), -1);
    CHECK_EQ_I64(tl_trt_datatype_of(TL_DT_INVALID), -1);
    /* the enum spelling is accepted as the format name */
    tl_desc a = parse_ok("trt.kCHW32:i8:1x3x2x2"), b = parse_ok("trt.chw32:i8:1x3x2x2");
    CHECK(memcmp(&a, &b, sizeof a) == 0);
}

/* ---- descriptors from runtime strides ------------------------------------------------- */

TL_TEST(from_runtime_packed_is_spec)
{
    static const char *const specs[] = {
        "trt.chw32:i8:1x3x224x224", "trt.hwc8:f16:1x3x4x5", "trt.dla_hwc4:i8:1x3x300x300",
        "trt.dla_linear:f16:1x3x10x300", "trt.cdhw32:i8:1x40x2x3x3", "trt.hwc:u8:1x3x4x5",
        "trt.linear:f32:2x3x4x5", "trt.chw2:f16:1x5x3x3", "trt.dhwc8:f16:1x3x2x4x5",
    };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        tl_desc d = parse_ok(specs[k]), e;
        tl_trt_runtime rt;
        REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
        tl_trt_dims dims = mkdims(d.rank, d.dims);
        memset(&e, SENTINEL, sizeof e);
        REQUIRE_STATUS(tl_trt_desc_from_runtime(&e, d.vendor_format, tl_trt_datatype_of((tl_dtype)d.dtype), &dims, &rt.strides), TL_OK);
        if (memcmp(&d, &e, sizeof d) != 0) FAILF("%s: from_runtime(packed strides) differs from the spec", specs[k]);
        memset(&e, SENTINEL, sizeof e);
        REQUIRE_STATUS(tl_trt_desc_from_runtime(&e, d.vendor_format, tl_trt_datatype_of((tl_dtype)d.dtype), &dims, NULL), TL_OK);
        if (memcmp(&d, &e, sizeof d) != 0) FAILF("%s: from_runtime(NULL strides) differs from the spec", specs[k]);
    }
}

/* kLINEAR with a padded row: H stride 320 elements for W=300. The gap is
 * padding of W (zeroed by converters); element (n,c,h,w) at the strides. */
TL_TEST(from_runtime_padded_linear)
{
    const int64_t dv[4] = {1, 3, 10, 300}, sv[4] = {9600, 3200, 320, 1};
    tl_trt_dims dims = mkdims(4, dv), strides = mkdims(4, sv);
    tl_desc d;
    REQUIRE_STATUS(tl_trt_desc_from_runtime(&d, TL_TRT_LINEAR, TL_TRT_INT8, &dims, &strides), TL_OK);
    CHECK_EQ_I64(d.pad_hi[3], 20);
    CHECK_EQ_I64(d.size_bytes, 9600);
    CHECK_EQ_I64(offset_of(&d, 0, 2, 9, 299), 2 * 3200 + 9 * 320 + 299);
    char spec[256];
    REQUIRE_STATUS(tl_desc_format(&d, spec, sizeof spec), TL_OK);
    CHECK_STR_EQ(spec, "trt.linear:i8:1x3x10x300:strides=9600,3200,320,1");
    tl_desc e = parse_ok(spec);
    CHECK(memcmp(&d, &e, sizeof d) == 0);
}

/* kCHW32 with each W row padded to 8 vectors and a batch stride with slack. */
TL_TEST(from_runtime_padded_chw32)
{
    const int64_t dv[4] = {2, 40, 3, 5}, sv[4] = {60, 24, 8, 1};
    tl_trt_dims dims = mkdims(4, dv), strides = mkdims(4, sv);
    tl_desc d;
    REQUIRE_STATUS(tl_trt_desc_from_runtime(&d, TL_TRT_CHW32, TL_TRT_HALF, &dims, &strides), TL_OK);
    CHECK_EQ_I64(d.pad_hi[3], 3);            /* W 5 -> 8 */
    CHECK_EQ_I64(d.size_bytes, 2 * 60 * 32 * 2); /* strides[0]*dims[0]*V scalars */
    for (int n = 0; n < 2; n++)
        for (int c = 0; c < 40; c++)
            for (int h = 0; h < 3; h++)
                for (int w = 0; w < 5; w++) {
                    int64_t want = (n * 60 * 32 + h * 8 * 32 + w * 32 + (c / 32) * 24 * 32 + c % 32) * 2;
                    if (offset_of(&d, n, c, h, w) != want) FAILF("(%d,%d,%d,%d)", n, c, h, w);
                }
    tl_trt_dims back;
    REQUIRE_STATUS(tl_trt_runtime_strides(&d, &back), TL_OK);
    CHECK(memcmp(back.d, sv, sizeof sv) == 0);
}

/* Permuted strides (an NHWC array reported as kLINEAR strides) give the true
 * memory order, outermost first. */
TL_TEST(from_runtime_permuted)
{
    const int64_t dv[4] = {1, 3, 4, 5}, sv[4] = {60, 1, 15, 3};
    tl_trt_dims dims = mkdims(4, dv), strides = mkdims(4, sv);
    tl_desc d, hwc = parse_ok("trt.hwc:f32:1x3x4x5");
    REQUIRE_STATUS(tl_trt_desc_from_runtime(&d, TL_TRT_LINEAR, TL_TRT_FLOAT, &dims, &strides), TL_OK);
    CHECK_EQ_I64(d.planes[0].axes[3].dim, 1);
    for (int c = 0; c < 3; c++)
        for (int h = 0; h < 4; h++)
            for (int w = 0; w < 5; w++) CHECK_EQ_I64(offset_of(&d, 0, c, h, w), offset_of(&hwc, 0, c, h, w));
}

TL_TEST(tensor_struct_and_dla_roles)
{
    tl_trt_tensor t;
    memset(&t, 0, sizeof t);
    t.format = TL_TRT_CHW16;
    t.type = TL_TRT_HALF;
    const int64_t dv[4] = {1, 20, 8, 8};
    t.dims = mkdims(4, dv);
    t.dla_role = TL_TRT_DLA_OUTPUT;
    tl_desc d;
    REQUIRE_STATUS(tl_trt_desc_init(&d, &t), TL_OK);
    CHECK_EQ_I64(d.vendor_params[1], TL_TRT_DLA_OUTPUT);
    char spec[256];
    REQUIRE_STATUS(tl_desc_format(&d, spec, sizeof spec), TL_OK);
    CHECK_STR_EQ(spec, "trt.chw16:f16:1x20x8x8:dla=output");
    /* the DLA formats carry their role: kDLA_HWC4 an input, kDLA_LINEAR any */
    CHECK_EQ_I64(parse_ok("trt.dla_hwc4:f16:1x4x2x2").vendor_params[1], TL_TRT_DLA_INPUT);
    CHECK_EQ_I64(parse_ok("trt.dla_linear:f16:1x4x2x2").vendor_params[1], TL_TRT_DLA_ANY);
    CHECK_EQ_I64(parse_ok("trt.dla_linear:f16:1x4x2x2:dla=output").vendor_params[1], TL_TRT_DLA_OUTPUT);
    CHECK_EQ_I64(parse_ok("trt.chw32:i8:1x4x2x2:dla=input:gen=xavier").vendor_params[0], TL_TRT_DLA_XAVIER);
    /* deprecated kCHW4 DLA input: 4 lanes x W=16 x 1 byte = a 64-byte row */
    tl_desc c4 = parse_ok("trt.chw4:i8:1x3x2x16:dla=input");
    CHECK_EQ_I64(row_bytes(&c4), 64);
    /* limits at the edge are fine */
    parse_ok("trt.chw32:i8:4096x8192x1x1:dla=input");
    parse_ok("trt.dla_linear:i8:2x2048x1x8192");
}

/* ---- quantization ---------------------------------------------------------------------- */

TL_TEST(symmetric_int8_quant)
{
    tl_desc d = parse_ok("trt.chw32:i8:1x3x2x2:scale=0.5");
    CHECK_EQ_I64(d.quant.kind, TL_Q_AFFINE);
    CHECK_EQ_I64(d.quant.zp, 0);
    CHECK_EQ_I64(d.quant.round, TL_ROUND_EVEN);
    tl_desc e = parse_ok("trt.chw32:i8:1x3x2x2:q=affine:scale=0.5:zp=0:round=even");
    CHECK(memcmp(&d, &e, sizeof d) == 0);
    /* ties to even: 1.25/0.5 = 2.5 -> 2, 1.75/0.5 = 3.5 -> 4, -0.25/0.5 = -0.5 -> -0 */
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, 1.25f), 2);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, 1.75f), 4);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, -0.25f), 0);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, 1000.f), 127);
    CHECK_EQ_I64(tl_quantize_value(&d.quant, TL_I8, -1000.f), -128);
    char spec[256];
    REQUIRE_STATUS(tl_desc_format(&d, spec, sizeof spec), TL_OK);
    CHECK_STR_EQ(spec, "trt.chw32:i8:1x3x2x2:q=affine:scale=0.5");
    /* the struct path */
    tl_trt_tensor t;
    memset(&t, 0, sizeof t);
    t.format = TL_TRT_LINEAR;
    t.type = TL_TRT_INT4;
    const int64_t dv[1] = {6};
    t.dims = mkdims(1, dv);
    t.scale = 0.25f;
    REQUIRE_STATUS(tl_trt_desc_init(&e, &t), TL_OK);
    CHECK_EQ_I64(e.quant.kind, TL_Q_AFFINE);
    CHECK_EQ_I64(tl_quantize_value(&e.quant, TL_I4, 0.375f), 2); /* 1.5 -> 2 */
    CHECK_EQ_I64(tl_quantize_value(&e.quant, TL_I4, 9.0f), 7);
}

/* ---- conversions against independent index arithmetic ------------------------------ */

/* Round half to even, then saturate to int8: written out, no library call. */
static int8_t q_even(float x, float scale)
{
    float v = x / scale;
    double f = floor((double)v), r = (double)v - f;
    double q = r > 0.5 ? f + 1 : r < 0.5 ? f : (fmod(f, 2.0) == 0 ? f : f + 1);
    return (int8_t)(q > 127 ? 127 : q < -128 ? -128 : q);
}

TL_TEST(convert_nchw_f32_to_chw32_int8)
{
    enum { N = 2, C = 40, H = 3, W = 5, CV = 2, V = 32 };
    const float scale = 0.5f;
    tl_desc s = parse_ok("NCHW:f32:2x40x3x5"), d = parse_ok("trt.chw32:i8:2x40x3x5:scale=0.5");
    REQUIRE_EQ_I64(d.size_bytes, N * CV * H * W * V);
    static float src[N * C * H * W];
    static int8_t dst[N * CV * H * W * V];
    tl_rng r = tl_test_rng();
    for (int i = 0; i < N * C * H * W; i++) {
        int k = i % 4;
        src[i] = k == 0 ? (float)tl_rng_range(&r, -140, 140) * 0.5f + 0.25f     /* ties */
               : k == 1 ? (float)((tl_rng_unit(&r) - 0.5) * 200.0)              /* saturating */
                        : (float)((tl_rng_unit(&r) - 0.5) * 60.0);
    }
    memset(dst, SENTINEL, sizeof dst);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, sizeof dst), TL_OK);
    for (int n = 0; n < N; n++)
        for (int c = 0; c < CV * V; c++)
            for (int h = 0; h < H; h++)
                for (int w = 0; w < W; w++) {
                    int64_t di = (((n * CV + c / V) * H + h) * W + w) * V + c % V;
                    int8_t want = c < C ? q_even(src[((n * C + c) * H + h) * W + w], scale) : 0;
                    if (dst[di] != want) FAILF("(%d,%d,%d,%d): %d != %d", n, c, h, w, dst[di], want);
                }
}

static uint16_t f16_of_small_int(int v) /* 0..2047, exact */
{
    if (v == 0) return 0;
    int e = 0;
    while ((v >> e) > 1) e++;
    return (uint16_t)(((e + 15) << 10) | ((v << (10 - e)) & 0x3ff));
}

/* NHWC u8 image -> kDLA_HWC4: C=3 padded to the 4th lane, rows rounded to
 * 64 (Orin) or 32 (Xavier) bytes; every padding byte ends up zero. */
static void hwc4_case(const char *dst_spec, int xavier, int fp16, float scale)
{
    enum { N = 2, H = 5, W = 7, C = 3, CP = 4 };
    tl_desc s = parse_ok("NHWC:u8:2x5x7x3"), d = parse_ok(dst_spec);
    int64_t es = fp16 ? 2 : 1, align = xavier ? 32 : 64;
    int64_t row = (W * CP * es + align - 1) / align * align;
    REQUIRE_EQ_I64(d.size_bytes, N * H * row);
    uint8_t src[N * H * W * C], dst[N * H * 64];
    tl_rng r = tl_test_rng();
    tl_rng_bytes(&r, src, sizeof src);
    src[0] = 255;
    src[1] = 5;
    memset(dst, SENTINEL, sizeof dst);
    REQUIRE_STATUS(tl_convert(&s, src, sizeof src, &d, dst, (size_t)d.size_bytes), TL_OK);
    for (int64_t b = 0; b < N * H * row; b += es) {
        int64_t n = b / (H * row), h = b / row % H, w = b % row / (CP * es), c = b % (CP * es) / es;
        int64_t want = 0;
        if (w < W && c < C) {
            int v = src[((n * H + h) * W + w) * C + c];
            want = fp16 ? f16_of_small_int(v) : (uint8_t)q_even((float)v, scale);
        }
        int64_t got = fp16 ? (int64_t)(dst[b] | dst[b + 1] << 8) : dst[b];
        if (got != want) FAILF("%s byte %lld (n%lld h%lld w%lld c%lld): 0x%llx != 0x%llx", dst_spec, (long long)b,
                               (long long)n, (long long)h, (long long)w, (long long)c, (long long)got, (long long)want);
    }
    for (int64_t b = N * H * row; b < (int64_t)sizeof dst; b++) CHECK_EQ_I64(dst[b], SENTINEL);
}

TL_TEST(convert_nhwc_u8_to_dla_hwc4)
{
    hwc4_case("trt.dla_hwc4:f16:2x3x5x7", 0, 1, 0);
    hwc4_case("trt.dla_hwc4:f16:2x3x5x7:gen=xavier", 1, 1, 0);
    hwc4_case("trt.dla_hwc4:i8:2x3x5x7:scale=2", 0, 0, 2.0f);
    hwc4_case("trt.dla_hwc4:i8:2x3x5x7:gen=xavier:scale=2", 1, 0, 2.0f);
}

/* ---- round trip -------------------------------------------------------------------------- */

TL_TEST(format_round_trip)
{
    static const char *const specs[] = {
        "trt.linear:f32:1", "trt.linear:i4:3x5", "trt.linear:bool:2x3x4x5x6x7x8x9", "trt.chw2:bf16:3x3x3",
        "trt.hwc8:f16:2x9x4x5", "trt.chw4:i8:2x5x3x3", "trt.chw16:f16:1x3x224x224:dla=input",
        "trt.chw32:i8:1x33x7x7:dla=output:gen=xavier", "trt.dhwc8:bf16:1x9x2x3x4", "trt.cdhw32:i8:2x1x40x2x3x3",
        "trt.hwc:u8:1x3x4x5", "trt.dla_linear:i8:1x3x10x300:dla=input", "trt.dla_hwc4:f16:1x3x2x5:gen=xavier",
        "trt.hwc16:i8:1x20x2x2", "trt.dhwc:f32:1x3x2x4x5", "trt.chw32:i8:1x3x2x2:scale=0.125",
        "trt.linear:i8:1x3x10x300:strides=9600,3200,320,1", "trt.hwc8:f16:1x3x4x5:strides=40,1,10,2",
        "trt.dla_linear:f16:1x3x2x2:dla=any", "trt.dla_hwc4:i8:1x3x2x5:strides=128,1,32,1",
    };
    for (size_t k = 0; k < sizeof specs / sizeof specs[0]; k++) {
        tl_desc d = parse_ok(specs[k]), e;
        char out[512];
        REQUIRE_STATUS(tl_desc_format(&d, out, sizeof out), TL_OK);
        memset(&e, 0, sizeof e);
        REQUIRE_STATUS(tl_desc_parse(&e, out), TL_OK);
        if (memcmp(&d, &e, sizeof d) != 0) FAILF("%s -> %s: not identical", specs[k], out);
    }
    char out[512];
    tl_desc d = parse_ok("trt.DLA_HWC4:i8:1x3x2x5:gen=orin:dla=input");
    REQUIRE_STATUS(tl_desc_format(&d, out, sizeof out), TL_OK);
    CHECK_STR_EQ(out, "trt.dla_hwc4:i8:1x3x2x5");
}

static void explain_of(const char *spec, char *buf, size_t n)
{
    tl_desc d = parse_ok(spec);
    tl_strbuf sb = {buf, n, 0};
    tl_vendor_find(TL_VENDOR_TRT)->explain(&d, &sb);
}

TL_TEST(explain_sentences)
{
    char buf[4096];
    explain_of("trt.dla_linear:i8:1x3x10x300:scale=0.5", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "TensorRT kDLA_LINEAR (TensorFormat 9) with kINT8 (DataType 2)");
    CHECK_STR_CONTAINS(buf, "Row-major like a C array, W innermost. Memory, outermost first: [N:1][C:3][H:10][W:320].");
    CHECK_STR_CONTAINS(buf, "getTensorStrides reports [9600, 3200, 320, 1] in elements (vectorized dim -1");
    CHECK_STR_CONTAINS(buf, "DLA I/O tensor: C, H and W must lie in [1, 8192]");
    CHECK_STR_CONTAINS(buf, "Each row of W=300 elements is padded to 320 bytes (a multiple of 64).");
    CHECK_STR_CONTAINS(buf, "Quantized symmetrically: real = q x 0.5, quantizing rounds half to even");
    CHECK_STR_CONTAINS(buf, "Buffer: 9600 bytes.");
    explain_of("trt.chw32:i8:1x40x2x2", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "Vector-major: C is split into 2 vectors of 32 scalars, the scalars innermost, padded from C=40 to 64 (24 padding lanes");
    CHECK_STR_CONTAINS(buf, "[N:1][C/32:2][H:2][W:2][C%32:32]");
    CHECK_STR_CONTAINS(buf, "scalar offset = 32 x (sum over the other dims of coordinate x stride) + (C/32) x 4 x 32 + C%32.");
    explain_of("trt.dla_hwc4:i8:1x3x2x5:gen=xavier", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "DLA input tensor (Xavier)");
    CHECK_STR_CONTAINS(buf, "a row of W=5 pixels (20 bytes) takes 32 bytes");
    CHECK_STR_CONTAINS(buf, "would give 128-byte rows");
    explain_of("trt.hwc:u8:1x3x4x5", buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "Channel-last, unvectorized: C is stored innermost. Memory, outermost first: [N:1][H:4][W:5][C:3].");
}

/* ---- runtime view of descriptors not built as TensorRT ---------------------------------- */

TL_TEST(runtime_info_generic)
{
    tl_trt_runtime rt;
    tl_desc d = parse_ok("NCHW16c:f32:1x20x2x3");
    REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    CHECK_EQ_I64(rt.vectorized_dim, 1);
    CHECK_EQ_I64(rt.components_per_element, 16);
    CHECK_EQ_I64(rt.format, -1);
    const int64_t want[4] = {12, 6, 3, 1};
    CHECK(memcmp(rt.strides.d, want, sizeof want) == 0);
    d = parse_ok("nhwc:u8:1x3x4x5");
    REQUIRE_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    const int64_t nhwc[4] = {60, 1, 15, 3};
    CHECK(memcmp(rt.strides.d, nhwc, sizeof nhwc) == 0);
    CHECK_EQ_I64(rt.vectorized_dim, -1);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(n1_n2_chw32_int8);
    TL_RUN(n3_chw16_fp16);
    TL_RUN(n4_chw4_int8);
    TL_RUN(n5_n6_hwc8_fp16);
    TL_RUN(n7_hwc16_int8);
    TL_RUN(n8_dhwc8_fp16);
    TL_RUN(n9_cdhw32_int8);
    TL_RUN(n10_hwc_fp32);
    TL_RUN(n11_dla_linear_int8);
    TL_RUN(n12_dla_linear_fp16);
    TL_RUN(n13_dla_hwc4_orin);
    TL_RUN(n14_dla_hwc4_xavier);
    TL_RUN(n15_dla_hwc4_misreading_rejected);
    TL_RUN(n16_dla_hwc4_fp16_gray);
    TL_RUN(n17_dla_hwc4_w300);
    TL_RUN(n18_int4_low_nibble_first);
    TL_RUN(runtime_strides_derived);
    TL_RUN(done_when_hwc8_json);
    TL_RUN(json_dla_members);
    TL_RUN(labels_by_role);
    TL_RUN(types_union_of_versions);
    TL_RUN(enum_names_and_dtypes);
    TL_RUN(from_runtime_packed_is_spec);
    TL_RUN(from_runtime_padded_linear);
    TL_RUN(from_runtime_padded_chw32);
    TL_RUN(from_runtime_permuted);
    TL_RUN(tensor_struct_and_dla_roles);
    TL_RUN(symmetric_int8_quant);
    TL_RUN(convert_nchw_f32_to_chw32_int8);
    TL_RUN(convert_nhwc_u8_to_dla_hwc4);
    TL_RUN(format_round_trip);
    TL_RUN(explain_sentences);
    TL_RUN(runtime_info_generic);
    return tl_test_finish();
}
