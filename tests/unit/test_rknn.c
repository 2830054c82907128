/* RKNN: the rknn_tensor_attr mirror and its image, the platform table, native
 * descriptors, spec strings (rknn_api.h, User Guide 1.5.2, vectors R1-R4, R11, R12). */
#include <math.h>
#include <stddef.h>

#include "tl_test.h"
#include "core/internal.h"

#define SENTINEL 0xA5

static int all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v) return 0;
    return 1;
}

#define CHECK_FAIL(expr, status, needle)                      \
    do {                                                      \
        CHECK_STATUS((expr), (status));                       \
        CHECK_STR_CONTAINS(tl_last_error(), (needle));        \
    } while (0)

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (8 * i));
}

/* A native NC1HWC2 int8 output attr as RK3588 reports it for C=84, 80x80. */
static tl_rknn_tensor_attr native_r2(void)
{
    tl_rknn_tensor_attr a;
    memset(&a, 0, sizeof a);
    a.index = 0;
    a.n_dims = 5;
    const uint32_t dims[5] = {1, 6, 80, 80, 16};
    memcpy(a.dims, dims, sizeof dims);
    strcpy(a.name, "output0");
    a.n_elems = 614400;
    a.size = 614400;
    a.fmt = TL_RKNN_TENSOR_NC1HWC2;
    a.type = TL_RKNN_TENSOR_INT8;
    a.qnt_type = TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC;
    a.zp = -128;
    a.scale = 0.00390625f;
    a.size_with_stride = 614400;
    return a;
}

/* ---- R12: the mirror ---------------------------------------------------------- */
TL_TEST(r12_struct_layout)
{
    CHECK_EQ_I64(sizeof(tl_rknn_tensor_attr), 376);
    CHECK_EQ_I64(TL_RKNN_ATTR_SIZE, 376);
    CHECK_EQ_I64(offsetof(tl_rknn_tensor_attr, zp), 352);
    CHECK_EQ_I64(offsetof(tl_rknn_tensor_attr, h_stride), 372);
    CHECK_EQ_I64(offsetof(tl_rknn_tensor_attr, name), 72);
    CHECK_EQ_I64(offsetof(tl_rknn_tensor_attr, fl), 348);
    CHECK_EQ_I64(offsetof(tl_rknn_tensor_attr, size_with_stride), 364);
    CHECK_EQ_I64(TL_RKNN_TENSOR_NC1HWC2, 2);
    CHECK_EQ_I64(TL_RKNN_TENSOR_UNDEFINED, 3);
    CHECK_EQ_I64(TL_RKNN_TENSOR_BFLOAT16, 11);
    CHECK_EQ_I64(TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC, 2);
    CHECK_EQ_I64(TL_RKNN_QUERY_NATIVE_OUTPUT_ATTR, 9);
    CHECK_EQ_I64(TL_RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR, 11);
}

/* An image built byte by byte at the §4.1 offsets reads into the right fields. */
TL_TEST(attr_read_offsets)
{
    unsigned char img[400];
    memset(img, 0, sizeof img);
    put32(img + 0, 3);
    put32(img + 4, 5);
    const uint32_t dims[5] = {1, 6, 80, 80, 16};
    for (int i = 0; i < 5; i++) put32(img + 8 + 4 * i, dims[i]);
    memcpy(img + 72, "head", 5);
    put32(img + 328, 614400);
    put32(img + 332, 614400);
    put32(img + 336, 2);
    put32(img + 340, 2);
    put32(img + 344, 2);
    img[348] = (unsigned char)-3;
    put32(img + 352, (uint32_t)-128);
    float sc = 0.25f;
    memcpy(img + 356, &sc, 4);
    put32(img + 360, 96);
    put32(img + 364, 737280);
    img[368] = 1;
    put32(img + 372, 7);
    memset(img + 349, 0xEE, 3); /* alignment padding is ignored */
    tl_rknn_tensor_attr a;
    REQUIRE_STATUS(tl_rknn_attr_read(&a, img, TL_RKNN_ATTR_SIZE), TL_OK);
    CHECK_EQ_I64(a.index, 3);
    CHECK_EQ_I64(a.n_dims, 5);
    CHECK_EQ_I64(a.dims[1], 6);
    CHECK_EQ_I64(a.dims[4], 16);
    CHECK_STR_EQ(a.name, "head");
    CHECK_EQ_I64(a.n_elems, 614400);
    CHECK_EQ_I64(a.fmt, TL_RKNN_TENSOR_NC1HWC2);
    CHECK_EQ_I64(a.type, TL_RKNN_TENSOR_INT8);
    CHECK_EQ_I64(a.qnt_type, TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC);
    CHECK_EQ_I64(a.fl, -3);
    CHECK_EQ_I64(a.zp, -128);
    CHECK(a.scale == 0.25f);
    CHECK_EQ_I64(a.w_stride, 96);
    CHECK_EQ_I64(a.size_with_stride, 737280);
    CHECK_EQ_I64(a.pass_through, 1);
    CHECK_EQ_I64(a.h_stride, 7);
}

TL_TEST(attr_write_read_roundtrip)
{
    tl_rknn_tensor_attr a = native_r2(), b;
    unsigned char img[TL_RKNN_ATTR_SIZE];
    a.fl = 5;
    a.h_stride = 3;
    a.pass_through = 1;
    REQUIRE_STATUS(tl_rknn_attr_write(&a, img, sizeof img), TL_OK);
    CHECK_EQ_I64(img[352], 0x80); /* zp = -128 little-endian */
    CHECK_EQ_I64(img[355], 0xFF);
    CHECK_EQ_I64(img[372], 3);
    CHECK_EQ_I64(img[349] | img[350] | img[351], 0); /* padding written as zero */
    REQUIRE_STATUS(tl_rknn_attr_read(&b, img, sizeof img), TL_OK);
    CHECK_MEM_EQ(&a, &b, sizeof a);
}

