/* The descriptor model: validation, size, offsets, padding.
 *
 * Everything here works on the generic model only (dims, pads, planes of
 * axes); no format is special-cased. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

void tl_desc_clear(tl_desc *d)
{
    memset(d, 0, sizeof *d);
    d->plane_dim = -1;
    d->nplanes = 1;
}

/* "C" for a labelled dim, "dims[2]" otherwise (for messages). */
static const char *dim_name(const tl_desc *d, int i, char buf[24])
{
    if (i >= 0 && i < TL_MAX_DIMS && d->labels[i])
        snprintf(buf, 24, "%c", d->labels[i]);
    else
        snprintf(buf, 24, "dims[%d]", i);
    return buf;
}

/* Extent of dim i as seen inside plane p (padded; the plane dim is local). */
static int64_t plane_extent(const tl_desc *d, const tl_plane *p, int i)
{
    if (d->nplanes > 1 && i == d->plane_dim) return p->count;
    return tl_padded_dim(d, i);
}

static tl_status check_logical(const tl_desc *d)
{
    char nb[24];
    if (d->rank < 1 || d->rank > TL_MAX_DIMS)
        return tl_fail(TL_ERR_RANK, "rank=%d: must be 1..%d", (int)d->rank, TL_MAX_DIMS);
    if (tl_dtype_bits((tl_dtype)d->dtype) == 0)
        return tl_fail(TL_ERR_DTYPE, "dtype=%d: not a tl_dtype", (int)d->dtype);
    for (int i = 0; i < d->rank; i++) {
        if (d->dims[i] < 1)
            return tl_fail(TL_ERR_DIM, "%s=%lld: a dim must be >= 1", dim_name(d, i, nb),
                           (long long)d->dims[i]);
        if (d->pad_lo[i] < 0 || d->pad_hi[i] < 0)
            return tl_fail(TL_ERR_PAD, "pad of %s=(%lld,%lld): padding must be >= 0",
                           dim_name(d, i, nb), (long long)d->pad_lo[i], (long long)d->pad_hi[i]);
        int64_t t;
        if (!tl_add_ok(d->dims[i], d->pad_lo[i], &t) || !tl_add_ok(t, d->pad_hi[i], &t))
            return tl_fail(TL_ERR_OVERFLOW, "%s=%lld with padding overflows int64",
                           dim_name(d, i, nb), (long long)d->dims[i]);
        char l = d->labels[i];
        if (l != 0 && (l < 'A' || l > 'Z'))
            return tl_fail(TL_ERR_LABEL, "labels[%d]=0x%02x: a label is a letter A-Z or 0", i,
                           (unsigned)(unsigned char)l);
        for (int j = 0; j < i; j++)
            if (l != 0 && d->labels[j] == l)
                return tl_fail(TL_ERR_LABEL, "label %c is used by dims %d and %d: labels must be unique", l, j, i);
    }
    return TL_OK;
}

static tl_status check_quant(const tl_desc *d)
{
    const tl_quant *q = &d->quant;
    if (q->round > TL_ROUND_ZERO)
        return tl_fail(TL_ERR_QUANT, "quant.round=%u: must be even, away or zero", q->round);
    if (q->dequant > TL_DEQ_DIVIDE)
        return tl_fail(TL_ERR_QUANT, "quant.dequant=%u: must be 0 (reciprocal) or 1 (divide)", q->dequant);
    if (q->dequant != TL_DEQ_RECIPROCAL && q->kind != TL_Q_INV)
        return tl_fail(TL_ERR_QUANT, "dequant=divide with quantization kind %u: only inverse-scale quantization "
                       "(q=inv) divides; leave dequant at 0 (reciprocal)", q->kind);
    switch (q->kind) {
    case TL_Q_NONE:
        /* signbit: a -0 scale would print as nothing and parse back as +0 */
        if (q->zp != 0 || q->fl != 0 || q->scale != 0.0f || signbit(q->scale))
            return tl_fail(TL_ERR_QUANT, "zp/scale/fl set without a quantization kind (q=)");
        return TL_OK;
    case TL_Q_AFFINE:
    case TL_Q_INV:
        if (!(q->scale > 0.0f) || q->scale > 3.4e38f)
            return tl_fail(TL_ERR_QUANT, "scale=%g: %s quantization needs a finite scale > 0",
                           (double)q->scale, q->kind == TL_Q_AFFINE ? "affine" : "inverse-scale");
        if (q->fl != 0) return tl_fail(TL_ERR_QUANT, "fl=%d: only DFP quantization has fl", q->fl);
        break;
    case TL_Q_DFP:
        if (q->zp != 0 || q->scale != 0.0f || signbit(q->scale))
            return tl_fail(TL_ERR_QUANT, "DFP quantization (real = q*2^-fl) has no zp or scale");
        break;
    default:
        return tl_fail(TL_ERR_QUANT, "quant.kind=%u: must be none, affine, inv or dfp", q->kind);
    }
    tl_dtype t = (tl_dtype)d->dtype;
    if (t == TL_F16 || t == TL_BF16 || t == TL_F32 || t == TL_F64 || t == TL_BOOL)
        return tl_fail(TL_ERR_QUANT, "dtype %s cannot be quantized: quantization needs an integer dtype",
                       tl_dtype_name(t));
    return TL_OK;
}

