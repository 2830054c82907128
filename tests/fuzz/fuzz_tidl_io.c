/* Fuzz target: the TIDL io_1.bin parser (tl_tidl_* API, docs/tidl.md).
 *
 * Two input forms:
 *  - raw: an input of 37256 bytes or more is the image itself (the real-size
 *    images fuzz_seedgen writes with tl_tidl_io_write are its seeds);
 *  - compact: a shorter input builds a real-size image, so mutations land on
 *    meaningful fields instead of the unused slots that fill most of the
 *    struct. Byte 0 picks the variant (V2; V3/V4 with 1, 2 or 4 cores) and bit 7
 *    the TL_TIDL_DESC_6D flag; then 6-byte records {field, slot, int32 LE}
 *    set TI's field `field` (an index into the name table below) of slot
 *    `slot`. Field index == table size fills the name of slot `slot` (bit 7:
 *    outputs) with 512 non-NUL bytes.
 * Properties: a rejected image leaves *io untouched and says why; an accepted
 * one gives every buffer, each buffer either yields a valid descriptor (offsets
 * inside its size, format/parse and from_desc/from_tidl round trips,
 * zero_padding keeps valid elements) or is rejected writing nothing; writing the
 * parsed buffers back gives an image that parses to the same buffers.
 */
#include "fuzz_common.h"

#define TIDL_MIN_IMAGE 37256u /* V2, the smallest known variant */

static const int variants[][2] = {{2, 1}, {3, 1}, {3, 2}, {3, 4}, {4, 1}, {4, 2}, {4, 4}};

static const char *const field_names[] = {
    "numInputBuf", "numOutputBuf", "numCores", "numVirtualCores", "numSuperBatches",
    "inferenceMode", "inDataFormat", "inResizeType", "resizeWidth", "resizeHeight", "inWidth",
    "inHeight", "inNumChannels", "inDIM2", "inDIM1", "inChannelPitch", "inNumBatches", "inPadL",
    "inPadT", "inPadR", "inPadB", "inPadCh", "rawDataInElementType", "inElementType",
    "inZeroPoint", "inLayout", "inDataId", "inTensorScale", "inBufSize", "outWidth",
    "outHeight", "outDIM2", "outDIM1", "outNumChannels", "outChannelPitch", "outNumBatches",
    "outPadL", "outPadT", "outPadR", "outPadB", "outPadCh", "outElementType", "outDataId",
    "outTensorScale", "outZeroPoint", "outLayout", "outBufSize", "numValidTensorDims",
};
#define NFIELDS ((int)(sizeof field_names / sizeof field_names[0]))

static uint8_t image[TL_TIDL_IO_MAX_BYTES], rewritten[TL_TIDL_IO_MAX_BYTES];
static tl_tidl_buf bufs[2][512], again[2][512];

/* The byte offset of the buffer's valid elements, walked one by one. */
static void check_zero_padding(const tl_desc *d)
{
    unsigned eb = tl_dtype_bits((tl_dtype)d->dtype);
    if (d->size_bytes > FZ_BUFFER_MAX || fz_elements(d) > FZ_BRUTE_MAX || eb < 8) return;
    size_t n = (size_t)d->size_bytes;
    uint8_t *buf = malloc(n ? n : 1);
    FZ_ASSERT(buf, "out of memory");
    memset(buf, 0xA7, n);
    tl_status s = tl_tidl_zero_padding(d, buf, n);
    FZ_ASSERT(s == TL_OK, "tl_tidl_zero_padding on its own descriptor: %s", tl_status_str(s));
    int64_t x[TL_MAX_DIMS] = {0};
    for (int64_t e = fz_elements(d); e > 0; e--) {
        uint64_t off = 0;
        tl_desc_offset(d, x, &off);
        for (unsigned b = 0; b < eb / 8; b++)
            FZ_ASSERT(buf[off + b] == 0xA7, "tl_tidl_zero_padding cleared a valid element (byte %llu)",
                      (unsigned long long)(off + b));
        for (int i = d->rank - 1; i >= 0; i--) {
            if (++x[i] < d->dims[i]) break;
            x[i] = 0;
        }
    }
    free(buf);
}

static void check_buf(const tl_tidl_buf *b, unsigned flags)
{
    tl_desc d, before, d2;
    memset(&d, 0x5A, sizeof d);
    before = d;
    char *msg = malloc(24); /* exact size: a warning text longer than 23 must be cut */
    FZ_ASSERT(msg, "out of memory");
    tl_tidl_buf_warnings(b, msg, 24);
    free(msg);
    tl_status s = tl_desc_from_tidl(&d, b, flags);
    if (s != TL_OK) {
        FZ_ASSERT(memcmp(&d, &before, sizeof d) == 0, "tl_desc_from_tidl failed (%s) but wrote *d",
                  tl_status_str(s));
        FZ_ASSERT(tl_last_error()[0] != '\0', "tl_desc_from_tidl failed without a message");
        return;
    }
    FZ_ASSERT(tl_desc_validate(&d) == TL_OK, "tl_desc_from_tidl gave an invalid descriptor");
    fz_check_valid_desc(&d, NULL);
    check_zero_padding(&d);

    tl_tidl_buf back;
    s = tl_tidl_from_desc(&d, &back);
    if (s == TL_OK) {
        s = tl_desc_from_tidl(&d2, &back, flags);
        FZ_ASSERT(s == TL_OK && memcmp(&d, &d2, sizeof d) == 0,
                  "tl_desc_from_tidl(tl_tidl_from_desc(d)) differs from d (%s)", tl_status_str(s));
    }
    char text[1024];
    s = tl_desc_format(&d, text, sizeof text);
    FZ_ASSERT(s == TL_OK, "a TIDL descriptor does not format: %s", tl_status_str(s));
    s = tl_desc_parse(&d2, text);
    FZ_ASSERT(s == TL_OK && memcmp(&d, &d2, sizeof d) == 0, "'%s' does not parse back (%s)", text,
              tl_status_str(s));
}

