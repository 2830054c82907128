/* Tiled transposes, NEON (AArch64 and Armv7): q-register blocks of 16x16
 * bytes, 8x8 of 16-bit and 4x4 of 32-bit elements (neon_micro.h), visited in
 * 64x64-element cache tiles. The right and bottom edges are whole register
 * blocks that end at the edge, over part of the blocks before them; a side
 * shorter than a block goes through a stack tile (libyuv's ANY). Nothing
 * outside the caller's rows is read or written. */
#if defined(__ARM_NEON)
#include "kernels/transpose/neon_micro.h"

/* A block of rows (<= m) source rows of cols (<= m) elements: the register
 * block itself when whole, else through a stack tile. */
static void edge_block(tl_nm_fn micro, size_t e, size_t m, const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                       ptrdiff_t ds1, size_t rows, size_t cols)
{
    if (rows == m && cols == m) {
        micro(src, ss0, dst, ds1);
        return;
    }
    tl_nm_tile(micro, e, m, m, src, ss0, dst, ds1, rows, cols);
}

/* The right edge (the columns past f1, for rows 0..f0), then the bottom rows
 * past f0. A side of at least m elements ends with a whole block at n - m,
 * over part of the last one: those bytes are written twice, with the same
 * values, and no stack tile is needed (NCHW <-> NHWC u8 C = 64, 12 x 13:
 * 0.38 and 0.44 -> 0.29 instructions per byte on AArch64, 0.50 and 0.55 ->
 * 0.35 on Armv7; bench/icount_arm.sh --size 10K). A shorter side is one
 * stack tile. */
static void edges(tl_nm_fn micro, size_t e, size_t m, const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                  ptrdiff_t ds1, size_t n0, size_t n1)
{
    size_t f0 = n0 / m * m, f1 = n1 / m * m;
    size_t l0 = n0 < m ? 0 : n0 - m, r0 = n0 < m ? n0 : m; /* the bottom block: first row, rows */
    size_t l1 = n1 < m ? 0 : n1 - m, r1 = n1 < m ? n1 : m; /* the right block: first column, columns */
    if (f1 < n1)
        for (size_t i0 = 0; i0 < f0; i0 += m)
            edge_block(micro, e, m, src + (ptrdiff_t)i0 * ss0 + l1 * e, ss0, dst + (ptrdiff_t)l1 * ds1 + i0 * e, ds1, m,
                       r1);
    if (f0 < n0)
        for (size_t i1 = 0; i1 < n1; i1 += m) {
            size_t c1 = i1 + m <= n1 ? i1 : l1;
            edge_block(micro, e, m, src + (ptrdiff_t)l0 * ss0 + c1 * e, ss0, dst + (ptrdiff_t)c1 * ds1 + l0 * e, ds1,
                       r0, i1 + m <= n1 ? m : r1);
        }
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
