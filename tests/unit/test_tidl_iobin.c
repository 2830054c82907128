/* TIDL io_1.bin (sTIDL_IOBufDesc_t): sizes and offsets of itidl_ti.h / itidl_io.h,
 * vectors T8-T10, the §2.3 sanity checks, the writer, and write -> parse
 * round trips for every variant. Images are made by the writer here; no
 * binary is committed. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "tl_test.h"

static const int variants[7][2] = {{2, 1}, {3, 1}, {3, 2}, {3, 4}, {4, 1}, {4, 2}, {4, 4}};
static const int64_t variant_sizes[7] = {37256, 93976, 187928, 375832, 94616, 189208, 378392};

static uint8_t image[TL_TIDL_IO_MAX_BYTES + 64], image2[TL_TIDL_IO_MAX_BYTES + 64];

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static size_t off_of(int version, int cores, const char *field, int index)
{
    size_t off = 0;
    if (tl_tidl_io_field_offset(version, cores, field, index, &off) != TL_OK) {
        FAILF("offset of %s[%d] in V%d/%d: %s", field, index, version, cores, tl_last_error());
        return 0;
    }
    return off;
}

static tl_tidl_buf buf_of(int32_t et, int32_t c, int32_t h, int32_t w, const char *name)
{
    tl_tidl_buf b;
    memset(&b, 0, sizeof b);
    b.element_type = et;
    b.num_channels = c;
    b.height = h;
    b.width = w;
    b.num_batches = 1;
    b.tensor_scale = 1.0f;
    snprintf(b.name, sizeof b.name, "%s", name);
    return b;
}

/* ---- §2.2: sizes and offsets ------------------------------------------- */

TL_TEST(variant_sizes)
{
    for (int k = 0; k < 7; k++) {
        size_t n = 0;
        REQUIRE_STATUS(tl_tidl_io_size(variants[k][0], variants[k][1], &n), TL_OK);
        CHECK_EQ_I64(n, variant_sizes[k]);
        tl_tidl_io io;
        REQUIRE_STATUS(tl_tidl_io_init(&io, variants[k][0], variants[k][1]), TL_OK);
        CHECK_EQ_I64(io.size_bytes, variant_sizes[k]);
        CHECK_EQ_I64(io.max_inputs, 32 * variants[k][1]);
        CHECK_EQ_I64(io.max_outputs, variants[k][0] == 2 ? 32 : 128 * variants[k][1]);
    }
    /* itidl_ti.h: a V4 core-unit is 32*604 + 128*588 = 94592 bytes plus a 24-byte header */
    CHECK_EQ_I64(variant_sizes[4] - 24, 32 * 604 + 128 * 588);
    size_t n = 7;
    CHECK_STATUS(tl_tidl_io_size(1, 1, &n), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "version=1");
    CHECK_STATUS(tl_tidl_io_size(2, 2, &n), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "cores=2: sTIDL_IOBufDesc_t V2 is sized for 1 core");
    CHECK_STATUS(tl_tidl_io_size(4, 3, &n), TL_ERR_VENDOR);
    CHECK_STATUS(tl_tidl_io_size(5, 1, &n), TL_ERR_VENDOR);
    CHECK_EQ_I64(n, 7);
    CHECK_STATUS(tl_tidl_io_size(4, 1, NULL), TL_ERR_NULL);
}

TL_TEST(key_offsets_v2)
{
    CHECK_EQ_I64(off_of(2, 1, "inWidth", 0), 520);
    CHECK_EQ_I64(off_of(2, 1, "inChannelPitch", 0), 904);
    CHECK_EQ_I64(off_of(2, 1, "inTensorScale", 0), 2440);
    CHECK_EQ_I64(off_of(2, 1, "inDataName", 0), 2568);
    CHECK_EQ_I64(off_of(2, 1, "outWidth", 0), 18952);
    CHECK_EQ_I64(off_of(2, 1, "outChannelPitch", 0), 19336);
    CHECK_EQ_I64(off_of(2, 1, "outTensorScale", 0), 36872);
    CHECK_EQ_I64(off_of(2, 1, "numOutputBuf", 0), 4);
    CHECK_EQ_I64(off_of(2, 1, "inDataName", 1), 2568 + 512);
    CHECK_EQ_I64(off_of(2, 1, "outLayout", 31), 37256 - 4);
}

