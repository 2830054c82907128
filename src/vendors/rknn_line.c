/* RKNN: the attr line every Rockchip demo prints (dump_tensor_attr in the
 * rknn_model_zoo and RKNPU2 examples) read back into a tl_rknn_tensor_attr,
 * and the size of the rknn_tensor_mem a zero-copy program creates for it.
 *
 * The demos print, with small variations between copies,
 *   index=0, name=output0, n_dims=4, dims=[1, 6, 80, 80, 16], n_elems=..., size=...,
 *   w_stride = 80, size_with_stride=..., fmt=NC1HWC2, type=INT8, qnt_type=AFFINE,
 *   zp=-128, scale=0.003922
 * using rknn_api.h's get_format_string / get_type_string / get_qnt_type_string.
 * Variants: "w_stride = N" with blanks, dims as "1,6,80,80,16," without
 * brackets, a log prefix before "index=", "name=%-8s ::", h_stride= or no
 * w_stride at all. Every KEY=VALUE is found by its key at a word start. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vendors/rknn_internal.h"

static const char *const k_keys[] = {"index", "name", "n_dims", "dims", "n_elems", "size", "w_stride",
                                     "h_stride", "size_with_stride", "fmt", "type", "qnt_type", "zp", "scale",
                                     "fl", "pass_through"};
enum { K_INDEX, K_NAME, K_NDIMS, K_DIMS, K_NELEMS, K_SIZE, K_WSTRIDE, K_HSTRIDE, K_SWS, K_FMT, K_TYPE, K_QNT,
       K_ZP, K_SCALE, K_FL, K_PASS, K_COUNT };

/* Where KEY's value starts if text[i..] is "KEY =" at a word start; NULL otherwise. */
static const char *key_at(const char *line, size_t i, int k)
{
    size_t n = strlen(k_keys[k]);
    if (i > 0 && (isalnum((unsigned char)line[i - 1]) || line[i - 1] == '_')) return NULL;
    if (strncmp(line + i, k_keys[k], n) != 0) return NULL;
    const char *p = line + i + n;
    while (*p == ' ') p++;
    if (*p != '=') return NULL;
    for (p++; *p == ' ';) p++;
    return p;
}

/* Every key's value span: from after '=' to the next ", KEY=" (or the end). */
typedef struct span {
    const char *at;
    size_t len;
} span;

static tl_status find_values(const char *line, span *v)
{
    size_t n = strlen(line);
    const char *starts[K_COUNT] = {0};
    size_t keypos[K_COUNT];
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < K_COUNT; k++) {
            const char *p = key_at(line, i, k);
            if (!p) continue;
            if (starts[k] && k != K_NAME)
                return tl_fail(TL_ERR_VENDOR_FILE, "%s= appears twice in the attr line (rknn)", k_keys[k]);
            if (!starts[k]) {
                starts[k] = p;
                keypos[k] = i;
            }
        }
    for (int k = 0; k < K_COUNT; k++) {
        v[k].at = starts[k];
        if (!starts[k]) continue;
        size_t end = n;
        for (int j = 0; j < K_COUNT; j++) /* the nearest key after this value */
            if (starts[j] && keypos[j] > (size_t)(starts[k] - line) && keypos[j] < end) end = keypos[j];
        const char *e = line + end;
        while (e > starts[k] && (e[-1] == ' ' || e[-1] == ',' || e[-1] == '\n' || e[-1] == '\r' || e[-1] == ':'))
            e--;
        v[k].len = (size_t)(e - starts[k]);
    }
    return TL_OK;
}

static tl_status value_i64(const span *s, int k, int64_t lo, int64_t hi, int64_t *out)
{
    char buf[32], *end;
    if (s->len == 0 || s->len >= sizeof buf)
        return tl_fail(TL_ERR_VENDOR_FILE, "%s=%.*s: expected an integer (rknn)", k_keys[k], (int)s->len, s->at);
    memcpy(buf, s->at, s->len);
    buf[s->len] = '\0';
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (*end || errno || v < lo || v > hi)
        return tl_fail(TL_ERR_VENDOR_FILE, "%s=%s: expected an integer in %lld..%lld (rknn)", k_keys[k], buf,
                       (long long)lo, (long long)hi);
    *out = v;
    return TL_OK;
}

