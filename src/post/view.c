/* The (n, c, h, w) reading of a descriptor, the staged hit list and the
 * checks every post-processing operation shares. */
#include <math.h>
#include <stdlib.h>

#include "post/post_internal.h"

static int label_dim(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

static bool labelled(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i]) return true;
    return false;
}

/* dim[] of n, c, h, w: by label, or by position for unlabelled ranks 1-4. */
static tl_status find_dims(const tl_desc *d, int dim[4])
{
    if (labelled(d)) {
        for (int k = 0; k < 4; k++) dim[k] = label_dim(d, "NCHW"[k]);
        if (dim[1] < 0)
            return tl_fail(TL_ERR_LABEL, "no dim labelled C: post-processing reduces over the channel dim C "
                           "(label it, e.g. labels=NCHW)");
    } else {
        static const int pos[5][4] = {{-1, -1, -1, -1}, {-1, 0, -1, -1}, {0, 1, -1, -1}, {0, 1, -1, 2}, {0, 1, 2, 3}};
        if (d->rank < 1 || d->rank > 4)
            return tl_fail(TL_ERR_RANK, "rank=%d without labels: read by position only for ranks 1-4 (C, N C, "
                           "N C W, N C H W); label the dims N, C, H, W", (int)d->rank);
        memcpy(dim, pos[d->rank], sizeof pos[0]);
    }
    for (int i = 0; i < d->rank; i++) {
        bool used = i == dim[0] || i == dim[1] || i == dim[2] || i == dim[3];
        if (!used && d->dims[i] != 1)
            return tl_fail(TL_ERR_LABEL, "dims[%d]=%lld (label '%c'): post-processing reads (n, c, h, w); any "
                           "other dim must be 1", i, (long long)d->dims[i], d->labels[i] ? d->labels[i] : '?');
    }
    return TL_OK;
}

static tl_status dtype_info(tl_pview *v, bool need_code)
{
    switch (v->dt) {
    case TL_I8: v->bits = 8, v->is_signed = 1, v->lo = INT8_MIN, v->hi = INT8_MAX; break;
    case TL_U8: v->bits = 8, v->lo = 0, v->hi = UINT8_MAX; break;
    case TL_I16: v->bits = 16, v->is_signed = 1, v->lo = INT16_MIN, v->hi = INT16_MAX; break;
    case TL_U16: v->bits = 16, v->lo = 0, v->hi = UINT16_MAX; break;
    case TL_I4: v->bits = 4, v->is_signed = 1, v->lo = -8, v->hi = 7; break;
    case TL_U4: v->bits = 4, v->lo = 0, v->hi = 15; break;
    case TL_F32: v->bits = 32; break;
    case TL_F64: v->bits = 64; break;
    default: v->bits = 0; break;
    }
    v->is_code = v->bits == 4 || v->bits == 8 || v->bits == 16;
    if (v->bits == 0 || (need_code && !v->is_code))
        return tl_fail(TL_ERR_DTYPE, "dtype %s: post-processing compares integer codes (i8 u8 i16 u16 i4 u4)%s",
                       tl_dtype_name(v->dt), need_code ? "; convert other types first" : " or reads f32/f64");
    if (v->is_code) { /* the threshold's own check: the codes must keep their order */
        int32_t T = 0;
        TL_TRY(tl_rknn_quant_threshold(&v->d->quant, v->dt, 0.0, &T));
    }
    return TL_OK;
}

/* The term of dim `dim` in a single-plane descriptor's offset: the sum over
 * its axes of ((x + pad_lo) / block % extent) * stride_bits (tlayout.h,
 * tl_axis), relative to x = 0. */
static int64_t dim_term(const tl_desc *d, int dim, int64_t x)
{
    const tl_plane *p = &d->planes[0];
    int64_t t = 0;
    if (dim < 0) return 0;
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *ax = &p->axes[a];
        if (ax->dim != dim) continue;
        int64_t pl = d->pad_lo[dim], at = x + pl, at0 = pl;
        if (ax->block != 1) at /= ax->block, at0 /= ax->block;
        if (at >= ax->extent) at %= ax->extent; /* the common case needs no division */
        if (at0 >= ax->extent) at0 %= ax->extent;
        t += (at - at0) * ax->stride_bits;
    }
    return t;
}

