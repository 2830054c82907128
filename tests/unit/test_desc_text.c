/* tl_desc_to_json and tl_desc_explain_vendor: the texts behind `tlayout
 * describe --json` and the vendor part of `tlayout explain`. Public API only,
 * as a user of the library calls them: the exact text, the size query, and
 * that a failing call writes nothing into the caller's buffer. */
#include <string.h>

#include "tl_test.h"

#define SENTINEL 0x5a

/* NCHW u8 1x2x1x3, worked by hand: 6 bytes, W step 1, C step 3 (H has extent
 * 1 and keeps C's step), N step 6. */
static const char nchw_json[] =
    "{\"spec\": \"NCHW:u8:1x2x1x3\", \"dtype\": \"u8\", \"bits\": 8, \"rank\": 4, \"dims\": [1, 2, 1, 3], "
    "\"labels\": \"NCHW\", \"quant\": {\"kind\": \"none\", \"scale\": 0, \"zp\": 0, \"fl\": 0, \"round\": "
    "\"even\"}, \"size_bytes\": 6, \"pad_lo\": [0, 0, 0, 0], \"pad_hi\": [0, 0, 0, 0], \"readonly\": false, "
    "\"vendor\": null, \"plane_dim\": -1, \"planes\": [{\"offset_bytes\": 0, \"first\": 0, \"count\": 0, "
    "\"axes\": [{\"dim\": 0, \"label\": \"N\", \"block\": 1, \"extent\": 1, \"stride_bytes\": 6, "
    "\"stride_bits\": 48}, {\"dim\": 1, \"label\": \"C\", \"block\": 1, \"extent\": 2, \"stride_bytes\": 3, "
    "\"stride_bits\": 24}, {\"dim\": 2, \"label\": \"H\", \"block\": 1, \"extent\": 1, \"stride_bytes\": 3, "
    "\"stride_bits\": 24}, {\"dim\": 3, \"label\": \"W\", \"block\": 1, \"extent\": 3, \"stride_bytes\": 1, "
    "\"stride_bits\": 8}]}], \"axes\": [{\"dim\": 0, \"label\": \"N\", \"block\": 1, \"extent\": 1, "
    "\"stride_bytes\": 6, \"stride_bits\": 48}, {\"dim\": 1, \"label\": \"C\", \"block\": 1, \"extent\": 2, "
    "\"stride_bytes\": 3, \"stride_bits\": 24}, {\"dim\": 2, \"label\": \"H\", \"block\": 1, \"extent\": 1, "
    "\"stride_bytes\": 3, \"stride_bits\": 24}, {\"dim\": 3, \"label\": \"W\", \"block\": 1, \"extent\": 3, "
    "\"stride_bytes\": 1, \"stride_bits\": 8}]}";

/* larod's Example 2: rows of 300 RGBX pixels padded to 1216 bytes. */
#define LAROD_SPEC "larod.nhwc:u8:1x224x300x3:align=0,0,32,4"

/* Every byte of buf[0..n) still holds the sentinel. */
static int untouched(const char *buf, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)buf[i] != SENTINEL) return 0;
    return 1;
}

TL_TEST(json_exact_text_and_size)
{
    tl_desc d;
    char buf[4096];
    size_t need = 0, n = strlen(nchw_json);
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x2x1x3"), TL_OK);
    memset(buf, SENTINEL, sizeof buf);
    REQUIRE_STATUS(tl_desc_to_json(&d, buf, sizeof buf, &need), TL_OK);
    CHECK_STR_EQ(buf, nchw_json);
    CHECK_EQ_I64((int64_t)need, (int64_t)n + 1);
    CHECK(untouched(buf + n + 1, sizeof buf - n - 1));
    CHECK_STR_EQ(tl_last_error(), "");
}

TL_TEST(json_size_query_then_exact_buffer)
{
    tl_desc d;
    size_t need = 0;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x2x1x3"), TL_OK);
    /* buf NULL with len 0 only asks for the size */
    CHECK_STATUS(tl_desc_to_json(&d, NULL, 0, &need), TL_ERR_BUFFER_SMALL);
    REQUIRE_EQ_I64((int64_t)need, (int64_t)strlen(nchw_json) + 1);
    char buf[sizeof nchw_json + 8];
    memset(buf, SENTINEL, sizeof buf);
    REQUIRE_STATUS(tl_desc_to_json(&d, buf, need, NULL), TL_OK); /* needed may be NULL */
    CHECK_STR_EQ(buf, nchw_json);
    CHECK(untouched(buf + need, sizeof buf - need));
}

TL_TEST(json_one_byte_short_writes_nothing)
{
    tl_desc d;
    char buf[sizeof nchw_json];
    size_t need = 0, short_len = strlen(nchw_json); /* no room for the NUL */
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x2x1x3"), TL_OK);
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(tl_desc_to_json(&d, buf, short_len, &need), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "len=");
    CHECK_STR_CONTAINS(tl_last_error(), "needs");
    CHECK_EQ_I64((int64_t)need, (int64_t)short_len + 1);
    CHECK(untouched(buf, sizeof buf));
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(tl_desc_to_json(&d, buf, 1, NULL), TL_ERR_BUFFER_SMALL);
    CHECK(untouched(buf, sizeof buf));
}

