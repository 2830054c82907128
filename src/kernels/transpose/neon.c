/* Tiled transposes, NEON (AArch64 and Armv7): q-register blocks of 16x16
 * bytes, 8x8 of 16-bit and 4x4 of 32-bit elements (neon_micro.h), visited in
 * 64x64-element cache tiles. The right and bottom edges go through the same
 * register block via a stack tile (libyuv's ANY): nothing outside the
 * caller's rows is read or written. */
#if defined(__ARM_NEON)
#include <string.h>

#include "kernels/transpose/neon_micro.h"

typedef void (*tl_nm_fn)(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds);

/* rows (<= M) source rows of cols (<= M) elements through an M x M block. */
static void edge_tile(tl_nm_fn micro, size_t e, size_t m, const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                      ptrdiff_t ds1, size_t rows, size_t cols)
{
    uint8_t in[256] = {0}, out[256];
    for (size_t r = 0; r < rows; r++) memcpy(in + r * m * e, src + (ptrdiff_t)r * ss0, cols * e);
    micro(in, (ptrdiff_t)(m * e), out, (ptrdiff_t)(m * e));
    for (size_t c = 0; c < cols; c++) memcpy(dst + (ptrdiff_t)c * ds1, out + c * m * e, rows * e);
}

/* The right edge (columns f1..n1 of rows 0..f0), then the bottom rows f0..n0. */
static void edges(tl_nm_fn micro, size_t e, size_t m, const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                  ptrdiff_t ds1, size_t n0, size_t n1)
{
    size_t f0 = n0 / m * m, f1 = n1 / m * m;
    if (f1 < n1)
        for (size_t i0 = 0; i0 < f0; i0 += m)
            edge_tile(micro, e, m, src + (ptrdiff_t)i0 * ss0 + f1 * e, ss0, dst + (ptrdiff_t)f1 * ds1 + i0 * e, ds1,
                      m, n1 - f1);
    if (f0 < n0)
        for (size_t i1 = 0; i1 < n1; i1 += m)
            edge_tile(micro, e, m, src + (ptrdiff_t)f0 * ss0 + i1 * e, ss0, dst + (ptrdiff_t)i1 * ds1 + f0 * e, ds1,
                      n0 - f0, n1 - i1 < m ? n1 - i1 : m);
}

#define TL_NEON_TRANSPOSE(fn, micro_fn, E, M, MICRO)                                              \
    static void micro_fn(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds)      \
    {                                                                                             \
        MICRO(s, ss, d, ds);                                                                      \
    }                                                                                             \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,  \
            int stream);                                                                          \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,  \
            int stream)                                                                           \
    {                                                                                             \
        (void)stream; \
        size_t f0 = n0 / M * M, f1 = n1 / M * M;                                                  \
        for (size_t b1 = 0; b1 < f1; b1 += 64)                                                    \
            for (size_t b0 = 0; b0 < f0; b0 += 64)                                                \
                for (size_t i1 = b1; i1 < f1 && i1 < b1 + 64; i1 += M)                           \
                    for (size_t i0 = b0; i0 < f0 && i0 < b0 + 64; i0 += M)                       \
                        MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
        if (f0 < n0 || f1 < n1) edges(micro_fn, E, M, src, ss0, dst, ds1, n0, n1);     \
    }

TL_NEON_TRANSPOSE(tl_x32_transpose_ukernel__neon, tl_neon_tr_x32, 4, 4, tl_nm_x32_4x4)
TL_NEON_TRANSPOSE(tl_x16_transpose_ukernel__neon, tl_neon_tr_x16, 2, 8, tl_nm_x16_8x8)
TL_NEON_TRANSPOSE(tl_x8_transpose_ukernel__neon, tl_neon_tr_x8, 1, 16, tl_nm_x8_16x16)
#endif
