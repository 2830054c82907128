/* Axis larod: vectors L1-L10, the validation rules of docs/larod.md and
 * §1.3, spec strings and their round trip, export, describe/explain extras. */
#include <stddef.h>
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

#define SENTINEL 0xA5

/* ---- helpers ---------------------------------------------------------------- */

static tl_larod_tensor_dims mkdims(int n, const size_t *v)
{
    tl_larod_tensor_dims d;
    memset(&d, 0, sizeof d);
    for (int i = 0; i < n; i++) d.dims[i] = v[i];
    d.len = (size_t)n;
    return d;
}

static tl_larod_tensor_pitches mkpitches(int n, const size_t *v)
{
    tl_larod_tensor_pitches p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < n; i++) p.pitches[i] = v[i];
    p.len = (size_t)n;
    return p;
}

static int all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v) return 0;
    return 1;
}

static uint64_t offset_of(const tl_desc *d, int64_t a, int64_t b, int64_t c, int64_t e)
{
    int64_t x[4] = {a, b, c, e};
    uint64_t off = 0;
    CHECK_STATUS(tl_desc_offset(d, x, &off), TL_OK);
    return off;
}

static void check_pitches(const tl_larod_tensor_pitches *p, int n, const size_t *want)
{
    CHECK_EQ_I64(p->len, n);
    for (int i = 0; i < n; i++) CHECK_EQ_I64(p->pitches[i], want[i]);
}

/* ---- the mirrored types ----------------------------------------------------------- */

TL_TEST(mirror_values_and_layout)
{
    CHECK_EQ_I64(TL_LAROD_TENSOR_MAX_LEN, 12);
    CHECK_EQ_I64(TL_LAROD_TENSOR_LAYOUT_NHWC, 2);
    CHECK_EQ_I64(TL_LAROD_TENSOR_LAYOUT_NCHW, 3);
    CHECK_EQ_I64(TL_LAROD_TENSOR_LAYOUT_420SP, 4);
    CHECK_EQ_I64(TL_LAROD_TENSOR_LAYOUT_MAX, 5);
    CHECK_EQ_I64(TL_LAROD_TENSOR_DATA_TYPE_UINT8, 3);
    CHECK_EQ_I64(TL_LAROD_TENSOR_DATA_TYPE_FLOAT32, 12);
    CHECK_EQ_I64(TL_LAROD_TENSOR_DATA_TYPE_MAX, 14);
    CHECK_EQ_I64(sizeof(tl_larod_tensor_dims), 13 * sizeof(size_t));
    CHECK_EQ_I64(offsetof(tl_larod_tensor_pitches, len), 12 * sizeof(size_t));
    CHECK_STR_EQ(tl_larod_layout_name(TL_LAROD_TENSOR_LAYOUT_420SP), "LAROD_TENSOR_LAYOUT_420SP");
    CHECK_STR_EQ(tl_larod_layout_name((tl_larod_tensor_layout)9), "?");
    CHECK_STR_EQ(tl_larod_data_type_name(TL_LAROD_TENSOR_DATA_TYPE_FLOAT16), "LAROD_TENSOR_DATA_TYPE_FLOAT16");
    static const struct { int larod; tl_dtype dt; } map[] = {
        {2, TL_BOOL}, {3, TL_U8}, {4, TL_I8}, {5, TL_U16}, {6, TL_I16}, {7, TL_U32}, {8, TL_I32},
        {9, TL_U64}, {10, TL_I64}, {11, TL_F16}, {12, TL_F32}, {13, TL_F64},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        tl_dtype dt = TL_DT_INVALID;
        tl_larod_tensor_data_type back = TL_LAROD_TENSOR_DATA_TYPE_INVALID;
        CHECK_STATUS(tl_larod_dtype((tl_larod_tensor_data_type)map[i].larod, &dt), TL_OK);
        CHECK_EQ_I64(dt, map[i].dt);
        CHECK_STATUS(tl_larod_data_type(map[i].dt, &back), TL_OK);
        CHECK_EQ_I64(back, map[i].larod);
    }
    tl_dtype dt = TL_U8;
    tl_larod_tensor_data_type ldt = TL_LAROD_TENSOR_DATA_TYPE_UINT8;
    CHECK_STATUS(tl_larod_dtype(TL_LAROD_TENSOR_DATA_TYPE_UNSPECIFIED, &dt), TL_ERR_DTYPE);
    CHECK_STR_CONTAINS(tl_last_error(), "(larod)");
    CHECK_STATUS(tl_larod_dtype(TL_LAROD_TENSOR_DATA_TYPE_MAX, &dt), TL_ERR_DTYPE);
    CHECK_STATUS(tl_larod_data_type(TL_BF16, &ldt), TL_ERR_DTYPE);
    CHECK_STR_CONTAINS(tl_last_error(), "bf16");
    CHECK_EQ_I64(dt, TL_U8);
    CHECK_EQ_I64(ldt, TL_LAROD_TENSOR_DATA_TYPE_UINT8);
}

/* ---- L1..L8 -------------------------------------------------------------------------- */

