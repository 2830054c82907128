/* RKNN: the rknn_tensor_attr mirror and its binary image, type mapping and the
 * platform table (rknn_api.h 2.3.2, User Guide 1.5.2). */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/rknn_internal.h"

/* The mirror must match the vendor ABI byte for byte (vector R12). */
_Static_assert(sizeof(tl_rknn_tensor_format) == 4, "RKNN enums are int-sized");
_Static_assert(sizeof(tl_rknn_tensor_type) == 4, "RKNN enums are int-sized");
_Static_assert(sizeof(tl_rknn_tensor_qnt_type) == 4, "RKNN enums are int-sized");
_Static_assert(sizeof(tl_rknn_tensor_attr) == TL_RKNN_ATTR_SIZE, "sizeof(rknn_tensor_attr) is 376");
_Static_assert(offsetof(tl_rknn_tensor_attr, index) == 0, "index @0");
_Static_assert(offsetof(tl_rknn_tensor_attr, n_dims) == 4, "n_dims @4");
_Static_assert(offsetof(tl_rknn_tensor_attr, dims) == 8, "dims @8");
_Static_assert(offsetof(tl_rknn_tensor_attr, name) == 72, "name @72");
_Static_assert(offsetof(tl_rknn_tensor_attr, n_elems) == 328, "n_elems @328");
_Static_assert(offsetof(tl_rknn_tensor_attr, size) == 332, "size @332");
_Static_assert(offsetof(tl_rknn_tensor_attr, fmt) == 336, "fmt @336");
_Static_assert(offsetof(tl_rknn_tensor_attr, type) == 340, "type @340");
_Static_assert(offsetof(tl_rknn_tensor_attr, qnt_type) == 344, "qnt_type @344");
_Static_assert(offsetof(tl_rknn_tensor_attr, fl) == 348, "fl @348");
_Static_assert(offsetof(tl_rknn_tensor_attr, zp) == 352, "zp @352");
_Static_assert(offsetof(tl_rknn_tensor_attr, scale) == 356, "scale @356");
_Static_assert(offsetof(tl_rknn_tensor_attr, w_stride) == 360, "w_stride @360");
_Static_assert(offsetof(tl_rknn_tensor_attr, size_with_stride) == 364, "size_with_stride @364");
_Static_assert(offsetof(tl_rknn_tensor_attr, pass_through) == 368, "pass_through @368");
_Static_assert(offsetof(tl_rknn_tensor_attr, h_stride) == 372, "h_stride @372");
_Static_assert(sizeof(float) == 4, "IEEE binary32 float");

/* ---- binary image ---------------------------------------------------------- */
static uint32_t get_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v, p[1] = (uint8_t)(v >> 8), p[2] = (uint8_t)(v >> 16), p[3] = (uint8_t)(v >> 24);
}

/* The raw enum values (read as uint32 from the image or the struct) and the
 * other fields with a rule. `st` is the status to report. */
typedef struct attr_raw {
    uint32_t n_dims, fmt, type, qnt_type, pass_through;
    const char *name; /* TL_RKNN_MAX_NAME_LEN bytes */
} attr_raw;

static tl_status check_raw(const attr_raw *r, tl_status st, const char *what)
{
    if (r->n_dims > TL_RKNN_MAX_DIMS)
        return tl_fail(st, "%s n_dims=%u: must be <= RKNN_MAX_DIMS=16 (rknn)", what, r->n_dims);
    if (!memchr(r->name, '\0', TL_RKNN_MAX_NAME_LEN))
        return tl_fail(st, "%s name: no NUL within RKNN_MAX_NAME_LEN=256 bytes (rknn)", what);
    if (r->fmt >= TL_RKNN_TENSOR_FORMAT_MAX)
        return tl_fail(st, "%s fmt=%u: must be 0..3 (NCHW, NHWC, NC1HWC2, UNDEFINED) (rknn)", what, r->fmt);
    if (r->type >= TL_RKNN_TENSOR_TYPE_LIMIT)
        return tl_fail(st, "%s type=%u: must be 0..11 (FLOAT32 .. BFLOAT16) (rknn)", what, r->type);
    if (r->qnt_type >= TL_RKNN_TENSOR_QNT_MAX)
        return tl_fail(st, "%s qnt_type=%u: must be 0..2 (NONE, DFP, AFFINE_ASYMMETRIC) (rknn)", what,
                       r->qnt_type);
    if (r->pass_through > 1)
        return tl_fail(st, "%s pass_through=%u: must be 0 or 1 (rknn)", what, r->pass_through);
    return TL_OK;
}

