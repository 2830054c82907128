/* Vector primitives of the NEON convert kernels (convert/neon.c), AArch64 and
 * Armv7. Each one is a lane-wise copy of a step of pipeline.h / elem.c.
 *
 * AArch64 and Armv7 do not do the same f32 arithmetic. AArch64 Advanced SIMD
 * follows FPCR (IEEE on Linux: no flush to zero, NaN payloads kept) and has
 * vdivq_f32, FCVTNS and FCVTAS. Armv7 Advanced SIMD always flushes denormal
 * inputs and results to zero and returns the default NaN. It has no divide,
 * and its float-to-int conversion only truncates. So, on Armv7:
 *   - a division is done by VFP, one lane at a time (VFP follows FPSCR, which
 *     is IEEE on Linux);
 *   - where a multiply could meet a denormal, the step or the row goes to
 *     the scalar pipeline instead (neon.c says when);
 *   - nearest-even rounding adds and subtracts 1.5 * 2^23; ties-away uses the
 *     exact remainder x - trunc(x);
 *   - NaNs from a vcvt to or from f16 are rebuilt from the bits (bf16 is
 *     integer code everywhere);
 *   - no ordered float compare (see round_even below).
 * Only included by neon.c (inside its __ARM_NEON guard). */
#ifndef TL_KERNELS_CONVERT_NEON_OPS_H
#define TL_KERNELS_CONVERT_NEON_OPS_H

#include <arm_neon.h>
#include <stdbool.h>
#include <stdint.h>

#define TL_NI static inline __attribute__((always_inline))

#if defined(__aarch64__)
#define TL_NEON_A64 1
#else
#define TL_NEON_A64 0
#endif

/* f16 conversions by instruction on AArch64, and on Armv7 in the files built
 * for an FPU that has them (convert/neonfp16.c: -mfpu=neon-vfpv4
 * -mfp16-format=ieee, taken where the CPU has VFPv4).
 * Otherwise integer operations. TL_NEON_F16_SOFT forces those (tests). */
#if !defined(TL_NEON_F16_SOFT) && \
    (TL_NEON_A64 || (defined(__ARM_FP16_FORMAT_IEEE) && defined(__ARM_FP) && (__ARM_FP & 2)))
#define TL_NEON_F16_HW 1
#else
#define TL_NEON_F16_HW 0
#endif

/* ARMv8.2's half-precision arithmetic (FEAT_FP16): conversions between 8
 * halves and 8 16-bit integers in one instruction. AArch64 files built with
 * -march=armv8.2-a+fp16 (convert/neonfp16arith.c, taken where the CPU has
 * it: HWCAP_ASIMDHP). */
#if TL_NEON_A64 && defined(__ARM_FEATURE_FP16_VECTOR_ARITHMETIC)
#define TL_NEON_FP16_ARITH 1
#else
#define TL_NEON_FP16_ARITH 0
#endif

typedef float32x4_t vf;
typedef int32x4_t vi;
typedef uint32x4_t vu;

TL_NI vf f_of_u(vu u) { return vreinterpretq_f32_u32(u); }
TL_NI vu u_of_f(vf f) { return vreinterpretq_u32_f32(f); }
TL_NI vu k32(uint32_t x) { return vdupq_n_u32(x); }

/* Lanes that hold a NaN, from the bits (|u| > inf as integers). */
TL_NI vu nan_bits(vu u) { return vcgtq_u32(vandq_u32(u, k32(0x7FFFFFFFu)), k32(0x7F800000u)); }

/* Lanes that hold a denormal: a zero exponent and a non-zero fraction. */
TL_NI vu denormal_bits(vu u)
{
    vu a = vshlq_n_u32(u, 1); /* drop the sign */
    return vandq_u32(vcltq_u32(a, k32(0x01000000u)), vtstq_u32(a, a));
}

TL_NI bool any_lane(vu m)
{
#if TL_NEON_A64
    return vmaxvq_u32(m) != 0;
#else
    uint32x2_t t = vorr_u32(vget_low_u32(m), vget_high_u32(m));
    return (vget_lane_u32(t, 0) | vget_lane_u32(t, 1)) != 0;
#endif
}

/* x / s, IEEE in every lane. */
TL_NI vf div_lanes(vf x, float s)
{
#if TL_NEON_A64
    return vdivq_f32(x, vdupq_n_f32(s));
#else
    /* no NEON divide: four VFP divides (s registers alias the q register) */
    x = vsetq_lane_f32(vgetq_lane_f32(x, 0) / s, x, 0);
    x = vsetq_lane_f32(vgetq_lane_f32(x, 1) / s, x, 1);
    x = vsetq_lane_f32(vgetq_lane_f32(x, 2) / s, x, 2);
    return vsetq_lane_f32(vgetq_lane_f32(x, 3) / s, x, 3);
#endif
}

