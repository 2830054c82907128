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

void tl_argmax_row_avx512(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                          int32_t *label, size_t n)
{
    const __m512i v0 = _mm512_set1_epi32(w0), v1 = _mm512_set1_epi32(w1), vc = _mm512_set1_epi32(c);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m512i s = _mm512_add_epi32(_mm512_mullo_epi32(v0, _mm512_loadu_si512(a + i)),
                                     _mm512_mullo_epi32(v1, _mm512_loadu_si512(z + i)));
        __m512i b = _mm512_loadu_si512(best + i);
        __mmask16 gt = _mm512_cmpgt_epi32_mask(s, b);
        _mm512_storeu_si512(best + i, _mm512_max_epi32(s, b));
        _mm512_mask_storeu_epi32(label + i, gt, vc);
    }
    tl_argmax_row_tail(a, z, w0, w1, c, best, label, i, n);
}
#endif