static tl_status check_plane_ranges(const tl_desc *d)
{
    if (d->nplanes < 1 || d->nplanes > TL_MAX_PLANES)
        return tl_fail(TL_ERR_PLANE, "nplanes=%d: must be 1..%d", (int)d->nplanes, TL_MAX_PLANES);
    if (d->nplanes == 1) return TL_OK;
    int pd = d->plane_dim;
    if (pd < 0 || pd >= d->rank)
        return tl_fail(TL_ERR_PLANE, "plane_dim=%d: must name a dim (0..%d) when nplanes=%d", pd,
                       (int)d->rank - 1, (int)d->nplanes);
    if (d->pad_lo[pd] || d->pad_hi[pd])
        return tl_fail(TL_ERR_PLANE, "the plane dim %d cannot be padded", pd);
    int64_t next = 0;
    for (int k = 0; k < d->nplanes; k++) {
        const tl_plane *p = &d->planes[k];
        if (p->first != next || p->count < 1 || p->count > d->dims[pd] - next)
            return tl_fail(TL_ERR_PLANE, "planes[%d] covers [%lld,+%lld): planes must tile dim %d in order from 0",
                           k, (long long)p->first, (long long)p->count, pd);
        next = p->first + p->count;
    }
    if (next != d->dims[pd])
        return tl_fail(TL_ERR_PLANE, "planes cover %lld of dim %d=%lld: they must cover it all",
                       (long long)next, pd, (long long)d->dims[pd]);
    return TL_OK;
}

static tl_status check_axes(const tl_desc *d, int k)
{
    const tl_plane *p = &d->planes[k];
    unsigned ebits = tl_dtype_bits((tl_dtype)d->dtype);
    unsigned gran = ebits < 8 ? ebits : 8;
    if (p->naxes < 1 || p->naxes > TL_MAX_AXES)
        return tl_fail(TL_ERR_AXIS, "planes[%d].naxes=%d: must be 1..%d", k, (int)p->naxes, TL_MAX_AXES);
    if (p->offset_bytes < 0)
        return tl_fail(TL_ERR_PLANE, "planes[%d].offset=%lld: must be >= 0", k, (long long)p->offset_bytes);
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        if (x->dim < 0 || x->dim >= d->rank)
            return tl_fail(TL_ERR_AXIS, "axes[%d].dim=%d: must be 0..%d", a, (int)x->dim, (int)d->rank - 1);
        if (x->block < 1)
            return tl_fail(TL_ERR_AXIS, "axes[%d].block=%lld: a block must be >= 1", a, (long long)x->block);
        if (x->extent < 1)
            return tl_fail(TL_ERR_AXIS, "axes[%d].extent=%lld: an extent must be >= 1", a, (long long)x->extent);
        if (x->stride_bits < 0)
            return tl_fail(TL_ERR_STRIDE, "axes[%d].stride=%lld bits: strides must be >= 0", a,
                           (long long)x->stride_bits);
        if (x->stride_bits % gran)
            return tl_fail(TL_ERR_STRIDE, "axes[%d].stride=%lld bits: must be a multiple of %u bits for %s",
                           a, (long long)x->stride_bits, gran, tl_dtype_name((tl_dtype)d->dtype));
        if (x->stride_bits == 0 && x->extent > 1 && !(d->flags & TL_DESC_READONLY))
            return tl_fail(TL_ERR_READONLY, "axes[%d].stride=0 (broadcast): only a read-only descriptor may broadcast", a);
    }
    return TL_OK;
}