TL_TEST(L1_L2_nchw_f32_align32)
{
    const size_t dv[4] = {1, 3, 250, 250}, al[4] = {0, 0, 0, 32}, want[4] = {768000, 768000, 256000, 1024};
    tl_larod_tensor_dims dims = mkdims(4, dv);
    tl_larod_tensor_pitches p, p2;
    REQUIRE_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_NCHW, TL_LAROD_TENSOR_DATA_TYPE_FLOAT32,
                                            &dims, al, &p), TL_OK);
    check_pitches(&p, 4, want);
    tl_desc d;
    REQUIRE_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_NCHW, TL_LAROD_TENSOR_DATA_TYPE_FLOAT32, &dims, &p),
                   TL_OK);
    CHECK_EQ_I64(d.size_bytes, 768000);
    CHECK_EQ_I64(d.pad_hi[3], 6); /* 24 bytes of row slack = 6 floats */
    CHECK(memcmp(d.labels, "NCHW", 4) == 0);
    CHECK_EQ_I64(d.vendor_params[0], 1024); /* row pitch */
    uint64_t off = offset_of(&d, 0, 2, 249, 249);
    CHECK_EQ_I64(off, 767972);               /* L2 */
    CHECK(off + 4 - 1 == 767975 && 767975 < 768000);
    CHECK_STATUS(tl_larod_pitches_from_desc(&d, &p2), TL_OK);
    check_pitches(&p2, 4, want);
    tl_desc s;
    REQUIRE_STATUS(tl_desc_parse(&s, "larod.nchw:f32:1x3x250x250:align=0,0,0,32"), TL_OK);
    CHECK(memcmp(&s, &d, sizeof d) == 0);
}

TL_TEST(L3_L4_nhwc_u8_align_32_4)
{
    const size_t dv[4] = {1, 224, 300, 3}, al[4] = {0, 0, 32, 4}, want[4] = {272384, 272384, 1216, 4};
    tl_larod_tensor_dims dims = mkdims(4, dv);
    tl_larod_tensor_pitches p;
    REQUIRE_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                            al, &p), TL_OK);
    check_pitches(&p, 4, want);
    CHECK_EQ_I64(272384, 1 * 224 * 1216);
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.nhwc:u8:1x224x300x3:align=0,0,32,4"), TL_OK);
    CHECK(memcmp(d.labels, "NHWC", 4) == 0);
    CHECK_EQ_I64(d.pad_hi[3], 1); /* the 4th byte of each pixel: channel padding */
    CHECK_EQ_I64(d.pad_hi[2], 0); /* 1216 - 1200 = 16 bytes of row slack: stride only */
    CHECK_EQ_I64(d.planes[0].axes[1].stride_bits, 1216 * 8);
    CHECK_EQ_I64(d.size_bytes, 272384);
    CHECK_EQ_I64(offset_of(&d, 0, 223, 299, 2), 272366); /* L4 */
    CHECK_EQ_I64(d.vendor_params[0], 1216);
    tl_larod_tensor_pitches e;
    CHECK_STATUS(tl_larod_pitches_from_desc(&d, &e), TL_OK);
    check_pitches(&e, 4, want);
}

TL_TEST(L5_L6_420sp_align_32_32)
{
    const size_t dv[3] = {3, 224, 300}, al[2] = {32, 32}, want[3] = {107520, 71680, 320};
    tl_larod_tensor_dims dims = mkdims(3, dv);
    tl_larod_tensor_pitches p;
    REQUIRE_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                            al, &p), TL_OK);
    check_pitches(&p, 3, want);
    tl_desc d, s;
    REQUIRE_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, &p),
                   TL_OK);
    CHECK_EQ_I64(d.nplanes, 3);
    CHECK_EQ_I64(d.size_bytes, 107520);
    CHECK_EQ_I64(d.vendor, TL_VENDOR_LAROD);
    CHECK_EQ_I64(d.vendor_format, TL_LAROD_TENSOR_LAYOUT_420SP);
    CHECK_EQ_I64(d.vendor_params[0], 320);
    CHECK_EQ_I64(d.vendor_params[1], 71680);
    CHECK_EQ_I64(offset_of(&d, 0, 223, 299, 0), 71659);   /* Y(223,299) */
    CHECK_EQ_I64(offset_of(&d, 1, 223, 299, 0), 107498);  /* Cb */
    CHECK_EQ_I64(offset_of(&d, 2, 223, 299, 0), 107499);  /* Cr */
    REQUIRE_STATUS(tl_desc_parse(&s, "larod.420sp:u8:3x224x300:align=32,32"), TL_OK);
    CHECK(memcmp(&s, &d, sizeof d) == 0);
    REQUIRE_STATUS(tl_desc_parse(&s, "larod.420sp:u8:3x224x300:pitches=107520,71680,320"), TL_OK);
    CHECK(memcmp(&s, &d, sizeof d) == 0);
    tl_larod_tensor_pitches e;
    tl_larod_tensor_layout lay = TL_LAROD_TENSOR_LAYOUT_INVALID;
    tl_larod_tensor_dims ed;
    CHECK_STATUS(tl_larod_from_desc(&d, &lay, NULL, &ed, &e), TL_OK);
    CHECK_EQ_I64(lay, TL_LAROD_TENSOR_LAYOUT_420SP);
    check_pitches(&e, 3, want);
    CHECK(ed.len == 3 && ed.dims[0] == 3 && ed.dims[1] == 224 && ed.dims[2] == 300);
}

TL_TEST(L7_nhwc_frame_row_pitch_1920)
{
    const size_t dv[4] = {1, 360, 640, 3}, pv[4] = {691200, 691200, 1920, 3};
    tl_larod_tensor_dims dims = mkdims(4, dv);
    tl_larod_tensor_pitches p = mkpitches(4, pv), dense;
    tl_desc d;
    REQUIRE_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, &p),
                   TL_OK);
    CHECK_EQ_I64(d.size_bytes, 691200);
    CHECK_EQ_I64(offset_of(&d, 0, 359, 639, 2), 691199);
    REQUIRE_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                            NULL, &dense), TL_OK);
    check_pitches(&dense, 4, pv);
    tl_desc s;
    REQUIRE_STATUS(tl_desc_parse(&s, "larod.nhwc:u8:1x360x640x3:pitches=691200,691200,1920,3"), TL_OK);
    CHECK(memcmp(&s, &d, sizeof d) == 0);
}

