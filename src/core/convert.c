/* The scalar reference converter, and the validation every converter shares.
 * Simple on purpose: it is the oracle for the engine's kernels, so it never
 * calls the engine (tl_convert, the fast path, is src/engine/convert.c). */
#include <stdio.h>

#include "internal.h"
#include "numerics/elem.h"

/* ---- validation ----------------------------------------------------------- */
/* The first axis of d with stride 0 over more than one position, or -1. */
static int broadcast_axis(const tl_desc *d, int *plane)
{
    for (int p = 0; p < d->nplanes && p < TL_MAX_PLANES; p++)
        for (int a = 0; a < d->planes[p].naxes && a < TL_MAX_AXES; a++) {
            const tl_axis *ax = &d->planes[p].axes[a];
            if (ax->stride_bits == 0 && ax->extent > 1) { *plane = p; return a; }
        }
    return -1;
}

static tl_status check_writable(const tl_desc *dst_d)
{
    if (tl_desc_writable(dst_d)) return TL_OK;
    int plane = 0, a = broadcast_axis(dst_d, &plane);
    if (a >= 0)
        return tl_fail(TL_ERR_READONLY,
                       "dst planes[%d].axes[%d] (dim %d) has stride 0 over extent %lld: a "
                       "broadcast destination would write many elements to one place",
                       plane, a, (int)dst_d->planes[plane].axes[a].dim,
                       (long long)dst_d->planes[plane].axes[a].extent);
    if (dst_d->flags & TL_DESC_READONLY)
        return tl_fail(TL_ERR_READONLY, "dst flags has TL_DESC_READONLY: the descriptor may be "
                                        "read, never written");
    return tl_fail(TL_ERR_READONLY, "dst aliases elements (two stored elements share bytes): "
                                    "it cannot be a conversion destination");
}

static bool fully_labelled(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == 0) return false;
    return true;
}

