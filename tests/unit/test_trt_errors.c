/* Every bad TensorRT/DLA input: its status, a message naming the field, the
 * value, the rule and the vendor, and nothing written to any output. */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

#define SENTINEL 0xA5

typedef struct bad_spec {
    const char *spec;
    tl_status status;
    const char *msg;
} bad_spec;

static const bad_spec bad_specs[] = {
    /* formats, types, ranks */
    {"trt:f16:1x3x4x5", TL_ERR_SPEC_LAYOUT, "layout trt.: the format is missing"},
    {"trt.chw64:f16:1x3x4x5", TL_ERR_SPEC_LAYOUT, "trt.chw64: unknown TensorRT format"},
    {"trt.chw16:i8:1x3x4x5", TL_ERR_DTYPE, "dtype=i8 (kINT8) with kCHW16: no TensorRT version allows it; kCHW16 takes kHALF (TensorRT 8.6, 10.x and 11.1)"},
    {"trt.hwc8:f32:1x3x4x5", TL_ERR_DTYPE, "kHWC8 takes kHALF (TensorRT 8.6); kHALF, kBF16 (TensorRT 10.x and 11.1)"},
    {"trt.hwc:i8:1x3x4x5", TL_ERR_DTYPE, "dtype=i8 (kINT8) with kHWC: no TensorRT version allows it"},
    {"trt.dhwc:f16:1x3x2x4x5", TL_ERR_DTYPE, "kDHWC takes kFLOAT (TensorRT 10.x and 11.1)"},
    {"trt.chw32:i4:1x3x4x5", TL_ERR_DTYPE, "dtype=i4 (kINT4) with kCHW32"},
    {"trt.linear:u16:4", TL_ERR_DTYPE, "dtype=u16: TensorRT has no such DataType"},
    {"trt.linear:f64:4", TL_ERR_DTYPE, "dtype=f64: TensorRT has no such DataType"},
    {"trt.chw32:i8:4x4", TL_ERR_RANK, "rank=2: kCHW32 needs 3 to 8 dims (C is third to last) (TensorRT)"},
    {"trt.dhwc8:f16:3x4x5", TL_ERR_RANK, "rank=3: kDHWC8 needs 4 to 8 dims (C is fourth to last)"},
    {"trt.linear:f32:1x1x1x1x1x1x1x1x1", TL_ERR_RANK, "rank=9: TensorRT Dims hold at most 8 dims"},
    /* DLA */
    {"trt.dla_hwc4:i8:1x2x4x4", TL_ERR_VENDOR, "C=2: kDLA_HWC4 takes C = 1, 3 or 4 (stored as C' = 1, 4, 4) (TensorRT DLA)"},
    {"trt.dla_hwc4:i8:1x3x4x4:dla=output", TL_ERR_VENDOR, "dla=output with kDLA_HWC4: not a DLA output format"},
    {"trt.hwc8:f16:1x3x4x4:dla=input", TL_ERR_VENDOR, "dla=input with kHWC8: not a DLA I/O format"},
    {"trt.linear:f16:1x3x4x4:dla=output", TL_ERR_VENDOR, "dla=output with kLINEAR: not a DLA output format"},
    {"trt.chw4:i8:1x3x2x16:dla=output", TL_ERR_VENDOR, "dla=output with kCHW4: not a DLA output format"},
    {"trt.chw32:f16:1x3x4x4:dla=input", TL_ERR_VENDOR, "dtype=f16 (kHALF) with kCHW32 on DLA: DLA takes kCHW32 only as kINT8 (its native INT8 feature format) (TensorRT DLA)"},
    {"trt.chw16:f16:1x9000x4x4:dla=input", TL_ERR_VENDOR, "C=9000: DLA limits C, H and W to [1, 8192] (TensorRT DLA)"},
    {"trt.dla_linear:i8:1x3x4x8193", TL_ERR_VENDOR, "W=8193: DLA limits C, H and W to [1, 8192]"},
    {"trt.dla_hwc4:f16:1x3x8200x4", TL_ERR_VENDOR, "H=8200: DLA limits"},
    {"trt.chw32:i8:4097x3x4x4:dla=input", TL_ERR_VENDOR, "batch (product of the dims before C, up to dims[0]) > 4096"},
    {"trt.chw32:i8:64x65x3x4x4:dla=output", TL_ERR_VENDOR, "up to dims[1]) > 4096"},
    {"trt.chw4:i8:1x5x2x16:dla=input", TL_ERR_VENDOR, "C=5: kCHW4 as a DLA input (deprecated) needs C <= 4 (TensorRT DLA)"},
    {"trt.chw4:i8:1x3x2x5:dla=input", TL_ERR_VENDOR, "H stride 20 bytes: kCHW4 DLA input rows must be a multiple of 64 bytes on Orin (TensorRT DLA)"},
    {"trt.chw4:i8:1x3x2x5:dla=input:gen=xavier", TL_ERR_VENDOR, "multiple of 32 bytes on Xavier"},
    {"trt.chw32:i8:1x3x4x4:gen=xavier", TL_ERR_VENDOR, "gen=xavier on a kCHW32 GPU tensor: only DLA tensors have a DLA generation"},
    {"trt.chw32:i8:1x3x4x4:gen=orin", TL_ERR_VENDOR, "gen=orin on a kCHW32 GPU tensor"},
    {"trt.dla_hwc4:i8:1x3x4x4:gen=pascal", TL_ERR_SPEC_VALUE, "gen=pascal: expected orin or xavier (TensorRT)"},
    {"trt.chw32:i8:1x3x4x4:dla=yes", TL_ERR_SPEC_VALUE, "dla=yes: expected input, output or any (TensorRT)"},
    /* strides */
    {"trt.hwc8:f16:1x3x4x5:strides=20,1,5", TL_ERR_SPEC_VALUE, "strides=20,1,5: expected 4 values"},
    {"trt.hwc8:f16:1x3x4x5:strides=20,1,-5,1", TL_ERR_STRIDE, "strides[2]=-5 (H): a stride must be >= 0 (TensorRT)"},
    {"trt.hwc8:f16:1x3x4x5:strides=20,1,0,1", TL_ERR_STRIDE, "strides[2]=0 (H) with dims[2]=4: TensorRT I/O strides are >= 1 (no broadcast)"},
    {"trt.linear:f32:1x3x4x5:strides=60,20,4,2", TL_ERR_ALIAS, "kLINEAR strides=60,20,4,2: stride"},
    {"trt.dla_linear:i8:1x3x4x300:strides=3720,1240,310,1", TL_ERR_VENDOR, "H stride 310 bytes: kDLA_LINEAR rows must be a multiple of 64 bytes (TensorRT DLA)"},
    {"trt.dla_hwc4:i8:1x3x2x5:strides=128,1,32,2", TL_ERR_VENDOR, "strides[3]=2 (W): a kDLA_HWC4 pixel is C'=4 lanes, so the W stride is 1 vector (TensorRT DLA)"},
    {"trt.dla_hwc4:i8:1x3x2x5:strides=48,1,24,1", TL_ERR_VENDOR, "H stride 96 bytes: kDLA_HWC4 rows must be a multiple of 64 bytes on Orin"},
    {"trt.linear:u8:2x3:strides=576460752303423488,1", TL_ERR_OVERFLOW, "axes[0]: stride x extent overflows int64 (TensorRT)"},
    {"trt.linear:f32:2x3:strides=576460752303423488,1", TL_ERR_OVERFLOW, "strides[0]=576460752303423488 vectors overflows int64 bits (TensorRT)"},
    /* quantization */
    {"trt.chw32:i8:1x3x4x4:zp=3", TL_ERR_QUANT, "zp=3: TensorRT only supports symmetric quantization, the zero point must be 0 (TensorRT)"},
    {"trt.chw32:i8:1x3x4x4:scale=0.5:zp=-1", TL_ERR_QUANT, "zp=-1"},
    {"trt.chw32:i8:1x3x4x4:q=inv:scale=2", TL_ERR_QUANT, "q=inv: TensorRT quantization is symmetric affine"},
    {"trt.chw32:i8:1x3x4x4:fl=3", TL_ERR_QUANT, "fl=3: TensorRT has no dynamic fixed point"},
    {"trt.chw32:i8:1x3x4x4:scale=1:round=away", TL_ERR_QUANT, "round=away: TensorRT quantizes with round half to even"},
    {"trt.chw32:f16:1x3x4x4:scale=1", TL_ERR_QUANT, "dtype=f16 with scale=/q=affine: TensorRT quantizes only kINT8 and kINT4 tensors"},
    {"trt.hwc:u8:1x3x4x4:q=affine:scale=1", TL_ERR_QUANT, "dtype=u8 with scale=/q=affine"},
    {"trt.chw32:i8:1x3x4x4:zp=x", TL_ERR_SPEC_VALUE, "zp=x: not a 64-bit integer"},
    {"trt.chw32:i8:1x3x4x4:foo=1", TL_ERR_SPEC_OPTION, "option 'foo' is not known for layout trt"},
};

