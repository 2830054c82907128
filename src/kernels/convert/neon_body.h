/* The NEON convert kernels' body, included by the files that name the
 * kernels: convert/neon.c (every pair, AArch64 and Armv7); on Armv7
 * convert/neonfp16.c (the pairs with f16, compiled for the VFPv4 FPU, whose
 * vcvt converts f16; without the FPU option, -mfp16-format=ieee
 * -mfpu=neon-vfpv4, Armv7 converts f16 in integer code, neon_ops.h); on
 * AArch64 convert/neonfp16arith.c (f16 <-> 8- and 16-bit codes, compiled for
 * ARMv8.2's FP16 arithmetic: one conversion where it is the rule).
 *
 * Contiguous convert, NEON (AArch64 and Armv7): pipeline.h's f32 pipeline,
 * 16 elements per step in four q registers, for all 36 pairs of u8 i8 i16
 * f16 bf16 f32 (convert.inc). neon_ops.h holds the lane operations and says
 * where Armv7 differs. Four shortcuts give the same bits as the pipeline:
 *   - integer to integer without quantization (rule c) saturates with one
 *     instruction (vmin, vmax, vqmovn, vqmovun, or a plain widening);
 *   - an 8-bit to 8-bit row of 512 elements or more is converted through a
 *     256-entry table, built by this same pipeline from the 256 codes
 *     (u8 -> i8 zero-point shifts, requantization);
 *   - on Armv7, a step whose multiply would meet a denormal goes to the scalar
 *     pipeline, and so does a row whose multiplier is itself denormal;
 *   - the destination stage drops the add and the NaN select where the addend
 *     and the NaN code are 0, the multiply too for plain codes (q_form), each
 *     form, and nearest-even, a constant in its own loop instance.
 * Tails go through a 16-element stack buffer: nothing outside the caller's
 * rows is read or written. With equal element sizes src may be dst: every
 * step reads its 16 elements before it writes them. */
#ifndef TL_CONVERT_NEON_BODY_H
#define TL_CONVERT_NEON_BODY_H
#include <string.h>

#include "kernels/convert/neon_ops.h"
#include "kernels/convert/pipeline.h"
#include "kernels/convert/affine8_neon.h"
#include "kernels/move/move.h" /* the f16 rows kernels' declarations */
#include "kernels/transpose/neon_micro.h"

/* Calls of at least this many elements (8-bit to 8-bit) build and use a table. */
#define TL_NEON_LUT_MIN 512

/* ---- the row's constants -------------------------------------------------------------- */
enum { SRC_NONE, SRC_MUL1, SRC_MUL2, SRC_DIV };

/* Copied to a local before a loop: a store through the uint8_t destination may
 * alias anything, so a loop that read *cv would reload it every step. */
typedef struct nk {
    vi zp;          /* source: ((float)(c - zp) * a) * b, or (float)(c - zp) / sdiv */
    vf a, b;
    float sdiv;
    vf da, dz;      /* destination: (x * da) + dz, tl_cvt d_mul and d_add */
    vf lo, hi;      /* integer range: Armv7's away rounding clamps to it first */
    vi nan;         /* NaN -> this code */
    int smode, round;
    bool chk;       /* Armv7: look for denormal reals (a multiplier above 2^100) */
} nk;

static bool subnormal(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    u &= 0x7FFFFFFFu;
    return u != 0 && u < 0x00800000u;
}

static void nk_src(nk *k, const tl_cvt *cv)
{
    bool zp = cv->s_q == TL_Q_AFFINE || cv->s_q == TL_Q_INV;
    k->zp = vdupq_n_s32(zp ? cv->s_zp : 0);
    k->a = k->b = vdupq_n_f32(1.0f);
    k->sdiv = 1.0f;
    k->smode = SRC_NONE;
    if (cv->s_q == TL_Q_AFFINE) {
        k->smode = SRC_MUL1;
        k->a = vdupq_n_f32(cv->s_scale);
    } else if (cv->s_q == TL_Q_INV) {
        k->smode = SRC_DIV;
        k->sdiv = cv->s_scale;
    } else if (cv->s_q == TL_Q_DFP) { /* ldexpf's split at 2^128: m2 != 1 */
        k->smode = cv->s_m2 == 1.0f ? SRC_MUL1 : SRC_MUL2;
        k->a = vdupq_n_f32(cv->s_m1);
        k->b = vdupq_n_f32(cv->s_m2);
    }
}

/* Every destination kind is (x * d_mul) + d_add (kernels.h): AFFINE by the
 * f32 reciprocal of the scale, INV by the scale, DFP by 2^fl plus 0, none by 1
 * plus 0. Adding 0 only changes the sign of a zero, which rounds to 0. */
static void nk_dst(nk *k, const tl_cvt *cv)
{
    k->da = vdupq_n_f32(cv->d_mul);
    k->dz = vdupq_n_f32(cv->d_add);
    /* Armv7 flushes a denormal real x to 0 in x * d_mul. With |d_mul| <= 2^100
     * the exact |x * d_mul| is below 2^-26: it rounds to 0 alone, and d_add
     * (an integer) plus it rounds to d_add. Only larger multipliers need a look. */
    k->chk = !TL_NEON_A64 && !(cv->d_mul <= 0x1p100f && cv->d_mul >= -0x1p100f);
    k->lo = vdupq_n_f32(cv->lo);
    k->hi = vdupq_n_f32(cv->hi);
    k->nan = vdupq_n_s32(cv->nan_code);
    k->round = cv->round;
}

/* False when the vector code cannot reproduce the row: on Armv7, a
 * multiplier that NEON would flush to zero. With normal multipliers a source
 * product is never denormal: |(float)(c - zp)| >= 1, so |x * a| >= |a|. */
static bool nk_init(nk *k, const tl_cvt *cv)
{
    nk_src(k, cv);
    nk_dst(k, cv);
    if (TL_NEON_A64) return true;
    bool smul = k->smode == SRC_MUL1 || k->smode == SRC_MUL2;
    if (smul && (subnormal(cv->s_m1) || subnormal(cv->s_m2) || subnormal(cv->s_scale))) return false;
    return !subnormal(cv->d_mul);
}

/* The scalar pipeline, element by element (tails of the integer shortcuts,
 * Armv7 steps and rows that NEON's flush to zero would change). */
__attribute__((noinline)) static void scalar_elems(int S, int D, const uint8_t *sp, uint8_t *dp, size_t n,
                                                   const tl_cvt *cv)
{
    size_t es = tl_p_size(S), ed = tl_p_size(D);
    for (size_t i = 0; i < n; i++) tl_p_store(cv, D, dp + i * ed, tl_p_load(cv, S, sp + i * es));
}

/* ---- the source stage: 16 codes -> 16 reals -------------------------------------------- */
/* sub: c[] are the codes, not yet less the zero point */
TL_NI void dequant16_as(int smode, bool sub, const nk *k, const vi c[4], vf x[4])
{
    if (smode == SRC_NONE) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) x[j] = vcvtq_f32_s32(c[j]);
        return;
    }