static void bad_image(unsigned char *img, size_t off, uint32_t v, int byte, const char *needle)
{
    tl_rknn_tensor_attr a = native_r2(), out;
    REQUIRE_STATUS(tl_rknn_attr_write(&a, img, TL_RKNN_ATTR_SIZE), TL_OK);
    if (byte) img[off] = (unsigned char)v;
    else put32(img + off, v);
    memset(&out, SENTINEL, sizeof out);
    CHECK_FAIL(tl_rknn_attr_read(&out, img, TL_RKNN_ATTR_SIZE), TL_ERR_VENDOR_FILE, needle);
    CHECK(all_bytes(&out, sizeof out, SENTINEL));
}

TL_TEST(attr_read_errors)
{
    unsigned char img[TL_RKNN_ATTR_SIZE];
    bad_image(img, 4, 17, 0, "n_dims=17: must be <= RKNN_MAX_DIMS=16 (rknn)");
    bad_image(img, 336, 4, 0, "fmt=4: must be 0..3");
    bad_image(img, 340, 12, 0, "type=12: must be 0..11");
    bad_image(img, 344, 3, 0, "qnt_type=3: must be 0..2");
    bad_image(img, 368, 2, 1, "pass_through=2: must be 0 or 1");
    tl_rknn_tensor_attr a = native_r2(), out;
    REQUIRE_STATUS(tl_rknn_attr_write(&a, img, sizeof img), TL_OK);
    memset(img + 72, 'x', 256);
    memset(&out, SENTINEL, sizeof out);
    CHECK_FAIL(tl_rknn_attr_read(&out, img, sizeof img), TL_ERR_VENDOR_FILE, "name: no NUL within");
    CHECK_FAIL(tl_rknn_attr_read(&out, img, 375), TL_ERR_VENDOR_FILE, "len=375 < 376 bytes");
    CHECK_FAIL(tl_rknn_attr_read(&out, NULL, 376), TL_ERR_NULL, "NULL");
    CHECK(all_bytes(&out, sizeof out, SENTINEL));
}

TL_TEST(attr_write_errors)
{
    tl_rknn_tensor_attr a = native_r2();
    unsigned char img[TL_RKNN_ATTR_SIZE];
    memset(img, SENTINEL, sizeof img);
    a.fmt = (tl_rknn_tensor_format)7;
    CHECK_FAIL(tl_rknn_attr_write(&a, img, sizeof img), TL_ERR_VENDOR, "fmt=7");
    a = native_r2();
    CHECK_FAIL(tl_rknn_attr_write(&a, img, 100), TL_ERR_BUFFER_SMALL, "len=100 < 376");
    CHECK(all_bytes(img, sizeof img, SENTINEL));
}

TL_TEST(type_mapping)
{
    static const tl_dtype want[12] = {TL_F32, TL_F16, TL_I8,  TL_U8,   TL_I16, TL_U16,
                                      TL_I32, TL_U32, TL_I64, TL_BOOL, TL_I4,  TL_BF16};
    for (int t = 0; t < 12; t++) {
        tl_dtype dt;
        tl_rknn_tensor_type back;
        REQUIRE_STATUS(tl_rknn_type_to_dtype((tl_rknn_tensor_type)t, &dt), TL_OK);
        CHECK_EQ_I64(dt, want[t]);
        REQUIRE_STATUS(tl_rknn_dtype_to_type(dt, &back), TL_OK);
        CHECK_EQ_I64(back, t);
    }
    tl_dtype dt = TL_DT_INVALID;
    tl_rknn_tensor_type t = (tl_rknn_tensor_type)99;
    CHECK_FAIL(tl_rknn_type_to_dtype((tl_rknn_tensor_type)12, &dt), TL_ERR_VENDOR, "type=12");
    CHECK_FAIL(tl_rknn_dtype_to_type(TL_F64, &t), TL_ERR_DTYPE, "dtype f64: RKNN has no such tensor type");
    CHECK_EQ_I64(dt, TL_DT_INVALID);
    CHECK_EQ_I64(t, 99);
}

/* ---- platforms: Table 4-6, R1, R2, R4, R11 ------------------------------------ */
TL_TEST(c2_table)
{
    static const struct { tl_rknn_platform p; int64_t i8, f16, i16; } rows[] = {
        {TL_RKNN_RK3566_RK3568, 8, 4, 4}, {TL_RKNN_RK3588, 16, 8, 8},
        {TL_RKNN_RV1106_RV1103, 16, 8, 8}, {TL_RKNN_RK3562, 16, 8, 8},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int64_t c2;
        REQUIRE_STATUS(tl_rknn_c2(rows[i].p, TL_I8, &c2), TL_OK);
        CHECK_EQ_I64(c2, rows[i].i8);
        REQUIRE_STATUS(tl_rknn_c2(rows[i].p, TL_F16, &c2), TL_OK);
        CHECK_EQ_I64(c2, rows[i].f16);
        REQUIRE_STATUS(tl_rknn_c2(rows[i].p, TL_I16, &c2), TL_OK);
        CHECK_EQ_I64(c2, rows[i].i16);
    }
    int64_t c2 = -1;
    CHECK_FAIL(tl_rknn_c2(TL_RKNN_RK3588, TL_F32, &c2), TL_ERR_VENDOR, "dtype f32 on RK3588: Table 4-6");
    CHECK_FAIL(tl_rknn_c2(TL_RKNN_PLATFORM_NONE, TL_I8, &c2), TL_ERR_VENDOR, "platform=0");
    CHECK_FAIL(tl_rknn_c2((tl_rknn_platform)9, TL_I8, &c2), TL_ERR_VENDOR, "platform=9");
    CHECK_EQ_I64(c2, -1);
}

