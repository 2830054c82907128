/* Candidate search, AVX2: 32 codes per compare. */
#if defined(__x86_64__) && defined(__AVX2__)
#include <immintrin.h>

#include "kernels/scan/scan.h"

size_t tl_scan_next_avx2(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                         uint8_t tu)
{
    const __m256i vf = _mm256_set1_epi8((char)flip), vt = _mm256_set1_epi8((char)tu);
    size_t i = start, m = start % mlen;
    for (; i + 32 <= n; i += 32) {
        __m256i x = _mm256_and_si256(_mm256_xor_si256(_mm256_loadu_si256((const __m256i *)(p + i)), vf),
                                     _mm256_loadu_si256((const __m256i *)(mask + m)));
        unsigned bits = (unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(x, vt), x));
        if (bits) return i + (size_t)__builtin_ctz(bits);
        m += 32;
        if (m >= mlen) m -= mlen;
    }
    return tl_scan_next_tail(p, i, n, mask, m, mlen, flip, tu);
}

void tl_argmax_row_avx2(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                        int32_t *label, size_t n)
{
    const __m256i v0 = _mm256_set1_epi32(w0), v1 = _mm256_set1_epi32(w1), vc = _mm256_set1_epi32(c);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256i s = _mm256_add_epi32(_mm256_mullo_epi32(v0, _mm256_loadu_si256((const __m256i *)(a + i))),
                                     _mm256_mullo_epi32(v1, _mm256_loadu_si256((const __m256i *)(z + i))));
        __m256i b = _mm256_loadu_si256((const __m256i *)(best + i));
        __m256i gt = _mm256_cmpgt_epi32(s, b);
        _mm256_storeu_si256((__m256i *)(best + i), _mm256_max_epi32(s, b));
        _mm256_storeu_si256((__m256i *)(label + i),
                            _mm256_blendv_epi8(_mm256_loadu_si256((const __m256i *)(label + i)), vc, gt));
    }
    tl_argmax_row_tail(a, z, w0, w1, c, best, label, i, n);
}
#endif