TL_TEST(bad_specs)
{
    for (size_t k = 0; k < sizeof bad_specs / sizeof bad_specs[0]; k++) {
        const bad_spec *b = &bad_specs[k];
        tl_desc d, before;
        memset(&d, SENTINEL, sizeof d);
        before = d;
        tl_status s = tl_desc_parse(&d, b->spec);
        if (s != b->status)
            FAILF("%s: %s (%s), want %s", b->spec, tl_status_str(s), tl_last_error(), tl_status_str(b->status));
        else if (!strstr(tl_last_error(), b->msg))
            FAILF("%s: message \"%s\" lacks \"%s\"", b->spec, tl_last_error(), b->msg);
        if (memcmp(&d, &before, sizeof d) != 0) FAILF("%s: the descriptor was written", b->spec);
    }
}

static tl_trt_tensor tensor(int32_t format, int32_t type, int n, const int64_t *dims)
{
    tl_trt_tensor t;
    memset(&t, 0, sizeof t);
    t.format = format;
    t.type = type;
    t.dims.nbDims = n;
    for (int i = 0; i < n && i < TL_TRT_MAX_DIMS; i++) t.dims.d[i] = dims[i];
    return t;
}

static void expect_init(const tl_trt_tensor *t, tl_status want, const char *msg)
{
    tl_desc d, before;
    memset(&d, SENTINEL, sizeof d);
    before = d;
    CHECK_STATUS(tl_trt_desc_init(&d, t), want);
    CHECK_STR_CONTAINS(tl_last_error(), msg);
    CHECK_STR_CONTAINS(tl_last_error(), "(TensorRT");
    CHECK(memcmp(&d, &before, sizeof d) == 0);
}

