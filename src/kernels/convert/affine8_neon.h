/* 8-bit tables that are an affine map in 16-bit fixed point (tl_cvt
 * affine8), NEON: shared by the convert rows (convert/neon.c) and the rows
 * (de)interleaves (interleave/neon.c), which map each plane's register. */
#ifndef TL_KERNELS_CONVERT_AFFINE8_NEON_H
#define TL_KERNELS_CONVERT_AFFINE8_NEON_H
#include <arm_neon.h>

#include "kernels/kernels.h" /* tl_cvt */

/* The map's constants in registers. Without the kept bit (odd 0: rounding
 * half up or down) the bias is folded into add, so the rounding is the
 * shift alone: two instructions per 8 codes instead of six (TIDL's v / 2).
 * Some maps need no widening at all (kind): a halving rounded down is a
 * shift of the bytes (TIDL's scale 0.5 into i8, which truncates), rounded
 * half up a rounding halving add ((v + 1) >> 1), one instruction per 16
 * codes either way; a doubling is a saturating shift left (TIDL's way
 * back); a multiplier of 1 without shift or clamping is a byte add (RKNN's
 * zero point -128). */
enum { TL_AFF8N_WIDE = 0, TL_AFF8N_HALVE_UP, TL_AFF8N_HALVE_DOWN, TL_AFF8N_DOUBLE, TL_AFF8N_ADD };
typedef struct tl_aff8n {
    int16x8_t mul, add, bias, odd, right;
    uint8x16_t add8;
    int use_odd, kind;
} tl_aff8n;

/* the add with the bias folded in where there is no kept bit (the plan
 * keeps it inside 16 bits) */
static inline int tl_aff8n_add(const tl_cvt *cv)
{
    return cv->affine8_add + (cv->affine8_odd ? 0 : cv->affine8_bias);
}

static inline int tl_aff8n_kind(const tl_cvt *cv)
{
    int sh = cv->affine8_shift, mul = cv->affine8_mul, add = tl_aff8n_add(cv), odd = cv->affine8_odd != 0;
    int lo = cv->sdt == TL_I8 ? -128 : 0, dlo = cv->ddt == TL_I8 ? -128 : 0;
    if (mul == 1 && sh == 1 && !odd && (add == 0 || add == 1)) return add ? TL_AFF8N_HALVE_UP : TL_AFF8N_HALVE_DOWN;
    if (mul == 2 && sh == 0 && add == 0) return TL_AFF8N_DOUBLE;
    if (mul == 1 && sh == 0 && lo + add >= dlo && lo + 255 + add <= dlo + 255) return TL_AFF8N_ADD;
    return TL_AFF8N_WIDE;
}