/* A printed enum name back to its value (names of rknn_api.h's get_*_string). */
static tl_status value_enum(const span *s, int k, const char *const *names, int n, uint32_t *out)
{
    for (int i = 0; i < n; i++)
        if (names[i] && strlen(names[i]) == s->len && strncmp(s->at, names[i], s->len) == 0) {
            *out = (uint32_t)i;
            return TL_OK;
        }
    return tl_fail(TL_ERR_VENDOR_FILE, "%s=%.*s: not a name rknn_api.h prints for %s (rknn)", k_keys[k],
                   (int)s->len, s->at, k_keys[k]);
}

/* "[1, 6, 80, 80, 16]" or "1,6,80,80,16,". */
static tl_status value_dims(const span *s, tl_rknn_tensor_attr *a)
{
    const char *p = s->at, *end = s->at + s->len;
    a->n_dims = 0;
    while (p < end) {
        if (*p == '[' || *p == ']' || *p == ',' || *p == ' ') {
            p++;
            continue;
        }
        char *q;
        errno = 0;
        unsigned long long v = strtoull(p, &q, 10);
        if (q == p || q > end || errno || v > UINT32_MAX || !isdigit((unsigned char)*p))
            return tl_fail(TL_ERR_VENDOR_FILE, "dims=%.*s: expected unsigned integers like [1, 6, 80, 80, 16] (rknn)",
                           (int)s->len, s->at);
        if (a->n_dims == TL_RKNN_MAX_DIMS)
            return tl_fail(TL_ERR_VENDOR_FILE, "dims=%.*s: more than %d dims (RKNN_MAX_DIMS) (rknn)", (int)s->len,
                           s->at, TL_RKNN_MAX_DIMS);
        a->dims[a->n_dims++] = (uint32_t)v;
        p = q;
    }
    if (!a->n_dims) return tl_fail(TL_ERR_VENDOR_FILE, "dims=%.*s: no dims (rknn)", (int)s->len, s->at);
    return TL_OK;
}

static tl_status value_scale(const span *s, float *out)
{
    char buf[64], *end;
    if (s->len == 0 || s->len >= sizeof buf)
        return tl_fail(TL_ERR_VENDOR_FILE, "scale=%.*s: expected a number (rknn)", (int)s->len, s->at);
    memcpy(buf, s->at, s->len);
    buf[s->len] = '\0';
    float v = strtof(buf, &end);
    if (*end || !isfinite(v)) return tl_fail(TL_ERR_VENDOR_FILE, "scale=%s: expected a finite number (rknn)", buf);
    *out = v;
    return TL_OK;
}

static const char *const k_fmt_print[] = {"NCHW", "NHWC", "NC1HWC2", "UNDEFINED"};
static const char *const k_type_print[] = {"FP32",  "FP16",  "INT8",  "UINT8", "INT16", "UINT16",
                                           "INT32", "UINT32", "INT64", "BOOL",  "INT4",  "BF16"};
static const char *const k_qnt_print[] = {"NONE", "DFP", "AFFINE"};

static tl_status optional_u32(const span *v, int k, uint32_t *out)
{
    int64_t x = 0;
    if (!v[k].at) return TL_OK;
    TL_TRY(value_i64(&v[k], k, 0, UINT32_MAX, &x));
    *out = (uint32_t)x;
    return TL_OK;
}

static tl_status fill_numbers(const span *v, tl_rknn_tensor_attr *a)
{
    int64_t x = 0;
    TL_TRY(optional_u32(v, K_INDEX, &a->index));
    TL_TRY(optional_u32(v, K_NELEMS, &a->n_elems));
    TL_TRY(optional_u32(v, K_SIZE, &a->size));
    TL_TRY(optional_u32(v, K_WSTRIDE, &a->w_stride));
    TL_TRY(optional_u32(v, K_HSTRIDE, &a->h_stride));
    TL_TRY(optional_u32(v, K_SWS, &a->size_with_stride));
    if (v[K_ZP].at) {
        TL_TRY(value_i64(&v[K_ZP], K_ZP, INT32_MIN, INT32_MAX, &x));
        a->zp = (int32_t)x;
    }
    if (v[K_FL].at) {
        TL_TRY(value_i64(&v[K_FL], K_FL, INT8_MIN, INT8_MAX, &x));
        a->fl = (int8_t)x;
    }
    if (v[K_PASS].at) {
        TL_TRY(value_i64(&v[K_PASS], K_PASS, 0, 1, &x));
        a->pass_through = (uint8_t)x;
    }
    if (v[K_SCALE].at) TL_TRY(value_scale(&v[K_SCALE], &a->scale));
    return TL_OK;
}

