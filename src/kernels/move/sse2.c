/* The move family's streaming stores, SSE2 (move.h). */
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
#endif
