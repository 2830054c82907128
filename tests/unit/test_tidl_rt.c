/* What TIDL-RT itself requires of the buffers an application hands it:
 * the allocation of an input (one padded plane more than the layout on
 * V2/V3, inBufSize on V4), and its user tensor sTIDLRT_Tensor_t with the
 * "same as the buffer descriptor" test. Numbers worked out by hand from TI's
 * geometry (lp = W + PadL + PadR, cp, DIM2 pitch cp * (C + PadCh), ...). */
#include <stdio.h>
#include <string.h>

#include "tl_test.h"

static uint64_t alloc_of(const char *spec)
{
    tl_desc d;
    uint64_t n = 0;
    if (tl_desc_parse(&d, spec) != TL_OK || tl_tidl_input_alloc_size(&d, &n) != TL_OK) {
        FAILF("%s: %s", spec, tl_last_error());
        return 0;
    }
    return n;
}

/* 224x224 u8 with a 1-pixel border: cp = 226*226 = 51076; the layout spans
 * 3 cp = 153228 bytes, TI's test bench allocates (3 + 1) cp = 204304. */
TL_TEST(input_alloc_v2_v3_one_plane_more)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x224x224:pad=1,1,1,1"), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 153228);
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x224x224:pad=1,1,1,1"), 204304);
    /* int16, cp 80, 2 batches: 2 * (3 + 1) * 80 * 2 bytes */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:i16:2x3x4x10:pad=1,1,1,1:cp=80"), 1280);
    /* 6-D: N * DIM1 * DIM2 * (C + 1) * cp * es = 1*2*3*(4+1)*12*1 */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x2x3x4x3x4"), 360);
    /* PadCh 2: the layout (C + PadCh planes) already spans more than C + 1 */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x4x4:padch=2"), 80);
    /* dense NHWC: the channel slot is H*W */
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x4x5:layout=nhwc"), 80);
}

/* V4: inBufSize already counts the plane, so it is the allocation. */
TL_TEST(input_alloc_v4_is_bufsize)
{
    CHECK_EQ_I64((int64_t)alloc_of("tidl:u8:1x3x224x224:pad=1,1,1,1:bufsize=204304"), 204304);
    CHECK_EQ_I64((int64_t)alloc_of("tidl:i16:1x3x4x10:pad=1,1,1,1:bufsize=300"), 600);
}

TL_TEST(input_alloc_errors)
{
    tl_desc d;
    uint64_t n = 7;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x3x4x4"), TL_OK);
    CHECK_STATUS(tl_tidl_input_alloc_size(&d, &n), TL_ERR_VENDOR_EXPORT);
    CHECK(n == 7);
    CHECK_STATUS(tl_tidl_input_alloc_size(NULL, &n), TL_ERR_NULL);
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x4x4"), TL_OK);
    CHECK_STATUS(tl_tidl_input_alloc_size(&d, NULL), TL_ERR_NULL);
}

static void fmt(const tl_desc *d, char *buf, size_t len)
{
    if (tl_desc_format(d, buf, len) != TL_OK) snprintf(buf, len, "?");
}

/* The 224x224 input with a 1-pixel border, V4 with the extra plane in BufSize. */
TL_TEST(tensor_from_desc_numbers)
{
    tl_desc d;
    tl_tidlrt_tensor t;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x224x224:pad=1,1,1,1:bufsize=204304:scale=127.5"), TL_OK);
    REQUIRE_STATUS(tl_tidlrt_tensor_from_desc(&d, &t), TL_OK);
    const int32_t dims[6] = {1, 1, 1, 3, 224, 224};
    CHECK_MEM_EQ(t.dim_values, dims, sizeof dims);
    CHECK_EQ_I64(t.num_dim, 6);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_LINE_PITCH], 226);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_CHANNEL_PITCH], 226 * 226);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_DIM2_PITCH], 3 * 51076);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_DIM1_PITCH], 3 * 51076);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_ROI_PITCH], 3 * 51076);
    CHECK_EQ_I64(t.pad_values[TL_TIDLRT_PAD_L], 1);
    CHECK_EQ_I64(t.pad_values[TL_TIDLRT_PAD_B], 1);
    CHECK_EQ_I64(t.data_offset, 226 + 1);
    CHECK_EQ_I64(t.buffer_size, 204304);
    CHECK(t.scale == 127.5f && t.zero_point == 0 && t.layout == TL_TIDL_LT_NCHW);
    tl_tidl_buf b;
    char why[256];
    REQUIRE_STATUS(tl_tidl_from_desc(&d, &b), TL_OK);
    CHECK(tl_tidlrt_tensor_same(&t, &b, why, sizeof why) == 1);
    CHECK_STR_EQ(why, "");
    /* and back: the same buffer */
    tl_desc back;
    char a[256], c[256];
    REQUIRE_STATUS(tl_desc_from_tidlrt_tensor(&back, &t), TL_OK);
    fmt(&d, a, sizeof a);
    fmt(&back, c, sizeof c);
    CHECK_STR_EQ(c, a);
    /* 6-D with PadCh and DIM1/DIM2: d2p = cp*(C+PadCh) = 20*5, d1p = 100*3, roi = 300*2 */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i16:1x2x3x4x4x5:padch=1:scale=8"), TL_OK);
    REQUIRE_STATUS(tl_tidlrt_tensor_from_desc(&d, &t), TL_OK);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_DIM2_PITCH], 100);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_DIM1_PITCH], 300);
    CHECK_EQ_I64(t.pitch[TL_TIDLRT_ROI_PITCH], 600);
    CHECK_EQ_I64(t.buffer_size, 600);
}

