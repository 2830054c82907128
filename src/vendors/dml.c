/* DirectML's model: buffer tensors (DML_BUFFER_TENSOR_DESC) <-> tl_desc.
 *
 * A DML tensor is Sizes in a fixed logical order plus Strides in elements;
 * everything physical (NHWC, row padding, broadcast) lives in the strides. So
 * a DML descriptor maps onto one block-1 axis per logical dim, in logical
 * order, with stride_bits = Strides[i] * element bits. The size rule is
 * DirectML's own (DMLCalcBufferTensorSize, checked before the core's span
 * rule so that a short buffer gets a DirectML-named message). Spec strings
 * (dml, dml.nchw, dml.nhwc), describe --json and explain: dml_spec.c. */
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/dml_internal.h"

/* ======================================================================== */
/* Element types                                                            */
/* ======================================================================== */

typedef struct dml_type {
    const char *name;
    tl_dtype dt;
} dml_type;

/* Indexed by the DML_TENSOR_DATA_TYPE value. */
static const dml_type k_types[] = {
    {"UNKNOWN", TL_DT_INVALID}, {"FLOAT32", TL_F32}, {"FLOAT16", TL_F16}, {"UINT32", TL_U32},
    {"UINT16", TL_U16},         {"UINT8", TL_U8},    {"INT32", TL_I32},   {"INT16", TL_I16},
    {"INT8", TL_I8},            {"FLOAT64", TL_F64}, {"UINT64", TL_U64},  {"INT64", TL_I64},
    {"UINT4", TL_U4},           {"INT4", TL_I4},
};
#define NTYPES (sizeof k_types / sizeof k_types[0])

const char *tl_dml_data_type_name(uint32_t t) { return t < NTYPES ? k_types[t].name : "?"; }

tl_dtype tl_dml_data_type_to_dtype(uint32_t t) { return t < NTYPES ? k_types[t].dt : TL_DT_INVALID; }

unsigned tl_dml_data_type_bits(uint32_t t) { return tl_dtype_bits(tl_dml_data_type_to_dtype(t)); }

tl_dml_data_type tl_dml_data_type_from_dtype(tl_dtype dt)
{
    for (uint32_t t = 1; t < NTYPES; t++)
        if (k_types[t].dt == dt) return (tl_dml_data_type)t;
    return TL_DML_TENSOR_DATA_TYPE_UNKNOWN;
}

/* ======================================================================== */
/* DMLCalcBufferTensorSize and CalculateStrides                             */
/* ======================================================================== */

/* DataType, DimensionCount and Sizes: the part every DirectML rule needs. */
static tl_status check_shape(uint32_t data_type, uint32_t n, const uint32_t *sizes)
{
    if (tl_dml_data_type_bits(data_type) == 0)
        return tl_fail(TL_ERR_DTYPE, "DataType=%u (%s): not a buffer element type, expected 1..13 "
                       "(FLOAT32..INT4) (DirectML)", data_type, tl_dml_data_type_name(data_type));
    if (n < 1 || n > DML_MAX)
        return tl_fail(TL_ERR_RANK, "DimensionCount=%u: must be 1..%d (DirectML)", n, DML_MAX);
    if (!sizes) return tl_fail(TL_ERR_NULL, "Sizes is NULL (DirectML)");
    for (uint32_t i = 0; i < n; i++)
        if (sizes[i] == 0)
            return tl_fail(TL_ERR_DIM, "Sizes[%u]=0: every size must be >= 1; the published "
                           "DMLCalcBufferTensorSize would wrap Sizes[i]-1 around (DirectML)", i);
    return TL_OK;
}

/* Elements from index 0 to the last one: last + 1 with strides, Π sizes without. */
tl_status tl_dml_element_span(uint32_t n, const uint32_t *sizes, const uint32_t *strides, int64_t *span)
{
    int64_t acc = strides ? 0 : 1, t;
    for (uint32_t i = 0; i < n; i++) {
        bool ok = strides ? tl_mul_ok((int64_t)sizes[i] - 1, strides[i], &t) && tl_add_ok(acc, t, &acc)
                          : tl_mul_ok(acc, sizes[i], &acc);
        if (!ok)
            return tl_fail(TL_ERR_OVERFLOW, "Sizes/Strides up to dim %u: the index of the last element "
                           "overflows 64 bits (DirectML)", i);
    }
    if (strides && !tl_add_ok(acc, 1, &acc))
        return tl_fail(TL_ERR_OVERFLOW, "the index of the last element + 1 overflows 64 bits (DirectML)");
    *span = acc;
    return TL_OK;
}