tl_status tl_rknn_attr_check(const tl_rknn_tensor_attr *a, tl_status st)
{
    if (!a) return tl_fail(TL_ERR_NULL, "rknn_tensor_attr is NULL");
    attr_raw r = {a->n_dims, (uint32_t)a->fmt, (uint32_t)a->type, (uint32_t)a->qnt_type,
                  a->pass_through, a->name};
    return check_raw(&r, st, "rknn_tensor_attr");
}

tl_status tl_rknn_attr_read(tl_rknn_tensor_attr *out, const void *buf, size_t len)
{
    if (!out || !buf) return tl_fail(TL_ERR_NULL, "attr or buffer is NULL");
    if (len < TL_RKNN_ATTR_SIZE)
        return tl_fail(TL_ERR_VENDOR_FILE, "attr image len=%zu < %d bytes of rknn_tensor_attr (rknn)", len,
                       TL_RKNN_ATTR_SIZE);
    const uint8_t *p = (const uint8_t *)buf;
    attr_raw r = {get_u32(p + 4), get_u32(p + 336), get_u32(p + 340), get_u32(p + 344), p[368],
                  (const char *)p + 72};
    TL_TRY(check_raw(&r, TL_ERR_VENDOR_FILE, "attr image"));
    tl_rknn_tensor_attr a;
    memset(&a, 0, sizeof a);
    a.index = get_u32(p);
    a.n_dims = r.n_dims;
    for (int i = 0; i < TL_RKNN_MAX_DIMS; i++) a.dims[i] = get_u32(p + 8 + 4 * i);
    memcpy(a.name, p + 72, TL_RKNN_MAX_NAME_LEN);
    a.n_elems = get_u32(p + 328);
    a.size = get_u32(p + 332);
    a.fmt = (tl_rknn_tensor_format)r.fmt;
    a.type = (tl_rknn_tensor_type)r.type;
    a.qnt_type = (tl_rknn_tensor_qnt_type)r.qnt_type;
    a.fl = (int8_t)p[348];
    a.zp = (int32_t)get_u32(p + 352);
    uint32_t sb = get_u32(p + 356);
    memcpy(&a.scale, &sb, 4);
    a.w_stride = get_u32(p + 360);
    a.size_with_stride = get_u32(p + 364);
    a.pass_through = p[368];
    a.h_stride = get_u32(p + 372);
    *out = a;
    return TL_OK;
}

tl_status tl_rknn_attr_write(const tl_rknn_tensor_attr *a, void *buf, size_t len)
{
    if (!buf) return tl_fail(TL_ERR_NULL, "buffer is NULL");
    TL_TRY(tl_rknn_attr_check(a, TL_ERR_VENDOR));
    if (len < TL_RKNN_ATTR_SIZE)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu < %d bytes of rknn_tensor_attr (rknn)", len,
                       TL_RKNN_ATTR_SIZE);
    uint8_t img[TL_RKNN_ATTR_SIZE] = {0};
    put_u32(img, a->index);
    put_u32(img + 4, a->n_dims);
    for (int i = 0; i < TL_RKNN_MAX_DIMS; i++) put_u32(img + 8 + 4 * i, a->dims[i]);
    memcpy(img + 72, a->name, TL_RKNN_MAX_NAME_LEN);
    put_u32(img + 328, a->n_elems);
    put_u32(img + 332, a->size);
    put_u32(img + 336, (uint32_t)a->fmt);
    put_u32(img + 340, (uint32_t)a->type);
    put_u32(img + 344, (uint32_t)a->qnt_type);
    img[348] = (uint8_t)a->fl;
    put_u32(img + 352, (uint32_t)a->zp);
    uint32_t sb;
    memcpy(&sb, &a->scale, 4);
    put_u32(img + 356, sb);
    put_u32(img + 360, a->w_stride);
    put_u32(img + 364, a->size_with_stride);
    img[368] = a->pass_through;
    put_u32(img + 372, a->h_stride);
    memcpy(buf, img, sizeof img);
    return TL_OK;
}

/* ---- types ------------------------------------------------------------------- */
static const tl_dtype k_type_dtype[TL_RKNN_TENSOR_TYPE_LIMIT] = {
    [TL_RKNN_TENSOR_FLOAT32] = TL_F32, [TL_RKNN_TENSOR_FLOAT16] = TL_F16,
    [TL_RKNN_TENSOR_INT8] = TL_I8,     [TL_RKNN_TENSOR_UINT8] = TL_U8,
    [TL_RKNN_TENSOR_INT16] = TL_I16,   [TL_RKNN_TENSOR_UINT16] = TL_U16,
    [TL_RKNN_TENSOR_INT32] = TL_I32,   [TL_RKNN_TENSOR_UINT32] = TL_U32,
    [TL_RKNN_TENSOR_INT64] = TL_I64,   [TL_RKNN_TENSOR_BOOL] = TL_BOOL,
    [TL_RKNN_TENSOR_INT4] = TL_I4,     [TL_RKNN_TENSOR_BFLOAT16] = TL_BF16,
};