/* Each field TIDL-RT compares, broken one at a time: the message names it. */
TL_TEST(same_names_the_field)
{
    tl_desc d;
    tl_tidl_buf b;
    tl_tidlrt_tensor t0, t;
    char why[256];
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:i8:1x3x224x224:pad=1,1,1,1:bufsize=204304:scale=32:zp=2"), TL_OK);
    REQUIRE_STATUS(tl_tidl_from_desc(&d, &b), TL_OK);
    b.is_output = 0;
    REQUIRE_STATUS(tl_tidlrt_tensor_from_desc(&d, &t0), TL_OK);
    static const char *const want[] = {"elementType=0 but inElementType=1",
                                       "pitch[TIDLRT_CHANNEL_PITCH]=50176 but inChannelPitch=51076",
                                       "layout=1 but inLayout=0", "zeroPoint=0 but inZeroPoint=2",
                                       "scale=31.9999981 but inTensorScale=32", "bufferSize=153228 but inBufSize=204304"};
    for (int k = 0; k < 6; k++) {
        t = t0;
        switch (k) {
        case 0: t.element_type = TL_TIDL_UNSIGNED_CHAR; break;
        case 1: t.pitch[TL_TIDLRT_CHANNEL_PITCH] = -1; break; /* read as 224*224: no pads */
        case 2: t.layout = TL_TIDL_LT_NHWC; break;
        case 3: t.zero_point = 0; break;
        case 4: t.scale = 31.999998f; break;
        default: t.buffer_size = 153228; break;
        }
        CHECK(tl_tidlrt_tensor_same(&t, &b, why, sizeof why) == 0);
        CHECK_STR_CONTAINS(why, want[k]);
        CHECK_STR_CONTAINS(why, "converts element by element");
    }
    /* -1 is the channel pitch of an unpadded buffer */
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x4x5"), TL_OK);
    REQUIRE_STATUS(tl_tidl_from_desc(&d, &b), TL_OK);
    b.channel_pitch = 20; /* as io_1.bin states it */
    REQUIRE_STATUS(tl_tidlrt_tensor_from_desc(&d, &t), TL_OK);
    t.pitch[TL_TIDLRT_CHANNEL_PITCH] = -1;
    CHECK(tl_tidlrt_tensor_same(&t, &b, NULL, 0) == 1);
}

