/* AVX2 register transpose of 8x8 32-bit elements (used by avx2.c, and by
 * avx512.c for its edges). Needs TL_FN and TL_UNROLL. */
#include <immintrin.h>

TL_FN void tl_micro_x32_8x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m256 r[8], t[8];
    TL_UNROLL
    for (int i = 0; i < 8; i++) r[i] = _mm256_loadu_ps((const float *)(s + i * ss0));
    TL_UNROLL
    for (int i = 0; i < 4; i++) {
        t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    TL_UNROLL
    for (int i = 0; i < 2; i++) {
        r[4 * i + 0] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * i + 1] = _mm256_shuffle_ps(t[4 * i], t[4 * i + 2], _MM_SHUFFLE(3, 2, 3, 2));
        r[4 * i + 2] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(1, 0, 1, 0));
        r[4 * i + 3] = _mm256_shuffle_ps(t[4 * i + 1], t[4 * i + 3], _MM_SHUFFLE(3, 2, 3, 2));
    }
    TL_UNROLL
    for (int j = 0; j < 4; j++) {
        _mm256_storeu_ps((float *)(d + j * ds1), _mm256_permute2f128_ps(r[j], r[j + 4], 0x20));
        _mm256_storeu_ps((float *)(d + (j + 4) * ds1), _mm256_permute2f128_ps(r[j], r[j + 4], 0x31));
    }
}


/* 16x16 bytes in 8 ymm registers, rows i and i + 8 in the two lanes of
 * register i: three rounds of in-lane unpacks (24 shuffles) transpose each
 * lane's 8 rows, leaving in every register two output rows' halves per
 * lane; one qword permute per register puts each output row together
 * (rows 0-7 from lane 0, 8-15 from lane 1). 32 shuffles per block against
 * the SSE2 ladder's 64. */
TL_FN void tl_micro_x8_16x16_avx2(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m256i a[8], b[8];
    TL_UNROLL
    for (int i = 0; i < 8; i++)
        a[i] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(s + i * ss0))),
                                       _mm_loadu_si128((const __m128i *)(s + (i + 8) * ss0)), 1);
    TL_UNROLL
    for (int i = 0; i < 4; i++) {
        b[i] = _mm256_unpacklo_epi8(a[2 * i], a[2 * i + 1]);
        b[i + 4] = _mm256_unpackhi_epi8(a[2 * i], a[2 * i + 1]);
    }
    TL_UNROLL
    for (int i = 0; i < 4; i++) {
        a[i] = _mm256_unpacklo_epi16(b[2 * i], b[2 * i + 1]);
        a[i + 4] = _mm256_unpackhi_epi16(b[2 * i], b[2 * i + 1]);
    }
    TL_UNROLL
    for (int i = 0; i < 4; i++) {
        b[i] = _mm256_unpacklo_epi32(a[2 * i], a[2 * i + 1]);
        b[i + 4] = _mm256_unpackhi_epi32(a[2 * i], a[2 * i + 1]);
    }
    /* each lane of b[k] holds output rows row_of[k] and row_of[k] + 1 */
    static const int row_of[8] = {0, 8, 4, 12, 2, 10, 6, 14};
    TL_UNROLL
    for (int k = 0; k < 8; k++) {
        __m256i r = _mm256_permute4x64_epi64(b[k], 0xD8);
        _mm_storeu_si128((__m128i *)(d + row_of[k] * ds1), _mm256_castsi256_si128(r));
        _mm_storeu_si128((__m128i *)(d + (row_of[k] + 1) * ds1), _mm256_extracti128_si256(r, 1));
    }
}