TL_TEST(key_offsets_v4)
{
    CHECK_EQ_I64(off_of(4, 1, "inWidth", 0), 536);
    CHECK_EQ_I64(off_of(4, 1, "inChannelPitch", 0), 1176);
    CHECK_EQ_I64(off_of(4, 1, "inTensorScale", 0), 2712);
    CHECK_EQ_I64(off_of(4, 1, "inDataName", 0), 2840);
    CHECK_EQ_I64(off_of(4, 1, "outWidth", 0), 19352);
    CHECK_EQ_I64(off_of(4, 1, "outChannelPitch", 0), 21912);
    CHECK_EQ_I64(off_of(4, 1, "outTensorScale", 0), 92056);
    CHECK_EQ_I64(off_of(4, 1, "numCores", 0), 8);
    CHECK_EQ_I64(off_of(4, 1, "inferenceMode", 0), 20);
    CHECK_EQ_I64(off_of(4, 1, "inBufSize", 0), 2840 + 32 * 512);
    CHECK_EQ_I64(off_of(4, 1, "numValidTensorDims", 127), 94616 - 4);
    /* V3 = V4 without BufSize: the same up to inDataName */
    CHECK_EQ_I64(off_of(3, 1, "inDataName", 0), 2840);
    CHECK_EQ_I64(off_of(3, 1, "outWidth", 0), 2840 + 32 * 512);
    CHECK_EQ_I64(off_of(3, 4, "numValidTensorDims", 511), 375832 - 4);
    CHECK_EQ_I64(off_of(4, 4, "inWidth", 0), 24 + 4 * 128 * 4);
}

TL_TEST(field_offset_errors)
{
    size_t off = 99;
    CHECK_STATUS(tl_tidl_io_field_offset(3, 1, "inBufSize", 0, &off), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "inBufSize: sTIDL_IOBufDesc_t V3 has no such field (from V4 on)");
    CHECK_STATUS(tl_tidl_io_field_offset(2, 1, "inDIM1", 0, &off), TL_ERR_VENDOR);
    CHECK_STATUS(tl_tidl_io_field_offset(4, 1, "inWidht", 0, &off), TL_ERR_VENDOR);
    CHECK_STR_CONTAINS(tl_last_error(), "'inWidht' is not a field");
    CHECK_STATUS(tl_tidl_io_field_offset(4, 1, "inWidth", 32, &off), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "inWidth[32]: index must be 0..31");
    CHECK_STATUS(tl_tidl_io_field_offset(4, 1, "numCores", 1, &off), TL_ERR_COORD);
    CHECK_STATUS(tl_tidl_io_field_offset(4, 1, "outWidth", -1, &off), TL_ERR_COORD);
    CHECK_STATUS(tl_tidl_io_field_offset(4, 1, NULL, 0, &off), TL_ERR_NULL);
    CHECK_EQ_I64(off, 99);
}

/* ---- T8, T9: bytes where §2.2 says ------------------------------------- */

TL_TEST(t8_v4_one_core)
{
    tl_tidl_io io, got;
    tl_tidl_buf in = buf_of(TL_TIDL_UNSIGNED_CHAR, 3, 224, 0x01020304, "images");
    in.dim1 = in.dim2 = 1;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 4, 1), TL_OK);
    io.num_input_buf = 1;
    REQUIRE_STATUS(tl_tidl_io_write(&io, &in, NULL, image, sizeof image), TL_OK);
    CHECK_EQ_I64(le32(image + 536), 0x01020304); /* inWidth[0], little-endian */
    CHECK_EQ_I64(image[536], 0x04);
    CHECK_STR_EQ((const char *)image + 2840, "images"); /* inDataName[0] */
    CHECK_EQ_I64(le32(image + 0), 1);                    /* numInputBuf */
    REQUIRE_STATUS(tl_tidl_io_parse(image, 94616, &got), TL_OK);
    CHECK_EQ_I64(got.version, 4);
    CHECK_EQ_I64(got.max_cores, 1);
    CHECK_EQ_I64(got.num_input_buf, 1);
}

