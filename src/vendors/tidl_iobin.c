/* TI TIDL-RT io_1.bin: the raw sTIDL_IOBufDesc_t, byte for byte (itidl_ti.h and
 * itidl_io.h). No header, magic or version: the variant is known by its size.
 *
 * The struct is described once, as TI's field list in V4 order with the
 * version that introduced each field. V2 and V3 are subsequences of it, so
 * every offset of every variant is computed by walking that list: no
 * hand-written offset tables. All fields are int32 or float, little-endian;
 * names are NUL-padded int8[512]. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"

enum { A_HDR, A_IN, A_OUT };    /* which array a field belongs to */
enum { K_I32, K_F32, K_STR };   /* its element */

typedef struct field {
    const char *name;    /* TI's name */
    uint8_t arr, kind, minv;
    uint16_t member;     /* offsetof in tl_tidl_io (A_HDR) or tl_tidl_buf */
} field;

#define HDR(n, m, v) {n, A_HDR, K_I32, v, (uint16_t)offsetof(tl_tidl_io, m)}
#define IN(n, m, k, v) {n, A_IN, k, v, (uint16_t)offsetof(tl_tidl_buf, m)}
#define OUT(n, m, k, v) {n, A_OUT, k, v, (uint16_t)offsetof(tl_tidl_buf, m)}

static const field fields[] = {
    HDR("numInputBuf", num_input_buf, 2), HDR("numOutputBuf", num_output_buf, 2),
    HDR("numCores", num_cores, 3), HDR("numVirtualCores", num_virtual_cores, 3),
    HDR("numSuperBatches", num_super_batches, 3), HDR("inferenceMode", inference_mode, 3),
    IN("inDataFormat", data_format, K_I32, 2), IN("inResizeType", resize_type, K_I32, 2),
    IN("resizeWidth", resize_width, K_I32, 2), IN("resizeHeight", resize_height, K_I32, 2),
    IN("inWidth", width, K_I32, 2), IN("inHeight", height, K_I32, 2),
    IN("inNumChannels", num_channels, K_I32, 2), IN("inDIM2", dim2, K_I32, 3), IN("inDIM1", dim1, K_I32, 3),
    IN("inChannelPitch", channel_pitch, K_I32, 2), IN("inNumBatches", num_batches, K_I32, 2),
    IN("inPadL", pad_l, K_I32, 2), IN("inPadT", pad_t, K_I32, 2), IN("inPadR", pad_r, K_I32, 2),
    IN("inPadB", pad_b, K_I32, 2), IN("inPadCh", pad_ch, K_I32, 2),
    IN("rawDataInElementType", raw_element_type, K_I32, 2), IN("inElementType", element_type, K_I32, 2),
    IN("inZeroPoint", zero_point, K_I32, 2), IN("inLayout", layout, K_I32, 2), IN("inDataId", data_id, K_I32, 2),
    IN("inTensorScale", tensor_scale, K_F32, 2), IN("inDataName", name, K_STR, 2),
    IN("inBufSize", buf_size, K_I32, 4),
    OUT("outWidth", width, K_I32, 2), OUT("outHeight", height, K_I32, 2), OUT("outDIM2", dim2, K_I32, 3),
    OUT("outDIM1", dim1, K_I32, 3), OUT("outNumChannels", num_channels, K_I32, 2),
    OUT("outChannelPitch", channel_pitch, K_I32, 2), OUT("outNumBatches", num_batches, K_I32, 2),
    OUT("outPadL", pad_l, K_I32, 2), OUT("outPadT", pad_t, K_I32, 2), OUT("outPadR", pad_r, K_I32, 2),
    OUT("outPadB", pad_b, K_I32, 2), OUT("outPadCh", pad_ch, K_I32, 2),
    OUT("outElementType", element_type, K_I32, 2), OUT("outDataId", data_id, K_I32, 2),
    OUT("outDataName", name, K_STR, 2), OUT("outTensorScale", tensor_scale, K_F32, 2),
    OUT("outZeroPoint", zero_point, K_I32, 2), OUT("outLayout", layout, K_I32, 2),
    OUT("outBufSize", buf_size, K_I32, 4), OUT("numValidTensorDims", num_valid_tensor_dims, K_I32, 3),
};
#define NFIELDS ((int)(sizeof fields / sizeof fields[0]))

