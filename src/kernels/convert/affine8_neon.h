/* The byte maps (tl_map8, kernels.h) in NEON registers: shared by the
 * convert rows (convert/neon.c), the rows (de)interleaves
 * (interleave/neon.c) and the 3-byte pixel moves (move/neon.c), which map
 * each register between their loads and stores. */
#ifndef TL_KERNELS_CONVERT_AFFINE8_NEON_H
#define TL_KERNELS_CONVERT_AFFINE8_NEON_H
#include <arm_neon.h>

#include "kernels/kernels.h" /* tl_cvt */

/* The map's constants in registers. Without the kept bit (odd 0: rounding
 * half up or down) the bias is folded into add (tl_map8_add), so the
 * rounding is the shift alone: two instructions per 8 codes instead of
 * six. */
typedef struct tl_aff8n {
    int16x8_t mul, add, bias, odd, right;
    uint8x16_t add8;
    int use_odd;
} tl_aff8n;

static inline tl_aff8n tl_aff8n_init(const tl_cvt *cv)
{
    int add = tl_map8_add(cv);
    tl_aff8n k = {vdupq_n_s16(cv->affine8_mul), vdupq_n_s16((int16_t)add), vdupq_n_s16(cv->affine8_bias),
                  vdupq_n_s16(cv->affine8_odd), vdupq_n_s16((int16_t)-cv->affine8_shift), vdupq_n_u8((uint8_t)add),
                  cv->affine8_odd != 0};
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

/* 16 codes widened (sign or zero), mapped, narrowed with the destination's
 * saturation */
static inline __attribute__((always_inline)) uint8x16_t tl_aff8n_wide(uint8x16_t v, const tl_aff8n *k, int s_signed,
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

/* v / 2 in bytes (-64 .. 64 or 0 .. 128), up: rounded half up (a rounding
 * halving add), else down (a shift) */
static inline __attribute__((always_inline)) uint8x16_t tl_map8_halve(uint8x16_t v, int up, int s_signed, int d_signed)
{
    if (s_signed) {
        int8x16_t x = vreinterpretq_s8_u8(v), r = up ? vrhaddq_s8(x, vdupq_n_s8(0)) : vshrq_n_s8(x, 1);
        return vreinterpretq_u8_s8(d_signed ? r : vmaxq_s8(r, vdupq_n_s8(0)));
    }
    uint8x16_t r = up ? vrhaddq_u8(v, vdupq_n_u8(0)) : vshrq_n_u8(v, 1);
    return d_signed && up ? vminq_u8(r, vdupq_n_u8(127)) : r;
}

/* 2v saturated: a saturating shift left */
static inline __attribute__((always_inline)) uint8x16_t tl_map8_double(uint8x16_t v, int s_signed, int d_signed)
{
    if (s_signed)
        return d_signed ? vreinterpretq_u8_s8(vqshlq_n_s8(vreinterpretq_s8_u8(v), 1)) : vqshluq_n_s8(vreinterpretq_s8_u8(v), 1);
    uint8x16_t r = vqshlq_n_u8(v, 1);
    return d_signed ? vminq_u8(r, vdupq_n_u8(127)) : r;
}

/* 16 codes through the byte map m (a tl_map8 code, kernels.h: a constant
 * in each instantiation; k from tl_aff8n_init for the affine ones, unused,
 * and may be NULL, for a move or a saturation) */
static inline __attribute__((always_inline)) uint8x16_t tl_map8_bytes(uint8x16_t v, const tl_aff8n *k, int m)
{
    const int s = TL_MAP8_S(m), d = TL_MAP8_D(m);
    switch (TL_MAP8_OP(m)) {
    case TL_MAP8_SAT:
        return d ? vminq_u8(v, vdupq_n_u8(127)) : vreinterpretq_u8_s8(vmaxq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(0)));
    case TL_MAP8_ADD: return vaddq_u8(v, k->add8);
    case TL_MAP8_HALVE_DOWN: return tl_map8_halve(v, 0, s, d);
    case TL_MAP8_HALVE_UP: return tl_map8_halve(v, 1, s, d);
    case TL_MAP8_DOUBLE: return tl_map8_double(v, s, d);
    case TL_MAP8_WIDE: return tl_aff8n_wide(v, k, s, d);
    default: return v;
    }
}

/* k for the map m (zeros where it has no constants). A kernel keeps it in
 * the function that runs the loop: passed to a function that is not
 * inlined, it is reloaded after every store (it might alias the
 * destination). */
static inline tl_aff8n tl_map8_init(const tl_cvt *cv, int m)
{
    tl_aff8n k = {0};
    if (TL_MAP8_OP(m) >= TL_MAP8_ADD) k = tl_aff8n_init(cv);
    return k;
}

/* n codes of an 8-bit row through cv's affine byte map (map: tl_map8_of(cv),
 * an affine one), 16 a step; the last through the table
 * (convert/affine8_neon.c) */
void tl_affine8_row__neon(const uint8_t *sp, uint8_t *dp, size_t n, const tl_cvt *cv, int map);

#endif