TL_TEST(t9_v2)
{
    tl_tidl_io io, got;
    tl_tidl_buf in = buf_of(TL_TIDL_UNSIGNED_CHAR, 3, 4, 10, "in");
    tl_tidl_buf out = buf_of(TL_TIDL_SIGNED_SHORT, 3, 4, 10, "out");
    out.tensor_scale = 25.0f;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 2, 1), TL_OK);
    io.num_input_buf = 1;
    io.num_output_buf = 1;
    REQUIRE_STATUS(tl_tidl_io_write(&io, &in, &out, image, sizeof image), TL_OK);
    CHECK_EQ_I64(le32(image + 520), 10);          /* inWidth[0] */
    CHECK_EQ_I64(le32(image + 36872), 0x41c80000); /* outTensorScale[0] = 25.0f */
    REQUIRE_STATUS(tl_tidl_io_parse(image, 37256, &got), TL_OK);
    CHECK_EQ_I64(got.version, 2);
    CHECK_EQ_I64(got.max_cores, 1);
    tl_tidl_buf b;
    REQUIRE_STATUS(tl_tidl_io_get(image, 37256, &got, 1, 0, &b), TL_OK);
    CHECK_NEAR(b.tensor_scale, 25.0, 0.0);
    CHECK_EQ_I64(b.dim1, 1); /* V2 has no DIM1/DIM2 */
    CHECK_EQ_I64(b.dim2, 1);
    CHECK_STR_EQ(b.name, "out");
    CHECK_EQ_I64(b.is_output, 1);
    CHECK_EQ_I64(b.index, 0);
}

/* T10: the 4-core V4 image against a reader built for 1 core. */
TL_TEST(t10_size_mismatch)
{
    tl_tidl_io io, got;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 4, 4), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_write(&io, NULL, NULL, image, sizeof image), TL_OK);
    memset(&got, 0x5A, sizeof got);
    tl_tidl_io sentinel = got;
    CHECK_STATUS(tl_tidl_io_parse_as(image, 378392, 4, 1, &got), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "io_1.bin of 378392 bytes does not match sizeof(sTIDL_IOBufDesc_t) = 94616");
    CHECK(memcmp(&got, &sentinel, sizeof got) == 0);
    REQUIRE_STATUS(tl_tidl_io_parse_as(image, 378392, 4, 4, &got), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_parse(image, 378392, &got), TL_OK);
    CHECK_EQ_I64(got.version, 4);
    CHECK_EQ_I64(got.max_cores, 4);
}

TL_TEST(unknown_size)
{
    tl_tidl_io got;
    memset(image, 0, sizeof image);
    memset(&got, 0x5A, sizeof got);
    tl_tidl_io sentinel = got;
    const size_t bad[] = {0, 1, 37252, 37260, 94612, 94620, 378388, 378396};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK_STATUS(tl_tidl_io_parse(image, bad[i], &got), TL_ERR_VENDOR_FILE);
        CHECK(memcmp(&got, &sentinel, sizeof got) == 0);
    }
    const char *msg = tl_last_error();
    CHECK_STR_CONTAINS(msg, "io_1.bin of 378396 bytes matches no known sTIDL_IOBufDesc_t");
    for (int k = 0; k < 7; k++) {
        char n[32];
        snprintf(n, sizeof n, "%lld", (long long)variant_sizes[k]);
        CHECK_STR_CONTAINS(msg, n);
    }
    CHECK_STR_CONTAINS(msg, "(V3, 2 cores)");
    CHECK_STATUS(tl_tidl_io_parse(NULL, 37256, &got), TL_ERR_NULL);
    CHECK_STATUS(tl_tidl_io_parse(image, 37256, NULL), TL_ERR_NULL);
    CHECK_STATUS(tl_tidl_io_parse_as(image, 37256, 7, 1, &got), TL_ERR_VENDOR);
}

/* ---- round trips -------------------------------------------------------------- */