#define TL_REAL(j) vcvtq_f32_s32(sub ? vsubq_s32(c[j], k->zp) : c[j])
    if (smode == SRC_DIV) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) x[j] = div_lanes(TL_REAL(j), k->sdiv);
        return;
    }
    if (smode == SRC_MUL2) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) x[j] = vmulq_f32(vmulq_f32(TL_REAL(j), k->a), k->b);
        return;
    }
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++) x[j] = vmulq_f32(TL_REAL(j), k->a);
#undef TL_REAL
}

TL_NI void dequant16(const nk *k, const vi c[4], vf x[4]) { dequant16_as(k->smode, true, k, c, x); }

static inline __attribute__((always_inline)) void widen16(int16x8_t l, int16x8_t h, vi c[4])
{
    c[0] = vmovl_s16(vget_low_s16(l));
    c[1] = vmovl_s16(vget_high_s16(l));
    c[2] = vmovl_s16(vget_low_s16(h));
    c[3] = vmovl_s16(vget_high_s16(h));
}

/* 16 u8 or i8 codes -> 16 int32 (zero or sign extension) */
TL_NI void codes16(int S, uint8x16_t b, vi c[4])
{
    if (S == TL_U8) {
        uint16x8_t l = vmovl_u8(vget_low_u8(b)), h = vmovl_u8(vget_high_u8(b));
        widen16(vreinterpretq_s16_u16(l), vreinterpretq_s16_u16(h), c); /* (below 2^15) */
    } else {
        int8x16_t v = vreinterpretq_s8_u8(b);
        widen16(vmovl_s8(vget_low_s8(v)), vmovl_s8(vget_high_s8(v)), c);
    }
}

/* The same less a zero point z of the codes' own type, subtracted in 16 bits
 * by the widening itself (|c - z| < 2^8: the u8 difference wraps to its
 * int16 value). */
TL_NI void codes16_less(int S, uint8x16_t b, uint8x8_t z, vi c[4])
{
    if (S == TL_U8) {
        widen16(vreinterpretq_s16_u16(vsubl_u8(vget_low_u8(b), z)), vreinterpretq_s16_u16(vsubl_u8(vget_high_u8(b), z)),
                c);
    } else {
        int8x16_t v = vreinterpretq_s8_u8(b);
        int8x8_t zs = vreinterpret_s8_u8(z);
        widen16(vsubl_s8(vget_low_s8(v), zs), vsubl_s8(vget_high_s8(v), zs), c);
    }
}

/* (D: the destination type; for integer codes f16 NaNs need not keep their bits) */
TL_NI void load16(int S, int D, const nk *k, const uint8_t *p, vf x[4])
{
    vi c[4];
    if (S == TL_U8 || S == TL_I8) {
        codes16(S, vld1q_u8(p), c);
    } else if (S == TL_I16) {
        int16x8_t l = vld1q_s16((const int16_t *)p), h = vld1q_s16((const int16_t *)(p + 16));
        c[0] = vmovl_s16(vget_low_s16(l));
        c[1] = vmovl_s16(vget_high_s16(l));
        c[2] = vmovl_s16(vget_low_s16(h));
        c[3] = vmovl_s16(vget_high_s16(h));
    } else if (S == TL_F16 || S == TL_BF16) {
        uint16x8_t l = vld1q_u16((const uint16_t *)p), h = vld1q_u16((const uint16_t *)(p + 16));
        uint16x4_t q[4] = {vget_low_u16(l), vget_high_u16(l), vget_low_u16(h), vget_high_u16(h)};
        const bool codes = D == TL_U8 || D == TL_I8 || D == TL_I16;
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
            x[j] = S == TL_BF16 ? bf16_to_f32(q[j]) : codes ? f16_to_f32_for_codes(q[j]) : f16_to_f32(q[j]);
        return;
    } else {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) x[j] = vld1q_f32((const float *)(p + 16 * j));
        return;
    }
    dequant16(k, c, x);
}

/* ---- the destination stage: 16 reals -> 16 codes ----------------------------------------- */
/* its forms (q_form below): the rule's multiply, add and NaN select; the multiply only; x */
enum { Q_FULL, Q_SCALED, Q_PLAIN };

/* (x * d_mul) + d_add (two roundings, never a fused multiply-add), round by
 * the mode, NaN lanes to their code. The range: the conversions saturate
 * (a NaN gives 0), and so do the narrowing moves that follow (narrow16,
 * vqmovn), which is the rule's clamp before rounding, since the bounds are
 * the destination type's and integers (AArch64 quantize NCHW f32 -> NHWC i8:
 * 7 -> 5 operations per 4 values). Armv7's nearest-even (round_even) is exact
 * only below 2^22, but beyond it stays beyond 2^21 with its sign, so it
 * saturates the same; only its away rounding, which overflows past 2^31 and
 * turns a NaN into 1, clamps first (quantize C = 3, Armv7: 0.93 -> 0.83
 * instructions per byte). */
TL_NI void quant16_as(const nk *k, int form, int round, vf x[4], vi r[4])
{
    if (form == Q_FULL)
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) x[j] = vaddq_f32(vmulq_f32(x[j], k->da), k->dz);
    if (form == Q_SCALED)
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) x[j] = vmulq_f32(x[j], k->da);
    if (round == TL_ROUND_ZERO) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) r[j] = round_zero(x[j]);
    } else if (round == TL_ROUND_AWAY) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) r[j] = round_away(TL_NEON_A64 ? x[j] : vminq_f32(vmaxq_f32(x[j], k->lo), k->hi));
    } else {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) r[j] = round_even(x[j]);
    }
    if (form == Q_FULL)
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) r[j] = vbslq_s32(vceqq_f32(x[j], x[j]), r[j], k->nan);
}

/* The destination stage's form for a row (quant16_as' form, a constant in
 * each loop instance). Where the addend and the NaN code are 0 (symmetric
 * quantization: TensorRT's and TIDL's int8, a DFP shift; or no quantization)
 * the add changes only a zero's sign, which rounds to 0, and the NaN code is
 * what the rounding gives a NaN: AArch64's saturating conversions; on Armv7
 * the clamp's default NaN, truncated to 0 or through the nearest-even
 * addition (a NaN) truncated to 0; not its away rounding, which gives 1.
 * Then plain codes (multiplier 1) skip the multiply too, and scaled codes
 * keep only it: 2 or 3 operations per 4 values fewer. */
TL_NI int q_form(const tl_cvt *cv)
{
    if (cv->d_add != 0.0f || cv->nan_code != 0 || (!TL_NEON_A64 && cv->round == TL_ROUND_AWAY)) return Q_FULL;
    return cv->d_mul == 1.0f ? Q_PLAIN : Q_SCALED;
}

TL_NI bool plain_codes(const tl_cvt *cv) { return q_form(cv) == Q_PLAIN; }

/* F(args..., form) with the form a constant: one instance per form */
#define TL_BY_FORM(form, F, ...)                                                                    \
    do {                                                                                            \
        if ((form) == Q_PLAIN) F(__VA_ARGS__, Q_PLAIN);                                             \
        else if ((form) == Q_SCALED) F(__VA_ARGS__, Q_SCALED);                                      \
        else F(__VA_ARGS__, Q_FULL);                                                                \
    } while (0)

