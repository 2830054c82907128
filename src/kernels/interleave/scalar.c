/* Interleave, de-interleave and channel re-pack, scalar C. */
#include <string.h>

#include "kernels/kernels.h"

#define TL_SCALAR_IL(fn, t2d_fn, E, C)                                                          \
    void fn(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream);                  \
    void fn(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream)                   \
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
    void t2d_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,      \
                size_t n1, int stream);                                                         \
    void t2d_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,      \
                size_t n1, int stream)                                                          \
    {                                                                                           \
        (void)stream; \
        const uint8_t *planes[C];                                                               \
        (void)n0;                                                                               \
        for (int c = 0; c < C; c++) planes[c] = src + c * ss0;                                  \
        if (ds1 == C * E) {                                                                     \
            fn(planes, dst, n1, stream);                                                        \
            return;                                                                             \
        }                                                                                       \
        for (size_t i = 0; i < n1; i++) /* rows wider than C: padding lanes */                  \
            for (int c = 0; c < C; c++) memcpy(dst + (ptrdiff_t)i * ds1 + c * E, planes[c] + i * E, E); \
    }

#define TL_SCALAR_DL(fn, E, C)                                                                  \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,          \
            size_t n1, int stream);                                                             \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,          \
            size_t n1, int stream)                                                              \
    {                                                                                           \
        (void)stream; \
        (void)n1;                                                                               \
        for (int c = 0; c < C; c++)                                                             \
            for (size_t i = 0; i < n0; i++)                                                     \
                memcpy(dst + c * ds1 + i * E, src + (ptrdiff_t)i * ss0 + c * E, E);             \
    }

#define TL_SCALAR_RP(fn, E, CS, H, T)                                                           \
    void fn(const uint8_t *src, uint8_t *dst, size_t n, int nt);                                \
    void fn(const uint8_t *src, uint8_t *dst, size_t n, int nt)                                 \
    {                                                                                           \
        (void)nt;                                                                               \
        for (size_t i = 0; i < n; i++) {                                                        \
            uint8_t *d = dst + i * (H + CS + T) * E;                                            \
            if (H) memset(d, 0, (size_t)H * E);                                                 \
            memcpy(d + H * E, src + i * CS * E, (size_t)CS * E);                                \
            if (T) memset(d + (H + CS) * E, 0, (size_t)T * E);                                  \
        }                                                                                       \
    }

TL_SCALAR_IL(tl_x8_interleave2_ukernel__scalar, tl_x8_interleave2_t2d_ukernel__scalar, 1, 2)
TL_SCALAR_IL(tl_x16_interleave2_ukernel__scalar, tl_x16_interleave2_t2d_ukernel__scalar, 2, 2)
TL_SCALAR_IL(tl_x32_interleave2_ukernel__scalar, tl_x32_interleave2_t2d_ukernel__scalar, 4, 2)
TL_SCALAR_IL(tl_x8_interleave3_ukernel__scalar, tl_x8_interleave3_t2d_ukernel__scalar, 1, 3)
TL_SCALAR_IL(tl_x16_interleave3_ukernel__scalar, tl_x16_interleave3_t2d_ukernel__scalar, 2, 3)
TL_SCALAR_IL(tl_x32_interleave3_ukernel__scalar, tl_x32_interleave3_t2d_ukernel__scalar, 4, 3)
TL_SCALAR_IL(tl_x8_interleave4_ukernel__scalar, tl_x8_interleave4_t2d_ukernel__scalar, 1, 4)
TL_SCALAR_IL(tl_x16_interleave4_ukernel__scalar, tl_x16_interleave4_t2d_ukernel__scalar, 2, 4)
TL_SCALAR_IL(tl_x32_interleave4_ukernel__scalar, tl_x32_interleave4_t2d_ukernel__scalar, 4, 4)
TL_SCALAR_DL(tl_x8_deinterleave2_ukernel__scalar, 1, 2)
TL_SCALAR_DL(tl_x16_deinterleave2_ukernel__scalar, 2, 2)
TL_SCALAR_DL(tl_x32_deinterleave2_ukernel__scalar, 4, 2)
TL_SCALAR_DL(tl_x8_deinterleave3_ukernel__scalar, 1, 3)
TL_SCALAR_DL(tl_x16_deinterleave3_ukernel__scalar, 2, 3)
TL_SCALAR_DL(tl_x32_deinterleave3_ukernel__scalar, 4, 3)
TL_SCALAR_DL(tl_x8_deinterleave4_ukernel__scalar, 1, 4)
TL_SCALAR_DL(tl_x16_deinterleave4_ukernel__scalar, 2, 4)
TL_SCALAR_DL(tl_x32_deinterleave4_ukernel__scalar, 4, 4)
TL_SCALAR_RP(tl_x8_repack3_0_1_ukernel__scalar, 1, 3, 0, 1)
TL_SCALAR_RP(tl_x16_repack3_0_1_ukernel__scalar, 2, 3, 0, 1)
TL_SCALAR_RP(tl_x32_repack3_0_1_ukernel__scalar, 4, 3, 0, 1)
TL_SCALAR_RP(tl_x8_repack1_0_3_ukernel__scalar, 1, 1, 0, 3)
TL_SCALAR_RP(tl_x16_repack1_0_3_ukernel__scalar, 2, 1, 0, 3)
TL_SCALAR_RP(tl_x32_repack1_0_3_ukernel__scalar, 4, 1, 0, 3)
TL_SCALAR_RP(tl_x8_repack2_0_2_ukernel__scalar, 1, 2, 0, 2)
TL_SCALAR_RP(tl_x16_repack2_0_2_ukernel__scalar, 2, 2, 0, 2)
TL_SCALAR_RP(tl_x32_repack2_0_2_ukernel__scalar, 4, 2, 0, 2)
TL_SCALAR_RP(tl_x8_repack1_0_1_ukernel__scalar, 1, 1, 0, 1)
TL_SCALAR_RP(tl_x16_repack1_0_1_ukernel__scalar, 2, 1, 0, 1)
TL_SCALAR_RP(tl_x32_repack1_0_1_ukernel__scalar, 4, 1, 0, 1)
