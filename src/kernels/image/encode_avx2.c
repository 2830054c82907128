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

/* AVX2 (its SSSE3 byte shuffle): 16 output bytes a step, from a 16-byte
 * window at the step's first pixel. */
#if defined(__x86_64__) && defined(__AVX2__)
void tl_x8_expand_ukernel__avx2(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out)
{
    const __m128i ctl = _mm_loadu_si128((const __m128i *)x->ctl), zero = _mm_setzero_si128();
    const size_t bytes = (size_t)x->bytes, ps = (size_t)x->ps;
    size_t i = 0;
    if (ps >= 16) {
        for (; i < n; i++, in += bytes, out += ps) {
            _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in), ctl));
            for (size_t z = 16; z < ps; z += 16) _mm_storeu_si128((__m128i *)(out + z), zero);
        }
        return;
    }
    const size_t per = 16 / ps; /* pixels a step */
    for (; i + per <= n; i += per, in += per * bytes, out += 16)
        _mm_storeu_si128((__m128i *)out, _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)in), ctl));
    tl_x8_expand_ukernel__scalar(in, n - i, x, out);
}
#endif

/* Border rows (kernels/image/encode.h), 32 bytes a store: the period
 * divides 32 here; the first and last 32 bytes by unaligned stores of the
 * pattern at their phase (overlapping bytes get the same values), aligned
 * stores between. n >= 32. */
#if defined(__x86_64__) && defined(__AVX2__)
void tl_x8_fill_period_ukernel__avx2(uint8_t *dst, size_t n, const uint8_t *pat, size_t period)
{
    size_t head = (size_t)(-(uintptr_t)dst & 31), i = head;
    _mm256_storeu_si256((__m256i *)dst, _mm256_loadu_si256((const __m256i *)pat));
    const __m256i v = _mm256_loadu_si256((const __m256i *)(pat + head % period));
    for (; i + 32 <= n; i += 32) _mm256_store_si256((__m256i *)(dst + i), v);
    if (i < n) _mm256_storeu_si256((__m256i *)(dst + n - 32), _mm256_loadu_si256((const __m256i *)(pat + (n - 32) % period)));
}
#endif
