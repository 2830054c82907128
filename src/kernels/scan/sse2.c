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
#endif
