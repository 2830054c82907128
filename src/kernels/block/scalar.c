/* Block pack/unpack (NCHW <-> NCHWVc), scalar C, V fixed per kernel so the
 * inner loop is fully unrolled. */
#include <string.h>

#include "kernels/kernels.h"

#define TL_SCALAR_BLOCK(pack_fn, unpack_fn, E, V)                                                \
    void pack_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,      \
                 size_t n1, int stream);                                                         \
    void pack_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,      \
                 size_t n1, int stream)                                                          \
    {                                                                                            \
        (void)stream;                                                                              \
        (void)n0;                                                                                \
        for (size_t i1 = 0; i1 < n1; i1++)                                                       \
            for (int v = 0; v < V; v++)                                                          \
                memcpy(dst + (ptrdiff_t)i1 * ds1 + v * E, src + v * ss0 + i1 * E, E);            \
    }                                                                                            \
    void unpack_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,    \
                   size_t n1, int stream);                                                       \
    void unpack_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,    \
                   size_t n1, int stream)                                                        \
    {                                                                                            \
        (void)stream;                                                                              \
        (void)n1;                                                                                \
        for (int v = 0; v < V; v++)                                                              \
            for (size_t i0 = 0; i0 < n0; i0++)                                                   \
                memcpy(dst + v * ds1 + i0 * E, src + (ptrdiff_t)i0 * ss0 + v * E, E);            \
    }

TL_SCALAR_BLOCK(tl_x8_pack4_ukernel__scalar, tl_x8_unpack4_ukernel__scalar, 1, 4)
TL_SCALAR_BLOCK(tl_x16_pack4_ukernel__scalar, tl_x16_unpack4_ukernel__scalar, 2, 4)
TL_SCALAR_BLOCK(tl_x32_pack4_ukernel__scalar, tl_x32_unpack4_ukernel__scalar, 4, 4)
TL_SCALAR_BLOCK(tl_x8_pack8_ukernel__scalar, tl_x8_unpack8_ukernel__scalar, 1, 8)
TL_SCALAR_BLOCK(tl_x16_pack8_ukernel__scalar, tl_x16_unpack8_ukernel__scalar, 2, 8)
TL_SCALAR_BLOCK(tl_x32_pack8_ukernel__scalar, tl_x32_unpack8_ukernel__scalar, 4, 8)
TL_SCALAR_BLOCK(tl_x8_pack16_ukernel__scalar, tl_x8_unpack16_ukernel__scalar, 1, 16)
TL_SCALAR_BLOCK(tl_x16_pack16_ukernel__scalar, tl_x16_unpack16_ukernel__scalar, 2, 16)
TL_SCALAR_BLOCK(tl_x32_pack16_ukernel__scalar, tl_x32_unpack16_ukernel__scalar, 4, 16)
TL_SCALAR_BLOCK(tl_x8_pack32_ukernel__scalar, tl_x8_unpack32_ukernel__scalar, 1, 32)
TL_SCALAR_BLOCK(tl_x16_pack32_ukernel__scalar, tl_x16_unpack32_ukernel__scalar, 2, 32)
TL_SCALAR_BLOCK(tl_x32_pack32_ukernel__scalar, tl_x32_unpack32_ukernel__scalar, 4, 32)
