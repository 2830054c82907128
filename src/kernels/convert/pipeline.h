/* The f32 pipeline for one element, in plain C: the scalar kernels use it,
 * and it is the model every vector kernel follows step by step (same f32
 * operations, same order, clamp before rounding, NaN to its code). It must
 * stay bit-identical to elem.c's rule; the differential tests check that. */
#ifndef TL_KERNELS_PIPELINE_H
#define TL_KERNELS_PIPELINE_H

#include <string.h>

#include "kernels/kernels.h"

#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* Element bytes of a pipeline dtype (a constant once inlined). */
static inline size_t tl_p_size(int t)
{
    return t == TL_U8 || t == TL_I8 ? 1 : t == TL_F32 ? 4 : 2;
}

static inline float tl_p_bits_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t tl_p_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

static inline float tl_p_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu)) u |= 0x400000u;
    return tl_p_bits_f32(u);
}

/* Nearest-even on the bits; a NaN keeps its top payload bits and turns quiet. */
static inline uint16_t tl_p_f32_to_bf16(float f)
{
    uint32_t u = tl_p_f32_bits(f);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu)) return (uint16_t)((u >> 16) | 0x40u);
    return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* The source stage: an integer code to its real value. */
static inline float tl_p_dequant(const tl_cvt *cv, int32_t c)
{
    switch (cv->s_q) {
    case TL_Q_AFFINE: return (float)(c - cv->s_zp) * cv->s_scale;
    case TL_Q_INV: return (float)(c - cv->s_zp) / cv->s_scale;
    case TL_Q_DFP: return ((float)c * cv->s_m1) * cv->s_m2;
    default: return (float)c;
    }
}

/* Round an f32 already clamped to the destination range (|x| < 2^31). */
static inline int32_t tl_p_round(float x, int mode)
{
    int32_t t = (int32_t)x;
    float f = x - (float)t; /* exact */
    if (mode == TL_ROUND_ZERO) return t;
    if (mode == TL_ROUND_AWAY) return t + (f >= 0.5f) - (f <= -0.5f);
    if (f > 0.5f || (f == 0.5f && (t & 1))) return t + 1;
    if (f < -0.5f || (f == -0.5f && (t & 1))) return t - 1;
    return t;
}

/* The destination stage for an integer destination: quantize, NaN, clamp, round. */
static inline int32_t tl_p_quant(const tl_cvt *cv, float x)
{
    volatile float prod; /* the product is rounded before the add: no FMA */
    switch (cv->d_q) {
    case TL_Q_AFFINE: /* d_scale = 1.0f / scale */
    case TL_Q_INV: prod = x * cv->d_scale; x = prod + cv->d_zpf; break;
    case TL_Q_DFP: x = x * cv->d_m1; break;
    default: break;
    }
    if (x != x) return cv->nan_code;
    x = x < cv->lo ? cv->lo : x > cv->hi ? cv->hi : x;
    return tl_p_round(x, cv->round);
}

static inline float tl_p_load(const tl_cvt *cv, int t, const uint8_t *p)
{
    switch (t) {
    case TL_U8: return tl_p_dequant(cv, *p);
    case TL_I8: return tl_p_dequant(cv, (int8_t)*p);
    case TL_I16: { int16_t v; memcpy(&v, p, 2); return tl_p_dequant(cv, v); }
    case TL_F16: { uint16_t v; memcpy(&v, p, 2); return tl_f16_to_f32(v); }
    case TL_BF16: { uint16_t v; memcpy(&v, p, 2); return tl_p_bf16_to_f32(v); }
    default: { float v; memcpy(&v, p, 4); return v; }
    }
}

static inline void tl_p_store(const tl_cvt *cv, int t, uint8_t *p, float x)
{
    switch (t) {
    case TL_U8: *p = (uint8_t)tl_p_quant(cv, x); return;
    case TL_I8: *p = (uint8_t)(int8_t)tl_p_quant(cv, x); return;
    case TL_I16: { int16_t v = (int16_t)tl_p_quant(cv, x); memcpy(p, &v, 2); return; }
    case TL_F16: { uint16_t v = tl_f32_to_f16(x); memcpy(p, &v, 2); return; }
    case TL_BF16: { uint16_t v = tl_p_f32_to_bf16(x); memcpy(p, &v, 2); return; }
    default: memcpy(p, &x, 4); return;
    }
}

#endif