/* One variant of the struct: capacities and the offset of each field's
 * element 0 (-1 when the variant lacks it). */
typedef struct variant {
    int version, cores;
    int64_t cap[3];       /* elements per field: 1, I, O */
    int64_t off[NFIELDS];
    int64_t size;
} variant;

static const int known[][2] = {{2, 1}, {3, 1}, {3, 2}, {3, 4}, {4, 1}, {4, 2}, {4, 4}};
#define NKNOWN ((int)(sizeof known / sizeof known[0]))

static tl_status variant_init(int version, int cores, variant *v)
{
    if (version < 2 || version > 4)
        return tl_fail(TL_ERR_VENDOR, "version=%d: tlayout reads sTIDL_IOBufDesc_t V2 (PSDK 8.6), V3 (9.x/10.x) "
                       "and V4 (11.x) (TIDL)", version);
    if (version == 2 ? cores != 1 : cores != 1 && cores != 2 && cores != 4)
        return tl_fail(TL_ERR_VENDOR, "cores=%d: sTIDL_IOBufDesc_t V%d is sized for %s (TIDL)", cores, version,
                       version == 2 ? "1 core" : "1, 2 or 4 cores");
    v->version = version;
    v->cores = cores;
    v->cap[A_HDR] = 1;
    v->cap[A_IN] = 32 * cores;                     /* TIDL_MAX_ALG_IN_BUFS, x cores from V3 */
    v->cap[A_OUT] = version == 2 ? 32 : 128 * cores; /* TIDL_MAX_ALG_OUT_BUFS = 32 in V2 */
    int64_t off = 0;
    for (int f = 0; f < NFIELDS; f++) {
        if (fields[f].minv > version) {
            v->off[f] = -1;
            continue;
        }
        v->off[f] = off;
        off += v->cap[fields[f].arr] * (fields[f].kind == K_STR ? TL_TIDL_STRING_SIZE : 4);
    }
    v->size = off;
    return TL_OK;
}

static int find_field(const char *name)
{
    for (int f = 0; f < NFIELDS; f++)
        if (strcmp(fields[f].name, name) == 0) return f;
    return -1;
}

static int64_t elem_bytes(int f)
{
    return fields[f].kind == K_STR ? TL_TIDL_STRING_SIZE : 4;
}

tl_status tl_tidl_io_size(int version, int cores, size_t *bytes)
{
    variant v;
    if (!bytes) return tl_fail(TL_ERR_NULL, "bytes is NULL");
    TL_TRY(variant_init(version, cores, &v));
    *bytes = (size_t)v.size;
    return TL_OK;
}

tl_status tl_tidl_io_field_offset(int version, int cores, const char *name, int index, size_t *offset)
{
    variant v;
    if (!name || !offset) return tl_fail(TL_ERR_NULL, "field name or offset is NULL");
    TL_TRY(variant_init(version, cores, &v));
    int f = find_field(name);
    if (f < 0) return tl_fail(TL_ERR_VENDOR, "'%s' is not a field of sTIDL_IOBufDesc_t (TIDL)", name);
    if (v.off[f] < 0)
        return tl_fail(TL_ERR_VENDOR, "%s: sTIDL_IOBufDesc_t V%d has no such field (from V%d on) (TIDL)", name,
                       version, (int)fields[f].minv);
    if (index < 0 || index >= v.cap[fields[f].arr])
        return tl_fail(TL_ERR_COORD, "%s[%d]: index must be 0..%lld in V%d with %d core(s) (TIDL)", name, index,
                       (long long)v.cap[fields[f].arr] - 1, version, cores);
    *offset = (size_t)(v.off[f] + index * elem_bytes(f));
    return TL_OK;
}

