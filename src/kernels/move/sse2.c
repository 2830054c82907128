/* The move family, SSE2: the streaming copy and fence (move.h), and dup even
 * into rows (dup_even_x86.h, 16 bytes a register). */
#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>

#include "kernels/move/move.h"

void tl_stream_copy_ukernel__sse2(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i = tl_stream_head(d, s, n);
    for (; i + 64 <= n; i += 64)
        for (int k = 0; k < 64; k += 16)
            _mm_stream_si128((__m128i *)(d + i + k), _mm_loadu_si128((const __m128i *)(s + i + k)));
    memcpy(d + i, s + i, n - i);
}

void tl_store_fence(void) { _mm_sfence(); }

#define DE_V __m128i
#define DE_W 16
#define DE_SET1_16 _mm_set1_epi16
#define DE_LOAD(p) _mm_loadu_si128((const __m128i *)(const void *)(p))
#define DE_STORE(p, v) _mm_storeu_si128((__m128i *)(void *)(p), (v))
#define DE_AND _mm_and_si128
#define DE_OR _mm_or_si128
#define DE_SRLI16 _mm_srli_epi16
#define DE_SLLI16 _mm_slli_epi16
#include "kernels/ring_x86.h"
#include "kernels/move/dup_even_x86.h"

void tl_x8_dup_even_rows_ukernel__sse2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds, 1, 0);
}

void tl_x8_dup_even_rows2_ukernel__sse2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd)
{
    dup_even_rows(s, d, n, rows, ds, 2, pd);
}

void tl_x8_dup_even_rows_streamed_ukernel__sse2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                              int planes, ptrdiff_t pd)
{
    dup_even_rows_streamed(s, d, n, rows, ds, planes, pd);
}
#endif
