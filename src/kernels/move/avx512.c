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

/* The 64 bytes of a zip even from output byte a on (out[x] = x even ?
 * u[x] : v[x - 1]): at an even a, u's even bytes and v's even bytes moved
 * up one, per 16-bit word; at an odd a (a row off a line by an odd count),
 * u at a and v at a - 1 blended byte by byte. Only the `got` readable bytes
 * of each row are loaded. */
TL_AVX512 static inline __m512i zip_even_at(const uint8_t *u, const uint8_t *v, size_t a, size_t got)
{
    const __mmask64 odd_bytes = 0xAAAAAAAAAAAAAAAAull;
    size_t b = a - a % 2;
    __m512i x = got >= a + 64 ? _mm512_loadu_si512((const void *)(u + a)) : _mm512_maskz_loadu_epi8(first_n(got - a), u + a);
    __m512i y = got >= b + 64 ? _mm512_loadu_si512((const void *)(v + b)) : _mm512_maskz_loadu_epi8(first_n(got - b), v + b);
    if (a % 2 == 0) return _mm512_or_si512(_mm512_and_si512(x, _mm512_set1_epi16(0x00FF)), _mm512_slli_epi16(y, 8));
    return _mm512_mask_blend_epi8(~odd_bytes, x, y); /* a + t odd for even t: those from v */
}

TL_AVX512 void tl_x8_zip_even_ukernel__avx512(const uint8_t *u, const uint8_t *v, uint8_t *d, size_t n, int nt)
{
    size_t bytes = 2 * n, got = bytes ? bytes - 1 : 0, head = nt ? (size_t)(-(uintptr_t)d & 63) : 0, a;
    if (head > bytes) head = bytes;
    if (head) _mm512_mask_storeu_epi8(d, first_n(head), zip_even_at(u, v, 0, got));
    for (a = head; a + 64 <= bytes; a += 64) {
        __m512i z = zip_even_at(u, v, a, got);
        if (nt) _mm512_stream_si512((void *)(d + a), z);
        else _mm512_storeu_si512((void *)(d + a), z);
    }
    if (a < bytes) _mm512_mask_storeu_epi8(d + a, first_n(bytes - a), zip_even_at(u, v, a, got));
}

/* dup even into `rows` rows ds apart from the same register: a 4:2:0 chroma
 * row is expanded once for both image rows it covers (one call moves twice
 * the bytes, with half the loads and shuffles). planes 2: both planes of an
 * interleaved chroma row (NV12's UVUV...), the odd bytes doubled into the
 * second plane's rows pd after the first's, one load serving both. One
 * plane reads up to its last sample, inclusive (the byte after it may be
 * past the source); two read all 2n bytes. planes is a constant once
 * inlined. */
TL_AVX512 static inline void dup_even_rows(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, int planes,
                                           ptrdiff_t pd)
{
    const __m512i dup[2] = {
        _mm512_broadcast_i32x4(_mm_setr_epi8(0, 0, 2, 2, 4, 4, 6, 6, 8, 8, 10, 10, 12, 12, 14, 14)),
        _mm512_broadcast_i32x4(_mm_setr_epi8(1, 1, 3, 3, 5, 5, 7, 7, 9, 9, 11, 11, 13, 13, 15, 15))};
    size_t got = n ? 2 * n - (planes == 1) : 0, j = 0; /* the readable bytes */
    for (; 2 * j + 64 <= got; j += 32) {
        __m512i x = _mm512_loadu_si512((const void *)(s + 2 * j));
        for (int c = 0; c < planes; c++) {
            __m512i v = _mm512_shuffle_epi8(x, dup[c]);
            for (size_t r = 0; r < rows; r++) _mm512_storeu_si512((void *)(d + c * pd + (ptrdiff_t)r * ds + 2 * j), v);
        }
    }
    if (j < n) {
        __m512i x = _mm512_maskz_loadu_epi8(first_n(got - 2 * j), s + 2 * j);
        for (int c = 0; c < planes; c++) {
            __m512i v = _mm512_shuffle_epi8(x, dup[c]);
            for (size_t r = 0; r < rows; r++)
                _mm512_mask_storeu_epi8(d + c * pd + (ptrdiff_t)r * ds + 2 * j, first_n(2 * (n - j)), v);
        }
    }
}

TL_AVX512 void tl_x8_dup_even_rows2_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                                   ptrdiff_t pd)
{
    dup_even_rows(s, d, n, rows, ds, 2, pd);
}

TL_AVX512 void tl_x8_dup_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n)
{
    dup_even_rows(s, d, n, 1, 0, 1, 0);
}

TL_AVX512 void tl_x8_dup_even_rows_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds, 1, 0);
}

/* The 64 output bytes of a dup even from output byte a on (out[x] =
 * s[x & ~1]): from the source at a & ~1, one two-source byte permute, which
 * also serves an odd a (a row that starts off a line by an odd count; VBMI,
 * so the executor takes it only on a CPU with it). Only the `got` readable
 * source bytes are loaded. */
#define TL_AVX512_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))
TL_AVX512_VBMI static inline __m512i dup_even_at(const uint8_t *s, size_t a, size_t got, __m512i even, __m512i odd)
{
    size_t b = a & ~(size_t)1;
    __m512i lo = got >= b + 64 ? _mm512_loadu_si512((const void *)(s + b))
                               : _mm512_maskz_loadu_epi8(first_n(got - b), s + b);
    __m512i hi = got >= b + 128 ? _mm512_loadu_si512((const void *)(s + b + 64))
                 : got > b + 64 ? _mm512_maskz_loadu_epi8(first_n(got - b - 64), s + b + 64)
                                : _mm512_setzero_si512();
    return _mm512_permutex2var_epi8(lo, a % 2 ? odd : even, hi);
}

/* One destination row of 2n bytes, streamed: plain (masked) stores up to
 * its first line start and after its last whole line, the lines between
 * non-temporal. Rows of an image rarely start on a line (a 9460-pixel plane
 * row), so each row finds its own first line. */
TL_AVX512_VBMI static void dup_even_row_streamed(const uint8_t *s, uint8_t *d, size_t n, __m512i even, __m512i odd)
{
    size_t bytes = 2 * n, got = bytes - 1, head = (size_t)(-(uintptr_t)d & 63), a = 0;
    if (head > bytes) head = bytes;
    if (head) _mm512_mask_storeu_epi8(d, first_n(head), dup_even_at(s, 0, got, even, odd));
    for (a = head; a + 64 <= bytes; a += 64) _mm512_stream_si512((void *)(d + a), dup_even_at(s, a, got, even, odd));
    if (a < bytes) _mm512_mask_storeu_epi8(d + a, first_n(bytes - a), dup_even_at(s, a, got, even, odd));
}

TL_AVX512_VBMI void tl_x8_dup_even_rows_streamed_ukernel__avx512vbmi(const uint8_t *s, uint8_t *d, size_t n, size_t rows,
                                                           ptrdiff_t ds)
{
    _Alignas(64) uint8_t e[64], o[64];
    for (unsigned t = 0; t < 64; t++) e[t] = (uint8_t)(t & ~1u), o[t] = (uint8_t)((t + 1) & ~1u);
    const __m512i even = _mm512_load_si512((const void *)e), odd = _mm512_load_si512((const void *)o);
    if (n == 0) return;
    for (size_t r = 0; r < rows; r++) dup_even_row_streamed(s, d + (ptrdiff_t)r * ds, n, even, odd);
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
