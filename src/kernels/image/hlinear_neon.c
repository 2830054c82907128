/* NEON horizontal bilinear step (AArch64 and Armv7), image.h's hlinear: 8
 * outputs a step. Where the 8 first samples lie within 16 bytes of the line
 * (a resize that shrinks by less than about 2, or enlarges), one 16-byte
 * load and a table lookup give each output its byte 0 and byte cn; the
 * bytes widen to 16 bits and meet the weights in one widening multiply and
 * one widening multiply-accumulate (exact in 32 bits, like the scalar
 * twin's int arithmetic). Other steps, and the tail, go to the scalar twin. */
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
#include <arm_neon.h>

#include "kernels/image/image.h"

/* Bytes win[idx[i]] (idx < 16). */
static inline uint8x8_t lookup16(uint8x16_t win, uint8x8_t idx)
{
#if defined(__aarch64__)
    return vqtbl1_u8(win, idx);
#else
    uint8x8x2_t t = {{vget_low_u8(win), vget_high_u8(win)}};
    return vtbl2_u8(t, idx);
#endif
}

static inline int any_lane(uint32x4_t m)
{
    uint32x2_t f = vorr_u32(vget_low_u32(m), vget_high_u32(m));
    return (vget_lane_u32(f, 0) | vget_lane_u32(f, 1)) != 0;
}

void tl_u8_hlinear_ukernel__neon(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n)
{
    const uint32x4_t limit = vdupq_n_u32((uint32_t)(15 - cn)); /* both samples inside the window */
    const uint8x8_t second = vdup_n_u8((uint8_t)cn);
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        int32_t base = ofs[k];
        /* offsets before base wrap to huge unsigned values: outside the window */
        uint32x4_t r0 = vreinterpretq_u32_s32(vsubq_s32(vld1q_s32(ofs + k), vdupq_n_s32(base)));
        uint32x4_t r1 = vreinterpretq_u32_s32(vsubq_s32(vld1q_s32(ofs + k + 4), vdupq_n_s32(base)));
        if (any_lane(vorrq_u32(vcgtq_u32(r0, limit), vcgtq_u32(r1, limit)))) {
            tl_u8_hlinear_ukernel__scalar(line, ofs + k, w + 2 * k, cn, h + k, 8);
            continue;
        }
        uint8x8_t i0 = vmovn_u16(vcombine_u16(vmovn_u32(r0), vmovn_u32(r1)));
        uint8x16_t win = vld1q_u8(line + base);
        int16x8_t a = vreinterpretq_s16_u16(vmovl_u8(lookup16(win, i0)));
        int16x8_t b = vreinterpretq_s16_u16(vmovl_u8(lookup16(win, vadd_u8(i0, second))));
        int16x8x2_t wt = vld2q_s16(w + 2 * k); /* val[0]: first taps' weights, val[1]: second taps' */
        int32x4_t lo = vmlal_s16(vmull_s16(vget_low_s16(a), vget_low_s16(wt.val[0])), vget_low_s16(b),
                                 vget_low_s16(wt.val[1]));
        int32x4_t hi = vmlal_s16(vmull_s16(vget_high_s16(a), vget_high_s16(wt.val[0])), vget_high_s16(b),
                                 vget_high_s16(wt.val[1]));
        vst1q_s32(h + k, lo);
        vst1q_s32(h + k + 4, hi);
    }
    tl_u8_hlinear_ukernel__scalar(line, ofs + k, w + 2 * k, cn, h + k, n - k);
}
#endif