static int find_label(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

/* By label when both are fully labelled with the same letters, else by position. */
static bool map_by_label(const tl_desc *s, const tl_desc *d, int map[TL_MAX_DIMS])
{
    if (!fully_labelled(s) || !fully_labelled(d)) return false;
    for (int i = 0; i < d->rank; i++) {
        map[i] = find_label(s, d->labels[i]);
        if (map[i] < 0) return false;
    }
    return true;
}

static void dim_name(char out[24], const tl_desc *d, int i)
{
    if (d->labels[i]) { out[0] = d->labels[i]; out[1] = 0; }
    else snprintf(out, 24, "dims[%d]", i);
}

/* What to do about a dims mismatch: the dims order of whichever side looks
 * given in the other common order (NCHW values under NHWC, ...). */
static void mismatch_hint(const tl_desc *s, const tl_desc *d, char *hint, size_t cap)
{
    char h[400];
    hint[0] = '\0';
    if (tl_dims_order_hint(s, h, sizeof h)) snprintf(hint, cap, "; src: %s", h);
    else if (tl_dims_order_hint(d, h, sizeof h)) snprintf(hint, cap, "; dst: %s", h);
}

/* A 4:2:0 image is 3-D (C=3, H, W): a 4-D N,C,H,W or N,H,W,C partner needs N dropped. */
static const char *rank_hint(const tl_desc *s, const tl_desc *d)
{
    if (s->nplanes > 1 && s->rank == 3 && d->rank == 4)
        return "; the source is a 3-D C,H,W image: give the destination 3 dims (CHW or HWC, "
               "e.g. HWC:u8:HxWx3)";
    if (d->nplanes > 1 && d->rank == 3 && s->rank == 4)
        return "; the destination is a 3-D C,H,W image: give the source 3 dims (CHW or HWC, "
               "e.g. HWC:u8:HxWx3)";
    return "";
}

static tl_status match_dims(const tl_desc *s, const tl_desc *d, int map[TL_MAX_DIMS])
{
    if (s->rank != d->rank)
        return tl_fail(TL_ERR_MISMATCH, "ranks differ: src rank=%d, dst rank=%d%s", (int)s->rank,
                       (int)d->rank, rank_hint(s, d));
    bool by_label = map_by_label(s, d, map);
    if (!by_label)
        for (int i = 0; i < d->rank; i++) map[i] = i;
    for (int i = 0; i < d->rank; i++) {
        int j = map[i];
        if (s->dims[j] == d->dims[i]) continue;
        char sn[24], dn[24], hint[480];
        dim_name(sn, s, j);
        dim_name(dn, d, i);
        mismatch_hint(s, d, hint, sizeof hint);
        return tl_fail(TL_ERR_MISMATCH, "dims differ: src %s=%lld, dst %s=%lld (src dims[%d], "
                       "dst dims[%d], matched by %s)%s", sn, (long long)s->dims[j], dn,
                       (long long)d->dims[i], j, i, by_label ? "label" : "position", hint);
    }
    return TL_OK;
}

/* Element-typed access needs strides and plane offsets in whole elements; a
 * byte-granular pitch (larod) allows byte access only. */
static tl_status check_elem_aligned(const tl_desc *d, const char *side)
{
    int64_t eb = tl_dtype_bits((tl_dtype)d->dtype);
    if (eb < 8) return TL_OK;
    for (int p = 0; p < d->nplanes; p++) {
        const tl_plane *pl = &d->planes[p];
        if (pl->offset_bytes % (eb / 8) != 0)
            return tl_fail(TL_ERR_UNSUPPORTED, "%s planes[%d].offset_bytes=%lld is not a "
                           "multiple of the %lld-byte %s element: element-wise conversion needs "
                           "element-aligned planes", side, p, (long long)pl->offset_bytes,
                           (long long)(eb / 8), tl_dtype_name((tl_dtype)d->dtype));
        for (int a = 0; a < pl->naxes; a++) {
            const tl_axis *ax = &pl->axes[a];
            if (ax->extent <= 1 || ax->stride_bits % eb == 0) continue;
            return tl_fail(TL_ERR_UNSUPPORTED, "%s planes[%d].axes[%d] (dim %d) stride_bits=%lld "
                           "is not a multiple of the %lld-bit %s element: element-wise conversion "
                           "needs element-aligned strides (this is a byte-granular pitch, which "
                           "larod allows: such a buffer can be described and addressed, not converted)", side, p, a, (int)ax->dim, (long long)ax->stride_bits,
                           (long long)eb, tl_dtype_name((tl_dtype)d->dtype));
        }
    }
    return TL_OK;
}

tl_status tl_convert_check_descs(const tl_desc *src_d, const tl_desc *dst_d,
                                 int map[TL_MAX_DIMS])
{
    if (src_d == NULL) return tl_fail(TL_ERR_NULL, "src_d is NULL");
    if (dst_d == NULL) return tl_fail(TL_ERR_NULL, "dst_d is NULL");
    tl_status st = tl_desc_validate(src_d);
    if (st != TL_OK) return tl_fail_prefix(st, "src");
    st = tl_desc_validate(dst_d);
    if (st != TL_OK) return tl_fail_prefix(st, "dst");
    TL_TRY(check_writable(dst_d));
    TL_TRY(match_dims(src_d, dst_d, map));
    TL_TRY(check_elem_aligned(src_d, "src"));
    return check_elem_aligned(dst_d, "dst");
}

tl_status tl_check_buffer_len(const char *name, size_t len, const tl_desc *d, const char *which)
{
    if ((uint64_t)len >= (uint64_t)d->size_bytes) return TL_OK;
    return tl_fail(TL_ERR_BUFFER_SMALL, "%s=%llu < %lld bytes required by the %s descriptor",
                   name, (unsigned long long)len, (long long)d->size_bytes, which);
}

/* Everything the reference checks before writing: NULL pointers, then the
 * descriptors, then buffer lengths (tl_convert checks in the same order). */
static tl_status convert_check(const tl_desc *src_d, const void *src, size_t src_len,
                               const tl_desc *dst_d, const void *dst, size_t dst_len,
                               int map[TL_MAX_DIMS])
{
    if (src_d == NULL) return tl_fail(TL_ERR_NULL, "src_d is NULL");
    if (dst_d == NULL) return tl_fail(TL_ERR_NULL, "dst_d is NULL");
    if (src == NULL) return tl_fail(TL_ERR_NULL, "src is NULL (source buffer)");
    if (dst == NULL) return tl_fail(TL_ERR_NULL, "dst is NULL (destination buffer)");
    TL_TRY(tl_convert_check_descs(src_d, dst_d, map));
    TL_TRY(tl_check_buffer_len("src_len", src_len, src_d, "source"));
    return tl_check_buffer_len("dst_len", dst_len, dst_d, "destination");
}

/* ---- the element walk ------------------------------------------------------ */
/* Advance x over dims [0, rank) in row-major order; false when done. */
static bool odometer_next(int64_t *x, const int64_t *dims, int rank)
{
    for (int i = rank - 1; i >= 0; i--) {
        if (++x[i] < dims[i]) return true;
        x[i] = 0;
    }
    return false;
}

static void convert_elements(const tl_desc *src_d, const uint8_t *src, const tl_desc *dst_d,
                             uint8_t *dst, const int map[TL_MAX_DIMS])
{
    tl_elem_op op;
    int64_t x[TL_MAX_DIMS] = {0}, y[TL_MAX_DIMS] = {0};
    tl_elem_op_init_dt(&op, (tl_dtype)src_d->dtype, &src_d->quant, (tl_dtype)dst_d->dtype, &dst_d->quant);
    do {
        if (!tl_desc_stored(dst_d, tl_desc_plane_of(dst_d, x), x, false)) continue; /* subsampled */
        for (int i = 0; i < dst_d->rank; i++) y[map[i]] = x[i];
        tl_elem_convert(&op, src, tl_desc_bit_offset_unchecked(src_d, y), dst,
                        tl_desc_bit_offset_unchecked(dst_d, x));
    } while (odometer_next(x, dst_d->dims, dst_d->rank));
}

/* ---- public entry points ------------------------------------------------------ */
tl_status tl_convert_reference(const tl_desc *src_d, const void *src, size_t src_len,
                               const tl_desc *dst_d, void *dst, size_t dst_len, unsigned flags)
{
    int map[TL_MAX_DIMS];
    TL_TRY(convert_check(src_d, src, src_len, dst_d, dst, dst_len, map));
    if (!(flags & TL_KEEP_PADDING)) TL_TRY(tl_fill_padding(dst_d, dst, dst_len, 0));
    convert_elements(src_d, (const uint8_t *)src, dst_d, (uint8_t *)dst, map);
    tl_clear_error();
    return TL_OK;
}