static const char *const k_type_names[TL_RKNN_TENSOR_TYPE_LIMIT] = {
    "FLOAT32", "FLOAT16", "INT8", "UINT8", "INT16", "UINT16",
    "INT32", "UINT32", "INT64", "BOOL", "INT4", "BFLOAT16",
};

const char *tl_rknn_type_name(uint32_t t)
{
    return t < TL_RKNN_TENSOR_TYPE_LIMIT ? k_type_names[t] : "?";
}

tl_status tl_rknn_type_to_dtype(tl_rknn_tensor_type t, tl_dtype *dt)
{
    if (!dt) return tl_fail(TL_ERR_NULL, "dtype is NULL");
    if ((uint32_t)t >= TL_RKNN_TENSOR_TYPE_LIMIT)
        return tl_fail(TL_ERR_VENDOR, "type=%u: must be 0..11 (FLOAT32 .. BFLOAT16) (rknn)", (unsigned)t);
    *dt = k_type_dtype[t];
    return TL_OK;
}

tl_status tl_rknn_dtype_to_type(tl_dtype dt, tl_rknn_tensor_type *t)
{
    if (!t) return tl_fail(TL_ERR_NULL, "type is NULL");
    for (int i = 0; i < TL_RKNN_TENSOR_TYPE_LIMIT; i++)
        if (k_type_dtype[i] == dt) {
            *t = (tl_rknn_tensor_type)i;
            return TL_OK;
        }
    return tl_fail(TL_ERR_DTYPE, "dtype %s: RKNN has no such tensor type (rknn)", tl_dtype_name(dt));
}

/* ---- platforms ---------------------------------------------------------------- */
typedef struct platform_info {
    const char *name;
    int64_t c2_int8, c2_f16, c2_i16; /* User Guide 1.5.2 Table 4-6 */
    int64_t zero_copy_align;         /* pixels, User Guide 1.5.2 §4.4.2.1 */
} platform_info;

static const platform_info k_platforms[] = {
    [TL_RKNN_PLATFORM_NONE] = {"?", 0, 0, 0, 0},
    [TL_RKNN_RK3566_RK3568] = {"RK3566/RK3568", 8, 4, 4, 8},
    [TL_RKNN_RK3588] = {"RK3588", 16, 8, 8, 16},
    [TL_RKNN_RV1106_RV1103] = {"RV1106/RV1103", 16, 8, 8, 16},
    [TL_RKNN_RK3562] = {"RK3562", 16, 8, 8, 16},
};
#define NPLATFORMS ((int)(sizeof k_platforms / sizeof k_platforms[0]))

static const struct {
    const char *name;
    tl_rknn_platform p;
} k_platform_names[] = {
    {"rk3566", TL_RKNN_RK3566_RK3568}, {"rk3568", TL_RKNN_RK3566_RK3568}, {"rk3588", TL_RKNN_RK3588},
    {"rv1106", TL_RKNN_RV1106_RV1103}, {"rv1103", TL_RKNN_RV1106_RV1103}, {"rk3562", TL_RKNN_RK3562},
};

const char *tl_rknn_platform_spec_name(tl_rknn_platform p)
{
    for (size_t i = 0; i < sizeof k_platform_names / sizeof k_platform_names[0]; i++)
        if (k_platform_names[i].p == p) return k_platform_names[i].name;
    return "?";
}

static tl_status platform_get(tl_rknn_platform p, const platform_info **info)
{
    if ((int)p <= TL_RKNN_PLATFORM_NONE || (int)p >= NPLATFORMS)
        return tl_fail(TL_ERR_VENDOR, "platform=%d: must be 1..%d (RK3566/RK3568, RK3588, RV1106/RV1103, "
                       "RK3562) (rknn)", (int)p, NPLATFORMS - 1);
    *info = &k_platforms[p];
    return TL_OK;
}

tl_status tl_rknn_platform_from_name(const char *name, tl_rknn_platform *p)
{
    if (!name || !p) return tl_fail(TL_ERR_NULL, "name or platform is NULL");
    char low[16];
    size_t n = strlen(name);
    for (size_t i = 0; i < n && i + 1 < sizeof low; i++) low[i] = (char)tolower((unsigned char)name[i]);
    low[n < sizeof low ? n : sizeof low - 1] = '\0';
    for (size_t i = 0; n < sizeof low && i < sizeof k_platform_names / sizeof k_platform_names[0]; i++)
        if (strcmp(low, k_platform_names[i].name) == 0) {
            *p = k_platform_names[i].p;
            return TL_OK;
        }
    return tl_fail(TL_ERR_VENDOR, "platform=%s: not one of rk3566 rk3568 rk3588 rv1106 rv1103 rk3562 (rknn)", name);
}

