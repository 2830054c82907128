/* Interleave, de-interleave and channel re-pack, scalar C. */
#include <string.h>

#include "kernels/kernels.h"
#include "kernels/interleave/interleave.inc"

#define TL_SCALAR_IL(isa, ISA, E, tname, C)                                                     \
    void tl_##tname##_interleave##C##_ukernel__##isa(const uint8_t *const *planes, uint8_t *dst, \
                                                     size_t n, int stream);                                 \
    void tl_##tname##_interleave##C##_ukernel__##isa(const uint8_t *const *planes, uint8_t *dst, \
                                                     size_t n, int stream)                                  \
    {                                                                                           \
        (void)stream; \
        for (int c = 0; c < C; c++) {                                                           \
            const uint8_t *p = planes[c];                                                       \
            uint8_t *d = dst + c * E;                                                           \
            if (!p) {                                                                           \
                for (size_t i = 0; i < n; i++) memset(d + i * C * E, 0, E);                      \
            } else {                                                                            \
                for (size_t i = 0; i < n; i++) memcpy(d + i * C * E, p + i * E, E);              \
            }                                                                                   \
        }                                                                                       \
    }                                                                                           \
    void tl_##tname##_interleave##C##_t2d_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0,      \
                                                         uint8_t *dst, ptrdiff_t ds1, size_t n0, \
                                                         size_t n1, int stream);                            \
    void tl_##tname##_interleave##C##_t2d_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0,      \
                                                         uint8_t *dst, ptrdiff_t ds1, size_t n0, \
                                                         size_t n1, int stream)                             \
    {                                                                                           \
        (void)stream; \
        const uint8_t *planes[C];                                                               \
        (void)n0;                                                                               \
        for (int c = 0; c < C; c++) planes[c] = src + c * ss0;                                  \
        if (ds1 == C * E) {                                                                     \
            tl_##tname##_interleave##C##_ukernel__##isa(planes, dst, n1, stream);                       \
            return;                                                                             \
        }                                                                                       \
        for (size_t i = 0; i < n1; i++) /* rows wider than C: padding lanes */                  \
            for (int c = 0; c < C; c++) memcpy(dst + (ptrdiff_t)i * ds1 + c * E, planes[c] + i * E, E); \
    }

#define TL_SCALAR_DL(isa, ISA, E, tname, C)                                                     \
    void tl_##tname##_deinterleave##C##_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0,        \
                                                       uint8_t *dst, ptrdiff_t ds1, size_t n0,   \
                                                       size_t n1, int stream);                              \
    void tl_##tname##_deinterleave##C##_ukernel__##isa(const uint8_t *src, ptrdiff_t ss0,        \
                                                       uint8_t *dst, ptrdiff_t ds1, size_t n0,   \
                                                       size_t n1, int stream)                               \
    {                                                                                           \
        (void)stream; \
        (void)n1;                                                                               \
        for (int c = 0; c < C; c++)                                                             \
            for (size_t i = 0; i < n0; i++)                                                     \
                memcpy(dst + c * ds1 + i * E, src + (ptrdiff_t)i * ss0 + c * E, E);             \
    }

#define TL_SCALAR_RP(isa, ISA, E, tname, CS, H, T)                                              \
    void tl_##tname##_repack##CS##_##H##_##T##_ukernel__##isa(const uint8_t *src, uint8_t *dst,  \
                                                              size_t n);                        \
    void tl_##tname##_repack##CS##_##H##_##T##_ukernel__##isa(const uint8_t *src, uint8_t *dst,  \
                                                              size_t n)                         \
    {                                                                                           \
        for (size_t i = 0; i < n; i++) {                                                        \
            uint8_t *d = dst + i * (H + CS + T) * E;                                            \
            if (H) memset(d, 0, (size_t)H * E);                                                 \
            memcpy(d + H * E, src + i * CS * E, (size_t)CS * E);                                \
            if (T) memset(d + (H + CS) * E, 0, (size_t)T * E);                                  \
        }                                                                                       \
    }

TL_INTERLEAVE_SCALAR(TL_SCALAR_IL, TL_SCALAR_DL, TL_SCALAR_RP)
