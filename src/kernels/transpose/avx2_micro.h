/* AVX2 register transpose of 8x8 32-bit elements (used by avx2.c, and by
 * avx512.c for its edges). Needs TL_FN and TL_UNROLL. */
#include <immintrin.h>

/* o[j] = column j of the 8 rows at s (destination row j). */
static inline __attribute__((always_inline)) void tl_x32_8x8_regs(const uint8_t *s, ptrdiff_t ss0, __m256 o[8])
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
        o[j] = _mm256_permute2f128_ps(r[j], r[j + 4], 0x20);
        o[j + 4] = _mm256_permute2f128_ps(r[j], r[j + 4], 0x31);
    }
}

TL_FN void tl_micro_x32_8x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m256 o[8];
    tl_x32_8x8_regs(s, ss0, o);
    TL_UNROLL
    for (int j = 0; j < 8; j++) _mm256_storeu_ps((float *)(d + j * ds1), o[j]);
}