TL_TEST(L8_420sp_640x360_dense)
{
    const size_t dv[3] = {3, 360, 640}, want[3] = {345600, 230400, 640};
    tl_larod_tensor_dims dims = mkdims(3, dv);
    tl_larod_tensor_pitches p;
    REQUIRE_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                            NULL, &p), TL_OK);
    check_pitches(&p, 3, want);
    tl_desc d, s;
    tl_larod_tensor_pitches none;
    memset(&none, 0, sizeof none); /* len 0: not given, dense */
    REQUIRE_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims,
                                      &none), TL_OK);
    CHECK_EQ_I64(d.size_bytes, 345600);
    REQUIRE_STATUS(tl_desc_parse(&s, "larod.420sp:u8:3x360x640"), TL_OK);
    CHECK(memcmp(&s, &d, sizeof d) == 0);
}

/* ---- L9, L10 and every other bad input ------------------------------------------------ */

typedef struct bad_case {
    const char *name;
    int layout, data_type, ndims, npitches;
    size_t dims[13], pitches[13];
    tl_status want;
    const char *msg;
} bad_case;

static const bad_case bad_cases[] = {
    {"L9 length mismatch", 2, 3, 4, 3, {1, 2, 3, 3}, {18, 18, 9}, TL_ERR_VENDOR, "dims.len=4 but pitches.len=3"},
    {"L10 rule 5 innermost", 3, 12, 4, 4, {1, 1, 2, 3}, {24, 24, 12, 8}, TL_ERR_VENDOR, "pitches[3]=8 < 12"},
    {"layout INVALID", 0, 3, 4, 0, {1, 2, 3, 3}, {0}, TL_ERR_VENDOR, "layout=0 (LAROD_TENSOR_LAYOUT_INVALID)"},
    {"layout MAX", 5, 3, 4, 0, {1, 2, 3, 3}, {0}, TL_ERR_VENDOR, "layout=5"},
    {"layout 77", 77, 3, 4, 0, {1, 2, 3, 3}, {0}, TL_ERR_VENDOR, "layout=77 (?)"},
    {"data type INVALID", 2, 0, 4, 0, {1, 2, 3, 3}, {0}, TL_ERR_DTYPE, "LAROD_TENSOR_DATA_TYPE_INVALID"},
    {"data type UNSPECIFIED", 2, 1, 4, 0, {1, 2, 3, 3}, {0}, TL_ERR_DTYPE, "no element size"},
    {"data type 14", 2, 14, 4, 0, {1, 2, 3, 3}, {0}, TL_ERR_DTYPE, "data_type=14"},
    {"dims.len 13", 1, 3, 13, 0, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, {0}, TL_ERR_VENDOR, "dims.len=13 > 12"},
    {"pitches.len 13", 1, 3, 1, 13, {1}, {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, TL_ERR_VENDOR, "pitches.len=13 > 12"},
    {"dims.len 0", 2, 3, 0, 0, {0}, {0}, TL_ERR_VENDOR, "dims.len=0"},
    {"NHWC with 3 dims", 2, 3, 3, 0, {2, 3, 3}, {0}, TL_ERR_VENDOR, "dims.len=3: layout NHWC needs 4 dims"},
    {"NCHW with 5 dims", 3, 3, 5, 0, {1, 1, 2, 3, 3}, {0}, TL_ERR_VENDOR, "layout NCHW needs 4 dims"},
    {"420SP with 4 dims", 4, 3, 4, 0, {1, 3, 4, 4}, {0}, TL_ERR_VENDOR, "layout 420SP needs 3 dims"},
    {"420SP pitches.len 2", 4, 3, 3, 2, {3, 4, 4}, {24, 16}, TL_ERR_VENDOR, "dims.len=3 but pitches.len=2"},
    {"dim 0", 2, 3, 4, 0, {1, 0, 3, 3}, {0}, TL_ERR_DIM, "dims[1]=0"},
    {"420SP dims[0]=4", 4, 3, 3, 0, {4, 4, 4}, {0}, TL_ERR_VENDOR, "dims[0]=4: 420SP dims are (3, H, W)"},
    {"420SP float32", 4, 12, 3, 0, {3, 4, 4}, {0}, TL_ERR_DTYPE, "420SP samples are UINT8"},
    {"rule 5 middle", 2, 3, 4, 4, {1, 2, 3, 3}, {18, 18, 8, 3}, TL_ERR_VENDOR, "pitches[2]=8 < 9 = dims[2] 3 x pitches[3] 3"},
    {"rule 5 total", 2, 3, 4, 4, {1, 2, 3, 3}, {17, 18, 9, 3}, TL_ERR_VENDOR, "pitches[0]=17 < 18"},
    {"rule 5 zero pitch", 1, 3, 2, 2, {2, 3}, {6, 0}, TL_ERR_VENDOR, "pitches[1]=0 < 3"},
    {"rule 5 batch", 2, 12, 4, 4, {2, 1, 1, 1}, {4, 4, 4, 4}, TL_ERR_VENDOR, "pitches[0]=4 < 8 = dims[0] 2 x pitches[1] 4"},
    {"420SP row < W", 4, 3, 3, 3, {3, 4, 8}, {48, 28, 7}, TL_ERR_VENDOR, "pitches[2]=7 < 8"},
    {"420SP odd W row = W", 4, 3, 3, 3, {3, 4, 5}, {30, 20, 5}, TL_ERR_VENDOR, "pitches[2]=5 < 6"},
    {"420SP Y plane short", 4, 3, 3, 3, {3, 4, 8}, {44, 24, 8}, TL_ERR_VENDOR, "pitches[1]=24 < 32 = dims[1] 4 rows"},
    {"420SP total short", 4, 3, 3, 3, {3, 4, 8}, {47, 32, 8}, TL_ERR_VENDOR, "pitches[0]=47 < 48"},
    /* B7: the Axis example's 3*pitches[1]/2 for an odd height */
    {"420SP odd height 3/2", 4, 3, 3, 3, {3, 361, 640}, {346560, 231040, 640}, TL_ERR_VENDOR,
     "pitches[0]=346560 < 346880 = pitches[1] 231040 + ceil(361/2)=181 CbCr rows x pitches[2] 640"},
};

TL_TEST(bad_metadata_table)
{
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        tl_larod_tensor_dims dims;
        tl_larod_tensor_pitches p;
        memset(&dims, 0, sizeof dims);
        memset(&p, 0, sizeof p);
        for (int k = 0; k < c->ndims; k++) if (k < 12) dims.dims[k] = c->dims[k];
        for (int k = 0; k < c->npitches; k++) if (k < 12) p.pitches[k] = c->pitches[k];
        dims.len = (size_t)c->ndims;
        p.len = (size_t)c->npitches;
        tl_desc d;
        memset(&d, SENTINEL, sizeof d);
        tl_status s = tl_larod_desc_init(&d, (tl_larod_tensor_layout)c->layout,
                                         (tl_larod_tensor_data_type)c->data_type, &dims, &p);
        if (s != c->want || !strstr(tl_last_error(), c->msg) || !strstr(tl_last_error(), "(larod)"))
            FAILF("%s: got %s \"%s\", want %s containing \"%s\" and \"(larod)\"", c->name, tl_status_str(s),
                  tl_last_error(), tl_status_str(c->want), c->msg);
        if (!all_bytes(&d, sizeof d, SENTINEL)) FAILF("%s: the descriptor was written", c->name);
        CHECK_STATUS(tl_larod_validate((tl_larod_tensor_layout)c->layout, (tl_larod_tensor_data_type)c->data_type,
                                       &dims, &p), c->want);
        if (c->npitches != 0) continue; /* the pitches are the problem: computing them is fine */
        tl_larod_tensor_pitches out;
        memset(&out, SENTINEL, sizeof out);
        s = tl_larod_pitches_compute((tl_larod_tensor_layout)c->layout, (tl_larod_tensor_data_type)c->data_type,
                                     &dims, NULL, &out);
        if (s != c->want || !strstr(tl_last_error(), c->msg))
            FAILF("%s: pitches_compute got %s \"%s\"", c->name, tl_status_str(s), tl_last_error());
        if (!all_bytes(&out, sizeof out, SENTINEL)) FAILF("%s: pitches_compute wrote its output", c->name);
    }
}