TL_TEST(platform_names)
{
    static const char *names[] = {"rk3566", "RK3568", "rk3588", "rv1106", "RV1103", "rk3562"};
    static const tl_rknn_platform want[] = {TL_RKNN_RK3566_RK3568, TL_RKNN_RK3566_RK3568, TL_RKNN_RK3588,
                                            TL_RKNN_RV1106_RV1103, TL_RKNN_RV1106_RV1103, TL_RKNN_RK3562};
    for (int i = 0; i < 6; i++) {
        tl_rknn_platform p;
        REQUIRE_STATUS(tl_rknn_platform_from_name(names[i], &p), TL_OK);
        CHECK_EQ_I64(p, want[i]);
    }
    tl_rknn_platform p = (tl_rknn_platform)77;
    CHECK_FAIL(tl_rknn_platform_from_name("rk3399", &p), TL_ERR_VENDOR, "platform=rk3399: not one of");
    CHECK_FAIL(tl_rknn_platform_from_name("rk3588-and-a-long-tail", &p), TL_ERR_VENDOR, "not one of");
    CHECK_EQ_I64(p, 77);
    CHECK_STR_EQ(tl_rknn_platform_name(TL_RKNN_RK3588), "RK3588");
    CHECK_STR_EQ(tl_rknn_platform_name((tl_rknn_platform)0), "?");
}

TL_TEST(r11_zero_copy_width)
{
    int64_t w;
    REQUIRE_STATUS(tl_rknn_zero_copy_width(TL_RKNN_RK3588, 100, &w), TL_OK);
    CHECK_EQ_I64(w, 112);
    REQUIRE_STATUS(tl_rknn_zero_copy_width(TL_RKNN_RK3562, 100, &w), TL_OK);
    CHECK_EQ_I64(w, 112);
    REQUIRE_STATUS(tl_rknn_zero_copy_width(TL_RKNN_RV1106_RV1103, 100, &w), TL_OK);
    CHECK_EQ_I64(w, 112);
    REQUIRE_STATUS(tl_rknn_zero_copy_width(TL_RKNN_RK3566_RK3568, 100, &w), TL_OK);
    CHECK_EQ_I64(w, 104);
    REQUIRE_STATUS(tl_rknn_zero_copy_width(TL_RKNN_RK3588, 640, &w), TL_OK);
    CHECK_EQ_I64(w, 640);
    w = -1;
    CHECK_FAIL(tl_rknn_zero_copy_width(TL_RKNN_RK3588, 0, &w), TL_ERR_DIM, "width=0");
    CHECK_FAIL(tl_rknn_zero_copy_width(TL_RKNN_RK3588, INT64_MAX - 3, &w), TL_ERR_OVERFLOW, "overflows");
    CHECK_EQ_I64(w, -1);
    /* The same rule through a spec: platform= checks the stored row. */
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nhwc:u8:1x100x100x3:wstride=112:platform=rk3588"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nhwc:u8:1x100x100x3:wstride=104:platform=rk3566"), TL_OK);
    CHECK_FAIL(tl_desc_parse(&d, "rknn.nhwc:u8:1x100x100x3:wstride=104:platform=rk3588"), TL_ERR_VENDOR,
               "row of 104 pixels (w_stride or W) on RK3588: zero-copy input rows are 16-pixel aligned (rknn)");
}

TL_TEST(r1_synth_rk3566)
{
    tl_rknn_tensor_attr a;
    REQUIRE_STATUS(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3566_RK3568, TL_I8, 1, 32, 1, 1), TL_OK);
    CHECK_EQ_I64(a.n_dims, 5);
    CHECK_EQ_I64(a.dims[0], 1);
    CHECK_EQ_I64(a.dims[1], 4);
    CHECK_EQ_I64(a.dims[2], 1);
    CHECK_EQ_I64(a.dims[3], 1);
    CHECK_EQ_I64(a.dims[4], 8);
    CHECK_EQ_I64(a.size, 32);
    CHECK_EQ_I64(a.size_with_stride, 32);
    CHECK_EQ_I64(a.fmt, TL_RKNN_TENSOR_NC1HWC2);
    CHECK_EQ_I64(a.type, TL_RKNN_TENSOR_INT8);
    tl_desc d;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 32), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 32);
    CHECK_EQ_I64(d.pad_hi[1], 0);
}

TL_TEST(r2_r3_native_output)
{
    tl_rknn_tensor_attr a;
    REQUIRE_STATUS(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_I8, 1, 84, 80, 80), TL_OK);
    const uint32_t want[5] = {1, 6, 80, 80, 16};
    CHECK_MEM_EQ(a.dims, want, sizeof want);
    CHECK_EQ_I64(a.size, 614400);
    tl_desc d;
    tl_rknn_tensor_attr r2 = native_r2();
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &r2, 84), TL_OK);
    CHECK_EQ_I64(d.rank, 4);
    CHECK_EQ_I64(d.dims[1], 84);
    CHECK_EQ_I64(d.pad_hi[1], 12);
    CHECK_EQ_I64(d.size_bytes, 614400);
    CHECK_EQ_I64(d.quant.kind, TL_Q_AFFINE);
    CHECK_EQ_I64(d.quant.zp, -128);
    CHECK_EQ_I64(d.quant.round, TL_ROUND_AWAY);
    r2.h_stride = 80; /* h_stride == H on NC1HWC2 says nothing: the same descriptor */
    tl_desc same;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&same, &r2, 84), TL_OK);
    CHECK_MEM_EQ(&same, &d, sizeof d);
    r2.w_stride = 80; /* w_stride == W, what real runtimes report: still the same descriptor */
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&same, &r2, 84), TL_OK);
    CHECK_MEM_EQ(&same, &d, sizeof d);
    r2.w_stride = 96; /* a real row padding: a different descriptor, with the stride kept */
    r2.size_with_stride = 1 * 6 * 80 * 96 * 16;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&same, &r2, 84), TL_OK);
    CHECK(memcmp(&same, &d, sizeof d) != 0);
    CHECK_EQ_I64(same.vendor_params[TL_RKNN_P_W_STRIDE], 96);
    const int64_t x[4] = {0, 17, 2, 3};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
    CHECK_EQ_I64(off, ((1 * 80 + 2) * 80 + 3) * 16 + 1); /* R3 */
    CHECK_EQ_I64(off, 105009);
    tl_desc s;
    REQUIRE_STATUS(tl_desc_parse(&s, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:size=614400:zp=-128:scale=0.00390625"),
                   TL_OK);
    CHECK_MEM_EQ(&s, &d, sizeof d); /* the attr and the spec give the same descriptor */
}