/* ---- rounding an f32 to int32 (pipeline.h tl_p_round): saturating, a NaN to 0 (Armv7's
 * away rounding: only in the destination range, see quant16_as) ---- */
TL_NI vi round_zero(vf x) { return vcvtq_s32_f32(x); }

#if TL_NEON_A64
TL_NI vi round_even(vf x) { return vcvtnq_s32_f32(x); }
TL_NI vi round_away(vf x) { return vcvtaq_s32_f32(x); }
#else
/* Armv7. GCC's arm_neon.h writes vcgtq_f32 and the other ordered float
 * compares as generic vector compares, which it lowers to one VFP compare per
 * lane unless -ffast-math: these roundings use no float compare. */

/* x + 1.5 * 2^23 has an ulp of 1 for |x| <= 2^22, so the nearest-even
 * addition rounds x to an integer (1.5 * 2^23 is even: ties keep their
 * parity) and the subtraction is exact. Beyond 2^22 the result is off by at
 * most 1 and keeps its sign: the truncation saturates it as it would x
 * rounded (a NaN stays a NaN and truncates to 0). */
TL_NI vi round_even(vf x)
{
    const vf m = vdupq_n_f32(12582912.0f);
    return vcvtq_s32_f32(vsubq_f32(vaddq_f32(x, m), m));
}

/* t = trunc(x) and the exact remainder f = x - t (|x| <= 32768): one step
 * away from zero when |f| >= 0.5, compared on the bits. */
TL_NI vi round_away(vf x)
{
    vi t = vcvtq_s32_f32(x);
    vu f = u_of_f(vsubq_f32(x, vcvtq_f32_s32(t)));
    vi half = vreinterpretq_s32_u32(vcgeq_u32(vandq_u32(f, k32(0x7FFFFFFFu)), k32(0x3F000000u)));
    vi s = vshrq_n_s32(vreinterpretq_s32_u32(f), 31); /* -1 below zero */
    return vaddq_s32(vsubq_s32(t, veorq_s32(half, s)), s);   /* t + 1, t - 1 or t */
}
#endif

/* ---- bf16 (pipeline.h tl_p_bf16_to_f32 / tl_p_f32_to_bf16) ---------------------------- */
TL_NI vf bf16_to_f32(uint16x4_t h)
{
    vu u = vshll_n_u16(h, 16);
    return f_of_u(vorrq_u32(u, vandq_u32(nan_bits(u), k32(0x400000u)))); /* NaN: quiet */
}

TL_NI uint16x4_t f32_to_bf16(vf x)
{
    vu u = u_of_f(x);
    vu lsb = vandq_u32(vshrq_n_u32(u, 16), k32(1));
    uint16x4_t r = vshrn_n_u32(vaddq_u32(vaddq_u32(u, k32(0x7FFFu)), lsb), 16); /* nearest-even */
    uint16x4_t nan = vorr_u16(vshrn_n_u32(u, 16), vdup_n_u16(0x40));             /* quiet, top payload */
    return vbsl_u16(vmovn_u32(vceqq_f32(x, x)), r, nan); /* x == x: not a NaN */
}

/* ---- f16 (elem.c tl_f16_to_f32 / tl_f32_to_f16) ---------------------------------------- */
/* The f32 NaN of f16 NaN bits: sign, quiet, payload << 13 (exact widening). */
TL_NI vu f16_nan_to_f32(vu u)
{
    vu sign = vshlq_n_u32(vandq_u32(u, k32(0x8000u)), 16);
    return vorrq_u32(vorrq_u32(sign, k32(0x7FC00000u)), vshlq_n_u32(vandq_u32(u, k32(0x3FFu)), 13));
}

/* The f16 NaN of f32 NaN bits: sign, quiet, top 10 payload bits. */
TL_NI vu f32_nan_to_f16(vu u)
{
    vu sign = vandq_u32(vshrq_n_u32(u, 16), k32(0x8000u));
    return vorrq_u32(vorrq_u32(sign, k32(0x7E00u)), vandq_u32(vshrq_n_u32(u, 13), k32(0x3FFu)));
}

#if !TL_NEON_F16_HW
/* m = |h| << 13 (the f16 fields at their f32 places). Normals rebias the
 * exponent (+112 << 23); inf/NaN get exponent 255 (+112 more) and NaNs the
 * quiet bit; subnormals are frac * 2^-24 = (0.5 + frac * 2^-24) - 0.5, an
 * exact subtraction whose result is never denormal in f32. */