TL_TEST(tensor_to_desc_checks_fields)
{
    tl_desc d;
    tl_tidlrt_tensor t0, t;
    REQUIRE_STATUS(tl_desc_parse(&d, "tidl:u8:1x3x224x224:pad=1,1,1,1:scale=2"), TL_OK);
    REQUIRE_STATUS(tl_tidlrt_tensor_from_desc(&d, &t0), TL_OK);
    t = t0;
    t.pitch[TL_TIDLRT_LINE_PITCH] = 230;
    CHECK_STATUS(tl_desc_from_tidlrt_tensor(&d, &t), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "pitch[TIDLRT_LINE_PITCH]=230 but Width + PadL + PadR = 226");
    t = t0;
    t.data_offset = 2; /* TI's document's PadT + PadL */
    CHECK_STATUS(tl_desc_from_tidlrt_tensor(&d, &t), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "dataOffset=2 but PadT x lp + PadL = 227");
    t = t0;
    t.scale = 0.0f; /* TIDLRT_setTensorDefault's scale */
    CHECK_STATUS(tl_desc_from_tidlrt_tensor(&d, &t), TL_ERR_QUANT);
    CHECK_STR_CONTAINS(tl_last_error(), "scale=0");
    t = t0;
    t.num_dim = 5;
    CHECK_STATUS(tl_desc_from_tidlrt_tensor(&d, &t), TL_ERR_RANK);
    /* the older 4-D form: dims N, C, H, W; pitches ROI, CHANNEL, LINE */
    memset(&t, 0, sizeof t);
    t.num_dim = 4;
    t.element_type = TL_TIDL_SIGNED_SHORT;
    const int32_t dims4[4] = {1, 3, 4, 10};
    memcpy(t.dim_values, dims4, sizeof dims4);
    t.pitch[0] = 240, t.pitch[1] = 80, t.pitch[2] = 12;
    t.pad_values[TL_TIDLRT_PAD_L] = t.pad_values[TL_TIDLRT_PAD_R] = 1;
    t.pad_values[TL_TIDLRT_PAD_T] = t.pad_values[TL_TIDLRT_PAD_B] = 1;
    t.data_offset = 13;
    t.scale = 25.0f;
    REQUIRE_STATUS(tl_desc_from_tidlrt_tensor(&d, &t), TL_OK);
    char a[256];
    fmt(&d, a, sizeof a);
    CHECK_STR_EQ(a, "tidl:i16:1x3x4x10:pad=1,1,1,1:cp=80:q=inv:scale=25:round=zero");
    /* a float tensor carries no quantization, whatever scale says */
    t.element_type = TL_TIDL_SINGLE_PREC_FLOAT;
    t.scale = 0.0f;
    REQUIRE_STATUS(tl_desc_from_tidlrt_tensor(&d, &t), TL_OK);
    CHECK(d.quant.kind == TL_Q_NONE);
}

/* Random TIDL buffers: tensor and back give the same descriptor, and the
 * tensor is "the same" as the buffer. */
TL_TEST(round_trip_random)
{
    tl_rng r = tl_test_rng();
    char spec[256], a[256], c[256];
    static const char *const dts[] = {"u8", "i8", "u16", "i16", "f32"};
    for (int k = 0; k < 300 && TL_TEST_FAILURES() == 0; k++) {
        int six = (int)tl_rng_range(&r, 0, 1);
        int n = snprintf(spec, sizeof spec, "tidl:%s:%d", dts[tl_rng_pick(&r, 5)], (int)tl_rng_range(&r, 1, 2));
        /* DIM1 > 1: a tensor's 6 dims of 1,1 come back 4-D, as buffers from io_1.bin do */
        if (six) n += snprintf(spec + n, sizeof spec - (size_t)n, "x%dx%d", (int)tl_rng_range(&r, 2, 3),
                               (int)tl_rng_range(&r, 1, 3));
        n += snprintf(spec + n, sizeof spec - (size_t)n, "x%dx%dx%d:pad=%d,%d,%d,%d:padch=%d",
                      (int)tl_rng_range(&r, 1, 4), (int)tl_rng_range(&r, 1, 9), (int)tl_rng_range(&r, 1, 9),
                      (int)tl_rng_range(&r, 0, 2), (int)tl_rng_range(&r, 0, 2), (int)tl_rng_range(&r, 0, 2),
                      (int)tl_rng_range(&r, 0, 2), (int)tl_rng_range(&r, 0, 1));
        tl_desc d, back;
        tl_tidlrt_tensor t;
        tl_tidl_buf b;
        REQUIRE_STATUS(tl_desc_parse(&d, spec), TL_OK);
        REQUIRE_STATUS(tl_tidlrt_tensor_from_desc(&d, &t), TL_OK);
        REQUIRE_STATUS(tl_tidl_from_desc(&d, &b), TL_OK);
        if (!tl_tidlrt_tensor_same(&t, &b, NULL, 0)) FAILF("%s: tensor not the same as its buffer", spec);
        if (tl_desc_from_tidlrt_tensor(&back, &t) != TL_OK) {
            FAILF("%s: %s", spec, tl_last_error());
            break;
        }
        /* the tensor always carries bufferSize: V2/V3 buffers come back with bufsize= */
        int64_t es = tl_dtype_bits((tl_dtype)d.dtype) / 8;
        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), ":bufsize=%lld", (long long)(d.size_bytes / es));
        REQUIRE_STATUS(tl_desc_parse(&d, spec), TL_OK);
        fmt(&d, a, sizeof a);
        fmt(&back, c, sizeof c);
        if (strcmp(a, c) != 0) FAILF("%s -> %s", a, c);
    }
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(input_alloc_v2_v3_one_plane_more);
    TL_RUN(input_alloc_v4_is_bufsize);
    TL_RUN(input_alloc_errors);
    TL_RUN(tensor_from_desc_numbers);
    TL_RUN(same_names_the_field);
    TL_RUN(tensor_to_desc_checks_fields);
    TL_RUN(round_trip_random);
    return tl_test_finish();
}
