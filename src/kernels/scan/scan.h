/* Kernels of the post-processing operations (src/post): the candidate search
 * of the scans (the first byte of a row whose masked code reaches a
 * threshold) and one channel step of the segmentation argmax.
 *
 * Codes are 8-bit, made unsigned by `flip` (0x80 for i8, 0 for u8), so one
 * unsigned compare serves both. The mask selects lanes (0xFF) or hides them
 * (0x00: a hidden lane reads as 0, below any tu >= 1). It repeats with period
 * mlen (a multiple of 64): position i uses mask[i % mlen], and the buffer holds
 * mlen + 64 bytes with the first 64 repeated at the end, so a vector load at
 * any position below mlen stays inside it.
 *
 * The kernels only find candidates; the caller decides each hit with the exact
 * scalar compare, so every ISA returns the same index by definition (the
 * differential test checks it). Not installed. */
#ifndef TL_KERNELS_SCAN_H
#define TL_KERNELS_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* The first i in [start, n) with ((p[i] ^ flip) & mask[i % mlen]) >= tu, or n.
 * tu >= 1. */
typedef size_t (*tl_scan_next_fn)(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen,
                                  uint8_t flip, uint8_t tu);

size_t tl_scan_next_scalar(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                           uint8_t tu);
size_t tl_scan_next_sse2(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                         uint8_t tu);
size_t tl_scan_next_avx2(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                         uint8_t tu);
size_t tl_scan_next_avx512(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                           uint8_t tu);
size_t tl_scan_next_neon(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                         uint8_t tu);

/* One channel of a segmentation argmax (src/post/argmax.c), for i < n:
 *   s = w0 * a[i] + w1 * z[i];  if (s > best[i]) best[i] = s, label[i] = c;
 * in int32 (the caller guarantees no overflow). Ties keep the earlier label. */
typedef void (*tl_argmax_row_fn)(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c,
                                 int32_t *best, int32_t *label, size_t n);
void tl_argmax_row_scalar(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                          int32_t *label, size_t n);
void tl_argmax_row_sse2(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                        int32_t *label, size_t n);
void tl_argmax_row_avx2(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                        int32_t *label, size_t n);
void tl_argmax_row_avx512(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                          int32_t *label, size_t n);
void tl_argmax_row_neon(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                        int32_t *label, size_t n);

static inline void tl_argmax_row_tail(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c,
                                      int32_t *best, int32_t *label, size_t i, size_t n)
{
    for (; i < n; i++) {
        int32_t s = w0 * a[i] + w1 * z[i];
        if (s > best[i]) best[i] = s, label[i] = c;
    }
}

/* Scan ISAs, best last: names for tests and the benchmark. */
typedef enum tl_scan_isa {
    TL_SCAN_SCALAR = 0,
    TL_SCAN_SSE2 = 1,
    TL_SCAN_AVX2 = 2,
    TL_SCAN_AVX512 = 3,
    TL_SCAN_NEON = 4,
    TL_SCAN_ISA_COUNT
} tl_scan_isa;

/* The kernel of an ISA, or NULL when it was not compiled or the CPU lacks it. */
tl_scan_next_fn tl_scan_kernel(int isa);
tl_argmax_row_fn tl_argmax_row_kernel(int isa);
/* The kernels the operations use: the best available, or the ones forced by
 * tl_scan_force_isa (tests, benchmark). */
tl_scan_next_fn tl_scan_kernel_default(void);
tl_argmax_row_fn tl_argmax_row_kernel_default(void);
/* Force an ISA for this process (-1 = automatic again). Returns 0 when that ISA
 * is not available (nothing changes). */
int tl_scan_force_isa(int isa);
const char *tl_scan_isa_name(int isa);

/* The scalar tail every vector kernel ends with (also the whole scalar kernel). */
static inline size_t tl_scan_next_tail(const uint8_t *p, size_t i, size_t n, const uint8_t *mask, size_t m,
                                       size_t mlen, uint8_t flip, uint8_t tu)
{
    for (; i < n; i++) {
        if ((uint8_t)((p[i] ^ flip) & mask[m]) >= tu) return i;
        if (++m == mlen) m = 0;
    }
    return n;
}

#endif