TL_NI vf f16_to_f32_bits(uint16x4_t h)
{
    vu w = vshll_n_u16(h, 16);
    vu sign = vandq_u32(w, k32(0x80000000u));
    vu m = vshrq_n_u32(veorq_u32(w, sign), 3);
    vu norm = vaddq_u32(vaddq_u32(m, k32(0x38000000u)), vandq_u32(vcgeq_u32(m, k32(0x0F800000u)), k32(0x38000000u)));
    norm = vorrq_u32(norm, vandq_u32(vcgtq_u32(m, k32(0x0F800000u)), k32(0x400000u)));
    vf sub = vsubq_f32(f_of_u(vorrq_u32(vshrq_n_u32(m, 13), k32(0x3F000000u))), vdupq_n_f32(0.5f));
    return f_of_u(vorrq_u32(vbslq_u32(vcltq_u32(m, k32(0x00800000u)), u_of_f(sub), norm), sign));
}

/* Nearest-even. Normal results: rebias, then round on bit 13 as bf16 does on
 * bit 16. Below 2^-14: |x| + 0.5 puts the f16 subnormal ulp (2^-24) on the
 * f32 ulp, so the FPU's nearest-even addition does the rounding (a denormal
 * |x| flushed to 0 by Armv7 NEON rounds to 0 either way). */
TL_NI uint16x4_t f32_to_f16_bits(vf x)
{
    vu u = u_of_f(x);
    vu a = vandq_u32(u, k32(0x7FFFFFFFu));
    vu lsb = vandq_u32(vshrq_n_u32(a, 13), k32(1));
    vu norm = vshrq_n_u32(vaddq_u32(vsubq_u32(a, k32(0x38000000u - 0xFFFu)), lsb), 13);
    vu sub = vsubq_u32(u_of_f(vaddq_f32(f_of_u(a), vdupq_n_f32(0.5f))), k32(0x3F000000u));
    vu r = vbslq_u32(vcltq_u32(a, k32(0x38800000u)), sub, norm);
    r = vbslq_u32(vcgeq_u32(a, k32(0x477FF000u)), k32(0x7C00u), r); /* 65520 and up: inf */
    r = vbslq_u32(vcgtq_u32(a, k32(0x7F800000u)), f32_nan_to_f16(u), r);
    return vmovn_u32(vorrq_u32(r, vandq_u32(vshrq_n_u32(u, 16), k32(0x8000u))));
}
#endif

TL_NI vf f16_to_f32(uint16x4_t h)
{
#if !TL_NEON_F16_HW
    return f16_to_f32_bits(h);
#elif TL_NEON_A64
    return vcvt_f32_f16(vreinterpret_f16_u16(h));
#else
    /* Armv7 NEON returns the default NaN: rebuild NaNs from the bits */
    vf r = vcvt_f32_f16(vreinterpret_f16_u16(h));
    vu u = vmovl_u16(h);
    return vbslq_f32(vcgtq_u32(vandq_u32(u, k32(0x7FFFu)), k32(0x7C00u)), f_of_u(f16_nan_to_f32(u)), r);
#endif
}

/* f16 -> f32 for a destination of integer codes, where every NaN gets the
 * same code: Armv7's vcvt gives the default NaN, which is enough there
 * (the NaN's bits rebuilt cost 8 operations per 4 lanes). */
TL_NI vf f16_to_f32_for_codes(uint16x4_t h)
{
#if TL_NEON_F16_HW && !TL_NEON_A64
    return vcvt_f32_f16(vreinterpret_f16_u16(h));
#else
    return f16_to_f32(h);
#endif
}

TL_NI uint16x4_t f32_to_f16(vf x)
{
#if !TL_NEON_F16_HW
    return f32_to_f16_bits(x);
#elif TL_NEON_A64
    return vreinterpret_u16_f16(vcvt_f16_f32(x));
#else
    uint16x4_t r = vreinterpret_u16_f16(vcvt_f16_f32(x));
    vu u = u_of_f(x);
    return vbsl_u16(vmovn_u32(nan_bits(u)), vmovn_u32(f32_nan_to_f16(u)), r);
#endif
}

/* f32 -> f16 of reals that are never a NaN (from integer codes): Armv7's
 * vcvt alone (its default NaN is the only difference). */
TL_NI uint16x4_t f32_to_f16_no_nan(vf x)
{
#if TL_NEON_F16_HW && !TL_NEON_A64
    return vreinterpret_u16_f16(vcvt_f16_f32(x));
#else
    return f32_to_f16(x);
#endif
}

#endif
