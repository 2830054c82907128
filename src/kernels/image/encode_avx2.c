/* AVX2 real-value kernel (kernels/image/encode.h): 16 values a step. No FMA
 * form: the AVX2 path does not require the FMA extension. */
#if defined(__x86_64__) && defined(__AVX2__)
#include <immintrin.h>

#include "kernels/image/encode.h"

static inline __m256 real8(__m128i b8, const tl_img_real *r, size_t k)
{
    __m256 a = _mm256_sub_ps(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b8)), _mm256_loadu_ps(r->mean + k));
    if (r->mode == TL_REAL_MUL) return _mm256_mul_ps(a, _mm256_loadu_ps(r->rcp + k));
    return _mm256_div_ps(a, _mm256_loadu_ps(r->std + k));
}

static inline void real16(const uint8_t *s, float *d, const tl_img_real *r, size_t k)
{
    __m128i b = _mm_loadu_si128((const __m128i *)s);
    _mm256_storeu_ps(d, real8(b, r, k));
    _mm256_storeu_ps(d + 8, real8(_mm_srli_si128(b, 8), r, k + 8));
}

void tl_u8_real_ukernel__avx2(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    tl_real_loop(src, dst, n, r, real16);
}
#endif