TL_TEST(r4_fp16)
{
    tl_rknn_tensor_attr a;
    REQUIRE_STATUS(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_F16, 1, 84, 80, 80), TL_OK);
    CHECK_EQ_I64(a.dims[1], 11);
    CHECK_EQ_I64(a.dims[4], 8);
    CHECK_EQ_I64(a.n_elems, 563200);
    CHECK_EQ_I64(a.size, 1126400);
    a.qnt_type = TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC; /* fp tensors report zp 0, scale 1: ignored */
    a.scale = 1.0f;
    tl_desc d;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 84), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_NONE);
    const int64_t x[4] = {0, 17, 2, 3};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
    CHECK_EQ_I64(off, 207410);
    CHECK_EQ_I64(off / 2, 103705);
    CHECK_EQ_I64(d.size_bytes, 1126400);
}

/* The generic formula of §4.2 against the descriptor for every element of a
 * padded multi-batch NC1HWC2 tensor. */
TL_TEST(nc1hwc2_offset_formula)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i16:3x3x5x7x8:c=19:wstride=16"), TL_OK);
    const int64_t C1 = 3, C2 = 8, H = 5, Wr = 16;
    CHECK_EQ_I64(d.size_bytes, 3 * C1 * H * Wr * C2 * 2);
    for (int64_t n = 0; n < 3; n++)
        for (int64_t c = 0; c < 19; c++)
            for (int64_t h = 0; h < H; h++)
                for (int64_t w = 0; w < 7; w++) {
                    const int64_t x[4] = {n, c, h, w};
                    uint64_t off;
                    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
                    int64_t e = (((n * C1 + c / C2) * H + h) * Wr + w) * C2 + c % C2;
                    if ((int64_t)off != 2 * e) {
                        FAILF("(%lld,%lld,%lld,%lld): %llu != %lld", (long long)n, (long long)c, (long long)h,
                              (long long)w, (unsigned long long)off, (long long)(2 * e));
                        return;
                    }
                }
}

/* A user report (airockchip/rknn-toolkit2#129): yolov5s outputs report size
 * 408000 / 102000 and size_with_stride 491520 / 163840. Rows padded to 16
 * pixels (w_stride 48 for W 40, 32 for W 20) account for both exactly. */
TL_TEST(rv1106_row_padding_sizes)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x16x40x40x16:c=255:wstride=48:platform=rv1106"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 491520);
    CHECK_EQ_I64(d.pad_hi[3], 8);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x16x20x20x16:c=255:wstride=32"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 163840);
    CHECK_EQ_I64(255 * 40 * 40, 408000);
}

TL_TEST(dfp_attr)
{
    tl_rknn_tensor_attr a = native_r2();
    a.qnt_type = TL_RKNN_TENSOR_QNT_DFP;
    a.fl = -2;
    a.scale = 0.0f; /* ignored for DFP */
    tl_desc d, s;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 84), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_DFP);
    CHECK_EQ_I64(d.quant.fl, -2);
    CHECK_EQ_I64(d.quant.round, TL_ROUND_AWAY);
    CHECK(tl_dequantize_value(&d.quant, 3) == 12.0); /* R10 */
    REQUIRE_STATUS(tl_desc_parse(&s, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:size=614400:fl=-2"), TL_OK);
    CHECK_MEM_EQ(&s, &d, sizeof d);
    a.qnt_type = TL_RKNN_TENSOR_QNT_NONE;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 84), TL_OK);
    CHECK_EQ_I64(d.quant.kind, TL_Q_NONE);
    CHECK_EQ_I64(d.quant.round, TL_ROUND_EVEN);
}

TL_TEST(nhwc_input_attr)
{
    tl_rknn_tensor_attr a;
    memset(&a, 0, sizeof a);
    a.n_dims = 4;
    const uint32_t dims[4] = {2, 100, 100, 3};
    memcpy(a.dims, dims, sizeof dims);
    a.fmt = TL_RKNN_TENSOR_NHWC;
    a.type = TL_RKNN_TENSOR_UINT8;
    a.w_stride = 112;
    a.h_stride = 104;
    tl_desc d;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 0), TL_OK);
    CHECK_STR_EQ(d.labels, "NHWC");
    CHECK_EQ_I64(d.pad_hi[1], 4);
    CHECK_EQ_I64(d.pad_hi[2], 12);
    CHECK_EQ_I64(d.size_bytes, 2 * 104 * 112 * 3);
    for (int64_t n = 0; n < 2; n++)
        for (int64_t h = 0; h < 100; h += 33)
            for (int64_t w = 0; w < 100; w += 7)
                for (int64_t c = 0; c < 3; c++) {
                    const int64_t x[4] = {n, h, w, c};
                    uint64_t off;
                    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
                    CHECK_EQ_I64(off, ((n * 104 + h) * 112 + w) * 3 + c); /* §4.3 */
                }
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 3), TL_OK);
    tl_desc s;
    REQUIRE_STATUS(tl_desc_parse(&s, "rknn.nhwc:u8:2x100x100x3:wstride=112:hstride=104"), TL_OK);
    CHECK_MEM_EQ(&s, &d, sizeof d);
    /* NCHW with the same strides: ((n*C + c)*Hs + h)*Ws + w. */
    REQUIRE_STATUS(tl_desc_parse(&s, "rknn.nchw:f16:2x3x10x10:wstride=16:hstride=12"), TL_OK);
    const int64_t x[4] = {1, 2, 9, 9};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&s, x, &off), TL_OK);
    CHECK_EQ_I64(off, 2 * (((1 * 3 + 2) * 12 + 9) * 16 + 9));
    CHECK_EQ_I64(s.size_bytes, 2 * 2 * 3 * 12 * 16);
}

TL_TEST(plain_attrs)
{
    tl_rknn_tensor_attr a;
    memset(&a, 0, sizeof a);
    a.n_dims = 2;
    a.dims[0] = 1, a.dims[1] = 1000;
    a.fmt = TL_RKNN_TENSOR_UNDEFINED; /* mobilenet's [1, 1000] output */
    a.type = TL_RKNN_TENSOR_FLOAT16;
    a.w_stride = 1000;
    tl_desc d;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 0), TL_OK);
    CHECK_EQ_I64(d.rank, 2);
    CHECK_EQ_I64(d.size_bytes, 2000);
    char buf[128];
    REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
    CHECK_STR_EQ(buf, "rknn.undefined:f16:1x1000");
    a.fmt = TL_RKNN_TENSOR_NCHW;
    a.n_dims = 3;
    a.dims[0] = 1, a.dims[1] = 84, a.dims[2] = 8400;
    a.w_stride = 0;
    a.size_with_stride = 2 * 84 * 8400 + 64;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 0), TL_OK);
    REQUIRE_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
    CHECK_STR_EQ(buf, "rknn.nchw:f16:1x84x8400:size=1411264");
}