/* F(args..., round) with nearest-even, the rounding nearly every row has, a
 * constant (GCC otherwise keeps the rounding's tests in the step loop: 4
 * instructions per 16 codes) */
#define TL_BY_EVEN(round, F, ...)                                                                   \
    do {                                                                                            \
        if ((round) == TL_ROUND_EVEN) F(__VA_ARGS__, TL_ROUND_EVEN);                                \
        else F(__VA_ARGS__, round);                                                                 \
    } while (0)

/* F(args..., round) with each rounding a constant (where the instruction
 * differs per rounding: the FP16 conversions) */
#define TL_BY_ROUND(round, F, ...)                                                                  \
    do {                                                                                            \
        if ((round) == TL_ROUND_ZERO) F(__VA_ARGS__, TL_ROUND_ZERO);                                \
        else if ((round) == TL_ROUND_AWAY) F(__VA_ARGS__, TL_ROUND_AWAY);                           \
        else F(__VA_ARGS__, TL_ROUND_EVEN);                                                         \
    } while (0)

/* 16 codes of quant16 into 16 bytes of D (u8 or i8), saturating */
TL_NI uint8x16_t narrow16(int D, const vi r[4])
{
    int16x8_t l = vcombine_s16(vqmovn_s32(r[0]), vqmovn_s32(r[1])), h = vcombine_s16(vqmovn_s32(r[2]), vqmovn_s32(r[3]));
    if (D == TL_I8) return vreinterpretq_u8_s8(vcombine_s8(vqmovn_s16(l), vqmovn_s16(h)));
    return vcombine_u8(vqmovun_s16(l), vqmovun_s16(h));
}

/* (S: the source type; reals from integer codes are never a NaN; form: the
 * destination stage's, for integer codes) */
TL_NI void store16(int S, int D, int form, int round, const nk *k, uint8_t *p, vf x[4])
{
    if (D == TL_F32) {
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) vst1q_f32((float *)(p + 16 * j), x[j]);
        return;
    }
    if (D == TL_F16 || D == TL_BF16) {
        uint16x4_t h[4];
        const bool reals = S == TL_F16 || S == TL_BF16 || S == TL_F32;
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++)
            h[j] = D == TL_BF16 ? f32_to_bf16(x[j]) : reals ? f32_to_f16(x[j]) : f32_to_f16_no_nan(x[j]);
        vst1q_u16((uint16_t *)p, vcombine_u16(h[0], h[1]));
        vst1q_u16((uint16_t *)(p + 16), vcombine_u16(h[2], h[3]));
        return;
    }
    vi r[4];
    quant16_as(k, form, round, x, r);
    if (D == TL_I16) {
        vst1q_s16((int16_t *)p, vcombine_s16(vqmovn_s32(r[0]), vqmovn_s32(r[1])));
        vst1q_s16((int16_t *)(p + 16), vcombine_s16(vqmovn_s32(r[2]), vqmovn_s32(r[3])));
    } else {
        vst1q_u8(p, narrow16(D, r));
    }
}

/* On Armv7 with a multiplier above 2^100, a denormal real sends the step to
 * the scalar pipeline, before anything is stored (src may be dst). */
TL_NI void step16(int S, int D, int form, int round, const nk *k, const uint8_t *sp, uint8_t *dp, const tl_cvt *cv)
{
    vf x[4];
    load16(S, D, k, sp, x);
    if (!TL_NEON_A64 && k->chk) {
        vu bad = vorrq_u32(vorrq_u32(denormal_bits(u_of_f(x[0])), denormal_bits(u_of_f(x[1]))),
                           vorrq_u32(denormal_bits(u_of_f(x[2])), denormal_bits(u_of_f(x[3]))));
        if (any_lane(bad)) {
            scalar_elems(S, D, sp, dp, 16, cv);
            return;
        }
    }
    store16(S, D, form, round, k, dp, x);
}

/* ---- shortcuts ------------------------------------------------------------------------ */
/* 16 u8 or i8 codes to two vectors of int16 (zero or sign extension) */
static inline __attribute__((always_inline)) void widen8(int S, uint8x16_t v, int16x8_t *l, int16x8_t *h)
{
    if (S == TL_U8) {
        *l = vreinterpretq_s16_u16(vmovl_u8(vget_low_u8(v)));
        *h = vreinterpretq_s16_u16(vmovl_u8(vget_high_u8(v)));
    } else {
        *l = vmovl_s8(vreinterpret_s8_u8(vget_low_u8(v)));
        *h = vmovl_s8(vreinterpret_s8_u8(vget_high_u8(v)));
    }
}

/* Rule c, integer to integer: saturation. False when the pair has none. */
TL_NI bool int_row(int S, int D, const uint8_t *sp, uint8_t *dp, size_t n, const tl_cvt *cv)
{
    size_t i = 0;
    if (S == TL_U8 && D == TL_I8) {
        for (; i + 16 <= n; i += 16) vst1q_u8(dp + i, vminq_u8(vld1q_u8(sp + i), vdupq_n_u8(127)));
    } else if (S == TL_I8 && D == TL_U8) {
        for (; i + 16 <= n; i += 16)
            vst1q_s8((int8_t *)(dp + i), vmaxq_s8(vld1q_s8((const int8_t *)(sp + i)), vdupq_n_s8(0)));
    } else if ((S == TL_U8 || S == TL_I8) && D == TL_I16) {
        for (; i + 16 <= n; i += 16) {
            int16x8_t l, h;
            widen8(S, vld1q_u8(sp + i), &l, &h);
            vst1q_s16((int16_t *)(dp + 2 * i), l);
            vst1q_s16((int16_t *)(dp + 2 * i + 16), h);
        }
    } else if (S == TL_I16 && (D == TL_U8 || D == TL_I8)) {
        for (; i + 16 <= n; i += 16) {
            int16x8_t l = vld1q_s16((const int16_t *)(sp + 2 * i)), h = vld1q_s16((const int16_t *)(sp + 2 * i + 16));
            if (D == TL_U8) vst1q_u8(dp + i, vcombine_u8(vqmovun_s16(l), vqmovun_s16(h)));
            else vst1q_s8((int8_t *)(dp + i), vcombine_s8(vqmovn_s16(l), vqmovn_s16(h)));
        }
    } else {
        return false;
    }
    scalar_elems(S, D, sp + i * tl_p_size(S), dp + i * tl_p_size(D), n - i, cv);
    return true;
}

/* Whether a row takes the affine byte map (convert/affine8_neon.c): always
 * on Armv7, whose alternative is a byte-at-a-time table (RV1106-class
 * boards: RKNN's zp -128 inputs, TIDL's scale 0.5); on AArch64 where the
 * map costs no more than the table's four tbl steps (a map in bytes, or a
 * plain add and saturation). */
static bool affine8_pays(const tl_cvt *cv, int map)
{
    if (!cv->affine8 || map < 0) return false;
    return !TL_NEON_A64 || TL_MAP8_OP(map) != TL_MAP8_WIDE || (cv->affine8_mul == 1 && !cv->affine8_shift);
}

