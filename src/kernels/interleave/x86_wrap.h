/* The tl_t2d_fn forms of the x86 interleave kernels: packed rows go to the
 * vector kernel, rows with padding lanes (or strided pixels) to plain copies. */
#include <string.h>

#define TL_ILV_T2D(t2d_fn, planes_fn, E, C)                                                   \
    void t2d_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,    \
                size_t n1, int stream);                                                       \
    void t2d_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,    \
                size_t n1, int stream)                                                        \
    {                                                                                         \
        const uint8_t *planes[C];                                                             \
        (void)n0;                                                                             \
        for (int c = 0; c < C; c++) planes[c] = src + c * ss0;                                \
        if (ds1 == C * E) {                                                                   \
            planes_fn(planes, dst, n1, stream);                                               \
            return;                                                                           \
        }                                                                                     \
        for (size_t i = 0; i < n1; i++)                                                       \
            for (int c = 0; c < C; c++) memcpy(dst + (ptrdiff_t)i * ds1 + c * E, planes[c] + i * E, E); \
    }

/* De-interleave: the vector body for packed pixels (ss0 == C * E), STEP
 * pixels a step; the last pixels of a row of at least STEP as one more step
 * over its last STEP pixels (some written twice, with the same values), not
 * one by one (TIDL's padded planes: a row of 296 pixels left 8 to the byte
 * loop, per image row). */
#define TL_DILV_T2D(fn, E, C, BODY, STEP)                                                     \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,        \
            size_t n1, int stream);                                                           \
    TL_KERNEL void fn(                                                                        \
        const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1, int stream)  \
    {                                                                                         \
        size_t i = 0;                                                                         \
        (void)n1;                                                                             \
        if (ss0 == C * E) {                                                                   \
            i = BODY(src, dst, ds1, n0, stream);                                              \
            /* done only if the body took the whole window (a body whose */               \
            /* step is not STEP leaves the rest to the loop below) */                      \
            if (i < n0 && n0 >= STEP &&                                                       \
                BODY(src + (n0 - STEP) * C * E, dst + (n0 - STEP) * E, ds1, STEP, stream) == STEP) \
                i = n0;                                                                       \
        }                                                                                     \
        for (; i < n0; i++)                                                                   \
            for (int c = 0; c < C; c++) memcpy(dst + c * ds1 + i * E, src + (ptrdiff_t)i * ss0 + c * E, E); \
    }

/* The planes kernel: vector body, then the remaining pixels one by one. */
#define TL_ILV_PLANES(fn, E, C, BODY)                                                         \
    void fn(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream);                \
    TL_KERNEL void fn(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream)       \
    {                                                                                         \
        size_t i = BODY(planes, dst, n, stream);                                                      \
        for (; i < n; i++)                                                                    \
            for (int c = 0; c < C; c++) {                                                     \
                if (planes[c]) memcpy(dst + (i * C + c) * E, planes[c] + i * E, E);            \
                else memset(dst + (i * C + c) * E, 0, E);                                     \
            }                                                                                 \
    }
