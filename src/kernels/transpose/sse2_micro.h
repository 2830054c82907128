/* SSE2 register transposes (also used by the AVX2 file, VEX-encoded there). */
#include <emmintrin.h>

#include "kernels/kernels.h" /* TL_UNROLL */

/* 4x4 of 32-bit elements */
TL_FN void tl_micro_x32_4x4(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m128 a = _mm_loadu_ps((const float *)s), b = _mm_loadu_ps((const float *)(s + ss0));
    __m128 c = _mm_loadu_ps((const float *)(s + 2 * ss0)), e = _mm_loadu_ps((const float *)(s + 3 * ss0));
    __m128 t0 = _mm_unpacklo_ps(a, b), t1 = _mm_unpacklo_ps(c, e);
    __m128 t2 = _mm_unpackhi_ps(a, b), t3 = _mm_unpackhi_ps(c, e);
    _mm_storeu_ps((float *)d, _mm_movelh_ps(t0, t1));
    _mm_storeu_ps((float *)(d + ds1), _mm_movehl_ps(t1, t0));
    _mm_storeu_ps((float *)(d + 2 * ds1), _mm_movelh_ps(t2, t3));
    _mm_storeu_ps((float *)(d + 3 * ds1), _mm_movehl_ps(t3, t2));
}

/* 8x8 of 16-bit elements: unpack 16, 32, 64 */
TL_FN void tl_micro_x16_8x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m128i r[8], t[8];
    TL_UNROLL
    for (int i = 0; i < 8; i++) r[i] = _mm_loadu_si128((const __m128i *)(s + i * ss0));
    TL_UNROLL
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm_unpacklo_epi16(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm_unpackhi_epi16(r[2 * i], r[2 * i + 1]);
    }
    TL_UNROLL
    for (int i = 0; i < 2; i++)
        TL_UNROLL
        for (int j = 0; j < 2; j++) {
            r[4 * i + 2 * j] = _mm_unpacklo_epi32(t[4 * i + j], t[4 * i + j + 2]);
            r[4 * i + 2 * j + 1] = _mm_unpackhi_epi32(t[4 * i + j], t[4 * i + j + 2]);
        }
    TL_UNROLL
    for (int j = 0; j < 4; j++) {
        t[2 * j] = _mm_unpacklo_epi64(r[j], r[j + 4]);
        t[2 * j + 1] = _mm_unpackhi_epi64(r[j], r[j + 4]);
    }
    TL_UNROLL
    for (int i = 0; i < 8; i++) _mm_storeu_si128((__m128i *)(d + i * ds1), t[i]);
}

/* 16x16 of bytes */
TL_FN void tl_micro_x8_16x16(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m128i y[4][4], o[4];
    TL_UNROLL
    for (int g = 0; g < 4; g++) {
        const uint8_t *p = s + 4 * g * ss0;
        TL_OPAQUE(p);
        TL_UNROLL
        for (int r = 0; r < 4; r++) y[g][r] = _mm_loadu_si128((const __m128i *)(p + r * ss0));
    }
    TL_UNROLL
    for (int g = 0; g < 4; g++)
        TL_X8_ROWS4(__m128i, y[g], y[g], _mm_unpacklo_epi8, _mm_unpackhi_epi8, _mm_unpacklo_epi16, _mm_unpackhi_epi16);
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        uint8_t *q = d + 4 * k * ds1;
        TL_OPAQUE(q);
        TL_X8_COLS4(__m128i, y, k, o, _mm_unpacklo_epi32, _mm_unpackhi_epi32, _mm_unpacklo_epi64, _mm_unpackhi_epi64);
        TL_UNROLL
        for (int j = 0; j < 4; j++) _mm_storeu_si128((__m128i *)(q + j * ds1), o[j]);
    }
}

/* 8x8 of bytes from 8-byte rows */
TL_FN void tl_micro_x8_8x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m128i r[8];
    TL_UNROLL
    for (int i = 0; i < 8; i++) r[i] = _mm_loadl_epi64((const __m128i *)(s + i * ss0));
    __m128i a0 = _mm_unpacklo_epi8(r[0], r[1]), a1 = _mm_unpacklo_epi8(r[2], r[3]);
    __m128i a2 = _mm_unpacklo_epi8(r[4], r[5]), a3 = _mm_unpacklo_epi8(r[6], r[7]);
    __m128i b0 = _mm_unpacklo_epi16(a0, a1), b1 = _mm_unpackhi_epi16(a0, a1);
    __m128i b2 = _mm_unpacklo_epi16(a2, a3), b3 = _mm_unpackhi_epi16(a2, a3);
    __m128i c[4] = {_mm_unpacklo_epi32(b0, b2), _mm_unpackhi_epi32(b0, b2), _mm_unpacklo_epi32(b1, b3),
                    _mm_unpackhi_epi32(b1, b3)};
    TL_UNROLL
    for (int j = 0; j < 4; j++) {
        _mm_storel_epi64((__m128i *)(d + 2 * j * ds1), c[j]);
        _mm_storel_epi64((__m128i *)(d + (2 * j + 1) * ds1), _mm_unpackhi_epi64(c[j], c[j]));
    }
}

/* 4x4 of 16-bit elements from 8-byte rows */
TL_FN void tl_micro_x16_4x4(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m128i r0 = _mm_loadl_epi64((const __m128i *)s), r1 = _mm_loadl_epi64((const __m128i *)(s + ss0));
    __m128i r2 = _mm_loadl_epi64((const __m128i *)(s + 2 * ss0)), r3 = _mm_loadl_epi64((const __m128i *)(s + 3 * ss0));
    __m128i a = _mm_unpacklo_epi16(r0, r1), b = _mm_unpacklo_epi16(r2, r3);
    __m128i lo = _mm_unpacklo_epi32(a, b), hi = _mm_unpackhi_epi32(a, b);
    _mm_storel_epi64((__m128i *)d, lo);
    _mm_storel_epi64((__m128i *)(d + ds1), _mm_unpackhi_epi64(lo, lo));
    _mm_storel_epi64((__m128i *)(d + 2 * ds1), hi);
    _mm_storel_epi64((__m128i *)(d + 3 * ds1), _mm_unpackhi_epi64(hi, hi));
}