static void lut_apply(const uint8_t *lut, const uint8_t *sp, uint8_t *dp, size_t n)
{
    size_t i = 0;
#if TL_NEON_A64
    /* four 64-byte tables; out-of-range indices leave a lane alone (tbx) */
    uint8x16x4_t t[4];
    for (int q = 0; q < 4; q++)
        for (int j = 0; j < 4; j++) t[q].val[j] = vld1q_u8(lut + 64 * q + 16 * j);
    const uint8x16_t k64 = vdupq_n_u8(64);
    for (; i + 16 <= n; i += 16) {
        uint8x16_t x = vld1q_u8(sp + i), r = vqtbl4q_u8(t[0], x);
        x = vsubq_u8(x, k64);
        r = vqtbx4q_u8(r, t[1], x);
        x = vsubq_u8(x, k64);
        r = vqtbx4q_u8(r, t[2], x);
        x = vsubq_u8(x, k64);
        vst1q_u8(dp + i, vqtbx4q_u8(r, t[3], x));
    }
#endif
    /* Armv7: 32 d registers cannot hold 256 bytes (and vtbx4 takes 32-byte
     * tables at several cycles each): a byte load per element */
    for (; i + 4 <= n; i += 4) {
        uint8_t a = lut[sp[i]], b = lut[sp[i + 1]], c = lut[sp[i + 2]], d = lut[sp[i + 3]];
        dp[i] = a;
        dp[i + 1] = b;
        dp[i + 2] = c;
        dp[i + 3] = d;
    }
    for (; i < n; i++) dp[i] = lut[sp[i]];
}

/* ---- plain codes <-> f16 by one conversion (ARMv8.2 FP16) ------------------------------
 * Where the rule is the conversion itself: f16 into u8, i8 or i16 plain codes
 * (plain_codes: x * 1 + 0, NaN code 0), rounded by the row's mode and
 * saturated, a NaN to 0, which FCVTN/FCVTZ/FCVTA to 16-bit integers and the
 * saturating narrow give for every half; and u8, i8 or i16 codes without
 * quantization into f16, where one SCVTF/UCVTF rounds as f32 then f16 does
 * (a 16-bit integer is exact in f32). 2 instructions per 8 codes against 6
 * through f32. Compiled only in convert/neonfp16arith.c. */
static bool fp16_direct(int S, int D, const tl_cvt *cv)
{
    const bool int_s = S == TL_U8 || S == TL_I8 || S == TL_I16, int_d = D == TL_U8 || D == TL_I8 || D == TL_I16;
    if (!TL_NEON_FP16_ARITH) return false;
    if (S == TL_F16 && int_d) return plain_codes(cv);
    return int_s && D == TL_F16 && cv->s_q == TL_Q_NONE;
}

#if TL_NEON_FP16_ARITH
/* 8 halves -> 8 codes of D in 16-bit lanes (unsigned for u8), by the rounding */
TL_NI uint16x8_t f16_codes16(int D, int round, uint16x8_t h)
{
    const float16x8_t x = vreinterpretq_f16_u16(h);
    if (D == TL_U8)
        return round == TL_ROUND_ZERO   ? vcvtq_u16_f16(x)
               : round == TL_ROUND_AWAY ? vcvtaq_u16_f16(x)
                                        : vcvtnq_u16_f16(x);
    return vreinterpretq_u16_s16(round == TL_ROUND_ZERO   ? vcvtq_s16_f16(x)
                                 : round == TL_ROUND_AWAY ? vcvtaq_s16_f16(x)
                                                          : vcvtnq_s16_f16(x));
}

/* f16_codes16's codes of u8 or i8, narrowed saturating */
TL_NI uint8x8_t codes16_to_8(int D, uint16x8_t c)
{
    return D == TL_U8 ? vqmovn_u16(c) : vreinterpret_u8_s8(vqmovn_s16(vreinterpretq_s16_u16(c)));
}

/* 8 codes of S widened to 16 bits -> 8 halves */
TL_NI uint16x8_t codes16_to_f16(int S, uint16x8_t c)
{
    return vreinterpretq_u16_f16(S == TL_U8 ? vcvtq_f16_u16(c) : vcvtq_f16_s16(vreinterpretq_s16_u16(c)));
}

/* 16 elements of a fp16_direct row */
TL_NI void step16_fp16(int S, int D, int round, const uint8_t *sp, uint8_t *dp)
{
    uint16x8_t l, h;
    if (S == TL_F16) {
        l = f16_codes16(D, round, vld1q_u16((const uint16_t *)sp));
        h = f16_codes16(D, round, vld1q_u16((const uint16_t *)(sp + 16)));
        if (D != TL_I16) {
            vst1q_u8(dp, vcombine_u8(codes16_to_8(D, l), codes16_to_8(D, h)));
            return;
        }
    } else {
        if (S == TL_I16) {
            l = vld1q_u16((const uint16_t *)sp), h = vld1q_u16((const uint16_t *)(sp + 16));
        } else {
            int16x8_t wl, wh;
            widen8(S, vld1q_u8(sp), &wl, &wh);
            l = vreinterpretq_u16_s16(wl), h = vreinterpretq_u16_s16(wh);
        }
        l = codes16_to_f16(S, l), h = codes16_to_f16(S, h);
    }
    vst1q_u16((uint16_t *)dp, l);
    vst1q_u16((uint16_t *)(dp + 16), h);
}
#endif

#if TL_NEON_FP16_ARITH
TL_NI void blocks_fp16_round(int S, int D, const uint8_t *sp, uint8_t *dp, size_t nb, int round)
{
    const size_t es = 16 * tl_p_size(S), ed = 16 * tl_p_size(D);
    for (size_t b = 0; b < nb; b++) step16_fp16(S, D, round, sp + b * es, dp + b * ed);
}
#endif

/* nb blocks of 16 of a fp16_direct row, the rounding a constant in each
 * loop (into f16 it is nearest-even); false (nothing done) for the other rows */
static bool blocks_fp16(int S, int D, const uint8_t *sp, uint8_t *dp, size_t nb, const tl_cvt *cv)
{
    if (!fp16_direct(S, D, cv)) return false;
#if TL_NEON_FP16_ARITH
    TL_BY_ROUND(S == TL_F16 ? cv->round : TL_ROUND_EVEN, blocks_fp16_round, S, D, sp, dp, nb);
#else
    (void)sp, (void)dp, (void)nb;
#endif
    return true;
}

/* ---- f16 -> u8 plain codes, nearest even, in integer steps ----------------------------
 * The x86 kernels' steps (convert/avx512.c, f16_u8_sums: the clamp as 16-bit
 * integers, the half placed in f32 bits times 2^-112, one rounding add of
 * 1.5 x 2^-89 whose low mantissa bits are the code), here vcgt/vmin/vbic,
 * vshll #13, vadd.f32 and vmovn. Armv7 NEON always rounds to nearest and
 * flushes subnormals, which here are halves below 2^-14, code 0 either way.
 * 12 instructions per 8 halves, Armv7 only (bench/icount_arm.sh, 256 KiB
 * DirectML f16 -> RGB: 0.77 -> 0.65 instructions per byte with VFPv4, 2.65
 * -> 0.65 without); AArch64 keeps its FP16 conversions, or FCVTL and FCVTNU
 * (0.44 against 0.46 this way). */