tl_status tl_tidl_io_init(tl_tidl_io *io, int version, int cores)
{
    variant v;
    if (!io) return tl_fail(TL_ERR_NULL, "io is NULL");
    TL_TRY(variant_init(version, cores, &v));
    memset(io, 0, sizeof *io);
    io->version = version;
    io->max_cores = cores;
    io->max_inputs = (int32_t)v.cap[A_IN];
    io->max_outputs = (int32_t)v.cap[A_OUT];
    io->size_bytes = v.size;
    return TL_OK;
}

/* ---- little-endian fields --------------------------------------------- */

static uint32_t rd_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void wr_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}

static const uint8_t *at(const variant *v, const uint8_t *img, int f, int64_t index)
{
    return img + v->off[f] + index * elem_bytes(f);
}

/* Field f, element index, from the image into the struct member at `obj`. */
static void load(const variant *v, const uint8_t *img, int f, int64_t index, void *obj)
{
    uint8_t *m = (uint8_t *)obj + fields[f].member;
    const uint8_t *p = at(v, img, f, index);
    if (fields[f].kind == K_STR) {
        memcpy(m, p, TL_TIDL_STRING_SIZE);
    } else {
        uint32_t u = rd_u32(p); /* int32 and float alike: same bits */
        memcpy(m, &u, 4);
    }
}

static void store(const variant *v, uint8_t *img, int f, int64_t index, const void *obj)
{
    const uint8_t *m = (const uint8_t *)obj + fields[f].member;
    uint8_t *p = img + v->off[f] + index * elem_bytes(f);
    if (fields[f].kind == K_STR) {
        const uint8_t *nul = memchr(m, 0, TL_TIDL_STRING_SIZE); /* checked: present */
        memcpy(p, m, nul ? (size_t)(nul - m) : TL_TIDL_STRING_SIZE); /* the tail stays zero */
    } else {
        uint32_t u;
        memcpy(&u, m, 4);
        wr_u32(p, u);
    }
}

static int32_t rd_i32_field(const variant *v, const uint8_t *img, const char *name, int64_t index)
{
    uint32_t u = rd_u32(at(v, img, find_field(name), index));
    int32_t r;
    memcpy(&r, &u, 4);
    return r;
}

/* ---- parsing ----------------------------------------------------------- */

static const char *variant_name(const variant *v, char buf[48])
{
    snprintf(buf, 48, "V%d, %d core%s", v->version, v->cores, v->cores == 1 ? "" : "s");
    return buf;
}

static tl_status unknown_size(size_t len)
{
    char list[320];
    tl_strbuf sb = {list, sizeof list, 0};
    for (int k = 0; k < NKNOWN; k++) {
        variant v;
        char vn[48];
        variant_init(known[k][0], known[k][1], &v);
        tl_sb_printf(&sb, "%s%lld (%s)", k ? ", " : "", (long long)v.size, variant_name(&v, vn));
    }
    return tl_fail(TL_ERR_VENDOR_FILE, "io_1.bin of %zu bytes matches no known sTIDL_IOBufDesc_t; "
                   "known sizes: %s (TIDL)", len, list);
}

/* §2.3 sanity checks on the used slots of one direction. */
static tl_status check_slots(const variant *v, const uint8_t *img, int arr, int32_t count)
{
    const char *pre = arr == A_IN ? "in" : "out";
    char name[32], vn[48];
    for (int32_t k = 0; k < count; k++) {
        snprintf(name, sizeof name, "%sElementType", pre);
        int32_t et = rd_i32_field(v, img, name, k);
        if (et < 0 || et > 8)
            return tl_fail(TL_ERR_VENDOR_FILE, "%s[%d]=%d: TIDL element types are 0..8 (io_1.bin %s) (TIDL)", name,
                           (int)k, (int)et, variant_name(v, vn));
        snprintf(name, sizeof name, "%sLayout", pre);
        int32_t lt = rd_i32_field(v, img, name, k);
        if (lt != 0 && lt != 1)
            return tl_fail(TL_ERR_VENDOR_FILE, "%s[%d]=%d: TIDL layouts are 0 (NCHW) and 1 (NHWC) (io_1.bin %s) (TIDL)",
                           name, (int)k, (int)lt, variant_name(v, vn));
        snprintf(name, sizeof name, "%sDataName", pre);
        if (!memchr(at(v, img, find_field(name), k), 0, TL_TIDL_STRING_SIZE))
            return tl_fail(TL_ERR_VENDOR_FILE, "%s[%d]: no NUL in its %d bytes (io_1.bin %s) (TIDL)", name, (int)k,
                           TL_TIDL_STRING_SIZE, variant_name(v, vn));
    }
    return TL_OK;
}