static tl_status build_tables(tl_pview *v)
{
    const int64_t size[4] = {v->N, v->C, v->H, v->W};
    int64_t total = v->N + v->C + v->H + v->W, zero[TL_MAX_DIMS] = {0};
    v->tn = malloc((size_t)total * sizeof *v->tn);
    if (!v->tn) return tl_fail(TL_ERR_NOMEM, "post-processing offset tables: %lld entries", (long long)total);
    v->tc = v->tn + v->N, v->th = v->tc + v->C, v->tw = v->th + v->H;
    int64_t *tab[4] = {v->tn, v->tc, v->th, v->tw};
    v->base = tl_desc_bit_offset_unchecked(v->d, zero); /* d validated by tl_pview_init */
    for (int k = 0; k < 4; k++)
        for (int64_t x = 0; x < size[k]; x++) tab[k][x] = dim_term(v->d, v->dim[k], x);
    return TL_OK;
}

tl_status tl_pview_init(tl_pview *v, const tl_desc *d, size_t len, bool need_code)
{
    memset(v, 0, sizeof *v);
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    TL_TRY(tl_desc_validate(d));
    if ((uint64_t)len < (uint64_t)d->size_bytes)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len=%llu < size=%lld bytes the descriptor spans",
                       (unsigned long long)len, (long long)d->size_bytes);
    v->d = d;
    v->dt = (tl_dtype)d->dtype;
    TL_TRY(find_dims(d, v->dim));
    int64_t *sz[4] = {&v->N, &v->C, &v->H, &v->W};
    for (int k = 0; k < 4; k++) *sz[k] = v->dim[k] >= 0 ? d->dims[v->dim[k]] : 1;
    TL_TRY(dtype_info(v, need_code));
    v->separable = d->nplanes == 1;
    if (v->separable) TL_TRY(build_tables(v));
    if (v->is_code && v->bits <= 8) {
        v->lut = malloc((size_t)(v->hi - v->lo + 1) * sizeof *v->lut);
        if (!v->lut) {
            tl_pview_free(v);
            return tl_fail(TL_ERR_NOMEM, "value table");
        }
        for (int64_t q = v->lo; q <= v->hi; q++) v->lut[q - v->lo] = NAN; /* filled on first use */
    }
    return TL_OK;
}

void tl_pview_free(tl_pview *v)
{
    free(v->tn);
    free(v->lut);
    v->tn = NULL, v->lut = NULL;
}

void tl_hitlist_push(tl_hitlist *l, int64_t n, int32_t c, int64_t h, int64_t w, int32_t code, double value)
{
    if (l->len == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        tl_hit *p = realloc(l->items, cap * sizeof *p);
        if (!p) {
            l->nomem = true;
            return;
        }
        l->items = p, l->cap = cap;
    }
    l->items[l->len++] = (tl_hit){n, h, w, c, code, value};
}

tl_status tl_hitlist_finish(tl_hitlist *l, tl_hit *out, size_t cap, size_t *count)
{
    tl_status s = TL_OK;
    if (l->nomem) s = tl_fail(TL_ERR_NOMEM, "hit list");
    else {
        *count = l->len;
        if (l->len > cap)
            s = tl_fail(TL_ERR_BUFFER_SMALL, "cap=%llu hits: %llu needed (nothing written)",
                        (unsigned long long)cap, (unsigned long long)l->len);
        else if (l->len)
            memcpy(out, l->items, l->len * sizeof *out);
    }
    free(l->items);
    memset(l, 0, sizeof *l);
    return s;
}

tl_status tl_post_check_range(const tl_pview *v, int64_t first, int64_t count)
{
    if (count < 1)
        return tl_fail(TL_ERR_COORD, "channels count=%lld: the range [first, first + count) must hold at least one "
                       "channel", (long long)count);
    if (first < 0 || first >= v->C || count > v->C - first)
        return tl_fail(TL_ERR_COORD, "channels [%lld, %lld): must lie inside [0, C=%lld)", (long long)first,
                       (long long)(first + count), (long long)v->C);
    return TL_OK;
}

tl_status tl_post_threshold(const tl_pview *v, double t, int32_t *T)
{
    if (isnan(t))
        return tl_fail(TL_ERR_QUANT, "threshold=nan: a threshold must be a number (NaN compares false with every "
                       "value)");
    return tl_rknn_quant_threshold(&v->d->quant, v->dt, t, T);
}
