/* The attr line of the Rockchip demos read back: the print variants users
 * paste, random attrs printed in the demos' format and read back, the errors,
 * and the rknn_create_mem size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test.h"

static const char *const fmts[] = {"NCHW", "NHWC", "NC1HWC2", "UNDEFINED"};
static const char *const types[] = {"FP32", "FP16", "INT8", "UINT8", "INT16", "UINT16",
                                    "INT32", "UINT32", "INT64", "BOOL", "INT4", "BF16"};
static const char *const qnts[] = {"NONE", "DFP", "AFFINE"};

/* The line as the model zoo's dump_tensor_attr prints it ("w_stride = %d"). */
static void print_line(const tl_rknn_tensor_attr *a, char *out, size_t len)
{
    char dims[200] = "";
    for (uint32_t i = 0; i < a->n_dims; i++)
        snprintf(dims + strlen(dims), sizeof dims - strlen(dims), "%s%u", i ? ", " : "", a->dims[i]);
    snprintf(out, len, "  index=%u, name=%s, n_dims=%u, dims=[%s], n_elems=%u, size=%u, w_stride = %u, "
             "size_with_stride=%u, fmt=%s, type=%s, qnt_type=%s, zp=%d, scale=%f", a->index, a->name, a->n_dims,
             dims, a->n_elems, a->size, a->w_stride, a->size_with_stride, fmts[a->fmt], types[a->type],
             qnts[a->qnt_type], (int)a->zp, (double)a->scale);
}

TL_TEST(the_issue_line)
{
    tl_rknn_tensor_attr a;
    const char *line = "index=0, name=output0, n_dims=4, dims=[1, 6, 80, 80, 16], n_elems=614400, size=614400, "
                       "w_stride=80, size_with_stride=614400, fmt=NC1HWC2, type=INT8, qnt_type=AFFINE, zp=-128, "
                       "scale=0.003922";
    REQUIRE_STATUS(tl_rknn_attr_parse_line(&a, line), TL_OK);
    CHECK_EQ_I64(a.n_dims, 5);
    CHECK_EQ_I64(a.dims[1], 6);
    CHECK_EQ_I64(a.dims[4], 16);
    CHECK_STR_EQ(a.name, "output0");
    CHECK(a.fmt == TL_RKNN_TENSOR_NC1HWC2 && a.type == TL_RKNN_TENSOR_INT8);
    CHECK(a.qnt_type == TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC);
    CHECK_EQ_I64(a.zp, -128);
    CHECK(a.scale == 0.003922f);
    CHECK_EQ_I64(a.w_stride, 80);
    CHECK_EQ_I64(a.size_with_stride, 614400);
    /* as a descriptor: 85 channels in 6 blocks of 16, element (c 17, h 1, w 2) at
     * block 1 (17 / 16), (1 * 80 + 2) pixels in, lane 1: (1*80*80 + 82) * 16 + 1 */
    tl_desc d;
    uint64_t off;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 85), TL_OK);
    REQUIRE_STATUS(tl_desc_offset(&d, (const int64_t[]){0, 17, 1, 2}, &off), TL_OK);
    CHECK_EQ_I64((int64_t)off, (80 * 80 + 82) * 16 + 1);
    uint32_t mem;
    REQUIRE_STATUS(tl_rknn_mem_size(&a, &d, &mem), TL_OK);
    CHECK_EQ_I64(mem, 614400);
}

/* Copies of dump_tensor_attr differ: no brackets, no w_stride, a log prefix,
 * "%-8s ::" after the name, h_stride. */
TL_TEST(print_variants)
{
    tl_rknn_tensor_attr a;
    REQUIRE_STATUS(tl_rknn_attr_parse_line(&a, "  index=1, name=in, n_dims=4, dims=1,224,224,3,, n_elems=150528, "
                                           "size=150528, size_with_stride=153600, fmt=NHWC, type=UINT8, "
                                           "qnt_type=NONE, zp=0, scale=1.000000\n"), TL_OK);
    CHECK_EQ_I64(a.index, 1);
    CHECK_EQ_I64(a.n_dims, 4);
    CHECK_EQ_I64(a.dims[3], 3);
    CHECK_EQ_I64(a.size_with_stride, 153600);
    CHECK(a.fmt == TL_RKNN_TENSOR_NHWC && a.type == TL_RKNN_TENSOR_UINT8 && a.qnt_type == TL_RKNN_TENSOR_QNT_NONE);
    REQUIRE_STATUS(tl_rknn_attr_parse_line(&a, "[I] model.cc:42   > index=0, name=images   :: n_dims=4, "
                                           "dims=[1, 3, 640, 640], n_elems=1228800, size=2457600, w_stride=640, "
                                           "h_stride=648, size_with_stride=2488320, fmt=NCHW, type=FP16, "
                                           "qnt_type=NONE, zp=0, scale=1.000000"), TL_OK);
    CHECK_STR_EQ(a.name, "images");
    CHECK_EQ_I64(a.h_stride, 648);
    CHECK(a.type == TL_RKNN_TENSOR_FLOAT16);
    REQUIRE_STATUS(tl_rknn_attr_parse_line(&a, "dims=[2, 3], fmt=UNDEFINED, type=BF16, qnt_type=DFP, fl=5"), TL_OK);
    CHECK_EQ_I64(a.fl, 5);
    CHECK(a.type == TL_RKNN_TENSOR_BFLOAT16 && a.qnt_type == TL_RKNN_TENSOR_QNT_DFP);
}

