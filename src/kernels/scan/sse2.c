/* Candidate search, SSE2: 16 codes per compare (unsigned >= as max == self). */
#if defined(__x86_64__)
#include <emmintrin.h>

#include "kernels/scan/scan.h"

size_t tl_scan_next_sse2(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                         uint8_t tu)
{
    const __m128i vf = _mm_set1_epi8((char)flip), vt = _mm_set1_epi8((char)tu);
    size_t i = start, m = start % mlen;
    for (; i + 16 <= n; i += 16) {
        __m128i x = _mm_and_si128(_mm_xor_si128(_mm_loadu_si128((const __m128i *)(p + i)), vf),
                                  _mm_loadu_si128((const __m128i *)(mask + m)));
        unsigned bits = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_max_epu8(x, vt), x));
        if (bits) return i + (size_t)__builtin_ctz(bits);
        m += 16;
        if (m >= mlen) m -= mlen;
    }
    return tl_scan_next_tail(p, i, n, mask, m, mlen, flip, tu);
}

/* SSE2 has no 32-bit multiply-low: 16-bit weights and values would not cover
 * the int32 range, so multiply through the even/odd 32x32->64 products. */
static inline __m128i mullo32(__m128i a, __m128i b)
{
    __m128i even = _mm_mul_epu32(a, b), odd = _mm_mul_epu32(_mm_srli_epi64(a, 32), _mm_srli_epi64(b, 32));
    return _mm_unpacklo_epi32(_mm_shuffle_epi32(even, 0x08), _mm_shuffle_epi32(odd, 0x08));
}

void tl_argmax_row_sse2(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                        int32_t *label, size_t n)
{
    const __m128i v0 = _mm_set1_epi32(w0), v1 = _mm_set1_epi32(w1), vc = _mm_set1_epi32(c);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i s = _mm_add_epi32(mullo32(v0, _mm_loadu_si128((const __m128i *)(a + i))),
                                  mullo32(v1, _mm_loadu_si128((const __m128i *)(z + i))));
        __m128i b = _mm_loadu_si128((const __m128i *)(best + i)), l = _mm_loadu_si128((const __m128i *)(label + i));
        __m128i gt = _mm_cmpgt_epi32(s, b);
        _mm_storeu_si128((__m128i *)(best + i), _mm_or_si128(_mm_and_si128(gt, s), _mm_andnot_si128(gt, b)));
        _mm_storeu_si128((__m128i *)(label + i), _mm_or_si128(_mm_and_si128(gt, vc), _mm_andnot_si128(gt, l)));
    }
    tl_argmax_row_tail(a, z, w0, w1, c, best, label, i, n);
}
#endif