static bool f16_u8_integer(int S, int D, const tl_cvt *cv)
{
    return !TL_NEON_A64 && S == TL_F16 && D == TL_U8 && tl_cvt_plain_u8_even(cv);
}

TL_NI uint8x8_t f16_u8_codes8(uint16x8_t h)
{
    const uint16x8_t bad = vcgtq_u16(h, vdupq_n_u16(0x7C00));
    h = vbicq_u16(vminq_u16(h, vdupq_n_u16(0x5BFB)), bad);
    const float32x4_t round = vdupq_n_f32(0x1.8p-89f);
    const float32x4_t l = vaddq_f32(vreinterpretq_f32_u32(vshll_n_u16(vget_low_u16(h), 13)), round);
    const float32x4_t r = vaddq_f32(vreinterpretq_f32_u32(vshll_n_u16(vget_high_u16(h), 13)), round);
    return vmovn_u16(vcombine_u16(vmovn_u32(vreinterpretq_u32_f32(l)), vmovn_u32(vreinterpretq_u32_f32(r))));
}

/* nb blocks of 16 of an f16_u8_integer row; false (nothing done) for the others */
static bool blocks_f16_u8(int S, int D, const uint8_t *sp, uint8_t *dp, size_t nb, const tl_cvt *cv)
{
    if (!f16_u8_integer(S, D, cv)) return false;
    for (size_t b = 0; b < nb; b++) {
        const uint16_t *h = (const uint16_t *)(const void *)(sp + 32 * b);
        vst1q_u8(dp + 16 * b, vcombine_u8(f16_u8_codes8(vld1q_u16(h)), f16_u8_codes8(vld1q_u16(h + 8))));
    }
    return true;
}

/* ---- the row ---------------------------------------------------------------------------- */
typedef void (*tl_blocks_fn)(const nk *k, const uint8_t *sp, uint8_t *dp, size_t nblocks, const tl_cvt *cv);

/* Rows of n elements (kernels.h tl_row_fn): the choice of method and its
 * constants once per call, then every row. */
TL_NI void rows_of(int S, int D, tl_blocks_fn blocks, const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds,
                   size_t rows, size_t n, const tl_cvt *cv)
{
    const size_t es = tl_p_size(S), ed = tl_p_size(D);
    nk k;
    if (!rows) return;
    if (cv->path == TL_EP_INT && int_row(S, D, sp, dp, n, cv)) {
        for (size_t r = 1; r < rows; r++) int_row(S, D, sp + (ptrdiff_t)r * ss, dp + (ptrdiff_t)r * ds, n, cv);
        return;
    }
    const int map = es == 1 && ed == 1 ? tl_map8_of(cv) : -1;
    if (affine8_pays(cv, map)) {
        for (size_t r = 0; r < rows; r++)
            tl_affine8_row__neon(sp + (ptrdiff_t)r * ss, dp + (ptrdiff_t)r * ds, n, cv, map);
        return;
    }
#if TL_NEON_A64
    if (cv->lut8) { /* the plan's table (engine/cvt.c): four tbl steps per 16 bytes */
        for (size_t r = 0; r < rows; r++) lut_apply(cv->lut, sp + (ptrdiff_t)r * ss, dp + (ptrdiff_t)r * ds, n);
        return;
    }
#endif
    if (!nk_init(&k, cv)) {
        for (size_t r = 0; r < rows; r++)
            scalar_elems(S, D, sp + (ptrdiff_t)r * ss, dp + (ptrdiff_t)r * ds, n, cv);
        return;
    }
    if (es == 1 && ed == 1 && n * rows >= TL_NEON_LUT_MIN) { /* the call's own table */
        uint8_t codes[256], lut[256];
        for (int c = 0; c < 256; c++) codes[c] = (uint8_t)c;
        blocks(&k, codes, lut, 16, cv);
        for (size_t r = 0; r < rows; r++) lut_apply(lut, sp + (ptrdiff_t)r * ss, dp + (ptrdiff_t)r * ds, n);
        return;
    }
    const size_t nb = n / 16, i = nb * 16;
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *s = sp + (ptrdiff_t)r * ss;
        uint8_t *d = dp + (ptrdiff_t)r * ds;
        blocks(&k, s, d, nb, cv);
        if (i < n) {
            uint8_t tin[64] = {0}, tout[64];
            memcpy(tin, s + i * es, (n - i) * es);
            blocks(&k, tin, tout, 1, cv);
            memcpy(d + i * ed, tout, (n - i) * ed);
        }
    }
}

/* nb blocks of 16, the destination stage's form and rounding constants in each loop */
TL_NI void blocks_round(int S, int D, int form, const nk *k, const uint8_t *sp, uint8_t *dp, size_t nb,
                        const tl_cvt *cv, int round)
{
    for (size_t b = 0; b < nb; b++)
        step16(S, D, form, round, k, sp + b * 16 * tl_p_size(S), dp + b * 16 * tl_p_size(D), cv);
}

TL_NI void blocks_as(int S, int D, const nk *k, const uint8_t *sp, uint8_t *dp, size_t nb, const tl_cvt *cv,
                     int form)
{
    TL_BY_EVEN(k->round, blocks_round, S, D, form, k, sp, dp, nb, cv);
}

/* A row kernel: the FP16 conversions where they are the rule, else the
 * steps, with one loop per form for integer destinations */
#define TL_NEON_ROW(fn, blocks_fn, S, D)                                                            \
    static void blocks_fn(const nk *kp, const uint8_t *sp, uint8_t *dp, size_t nb,                  \
                                         const tl_cvt *cv)                                          \
    {                                                                                               \
        const nk k = *kp;                                                                           \
        const int form = D == TL_U8 || D == TL_I8 || D == TL_I16 ? q_form(cv) : Q_FULL;             \
        if (blocks_fp16(S, D, sp, dp, nb, cv) || blocks_f16_u8(S, D, sp, dp, nb, cv)) return;       \
        TL_BY_FORM(form, blocks_as, S, D, &k, sp, dp, nb, cv);                                      \
    }                                                                                               \
    void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n, const tl_cvt *cv); \
    void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n, const tl_cvt *cv)  \
    {                                                                                               \
        rows_of(S, D, blocks_fn, (const uint8_t *)src, ss, (uint8_t *)dst, ds, rows, n, cv);        \
    }

/* Armv7 rows whose multipliers the NEON steps cannot take exactly (nk_init
 * false, or the per-step denormal check): the scalar pipeline, element by
 * element (the pixel kernels below and the 4-row form). */
static bool rows_vector(const nk *k, bool ok)
{
    return ok && (TL_NEON_A64 || !k->chk);
}

/* ---- G f32 rows into G-byte groups of 8-bit codes ----------------------------------------
 * G = 4: the 4-row form (kernels.h); G = 3: 3 planes into packed 3-byte
 * pixels (NCHW f32 -> NHWC u8/i8 with C = 3, the 2d executor's quantization
 * in the registers). The same 16 elements of each row through the row's
 * destination stage, and one vst4 or vst3 stores them as 16 groups: no
 * store of the codes into an L1 tile and no byte interleave after. */