static tl_tidl_buf random_buf(tl_rng *r, int version, int out, int k)
{
    tl_tidl_buf b;
    memset(&b, 0, sizeof b);
    int32_t *ints[] = {&b.width, &b.height, &b.num_channels, &b.pad_l, &b.pad_t, &b.pad_r, &b.pad_b, &b.pad_ch,
                       &b.channel_pitch, &b.num_batches, &b.zero_point, &b.data_id};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        *ints[i] = (int32_t)tl_rng_range(r, INT32_MIN, INT32_MAX); /* the file carries any int32 */
    b.element_type = (int32_t)tl_rng_range(r, 0, 8);
    b.layout = (int32_t)tl_rng_range(r, 0, 1);
    b.tensor_scale = (float)tl_rng_range(r, -1000000, 1000000) / 1024.0f;
    if (version >= 3) {
        b.dim1 = (int32_t)tl_rng_range(r, INT32_MIN, INT32_MAX);
        b.dim2 = (int32_t)tl_rng_range(r, INT32_MIN, INT32_MAX);
    } else {
        b.dim1 = b.dim2 = 1;
    }
    if (version >= 4) b.buf_size = (int32_t)tl_rng_range(r, INT32_MIN, INT32_MAX);
    if (out && version >= 3) b.num_valid_tensor_dims = (int32_t)tl_rng_range(r, 0, 6);
    if (!out) {
        b.data_format = (int32_t)tl_rng_range(r, 0, 1);
        b.resize_type = (int32_t)tl_rng_range(r, 0, 1);
        b.resize_width = (int32_t)tl_rng_range(r, 0, 4000);
        b.resize_height = (int32_t)tl_rng_range(r, 0, 4000);
        b.raw_element_type = (int32_t)tl_rng_range(r, 0, 8);
    }
    size_t len = (size_t)tl_rng_range(r, 0, k == 0 ? TL_TIDL_STRING_SIZE - 1 : 40);
    for (size_t i = 0; i < len; i++) b.name[i] = (char)tl_rng_range(r, 1, 255);
    b.is_output = out;
    b.index = k;
    return b;
}

static tl_tidl_buf ins[128], outs[512];

static void roundtrip_variant(tl_rng *r, int version, int cores, bool full)
{
    tl_tidl_io io, got;
    REQUIRE_STATUS(tl_tidl_io_init(&io, version, cores), TL_OK);
    io.num_input_buf = full ? io.max_inputs : (int32_t)tl_rng_range(r, 0, 5);
    io.num_output_buf = full ? io.max_outputs : (int32_t)tl_rng_range(r, 0, 7);
    if (version >= 3) {
        io.num_cores = cores;
        io.num_virtual_cores = (int32_t)tl_rng_range(r, 1, cores);
        io.num_super_batches = (int32_t)tl_rng_range(r, 1, 4);
        io.inference_mode = (int32_t)tl_rng_range(r, 0, 2);
    }
    for (int k = 0; k < io.num_input_buf; k++) ins[k] = random_buf(r, version, 0, k);
    for (int k = 0; k < io.num_output_buf; k++) outs[k] = random_buf(r, version, 1, k);
    size_t size = (size_t)io.size_bytes;
    memset(image, 0xCD, sizeof image);
    REQUIRE_STATUS(tl_tidl_io_write(&io, ins, outs, image, size), TL_OK);
    CHECK_EQ_I64(image[size], 0xCD); /* nothing past the struct */
    REQUIRE_STATUS(tl_tidl_io_parse(image, size, &got), TL_OK);
    CHECK(memcmp(&io, &got, sizeof io) == 0);
    tl_tidl_buf b;
    for (int k = 0; k < io.num_input_buf && !TL_TEST_FAILURES(); k++) {
        REQUIRE_STATUS(tl_tidl_io_get(image, size, &got, 0, k, &b), TL_OK);
        if (memcmp(&b, &ins[k], sizeof b) != 0) FAILF("V%d/%d input %d does not read back", version, cores, k);
    }
    for (int k = 0; k < io.num_output_buf && !TL_TEST_FAILURES(); k++) {
        REQUIRE_STATUS(tl_tidl_io_get(image, size, &got, 1, k, &b), TL_OK);
        if (memcmp(&b, &outs[k], sizeof b) != 0) FAILF("V%d/%d output %d does not read back", version, cores, k);
    }
    /* and the bytes: write what was read, compare */
    for (int k = 0; k < io.num_input_buf; k++) REQUIRE_STATUS(tl_tidl_io_get(image, size, &got, 0, k, &ins[k]), TL_OK);
    for (int k = 0; k < io.num_output_buf; k++)
        REQUIRE_STATUS(tl_tidl_io_get(image, size, &got, 1, k, &outs[k]), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_write(&got, ins, outs, image2, size), TL_OK);
    CHECK_MEM_EQ(image, image2, size);
}

TL_TEST(roundtrip_every_variant)
{
    tl_rng r = tl_test_rng();
    for (int k = 0; k < 7; k++)
        for (int rep = 0; rep < 6 && !TL_TEST_FAILURES(); rep++)
            roundtrip_variant(&r, variants[k][0], variants[k][1], rep == 0);
}