/* The axes of each dim must nest: sorted by block, each block is the one
 * below times its extent, and the top one spans the padded extent. */
static tl_status check_coverage(const tl_desc *d, int k)
{
    const tl_plane *p = &d->planes[k];
    char nb[24];
    for (int i = 0; i < d->rank; i++) {
        const tl_axis *ax[TL_MAX_AXES];
        int n = 0;
        for (int a = 0; a < p->naxes; a++)
            if (p->axes[a].dim == i) ax[n++] = &p->axes[a];
        int64_t P = plane_extent(d, p, i);
        if (n == 0) {
            if (P != 1)
                return tl_fail(TL_ERR_AXIS, "planes[%d]: no axis stores %s (extent %lld)", k,
                               dim_name(d, i, nb), (long long)P);
            continue;
        }
        for (int s = 1; s < n; s++) /* insertion sort by block */
            for (int t = s; t > 0 && ax[t]->block < ax[t - 1]->block; t--) {
                const tl_axis *tmp = ax[t]; ax[t] = ax[t - 1]; ax[t - 1] = tmp;
            }
        for (int s = 0; s + 1 < n; s++) {
            int64_t want;
            if (!tl_mul_ok(ax[s]->block, ax[s]->extent, &want) || ax[s + 1]->block != want)
                return tl_fail(TL_ERR_AXIS, "axes of %s do not nest: block %lld x extent %lld != next block %lld",
                               dim_name(d, i, nb), (long long)ax[s]->block, (long long)ax[s]->extent,
                               (long long)ax[s + 1]->block);
        }
        const tl_axis *top = ax[n - 1];
        bool full = ax[0]->block == 1;
        int64_t span;
        bool ok = full ? (tl_mul_ok(top->block, top->extent, &span) && span == P)
                       : top->extent == P / top->block + (P % top->block != 0); /* cdiv, no overflow */
        if (!ok)
            return tl_fail(TL_ERR_AXIS, "outer axis of %s: block %lld x extent %lld must %s padded extent %lld",
                           dim_name(d, i, nb), (long long)top->block, (long long)top->extent,
                           full ? "equal the" : "cover the", (long long)P);
    }
    return TL_OK;
}

/* Bits from the plane origin to the end of its furthest element. */
static tl_status plane_span_bits(const tl_desc *d, const tl_plane *p, int64_t *bits)
{
    int64_t acc = tl_dtype_bits((tl_dtype)d->dtype), t;
    for (int a = 0; a < p->naxes; a++) {
        if (!tl_mul_ok(p->axes[a].extent - 1, p->axes[a].stride_bits, &t) || !tl_add_ok(acc, t, &acc))
            return tl_fail(TL_ERR_OVERFLOW, "axes[%d]: extent %lld x stride %lld bits overflows int64", a,
                           (long long)p->axes[a].extent, (long long)p->axes[a].stride_bits);
    }
    *bits = acc;
    return TL_OK;
}

static tl_status plane_end_bytes(const tl_desc *d, const tl_plane *p, int64_t *end)
{
    int64_t bits = 0, off;
    TL_TRY(plane_span_bits(d, p, &bits));
    if (!tl_mul_ok(p->offset_bytes, 8, &off) || !tl_add_ok(off, bits, &off) || !tl_add_ok(off, 7, &off))
        return tl_fail(TL_ERR_OVERFLOW, "plane offset %lld + span overflows int64", (long long)p->offset_bytes);
    *end = off / 8;
    return TL_OK;
}

/* Sufficient non-overlap test: sorted by stride, each stride clears the span
 * of every smaller axis. */
