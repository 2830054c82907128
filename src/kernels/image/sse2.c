/* SSE2 image row kernels: the vertical bilinear step, 16 outputs a step with
 * the same 16-bit multiply-high and rounding shift as the definition. */
#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>

#include "kernels/image/image.h"

static inline __m128i half_rows(const int32_t *h, __m128i b)
{
    __m128i lo = _mm_srai_epi32(_mm_loadu_si128((const __m128i *)h), 4);
    __m128i hi = _mm_srai_epi32(_mm_loadu_si128((const __m128i *)(h + 4)), 4);
    return _mm_mulhi_epi16(_mm_packs_epi32(lo, hi), b); /* h >> 4 < 2^15: the pack is exact */
}

void tl_u8_vlinear_ukernel__sse2(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    const __m128i vb0 = _mm_set1_epi16((short)b0), vb1 = _mm_set1_epi16((short)b1), two = _mm_set1_epi16(2);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_add_epi16(half_rows(h0 + i, vb0), half_rows(h1 + i, vb1));
        __m128i c = _mm_add_epi16(half_rows(h0 + i + 8, vb0), half_rows(h1 + i + 8, vb1));
        a = _mm_srai_epi16(_mm_add_epi16(a, two), 2);
        c = _mm_srai_epi16(_mm_add_epi16(c, two), 2);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(a, c));
    }
    tl_u8_vlinear_ukernel__scalar(h0 + i, h1 + i, b0, b1, out + i, n - i);
}
#endif
