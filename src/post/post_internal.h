/* The (n, c, h, w) reading of a descriptor shared by the post-processing
 * operations (docs/postprocess.md), built on the public API only: offsets come
 * from the descriptor's offset function (tl_desc_bit_offset_unchecked, after
 * one tl_desc_validate), values from tl_dequantize_value, thresholds from
 * tl_rknn_quant_threshold. Not installed. */
#ifndef TL_POST_INTERNAL_H
#define TL_POST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/internal.h" /* tl_fail, TL_TRY, overflow helpers, tl_desc_bit_offset_unchecked */
#include "tlayout.h"

/* A single-plane descriptor's offset is a sum of one term per dim (each
 * physical axis follows one dim), so four small tables give every element:
 *   bit(n, c, h, w) = base + tn[n] + tc[c] + th[h] + tw[w].
 * Multi-plane descriptors (YUV) go through the offset function per element. */
typedef struct tl_pview {
    const tl_desc *d;
    int64_t N, C, H, W;
    int dim[4];             /* dims index of n, c, h, w, or -1 (size 1) */
    tl_dtype dt;
    int bits;               /* element bits: 4, 8, 16 (codes) or 32/64 (gather of floats) */
    int is_signed;
    int is_code;            /* an integer code type the threshold supports */
    int64_t lo, hi;         /* code range */
    bool separable;
    int64_t base;           /* bits */
    int64_t *tn, *tc, *th, *tw; /* bits, relative to base (one allocation) */
    double *lut;            /* value of code lo + i for 4- and 8-bit codes (NaN until
                               first asked for: a code's value is never NaN), else NULL */
} tl_pview;

/* Read d as (n, c, h, w) and check len against its size. need_code: the
 * dtype must be an integer code type (i8 u8 i16 u16 i4 u4). */
tl_status tl_pview_init(tl_pview *v, const tl_desc *d, size_t len, bool need_code);
void tl_pview_free(tl_pview *v);

static inline int64_t tl_pview_bit(const tl_pview *v, int64_t n, int64_t c, int64_t h, int64_t w)
{
    if (v->separable) return v->base + v->tn[n] + v->tc[c] + v->th[h] + v->tw[w];
    int64_t x[TL_MAX_DIMS] = {0};
    const int64_t at[4] = {n, c, h, w};
    for (int k = 0; k < 4; k++)
        if (v->dim[k] >= 0) x[v->dim[k]] = at[k];
    return tl_desc_bit_offset_unchecked(v->d, x); /* validated once, coordinates in range */
}

/* The code at a bit offset (4-bit: low nibble first, as the library stores). */
static inline int64_t tl_pview_load(const tl_pview *v, const uint8_t *buf, int64_t bit)
{
    const uint8_t *p = buf + (bit >> 3);
    switch (v->bits) {
    case 4: {
        int x = (bit & 4) ? *p >> 4 : *p & 15;
        return v->is_signed && x > 7 ? x - 16 : x;
    }
    case 8: return v->is_signed ? (int64_t)(int8_t)*p : (int64_t)*p;
    default: {
        uint16_t u;
        memcpy(&u, p, 2);
        return v->is_signed ? (int64_t)(int16_t)u : (int64_t)u;
    }
    }
}

/* Real value of a code: the table for narrow codes, else the element rule. */
static inline double tl_pview_value(const tl_pview *v, int64_t code)
{
    if (!v->lut) return tl_dequantize_value(&v->d->quant, code);
    double *x = &v->lut[code - v->lo];
    if (*x != *x) *x = tl_dequantize_value(&v->d->quant, code);
    return *x;
}

/* A growing array of hits (staged, so the caller's buffer is written only on
 * success). */
typedef struct tl_hitlist {
    tl_hit *items;
    size_t len, cap;
    bool nomem;
} tl_hitlist;
void tl_hitlist_push(tl_hitlist *l, int64_t n, int32_t c, int64_t h, int64_t w, int32_t code, double value);
/* Copy to the caller: TL_ERR_BUFFER_SMALL when cap is short; frees the list. */
tl_status tl_hitlist_finish(tl_hitlist *l, tl_hit *out, size_t cap, size_t *count);

/* Checked channel range [first, first + count) of C. */
tl_status tl_post_check_range(const tl_pview *v, int64_t first, int64_t count);
/* The exact code threshold of t (TL_ERR_QUANT for NaN t or a reversing scale). */
tl_status tl_post_threshold(const tl_pview *v, double t, int32_t *T);

/* Scan into a list (tl_scan without the copy): the decoders use it. */
tl_status tl_scan_list(const tl_pview *v, const uint8_t *buf, int64_t first, int64_t count, double t, unsigned flags,
                       tl_hitlist *out);

#endif
