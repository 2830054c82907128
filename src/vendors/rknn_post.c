/* RKNN post-processing helpers: the rknn-runtime crate's Nc1hwc2Layout done
 * right (docs/sources.md: the sample's batch and row bugs) and the quantized threshold.
 *
 * The view holds strides only; the per-channel offsets are a caller array so
 * any channel count works. The threshold is exact against the library's own
 * f32 dequantization, not against real arithmetic (docs/rknn.md). */
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/rknn_internal.h"

/* ---- the view ------------------------------------------------------------------ */
static int label_dim(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

/* The one block-1 axis of dim i holding its whole padded extent, or NULL. */
static const tl_axis *plain_axis(const tl_desc *d, int i)
{
    const tl_plane *p = &d->planes[0];
    const tl_axis *found = NULL;
    for (int a = 0; a < p->naxes; a++) {
        if (p->axes[a].dim != i) continue;
        if (found || p->axes[a].block != 1) return NULL;
        found = &p->axes[a];
    }
    return found;
}

static tl_status elems_of_bits(int64_t bits, int64_t ebits, const char *what, int64_t *out)
{
    if (bits % ebits != 0)
        return tl_fail(TL_ERR_UNSUPPORTED, "%s=%lld bits is not a whole number of %lld-bit elements: "
                       "the view indexes elements (rknn)", what, (long long)bits, (long long)ebits);
    *out = bits / ebits;
    return TL_OK;
}

/* dims index of N, C, H, W in out[0..3] after checking the view's conditions. */
static tl_status view_dims(const tl_desc *d, int out[4])
{
    TL_TRY(tl_desc_validate(d));
    tl_dtype dt = (tl_dtype)d->dtype;
    if (d->rank != 4)
        return tl_fail(TL_ERR_RANK, "rank=%d: the view needs 4 dims labelled N, C, H, W (rknn)", (int)d->rank);
    if (d->nplanes != 1)
        return tl_fail(TL_ERR_UNSUPPORTED, "nplanes=%d: the view needs one plane (rknn)", (int)d->nplanes);
    if (tl_dtype_bits(dt) % 8 != 0)
        return tl_fail(TL_ERR_DTYPE, "dtype %s: the view needs whole-byte elements (rknn)", tl_dtype_name(dt));
    for (int k = 0; k < 4; k++) {
        char l = "NCHW"[k];
        out[k] = label_dim(d, l);
        if (out[k] < 0) return tl_fail(TL_ERR_LABEL, "no dim labelled %c: the view needs N, C, H, W (rknn)", l);
        if (k != 1 && !plain_axis(d, out[k]))
            return tl_fail(TL_ERR_UNSUPPORTED, "dim %c is blocked or split over axes: the view needs plain N, H, W "
                           "axes (rknn)", l);
    }
    return TL_OK;
}

tl_status tl_rknn_view_init(tl_rknn_view *v, const tl_desc *d)
{
    int dim[4] = {0, 0, 0, 0};
    if (!v || !d) return tl_fail(TL_ERR_NULL, "view or descriptor is NULL");
    TL_TRY(view_dims(d, dim));
    int64_t ebits = tl_dtype_bits((tl_dtype)d->dtype);
    tl_rknn_view r;
    memset(&r, 0, sizeof r);
    r.n = d->dims[dim[0]], r.c = d->dims[dim[1]], r.h = d->dims[dim[2]], r.w = d->dims[dim[3]];
    TL_TRY(elems_of_bits(plain_axis(d, dim[0])->stride_bits, ebits, "N stride", &r.batch_stride));
    TL_TRY(elems_of_bits(plain_axis(d, dim[2])->stride_bits, ebits, "H stride", &r.row_stride));
    TL_TRY(elems_of_bits(plain_axis(d, dim[3])->stride_bits, ebits, "W stride", &r.pixel_stride));
    r.size_bytes = d->size_bytes;
    r.dtype = d->dtype;
    r.quant = d->quant;
    *v = r;
    return TL_OK;
}

tl_status tl_rknn_channel_offsets(const tl_desc *d, int64_t first, int64_t count, int64_t *out)
{
    int dim[4] = {0, 0, 0, 0};
    if (!d || !out) return tl_fail(TL_ERR_NULL, "descriptor or out is NULL");
    TL_TRY(view_dims(d, dim));
    int64_t C = d->dims[dim[1]], ebits = tl_dtype_bits((tl_dtype)d->dtype), x[4] = {0, 0, 0, 0};
    if (first < 0 || count < 0 || first > C || count > C - first)
        return tl_fail(TL_ERR_COORD, "channels [%lld, +%lld): must lie in [0, %lld) (rknn)", (long long)first,
                       (long long)count, (long long)C);
    for (int64_t i = 0; i < count; i++) { /* check all before writing any */
        x[dim[1]] = first + i;
        int64_t e = 0;
        TL_TRY(elems_of_bits(tl_desc_bit_offset_unchecked(d, x), ebits, "channel offset", &e));
    }
    for (int64_t i = 0; i < count; i++) {
        x[dim[1]] = first + i;
        out[i] = tl_desc_bit_offset_unchecked(d, x) / ebits;
    }
    return TL_OK;
}

float tl_rknn_dequant(const tl_rknn_view *v, int32_t code)
{
    return (float)tl_dequantize_value(&v->quant, code); /* an f32 value, widened exactly */
}

/* ---- the quantized threshold ------------------------------------------------------ */
static tl_status code_range(tl_dtype dt, int64_t *lo, int64_t *hi)
{
    switch (dt) {
    case TL_I8: *lo = INT8_MIN, *hi = INT8_MAX; return TL_OK;
    case TL_U8: *lo = 0, *hi = UINT8_MAX; return TL_OK;
    case TL_I16: *lo = INT16_MIN, *hi = INT16_MAX; return TL_OK;
    case TL_U16: *lo = 0, *hi = UINT16_MAX; return TL_OK;
    case TL_I4: *lo = -8, *hi = 7; return TL_OK;
    case TL_U4: *lo = 0, *hi = 15; return TL_OK;
    default:
        return tl_fail(TL_ERR_DTYPE, "dtype %s: the quantized threshold needs codes of i8 u8 i16 u16 i4 or u4",
                       tl_dtype_name(dt));
    }
}

/* The threshold exists only when dequantization never decreases with the code. */
static tl_status check_order(const tl_quant *q)
{
    switch (q->kind) {
    case TL_Q_NONE:
    case TL_Q_DFP: return TL_OK;
    case TL_Q_AFFINE:
        if (q->scale >= 0.0f && isfinite(q->scale)) return TL_OK;
        return tl_fail(TL_ERR_QUANT, "scale=%g: the quantized threshold needs a finite scale >= 0 (a negative scale "
                       "reverses the order of the codes)", (double)q->scale);
    case TL_Q_INV:
        if (q->scale > 0.0f && isfinite(q->scale)) return TL_OK;
        return tl_fail(TL_ERR_QUANT, "scale=%g: inverse-scale quantization needs a finite scale > 0",
                       (double)q->scale);
    default: return tl_fail(TL_ERR_QUANT, "quant.kind=%u: must be none, affine, inv or dfp", q->kind);
    }
}

/* First guess in real arithmetic; the caller corrects it against f32. */
static double estimate(const tl_quant *q, double t)
{
    switch (q->kind) {
    case TL_Q_AFFINE:
        if (q->scale == 0.0f) return t <= 0.0 ? -INFINITY : INFINITY; /* every code is 0.0 */
        return ceil(t / (double)q->scale + (double)q->zp);
    case TL_Q_INV: return ceil(t * (double)q->scale + (double)q->zp);
    case TL_Q_DFP: return ceil(ldexp(t, q->fl));
    default: return ceil(t);
    }
}

tl_status tl_rknn_quant_threshold(const tl_quant *q, tl_dtype dt, double t, int32_t *threshold)
{
    static const tl_quant none = {0};
    int64_t lo = 0, hi = 0;
    if (!threshold) return tl_fail(TL_ERR_NULL, "threshold is NULL");
    if (!q) q = &none;
    TL_TRY(code_range(dt, &lo, &hi));
    TL_TRY(check_order(q));
    if (isnan(t)) { /* NaN compares false: no code passes */
        *threshold = (int32_t)(hi + 1);
        return TL_OK;
    }
    double e = estimate(q, t);
    int64_t T = e != e || e > (double)hi ? hi + 1 : e < (double)lo ? lo : (int64_t)e;
    /* Dequantization is monotone (f32 rounding of a monotone map), so walking
     * from the guess to the boundary of {q : deq(q) >= t} is exact. */
    while (T > lo && tl_dequantize_value(q, T - 1) >= t) T--;
    while (T <= hi && !(tl_dequantize_value(q, T) >= t)) T++;
    *threshold = (int32_t)T;
    return TL_OK;
}

tl_status tl_rknn_threshold(const tl_desc *d, double t, int32_t *threshold)
{
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    TL_TRY(tl_desc_validate(d));
    return tl_rknn_quant_threshold(&d->quant, (tl_dtype)d->dtype, t, threshold);
}