static tl_status check_axes_disjoint(const tl_desc *d, const tl_axis *axes, int naxes)
{
    const tl_axis *ax[TL_MAX_AXES + 1];
    int n = 0;
    for (int a = 0; a < naxes; a++)
        if (axes[a].extent > 1) ax[n++] = &axes[a];
    for (int s = 1; s < n; s++)
        for (int t = s; t > 0 && ax[t]->stride_bits < ax[t - 1]->stride_bits; t--) {
            const tl_axis *tmp = ax[t]; ax[t] = ax[t - 1]; ax[t - 1] = tmp;
        }
    int64_t span = tl_dtype_bits((tl_dtype)d->dtype);
    for (int s = 0; s < n; s++) {
        if (ax[s]->stride_bits < span)
            return tl_fail(TL_ERR_ALIAS, "stride %lld bits of the axis over dim %d < %lld bits spanned by the axes inside it: elements would share bytes",
                           (long long)ax[s]->stride_bits, (int)ax[s]->dim, (long long)span);
        span += (ax[s]->extent - 1) * ax[s]->stride_bits; /* fits: plane_span_bits passed */
    }
    return TL_OK;
}

static tl_status check_no_alias(const tl_desc *d, int k)
{
    return check_axes_disjoint(d, d->planes[k].axes, d->planes[k].naxes);
}

static bool same_axes(const tl_plane *a, const tl_plane *b)
{
    if (a->naxes != b->naxes) return false;
    for (int i = 0; i < a->naxes; i++)
        if (a->axes[i].extent != b->axes[i].extent || a->axes[i].stride_bits != b->axes[i].stride_bits)
            return false;
    return true;
}

/* Planes may not share bytes, except interleaved component planes (NV12's U
 * and V): identical axes whose union, one more axis of extent 2 stepping from
 * one offset to the other, is itself free of aliasing. */
static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) { int64_t t = a % b; a = b, b = t; }
    return a;
}

/* Planes of whole-byte elements that interleave byte by byte (packed YUYV:
 * Y at even bytes, U and V at odd ones): every byte offset of a plane is its
 * offset plus a multiple of g, the gcd of all strides of both, so the planes
 * share no byte when their elements' residues modulo g do not meet. */
static bool interleaved_by_residue(const tl_desc *d, const tl_plane *pa, const tl_plane *pb)
{
    int64_t es = tl_dtype_bits((tl_dtype)d->dtype);
    if (es % 8) return false;
    es /= 8;
    int64_t g = 0;
    const tl_plane *pl[2] = {pa, pb};
    for (int k = 0; k < 2; k++)
        for (int a = 0; a < pl[k]->naxes; a++) {
            if (pl[k]->axes[a].extent <= 1) continue;
            if (pl[k]->axes[a].stride_bits % 8) return false;
            g = gcd64(g, llabs(pl[k]->axes[a].stride_bits / 8));
        }
    if (g == 0) return false;
    int64_t ra = pa->offset_bytes % g, rb = pb->offset_bytes % g;
    int64_t gap = rb >= ra ? rb - ra : ra - rb; /* residue intervals [r, r + es) on a circle of g */
    return gap >= es && g - gap >= es;
}

static tl_status check_planes_disjoint(const tl_desc *d)
{
    for (int a = 0; a < d->nplanes; a++)
        for (int b = a + 1; b < d->nplanes; b++) {
            const tl_plane *pa = &d->planes[a], *pb = &d->planes[b];
            int64_t ea = 0, eb = 0;
            TL_TRY(plane_end_bytes(d, pa, &ea));
            TL_TRY(plane_end_bytes(d, pb, &eb));
            if (ea <= pb->offset_bytes || eb <= pa->offset_bytes) continue;
            if (interleaved_by_residue(d, pa, pb)) continue;
            if (same_axes(pa, pb) && pa->naxes < TL_MAX_AXES) {
                tl_axis u[TL_MAX_AXES + 1];
                memcpy(u, pa->axes, sizeof(tl_axis) * (size_t)pa->naxes);
                u[pa->naxes] = (tl_axis){.dim = -1, .block = 1, .extent = 2,
                                         .stride_bits = llabs(pa->offset_bytes - pb->offset_bytes) * 8};
                if (check_axes_disjoint(d, u, pa->naxes + 1) == TL_OK) continue;
            }
            return tl_fail(TL_ERR_PLANE, "planes[%d] (offset %lld) and planes[%d] (offset %lld) overlap", a,
                           (long long)pa->offset_bytes, b, (long long)pb->offset_bytes);
        }
    return TL_OK;
}