/* DMLCalcBufferTensorSize, bits-based (DirectMLX), 64-bit throughout. */
tl_status tl_dml_min_total(uint32_t data_type, uint32_t n, const uint32_t *sizes, const uint32_t *strides,
                          int64_t *bytes)
{
    int64_t span, bits, b;
    TL_TRY(check_shape(data_type, n, sizes));
    TL_TRY(tl_dml_element_span(n, sizes, strides, &span));
    if (!tl_mul_ok(span, tl_dml_data_type_bits(data_type), &bits))
        return tl_fail(TL_ERR_OVERFLOW, "%lld elements x %u bits overflows 64 bits (DirectML)",
                       (long long)span, tl_dml_data_type_bits(data_type));
    if (!tl_rup_ok(bits / 8 + (bits % 8 != 0), 4, &b))
        return tl_fail(TL_ERR_OVERFLOW, "%lld bits rounded up to 4 bytes overflows 64 bits (DirectML)",
                       (long long)bits);
    *bytes = b;
    return TL_OK;
}

tl_status tl_dml_buffer_tensor_size(uint32_t data_type, uint32_t n, const uint32_t *sizes,
                                    const uint32_t *strides, uint64_t *bytes)
{
    int64_t b = 0;
    if (!bytes) return tl_fail(TL_ERR_NULL, "bytes is NULL (DirectML)");
    TL_TRY(tl_dml_min_total(data_type, n, sizes, strides, &b));
    *bytes = (uint64_t)b;
    return TL_OK;
}

/* a*b, or INT64_MAX when that overflows (then it is too big for a UINT anyway). */
static int64_t sat_mul(int64_t a, int64_t b)
{
    int64_t r;
    return tl_mul_ok(a, b, &r) ? r : INT64_MAX;
}

/* Packed strides in logical order; eff[] are the sizes with broadcast dims as 1. */
static void strides_nchw(uint32_t n, const int64_t *eff, int64_t *st)
{
    int64_t acc = 1;
    for (int i = (int)n - 1; i >= 0; i--) {
        st[i] = acc;
        acc = sat_mul(acc, eff[i]);
    }
}

/* DirectMLX InterleavedChannel, any rank: dim 1 (C) innermost, then dims
 * n-1 .. 2 from the last inwards, then dim 0 (N) over all of them. Rank 1
 * is {1}; rank 2 {C, 1}, which is packed row-major. */
static void strides_nhwc(uint32_t n, const int64_t *eff, int64_t *st)
{
    int64_t acc = n >= 2 ? eff[1] : 1;
    if (n >= 2) st[1] = 1;
    for (int i = (int)n - 1; i >= 2; i--) {
        st[i] = acc;
        acc = sat_mul(acc, eff[i]);
    }
    st[0] = acc;
}

static tl_status check_calc_args(tl_dml_layout layout, uint32_t n, const uint32_t *sizes, uint32_t mask)
{
    if (layout != TL_DML_LAYOUT_NCHW && layout != TL_DML_LAYOUT_NHWC)
        return tl_fail(TL_ERR_VENDOR, "layout=%d: expected TL_DML_LAYOUT_NCHW (0) or TL_DML_LAYOUT_NHWC (1) "
                       "(DirectML)", (int)layout);
    if (n < 1 || n > DML_MAX)
        return tl_fail(TL_ERR_RANK, "DimensionCount=%u: must be 1..%d (DirectML)", n, DML_MAX);
    if (!sizes) return tl_fail(TL_ERR_NULL, "Sizes is NULL (DirectML)");
    for (uint32_t i = 0; i < n; i++)
        if (sizes[i] == 0)
            return tl_fail(TL_ERR_DIM, "Sizes[%u]=0: every size must be >= 1 (DirectML)", i);
    if ((mask >> n) != 0) /* n <= 8 */
        return tl_fail(TL_ERR_VENDOR, "broadcast mask 0x%x: bits beyond DimensionCount=%u (bit i "
                       "broadcasts Sizes[i]) (DirectML)", mask, n);
    return TL_OK;
}