TL_TEST(odd_height_420sp_right_size_accepted)
{
    /* The §1.3 formula for the §1.6 case is accepted, and pitches_compute gives it. */
    const size_t dv[3] = {3, 361, 640}, pv[3] = {346880, 231040, 640};
    tl_larod_tensor_dims dims = mkdims(3, dv);
    tl_larod_tensor_pitches p = mkpitches(3, pv), c;
    tl_desc d;
    CHECK_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, &p),
                 TL_OK);
    CHECK_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, NULL,
                                          &c), TL_OK);
    check_pitches(&c, 3, pv);
    /* 420SP given as UNSPECIFIED data type: bytes all the same */
    CHECK_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UNSPECIFIED, &dims,
                                    &p), TL_OK);
    CHECK_EQ_I64(d.dtype, TL_U8);
    /* odd width: the CbCr row needs W+1 bytes, the dense row pitch is even */
    const size_t ov[3] = {3, 5, 7}, ow[3] = {40 + 3 * 8, 40, 8};
    dims = mkdims(3, ov);
    CHECK_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_420SP, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, NULL,
                                          &c), TL_OK);
    check_pitches(&c, 3, ow);
}

TL_TEST(overflow_and_null)
{
    const size_t big[4] = {(size_t)1 << 31, (size_t)1 << 31, (size_t)1 << 31, 4};
    tl_larod_tensor_dims dims = mkdims(4, big);
    tl_larod_tensor_pitches p;
    memset(&p, SENTINEL, sizeof p);
    tl_status s = tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_FLOAT64, &dims,
                                           NULL, &p);
    if (sizeof(size_t) >= 8) {
        CHECK_EQ_I64(s, TL_ERR_OVERFLOW);
        CHECK_STR_CONTAINS(tl_last_error(), "(larod)");
    } else {
        CHECK(s != TL_OK);
    }
    CHECK(all_bytes(&p, sizeof p, SENTINEL));
    if (sizeof(size_t) >= 8) {
        const size_t huge[2] = {(size_t)-1, 1};
        dims = mkdims(2, huge);
        tl_desc h;
        CHECK_STATUS(tl_larod_desc_init(&h, TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED, TL_LAROD_TENSOR_DATA_TYPE_UINT8,
                                        &dims, NULL), TL_ERR_OVERFLOW);
        CHECK_STR_CONTAINS(tl_last_error(), "dims[0]=");
    }
    /* 4 GiB of pitches[0]: fine in int64, not in a 32-bit size_t */
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.unspecified:u8:65536x65536"), TL_OK);
    memset(&p, SENTINEL, sizeof p);
    s = tl_larod_pitches_from_desc(&d, &p);
    if (sizeof(size_t) >= 8) {
        CHECK_EQ_I64(s, TL_OK);
        CHECK_EQ_I64(p.pitches[0], (int64_t)1 << 32);
    } else {
        CHECK_EQ_I64(s, TL_ERR_OVERFLOW);
        CHECK_STR_CONTAINS(tl_last_error(), "does not fit this platform's size_t (larod)");
        CHECK(all_bytes(&p, sizeof p, SENTINEL));
    }
    CHECK_STATUS(tl_larod_desc_init(&d, TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, NULL, NULL),
                 TL_ERR_NULL);
    CHECK_STATUS(tl_larod_pitches_compute(TL_LAROD_TENSOR_LAYOUT_NHWC, TL_LAROD_TENSOR_DATA_TYPE_UINT8, &dims, NULL,
                                          NULL), TL_ERR_NULL);
    CHECK_STATUS(tl_larod_pitches_from_desc(&d, NULL), TL_ERR_NULL);
}

