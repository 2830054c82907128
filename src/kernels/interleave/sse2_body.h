/* SSE2 interleave bodies (also compiled into the AVX2 file). Each handles
 * whole vectors and returns how many pixels it did; NULL planes are zeros. */
#include <emmintrin.h>

TL_FN __m128i ld_or_zero(const uint8_t *p, size_t off)
{
    return p ? _mm_loadu_si128((const __m128i *)(p + off)) : _mm_setzero_si128();
}

/* bytes, 2 planes: 16 pixels per step */
TL_FN size_t ilv_x8_2(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a = ld_or_zero(pl[0], i), b = ld_or_zero(pl[1], i);
        _mm_storeu_si128((__m128i *)(d + 2 * i), _mm_unpacklo_epi8(a, b));
        _mm_storeu_si128((__m128i *)(d + 2 * i + 16), _mm_unpackhi_epi8(a, b));
    }
    return i;
}

/* bytes, 4 planes: 16 pixels per step */
TL_FN size_t ilv_x8_4(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a = ld_or_zero(pl[0], i), b = ld_or_zero(pl[1], i), c = ld_or_zero(pl[2], i), e = ld_or_zero(pl[3], i);
        __m128i ab0 = _mm_unpacklo_epi8(a, b), ab1 = _mm_unpackhi_epi8(a, b);
        __m128i ce0 = _mm_unpacklo_epi8(c, e), ce1 = _mm_unpackhi_epi8(c, e);
        _mm_storeu_si128((__m128i *)(d + 4 * i), _mm_unpacklo_epi16(ab0, ce0));
        _mm_storeu_si128((__m128i *)(d + 4 * i + 16), _mm_unpackhi_epi16(ab0, ce0));
        _mm_storeu_si128((__m128i *)(d + 4 * i + 32), _mm_unpacklo_epi16(ab1, ce1));
        _mm_storeu_si128((__m128i *)(d + 4 * i + 48), _mm_unpackhi_epi16(ab1, ce1));
    }
    return i;
}

/* 16-bit, 2 planes: 8 pixels per step */
TL_FN size_t ilv_x16_2(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i a = ld_or_zero(pl[0], 2 * i), b = ld_or_zero(pl[1], 2 * i);
        _mm_storeu_si128((__m128i *)(d + 4 * i), _mm_unpacklo_epi16(a, b));
        _mm_storeu_si128((__m128i *)(d + 4 * i + 16), _mm_unpackhi_epi16(a, b));
    }
    return i;
}

/* 16-bit, 4 planes: 8 pixels per step (f16 planes into kDLA_HWC4's
 * 4-half pixels, the fourth plane NULL: zeros) */
TL_FN size_t ilv_x16_4(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m128i a = ld_or_zero(pl[0], 2 * i), b = ld_or_zero(pl[1], 2 * i);
        __m128i c = ld_or_zero(pl[2], 2 * i), e = ld_or_zero(pl[3], 2 * i);
        __m128i ab0 = _mm_unpacklo_epi16(a, b), ab1 = _mm_unpackhi_epi16(a, b);
        __m128i ce0 = _mm_unpacklo_epi16(c, e), ce1 = _mm_unpackhi_epi16(c, e);
        _mm_storeu_si128((__m128i *)(d + 8 * i), _mm_unpacklo_epi32(ab0, ce0));
        _mm_storeu_si128((__m128i *)(d + 8 * i + 16), _mm_unpackhi_epi32(ab0, ce0));
        _mm_storeu_si128((__m128i *)(d + 8 * i + 32), _mm_unpacklo_epi32(ab1, ce1));
        _mm_storeu_si128((__m128i *)(d + 8 * i + 48), _mm_unpackhi_epi32(ab1, ce1));
    }
    return i;
}

/* 32-bit, 2 planes: 4 pixels per step */
TL_FN size_t ilv_x32_2(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128i a = ld_or_zero(pl[0], 4 * i), b = ld_or_zero(pl[1], 4 * i);
        _mm_storeu_si128((__m128i *)(d + 8 * i), _mm_unpacklo_epi32(a, b));
        _mm_storeu_si128((__m128i *)(d + 8 * i + 16), _mm_unpackhi_epi32(a, b));
    }
    return i;
}

/* 32-bit, 4 planes: a 4x4 transpose per 4 pixels */
TL_FN size_t ilv_x32_4(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        __m128 a = _mm_castsi128_ps(ld_or_zero(pl[0], 4 * i)), b = _mm_castsi128_ps(ld_or_zero(pl[1], 4 * i));
        __m128 c = _mm_castsi128_ps(ld_or_zero(pl[2], 4 * i)), e = _mm_castsi128_ps(ld_or_zero(pl[3], 4 * i));
        __m128 t0 = _mm_unpacklo_ps(a, b), t1 = _mm_unpacklo_ps(c, e);
        __m128 t2 = _mm_unpackhi_ps(a, b), t3 = _mm_unpackhi_ps(c, e);
        _mm_storeu_ps((float *)(d + 16 * i), _mm_movelh_ps(t0, t1));
        _mm_storeu_ps((float *)(d + 16 * i + 16), _mm_movehl_ps(t1, t0));
        _mm_storeu_ps((float *)(d + 16 * i + 32), _mm_movelh_ps(t2, t3));
        _mm_storeu_ps((float *)(d + 16 * i + 48), _mm_movehl_ps(t3, t2));
    }
    return i;
}

/* bytes, packed pairs -> 2 planes: 16 pixels per step */
TL_FN size_t dilv_x8_2(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    const __m128i lo = _mm_set1_epi16(0x00FF);
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + 2 * i)), b = _mm_loadu_si128((const __m128i *)(s + 2 * i + 16));
        _mm_storeu_si128((__m128i *)(d + i), _mm_packus_epi16(_mm_and_si128(a, lo), _mm_and_si128(b, lo)));
        _mm_storeu_si128((__m128i *)(d + ds1 + i), _mm_packus_epi16(_mm_srli_epi16(a, 8), _mm_srli_epi16(b, 8)));
    }
    return i;
}

/* 32-bit, packed quads -> 4 planes */
TL_FN size_t dilv_x32_4(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    (void)stream; /* no non-temporal form */
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const float *p = (const float *)(s + 16 * i);
        __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8), e = _mm_loadu_ps(p + 12);
        __m128 t0 = _mm_unpacklo_ps(a, b), t1 = _mm_unpacklo_ps(c, e);
        __m128 t2 = _mm_unpackhi_ps(a, b), t3 = _mm_unpackhi_ps(c, e);
        _mm_storeu_ps((float *)(d + 4 * i), _mm_movelh_ps(t0, t1));
        _mm_storeu_ps((float *)(d + ds1 + 4 * i), _mm_movehl_ps(t1, t0));
        _mm_storeu_ps((float *)(d + 2 * ds1 + 4 * i), _mm_movelh_ps(t2, t3));
        _mm_storeu_ps((float *)(d + 3 * ds1 + 4 * i), _mm_movehl_ps(t3, t2));
    }
    return i;
}