static inline tl_aff8n tl_aff8n_init(const tl_cvt *cv)
{
    int add = tl_aff8n_add(cv);
    tl_aff8n k = {vdupq_n_s16(cv->affine8_mul), vdupq_n_s16((int16_t)add), vdupq_n_s16(cv->affine8_bias),
                  vdupq_n_s16(cv->affine8_odd), vdupq_n_s16((int16_t)-cv->affine8_shift), vdupq_n_u8((uint8_t)add),
                  cv->affine8_odd != 0, tl_aff8n_kind(cv)};
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

/* The maps that stay in bytes (kind), with the destination's range */
static inline __attribute__((always_inline)) uint8x16_t tl_aff8n_narrow_kind(uint8x16_t v, const tl_aff8n *k,
                                                                             int s_signed, int d_signed)
{
    const int8x16_t zs = vdupq_n_s8(0);
    if (k->kind == TL_AFF8N_ADD) return vaddq_u8(v, k->add8);
    if (k->kind == TL_AFF8N_HALVE_UP || k->kind == TL_AFF8N_HALVE_DOWN) { /* -64 .. 64 or 0 .. 128 */
        int up = k->kind == TL_AFF8N_HALVE_UP;
        if (s_signed) {
            int8x16_t x = vreinterpretq_s8_u8(v), r = up ? vrhaddq_s8(x, zs) : vshrq_n_s8(x, 1);
            return vreinterpretq_u8_s8(d_signed ? r : vmaxq_s8(r, zs));
        }
        uint8x16_t r = up ? vrhaddq_u8(v, vdupq_n_u8(0)) : vshrq_n_u8(v, 1);
        return d_signed && up ? vminq_u8(r, vdupq_n_u8(127)) : r;
    }
    /* doubling */
    if (s_signed)
        return d_signed ? vreinterpretq_u8_s8(vqshlq_n_s8(vreinterpretq_s8_u8(v), 1)) : vqshluq_n_s8(vreinterpretq_s8_u8(v), 1);
    uint8x16_t r = vqshlq_n_u8(v, 1);
    return d_signed ? vminq_u8(r, vdupq_n_u8(127)) : r;
}

/* 16 codes through the map: in bytes where the kind allows, else widened
 * (sign or zero), mapped, narrowed with the destination's saturation.
 * s_signed, d_signed: constants at the callers. */
static inline __attribute__((always_inline)) uint8x16_t tl_aff8n_bytes(uint8x16_t v, const tl_aff8n *k, int s_signed,
                                                                       int d_signed)
{
    if (k->kind != TL_AFF8N_WIDE) return tl_aff8n_narrow_kind(v, k, s_signed, d_signed);
    int16x8_t l = s_signed ? vmovl_s8(vreinterpret_s8_u8(vget_low_u8(v)))
                           : vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v)));
    int16x8_t h = s_signed ? vmovl_s8(vreinterpret_s8_u8(vget_high_u8(v)))
                           : vreinterpretq_s16_u16(vmovl_u8(vget_high_u8(v)));
    l = tl_aff8n_lanes(l, k), h = tl_aff8n_lanes(h, k);
    if (d_signed) return vreinterpretq_u8_s8(vcombine_s8(vqmovn_s16(l), vqmovn_s16(h)));
    return vcombine_u8(vqmovun_s16(l), vqmovun_s16(h));
}

/* A byte map as the NEON byte kernels instantiate it (tl_map8; a constant in
 * each instantiation, so the loops carry no tests): TL_MAP8_MOVE none,
 * TL_MAP8_TO_I8 / TL_MAP8_TO_U8 the u8 <-> i8 saturation of identity
 * quantizations, TL_MAP8_AFFINE + s_signed + 2 * d_signed the affine byte
 * map (k, its kind tested per register), TL_MAP8_ADD that map when it is
 * a byte add (tested per register it cost a fifth of RKNN's NC1HWC2 step).
 * The rows (de)interleaves and the 3-byte pixel moves share it. */
enum { TL_MAP8_MOVE = 0, TL_MAP8_TO_I8 = 1, TL_MAP8_TO_U8 = 2, TL_MAP8_AFFINE = 3, TL_MAP8_ADD = 7 };

static inline __attribute__((always_inline)) uint8x16_t tl_map8_bytes(uint8x16_t v, const tl_aff8n *k, int map)
{
    if (map == TL_MAP8_ADD) return vaddq_u8(v, k->add8);
    if (map == TL_MAP8_TO_I8) return vminq_u8(v, vdupq_n_u8(127));
    if (map == TL_MAP8_TO_U8) return vreinterpretq_u8_s8(vmaxq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(0)));
    if (map >= TL_MAP8_AFFINE)
        return tl_aff8n_bytes(v, k, (map - TL_MAP8_AFFINE) & 1, (map - TL_MAP8_AFFINE) >> 1);
    return v;
}

/* one code through the same map (the affine ones by the plan's table) */
static inline uint8_t tl_map8_code(uint8_t x, const tl_cvt *cv, int map)
{
    return map == TL_MAP8_TO_I8   ? (x > 127 ? 127 : x)
           : map == TL_MAP8_TO_U8 ? (x > 127 ? 0 : x)
           : map >= TL_MAP8_AFFINE ? cv->lut[x]
                                   : x;
}

#endif
