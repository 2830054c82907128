/* 8-bit tables that are an affine map in 16-bit fixed point (tl_cvt
 * affine8), NEON: shared by the convert rows (convert/neon.c) and the rows
 * (de)interleaves (interleave/neon.c), which map each plane's register. */
#ifndef TL_KERNELS_CONVERT_AFFINE8_NEON_H
#define TL_KERNELS_CONVERT_AFFINE8_NEON_H
#include <arm_neon.h>

#include "kernels/kernels.h" /* tl_cvt */

/* The map's constants in registers. Without the kept bit (odd 0: rounding
 * half up or down) the bias is folded into add, so the rounding is the
 * shift alone: two instructions per 8 codes instead of six (TIDL's v / 2). */
typedef struct tl_aff8n {
    int16x8_t mul, add, bias, odd, right;
    int use_odd;
} tl_aff8n;

static inline tl_aff8n tl_aff8n_init(const tl_cvt *cv)
{
    int use_odd = cv->affine8_odd != 0;
    tl_aff8n k = {vdupq_n_s16(cv->affine8_mul),
                  vdupq_n_s16((int16_t)(cv->affine8_add + (use_odd ? 0 : cv->affine8_bias))),
                  vdupq_n_s16(cv->affine8_bias), vdupq_n_s16(cv->affine8_odd),
                  vdupq_n_s16((int16_t)-cv->affine8_shift), use_odd};
    return k;
}

/* 8 codes widened to 16 bits: times mul plus add (one multiply-accumulate),
 * the kept bit and bias for half to even, the shift right */
static inline __attribute__((always_inline)) int16x8_t tl_aff8n_lanes(int16x8_t t, const tl_aff8n *k)
{
    t = vmlaq_s16(k->add, t, k->mul);
    if (k->use_odd) t = vaddq_s16(vaddq_s16(t, k->bias), vandq_s16(vshlq_s16(t, k->right), k->odd));
    return vshlq_s16(t, k->right);
}

/* 16 codes through the map: widened (sign or zero), narrowed with the
 * destination's saturation. s_signed, d_signed: constants at the callers. */
static inline __attribute__((always_inline)) uint8x16_t tl_aff8n_bytes(uint8x16_t v, const tl_aff8n *k, int s_signed,
                                                                       int d_signed)
{
    int16x8_t l = s_signed ? vmovl_s8(vreinterpret_s8_u8(vget_low_u8(v)))
                           : vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v)));
    int16x8_t h = s_signed ? vmovl_s8(vreinterpret_s8_u8(vget_high_u8(v)))
                           : vreinterpretq_s16_u16(vmovl_u8(vget_high_u8(v)));
    l = tl_aff8n_lanes(l, k), h = tl_aff8n_lanes(h, k);
    if (d_signed) return vreinterpretq_u8_s8(vcombine_s8(vqmovn_s16(l), vqmovn_s16(h)));
    return vcombine_u8(vqmovun_s16(l), vqmovun_s16(h));
}

#endif