static inline __attribute__((always_inline)) void f32_x8_group_step(int G, int D, int form, int round, const nk *k,
                                                                    const uint8_t *s, ptrdiff_t ss, uint8_t *d)
{
    uint8x16x4_t o; /* (built in place: an array copied into it cost Armv7 spills) */
#pragma GCC unroll 4
    for (int c = 0; c < G; c++) {
        vf x[4];
        vi q[4];
        load16(TL_F32, D, k, s + c * ss, x);
        quant16_as(k, form, round, x, q);
        o.val[c] = narrow16(D, q);
    }
    if (G == 4) vst4q_u8(d, o);
    else vst3q_u8(d, (uint8x16x3_t){{o.val[0], o.val[1], o.val[2]}});
}

TL_NI void f32_x8_group_rows_round(int G, int D, int form, const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds,
                                   size_t rows, size_t n, const tl_cvt *cv, int round)
{
    nk k;
    const bool vec = rows_vector(&k, nk_init(&k, cv));
    const size_t whole = vec ? n / 16 * 16 : 0;
    for (size_t g = 0; g + (size_t)G <= rows; g += (size_t)G) {
        const uint8_t *s = sp + (ptrdiff_t)g * ss;
        uint8_t *d = dp + (ptrdiff_t)(g / (size_t)G) * ds;
        for (size_t i = 0; i < whole; i += 16) f32_x8_group_step(G, D, form, round, &k, s + 4 * i, ss, d + G * i);
        if (whole == n) continue;
        if (vec) { /* the last n % 16 elements through stack buffers */
            uint8_t tin[4 * 64] = {0}, tout[64];
            for (int c = 0; c < G; c++) memcpy(tin + 64 * c, s + (ptrdiff_t)c * ss + 4 * whole, 4 * (n - whole));
            f32_x8_group_step(G, D, form, round, &k, tin, 64, tout);
            memcpy(d + G * whole, tout, (size_t)G * (n - whole));
            continue;
        }
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < G; c++) scalar_elems(TL_F32, D, s + (ptrdiff_t)c * ss + 4 * i, d + G * i + c, 1, cv);
    }
}

TL_NI void f32_x8_group_rows_as(int G, int D, const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds, size_t rows,
                                size_t n, const tl_cvt *cv, int form)
{
#if TL_NEON_A64
    TL_BY_EVEN(cv->round, f32_x8_group_rows_round, G, D, form, sp, ss, dp, ds, rows, n, cv);
#else /* Armv7: its 16 q registers hold a step's 16 vectors, and GCC spilled more with
         the rounding a constant (quantize C = 64 at 256 KiB: 0.78 -> 0.82 instructions a byte) */
    f32_x8_group_rows_round(G, D, form, sp, ss, dp, ds, rows, n, cv, cv->round);
#endif
}

/* (G and D constants: one instance each) */
TL_NI void f32_x8_group_rows(int G, int D, const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds, size_t rows,
                             size_t n, const tl_cvt *cv)
{
    TL_BY_FORM(q_form(cv), f32_x8_group_rows_as, G, D, sp, ss, dp, ds, rows, n, cv);
}


/* ---- 16 f32 planes -> one 16-channel block of 8-bit codes (NCHW f32 -> NCHW16c) --------
 * 8 pixels a step: channels c and 8 + c go through the destination stage
 * together (8 floats of each, one register of 16 codes), so the 8 registers
 * are the rows of a 16 x 8 byte transpose with rows c and 8 + c sharing a
 * register (transpose/neon_micro.h), whose 3 stages leave 8 pixels of 16
 * codes: 128 dense bytes. (16 pixels a step through the 16 x 16 transpose
 * kept 16 registers of codes live beside the conversion's and spilled:
 * 0.49 -> 0.56 instructions per byte on AArch64 against the tile path.)
 * A run's last pixels are the 8 that end with it, over part of the step
 * before (the same values written twice); fewer than 8 in all go through
 * stack planes. */
TL_NI void f32_x8_block16_step(int D, int form, int round, const nk *k, const uint8_t *s, ptrdiff_t ps, uint8_t *d)
{
    uint8x16_t r[8];
#pragma GCC unroll 8
    for (int c = 0; c < 8; c++) {
        const float *a = (const float *)(const void *)(s + c * ps), *b = (const float *)(const void *)(s + (c + 8) * ps);
        vf x[4] = {vld1q_f32(a), vld1q_f32(a + 4), vld1q_f32(b), vld1q_f32(b + 4)};
        vi q[4];
        quant16_as(k, form, round, x, q);
        r[c] = narrow16(D, q);
    }
    TL_NM_STAGE(r, 8, 1, tl_nm_trn8)
    TL_NM_STAGE(r, 8, 2, tl_nm_trn16)
    TL_NM_STAGE(r, 8, 4, tl_nm_trn32)
#if TL_NEON_A64
    vst1q_u8_x4(d, (uint8x16x4_t){{r[0], r[1], r[2], r[3]}});
    vst1q_u8_x4(d + 64, (uint8x16x4_t){{r[4], r[5], r[6], r[7]}});
#else
#pragma GCC unroll 8
    for (int i = 0; i < 8; i++) vst1q_u8(d + 16 * i, r[i]);
#endif
}

TL_NI void f32_x8_block16_round(int D, int form, const uint8_t *s, ptrdiff_t ps, uint8_t *d, size_t n,
                                const tl_cvt *cv, int round)
{
    nk k;
    if (!rows_vector(&k, nk_init(&k, cv))) {
        for (size_t i = 0; i < n; i++)
            for (int c = 0; c < 16; c++) scalar_elems(TL_F32, D, s + (ptrdiff_t)c * ps + 4 * i, d + 16 * i + c, 1, cv);
        return;
    }
    size_t i = 0;
    for (; i + 8 <= n; i += 8) f32_x8_block16_step(D, form, round, &k, s + 4 * i, ps, d + 16 * i);
    if (i == n) return;
    if (n >= 8) {
        f32_x8_block16_step(D, form, round, &k, s + 4 * (n - 8), ps, d + 16 * (n - 8));
        return;
    }
    uint8_t tin[16 * 32] = {0}, tout[128];
    for (int c = 0; c < 16; c++) memcpy(tin + 32 * c, s + (ptrdiff_t)c * ps, 4 * n);
    f32_x8_block16_step(D, form, round, &k, tin, 32, tout);
    memcpy(d, tout, 16 * n);
}

TL_NI void f32_x8_block16_as(int D, const uint8_t *s, ptrdiff_t ps, uint8_t *d, size_t n, const tl_cvt *cv, int form)
{
#if TL_NEON_A64
    TL_BY_EVEN(cv->round, f32_x8_block16_round, D, form, s, ps, d, n, cv);
#else /* (Armv7: the rounding a variable, as in the group form) */
    f32_x8_block16_round(D, form, s, ps, d, n, cv, cv->round);
#endif
}

/* (D a constant: one instance each) */
TL_NI void f32_x8_block16(int D, const uint8_t *s, ptrdiff_t ps, uint8_t *d, size_t n, const tl_cvt *cv)
{
    TL_BY_FORM(q_form(cv), f32_x8_block16_as, D, s, ps, d, n, cv);
}


