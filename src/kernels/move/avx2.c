/* The move family, AVX2: dup even into rows (dup_even_x86.h, 32 bytes a
 * register). */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#include "kernels/move/move.h"

#define DE_V __m256i
#define DE_W 32
#define DE_SET1_16 _mm256_set1_epi16
#define DE_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define DE_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define DE_AND _mm256_and_si256
#define DE_OR _mm256_or_si256
#define DE_SRLI16 _mm256_srli_epi16
#define DE_SLLI16 _mm256_slli_epi16
#include "kernels/move/dup_even_x86.h"

void tl_x8_dup_even_rows_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds, 1, 0);
}

void tl_x8_dup_even_rows2_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                        ptrdiff_t pd)
{
    dup_even_rows(s, d, n, rows, ds, 2, pd);
}
#endif
