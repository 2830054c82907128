/* What the x86 exact-mode YUV to RGB kernels (SSE2, AVX2) share around their
 * vector loops. OpenCV's constants have about 21 bits; each is split as
 * c = a 2^s + b (a = c >> s, 0 <= b < 2^s) so x c = (x 2^s) a + x b is one
 * pmaddwd of 16-bit factors, exact in 32 bits. Plain C: no intrinsics. */
#ifndef TL_KERNELS_IMAGE_YUV_SPLIT_H
#define TL_KERNELS_IMAGE_YUV_SPLIT_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/image/image.h"

/* The pmaddwd word of c split at s: b in the high half, a in the low. */
static inline int32_t tl_yuv_split_word(int32_t c, int s)
{
    int32_t a = c >> s, b = c - a * (1 << s);
    return (int32_t)(((uint32_t)b << 16) | ((uint32_t)a & 0xFFFF));
}

static inline bool tl_yuv_splits(int32_t c, int s) { return (c >> s) >= -32768 && (c >> s) <= 32767; }

/* Before a vector loop over pixels [*x, x1) into o: false when a constant
 * does not split (beyond 2^22: not OpenCV's) or o has no vector stores, the
 * scalar twin having made the whole span; else true, with a lone pixel before
 * a 4:2:x chroma pair made by the scalar twin and *x, o moved past it. */
static inline bool tl_yuv_rgb_vector_start(const tl_yuv_rows *r, int64_t *x, int64_t x1, tl_rgb_out *o)
{
    if (!tl_yuv_splits(r->cy, 7) || !tl_yuv_splits(r->cvr, 8) || !tl_yuv_splits(r->cvg, 8) ||
        !tl_yuv_splits(r->cug, 8) || !tl_yuv_splits(r->cub, 8) || tl_rgb_form(o) == TL_RGB_OTHER) {
        tl_yuv_rgb_ukernel__scalar(r, *x, x1, o);
        return false;
    }
    if (r->cshift && (*x & 1) && *x < x1) { /* start on a chroma pair */
        tl_yuv_rgb_ukernel__scalar(r, *x, *x + 1, o);
        ++*x, tl_rgb_skip(o, 1);
    }
    return true;
}

#endif