#if TL_NEON_F16_HW /* AArch64, and the Armv7 instances of neonfp16.c */
/* ---- kDLA_HWC4 f16 <-> RGB, converted in the register ---------------------------------- */
/* 16 RGB pixels (48 bytes: vld3) through the rule's source stage and the
 * f16 conversion, stored as 16 pixels of 4 halves, the fourth zero (vst4):
 * 128 bytes. */
static inline __attribute__((always_inline)) void u8_f16_spread4_step(bool direct, const nk *k, const uint8_t *s,
                                                                      uint8_t *d)
{
    uint8x16x3_t v = vld3q_u8(s);
    uint16x8x4_t o[2];
    for (int c = 0; c < 3; c++) {
#if TL_NEON_FP16_ARITH
        if (direct) { /* no quantization: one conversion per 8 (fp16_direct) */
            o[0].val[c] = codes16_to_f16(TL_U8, vmovl_u8(vget_low_u8(v.val[c])));
            o[1].val[c] = codes16_to_f16(TL_U8, vmovl_u8(vget_high_u8(v.val[c])));
            continue;
        }
#else
        (void)direct;
#endif
        uint16x8_t l = vmovl_u8(vget_low_u8(v.val[c])), h = vmovl_u8(vget_high_u8(v.val[c]));
        vi q[4] = {vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(l))), vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(l))),
                   vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(h))), vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(h)))};
        vf x[4];
        dequant16(k, q, x);
        o[0].val[c] = vcombine_u16(f32_to_f16_no_nan(x[0]), f32_to_f16_no_nan(x[1]));
        o[1].val[c] = vcombine_u16(f32_to_f16_no_nan(x[2]), f32_to_f16_no_nan(x[3]));
    }
    o[0].val[3] = o[1].val[3] = vdupq_n_u16(0);
    vst4q_u16((uint16_t *)d, o[0]);
    vst4q_u16((uint16_t *)(d + 64), o[1]);
}

/* Rows of RGB u8 pixels (tl_px_rows) -> rows of kDLA_HWC4 f16 pixels (8
 * bytes: 3 halves and a zero one), each row's gap zeroed: the row
 * conversion into an L1 tile and the table spread from it in one pass.
 * A row's last pixels: one overlapping step, or stack buffers below 16. */
TL_NI void u8_f16_spread4_rows_as(bool direct, const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    nk k;
    const bool vec = rows_vector(&k, nk_init(&k, cv));
    const size_t m = g->n;
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->ss;
        uint8_t *d = dst + (ptrdiff_t)r * g->ds;
        size_t i = 0;
        if (!vec) {
            for (; i < m; i++) {
                scalar_elems(TL_U8, TL_F16, s + 3 * i, d + 8 * i, 3, cv);
                memset(d + 8 * i + 6, 0, 2);
            }
            if (g->gap) memset(d + 8 * m, 0, g->gap);
            continue;
        }
        for (; i + 16 <= m; i += 16) u8_f16_spread4_step(direct, &k, s + 3 * i, d + 8 * i);
        if (i < m && m >= 16) {
            u8_f16_spread4_step(direct, &k, s + 3 * (m - 16), d + 8 * (m - 16)); /* the last 16 again: same values */
        } else if (i < m) {
            uint8_t in[48] = {0}, out[128];
            memcpy(in, s + 3 * i, 3 * (m - i));
            u8_f16_spread4_step(direct, &k, in, out);
            memcpy(d + 8 * i, out, 8 * (m - i));
        }
        if (g->gap) memset(d + 8 * m, 0, g->gap);
    }
}

/* no quantization (fp16_direct) or the rule's source stage, a constant in each instance */
TL_NI void u8_f16_spread4_rows(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    if (fp16_direct(TL_U8, TL_F16, cv)) u8_f16_spread4_rows_as(true, src, dst, g, cv);
    else u8_f16_spread4_rows_as(false, src, dst, g, cv);
}

/* 16 halves (a, then b) through the rule's destination stage into 16 codes
 * of D: one FP16 conversion per 8 where that is the stage (fp16_direct),
 * else the f32 steps. */
static inline __attribute__((always_inline)) uint8x16_t f16_codes_of(int D, int form, int round, const nk *k,
                                                                     uint16x8_t a, uint16x8_t b)
{
#if TL_NEON_FP16_ARITH
    if (form == Q_PLAIN)
        return vcombine_u8(codes16_to_8(D, f16_codes16(D, round, a)), codes16_to_8(D, f16_codes16(D, round, b)));
#endif
    vf x[4] = {f16_to_f32_for_codes(vget_low_u16(a)), f16_to_f32_for_codes(vget_high_u16(a)),
               f16_to_f32_for_codes(vget_low_u16(b)), f16_to_f32_for_codes(vget_high_u16(b))};
    vi q[4];
    quant16_as(k, form, round, x, q);
    return narrow16(D, q);
}

/* 16 pixels of 4 f16 halves (128 bytes: two vld4) -> 16 RGB pixels of 8-bit
 * codes (48 bytes: vst3), the rule's destination stage on the first three. */
static inline __attribute__((always_inline)) void f16_x8_gather4_step(int D, int form, int round, const nk *k,
                                                                      const uint8_t *s, uint8_t *d)
{
    uint16x8x4_t v0 = vld4q_u16((const uint16_t *)s), v1 = vld4q_u16((const uint16_t *)(s + 64));
    uint8x16x3_t o;
#pragma GCC unroll 3
    for (int c = 0; c < 3; c++) o.val[c] = f16_codes_of(D, form, round, k, v0.val[c], v1.val[c]);
    vst3q_u8(d, o);
}

/* A row's last pixel, from the 16 bytes that end with its third half (the
 * slot after it is not read): halves 5, 6 and 7 of the load, through the
 * step's destination stage, stored as its 3 codes. */
static inline __attribute__((always_inline)) void f16_x8_gather4_last(int D, int form, int round, const nk *k,
                                                                      const uint8_t *s_end, uint8_t *d)
{
    uint16x8_t v = vld1q_u16((const uint16_t *)(s_end - 16));
    uint8x8_t c = vget_low_u8(f16_codes_of(D, form, round, k, v, v));
    vst1_lane_u8(d, c, 5);
    vst1_lane_u8(d + 1, c, 6);
    vst1_lane_u8(d + 2, c, 7);
}

/* Rows of kDLA_HWC4 f16 pixels (tl_px_rows) -> rows of 3 u8 or i8 codes a
 * pixel, each row's gap zeroed. No step reads the last pixel's slot (a run
 * may start inside its pixel): the steps stop one pixel short, an
 * overlapping step covers the 16 before it and the last pixel is converted
 * from the 16 bytes that end with its third half; rows of 16 or fewer
 * pixels go through stack buffers. */