/* The V2 writer takes DIM1/DIM2 of 0 too; a V2 image reads them as 1. */
TL_TEST(v2_dims_zero_or_one)
{
    tl_tidl_io io, got;
    tl_tidl_buf in = buf_of(TL_TIDL_UNSIGNED_CHAR, 1, 2, 3, "x"), b;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 2, 1), TL_OK);
    io.num_input_buf = 1;
    REQUIRE_STATUS(tl_tidl_io_write(&io, &in, NULL, image, sizeof image), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_parse(image, 37256, &got), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_get(image, 37256, &got, 0, 0, &b), TL_OK);
    CHECK_EQ_I64(b.dim1, 1);
}

/* ---- §2.3 sanity checks -------------------------------------------------- */

static void put_i32(int version, int cores, const char *field, int index, int32_t v)
{
    size_t off = off_of(version, cores, field, index);
    for (int i = 0; i < 4; i++) image[off + (size_t)i] = (uint8_t)((uint32_t)v >> (8 * i));
}

static void fresh_v4(int nin, int nout)
{
    tl_tidl_io io;
    tl_tidl_buf b = buf_of(TL_TIDL_UNSIGNED_CHAR, 1, 1, 1, "b");
    for (int k = 0; k < 4; k++) ins[k] = outs[k] = b;
    tl_tidl_io_init(&io, 4, 1);
    io.num_input_buf = nin;
    io.num_output_buf = nout;
    tl_tidl_io_write(&io, ins, outs, image, sizeof image);
}

static void expect_parse_error(const char *needle, int line)
{
    tl_tidl_io got, sentinel;
    memset(&got, 0x5A, sizeof got);
    sentinel = got;
    tl_status s = tl_tidl_io_parse(image, 94616, &got);
    if (s != TL_ERR_VENDOR_FILE) FAILF("line %d: status %s, want TL_ERR_VENDOR_FILE", line, tl_status_str(s));
    if (!strstr(tl_last_error(), needle)) FAILF("line %d: message \"%s\" lacks \"%s\"", line, tl_last_error(), needle);
    if (!strstr(tl_last_error(), "(TIDL)")) FAILF("line %d: message does not name TIDL", line);
    if (memcmp(&got, &sentinel, sizeof got) != 0) FAILF("line %d: io was written", line);
}
#define PARSE_ERR(needle) expect_parse_error((needle), __LINE__)

TL_TEST(sanity_checks)
{
    fresh_v4(2, 3);
    put_i32(4, 1, "numInputBuf", 0, -1);
    PARSE_ERR("numInputBuf=-1: must be 0..32 (io_1.bin V4, 1 core)");
    fresh_v4(2, 3);
    put_i32(4, 1, "numInputBuf", 0, 33);
    PARSE_ERR("numInputBuf=33");
    fresh_v4(2, 3);
    put_i32(4, 1, "numOutputBuf", 0, 129);
    PARSE_ERR("numOutputBuf=129: must be 0..128");
    fresh_v4(2, 3);
    put_i32(4, 1, "inElementType", 1, 9);
    PARSE_ERR("inElementType[1]=9: TIDL element types are 0..8");
    fresh_v4(2, 3);
    put_i32(4, 1, "outElementType", 2, -1);
    PARSE_ERR("outElementType[2]=-1");
    fresh_v4(2, 3);
    put_i32(4, 1, "outLayout", 0, 2);
    PARSE_ERR("outLayout[0]=2: TIDL layouts are 0 (NCHW) and 1 (NHWC)");
    fresh_v4(2, 3);
    memset(image + off_of(4, 1, "inDataName", 1), 'x', TL_TIDL_STRING_SIZE);
    PARSE_ERR("inDataName[1]: no NUL in its 512 bytes");
    /* unused slots are not checked (the import tool leaves them zero, but a
     * reader must not care) */
    fresh_v4(2, 3);
    put_i32(4, 1, "inElementType", 2, 77);
    put_i32(4, 1, "outLayout", 3, 5);
    memset(image + off_of(4, 1, "outDataName", 3), 'x', TL_TIDL_STRING_SIZE);
    tl_tidl_io got;
    CHECK_STATUS(tl_tidl_io_parse(image, 94616, &got), TL_OK);
}

