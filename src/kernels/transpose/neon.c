/* Tiled transposes, NEON (AArch64 and Armv7): 4x4 of 32-bit and 16-bit,
 * 8x8 of bytes, by vtrn ladders; plain copies for the edges. */
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline void micro_x32_4x4(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    uint32x4_t a = vld1q_u32((const uint32_t *)s), b = vld1q_u32((const uint32_t *)(s + ss0));
    uint32x4_t c = vld1q_u32((const uint32_t *)(s + 2 * ss0)), e = vld1q_u32((const uint32_t *)(s + 3 * ss0));
    uint32x4x2_t ab = vtrnq_u32(a, b), ce = vtrnq_u32(c, e);
    vst1q_u32((uint32_t *)d, vcombine_u32(vget_low_u32(ab.val[0]), vget_low_u32(ce.val[0])));
    vst1q_u32((uint32_t *)(d + ds1), vcombine_u32(vget_low_u32(ab.val[1]), vget_low_u32(ce.val[1])));
    vst1q_u32((uint32_t *)(d + 2 * ds1), vcombine_u32(vget_high_u32(ab.val[0]), vget_high_u32(ce.val[0])));
    vst1q_u32((uint32_t *)(d + 3 * ds1), vcombine_u32(vget_high_u32(ab.val[1]), vget_high_u32(ce.val[1])));
}

static inline void micro_x16_4x4(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    uint16x4_t a = vld1_u16((const uint16_t *)s), b = vld1_u16((const uint16_t *)(s + ss0));
    uint16x4_t c = vld1_u16((const uint16_t *)(s + 2 * ss0)), e = vld1_u16((const uint16_t *)(s + 3 * ss0));
    uint16x4x2_t ab = vtrn_u16(a, b), ce = vtrn_u16(c, e);
    uint32x2x2_t lo = vtrn_u32(vreinterpret_u32_u16(ab.val[0]), vreinterpret_u32_u16(ce.val[0]));
    uint32x2x2_t hi = vtrn_u32(vreinterpret_u32_u16(ab.val[1]), vreinterpret_u32_u16(ce.val[1]));
    vst1_u16((uint16_t *)d, vreinterpret_u16_u32(lo.val[0]));
    vst1_u16((uint16_t *)(d + ds1), vreinterpret_u16_u32(hi.val[0]));
    vst1_u16((uint16_t *)(d + 2 * ds1), vreinterpret_u16_u32(lo.val[1]));
    vst1_u16((uint16_t *)(d + 3 * ds1), vreinterpret_u16_u32(hi.val[1]));
}

static inline void micro_x8_8x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    uint8x8_t r[8];
    for (int i = 0; i < 8; i++) r[i] = vld1_u8(s + i * ss0);
    uint8x8x2_t t0 = vtrn_u8(r[0], r[1]), t1 = vtrn_u8(r[2], r[3]), t2 = vtrn_u8(r[4], r[5]), t3 = vtrn_u8(r[6], r[7]);
    uint16x4x2_t u0 = vtrn_u16(vreinterpret_u16_u8(t0.val[0]), vreinterpret_u16_u8(t1.val[0]));
    uint16x4x2_t u1 = vtrn_u16(vreinterpret_u16_u8(t0.val[1]), vreinterpret_u16_u8(t1.val[1]));
    uint16x4x2_t u2 = vtrn_u16(vreinterpret_u16_u8(t2.val[0]), vreinterpret_u16_u8(t3.val[0]));
    uint16x4x2_t u3 = vtrn_u16(vreinterpret_u16_u8(t2.val[1]), vreinterpret_u16_u8(t3.val[1]));
    uint32x2x2_t v0 = vtrn_u32(vreinterpret_u32_u16(u0.val[0]), vreinterpret_u32_u16(u2.val[0]));
    uint32x2x2_t v1 = vtrn_u32(vreinterpret_u32_u16(u1.val[0]), vreinterpret_u32_u16(u3.val[0]));
    uint32x2x2_t v2 = vtrn_u32(vreinterpret_u32_u16(u0.val[1]), vreinterpret_u32_u16(u2.val[1]));
    uint32x2x2_t v3 = vtrn_u32(vreinterpret_u32_u16(u1.val[1]), vreinterpret_u32_u16(u3.val[1]));
    vst1_u8(d, vreinterpret_u8_u32(v0.val[0]));
    vst1_u8(d + ds1, vreinterpret_u8_u32(v1.val[0]));
    vst1_u8(d + 2 * ds1, vreinterpret_u8_u32(v2.val[0]));
    vst1_u8(d + 3 * ds1, vreinterpret_u8_u32(v3.val[0]));
    vst1_u8(d + 4 * ds1, vreinterpret_u8_u32(v0.val[1]));
    vst1_u8(d + 5 * ds1, vreinterpret_u8_u32(v1.val[1]));
    vst1_u8(d + 6 * ds1, vreinterpret_u8_u32(v2.val[1]));
    vst1_u8(d + 7 * ds1, vreinterpret_u8_u32(v3.val[1]));
}

#define TL_NEON_TRANSPOSE(E, tname, MK, MICRO)                                                    \
    void tl_##tname##_transpose_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,     \
                                              ptrdiff_t ds1, size_t n0, size_t n1);               \
    void tl_##tname##_transpose_ukernel__neon(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,     \
                                              ptrdiff_t ds1, size_t n0, size_t n1)                \
    {                                                                                             \
        size_t f0 = n0 / MK * MK, f1 = n1 / MK * MK;                                              \
        for (size_t b1 = 0; b1 < f1; b1 += 64)                                                    \
            for (size_t b0 = 0; b0 < f0; b0 += 64)                                                \
                for (size_t i1 = b1; i1 < f1 && i1 < b1 + 64; i1 += MK)                           \
                    for (size_t i0 = b0; i0 < f0 && i0 < b0 + 64; i0 += MK)                       \
                        MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
        for (size_t i1 = 0; i1 < n1; i1++) /* edges: right columns, then bottom rows */           \
            for (size_t i0 = i1 < f1 ? f0 : 0; i0 < n0; i0++)                                     \
                memcpy(dst + (ptrdiff_t)i1 * ds1 + i0 * E, src + (ptrdiff_t)i0 * ss0 + i1 * E, E); \
    }

TL_NEON_TRANSPOSE(4, x32, 4, micro_x32_4x4)
TL_NEON_TRANSPOSE(2, x16, 4, micro_x16_4x4)
TL_NEON_TRANSPOSE(1, x8, 8, micro_x8_8x8)
#endif