/* ---- rules 5 and 6 over random metadata: offsets against the formula ----------------- */

static const tl_larod_tensor_data_type rand_types[] = {
    TL_LAROD_TENSOR_DATA_TYPE_UINT8, TL_LAROD_TENSOR_DATA_TYPE_INT16, TL_LAROD_TENSOR_DATA_TYPE_FLOAT32,
    TL_LAROD_TENSOR_DATA_TYPE_FLOAT64, TL_LAROD_TENSOR_DATA_TYPE_BOOL, TL_LAROD_TENSOR_DATA_TYPE_FLOAT16,
};
static const size_t rand_es[] = {1, 2, 4, 8, 1, 2};

/* Random dims and pitches with random slack (whole elements or not). */
static void random_metadata(tl_rng *r, int *layout, int *ti, tl_larod_tensor_dims *dims,
                            tl_larod_tensor_pitches *p)
{
    *layout = 1 + tl_rng_pick(r, 3); /* UNSPECIFIED, NHWC, NCHW */
    *ti = tl_rng_pick(r, 6);
    int n = *layout == TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED ? (int)tl_rng_range(r, 1, 6) : 4;
    memset(dims, 0, sizeof *dims);
    memset(p, 0, sizeof *p);
    dims->len = p->len = (size_t)n;
    size_t slab = rand_es[*ti];
    for (int i = n - 1; i >= 0; i--) {
        dims->dims[i] = (size_t)tl_rng_range(r, 1, 6);
        slab = dims->dims[i] * slab + (tl_rng_pick(r, 3) == 0 ? (size_t)tl_rng_range(r, 0, 9) : 0);
        p->pitches[i] = slab;
    }
}

TL_TEST(random_offsets_follow_the_pitch_formula)
{
    tl_rng r = tl_test_rng();
    for (int iter = 0; iter < 400 && TL_TEST_FAILURES() == 0; iter++) {
        int layout, ti;
        tl_larod_tensor_dims dims;
        tl_larod_tensor_pitches p, back;
        random_metadata(&r, &layout, &ti, &dims, &p);
        tl_desc d;
        REQUIRE_STATUS(tl_larod_desc_init(&d, (tl_larod_tensor_layout)layout, rand_types[ti], &dims, &p), TL_OK);
        CHECK_EQ_I64(d.size_bytes, p.pitches[0]);
        int n = (int)dims.len;
        for (int k = 0; k < 20; k++) {
            int64_t x[12];
            uint64_t want = 0, got = 0;
            for (int i = 0; i < n; i++) {
                x[i] = k == 0 ? (int64_t)dims.dims[i] - 1 : tl_rng_range(&r, 0, (int64_t)dims.dims[i] - 1);
                want += (uint64_t)x[i] * (i < n - 1 ? p.pitches[i + 1] : rand_es[ti]);
            }
            CHECK_STATUS(tl_desc_offset(&d, x, &got), TL_OK);
            if (got != want) FAILF("iter %d: offset %llu, formula %llu", iter, (unsigned long long)got,
                                   (unsigned long long)want);
            if (want + rand_es[ti] > p.pitches[0]) FAILF("iter %d: rule 6 broken", iter); /* follows from rule 5 */
        }
        CHECK_STATUS(tl_larod_pitches_from_desc(&d, &back), TL_OK);
        CHECK(memcmp(&back, &p, sizeof p) == 0);
        char spec[512];
        tl_desc again;
        CHECK_STATUS(tl_desc_format(&d, spec, sizeof spec), TL_OK);
        CHECK_STATUS(tl_desc_parse(&again, spec), TL_OK);
        if (memcmp(&again, &d, sizeof d) != 0) FAILF("iter %d: %s does not round-trip", iter, spec);
    }
}

/* ---- rule 7: byte-granular pitches describe, but do not convert ---------------------- */

TL_TEST(rule7_byte_granular_pitch)
{
    tl_desc d, dst;
    /* NHWC u16, C=3: 6 bytes per pixel, pitches[3]=7 leaves one byte of slack */
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.nhwc:u16:1x2x3x3:pitches=42,42,21,7"), TL_OK);
    CHECK_EQ_I64(d.pad_hi[3], 0); /* not whole elements: no padding, only stride */
    CHECK_EQ_I64(d.planes[0].axes[2].stride_bits, 56);
    CHECK_EQ_I64(offset_of(&d, 0, 1, 2, 1), 21 + 14 + 2);
    REQUIRE_STATUS(tl_desc_parse(&dst, "NHWC:u16:1x2x3x3"), TL_OK);
    unsigned char src[42] = {0}, out[36];
    memset(out, SENTINEL, sizeof out);
    CHECK_STATUS(tl_convert(&d, src, sizeof src, &dst, out, sizeof out), TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "element-aligned");
    CHECK(all_bytes(out, sizeof out, SENTINEL));
    /* as a destination too */
    memset(src, SENTINEL, sizeof src);
    CHECK_STATUS(tl_convert(&dst, out, sizeof out, &d, src, sizeof src), TL_ERR_UNSUPPORTED);
    CHECK(all_bytes(src, sizeof src, SENTINEL));
    /* a whole-element slack instead becomes zero-filled padding */
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.nhwc:u16:1x2x3x3:pitches=48,48,24,8"), TL_OK);
    CHECK_EQ_I64(d.pad_hi[3], 1);
}

