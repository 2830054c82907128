/* 8-bit -> 8-bit through the plan's 256-byte table (cv->lut8), AVX-512
 * VBMI: two vpermi2b look up the low and the high half of the table, the
 * index's top bit picks one, 64 bytes per step (the f32 pipeline takes a
 * dozen operations per 16 elements for the same TIDL/RKNN requantization).
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

void tl_x8_lut_ukernel__avx512vbmi(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                                   const tl_cvt *cv);
TL_VBMI void tl_x8_lut_ukernel__avx512vbmi(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows,
                                           size_t n, const tl_cvt *cv)
{
    const __m512i t0 = _mm512_loadu_si512(cv->lut), t1 = _mm512_loadu_si512(cv->lut + 64);
    const __m512i t2 = _mm512_loadu_si512(cv->lut + 128), t3 = _mm512_loadu_si512(cv->lut + 192);
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *s = (const uint8_t *)src + (ptrdiff_t)r * ss;
        uint8_t *d = (uint8_t *)dst + (ptrdiff_t)r * ds;
        size_t i = 0;
        for (; i + 64 <= n; i += 64)
            _mm512_storeu_si512(d + i, lut_step(_mm512_loadu_si512(s + i), t0, t1, t2, t3));
        if (i < n) { /* masked: nothing outside the row is read or written */
            __mmask64 m = ~0ull >> (64 - (n - i));
            __m512i x = _mm512_maskz_loadu_epi8(m, s + i);
            _mm512_mask_storeu_epi8(d + i, m, lut_step(x, t0, t1, t2, t3));
        }
    }
}
#endif
