/* Interleave, de-interleave and RGB -> RGB0, NEON: the structure loads and
 * stores (vld3/vst3/vst4) do the shuffling; zero lanes are a zero register. */
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint8x16_t ld8(const uint8_t *p, size_t i) { return p ? vld1q_u8(p + i) : vdupq_n_u8(0); }
static inline uint32x4_t ld32(const uint8_t *p, size_t i)
{
    return p ? vld1q_u32((const uint32_t *)(p + 4 * i)) : vdupq_n_u32(0);
}

/* the remaining pixels, one by one */
static void ilv_rest(const uint8_t *const *pl, uint8_t *d, size_t i, size_t n, int c, size_t e)
{
    for (; i < n; i++)
        for (int k = 0; k < c; k++) {
            if (pl[k]) memcpy(d + (i * (size_t)c + (size_t)k) * e, pl[k] + i * e, e);
            else memset(d + (i * (size_t)c + (size_t)k) * e, 0, e);
        }
}

#define TL_NEON_ILV_T2D(E, tname, C)                                                              \
    void tl_##tname##_interleave##C##_t2d_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, \
                                                        ptrdiff_t ds1, size_t n0, size_t n1);     \
    void tl_##tname##_interleave##C##_t2d_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, \
                                                        ptrdiff_t ds1, size_t n0, size_t n1)      \
    {                                                                                             \
        const uint8_t *planes[C];                                                                 \
        (void)n0;                                                                                 \
        for (int c = 0; c < C; c++) planes[c] = src + c * ss0;                                    \
        if (ds1 == C * E) {                                                                       \
            tl_##tname##_interleave##C##_ukernel__neon(planes, dst, n1);                          \
            return;                                                                               \
        }                                                                                         \
        for (size_t i = 0; i < n1; i++)                                                           \
            for (int c = 0; c < C; c++) memcpy(dst + (ptrdiff_t)i * ds1 + c * E, planes[c] + i * E, E); \
    }

void tl_x8_interleave2_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n);
void tl_x8_interleave2_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint8x16x2_t v = {{ld8(pl[0], i), ld8(pl[1], i)}};
        vst2q_u8(d + 2 * i, v);
    }
    ilv_rest(pl, d, i, n, 2, 1);
}

void tl_x8_interleave3_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n);
void tl_x8_interleave3_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint8x16x3_t v = {{ld8(pl[0], i), ld8(pl[1], i), ld8(pl[2], i)}};
        vst3q_u8(d + 3 * i, v);
    }
    ilv_rest(pl, d, i, n, 3, 1);
}

void tl_x8_interleave4_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n);
void tl_x8_interleave4_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint8x16x4_t v = {{ld8(pl[0], i), ld8(pl[1], i), ld8(pl[2], i), ld8(pl[3], i)}};
        vst4q_u8(d + 4 * i, v);
    }
    ilv_rest(pl, d, i, n, 4, 1);
}

void tl_x32_interleave3_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n);
void tl_x32_interleave3_ukernel__neon(const uint8_t *const *pl, uint8_t *d, size_t n)
{
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        uint32x4x3_t v = {{ld32(pl[0], i), ld32(pl[1], i), ld32(pl[2], i)}};
        vst3q_u32((uint32_t *)(d + 12 * i), v);
    }
    ilv_rest(pl, d, i, n, 3, 4);
}

TL_NEON_ILV_T2D(1, x8, 2)
TL_NEON_ILV_T2D(1, x8, 3)
TL_NEON_ILV_T2D(1, x8, 4)
TL_NEON_ILV_T2D(4, x32, 3)

/* de-interleave: packed pixels (ss0 == 3 * E) by vld3, the rest by copies */
void tl_x8_deinterleave3_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,
                                       size_t n0, size_t n1);
void tl_x8_deinterleave3_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,
                                       size_t n0, size_t n1)
{
    size_t i = 0;
    (void)n1;
    if (ss0 == 3)
        for (; i + 16 <= n0; i += 16) {
            uint8x16x3_t v = vld3q_u8(src + 3 * i);
            vst1q_u8(dst + i, v.val[0]);
            vst1q_u8(dst + ds1 + i, v.val[1]);
            vst1q_u8(dst + 2 * ds1 + i, v.val[2]);
        }
    for (; i < n0; i++)
        for (int c = 0; c < 3; c++) dst[c * ds1 + (ptrdiff_t)i] = src[(ptrdiff_t)i * ss0 + c];
}

void tl_x32_deinterleave3_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,
                                        size_t n0, size_t n1);
void tl_x32_deinterleave3_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,
                                        size_t n0, size_t n1)
{
    size_t i = 0;
    (void)n1;
    if (ss0 == 12)
        for (; i + 4 <= n0; i += 4) {
            uint32x4x3_t v = vld3q_u32((const uint32_t *)(src + 12 * i));
            vst1q_u32((uint32_t *)(dst + 4 * i), v.val[0]);
            vst1q_u32((uint32_t *)(dst + ds1 + 4 * i), v.val[1]);
            vst1q_u32((uint32_t *)(dst + 2 * ds1 + 4 * i), v.val[2]);
        }
    for (; i < n0; i++)
        for (int c = 0; c < 3; c++) memcpy(dst + c * ds1 + (ptrdiff_t)i * 4, src + (ptrdiff_t)i * ss0 + c * 4, 4);
}

/* RGB -> RGB0: vld3 + vst4 with a zero lane, 16 pixels per step */
void tl_x8_repack3_0_1_ukernel__neon(const uint8_t *src, uint8_t *dst, size_t n);
void tl_x8_repack3_0_1_ukernel__neon(const uint8_t *src, uint8_t *dst, size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        uint8x16x3_t v = vld3q_u8(src + 3 * i);
        uint8x16x4_t o = {{v.val[0], v.val[1], v.val[2], vdupq_n_u8(0)}};
        vst4q_u8(dst + 4 * i, o);
    }
    for (; i < n; i++) {
        dst[4 * i] = src[3 * i];
        dst[4 * i + 1] = src[3 * i + 1];
        dst[4 * i + 2] = src[3 * i + 2];
        dst[4 * i + 3] = 0;
    }
}
#endif