/* ---- spec strings ---------------------------------------------------------------------- */

static const char *const good_specs[] = {
    "larod.nhwc:u8:1x224x300x3:align=0,0,32,4",
    "larod.nchw:f32:1x3x250x250:align=0,0,0,32",
    "larod.nhwc:u8:1x360x640x3",
    "larod.nhwc:i8:2x5x7x3:align=64,16,8,4:zp=-3:scale=0.25",
    "larod.nhwc:u8:1x4x5x3:q=affine:scale=0.5:zp=128",
    "larod.nchw:f16:1x3x5x7:pitches=1000,300,100,16",
    "larod.nhwc:u16:1x2x3x3:pitches=42,42,21,7",
    "larod.nhwc:bool:1x2x2x1",
    "larod.nchw:f64:3x1x1x1",
    "larod.unspecified:f32:7",
    "larod.unspecified:i32:2x3x4x5x6:align=0,0,64,0,0",
    "larod.unspecified:u8:1x1x1x1x1x1x1x1x1x1x1x2",
    "larod.420sp:u8:3x224x300:align=32,32",
    "larod.420sp:u8:3x361x640",
    "larod.420sp:u8:3x5x7",
    "larod.420sp:u8:3x5x7:pitches=300,200,33",
    "larod.420sp:u8:3x1x1",
};

TL_TEST(spec_round_trip)
{
    for (size_t i = 0; i < sizeof good_specs / sizeof good_specs[0]; i++) {
        tl_desc a, b;
        char buf[512], buf2[512];
        tl_status s = tl_desc_parse(&a, good_specs[i]);
        if (s != TL_OK) {
            FAILF("%s: %s %s", good_specs[i], tl_status_str(s), tl_last_error());
            continue;
        }
        CHECK_EQ_I64(a.vendor, TL_VENDOR_LAROD);
        CHECK_STATUS(tl_desc_format(&a, buf, sizeof buf), TL_OK);
        CHECK_STATUS(tl_desc_parse(&b, buf), TL_OK);
        if (memcmp(&a, &b, sizeof a) != 0) FAILF("%s -> %s: not identical", good_specs[i], buf);
        CHECK_STATUS(tl_desc_format(&b, buf2, sizeof buf2), TL_OK);
        CHECK_STR_EQ(buf2, buf);
    }
}