static tl_status check_count(const variant *v, const char *name, int32_t n, int arr)
{
    char vn[48];
    if (n < 0 || n > v->cap[arr])
        return tl_fail(TL_ERR_VENDOR_FILE, "%s=%d: must be 0..%lld (io_1.bin %s) (TIDL)", name, (int)n,
                       (long long)v->cap[arr], variant_name(v, vn));
    return TL_OK;
}

static tl_status parse_variant(const variant *v, const uint8_t *img, tl_tidl_io *io)
{
    tl_tidl_io t;
    memset(&t, 0, sizeof t);
    for (int f = 0; f < NFIELDS; f++)
        if (fields[f].arr == A_HDR && v->off[f] >= 0) { /* header fields are all int32 */
            uint32_t u = rd_u32(at(v, img, f, 0));
            memcpy((uint8_t *)&t + fields[f].member, &u, 4);
        }
    t.version = v->version;
    t.max_cores = v->cores;
    t.max_inputs = (int32_t)v->cap[A_IN];
    t.max_outputs = (int32_t)v->cap[A_OUT];
    t.size_bytes = v->size;
    TL_TRY(check_count(v, "numInputBuf", t.num_input_buf, A_IN));
    TL_TRY(check_count(v, "numOutputBuf", t.num_output_buf, A_OUT));
    TL_TRY(check_slots(v, img, A_IN, t.num_input_buf));
    TL_TRY(check_slots(v, img, A_OUT, t.num_output_buf));
    *io = t;
    return TL_OK;
}

tl_status tl_tidl_io_parse(const void *image, size_t len, tl_tidl_io *io)
{
    if (!image || !io) return tl_fail(TL_ERR_NULL, "image or io is NULL");
    for (int k = 0; k < NKNOWN; k++) {
        variant v;
        TL_TRY(variant_init(known[k][0], known[k][1], &v));
        if ((uint64_t)v.size == (uint64_t)len) return parse_variant(&v, image, io);
    }
    return unknown_size(len);
}

tl_status tl_tidl_io_parse_as(const void *image, size_t len, int version, int cores, tl_tidl_io *io)
{
    variant v;
    char vn[48];
    if (!image || !io) return tl_fail(TL_ERR_NULL, "image or io is NULL");
    TL_TRY(variant_init(version, cores, &v));
    if ((uint64_t)v.size != (uint64_t)len)
        return tl_fail(TL_ERR_VENDOR_FILE, "io_1.bin of %zu bytes does not match sizeof(sTIDL_IOBufDesc_t) = %lld "
                       "bytes of %s (TIDL)", len, (long long)v.size, variant_name(&v, vn));
    return parse_variant(&v, image, io);
}

/* The variant io describes, checked against the image length. */
static tl_status io_variant(const tl_tidl_io *io, size_t len, variant *v)
{
    TL_TRY(variant_init(io->version, io->max_cores, v));
    if ((uint64_t)v->size != (uint64_t)len || io->size_bytes != v->size)
        return tl_fail(TL_ERR_VENDOR_FILE, "image of %zu bytes is not the V%d, %d-core image io describes (%lld bytes) "
                       "(TIDL)", len, (int)io->version, (int)io->max_cores, (long long)v->size);
    return TL_OK;
}