static inline __attribute__((always_inline)) void f16_x8_gather4_rows(int D, int form, const uint8_t *src, uint8_t *dst,
                                                                      const tl_px_rows *g, const nk *kp, bool vec,
                                                                      const tl_cvt *cv, int round)
{
    const nk k = *kp;
    const size_t m = g->n;
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->ss;
        uint8_t *d = dst + (ptrdiff_t)r * g->ds;
        size_t i = 0;
        if (vec) {
            for (; i + 16 < m; i += 16) f16_x8_gather4_step(D, form, round, &k, s + 8 * i, d + 3 * i);
            if (m > 16) {
                f16_x8_gather4_step(D, form, round, &k, s + 8 * (m - 17), d + 3 * (m - 17)); /* the 16 before the last again */
                f16_x8_gather4_last(D, form, round, &k, s + 8 * m - 2, d + 3 * (m - 1));
                i = m;
            }
            if (i < m) {
                uint8_t in[128] = {0}, out[48];
                memcpy(in, s + 8 * i, 8 * (m - i - 1) + 6);
                f16_x8_gather4_step(D, form, round, &k, in, out);
                memcpy(d + 3 * i, out, 3 * (m - i));
            }
        } else {
            for (; i < m; i++) scalar_elems(TL_F16, D, s + 8 * i, d + 3 * i, 3, cv);
        }
        if (g->gap) memset(d + 3 * m, 0, g->gap);
    }
}

/* D (u8 or i8), the destination stage's form and the rounding constants in
 * each instance (every rounding where one FP16 conversion is the stage, plain
 * codes, TL_BY_ROUND; else nearest-even, TL_BY_EVEN): read from the constants instead, GCC
 * kept the tests in the step loop. */
TL_NI void f16_x8_gather4_rows_d(int D, const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const nk *k, bool vec,
                                 const tl_cvt *cv, int form)
{
    if (TL_NEON_FP16_ARITH && form == Q_PLAIN) TL_BY_ROUND(cv->round, f16_x8_gather4_rows, D, Q_PLAIN, src, dst, g, k, vec, cv);
    else TL_BY_EVEN(cv->round, f16_x8_gather4_rows, D, form, src, dst, g, k, vec, cv);
}

TL_NI void f16_x8_gather4_rows_of(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    nk k;
    const bool vec = rows_vector(&k, nk_init(&k, cv));
    const int form = q_form(cv);
    if (cv->ddt == TL_I8) TL_BY_FORM(form, f16_x8_gather4_rows_d, TL_I8, src, dst, g, &k, vec, cv);
    else TL_BY_FORM(form, f16_x8_gather4_rows_d, TL_U8, src, dst, g, &k, vec, cv);
}
#endif /* TL_NEON_F16_HW */

/* ---- one 16-channel block of 8-bit codes -> 16 f32 planes (NCHW16c -> NCHW) ------------
 * 16 pixels a step: the 16 x 16 byte transpose (transpose/neon_micro.h) in
 * the registers turns them into 16 channel rows of 16 codes, each through
 * the source stage (dequant16_as, its mode a constant per instance; an
 * 8-bit zero point subtracted by the widening) and stored as 64 bytes of
 * its plane. The
 * tile path (the block unpack into an L1 tile, then a row conversion per
 * plane) stored and loaded every code once more. A run's last pixels are
 * the 16 that end with it, over part of the step before (the same values
 * written twice); fewer than 16 in all go through a stack block. */
TL_NI void x8_unblock16_step(int S, int smode, bool z8, uint8x8_t z, const nk *k, const uint8_t *s, float *d,
                             size_t ps)
{
    uint8x16_t r[16];
#if TL_NEON_A64
#pragma GCC unroll 4
    for (int i = 0; i < 16; i += 4) {
        uint8x16x4_t v = vld1q_u8_x4(s + 16 * i);
        r[i] = v.val[0], r[i + 1] = v.val[1], r[i + 2] = v.val[2], r[i + 3] = v.val[3];
    }
#else
#pragma GCC unroll 16
    for (int i = 0; i < 16; i++) r[i] = vld1q_u8(s + 16 * i);
#endif
    tl_nm_x8_16x16_regs(r);
#pragma GCC unroll 16
    for (int c = 0; c < 16; c++) { /* channel c of the 16 pixels */
        vi q[4];
        vf x[4];
        if (z8) codes16_less(S, r[c], z, q);
        else codes16(S, r[c], q);
        dequant16_as(smode, !z8, k, q, x);
#if TL_NEON_A64
        vst1q_f32_x4(d + (size_t)c * ps, (float32x4x4_t){{x[0], x[1], x[2], x[3]}});
#else
#pragma GCC unroll 4
        for (int j = 0; j < 4; j++) vst1q_f32(d + (size_t)c * ps + 4 * j, x[j]);
#endif
    }
}

/* (the source stage's mode a constant in each instance; z8: the zero point
 * z, of the codes' type, subtracted in 16 bits) */
TL_NI void x8_unblock16(int S, int smode, bool z8, uint8x8_t z, const nk *k, const uint8_t *s, float *d, size_t ps,
                        size_t n)
{
    size_t i = 0;
    for (; i + 16 <= n; i += 16) x8_unblock16_step(S, smode, z8, z, k, s + 16 * i, d + i, ps);
    if (i == n) return;
    if (n >= 16) {
        x8_unblock16_step(S, smode, z8, z, k, s + 16 * (n - 16), d + n - 16, ps);
        return;
    }
    uint8_t blk[256] = {0};
    float tile[256];
    memcpy(blk, s, 16 * n);
    x8_unblock16_step(S, smode, z8, z, k, blk, tile, 16);
    for (size_t c = 0; c < 16; c++) memcpy(d + c * ps, tile + 16 * c, 4 * n);
}

TL_NI void x8_unblock16_of(int S, int32_t zp, const nk *k, const uint8_t *s, float *d, size_t ps, size_t n)
{
    const bool fits = S == TL_U8 ? zp >= 0 && zp <= 255 : zp >= -128 && zp <= 127;
    const uint8x8_t z = vdup_n_u8((uint8_t)zp);
    if (!fits || k->smode == SRC_MUL2) { /* (DFP codes have no zero point) */
        x8_unblock16(S, k->smode, false, z, k, s, d, ps, n);
        return;
    }
    switch (k->smode) {
    case SRC_NONE: x8_unblock16(S, SRC_NONE, false, z, k, s, d, ps, n); break;
    case SRC_MUL1: x8_unblock16(S, SRC_MUL1, true, z, k, s, d, ps, n); break;
    default: x8_unblock16(S, SRC_DIV, true, z, k, s, d, ps, n); break;
    }
}

/* n 16-byte pixels at src -> n floats of each of 16 planes (interleave_lut.h).
 * Armv7 multipliers that NEON would flush to zero (nk_init): the scalar
 * pipeline, code by code. */
TL_NI void x8_f32_unblock16_of(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, const tl_cvt *cv)
{
    const int S = cv->sdt == TL_I8 ? TL_I8 : TL_U8;
    nk k;
    if (!nk_init(&k, cv)) {
        for (size_t c = 0; c < 16; c++)
            for (size_t i = 0; i < n; i++)
                tl_p_store(cv, TL_F32, planes + c * plane_stride + 4 * i, tl_p_load(cv, S, src + 16 * i + c));
        return;
    }
    float *d = (float *)(void *)planes;
    const int32_t zp = vgetq_lane_s32(k.zp, 0);
    if (S == TL_I8) x8_unblock16_of(TL_I8, zp, &k, src, d, plane_stride / 4, n);
    else x8_unblock16_of(TL_U8, zp, &k, src, d, plane_stride / 4, n);
}
#endif /* TL_CONVERT_NEON_BODY_H */
