/* Tiling shared by the x86 transposes: 64x64-element tiles (both sides stay in
 * L1/L2 while a tile is done), an MK x MK register micro-kernel inside, and
 * plain element copies for the edges. The including file defines
 * MICRO(src, ss0, dst, ds1) for one MK x MK block and TL_FN/TL_KERNEL. */
#include <string.h>

#define TL_T_TILE 64

#define TL_X86_TRANSPOSE(isa, E, tname, MK)                                                    \
    TL_FN void tname##_edges(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,   \
                              size_t a0, size_t e0, size_t a1, size_t e1)                     \
    {                                                                                         \
        for (size_t i1 = a1; i1 < e1; i1++)                                                   \
            for (size_t i0 = a0; i0 < e0; i0++)                                               \
                memcpy(dst + (ptrdiff_t)i1 * ds1 + i0 * E, src + (ptrdiff_t)i0 * ss0 + i1 * E, E); \
    }                                                                                         \
    void tl_##tname##_transpose_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, \
                                               ptrdiff_t ds1, size_t n0, size_t n1);          \
    TL_KERNEL void tl_##tname##_transpose_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0,   \
                                                         uint8_t *dst, ptrdiff_t ds1,         \
                                                         size_t n0, size_t n1)                \
    {                                                                                         \
        size_t f0 = n0 / MK * MK, f1 = n1 / MK * MK;                                          \
        for (size_t b1 = 0; b1 < f1; b1 += TL_T_TILE) {                                       \
            size_t e1 = b1 + TL_T_TILE < f1 ? b1 + TL_T_TILE : f1;                            \
            for (size_t b0 = 0; b0 < f0; b0 += TL_T_TILE) {                                   \
                size_t e0 = b0 + TL_T_TILE < f0 ? b0 + TL_T_TILE : f0;                        \
                for (size_t i1 = b1; i1 < e1; i1 += MK)                                       \
                    for (size_t i0 = b0; i0 < e0; i0 += MK)                                   \
                        MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0,                        \
                              dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1);                       \
            }                                                                                 \
        }                                                                                     \
        tname##_edges(src, ss0, dst, ds1, f0, n0, 0, f1); /* right columns */                 \
        tname##_edges(src, ss0, dst, ds1, 0, n0, f1, n1); /* bottom rows */                   \
    }