TL_TEST(bad_tensors)
{
    const int64_t nchw[4] = {1, 3, 4, 5}, dyn[4] = {1, 3, -1, 5};
    tl_trt_tensor t = tensor(TL_TRT_LINEAR, TL_TRT_FLOAT, -1, nchw);
    expect_init(&t, TL_ERR_RANK, "dims.nbDims=-1: must be 1..8; -1 means an unknown tensor name or unresolved shape");
    t = tensor(TL_TRT_LINEAR, TL_TRT_FLOAT, 4, dyn);
    expect_init(&t, TL_ERR_DIM, "dims[2]=-1 (H): a dim must be >= 1; -1 is an unresolved dynamic dim");
    t = tensor(13, TL_TRT_FLOAT, 4, nchw);
    expect_init(&t, TL_ERR_SPEC_LAYOUT, "format=13: not a nvinfer1::TensorFormat (0..12)");
    t = tensor(TL_TRT_LINEAR, 99, 4, nchw);
    expect_init(&t, TL_ERR_DTYPE, "type=99: not a nvinfer1::DataType (0..11)");
    t = tensor(TL_TRT_HWC16, TL_TRT_FP8, 4, nchw);
    expect_init(&t, TL_ERR_DTYPE, "type=kFP8: tlayout has no dtype for it");
    t = tensor(TL_TRT_CHW32, TL_TRT_INT8, 4, nchw);
    t.strides.nbDims = -1;
    expect_init(&t, TL_ERR_STRIDE, "strides.nbDims=-1: must equal dims.nbDims=4; -1 means getTensorStrides could not resolve the tensor");
    t.strides.nbDims = 3;
    expect_init(&t, TL_ERR_STRIDE, "strides.nbDims=3: must equal dims.nbDims=4");
    t = tensor(TL_TRT_CHW32, TL_TRT_INT8, 4, nchw);
    t.dla_role = 7;
    expect_init(&t, TL_ERR_VENDOR, "dla_role=7: must be 0 (format default), 1 input, 2 output or 3 any");
    t.dla_role = TL_TRT_DLA_INPUT;
    t.dla_gen = 5;
    expect_init(&t, TL_ERR_VENDOR, "dla_gen=5: must be 0 (Orin) or 1 (Xavier)");
    t = tensor(TL_TRT_CHW32, TL_TRT_INT8, 4, nchw);
    t.scale = -1.0f;
    expect_init(&t, TL_ERR_QUANT, "scale=-1: must be a finite number > 0, or 0 for none");
    t.scale = NAN;
    expect_init(&t, TL_ERR_QUANT, "must be a finite number > 0");
    t = tensor(TL_TRT_CHW32, TL_TRT_HALF, 4, nchw);
    t.scale = 0.5f;
    expect_init(&t, TL_ERR_QUANT, "scale=0.5 with kHALF: TensorRT quantizes only kINT8 and kINT4 tensors");
    const int64_t ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
    t = tensor(TL_TRT_LINEAR, TL_TRT_FLOAT, 9, ones);
    expect_init(&t, TL_ERR_RANK, "dims.nbDims=9: must be 1..8");
    const int64_t huge[4] = {INT64_MAX / 2, 3, 4, 5};
    t = tensor(TL_TRT_LINEAR, TL_TRT_FLOAT, 4, huge);
    expect_init(&t, TL_ERR_OVERFLOW, "overflows int64");
    t = tensor(TL_TRT_CHW32, TL_TRT_INT8, 4, huge);
    expect_init(&t, TL_ERR_OVERFLOW, "overflows int64");
    const int64_t bigw[4] = {1, 3, 4, INT64_MAX - 3};
    t = tensor(TL_TRT_DLA_LINEAR, TL_TRT_INT8, 4, bigw);
    expect_init(&t, TL_ERR_VENDOR, "W=9223372036854775804: DLA limits C, H and W to [1, 8192] (TensorRT DLA)");
    const int64_t pad[4] = {1, 3, 4, 5}, sv[4] = {INT64_MAX / 4, 20, 5, 1};
    t = tensor(TL_TRT_LINEAR, TL_TRT_FLOAT, 4, pad);
    t.strides.nbDims = 4;
    memcpy(t.strides.d, sv, sizeof sv);
    expect_init(&t, TL_ERR_OVERFLOW, "strides[0]=2305843009213693951 vectors overflows int64 bits");
}