static void check_same_buf(const tl_tidl_buf *a, const tl_tidl_buf *b, int dir, int k)
{
    /* the name is last; bytes after its NUL are not written back */
    FZ_ASSERT(memcmp(a, b, offsetof(tl_tidl_buf, name)) == 0 && strcmp(a->name, b->name) == 0,
              "buffer %d/%d differs after tl_tidl_io_write and a new parse", dir, k);
}

static void check_image(const uint8_t *img, size_t len, unsigned flags)
{
    tl_tidl_io io, before, io2;
    memset(&io, 0x5A, sizeof io);
    before = io;
    tl_status s = tl_tidl_io_parse(img, len, &io);
    if (s != TL_OK) {
        FZ_ASSERT(memcmp(&io, &before, sizeof io) == 0, "rejected image (%s) wrote *io",
                  tl_status_str(s));
        FZ_ASSERT(tl_last_error()[0] != '\0', "image rejected without a message");
        return;
    }
    FZ_ASSERT((uint64_t)io.size_bytes == len, "size_bytes %lld for %zu bytes", (long long)io.size_bytes, len);
    s = tl_tidl_io_parse_as(img, len, io.version, io.max_cores, &io2);
    FZ_ASSERT(s == TL_OK && memcmp(&io, &io2, sizeof io) == 0, "parse_as its own variant: %s",
              tl_status_str(s));
    int32_t count[2] = {io.num_input_buf, io.num_output_buf};
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < count[dir]; k++) {
            s = tl_tidl_io_get(img, len, &io, dir, k, &bufs[dir][k]);
            FZ_ASSERT(s == TL_OK, "buffer %d of direction %d of an accepted image: %s", k, dir,
                      tl_status_str(s));
            check_buf(&bufs[dir][k], flags);
        }
    tl_tidl_buf spare;
    s = tl_tidl_io_get(img, len, &io, 0, count[0], &spare);
    FZ_ASSERT(s == TL_ERR_COORD, "input %d of %d accepted", count[0], count[0]);

    s = tl_tidl_io_write(&io, bufs[0], bufs[1], rewritten, len);
    FZ_ASSERT(s == TL_OK, "the parsed buffers do not write back: %s", tl_status_str(s));
    s = tl_tidl_io_parse(rewritten, len, &io2);
    FZ_ASSERT(s == TL_OK && memcmp(&io, &io2, sizeof io) == 0, "rewritten image: %s",
              tl_status_str(s));
    for (int dir = 0; dir < 2; dir++)
        for (int k = 0; k < count[dir]; k++) {
            s = tl_tidl_io_get(rewritten, len, &io2, dir, k, &again[dir][k]);
            FZ_ASSERT(s == TL_OK, "rewritten buffer %d/%d: %s", dir, k, tl_status_str(s));
            check_same_buf(&bufs[dir][k], &again[dir][k], dir, k);
        }
}

/* The compact form: a real-size image from a variant and field records. */
static size_t build_image(fz_in *in, unsigned *flags)
{
    uint8_t head = fz_u8(in);
    const int *v = variants[(head & 0x7f) % (sizeof variants / sizeof variants[0])];
    *flags = (head & 0x80) ? TL_TIDL_DESC_6D : 0u;
    size_t size = 0;
    FZ_ASSERT(tl_tidl_io_size(v[0], v[1], &size) == TL_OK && size <= sizeof image, "variant size");
    memset(image, 0, size);
    while (in->n >= 6) {
        int f = fz_u8(in) % (NFIELDS + 1);
        int slot = fz_u8(in);
        uint8_t val[4];
        fz_bytes(in, val, 4);
        size_t off = 0;
        if (f == NFIELDS) { /* a name without a NUL */
            const char *name = (slot & 0x80) ? "outDataName" : "inDataName";
            if (tl_tidl_io_field_offset(v[0], v[1], name, slot & 0x7f, &off) == TL_OK)
                memset(image + off, 'A', TL_TIDL_STRING_SIZE);
            continue;
        }
        if (tl_tidl_io_field_offset(v[0], v[1], field_names[f], slot, &off) == TL_OK)
            memcpy(image + off, val, 4);
    }
    return size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size >= TIDL_MIN_IMAGE) {
        check_image(data, size, 0);
        return 0;
    }
    fz_in in = {data, size};
    unsigned flags = 0;
    size_t len = build_image(&in, &flags);
    check_image(image, len, flags);
    return 0;
}
