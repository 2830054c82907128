/* Candidate search for the post-processing scans (src/post): the first byte of
 * a row whose masked code reaches a threshold.
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
/* The kernel tl_scan uses: the best available, or the one forced by
 * tl_scan_force_isa (tests, benchmark). */
tl_scan_next_fn tl_scan_kernel_default(void);
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