tl_status tl_dml_calc_strides(tl_dml_layout layout, uint32_t n, const uint32_t *sizes, uint32_t mask,
                              uint32_t *strides)
{
    int64_t eff[DML_MAX] = {0}, st[DML_MAX] = {0};
    if (!strides) return tl_fail(TL_ERR_NULL, "strides is NULL (DirectML)");
    TL_TRY(check_calc_args(layout, n, sizes, mask));
    for (uint32_t i = 0; i < n; i++) eff[i] = (mask >> i & 1u) ? 1 : sizes[i];
    if (layout == TL_DML_LAYOUT_NCHW)
        strides_nchw(n, eff, st);
    else
        strides_nhwc(n, eff, st);
    for (uint32_t i = 0; i < n; i++) {
        if (mask >> i & 1u) st[i] = 0;
        if (st[i] > (int64_t)UINT32_MAX) /* INT64_MAX: saturated */
            return tl_fail(TL_ERR_VENDOR, "Strides[%u] = the product of the sizes inside it exceeds a UINT "
                           "(4294967295) (DirectML)", i);
    }
    for (uint32_t i = 0; i < n; i++) strides[i] = (uint32_t)st[i];
    return TL_OK;
}

/* ======================================================================== */
/* Validation (DML_BUFFER_TENSOR_DESC rules)                                       */
/* ======================================================================== */

static tl_status check_count(uint32_t n, const uint32_t *sizes)
{
    uint64_t count = 1;
    for (uint32_t i = 0; i < n; i++) {
        count *= sizes[i]; /* both < 2^32 while count stays below 2^32: no wrap */
        if (count > UINT32_MAX)
            return tl_fail(TL_ERR_VENDOR, "Sizes[0..%u] already hold %llu elements: a tensor has at most "
                           "2^32-1 = 4294967295 elements (DirectML)", i, (unsigned long long)count);
    }
    return TL_OK;
}

static tl_status check_align(const tl_dml_buffer_tensor_desc *m)
{
    uint32_t a = m->GuaranteedBaseOffsetAlignment;
    unsigned bits = tl_dml_data_type_bits(m->DataType);
    unsigned es = bits < 8 ? 1 : bits / 8;
    if (a == 0 || ((a & (a - 1)) == 0 && a >= es)) return TL_OK;
    return tl_fail(TL_ERR_VENDOR, "GuaranteedBaseOffsetAlignment=%u: must be 0 or a power of two >= the "
                   "%u-byte element size of %s (DirectML)", a, es, tl_dml_data_type_name(m->DataType));
}

tl_status tl_dml_validate(const tl_dml_buffer_tensor_desc *m)
{
    int64_t min;
    if (!m) return tl_fail(TL_ERR_NULL, "DML buffer tensor desc is NULL (DirectML)");
    TL_TRY(check_shape(m->DataType, m->DimensionCount, m->Sizes));
    if (m->Flags & ~TL_DML_TENSOR_FLAG_OWNED_BY_DML)
        return tl_fail(TL_ERR_VENDOR, "Flags=0x%x: only DML_TENSOR_FLAG_OWNED_BY_DML (0x1) is defined "
                       "(DirectML)", m->Flags);
    TL_TRY(check_count(m->DimensionCount, m->Sizes));
    TL_TRY(tl_dml_min_total(m->DataType, m->DimensionCount, m->Sizes, m->Strides, &min));
    if (m->TotalTensorSizeInBytes < (uint64_t)min)
        return tl_fail(TL_ERR_SIZE, "TotalTensorSizeInBytes=%llu < %lld bytes required by "
                       "DMLCalcBufferTensorSize (DirectML)",
                       (unsigned long long)m->TotalTensorSizeInBytes, (long long)min);
    return check_align(m);
}

/* ======================================================================== */
/* DML desc -> tl_desc                                                      */
/* ======================================================================== */

/* DirectML's fixed logical order for a rank, "" when the dims are unnamed. */
const char *tl_dml_labels(int n)
{
    return n == 3 ? "NCW" : n == 4 ? "NCHW" : n == 5 ? "NCDHW" : "";
}

/* Read-only when the strides broadcast or alias, as decided by the core's own
 * rules: a writable descriptor must pass tl_desc_validate without the flag. */
static tl_status settle_access(tl_desc *d)
{
    d->flags |= TL_DESC_READONLY;
    TL_TRY(tl_desc_validate(d));
    tl_desc w = *d;
    w.flags &= ~TL_DESC_READONLY;
    if (tl_desc_validate(&w) == TL_OK) d->flags = w.flags;
    tl_clear_error();
    return TL_OK;
}

static void fill_logical(tl_desc *d, const tl_dml_buffer_tensor_desc *m)
{
    const char *lab = tl_dml_labels((int)m->DimensionCount);
    d->rank = (int32_t)m->DimensionCount;
    d->dtype = tl_dml_data_type_to_dtype(m->DataType);
    for (int i = 0; i < d->rank; i++) d->dims[i] = m->Sizes[i];
    memcpy(d->labels, lab, strlen(lab)); /* ranks without names keep labels 0 */
}

