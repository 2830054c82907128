/* The move family's 4:2:0 chroma moves, AVX-512 F/BW: 32 chroma samples per
 * 64-byte register, where the scalar kernels move 4 per 64-bit word.
 *  - copy even: one plane of an interleaved chroma pair (NV12's U or V) from
 *    the even bytes of a row: a byte-masked store writes the even bytes and
 *    leaves the odd ones (the other plane's) alone, without loading them.
 *  - dup even: the even bytes each twice (chroma back to full resolution),
 *    one in-lane byte shuffle.
 * Masked loads and stores at the row ends: nothing past the last sample is
 * read or written. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#include "kernels/move/move.h"

#define TL_AVX512 __attribute__((target("avx512f,avx512bw")))

static inline __mmask64 first_n(size_t n) { return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1; }

TL_AVX512 void tl_x8_copy_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n)
{
    const __mmask64 even = 0x5555555555555555ull;
    size_t j = 0;
    for (; j + 32 < n; j += 32) /* s[2j + 63] is inside the row only while 2j + 63 < 2n - 1 */
        _mm512_mask_storeu_epi8(d + 2 * j, even, _mm512_loadu_si512((const void *)(s + 2 * j)));
    if (j < n) {
        __mmask64 m = first_n(2 * (n - j) - 1); /* up to the last sample, inclusive */
        _mm512_mask_storeu_epi8(d + 2 * j, m & even, _mm512_maskz_loadu_epi8(m, s + 2 * j));
    }
}

/* dup even into `rows` rows ds apart from the same register: a 4:2:0 chroma
 * row is expanded once for both image rows it covers (one call moves twice
 * the bytes, with half the loads and shuffles). */
TL_AVX512 static inline void dup_even_rows(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    const __m512i dup = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14));
    size_t j = 0;
    for (; j + 32 < n; j += 32) { /* (the same bound) */
        __m512i v = _mm512_shuffle_epi8(_mm512_loadu_si512((const void *)(s + 2 * j)), dup);
        for (size_t r = 0; r < rows; r++) _mm512_storeu_si512((void *)(d + (ptrdiff_t)r * ds + 2 * j), v);
    }
    if (j < n) {
        size_t k = 2 * (n - j);
        __m512i v = _mm512_shuffle_epi8(_mm512_maskz_loadu_epi8(first_n(k - 1), s + 2 * j), dup);
        for (size_t r = 0; r < rows; r++) _mm512_mask_storeu_epi8(d + (ptrdiff_t)r * ds + 2 * j, first_n(k), v);
    }
}

TL_AVX512 void tl_x8_dup_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n)
{
    dup_even_rows(s, d, n, 1, 0);
}

TL_AVX512 void tl_x8_dup_even_rows_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds);
}

/* Streaming copy with 64-byte non-temporal stores, a whole line each (from
 * L1 tiles to DRAM-sized destinations: measured faster than four 16-byte
 * ones there, where the stores queue behind the write-combining flushes). */
TL_AVX512 void tl_stream_copy_ukernel__avx512(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i = tl_stream_head(d, s, n);
    for (; i + 64 <= n; i += 64) _mm512_stream_si512((void *)(d + i), _mm512_loadu_si512((const void *)(s + i)));
    memcpy(d + i, s + i, n - i);
}
#endif
