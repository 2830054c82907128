/* AVX-512 real-value kernel (kernels/image/encode.h): 16 values a step;
 * the FMA form uses AVX-512 F's fused multiply-adds. Tails by masks. */
#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

#include "kernels/image/encode.h"

#define TL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

/* mode is a constant in each loop below: no test per vector */
TL_TARGET static inline __m512 real16(__m128i b, const tl_img_real *r, size_t k, int mode)
{
    __m512 a = _mm512_sub_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(b)), _mm512_loadu_ps(r->mean + k));
    __m512 rcp = _mm512_loadu_ps(r->rcp + k);
    if (mode == TL_REAL_MUL) return _mm512_mul_ps(a, rcp);
    if (mode == TL_REAL_FMA) {
        __m512 q = _mm512_mul_ps(a, rcp);
        __m512 e = _mm512_fnmadd_ps(q, _mm512_loadu_ps(r->std + k), a); /* a - q * std, exact */
        return _mm512_fmadd_ps(e, rcp, q);
    }
    return _mm512_div_ps(a, _mm512_loadu_ps(r->std + k));
}

TL_TARGET static inline void real_loop(const uint8_t *src, float *dst, size_t n, const tl_img_real *r, int mode)
{
    size_t i = 0, k = 0;
    for (; i + 16 <= n; i += 16, k = k + 16 == TL_REAL_PERIOD ? 0 : k + 16)
        _mm512_storeu_ps(dst + i, real16(_mm_loadu_si128((const __m128i *)(src + i)), r, k, mode));
    if (i == n) return;
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1);
    __m128i b = _mm_maskz_loadu_epi8(m, src + i); /* AVX-512 BW + VL: the path's */
    _mm512_mask_storeu_ps(dst + i, m, real16(b, r, k, mode));
}

TL_TARGET void tl_u8_real_ukernel__avx512(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    switch (r->mode) {
    case TL_REAL_MUL: real_loop(src, dst, n, r, TL_REAL_MUL); return;
    case TL_REAL_FMA: real_loop(src, dst, n, r, TL_REAL_FMA); return;
    default: real_loop(src, dst, n, r, TL_REAL_DIV); return;
    }
}
#endif

/* AVX-512 VBMI: 64 output bytes a step by one byte permute of the 64-byte
 * window at the step's first pixel, the pad bytes zeroed by its mask. */
#if defined(__x86_64__) && defined(__AVX512F__)
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void
tl_x8_expand_ukernel__avx512vbmi(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out)
{
    const __m512i idx = _mm512_loadu_si512(x->idx);
    const __mmask64 keep = (__mmask64)x->keep;
    const size_t bytes = (size_t)x->bytes, ps = (size_t)x->ps;
    if (ps > 64) { tl_x8_expand_ukernel__scalar(in, n, x, out); return; }
    const size_t per = 64 / ps;
    size_t i = 0;
    for (; i + per <= n; i += per, in += per * bytes, out += 64)
        _mm512_storeu_si512(out, _mm512_maskz_permutexvar_epi8(keep, idx, _mm512_loadu_si512(in)));
    tl_x8_expand_ukernel__scalar(in, n - i, x, out);
}
#endif
