/* Block pack/unpack (NCHW <-> NCHWVc), scalar C, V fixed per kernel so the
 * inner loop is fully unrolled. */
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/block/block.inc"

#define TL_SCALAR_BLOCK(isa, ISA, E, tname, V)                                                   \
    void tl_##tname##_pack##V##_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,   \
                                                ptrdiff_t ds1, size_t n0, size_t n1, int stream);            \
    void tl_##tname##_pack##V##_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,   \
                                                ptrdiff_t ds1, size_t n0, size_t n1, int stream)             \
    {                                                                                            \
        (void)stream;                                                                              \
        (void)n0;                                                                                \
        for (size_t i1 = 0; i1 < n1; i1++)                                                       \
            for (int v = 0; v < V; v++)                                                          \
                memcpy(dst + (ptrdiff_t)i1 * ds1 + v * E, src + v * ss0 + i1 * E, E);            \
    }                                                                                            \
    void tl_##tname##_unpack##V##_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, \
                                                  ptrdiff_t ds1, size_t n0, size_t n1, int stream);          \
    void tl_##tname##_unpack##V##_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, \
                                                  ptrdiff_t ds1, size_t n0, size_t n1, int stream)           \
    {                                                                                            \
        (void)stream;                                                                              \
        (void)n1;                                                                                \
        for (int v = 0; v < V; v++)                                                              \
            for (size_t i0 = 0; i0 < n0; i0++)                                                   \
                memcpy(dst + v * ds1 + i0 * E, src + (ptrdiff_t)i0 * ss0 + v * E, E);            \
    }

TL_BLOCK_SCALAR(TL_SCALAR_BLOCK)