static tl_status required_bytes(const tl_desc *d, int64_t *bytes)
{
    int64_t need = 0;
    for (int k = 0; k < d->nplanes; k++) {
        int64_t end = 0;
        TL_TRY(plane_end_bytes(d, &d->planes[k], &end));
        if (end > need) need = end;
    }
    *bytes = need;
    return TL_OK;
}

tl_status tl_desc_validate(const tl_desc *d)
{
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    TL_TRY(check_logical(d));
    TL_TRY(check_quant(d));
    TL_TRY(check_plane_ranges(d));
    bool writable = !(d->flags & TL_DESC_READONLY);
    for (int k = 0; k < d->nplanes; k++) {
        TL_TRY(check_axes(d, k));
        TL_TRY(check_coverage(d, k));
        int64_t end;
        TL_TRY(plane_end_bytes(d, &d->planes[k], &end));
        if (writable) TL_TRY(check_no_alias(d, k));
    }
    if (writable) TL_TRY(check_planes_disjoint(d));
    int64_t need = 0;
    TL_TRY(required_bytes(d, &need));
    if (d->size_bytes < need)
        return tl_fail(TL_ERR_SIZE, "size=%lld bytes < %lld bytes the layout spans", (long long)d->size_bytes,
                       (long long)need);
    TL_TRY(tl_vendor_check(d));
    tl_clear_error();
    return TL_OK;
}

int tl_desc_writable(const tl_desc *d)
{
    return d && !(d->flags & TL_DESC_READONLY) && tl_desc_validate(d) == TL_OK;
}

tl_status tl_desc_size(const tl_desc *d, uint64_t *bytes)
{
    if (!bytes) return tl_fail(TL_ERR_NULL, "bytes is NULL");
    TL_TRY(tl_desc_validate(d));
    *bytes = (uint64_t)d->size_bytes;
    return TL_OK;
}

tl_status tl_desc_update_size(tl_desc *d)
{
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    int64_t need;
    TL_TRY(required_bytes(d, &need));
    d->size_bytes = need;
    return TL_OK;
}

int tl_desc_plane_of(const tl_desc *d, const int64_t *x)
{
    if (d->nplanes <= 1) return 0;
    int64_t c = x[d->plane_dim];
    for (int k = 0; k < d->nplanes; k++)
        if (c >= d->planes[k].first && c < d->planes[k].first + d->planes[k].count) return k;
    return 0;
}

/* p: padded coordinates, plane-local for the plane dim. */
static int64_t plane_bits_padded(const tl_plane *pl, const int64_t *p)
{
    int64_t bits = pl->offset_bytes * 8;
    for (int a = 0; a < pl->naxes; a++) {
        const tl_axis *x = &pl->axes[a];
        bits += ((p[x->dim] / x->block) % x->extent) * x->stride_bits;
    }
    return bits;
}

/* x as padded coordinates local to plane k (see tl_desc_plane_bits). */
static void plane_local(const tl_desc *d, int k, const int64_t *x, bool padded, int64_t *p)
{
    for (int i = 0; i < d->rank; i++) p[i] = padded ? x[i] : x[i] + d->pad_lo[i];
    if (d->nplanes > 1 && !padded) p[d->plane_dim] = x[d->plane_dim] - d->planes[k].first;
}

int64_t tl_desc_plane_bits(const tl_desc *d, int k, const int64_t *x, bool padded)
{
    int64_t p[TL_MAX_DIMS];
    plane_local(d, k, x, padded, p);
    return plane_bits_padded(&d->planes[k], p);
}

int64_t tl_desc_bit_offset_unchecked(const tl_desc *d, const int64_t *x)
{
    return tl_desc_plane_bits(d, tl_desc_plane_of(d, x), x, false);
}