TL_TEST(spec_canonical_form)
{
    static const char *const pairs[][2] = {
        {"larod.nhwc:u8:1x224x300x3:align=0,0,32,4", "larod.nhwc:u8:1x224x300x3:pitches=272384,272384,1216,4"},
        {"larod.nhwc:u8:1x360x640x3:pitches=691200,691200,1920,3", "larod.nhwc:u8:1x360x640x3"},
        {"larod.420sp:u8:3x224x300:align=32,32", "larod.420sp:u8:3x224x300:pitches=107520,71680,320"},
        {"larod.420sp:u8:3x360x640:align=0,0", "larod.420sp:u8:3x360x640"},
        {"larod.nchw:u8:1x3x2x2:align=1,1,1,1:zp=5:scale=2", "larod.nchw:u8:1x3x2x2:q=affine:scale=2:zp=5"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        tl_desc d;
        char buf[256];
        REQUIRE_STATUS(tl_desc_parse(&d, pairs[i][0]), TL_OK);
        CHECK_STATUS(tl_desc_format(&d, buf, sizeof buf), TL_OK);
        CHECK_STR_EQ(buf, pairs[i][1]);
    }
}

static const struct {
    const char *spec;
    tl_status want;
    const char *msg;
} bad_specs[] = {
    {"larod.nhcw:u8:1x2x3x4", TL_ERR_SPEC_LAYOUT, "expected larod.nhwc, larod.nchw, larod.420sp"},
    {"larod:u8:1x2x3x4", TL_ERR_SPEC_LAYOUT, "layout larod:"},
    {"larod.nhwc:bf16:1x2x3x4", TL_ERR_DTYPE, "dtype bf16: larod has no such data type"},
    {"larod.nhwc:u4:1x2x3x4", TL_ERR_DTYPE, "(larod)"},
    {"larod.nhwc:u8:2x3x4", TL_ERR_VENDOR, "dims.len=3: layout NHWC needs 4 dims (N, H, W, C)"},
    {"larod.unspecified:u8:1x1x1x1x1x1x1x1x1x1x1x1x1", TL_ERR_VENDOR, "dims.len=13 > 12"},
    {"larod.nhwc:u8:1x2x3x4:align=0,0,4", TL_ERR_SPEC_VALUE, "align=0,0,4: larod.nhwc takes 4 values"},
    {"larod.420sp:u8:3x4x4:align=32", TL_ERR_SPEC_VALUE, "row alignment, Y-plane alignment"},
    {"larod.nhwc:u8:1x2x3x4:align=0,0,-4,0", TL_ERR_SPEC_VALUE, "align[2]=-4: must be >= 0"},
    {"larod.nhwc:u8:1x2x3x4:pitches=24,24,12", TL_ERR_VENDOR, "dims.len=4 but pitches.len=3"},
    {"larod.nhwc:u8:1x2x3x4:pitches=24,24,12,-4", TL_ERR_SPEC_VALUE, "pitches[3]=-4"},
    {"larod.nhwc:u8:1x2x3x4:pitches=24,24,12,4:align=0,0,0,0", TL_ERR_SPEC_OPTION, "exclude each other"},
    {"larod.nchw:f32:1x1x2x3:pitches=24,24,12,8", TL_ERR_VENDOR, "pitches[3]=8 < 12"},
    {"larod.420sp:u8:3x361x640:pitches=346560,231040,640", TL_ERR_VENDOR, "3*pitches[1]/2"},
    {"larod.420sp:u8:2x4x4", TL_ERR_VENDOR, "dims[0]=2"},
    {"larod.420sp:i8:3x4x4", TL_ERR_DTYPE, "420SP samples are UINT8"},
    {"larod.nhwc:u8:1x2x3x4:size=100", TL_ERR_SPEC_OPTION, "size"},
};

TL_TEST(spec_errors)
{
    for (size_t i = 0; i < sizeof bad_specs / sizeof bad_specs[0]; i++) {
        tl_desc d;
        memset(&d, SENTINEL, sizeof d);
        tl_status s = tl_desc_parse(&d, bad_specs[i].spec);
        if (s != bad_specs[i].want || !strstr(tl_last_error(), bad_specs[i].msg))
            FAILF("%s: got %s \"%s\", want %s containing \"%s\"", bad_specs[i].spec, tl_status_str(s),
                  tl_last_error(), tl_status_str(bad_specs[i].want), bad_specs[i].msg);
        if (!all_bytes(&d, sizeof d, SENTINEL)) FAILF("%s: the descriptor was written", bad_specs[i].spec);
    }
}

/* ---- export of descriptors that did not come from larod ------------------------------ */

TL_TEST(export_generic_descriptors)
{
    tl_desc d;
    tl_larod_tensor_pitches p;
    tl_larod_tensor_layout lay;
    tl_larod_tensor_data_type dt;
    tl_larod_tensor_dims dims;
    REQUIRE_STATUS(tl_desc_parse(&d, "NHWC:u8:1x4x5x3"), TL_OK);
    CHECK_STATUS(tl_larod_from_desc(&d, &lay, &dt, &dims, &p), TL_OK);
    CHECK_EQ_I64(lay, TL_LAROD_TENSOR_LAYOUT_NHWC);
    CHECK_EQ_I64(dt, TL_LAROD_TENSOR_DATA_TYPE_UINT8);
    const size_t w1[4] = {60, 60, 15, 3};
    check_pitches(&p, 4, w1);
    CHECK(dims.len == 4 && dims.dims[1] == 4 && dims.dims[3] == 3);
    /* padding after W and C, as in larod Example 2 */
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x4x5:pad=0,0,0,0,0,0,0,3"), TL_OK);
    CHECK_STATUS(tl_larod_from_desc(&d, &lay, NULL, NULL, &p), TL_OK);
    CHECK_EQ_I64(lay, TL_LAROD_TENSOR_LAYOUT_NCHW);
    const size_t w2[4] = {384, 384, 128, 32};
    check_pitches(&p, 4, w2);
    REQUIRE_STATUS(tl_desc_parse(&d, "CHW:u8:3x4x5"), TL_OK);
    CHECK_STATUS(tl_larod_from_desc(&d, &lay, NULL, NULL, &p), TL_OK);
    CHECK_EQ_I64(lay, TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED);
    REQUIRE_STATUS(tl_desc_parse(&d, "yuv.nv12:u8:3x224x300"), TL_OK);
    CHECK_STATUS(tl_larod_from_desc(&d, &lay, NULL, NULL, &p), TL_OK);
    CHECK_EQ_I64(lay, TL_LAROD_TENSOR_LAYOUT_420SP);
    const size_t w3[3] = {100800, 67200, 300};
    check_pitches(&p, 3, w3);
}

static const struct {
    const char *spec;
    tl_status want;
    const char *msg;
} unexportable[] = {
    {"NCHW16c:f32:1x20x2x3", TL_ERR_VENDOR_EXPORT, "dim 1 is split over several axes (blocked layout, 5 axes"},
    {"NHWC:u8:1x4x5x3:pad=0,1,0,0,0,0,0,0", TL_ERR_VENDOR_EXPORT, "pad_lo[1]=1"},
    {"NCHW:f32:2x3x4x5:strides=5,10,30,1", TL_ERR_VENDOR_EXPORT, "not row-major in dims order: pitches[2]=40 < 480"},
    {"NHWC:u8:1x2x3x4:offset=16", TL_ERR_VENDOR_EXPORT, "planes[0].offset=16"},
    {"NCHW:u8:1x3x4x5:strides=120,40,10,2", TL_ERR_VENDOR_EXPORT, "stride of 16 bits"},
    {"NCHW:f32:1x3x4x5:strides=0,0,5,1", TL_ERR_VENDOR_EXPORT, "not row-major"},
    {"NCHW:bf16:1x3x4x5", TL_ERR_VENDOR_EXPORT, "dtype bf16"},
    {"HWC:u4:2x3x4", TL_ERR_VENDOR_EXPORT, "dtype u4"},
    {"yuv.i420:u8:3x4x6", TL_ERR_VENDOR_EXPORT, "not NV12"},
    {"yuv.nv21:u8:3x4x6", TL_ERR_VENDOR_EXPORT, "not NV12"},
    {"yuv.nv12:u8:3x4x6:pitch=8", TL_ERR_VENDOR_EXPORT, "CbCr row"},
};

TL_TEST(export_refusals)
{
    for (size_t i = 0; i < sizeof unexportable / sizeof unexportable[0]; i++) {
        tl_desc d;
        tl_status s = tl_desc_parse(&d, unexportable[i].spec);
        if (s != TL_OK) {
            FAILF("%s: %s %s", unexportable[i].spec, tl_status_str(s), tl_last_error());
            continue;
        }
        tl_larod_tensor_pitches p;
        tl_larod_tensor_layout lay = (tl_larod_tensor_layout)SENTINEL;
        memset(&p, SENTINEL, sizeof p);
        s = tl_larod_from_desc(&d, &lay, NULL, NULL, &p);
        if (s != unexportable[i].want || !strstr(tl_last_error(), unexportable[i].msg) ||
            !strstr(tl_last_error(), "(larod)"))
            FAILF("%s: got %s \"%s\", want %s containing \"%s\"", unexportable[i].spec, tl_status_str(s),
                  tl_last_error(), tl_status_str(unexportable[i].want), unexportable[i].msg);
        if (!all_bytes(&p, sizeof p, SENTINEL) || lay != (tl_larod_tensor_layout)SENTINEL)
            FAILF("%s: an output was written", unexportable[i].spec);
    }
}

/* ---- rule 8: fd capacity ---------------------------------------------------------------- */

TL_TEST(rule8_fd_size)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "larod.420sp:u8:3x224x300:align=32,32"), TL_OK);
    CHECK_STATUS(tl_larod_check_fd_size(&d, 0, 0), TL_OK);          /* 0: unchecked */
    CHECK_STATUS(tl_larod_check_fd_size(&d, 4096, 4096 + 107520), TL_OK);
    CHECK_STATUS(tl_larod_check_fd_size(&d, 4096, 4096 + 107519), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "fd size=111615 < 111616 = fd offset 4096 + pitches[0] 107520");
    CHECK_STR_CONTAINS(tl_last_error(), "(larod)");
    CHECK_STATUS(tl_larod_check_fd_size(&d, UINT64_MAX, 1), TL_ERR_OVERFLOW);
}

