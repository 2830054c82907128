/* SSE2 real-value kernel (kernels/image/encode.h): 16 values a step, the
 * lanes' constants loaded at the step's place in the 48-value period. */
#if defined(__x86_64__)
#include <emmintrin.h>

#include "kernels/image/encode.h"

static inline __m128 real4(__m128i v32, const tl_img_real *r, size_t k)
{
    __m128 a = _mm_sub_ps(_mm_cvtepi32_ps(v32), _mm_loadu_ps(r->mean + k));
    if (r->mode == TL_REAL_MUL) return _mm_mul_ps(a, _mm_loadu_ps(r->rcp + k));
    return _mm_div_ps(a, _mm_loadu_ps(r->std + k));
}

/* 16 values from s at period place k (a multiple of 16) */
static inline void real16(const uint8_t *s, float *d, const tl_img_real *r, size_t k)
{
    const __m128i z = _mm_setzero_si128();
    __m128i b = _mm_loadu_si128((const __m128i *)s);
    __m128i lo = _mm_unpacklo_epi8(b, z), hi = _mm_unpackhi_epi8(b, z);
    _mm_storeu_ps(d, real4(_mm_unpacklo_epi16(lo, z), r, k));
    _mm_storeu_ps(d + 4, real4(_mm_unpackhi_epi16(lo, z), r, k + 4));
    _mm_storeu_ps(d + 8, real4(_mm_unpacklo_epi16(hi, z), r, k + 8));
    _mm_storeu_ps(d + 12, real4(_mm_unpackhi_epi16(hi, z), r, k + 12));
}

void tl_u8_real_ukernel__sse2(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    tl_real_loop(src, dst, n, r, real16);
}
#endif