tl_status tl_desc_offset_bits(const tl_desc *d, const int64_t *coords, uint64_t *bit_offset)
{
    char nb[24];
    if (!coords || !bit_offset) return tl_fail(TL_ERR_NULL, "coords or result is NULL");
    TL_TRY(tl_desc_validate(d));
    for (int i = 0; i < d->rank; i++)
        if (coords[i] < 0 || coords[i] >= d->dims[i])
            return tl_fail(TL_ERR_COORD, "coordinate %s=%lld: must be in [0,%lld)", dim_name(d, i, nb),
                           (long long)coords[i], (long long)d->dims[i]);
    *bit_offset = (uint64_t)tl_desc_bit_offset_unchecked(d, coords);
    return TL_OK;
}

tl_status tl_desc_offset(const tl_desc *d, const int64_t *coords, uint64_t *byte_offset)
{
    uint64_t bits;
    if (!byte_offset) return tl_fail(TL_ERR_NULL, "byte_offset is NULL");
    TL_TRY(tl_desc_offset_bits(d, coords, &bits));
    *byte_offset = bits / 8;
    return TL_OK;
}

/* ---- padding ----------------------------------------------------------- */

/* Smallest block of dim i in plane p (1 = fully stored, >1 = subsampled). */
static int64_t min_block(const tl_plane *p, int i)
{
    int64_t m = INT64_MAX;
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == i && p->axes[a].block < m) m = p->axes[a].block;
    return m == INT64_MAX ? 1 : m;
}

bool tl_desc_stored(const tl_desc *d, int k, const int64_t *x, bool padded)
{
    int64_t p[TL_MAX_DIMS];
    plane_local(d, k, x, padded, p);
    for (int i = 0; i < d->rank; i++) {
        int64_t b = min_block(&d->planes[k], i);
        if (b > 1 && p[i] % b) return false;
    }
    return true;
}

static void put_element(uint8_t *buf, int64_t bits, unsigned ebits, uint8_t value)
{
    if (ebits >= 8) {
        memset(buf + bits / 8, value, ebits / 8);
    } else { /* 4-bit: element at an even nibble is the low one */
        uint8_t *b = buf + bits / 8;
        uint8_t v = value & 0x0f;
        *b = (bits % 8) ? (uint8_t)((*b & 0x0f) | (v << 4)) : (uint8_t)((*b & 0xf0) | v);
    }
}

static bool is_padding(const tl_desc *d, const int64_t *p)
{
    for (int i = 0; i < d->rank; i++) {
        if (d->nplanes > 1 && i == d->plane_dim) continue;
        if (p[i] < d->pad_lo[i] || p[i] >= d->pad_lo[i] + d->dims[i]) return true;
    }
    return false;
}

static bool any_padding(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->pad_lo[i] || d->pad_hi[i]) return true;
    return false;
}

static void fill_plane_padding(const tl_desc *d, const tl_plane *pl, uint8_t *buf, uint8_t value)
{
    int64_t ext[TL_MAX_DIMS], step[TL_MAX_DIMS], p[TL_MAX_DIMS] = {0};
    unsigned ebits = tl_dtype_bits((tl_dtype)d->dtype);
    for (int i = 0; i < d->rank; i++) {
        ext[i] = plane_extent(d, pl, i);
        step[i] = min_block(pl, i); /* subsampled dims: representatives only */
    }
    for (;;) {
        if (is_padding(d, p)) put_element(buf, plane_bits_padded(pl, p), ebits, value);
        int i = d->rank - 1;
        for (; i >= 0; i--) {
            p[i] += step[i];
            if (p[i] < ext[i]) break;
            p[i] = 0;
        }
        if (i < 0) return;
    }
}

tl_status tl_fill_padding(const tl_desc *d, void *buf, size_t len, uint8_t value)
{
    if (!buf) return tl_fail(TL_ERR_NULL, "buffer is NULL");
    TL_TRY(tl_desc_validate(d));
    if (d->flags & TL_DESC_READONLY)
        return tl_fail(TL_ERR_READONLY, "descriptor is read-only (broadcast): its padding cannot be written");
    if ((uint64_t)len < (uint64_t)d->size_bytes)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu < %lld bytes required by the descriptor", len,
                       (long long)d->size_bytes);
    if (!any_padding(d)) return TL_OK;
    for (int k = 0; k < d->nplanes; k++) fill_plane_padding(d, &d->planes[k], buf, value);
    return TL_OK;
}