const char *tl_rknn_platform_name(tl_rknn_platform p)
{
    return (int)p > TL_RKNN_PLATFORM_NONE && (int)p < NPLATFORMS ? k_platforms[p].name : "?";
}

tl_status tl_rknn_c2(tl_rknn_platform p, tl_dtype dt, int64_t *c2)
{
    const platform_info *info = NULL;
    if (!c2) return tl_fail(TL_ERR_NULL, "c2 is NULL");
    TL_TRY(platform_get(p, &info));
    int64_t v = 0;
    if (dt == TL_I8 || dt == TL_U8) v = info->c2_int8;
    else if (dt == TL_F16) v = info->c2_f16;
    else if (dt == TL_I16) v = info->c2_i16;
    if (!v)
        return tl_fail(TL_ERR_VENDOR, "dtype %s on %s: Table 4-6 gives C2 for int8, float16 and int16 only (rknn)",
                       tl_dtype_name(dt), info->name);
    *c2 = v;
    return TL_OK;
}

tl_status tl_rknn_zero_copy_width(tl_rknn_platform p, int64_t width, int64_t *aligned)
{
    const platform_info *info = NULL;
    if (!aligned) return tl_fail(TL_ERR_NULL, "aligned is NULL");
    TL_TRY(platform_get(p, &info));
    int64_t r = 0;
    if (width < 1) return tl_fail(TL_ERR_DIM, "width=%lld: must be >= 1 (rknn)", (long long)width);
    if (!tl_rup_ok(width, info->zero_copy_align, &r))
        return tl_fail(TL_ERR_OVERFLOW, "width=%lld rounded up to %lld overflows int64 (rknn)", (long long)width,
                       (long long)info->zero_copy_align);
    *aligned = r;
    return TL_OK;
}

int64_t tl_rknn_platform_align(tl_rknn_platform p)
{
    return (int)p > TL_RKNN_PLATFORM_NONE && (int)p < NPLATFORMS ? k_platforms[p].zero_copy_align : 1;
}

/* Every value of a synthesized attr is a uint32 field. */
static tl_status fit_u32(const char *field, int64_t v, uint32_t *out)
{
    if (v < 0 || v > (int64_t)UINT32_MAX)
        return tl_fail(TL_ERR_OVERFLOW, "%s=%lld does not fit the uint32 field of rknn_tensor_attr (rknn)", field,
                       (long long)v);
    *out = (uint32_t)v;
    return TL_OK;
}

tl_status tl_rknn_native_attr_synth(tl_rknn_tensor_attr *out, tl_rknn_platform p, tl_dtype dt, int64_t n,
                                    int64_t c, int64_t h, int64_t w)
{
    int64_t c2 = 1, elems = 1, bits = 0;
    tl_rknn_tensor_type type = TL_RKNN_TENSOR_INT8;
    if (!out) return tl_fail(TL_ERR_NULL, "attr is NULL");
    TL_TRY(tl_rknn_c2(p, dt, &c2));
    TL_TRY(tl_rknn_dtype_to_type(dt, &type));
    const int64_t logical[4] = {n, c, h, w};
    for (int i = 0; i < 4; i++)
        if (logical[i] < 1)
            return tl_fail(TL_ERR_DIM, "%c=%lld: a dim must be >= 1 (rknn)", "NCHW"[i], (long long)logical[i]);
    const int64_t dims[5] = {n, (c - 1) / c2 + 1, h, w, c2}; /* cdiv without overflow */
    tl_rknn_tensor_attr a;
    memset(&a, 0, sizeof a);
    a.n_dims = 5;
    for (int i = 0; i < 5; i++) {
        TL_TRY(fit_u32("dims", dims[i], &a.dims[i]));
        if (!tl_mul_ok(elems, dims[i], &elems)) elems = -1;
    }
    if (elems < 0 || !tl_mul_ok(elems, (int64_t)tl_dtype_bits(dt), &bits))
        return tl_fail(TL_ERR_OVERFLOW, "native tensor size overflows int64 (rknn)");
    TL_TRY(fit_u32("n_elems", elems, &a.n_elems));
    TL_TRY(fit_u32("size", (bits - 1) / 8 + 1, &a.size));
    a.size_with_stride = a.size;
    a.w_stride = a.dims[3];
    a.fmt = TL_RKNN_TENSOR_NC1HWC2;
    a.type = type;
    a.qnt_type = TL_RKNN_TENSOR_QNT_NONE;
    *out = a;
    return TL_OK;
}
