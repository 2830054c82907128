/* Padding fill, sse2: memset for cache-sized buffers; for destinations larger
 * than the cache ("stream"), non-temporal 16-byte stores that skip the read
 * for ownership (the engine fences after the run). */
#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#include <stdint.h>
#include <string.h>

void tl_zero_fill_ukernel__sse2(void *dst, size_t bytes, int stream);
void tl_zero_fill_ukernel__sse2(void *dst, size_t bytes, int stream)
{
    uint8_t *d = (uint8_t *)dst;
    if (!stream || bytes < 1024) {
        memset(d, 0, bytes);
        return;
    }
    size_t head = (size_t)(-(uintptr_t)d & 63);
    memset(d, 0, head);
    d += head;
    bytes -= head;
    const __m128i z = _mm_setzero_si128();
    for (; bytes >= 64; bytes -= 64, d += 64)
        for (int k = 0; k < 64; k += 16) _mm_stream_si128((__m128i *)(d + k), z);
    memset(d, 0, bytes);
}
#endif