/* ---- describe --json and explain extras --------------------------------------------------- */

static void run_ops(const char *spec, int json, char *buf, size_t len)
{
    tl_desc d;
    tl_strbuf sb = {buf, len, 0};
    buf[0] = '\0';
    if (tl_desc_parse(&d, spec) != TL_OK) {
        FAILF("%s: %s", spec, tl_last_error());
        return;
    }
    if (json) {
        tl_desc_json(&d, &sb);
    } else {
        const tl_vendor_ops *ops = tl_vendor_find(TL_VENDOR_LAROD);
        REQUIRE(ops && ops->explain);
        ops->explain(&d, &sb);
    }
    CHECK(sb.len < len);
}

TL_TEST(json_and_explain)
{
    static char buf[8192];
    run_ops("larod.nhwc:u8:1x224x300x3:align=0,0,32,4", 1, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"larod_pitches\": [272384, 272384, 1216, 4]");
    CHECK_STR_CONTAINS(buf, "\"larod_layout\": \"LAROD_TENSOR_LAYOUT_NHWC\"");
    CHECK_STR_CONTAINS(buf, "\"larod_data_type\": \"LAROD_TENSOR_DATA_TYPE_UINT8\"");
    CHECK_STR_CONTAINS(buf, "\"larod_dims\": [1, 224, 300, 3]");
    CHECK_STR_CONTAINS(buf, "\"vendor\": \"larod\"");
    run_ops("larod.420sp:u8:3x224x300:align=32,32", 1, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "\"larod_pitches\": [107520, 71680, 320]");
    CHECK_STR_CONTAINS(buf, "\"larod_layout\": \"LAROD_TENSOR_LAYOUT_420SP\"");
    run_ops("larod.nhwc:u8:1x224x300x3:align=0,0,32,4", 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "Row pitch pitches[2] = 1216 bytes per row = 300 pixels x 4 bytes, rounded up to a multiple of 32 "
                            "(16 bytes of padding, not written by conversions).");
    CHECK_STR_CONTAINS(buf, "pitches[3] = 4 bytes per pixel = 3 channels x 1 byte, rounded up to a multiple of 4 "
                            "(1 byte of padding, 1 channel, zero-filled by conversions).");
    CHECK_STR_CONTAINS(buf, "Byte offset of (n, h, w, c) = n*272384 + h*1216 + w*4 + c*1.");
    run_ops("larod.nchw:f32:1x3x250x250:align=0,0,0,32", 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "Row pitch pitches[3] = 1024 bytes per row = 250 pixels x 4 bytes, rounded up to a multiple of 32");
    CHECK_STR_CONTAINS(buf, "pitches[2] = 256000 bytes per plane = 250 rows x 1024 bytes.");
    run_ops("larod.420sp:u8:3x361x640", 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "pitches[0] = 346880 bytes = 231040 + ceil(361/2) = 181 CbCr rows x 640 bytes.");
    CHECK_STR_CONTAINS(buf, "would give 346560 bytes, 320 short");
    run_ops("larod.nhwc:u16:1x2x3x3:pitches=42,42,21,7", 0, buf, sizeof buf);
    CHECK_STR_CONTAINS(buf, "not a multiple of the 2-byte element");
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(mirror_values_and_layout);
    TL_RUN(L1_L2_nchw_f32_align32);
    TL_RUN(L3_L4_nhwc_u8_align_32_4);
    TL_RUN(L5_L6_420sp_align_32_32);
    TL_RUN(L7_nhwc_frame_row_pitch_1920);
    TL_RUN(L8_420sp_640x360_dense);
    TL_RUN(bad_metadata_table);
    TL_RUN(odd_height_420sp_right_size_accepted);
    TL_RUN(overflow_and_null);
    TL_RUN(random_offsets_follow_the_pitch_formula);
    TL_RUN(rule7_byte_granular_pitch);
    TL_RUN(spec_round_trip);
    TL_RUN(spec_canonical_form);
    TL_RUN(spec_errors);
    TL_RUN(export_generic_descriptors);
    TL_RUN(export_refusals);
    TL_RUN(rule8_fd_size);
    TL_RUN(json_and_explain);
    return tl_test_finish();
}