tl_status tl_tidl_io_get(const void *image, size_t len, const tl_tidl_io *io, int is_output, int index,
                         tl_tidl_buf *buf)
{
    variant v;
    tl_tidl_buf b;
    if (!image || !io || !buf) return tl_fail(TL_ERR_NULL, "image, io or buffer is NULL");
    TL_TRY(io_variant(io, len, &v));
    int arr = is_output ? A_OUT : A_IN;
    int32_t n = is_output ? io->num_output_buf : io->num_input_buf;
    if (index < 0 || index >= n)
        return tl_fail(TL_ERR_COORD, "%s buffer %d: the image has %d (index 0..%d) (TIDL)",
                       is_output ? "output" : "input", index, (int)n, (int)n - 1);
    memset(&b, 0, sizeof b);
    for (int f = 0; f < NFIELDS; f++)
        if (fields[f].arr == arr && v.off[f] >= 0) load(&v, image, f, index, &b);
    if (!memchr(b.name, 0, sizeof b.name))
        return tl_fail(TL_ERR_VENDOR_FILE, "%sDataName[%d]: no NUL in its %d bytes (TIDL)", is_output ? "out" : "in",
                       index, TL_TIDL_STRING_SIZE);
    if (v.version == 2) b.dim1 = b.dim2 = 1; /* V2 has no DIM1/DIM2: one of each */
    b.is_output = is_output ? 1 : 0;
    b.index = index;
    *buf = b;
    return TL_OK;
}

/* ---- writing ----------------------------------------------------------- */

static int32_t member_i32(const void *obj, int f)
{
    int32_t r;
    memcpy(&r, (const uint8_t *)obj + fields[f].member, 4);
    return r;
}

static tl_status export_fail_field(const char *name, int k, int32_t value, const char *why)
{
    if (k < 0) return tl_fail(TL_ERR_VENDOR_EXPORT, "%s=%d: %s (TIDL)", name, (int)value, why);
    return tl_fail(TL_ERR_VENDOR_EXPORT, "%s[%d]=%d: %s (TIDL)", name, k, (int)value, why);
}

/* Members of tl_tidl_buf the other direction's arrays hold. */
static tl_status check_other_direction(const tl_tidl_buf *b, int arr, int k)
{
    const char *pre = arr == A_IN ? "inputs" : "outputs";
    char name[64];
    if (arr == A_IN && b->num_valid_tensor_dims) {
        snprintf(name, sizeof name, "%s.num_valid_tensor_dims", pre);
        return export_fail_field(name, k, b->num_valid_tensor_dims, "only outputs have numValidTensorDims");
    }
    const int32_t in_only[5] = {b->data_format, b->resize_type, b->resize_width, b->resize_height, b->raw_element_type};
    for (int i = 0; i < 5 && arr == A_OUT; i++)
        if (in_only[i]) {
            snprintf(name, sizeof name, "outputs.%s",
                     (const char *const[]){"data_format", "resize_type", "resize_width", "resize_height",
                                           "raw_element_type"}[i]);
            return export_fail_field(name, k, in_only[i], "an input-only field of sTIDL_IOBufDesc_t");
        }
    return TL_OK;
}

static tl_status check_buf_export(const variant *v, const tl_tidl_buf *b, int arr, int k)
{
    char why[96];
    for (int f = 0; f < NFIELDS; f++) {
        if (fields[f].arr != arr || fields[f].kind != K_I32) continue;
        int32_t x = member_i32(b, f);
        bool is_dim = fields[f].member == offsetof(tl_tidl_buf, dim1) ||
                      fields[f].member == offsetof(tl_tidl_buf, dim2);
        if (v->off[f] < 0 && x != 0 && !(is_dim && x == 1)) {
            snprintf(why, sizeof why, "sTIDL_IOBufDesc_t V%d has no such field (it must be 0)", v->version);
            return export_fail_field(fields[f].name, k, x, why);
        }
    }
    const char *pre = arr == A_IN ? "in" : "out";
    char name[32];
    snprintf(name, sizeof name, "%sElementType", pre);
    if (b->element_type < 0 || b->element_type > 8)
        return export_fail_field(name, k, b->element_type, "TIDL element types are 0..8");
    snprintf(name, sizeof name, "%sLayout", pre);
    if (b->layout != 0 && b->layout != 1)
        return export_fail_field(name, k, b->layout, "TIDL layouts are 0 (NCHW) and 1 (NHWC)");
    if (!memchr(b->name, 0, sizeof b->name))
        return tl_fail(TL_ERR_VENDOR_EXPORT, "%sDataName[%d]: no NUL in its %d bytes (TIDL)", pre, k,
                       TL_TIDL_STRING_SIZE);
    return check_other_direction(b, arr, k);
}

