/* Candidate search, AVX-512BW: 64 codes per compare, straight into a mask. */
#if defined(__x86_64__) && defined(__AVX512BW__)
#include <immintrin.h>

#include "kernels/scan/scan.h"

size_t tl_scan_next_avx512(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                           uint8_t tu)
{
    const __m512i vf = _mm512_set1_epi8((char)flip), vt = _mm512_set1_epi8((char)tu);
    size_t i = start, m = start % mlen;
    for (; i + 64 <= n; i += 64) {
        __m512i x = _mm512_and_si512(_mm512_xor_si512(_mm512_loadu_si512(p + i), vf), _mm512_loadu_si512(mask + m));
        __mmask64 bits = _mm512_cmpge_epu8_mask(x, vt);
        if (bits) return i + (size_t)__builtin_ctzll(bits);
        m += 64;
        if (m >= mlen) m -= mlen;
    }
    return tl_scan_next_tail(p, i, n, mask, m, mlen, flip, tu);
}
#endif