tl_status tl_dml_import(tl_desc *out, const tl_dml_buffer_tensor_desc *m)
{
    uint32_t packed[DML_MAX];
    tl_desc d;
    if (!out) return tl_fail(TL_ERR_NULL, "output descriptor is NULL (DirectML)");
    TL_TRY(tl_dml_validate(m));
    if (m->TotalTensorSizeInBytes > (uint64_t)INT64_MAX)
        return tl_fail(TL_ERR_OVERFLOW, "TotalTensorSizeInBytes=%llu exceeds int64 (DirectML)",
                       (unsigned long long)m->TotalTensorSizeInBytes);
    const uint32_t *st = m->Strides;
    if (!st) { /* NULL = packed row-major in logical order */
        TL_TRY(tl_dml_calc_strides(TL_DML_LAYOUT_NCHW, m->DimensionCount, m->Sizes, 0, packed));
        st = packed;
    }
    tl_desc_clear(&d);
    fill_logical(&d, m);
    int64_t ebits = tl_dtype_bits((tl_dtype)d.dtype);
    tl_plane *p = &d.planes[0];
    p->naxes = d.rank;
    for (int i = 0; i < d.rank; i++)
        p->axes[i] = (tl_axis){.dim = i, .block = 1, .extent = d.dims[i], .stride_bits = st[i] * ebits};
    d.size_bytes = (int64_t)m->TotalTensorSizeInBytes;
    d.vendor = TL_VENDOR_DML;
    d.vendor_format = TL_DML_FORMAT_STRIDES;
    d.vendor_params[0] = m->DataType;
    d.vendor_params[1] = m->Flags;
    d.vendor_params[2] = m->GuaranteedBaseOffsetAlignment;
    TL_TRY(settle_access(&d));
    *out = d;
    return TL_OK;
}

/* ======================================================================== */
/* tl_desc -> DML desc                                                      */
/* ======================================================================== */

/* Plane, offset, padding and dtype: the parts with no DirectML equivalent. */
static tl_status check_exportable(const tl_desc *d)
{
    if (tl_dml_data_type_from_dtype((tl_dtype)d->dtype) == TL_DML_TENSOR_DATA_TYPE_UNKNOWN)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "dtype %s: DirectML has no such DML_TENSOR_DATA_TYPE "
                       "(DirectML)", tl_dtype_name((tl_dtype)d->dtype));
    if (d->rank > DML_MAX)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "rank=%d: DimensionCount is at most %d (DirectML)",
                       (int)d->rank, DML_MAX);
    if (d->nplanes != 1)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "nplanes=%d: a DML buffer tensor is one strided plane "
                       "(DirectML)", (int)d->nplanes);
    if (d->planes[0].offset_bytes != 0)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "plane offset=%lld bytes: a DML desc has no base offset; "
                       "bind the buffer at that offset instead (DirectML)",
                       (long long)d->planes[0].offset_bytes);
    for (int i = 0; i < d->rank; i++)
        if (d->pad_lo[i] != 0)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "pad_lo[%d]=%lld: padding before a dim moves element 0 "
                           "away from the buffer start, which DML strides cannot say (DirectML)", i,
                           (long long)d->pad_lo[i]);
    return TL_OK;
}

/* Stride of each tl dim in elements: its one block-1 axis, or 0 when a dim of
 * extent 1 has no axis at all. */
static tl_status export_strides(const tl_desc *d, int64_t *st)
{
    const tl_plane *p = &d->planes[0];
    int64_t ebits = tl_dtype_bits((tl_dtype)d->dtype);
    int count[TL_MAX_DIMS] = {0};
    for (int i = 0; i < d->rank; i++) st[i] = 0;
    for (int a = 0; a < p->naxes; a++) count[p->axes[a].dim]++;
    for (int i = 0; i < d->rank; i++)
        if (count[i] > 1)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "dim %d is stored by %d axes (a blocked layout): "
                           "DirectML gives each dim one stride (DirectML)", i, count[i]);
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        if (x->block != 1)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "axes[%d] stores dim %d in blocks of %lld (subsampled): "
                           "DirectML gives each dim one stride (DirectML)", a, (int)x->dim,
                           (long long)x->block);
        if (x->stride_bits % ebits)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "axes[%d].stride=%lld bits is not a whole number of "
                           "%lld-bit elements: DirectML strides count elements (DirectML)", a,
                           (long long)x->stride_bits, (long long)ebits);
        st[x->dim] = x->stride_bits / ebits;
        if (st[x->dim] > (int64_t)UINT32_MAX)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "dim %d: stride %lld elements does not fit a UINT "
                           "(DirectML)", (int)x->dim, (long long)st[x->dim]);
    }
    return TL_OK;
}