TL_TEST(json_bad_arguments)
{
    tl_desc d;
    char buf[64];
    size_t need = 7;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:u8:1x2x1x3"), TL_OK);
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(tl_desc_to_json(NULL, buf, sizeof buf, &need), TL_ERR_NULL);
    CHECK_STR_CONTAINS(tl_last_error(), "descriptor is NULL");
    CHECK_STATUS(tl_desc_to_json(&d, NULL, 16, &need), TL_ERR_NULL);
    CHECK_STR_CONTAINS(tl_last_error(), "buffer is NULL");
    CHECK_EQ_I64((int64_t)need, 7); /* only a size check sets *needed */
    /* an invalid descriptor: the status of tl_desc_validate, nothing written */
    d.dims[1] = 0;
    CHECK_STATUS(tl_desc_to_json(&d, buf, sizeof buf, &need), TL_ERR_DIM);
    CHECK_EQ_I64((int64_t)need, 7);
    CHECK(untouched(buf, sizeof buf));
}

TL_TEST(json_vendor_members)
{
    tl_desc d;
    char buf[8192];
    REQUIRE_STATUS(tl_desc_parse(&d, LAROD_SPEC), TL_OK);
    REQUIRE_STATUS(tl_desc_to_json(&d, buf, sizeof buf, NULL), TL_OK);
    CHECK_STR_CONTAINS(buf, "{\"spec\": \"larod.nhwc:u8:1x224x300x3:pitches=272384,272384,1216,4\"");
    CHECK_STR_CONTAINS(buf, "\"size_bytes\": 272384");
    CHECK_STR_CONTAINS(buf, "\"vendor\": \"larod\"");
    CHECK(buf[strlen(buf) - 1] == '}');
}

TL_TEST(explain_vendor_text)
{
    tl_desc d;
    char buf[8192];
    size_t need = 0;
    REQUIRE_STATUS(tl_desc_parse(&d, LAROD_SPEC), TL_OK);
    memset(buf, SENTINEL, sizeof buf);
    REQUIRE_STATUS(tl_desc_explain_vendor(&d, buf, sizeof buf, &need), TL_OK);
    CHECK_EQ_I64((int64_t)need, (int64_t)strlen(buf) + 1);
    CHECK(untouched(buf + need, sizeof buf - need));
    CHECK_STR_CONTAINS(buf, "Axis larod tensor: ");
    CHECK_STR_CONTAINS(buf, "pitches (272384, 272384, 1216, 4) in bytes.\n");
    CHECK(buf[need - 2] == '\n'); /* paragraphs end in a newline */
}

TL_TEST(explain_vendor_empty_without_vendor)
{
    tl_desc d;
    char buf[16];
    size_t need = 0;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW16c:f32:1x20x2x3"), TL_OK);
    CHECK_STATUS(tl_desc_explain_vendor(&d, NULL, 0, &need), TL_ERR_BUFFER_SMALL);
    CHECK_EQ_I64((int64_t)need, 1);
    memset(buf, SENTINEL, sizeof buf);
    REQUIRE_STATUS(tl_desc_explain_vendor(&d, buf, 1, &need), TL_OK);
    CHECK(buf[0] == '\0');
    CHECK(untouched(buf + 1, sizeof buf - 1));
}

TL_TEST(explain_vendor_short_and_bad_arguments)
{
    tl_desc d;
    char buf[64];
    size_t need = 0;
    REQUIRE_STATUS(tl_desc_parse(&d, LAROD_SPEC), TL_OK);
    memset(buf, SENTINEL, sizeof buf);
    CHECK_STATUS(tl_desc_explain_vendor(&d, buf, sizeof buf, &need), TL_ERR_BUFFER_SMALL);
    CHECK(need > sizeof buf);
    CHECK(untouched(buf, sizeof buf));
    CHECK_STATUS(tl_desc_explain_vendor(NULL, buf, sizeof buf, &need), TL_ERR_NULL);
    CHECK_STATUS(tl_desc_explain_vendor(&d, NULL, 1, &need), TL_ERR_NULL);
    d.size_bytes = 100; /* below what the pitches span */
    CHECK_STATUS(tl_desc_explain_vendor(&d, buf, sizeof buf, &need), TL_ERR_SIZE);
    CHECK(untouched(buf, sizeof buf));
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(json_exact_text_and_size);
    TL_RUN(json_size_query_then_exact_buffer);
    TL_RUN(json_one_byte_short_writes_nothing);
    TL_RUN(json_bad_arguments);
    TL_RUN(json_vendor_members);
    TL_RUN(explain_vendor_text);
    TL_RUN(explain_vendor_empty_without_vendor);
    TL_RUN(explain_vendor_short_and_bad_arguments);
    return tl_test_finish();
}