TL_TEST(desc_from_attrs_channels)
{
    tl_rknn_tensor_attr native = native_r2(), plain;
    memset(&plain, 0, sizeof plain);
    plain.n_dims = 4;
    const uint32_t dims[4] = {1, 84, 80, 80};
    memcpy(plain.dims, dims, sizeof dims);
    plain.fmt = TL_RKNN_TENSOR_NCHW;
    plain.type = TL_RKNN_TENSOR_INT8;
    int64_t c;
    REQUIRE_STATUS(tl_rknn_attr_channels(&plain, &c), TL_OK);
    CHECK_EQ_I64(c, 84);
    tl_desc d;
    REQUIRE_STATUS(tl_rknn_desc_from_attrs(&d, &native, &plain), TL_OK);
    CHECK_EQ_I64(d.dims[1], 84);
    plain.fmt = TL_RKNN_TENSOR_NHWC;
    const uint32_t nhwc[4] = {1, 80, 80, 84};
    memcpy(plain.dims, nhwc, sizeof nhwc);
    REQUIRE_STATUS(tl_rknn_attr_channels(&plain, &c), TL_OK);
    CHECK_EQ_I64(c, 84);
    memset(&d, SENTINEL, sizeof d);
    CHECK_FAIL(tl_rknn_desc_from_attrs(&d, &native, NULL), TL_ERR_NULL, "NC1HWC2 needs the non-native attr");
    c = -1;
    CHECK_FAIL(tl_rknn_attr_channels(&native, &c), TL_ERR_VENDOR, "got fmt=nc1hwc2 n_dims=5");
    CHECK_EQ_I64(c, -1);
    CHECK(all_bytes(&d, sizeof d, SENTINEL));
}

/* Every bad attr: its status, its message, and the output untouched. */
typedef struct bad_attr_case {
    const char *what;
    void (*edit)(tl_rknn_tensor_attr *a);
    int64_t channels;
    tl_status st;
    const char *needle;
} bad_attr_case;

static void e_none(tl_rknn_tensor_attr *a) { (void)a; }
static void e_ndims4(tl_rknn_tensor_attr *a) { a->n_dims = 4; }
static void e_ndims0(tl_rknn_tensor_attr *a) { a->n_dims = 0; }
static void e_dim0(tl_rknn_tensor_attr *a) { a->dims[2] = 0; }
static void e_wstride(tl_rknn_tensor_attr *a) { a->w_stride = 64; }
static void e_hstride(tl_rknn_tensor_attr *a) { a->h_stride = 96; }
static void e_size(tl_rknn_tensor_attr *a) { a->size_with_stride = 614399; }
static void e_scale0(tl_rknn_tensor_attr *a) { a->scale = 0.0f; }
static void e_scale_nan(tl_rknn_tensor_attr *a) { a->scale = NAN; }
static void e_scale_sub(tl_rknn_tensor_attr *a) { a->scale = 1e-40f; }
static void e_fmt(tl_rknn_tensor_attr *a) { a->fmt = (tl_rknn_tensor_format)4; }
static void e_type(tl_rknn_tensor_attr *a) { a->type = (tl_rknn_tensor_type)12; }
static void e_platform_c2(tl_rknn_tensor_attr *a) { a->dims[4] = 0; }
static void e_nhwc(tl_rknn_tensor_attr *a)
{
    a->fmt = TL_RKNN_TENSOR_NHWC, a->n_dims = 4, a->dims[3] = 3, a->size_with_stride = 0;
}
static void e_plain_stride(tl_rknn_tensor_attr *a)
{
    a->fmt = TL_RKNN_TENSOR_NCHW, a->n_dims = 3, a->w_stride = 90, a->size_with_stride = 0;
}