static tl_status check_export(const variant *v, const tl_tidl_io *io, const tl_tidl_buf *in, const tl_tidl_buf *out)
{
    char why[96];
    for (int f = 0; f < NFIELDS; f++) {
        if (fields[f].arr != A_HDR) continue;
        int32_t x = member_i32(io, f);
        if (v->off[f] < 0 && x != 0) {
            snprintf(why, sizeof why, "sTIDL_IOBufDesc_t V%d has no such field (it must be 0)", v->version);
            return export_fail_field(fields[f].name, -1, x, why);
        }
    }
    if (io->num_input_buf < 0 || io->num_input_buf > v->cap[A_IN])
        return export_fail_field("numInputBuf", -1, io->num_input_buf, "more than the variant holds, or negative");
    if (io->num_output_buf < 0 || io->num_output_buf > v->cap[A_OUT])
        return export_fail_field("numOutputBuf", -1, io->num_output_buf, "more than the variant holds, or negative");
    if ((io->num_input_buf && !in) || (io->num_output_buf && !out))
        return tl_fail(TL_ERR_NULL, "inputs or outputs is NULL while its count is not 0");
    for (int32_t k = 0; k < io->num_input_buf; k++) TL_TRY(check_buf_export(v, &in[k], A_IN, (int)k));
    for (int32_t k = 0; k < io->num_output_buf; k++) TL_TRY(check_buf_export(v, &out[k], A_OUT, (int)k));
    return TL_OK;
}

tl_status tl_tidl_io_write(const tl_tidl_io *io, const tl_tidl_buf *inputs, const tl_tidl_buf *outputs, void *image,
                           size_t len)
{
    variant v;
    if (!io || !image) return tl_fail(TL_ERR_NULL, "io or image is NULL");
    TL_TRY(variant_init(io->version, io->max_cores, &v));
    if ((uint64_t)len < (uint64_t)v.size)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu < %lld bytes of sTIDL_IOBufDesc_t V%d, %d core(s) (TIDL)", len,
                       (long long)v.size, v.version, v.cores);
    TL_TRY(check_export(&v, io, inputs, outputs));
    uint8_t *img = image;
    memset(img, 0, (size_t)v.size);
    for (int f = 0; f < NFIELDS; f++) {
        if (v.off[f] < 0) continue;
        if (fields[f].arr == A_HDR) store(&v, img, f, 0, io);
        for (int32_t k = 0; fields[f].arr == A_IN && k < io->num_input_buf; k++) store(&v, img, f, k, &inputs[k]);
        for (int32_t k = 0; fields[f].arr == A_OUT && k < io->num_output_buf; k++) store(&v, img, f, k, &outputs[k]);
    }
    return TL_OK;
}

tl_status tl_tidl_io_read_file(const char *path, void *image, size_t cap, size_t *len)
{
    if (!path || !image || !len) return tl_fail(TL_ERR_NULL, "path, image or len is NULL");
    FILE *f = fopen(path, "rb");
    if (!f) return tl_fail(TL_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
    size_t n = fread(image, 1, cap, f);
    int more = n == cap ? fgetc(f) : EOF;
    int bad = ferror(f);
    fclose(f);
    if (bad) return tl_fail(TL_ERR_IO, "cannot read '%s'", path);
    if (more != EOF)
        return tl_fail(TL_ERR_VENDOR_FILE, "'%s' is longer than %zu bytes: no known io_1.bin is (the largest "
                       "is %u) (TIDL)", path, cap, TL_TIDL_IO_MAX_BYTES);
    *len = n;
    return TL_OK;
}
