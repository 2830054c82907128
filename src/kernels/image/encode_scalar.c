/* Scalar twin of the real-value kernel (kernels/image/encode.h): the
 * definitions one value at a time. */
#include <math.h>

#include "kernels/image/encode.h"

static inline float real_of(const tl_img_real *r, uint8_t v, size_t k)
{
    float a = (float)v - r->mean[k];
    switch (r->mode) {
    case TL_REAL_MUL: return a * r->rcp[k];
    case TL_REAL_FMA: {
        float q = a * r->rcp[k];
        return fmaf(fmaf(-q, r->std[k], a), r->rcp[k], q);
    }
    default: return a / r->std[k];
    }
}

void tl_u8_real_ukernel__scalar(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    for (size_t i = 0, k = 0; i < n; i++, k = k + 1 == TL_REAL_PERIOD ? 0 : k + 1) dst[i] = real_of(r, src[i], k);
}