TL_TEST(bad_attrs)
{
    static const bad_attr_case cases[] = {
        {"no channels", e_none, 0, TL_ERR_VENDOR, "c=0: NC1HWC2 needs the true channel count C >= 1"},
        {"C1 mismatch", e_none, 97, TL_ERR_VENDOR, "c=97: C1=dims[1]=6 must be cdiv(C,C2)=cdiv(97,16)=7 (rknn)"},
        {"C1 passed as C (§4.6 item 4)", e_none, 6, TL_ERR_VENDOR, "c=6: C1=dims[1]=6 must be cdiv(C,C2)"},
        {"4 dims", e_ndims4, 84, TL_ERR_VENDOR, "NC1HWC2 has n_dims=5 (N,C1,H,W,C2), got 4 (rknn)"},
        {"0 dims", e_ndims0, 84, TL_ERR_RANK, "n_dims=0"},
        {"dim 0", e_dim0, 84, TL_ERR_DIM, "dims[2]=0: a dim must be >= 1 (rknn)"},
        {"w_stride < W", e_wstride, 84, TL_ERR_VENDOR, "w_stride=64 < 80"},
        {"h_stride", e_hstride, 84, TL_ERR_VENDOR, "h_stride=96 on NC1HWC2"},
        {"size", e_size, 84, TL_ERR_SIZE, "size_with_stride=614399 < 614400 bytes the nc1hwc2 layout spans (rknn)"},
        {"scale 0", e_scale0, 84, TL_ERR_QUANT, "scale=0: AFFINE_ASYMMETRIC needs a finite scale > 0 (rknn)"},
        {"scale nan", e_scale_nan, 84, TL_ERR_QUANT, "AFFINE_ASYMMETRIC needs a finite scale"},
        {"scale subnormal", e_scale_sub, 84, TL_ERR_QUANT, "subnormal; AFFINE_ASYMMETRIC needs a normal f32 scale"},
        {"fmt", e_fmt, 84, TL_ERR_VENDOR, "fmt=4"},
        {"type", e_type, 84, TL_ERR_VENDOR, "type=12"},
        {"C2 0", e_platform_c2, 84, TL_ERR_DIM, "dims[4]=0"},
        {"NHWC channels", e_nhwc, 4, TL_ERR_VENDOR, "channels=4 does not match the C of the 4-dim nhwc attr (rknn)"},
        {"plain w_stride", e_plain_stride, 0, TL_ERR_VENDOR, "w_stride=90 h_stride=0 on a 3-dim nchw tensor"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tl_rknn_tensor_attr a = native_r2();
        tl_desc d;
        cases[i].edit(&a);
        memset(&d, SENTINEL, sizeof d);
        tl_status s = tl_rknn_desc_from_attr(&d, &a, cases[i].channels);
        if (s != cases[i].st || !strstr(tl_last_error(), cases[i].needle))
            FAILF("%s: got %s \"%s\", want %s \"%s\"", cases[i].what, tl_status_str(s), tl_last_error(),
                  tl_status_str(cases[i].st), cases[i].needle);
        if (!all_bytes(&d, sizeof d, SENTINEL)) FAILF("%s: the descriptor was written", cases[i].what);
    }
    CHECK_FAIL(tl_rknn_desc_from_attr(NULL, NULL, 0), TL_ERR_NULL, "NULL");
}

TL_TEST(synth_errors)
{
    tl_rknn_tensor_attr a;
    memset(&a, SENTINEL, sizeof a);
    CHECK_FAIL(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_F32, 1, 3, 4, 4), TL_ERR_VENDOR, "dtype f32 on RK3588");
    CHECK_FAIL(tl_rknn_native_attr_synth(&a, TL_RKNN_PLATFORM_NONE, TL_I8, 1, 3, 4, 4), TL_ERR_VENDOR, "platform=0");
    CHECK_FAIL(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_I8, 1, 0, 4, 4), TL_ERR_DIM, "C=0: a dim must be >= 1");
    CHECK_FAIL(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_I8, 1, 16, 5000000000LL, 1), TL_ERR_OVERFLOW,
               "dims=5000000000 does not fit the uint32 field");
    CHECK_FAIL(tl_rknn_native_attr_synth(&a, TL_RKNN_RK3588, TL_I8, 1, 16, 65536, 65536), TL_ERR_OVERFLOW,
               "n_elems=68719476736 does not fit");
    CHECK(all_bytes(&a, sizeof a, SENTINEL));
}