TL_TEST(null_arguments)
{
    tl_desc d;
    tl_trt_dims dims = {4, {1, 3, 4, 5}};
    CHECK_STATUS(tl_trt_desc_init(NULL, NULL), TL_ERR_NULL);
    CHECK_STR_CONTAINS(tl_last_error(), "(TensorRT)");
    CHECK_STATUS(tl_trt_desc_from_runtime(&d, TL_TRT_LINEAR, TL_TRT_FLOAT, NULL, NULL), TL_ERR_NULL);
    CHECK_STATUS(tl_trt_desc_from_runtime(NULL, TL_TRT_LINEAR, TL_TRT_FLOAT, &dims, NULL), TL_ERR_NULL);
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.hwc8:f16:1x3x4x5"), TL_OK);
    CHECK_STATUS(tl_trt_runtime_info(&d, NULL), TL_ERR_NULL);
    CHECK_STATUS(tl_trt_runtime_strides(&d, NULL), TL_ERR_NULL);
    tl_trt_runtime rt;
    CHECK_STATUS(tl_trt_runtime_info(NULL, &rt), TL_ERR_NULL);
}

static void expect_export(const tl_desc *d, const char *msg)
{
    tl_trt_runtime rt, before;
    memset(&rt, SENTINEL, sizeof rt);
    before = rt;
    CHECK_STATUS(tl_trt_runtime_info(d, &rt), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), msg);
    CHECK_STR_CONTAINS(tl_last_error(), "(TensorRT)");
    CHECK(memcmp(&rt, &before, sizeof rt) == 0);
    tl_trt_dims s, sb;
    memset(&s, SENTINEL, sizeof s);
    sb = s;
    CHECK_STATUS(tl_trt_runtime_strides(d, &s), TL_ERR_VENDOR_EXPORT);
    CHECK(memcmp(&s, &sb, sizeof s) == 0);
}

/* aBc(V)b:u8:1xVx1 with any V: aBc4b's axes {a, B/V, c, b} stretched. */
static void blocked_by_hand(tl_desc *d, int64_t v)
{
    REQUIRE_STATUS(tl_desc_parse(d, "aBc4b:u8:1x4x1"), TL_OK);
    tl_axis *ax = d->planes[0].axes;
    d->dims[1] = ax[1].block = ax[3].extent = v;
    ax[0].stride_bits = ax[1].stride_bits = ax[2].stride_bits = 8 * v;
    d->size_bytes = v;
    REQUIRE_STATUS(tl_desc_validate(d), TL_OK);
}