TL_TEST(get_errors)
{
    tl_tidl_io io;
    tl_tidl_buf b, sentinel;
    fresh_v4(2, 3);
    REQUIRE_STATUS(tl_tidl_io_parse(image, 94616, &io), TL_OK);
    memset(&b, 0x5A, sizeof b);
    sentinel = b;
    CHECK_STATUS(tl_tidl_io_get(image, 94616, &io, 0, 2, &b), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "input buffer 2: the image has 2");
    CHECK_STATUS(tl_tidl_io_get(image, 94616, &io, 1, -1, &b), TL_ERR_COORD);
    CHECK_STATUS(tl_tidl_io_get(image, 37256, &io, 1, 0, &b), TL_ERR_VENDOR_FILE);
    CHECK_STATUS(tl_tidl_io_get(NULL, 94616, &io, 1, 0, &b), TL_ERR_NULL);
    /* an image changed after parsing */
    memset(image + off_of(4, 1, "outDataName", 0), 'x', TL_TIDL_STRING_SIZE);
    CHECK_STATUS(tl_tidl_io_get(image, 94616, &io, 1, 0, &b), TL_ERR_VENDOR_FILE);
    CHECK(memcmp(&b, &sentinel, sizeof b) == 0);
}

/* ---- writer errors: status, message, image untouched ---------------------------- */

static void expect_write_error(const tl_tidl_io *io, tl_status want, const char *needle, int line)
{
    memset(image2, 0xCD, sizeof image2);
    memset(image, 0xCD, sizeof image);
    tl_status s = tl_tidl_io_write(io, ins, outs, image, sizeof image);
    if (s != want)
        FAILF("line %d: status %s, want %s (%s)", line, tl_status_str(s), tl_status_str(want), tl_last_error());
    if (!strstr(tl_last_error(), needle)) FAILF("line %d: message \"%s\" lacks \"%s\"", line, tl_last_error(), needle);
    if (memcmp(image, image2, sizeof image) != 0) FAILF("line %d: the image was written", line);
}
#define WRITE_ERR(io, want, needle) expect_write_error((io), (want), (needle), __LINE__)

TL_TEST(writer_errors)
{
    tl_tidl_io io;
    tl_tidl_buf b = buf_of(TL_TIDL_UNSIGNED_CHAR, 1, 1, 1, "b");
    for (int k = 0; k < 4; k++) ins[k] = outs[k] = b;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 2, 1), TL_OK);
    io.num_input_buf = 1;
    io.num_output_buf = 1;
    ins[0].dim1 = 2;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "inDIM1[0]=2: sTIDL_IOBufDesc_t V2 has no such field");
    ins[0].dim1 = 1;
    outs[0].buf_size = 10;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "outBufSize[0]=10");
    outs[0].buf_size = 0;
    outs[0].num_valid_tensor_dims = 4;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "numValidTensorDims[0]=4");
    outs[0].num_valid_tensor_dims = 0;
    io.num_cores = 1;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "numCores=1: sTIDL_IOBufDesc_t V2 has no such field");
    io.num_cores = 0;
    io.num_output_buf = 33;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "numOutputBuf=33");
    io.num_output_buf = 1;
    io.num_input_buf = -1;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "numInputBuf=-1");
    io.num_input_buf = 1;
    outs[0].data_format = 1;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "outputs.data_format[0]=1: an input-only field");
    outs[0].data_format = 0;
    ins[0].element_type = 12;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "inElementType[0]=12");
    ins[0].element_type = 0;
    outs[0].layout = 3;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "outLayout[0]=3");
    outs[0].layout = 0;
    memset(outs[0].name, 'n', sizeof outs[0].name);
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "outDataName[0]: no NUL");
    outs[0] = b;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 3, 1), TL_OK);
    io.num_input_buf = 1;
    ins[0].buf_size = 5;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "inBufSize[0]=5: sTIDL_IOBufDesc_t V3 has no such field");
    ins[0].buf_size = 0;
    ins[0].num_valid_tensor_dims = 2;
    WRITE_ERR(&io, TL_ERR_VENDOR_EXPORT, "inputs.num_valid_tensor_dims[0]=2");
    ins[0] = b;
    /* too short, and bad arguments */
    memset(image, 0xCD, sizeof image);
    CHECK_STATUS(tl_tidl_io_write(&io, ins, outs, image, 93975), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "len=93975 < 93976 bytes");
    CHECK_EQ_I64(image[0], 0xCD);
    io.num_output_buf = 1;
    CHECK_STATUS(tl_tidl_io_write(&io, ins, NULL, image, sizeof image), TL_ERR_NULL);
    io.max_cores = 3;
    CHECK_STATUS(tl_tidl_io_write(&io, ins, outs, image, sizeof image), TL_ERR_VENDOR);
    CHECK_EQ_I64(image[0], 0xCD);
    CHECK_STATUS(tl_tidl_io_init(NULL, 4, 1), TL_ERR_NULL);
}