TL_TEST(random_attrs_round_trip)
{
    tl_rng r = tl_test_rng();
    char line[1024];
    for (int k = 0; k < 500 && TL_TEST_FAILURES() == 0; k++) {
        tl_rknn_tensor_attr a, b;
        memset(&a, 0, sizeof a);
        a.index = (uint32_t)tl_rng_range(&r, 0, 20);
        snprintf(a.name, sizeof a.name, "t/%d.out_%d", k, (int)tl_rng_range(&r, 0, 99));
        a.n_dims = (uint32_t)tl_rng_range(&r, 1, 6);
        a.n_elems = 1;
        for (uint32_t i = 0; i < a.n_dims; i++) a.n_elems *= a.dims[i] = (uint32_t)tl_rng_range(&r, 1, 40);
        a.size = a.n_elems;
        a.w_stride = (uint32_t)tl_rng_range(&r, 0, 64);
        a.size_with_stride = a.size + (uint32_t)tl_rng_range(&r, 0, 100);
        a.fmt = (tl_rknn_tensor_format)tl_rng_range(&r, 0, 3);
        a.type = (tl_rknn_tensor_type)tl_rng_range(&r, 0, 11);
        a.qnt_type = (tl_rknn_tensor_qnt_type)tl_rng_range(&r, 0, 2);
        a.zp = (int32_t)tl_rng_range(&r, -128, 127);
        a.scale = (float)tl_rng_unit(&r);
        print_line(&a, line, sizeof line);
        if (tl_rknn_attr_parse_line(&b, line) != TL_OK) {
            FAILF("%s: %s", line, tl_last_error());
            break;
        }
        char txt[32];
        snprintf(txt, sizeof txt, "%f", (double)a.scale);
        a.scale = strtof(txt, NULL); /* the demos print 6 decimals: that is what comes back */
        if (memcmp(&a, &b, sizeof a) != 0) FAILF("read back differs: %s", line);
    }
}

TL_TEST(errors_name_the_key)
{
    tl_rknn_tensor_attr a;
    memset(&a, 0x5A, sizeof a);
    tl_rknn_tensor_attr before = a;
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "index=0, dims=[1, 2], type=INT8"), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "no fmt=");
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1, 2], fmt=NHWC, type=INT9"), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "type=INT9");
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1, 2], n_elems=3, fmt=NHWC, type=INT8"), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "n_elems=3 but the dims multiply to 2");
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1, x], fmt=NHWC, type=INT8"), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "dims=[1, x]");
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1], zp=1e3, fmt=NHWC, type=INT8"), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "zp=1e3");
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1], fmt=NHWC, fmt=NCHW, type=INT8"), TL_ERR_VENDOR_FILE);
    CHECK_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1], fmt=NHWC, type=INT8, scale=nan"), TL_ERR_VENDOR_FILE);
    CHECK_STATUS(tl_rknn_attr_parse_line(NULL, "dims=[1]"), TL_ERR_NULL);
    CHECK_MEM_EQ(&a, &before, sizeof a);
}

TL_TEST(mem_size)
{
    tl_rknn_tensor_attr a;
    uint32_t n = 0;
    REQUIRE_STATUS(tl_rknn_attr_parse_line(&a, "dims=[1, 4, 4, 3], size=48, size_with_stride=64, fmt=NHWC, "
                                           "type=UINT8"), TL_OK);
    REQUIRE_STATUS(tl_rknn_mem_size(&a, NULL, &n), TL_OK);
    CHECK_EQ_I64(n, 64);
    a.size_with_stride = 0;
    REQUIRE_STATUS(tl_rknn_mem_size(&a, NULL, &n), TL_OK);
    CHECK_EQ_I64(n, 48);
    a.size = 0;
    CHECK_STATUS(tl_rknn_mem_size(&a, NULL, &n), TL_ERR_VENDOR);
    tl_desc d;
    REQUIRE_STATUS(tl_rknn_desc_from_attr(&d, &a, 0), TL_OK);
    REQUIRE_STATUS(tl_rknn_mem_size(&a, &d, &n), TL_OK);
    CHECK_EQ_I64(n, 48);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(the_issue_line);
    TL_RUN(print_variants);
    TL_RUN(random_attrs_round_trip);
    TL_RUN(errors_name_the_key);
    TL_RUN(mem_size);
    return tl_test_finish();
}