TL_TEST(runtime_info_not_expressible)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x4x5:pad=0,0,1,0,0,0,0,0"), TL_OK);
    expect_export(&d, "dims[2]: padding before the first element, which TensorRT strides cannot express");
    REQUIRE_STATUS(tl_desc_init_yuv420(&d, TL_YUV_NV12, 4, 4, 0, 0), TL_OK);
    expect_export(&d, "a multi-plane descriptor or one with a plane offset has no TensorRT strides");
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x4x5:offset=16"), TL_OK);
    expect_export(&d, "plane offset");
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW16c2h:f32:1x20x4x3"), TL_OK);
    expect_export(&d, "more than one blocked dim");
    REQUIRE_STATUS(tl_desc_parse(&d, "aBc4b:f32:2x8x3"), TL_OK);
    tl_trt_runtime rt;
    CHECK_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK); /* vectorized, V=4 */
    CHECK_EQ_I64(rt.components_per_element, 4);
    /* blocks around TensorRT's int32 componentsPerElement (the spec grammar
     * stops at 10^8: built by hand, never allocated) */
    blocked_by_hand(&d, INT64_C(1) << 31);
    expect_export(&d, "dims[1]: a block of more than 2147483647 elements (componentsPerElement is an int32)");
    blocked_by_hand(&d, INT32_MAX);
    CHECK_STATUS(tl_trt_runtime_info(&d, &rt), TL_OK);
    CHECK_EQ_I64(rt.components_per_element, INT32_MAX);
    REQUIRE_STATUS(tl_desc_parse(&d, "ABCDEFGHI:u8:1x1x1x1x1x1x1x1x2"), TL_OK);
    expect_export(&d, "rank=9: TensorRT Dims hold at most 8");
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x3x4x5"), TL_OK);
    d.planes[0].axes[2].block = 2; /* H stored at even rows only */
    d.planes[0].axes[2].extent = 2;
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    expect_export(&d, "dims[2]: a subsampled dim (its only axis has a block > 1)");
    /* TensorRT descriptors changed by hand so that their vectors no longer are */
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.hwc8:f16:1x8x1x1"), TL_OK);
    d.planes[0].axes[3].stride_bits = 32; /* C lanes two elements apart */
    d.size_bytes = 32;
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    expect_export(&d, "dims[1]: the vectorized dim is not innermost with a one-scalar stride");
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.chw4:i8:1x4x1x1"), TL_OK);
    d.planes[0].axes[4].stride_bits = 16;
    d.size_bytes = 8;
    REQUIRE_STATUS(tl_desc_validate(&d), TL_OK);
    expect_export(&d, "dims[1]: the vectorized dim is not C(block V) outside C(V contiguous lanes)");
    /* describe --json and explain still answer */
    char buf[8192];
    tl_strbuf sb = {buf, sizeof buf, 0};
    tl_desc_json(&d, &sb);
    CHECK_STR_CONTAINS(buf, "\"trt_format\": \"kCHW4\"");
    CHECK_STR_CONTAINS(buf, "\"trt_strides\": null, \"trt_vectorized_dim\": null");
    CHECK_STR_CONTAINS(buf, "\"spec\": null");
    sb.len = 0;
    tl_vendor_find(TL_VENDOR_TRT)->explain(&d, &sb);
    CHECK_STR_EQ(buf, "Not a valid TensorRT descriptor.");
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.hwc8:f16:1x3x4x5"), TL_OK);
    d.vendor_format = 42; /* validation checks the vendor fields' domains */
    tl_trt_runtime rt2;
    CHECK_STATUS(tl_desc_validate(&d), TL_ERR_VENDOR);
    CHECK_STATUS(tl_trt_runtime_info(&d, &rt2), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "vendor_format=42: must be 0..12 (TensorRT)");
}

/* A TensorRT descriptor changed by hand no longer formats as a spec, and the
 * caller's buffer is untouched. */
TL_TEST(format_refuses_modified)
{
    tl_desc d;
    char buf[256];
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.chw32:i8:1x3x4x4"), TL_OK);
    d.size_bytes += 64;
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "descriptor says kCHW32 but its map is not what TensorRT kCHW32 has");
    CHECK_EQ_I64((uint8_t)buf[0], SENTINEL);
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.chw32:i8:1x3x4x4:scale=0.5"), TL_OK);
    d.quant.zp = 3;
    CHECK_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_ERR_VENDOR_EXPORT);
    CHECK_STR_CONTAINS(tl_last_error(), "quantization kind=1 zp=3 round=0: TensorRT needs symmetric affine, zp 0");
    CHECK_EQ_I64((uint8_t)buf[0], SENTINEL);
    REQUIRE_STATUS(tl_desc_parse(&d, "trt.chw32:i8:1x3x4x4"), TL_OK);
    d.vendor_params[0] = TL_TRT_DLA_XAVIER; /* a GPU tensor with a DLA generation */
    CHECK_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_ERR_VENDOR_EXPORT);
    CHECK_EQ_I64((uint8_t)buf[0], SENTINEL);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(bad_specs);
    TL_RUN(bad_tensors);
    TL_RUN(null_arguments);
    TL_RUN(runtime_info_not_expressible);
    TL_RUN(format_refuses_modified);
    return tl_test_finish();
}