/* ---- descriptors from an image --------------------------------------------- */

TL_TEST(descriptors_from_image)
{
    tl_tidl_io io;
    tl_tidl_buf out = buf_of(TL_TIDL_SIGNED_SHORT, 3, 4, 10, "logits"), b;
    out.pad_l = out.pad_t = out.pad_r = out.pad_b = 1;
    out.channel_pitch = 72;
    out.tensor_scale = 25.0f;
    out.dim1 = out.dim2 = 1;
    out.buf_size = 216;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 4, 2), TL_OK);
    io.num_output_buf = 1;
    REQUIRE_STATUS(tl_tidl_io_write(&io, NULL, &out, image, sizeof image), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_parse(image, 189208, &io), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_get(image, 189208, &io, 1, 0, &b), TL_OK);
    tl_desc d;
    REQUIRE_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_OK);
    const int64_t x[4] = {0, 2, 3, 9};
    uint64_t off;
    REQUIRE_STATUS(tl_desc_offset(&d, x, &off), TL_OK);
    CHECK_EQ_I64(off, 404); /* T2 through an image */
    CHECK_EQ_I64(d.size_bytes, 432);
    CHECK_NEAR(tl_dequantize_value(&d.quant, -50), -2.0, 0.0); /* T5 */
    /* a broken slot is named by its field */
    put_i32(4, 2, "outPadT", 0, -2);
    REQUIRE_STATUS(tl_tidl_io_get(image, 189208, &io, 1, 0, &b), TL_OK);
    CHECK_STATUS(tl_desc_from_tidl(&d, &b, 0), TL_ERR_PAD);
    CHECK_STR_CONTAINS(tl_last_error(), "outPadT[0]=-2: TIDL pads must be >= 0 (TIDL)");
}

TL_TEST(read_file)
{
    char path[256];
    snprintf(path, sizeof path, "tidl_read_file_%u.bin", (unsigned)tl_test_hash("read_file") % 100000u);
    tl_tidl_io io;
    REQUIRE_STATUS(tl_tidl_io_init(&io, 4, 1), TL_OK);
    REQUIRE_STATUS(tl_tidl_io_write(&io, NULL, NULL, image, sizeof image), TL_OK);
    FILE *f = fopen(path, "wb");
    REQUIRE(f != NULL);
    CHECK_EQ_I64(fwrite(image, 1, 94616, f), 94616);
    fclose(f);
    size_t len = 0;
    memset(image2, 0, sizeof image2);
    CHECK_STATUS(tl_tidl_io_read_file(path, image2, sizeof image2, &len), TL_OK);
    CHECK_EQ_I64(len, 94616);
    CHECK_MEM_EQ(image, image2, 94616);
    len = 7;
    CHECK_STATUS(tl_tidl_io_read_file(path, image2, 94615, &len), TL_ERR_VENDOR_FILE);
    CHECK_STR_CONTAINS(tl_last_error(), "is longer than 94615 bytes");
    CHECK_EQ_I64(len, 7);
    CHECK_STATUS(tl_tidl_io_read_file(path, image2, 94616, &len), TL_OK); /* exactly cap */
    remove(path);
    CHECK_STATUS(tl_tidl_io_read_file(path, image2, sizeof image2, &len), TL_ERR_IO);
    CHECK_STR_CONTAINS(tl_last_error(), "cannot open");
    CHECK_STATUS(tl_tidl_io_read_file(NULL, image2, sizeof image2, &len), TL_ERR_NULL);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(variant_sizes);
    TL_RUN(key_offsets_v2);
    TL_RUN(key_offsets_v4);
    TL_RUN(field_offset_errors);
    TL_RUN(t8_v4_one_core);
    TL_RUN(t9_v2);
    TL_RUN(t10_size_mismatch);
    TL_RUN(unknown_size);
    TL_RUN(roundtrip_every_variant);
    TL_RUN(v2_dims_zero_or_one);
    TL_RUN(sanity_checks);
    TL_RUN(get_errors);
    TL_RUN(writer_errors);
    TL_RUN(descriptors_from_image);
    TL_RUN(read_file);
    return tl_test_finish();
}