/* n_elems, when printed, must be the product of the dims (the runtime's own
 * count). n_dims is only range-checked: the dims list is what the buffer
 * has, and lines pasted into reports often carry an n_dims edited apart from
 * it (n_dims=4 beside five NC1HWC2 dims). */
static tl_status check_counts(const span *v, const tl_rknn_tensor_attr *a)
{
    int64_t nd = 0;
    if (v[K_NDIMS].at) TL_TRY(value_i64(&v[K_NDIMS], K_NDIMS, 0, TL_RKNN_MAX_DIMS, &nd));
    uint64_t prod = 1;
    for (uint32_t i = 0; i < a->n_dims && prod <= UINT32_MAX; i++) prod *= a->dims[i];
    if (v[K_NELEMS].at && prod > UINT32_MAX)
        return tl_fail(TL_ERR_VENDOR_FILE, "n_elems=%u but the dims multiply to more than 4294967295 (rknn)",
                       a->n_elems);
    if (v[K_NELEMS].at && prod != a->n_elems)
        return tl_fail(TL_ERR_VENDOR_FILE, "n_elems=%u but the dims multiply to %llu (rknn)", a->n_elems,
                       (unsigned long long)prod);
    return TL_OK;
}

tl_status tl_rknn_attr_parse_line(tl_rknn_tensor_attr *out, const char *line)
{
    span v[K_COUNT];
    tl_rknn_tensor_attr a;
    uint32_t e = 0;
    if (!out || !line) return tl_fail(TL_ERR_NULL, "attr or line is NULL");
    memset(&a, 0, sizeof a);
    TL_TRY(find_values(line, v));
    static const int required[] = {K_DIMS, K_FMT, K_TYPE};
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!v[required[i]].at)
            return tl_fail(TL_ERR_VENDOR_FILE, "no %s= in the attr line: paste the whole line dump_tensor_attr "
                           "prints (index=..., dims=[...], ..., fmt=..., type=..., qnt_type=...) (rknn)",
                           k_keys[required[i]]);
    TL_TRY(value_dims(&v[K_DIMS], &a));
    TL_TRY(value_enum(&v[K_FMT], K_FMT, k_fmt_print, 4, &e));
    a.fmt = (tl_rknn_tensor_format)e;
    TL_TRY(value_enum(&v[K_TYPE], K_TYPE, k_type_print, TL_RKNN_TENSOR_TYPE_LIMIT, &e));
    a.type = (tl_rknn_tensor_type)e;
    e = 0;
    if (v[K_QNT].at) TL_TRY(value_enum(&v[K_QNT], K_QNT, k_qnt_print, 3, &e));
    a.qnt_type = (tl_rknn_tensor_qnt_type)e;
    TL_TRY(fill_numbers(v, &a));
    TL_TRY(check_counts(v, &a));
    if (v[K_NAME].at) {
        size_t n = v[K_NAME].len < TL_RKNN_MAX_NAME_LEN - 1 ? v[K_NAME].len : TL_RKNN_MAX_NAME_LEN - 1;
        memcpy(a.name, v[K_NAME].at, n);
        while (n > 0 && a.name[n - 1] == ' ') a.name[--n] = '\0'; /* "%-8s" padding */
    }
    TL_TRY(tl_rknn_attr_check(&a, TL_ERR_VENDOR_FILE));
    *out = a;
    return TL_OK;
}

/* ---- rknn_tensor_mem ------------------------------------------------------------------ */

tl_status tl_rknn_mem_size(const tl_rknn_tensor_attr *native, const tl_desc *d, uint32_t *bytes)
{
    if (!bytes) return tl_fail(TL_ERR_NULL, "bytes is NULL");
    if (!native && !d) return tl_fail(TL_ERR_NULL, "attr and descriptor are both NULL: give one of them");
    if (d) TL_TRY(tl_desc_validate(d));
    uint64_t need = d ? (uint64_t)d->size_bytes : 0;
    uint32_t s = !native ? 0 : native->size_with_stride ? native->size_with_stride : native->size;
    if (s == 0 && need == 0)
        return tl_fail(TL_ERR_VENDOR, "size_with_stride=0 and size=0: nothing says how large the buffer is; pass "
                       "the descriptor (rknn)");
    if (need > UINT32_MAX)
        return tl_fail(TL_ERR_VENDOR, "size=%llu bytes >= 4 GiB does not fit rknn_create_mem's uint32_t size: use "
                       "rknn_create_mem2 (uint64_t size) or split the tensor (rknn)", (unsigned long long)need);
    *bytes = s > need ? s : (uint32_t)need;
    tl_clear_error();
    return TL_OK;
}
