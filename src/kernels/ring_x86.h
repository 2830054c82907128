/* Whole-line streaming stores for x86 kernels, and the L1 ring that lets
 * rows starting off 64-byte lines stream whole lines too. Include after
 * <immintrin.h>; the ISA is the including file's (AVX-512, AVX2 or SSE2). */
#ifndef TL_KERNELS_RING_X86_H
#define TL_KERNELS_RING_X86_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* 64 bytes from s (any alignment) to d: when nt, to a 64-byte line,
 * non-temporal, no read for ownership (one 64-byte store where AVX-512 is
 * compiled in: measured faster from DRAM; the caller fences), else plain
 * stores (a staged line written whole, once, to rows that share L1 sets). */
static inline void tl_line(uint8_t *d, const uint8_t *s, int nt)
{
#ifdef __AVX512F__
    __m512i v = _mm512_loadu_si512((const void *)s);
    if (nt) _mm512_stream_si512((void *)d, v);
    else _mm512_storeu_si512((void *)d, v);
#elif defined(__AVX2__)
    for (int k = 0; k < 64; k += 32) {
        __m256i v = _mm256_loadu_si256((const __m256i *)(s + k));
        if (nt) _mm256_stream_si256((__m256i *)(d + k), v);
        else _mm256_storeu_si256((__m256i *)(d + k), v);
    }
#else
    for (int k = 0; k < 64; k += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(s + k));
        if (nt) _mm_stream_si128((__m128i *)(d + k), v);
        else _mm_storeu_si128((__m128i *)(d + k), v);
    }
#endif
}

/* Streaming into rows that start off 64-byte lines (planes of H x W not a
 * multiple of 64 bytes): row r's whole lines begin sh(r) bytes in, so each
 * is the end of one step's output and the start of the next one's. A
 * kernel writes each step's 128 bytes of a row at ring + 64 (a ring of
 * TL_RING_BYTES a row, 64-byte aligned), behind the carry: the row's 64
 * bytes before the step. tl_ring_step then streams the two whole lines that
 * lie in the ring from offset sh(r) (on the first step, off == 0, the row's
 * first sh(r) bytes are plain stores instead of the line before the row)
 * and keeps the step's last line as the next carry; tl_ring_end stores
 * the bytes after the last whole line from the carry. Stores that are not
 * whole lines would read every destination line from DRAM first. */
enum { TL_RING_BYTES = 3 * 64 };

/* the row's step at byte off (a multiple of 128) is in ring + 64; rows of
 * the same bytes (an image row repeated) each emit from one ring, then it
 * carries once */
static inline void tl_ring_emit(uint8_t *row, size_t off, const uint8_t *ring)
{
    const size_t sh = (size_t)(-(uintptr_t)row & 63);
    if (off == 0) memcpy(row, ring + 64, sh);
    for (size_t l = off == 0; l < 2; l++) tl_line(row + off + sh + 64 * l - 64, ring + sh + 64 * l, 1);
}
static inline void tl_ring_carry(uint8_t *ring)
{
    memcpy(ring, ring + 128, 64);
}
static inline void tl_ring_step(uint8_t *row, size_t off, uint8_t *ring)
{
    tl_ring_emit(row, off, ring);
    tl_ring_carry(ring);
}

/* after the steps up to byte off (> 0) */
static inline void tl_ring_end(uint8_t *row, size_t off, const uint8_t *ring)
{
    const size_t sh = (size_t)(-(uintptr_t)row & 63);
    memcpy(row + off - 64 + sh, ring + sh, 64 - sh);
}
#endif
