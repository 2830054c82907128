/* Tiled 2-D transpose, scalar C, for 1-, 2-, 4- and 8-byte elements.
 * dst[i1][i0] = src[i0][i1]; 16x16 tiles keep both sides in a few cache lines. */
#include <string.h>

#include "kernels/kernels.h"

#define TILE 16

#define TL_SCALAR_T(fn, E)                                                                     \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,         \
            size_t n1, int stream);                                                            \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,         \
            size_t n1, int stream)                                                             \
    {                                                                                         \
        (void)stream;                                                                           \
        for (size_t b1 = 0; b1 < n1; b1 += TILE) {                                            \
            size_t e1 = n1 - b1 < TILE ? n1 : b1 + TILE;                                      \
            for (size_t b0 = 0; b0 < n0; b0 += TILE) {                                        \
                size_t e0 = n0 - b0 < TILE ? n0 : b0 + TILE;                                  \
                for (size_t i1 = b1; i1 < e1; i1++)                                           \
                    for (size_t i0 = b0; i0 < e0; i0++)                                       \
                        memcpy(dst + (ptrdiff_t)i1 * ds1 + i0 * E,                            \
                               src + (ptrdiff_t)i0 * ss0 + i1 * E, E);                        \
            }                                                                                 \
        }                                                                                     \
    }

TL_SCALAR_T(tl_x8_transpose_ukernel__scalar, 1)
TL_SCALAR_T(tl_x16_transpose_ukernel__scalar, 2)
TL_SCALAR_T(tl_x32_transpose_ukernel__scalar, 4)
TL_SCALAR_T(tl_x64_transpose_ukernel__scalar, 8)
