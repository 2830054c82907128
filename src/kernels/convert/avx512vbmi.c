/* 8-bit sources through the plan's tables of the rule's 256 answers
 * (engine/cvt.c), AVX-512 VBMI: two vpermi2b look up the low and the high
 * half of a 256-byte table, the index's top bit picks one, 64 codes a step.
 * Into 8 bits (cv->lut8) that is the answer (the f32 pipeline takes a dozen
 * operations per 16 elements for the same TIDL/RKNN requantization); into 16
 * bits (cv->lut16: f16 inputs from u8 images) one lookup per byte of the
 * answer and two byte permutes that interleave them.
 * Compiled without ISA flags (the name is not an ISA's): the function carries
 * a target attribute, and the registry lists it only when the CPU has VBMI. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#include "kernels/kernels.h"

#define TL_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

TL_VBMI static inline __m512i lut_step(__m512i x, __m512i t0, __m512i t1, __m512i t2, __m512i t3)
{
    __m512i lo = _mm512_permutex2var_epi8(t0, x, t1), hi = _mm512_permutex2var_epi8(t2, x, t3);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);
}

/* Bytes 2j and 2j + 1 of the answers of codes first + j: the low byte
 * (lo[first + j]) and the high byte (hi[first + j], index 64 + ...). */
static _Alignas(64) const uint8_t k_x16_pairs[2][64] = {
#define P(j) (j), 64 + (j)
#define P8(j) P(j), P(j + 1), P(j + 2), P(j + 3), P(j + 4), P(j + 5), P(j + 6), P(j + 7)
    {P8(0), P8(8), P8(16), P8(24)},
    {P8(32), P8(40), P8(48), P8(56)},
#undef P8
#undef P
};

/* One row: 64 codes a step, the last step masked (nothing outside the row
 * is read or written); wide: two-byte answers (cv->lut16). */
TL_VBMI __attribute__((always_inline)) static inline void lut_row(const uint8_t *s, uint8_t *d, size_t n,
                                                                  const __m512i lo[4], const __m512i hi[4], int wide)
{
    const __m512i first = _mm512_load_si512(k_x16_pairs[0]), second = _mm512_load_si512(k_x16_pairs[1]);
    for (size_t i = 0; i < n; i += 64) {
        const size_t left = n - i;
        const __mmask64 m = left >= 64 ? ~(__mmask64)0 : ~0ull >> (64 - left);
        const __m512i x = left >= 64 ? _mm512_loadu_si512(s + i) : _mm512_maskz_loadu_epi8(m, s + i);
        const __m512i a = lut_step(x, lo[0], lo[1], lo[2], lo[3]);
        if (!wide) {
            if (left >= 64) _mm512_storeu_si512(d + i, a);
            else _mm512_mask_storeu_epi8(d + i, m, a);
            continue;
        }
        const __m512i b = lut_step(x, hi[0], hi[1], hi[2], hi[3]);
        const __m512i p = _mm512_permutex2var_epi8(a, first, b), q = _mm512_permutex2var_epi8(a, second, b);
        if (left >= 64) {
            _mm512_storeu_si512(d + 2 * i, p);
            _mm512_storeu_si512(d + 2 * i + 64, q);
        } else {
            _mm512_mask_storeu_epi8(d + 2 * i, left >= 32 ? ~(__mmask64)0 : ~0ull >> (64 - 2 * left), p);
            if (left > 32) _mm512_mask_storeu_epi8(d + 2 * i + 64, ~0ull >> (128 - 2 * left), q);
        }
    }
}

void tl_x8_lut_ukernel__avx512vbmi(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                                   const tl_cvt *cv);
TL_VBMI void tl_x8_lut_ukernel__avx512vbmi(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows,
                                           size_t n, const tl_cvt *cv)
{
    __m512i lo[4], hi[4];
    for (int q = 0; q < 4; q++) {
        lo[q] = _mm512_loadu_si512(cv->lut + 64 * q);
        hi[q] = cv->lut16 ? _mm512_loadu_si512(cv->lut_hi + 64 * q) : lo[q];
    }
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *s = (const uint8_t *)src + (ptrdiff_t)r * ss;
        uint8_t *d = (uint8_t *)dst + (ptrdiff_t)r * ds;
        if (cv->lut16) lut_row(s, d, n, lo, hi, 1);
        else lut_row(s, d, n, lo, hi, 0);
    }
}
#endif