/* ---- spec strings ---------------------------------------------------------------- */
TL_TEST(spec_errors)
{
    static const struct { const char *spec; tl_status st; const char *needle; } cases[] = {
        {"rknn.nc1hwc2:i8:1x6x80x80x16", TL_ERR_SPEC_OPTION, "rknn.nc1hwc2 needs c=C, the true channel count"},
        {"rknn.nc1hwc2:i8:1x84x80x80:c=84", TL_ERR_SPEC_OPTION, "c=84: with 4 logical dims NxCxHxW, C is dims[1]"},
        {"rknn.nc1hwc2:i8:1x84x80x80", TL_ERR_SPEC_OPTION, "with 4 logical dims NxCxHxW needs c2=C2 or platform="},
        {"rknn.nc1hwc2:i8:1x84x80x80:c2=0", TL_ERR_SPEC_VALUE, "c2=0: must be >= 1 (rknn)"},
        {"rknn.nc1hwc2:f32:1x84x80x80:platform=rk3588", TL_ERR_VENDOR, "dtype f32 on RK3588: Table 4-6"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:c2=16", TL_ERR_SPEC_OPTION, "c2=16: with 5 dims NxC1xHxWxC2, C2 is dims[4]"},
        {"rknn.nc1hwc2:i8:84x80x80:c=84", TL_ERR_SPEC_VALUE, "takes the native dims NxC1xHxWxC2 (with c=C) or the logical"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=85:x=1", TL_ERR_SPEC_OPTION, "option 'x' is not known"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=100", TL_ERR_VENDOR, "c=100: C1=dims[1]=6 must be cdiv(C,C2)=cdiv(100,16)=7"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=0", TL_ERR_VENDOR, "c=0"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=zz", TL_ERR_SPEC_VALUE, "c=zz: not a 64-bit integer"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:platform=rk3566", TL_ERR_VENDOR,
         "C2=dims[4]=16: Table 4-6 gives C2=8 for i8 on RK3566/RK3568 (rknn)"},
        {"rknn.nc1hwc2:f16:1x6x80x80x16:c=84:platform=rk3588", TL_ERR_VENDOR, "gives C2=8 for f16 on RK3588"},
        {"rknn.nc1hwc2:f32:1x6x80x80x16:c=84:platform=rk3588", TL_ERR_VENDOR, "dtype f32 on RK3588: Table 4-6"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:platform=rk9999", TL_ERR_VENDOR, "platform=rk9999: not one of"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:wstride=79", TL_ERR_VENDOR, "w_stride=79 < 80"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:wstride=0", TL_ERR_SPEC_VALUE, "wstride=0: must be >= 1 (rknn)"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:hstride=80", TL_ERR_SPEC_OPTION, "option 'hstride' is not known"},
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:size=1000", TL_ERR_SIZE, "size_with_stride=1000 < 614400 bytes"},
        {"rknn.nc1hwc2:f64:1x6x80x80x16:c=84", TL_ERR_DTYPE, "dtype f64: RKNN has no such tensor type"},
        {"rknn.nhwc:u8:1x4x5x3:wstride=4", TL_ERR_VENDOR, "w_stride=4 < 5: the stride counts valid plus padding pixels"},
        {"rknn.nhwc:u8:1x4x5x3:hstride=3", TL_ERR_VENDOR, "h_stride=3 < 4: the stride counts valid plus padding rows"},
        {"rknn.nchw:u8:1x4x5:wstride=8", TL_ERR_SPEC_OPTION, "option 'wstride' is not known"},
        {"rknn.undefined:u8:1x4x5x6:platform=rk3588", TL_ERR_SPEC_OPTION, "option 'platform' is not known"},
        {"rknn.nc2hwc1:u8:1x4x5x6", TL_ERR_SPEC_LAYOUT, "layout rknn.nc2hwc1: expected rknn.nc1hwc2"},
        {"rknn:u8:1x4x5x6", TL_ERR_SPEC_LAYOUT, "layout rknn.: expected"},
        {"rknn.nchw:u4:1x4x5x6", TL_ERR_DTYPE, "dtype u4: RKNN has no such tensor type"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tl_desc d;
        memset(&d, SENTINEL, sizeof d);
        tl_status s = tl_desc_parse(&d, cases[i].spec);
        if (s != cases[i].st || !strstr(tl_last_error(), cases[i].needle))
            FAILF("%s: got %s \"%s\", want %s \"%s\"", cases[i].spec, tl_status_str(s), tl_last_error(),
                  tl_status_str(cases[i].st), cases[i].needle);
        if (!all_bytes(&d, sizeof d, SENTINEL)) FAILF("%s: the descriptor was written", cases[i].spec);
    }
}

/* The logical form NxCxHxW with c2= (or platform=) is the same descriptor. */
TL_TEST(spec_logical_form)
{
    static const char *pairs[][2] = {
        {"rknn.nc1hwc2:i8:1x84x80x80:c2=16", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84"},
        {"rknn.nc1hwc2:i8:1x84x80x80:platform=rk3566", "rknn.nc1hwc2:i8:1x11x80x80x8:c=84:platform=rk3566"},
        {"rknn.nc1hwc2:f16:2x84x3x5:platform=rk3588:wstride=8", "rknn.nc1hwc2:f16:2x11x3x5x8:c=84:wstride=8:platform=rk3588"},
        {"rknn.nc1hwc2:i8:1x24x4x5:c2=16:zp=-3:scale=0.05", "rknn.nc1hwc2:i8:1x2x4x5x16:c=24:zp=-3:scale=0.05"},
        /* strides equal to the dims they pad say nothing */
        {"rknn.nc1hwc2:i8:1x6x80x80x16:c=84:wstride=80", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84"},
        {"rknn.nhwc:u8:1x4x5x3:wstride=5:hstride=4", "rknn.nhwc:u8:1x4x5x3"},
        {"rknn.nchw:u8:1x3x4x5:wstride=5:hstride=4", "rknn.nchw:u8:1x3x4x5"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        tl_desc a, b;
        REQUIRE_STATUS(tl_desc_parse(&a, pairs[i][0]), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&b, pairs[i][1]), TL_OK);
        if (memcmp(&a, &b, sizeof a) != 0) FAILF("%s != %s", pairs[i][0], pairs[i][1]);
    }
}

static void check_roundtrip(const char *spec, const char *want)
{
    tl_desc a, b;
    char buf[512];
    if (tl_desc_parse(&a, spec) != TL_OK) {
        FAILF("parse %s: %s", spec, tl_last_error());
        return;
    }
    if (tl_desc_format(&a, buf, sizeof buf) != TL_OK) {
        FAILF("format %s: %s", spec, tl_last_error());
        return;
    }
    if (want && strcmp(buf, want) != 0) FAILF("format(%s) = %s, want %s", spec, buf, want);
    if (tl_desc_parse(&b, buf) != TL_OK) {
        FAILF("reparse %s: %s", buf, tl_last_error());
        return;
    }
    if (memcmp(&a, &b, sizeof a) != 0) FAILF("%s -> %s: descriptors differ", spec, buf);
}

TL_TEST(spec_roundtrip_fixed)
{
    check_roundtrip("rknn.nc1hwc2:i8:1x6x80x80x16:c=84", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84");
    check_roundtrip("rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039",
                    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:q=affine:scale=0.0039:zp=-128:round=away");
    check_roundtrip("rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039:round=even",
                    "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:round=even:q=affine:scale=0.0039:zp=-128");
    check_roundtrip("rknn.nc1hwc2:i8:1x6x80x80x16:c=84:fl=5", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:q=dfp:fl=5:round=away");
    check_roundtrip("rknn.nc1hwc2:i8:1x6x80x80x16:c=84:q=none", "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:round=away");
    check_roundtrip("rknn.nc1hwc2:i8:2x16x40x40x16:c=255:wstride=48:size=999999:platform=rv1103",
                    "rknn.nc1hwc2:i8:2x16x40x40x16:c=255:wstride=48:size=999999:platform=rv1106");
    check_roundtrip("rknn.nhwc:u8:1x640x600x3:wstride=608:hstride=642:platform=rk3568",
                    "rknn.nhwc:u8:1x640x600x3:wstride=608:hstride=642:platform=rk3566");
    check_roundtrip("rknn.nchw:i16:1x3x5x5:wstride=5", "rknn.nchw:i16:1x3x5x5"); /* wstride == W says nothing */
    check_roundtrip("rknn.nchw:f32:1x84x8400", "rknn.nchw:f32:1x84x8400");
    check_roundtrip("rknn.undefined:i4:1x1001:size=600", "rknn.undefined:i4:1x1001:size=600");
    check_roundtrip("rknn.nc1hwc2:i4:1x2x3x5x16:c=17", "rknn.nc1hwc2:i4:1x2x3x5x16:c=17");
}

static int64_t pick(tl_rng *r, const int64_t *v, int n) { return v[tl_rng_pick(r, n)]; }

#define APPEND(...) (len += snprintf(spec + len, cap - (size_t)len, __VA_ARGS__))

/* A random RKNN spec; some are invalid (size too small, platform mismatch). */
static void random_spec(tl_rng *r, char *spec, size_t cap)
{
    static const char *dts[] = {"i8", "u8", "i16", "f16", "f32", "u16", "i32", "bf16", "bool", "i4", "i64"};
    static const char *plats[] = {"rk3566", "rk3588", "rv1106", "rk3562"};
    static const int64_t c2s[] = {4, 8, 16, 32, 1, 3};
    int len = 0, fmt = tl_rng_pick(r, 4);
    const char *dt = dts[tl_rng_pick(r, 11)];
    long long n = tl_rng_range(r, 1, 4), c = tl_rng_range(r, 1, 70), h = tl_rng_range(r, 1, 9),
              w = tl_rng_range(r, 1, 40);
    bool strided = fmt == 2 || (fmt < 2 && tl_rng_pick(r, 4) != 0); /* 4-D: strides allowed */
    if (fmt == 2) {
        long long c2 = pick(r, c2s, 6);
        APPEND("rknn.nc1hwc2:%s:%lldx%lldx%lldx%lldx%lld:c=%lld", dt, n, (long long)tl_cdiv(c, c2), h, w, c2, c);
    } else if (!strided) {
        APPEND("rknn.%s:%s:%lldx%lldx%lld", fmt == 3 ? "undefined" : fmt ? "nhwc" : "nchw", dt, n, c, w);
    } else {
        APPEND("rknn.%s:%s:%lldx%lldx%lldx%lld", fmt ? "nhwc" : "nchw", dt, n, fmt ? h : c, fmt ? w : h, fmt ? c : w);
        if (tl_rng_pick(r, 2)) APPEND(":hstride=%lld", h + tl_rng_range(r, 0, 3));
    }
    if (strided && tl_rng_pick(r, 2)) APPEND(":wstride=%lld", w + tl_rng_range(r, 0, 20));
    if (tl_rng_pick(r, 4) == 0) APPEND(":size=%lld", (long long)tl_rng_range(r, 1, 1 << 20));
    if (strided && tl_rng_pick(r, 5) == 0) APPEND(":platform=%s", plats[tl_rng_pick(r, 4)]);
    int q = tl_rng_pick(r, 4);
    if (q == 1) APPEND(":zp=%lld:scale=%g", (long long)tl_rng_range(r, -128, 127), tl_rng_unit(r) + 0.001);
    if (q == 2) APPEND(":fl=%lld", (long long)tl_rng_range(r, -8, 8));
    if (tl_rng_pick(r, 4) == 0) APPEND(":round=%s", tl_rng_pick(r, 2) ? "even" : "zero");
}

TL_TEST(spec_roundtrip_random)
{
    tl_rng r = tl_test_rng();
    int ok = 0;
    for (int iter = 0; iter < 4000 && TL_TEST_FAILURES() == 0; iter++) {
        char spec[256];
        tl_desc a;
        random_spec(&r, spec, sizeof spec);
        if (tl_desc_parse(&a, spec) != TL_OK) continue; /* sizes, platforms, dtypes may be rejected */
        ok++;
        check_roundtrip(spec, NULL);
    }
    CHECK(ok > 1500);
}

TL_TEST(json_extras)
{
    tl_desc d;
    char buf[4096];
    tl_strbuf sb = {buf, sizeof buf, 0};
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:wstride=96:platform=rk3588"), TL_OK);
    CHECK_EQ_I64(d.vendor, TL_VENDOR_RKNN);
    CHECK_EQ_I64(d.vendor_format, TL_RKNN_TENSOR_NC1HWC2);
    CHECK_EQ_I64(d.vendor_params[TL_RKNN_P_C1], 6);
    CHECK_EQ_I64(d.vendor_params[TL_RKNN_P_C2], 16);
    CHECK_EQ_I64(d.vendor_params[TL_RKNN_P_W_STRIDE], 96);
    CHECK_EQ_I64(d.vendor_params[TL_RKNN_P_PLATFORM], TL_RKNN_RK3588);
    tl_desc_json(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"rknn_size_with_stride\": 737280");
    CHECK_STR_CONTAINS(buf, "\"rknn_native_dims\": [1, 6, 80, 80, 16]");
    CHECK_STR_CONTAINS(buf, "\"rknn_c2\": 16");
    CHECK_STR_CONTAINS(buf, "\"rknn_fmt\": \"NC1HWC2\"");
    CHECK_STR_CONTAINS(buf, "\"rknn_platform\": \"RK3588\"");
    sb.len = 0;
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nhwc:u8:1x4x5x3:wstride=16"), TL_OK);
    tl_desc_json(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"rknn_native_dims\": [1, 4, 5, 3], \"rknn_c2\": null");
    CHECK_STR_CONTAINS(buf, "\"rknn_size_with_stride\": 192");
}

TL_TEST(explain_text)
{
    tl_desc d;
    char buf[4096];
    tl_strbuf sb = {buf, sizeof buf, 0};
    const tl_vendor_ops *ops = tl_vendor_find(TL_VENDOR_RKNN);
    REQUIRE(ops && ops->explain);
    REQUIRE_STATUS(tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039"), TL_OK);
    ops->explain(&d, &sb);
    REQUIRE(sb.len < sizeof buf);
    CHECK_STR_CONTAINS(buf, "channels 84..95 are padding");
    CHECK_STR_CONTAINS(buf, "pixels are 16 elements apart, rows 1280, channel blocks 102400, batches 614400");
    CHECK_STR_CONTAINS(buf, "Allocate size_with_stride = 614400 bytes");
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(r12_struct_layout);
    TL_RUN(attr_read_offsets);
    TL_RUN(attr_write_read_roundtrip);
    TL_RUN(attr_read_errors);
    TL_RUN(attr_write_errors);
    TL_RUN(type_mapping);
    TL_RUN(c2_table);
    TL_RUN(platform_names);
    TL_RUN(r11_zero_copy_width);
    TL_RUN(r1_synth_rk3566);
    TL_RUN(r2_r3_native_output);
    TL_RUN(r4_fp16);
    TL_RUN(nc1hwc2_offset_formula);
    TL_RUN(rv1106_row_padding_sizes);
    TL_RUN(dfp_attr);
    TL_RUN(nhwc_input_attr);
    TL_RUN(plain_attrs);
    TL_RUN(desc_from_attrs_channels);
    TL_RUN(bad_attrs);
    TL_RUN(synth_errors);
    TL_RUN(spec_errors);
    TL_RUN(spec_logical_form);
    TL_RUN(spec_roundtrip_fixed);
    TL_RUN(spec_roundtrip_random);
    TL_RUN(json_extras);
    TL_RUN(explain_text);
    return tl_test_finish();
}