/* perm[k] = the tl dim that becomes DML dim k: by label when the labels are
 * exactly DirectML's for this rank, else by position. */
static void dml_order(const tl_desc *d, int *perm)
{
    const char *want = tl_dml_labels(d->rank);
    int p[DML_MAX];
    for (int k = 0; k < d->rank; k++) perm[k] = k;
    for (int k = 0; want[k]; k++) {
        const char *hit = memchr(d->labels, want[k], (size_t)d->rank);
        if (!hit) return;
        p[k] = (int)(hit - d->labels);
    }
    if (*want) memcpy(perm, p, sizeof(int) * (size_t)d->rank);
}

/* Flags and alignment travel only with a DirectML descriptor. */
static tl_status export_params(const tl_desc *d, tl_dml_buffer_tensor_desc *m)
{
    m->Flags = 0;
    m->GuaranteedBaseOffsetAlignment = 0;
    if (d->vendor != TL_VENDOR_DML) return TL_OK;
    for (int k = 1; k <= 2; k++)
        if (d->vendor_params[k] < 0 || d->vendor_params[k] > (int64_t)UINT32_MAX)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "vendor_params[%d]=%lld: Flags / "
                           "GuaranteedBaseOffsetAlignment must fit a UINT (DirectML)", k,
                           (long long)d->vendor_params[k]);
    m->Flags = (uint32_t)d->vendor_params[1];
    m->GuaranteedBaseOffsetAlignment = (uint32_t)d->vendor_params[2];
    return TL_OK;
}

/* Turn a DirectML rule failure into an export failure, keeping its message. */
static tl_status as_export_failure(tl_status s)
{
    char msg[512];
    if (s == TL_OK) return s;
    snprintf(msg, sizeof msg, "%s", tl_last_error());
    return tl_fail(TL_ERR_VENDOR_EXPORT, "cannot export: %s", msg);
}

static tl_status fill_export(const tl_desc *d, tl_dml_buffer_tensor_desc *m, uint32_t *sz, uint32_t *sr)
{
    int64_t st[TL_MAX_DIMS], min;
    int perm[DML_MAX];
    TL_TRY(check_exportable(d));
    TL_TRY(export_strides(d, st));
    dml_order(d, perm);
    for (int k = 0; k < d->rank; k++) {
        if (d->dims[perm[k]] > (int64_t)UINT32_MAX)
            return tl_fail(TL_ERR_VENDOR_EXPORT, "dims[%d]=%lld does not fit a UINT Sizes entry "
                           "(DirectML)", perm[k], (long long)d->dims[perm[k]]);
        sz[k] = (uint32_t)d->dims[perm[k]];
        sr[k] = (uint32_t)st[perm[k]];
    }
    m->DataType = tl_dml_data_type_from_dtype((tl_dtype)d->dtype);
    m->DimensionCount = (uint32_t)d->rank;
    m->Sizes = sz;
    m->Strides = sr;
    TL_TRY(export_params(d, m));
    TL_TRY(as_export_failure(tl_dml_min_total(m->DataType, m->DimensionCount, sz, sr, &min)));
    m->TotalTensorSizeInBytes = (uint64_t)(d->size_bytes > min ? d->size_bytes : min);
    return as_export_failure(tl_dml_validate(m));
}

tl_status tl_dml_export(const tl_desc *d, tl_dml_buffer_tensor_desc *out, uint32_t *sizes, uint32_t *strides)
{
    tl_dml_buffer_tensor_desc m;
    uint32_t sz[DML_MAX], sr[DML_MAX];
    if (!d || !out || !sizes || !strides)
        return tl_fail(TL_ERR_NULL, "descriptor, output desc, sizes or strides is NULL (DirectML)");
    TL_TRY(tl_desc_validate(d));
    TL_TRY(fill_export(d, &m, sz, sr));
    memcpy(sizes, sz, sizeof(uint32_t) * m.DimensionCount);
    memcpy(strides, sr, sizeof(uint32_t) * m.DimensionCount);
    m.Sizes = sizes;
    m.Strides = strides;
    *out = m;
    tl_clear_error();
    return TL_OK;
}
