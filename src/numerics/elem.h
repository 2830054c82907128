/* Element semantics: the one definition of how a single element is read,
 * converted, (de)quantized and written. The scalar reference converter uses
 * it, and every SIMD kernel must be bit-identical to it (docs/conversion.md).
 *
 * Byte order: buffers hold little-endian elements and the host is assumed to
 * be little-endian (raw loads and stores are memcpy of the native integer).
 * Floating point: IEEE-754 binary32/binary64, default rounding mode
 * (nearest-even), FLT_EVAL_METHOD 0 (no excess precision), no FMA contraction
 * of the quantization formulas (elem.c computes them in separate statements).
 *
 * The numerics leaf (src/LAYERS): it includes only the public header, and
 * core, kernels and everything above them share it. Not installed. */
#ifndef TL_ELEM_H
#define TL_ELEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "tlayout.h"

#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "tlayout assumes a little-endian host (see src/numerics/elem.h)"
#endif

/* ---- dtype classes ------------------------------------------------------ */
static inline bool tl_dtype_is_float(tl_dtype t)
{
    return t == TL_F16 || t == TL_BF16 || t == TL_F32 || t == TL_F64;
}
static inline bool tl_dtype_is_signed_int(tl_dtype t)
{
    return t == TL_I8 || t == TL_I16 || t == TL_I32 || t == TL_I64 || t == TL_I4;
}
/* Integer dtypes including bool (everything valid that is not a float). */
static inline bool tl_dtype_is_int(tl_dtype t)
{
    return t > TL_DT_INVALID && t < TL_DT_COUNT && !tl_dtype_is_float(t);
}
/* Range of an integer dtype: [-tl_dtype_neg_limit(t), tl_dtype_max(t)]
 * (a magnitude, so that i64's minimum 2^63 fits). 0 for floats/invalid. */
uint64_t tl_dtype_max(tl_dtype t);
uint64_t tl_dtype_neg_limit(tl_dtype t);

/* ---- half-width floats (software, round-to-nearest-even) ------------- */
/* Narrowing rounds once from the exact value; overflow gives inf; subnormals
 * are produced and read exactly. A NaN stays a NaN of the same sign, is made
 * quiet, and keeps the top bits of its payload (what F16C/NEON/AVX512-BF16
 * conversions do). Widening is exact. */
uint16_t tl_f64_to_f16(double d);
uint16_t tl_f32_to_f16(float f);   /* == tl_f64_to_f16((double)f) for every f */
double tl_f16_to_f64(uint16_t h);
float tl_f16_to_f32(uint16_t h);
uint16_t tl_f64_to_bf16(double d);
uint16_t tl_f32_to_bf16(float f);  /* == tl_f64_to_bf16((double)f) for every f */
double tl_bf16_to_f64(uint16_t h);
float tl_bf16_to_f32(uint16_t h);
/* Integer -neg..mag to f16/bf16, rounded once (no detour through double). */
uint16_t tl_int_to_f16(bool neg, uint64_t mag);
uint16_t tl_int_to_bf16(bool neg, uint64_t mag);

/* ---- raw element access ------------------------------------------------ */
/* The raw bits of one element of `nbits` (4, 8, 16, 32 or 64) at bit offset
 * `bit` of `base`. A 4-bit element at bit b is in byte b/8, in the low nibble
 * when b % 8 == 0 (element 0 low, as TensorRT's INT4). Wider elements start
 * at a byte (b % 8 == 0) and may be unaligned. */
static inline uint64_t tl_load_raw(const uint8_t *base, int64_t bit, unsigned nbits)
{
    const uint8_t *p = base + (bit >> 3);
    switch (nbits) {
    case 4: return (bit & 4) ? (uint64_t)(*p >> 4) : (uint64_t)(*p & 15u);
    case 8: return *p;
    case 16: { uint16_t v; memcpy(&v, p, 2); return v; }
    case 32: { uint32_t v; memcpy(&v, p, 4); return v; }
    default: { uint64_t v; memcpy(&v, p, 8); return v; }
    }
}

/* Store the low `nbits` of raw; a nibble store keeps the other nibble. */
static inline void tl_store_raw(uint8_t *base, int64_t bit, unsigned nbits, uint64_t raw)
{
    uint8_t *p = base + (bit >> 3);
    switch (nbits) {
    case 4:
        if (bit & 4) *p = (uint8_t)((*p & 0x0Fu) | ((raw & 15u) << 4));
        else *p = (uint8_t)((*p & 0xF0u) | (raw & 15u));
        return;
    case 8: *p = (uint8_t)raw; return;
    case 16: { uint16_t v = (uint16_t)raw; memcpy(p, &v, 2); return; }
    case 32: { uint32_t v = (uint32_t)raw; memcpy(p, &v, 4); return; }
    default: memcpy(p, &raw, 8); return;
    }
}

/* ---- typed element access --------------------------------------------- */
/* A value as the element's type sees it: .i for signed ints, unsigned ints
 * up to 32 bits and bool (0/1: any non-zero byte reads as 1), .u for u64,
 * .f for floats (exact, half types widened). */
typedef union tl_value {
    int64_t i;
    uint64_t u;
    double f;
} tl_value;

tl_value tl_elem_read(tl_dtype t, const uint8_t *base, int64_t bit);
/* Integers saturate to t's range (bool: non-zero -> 1); floats round to
 * nearest-even from the double. */
void tl_elem_write(tl_dtype t, uint8_t *base, int64_t bit, tl_value v);

/* ---- quantization (public API in tlayout.h) ----------------------------- */
/* The real value of a code as every path sees it (f32 arithmetic):
 * AFFINE (float)(code - zp) * scale, INV (float)(code - zp) * (1.0f / scale)
 * (TIDL-RT's reciprocal; (float)(code - zp) / scale with TL_DEQ_DIVIDE),
 * DFP ldexpf((float)code, -fl), NONE (float)code. The difference is exact. */
float tl_dequantize_f32(const tl_quant *q, bool neg, uint64_t mag);
/* Code of `real` in dtype t (rounded by q->round, saturated); returned as raw
 * bits of t (the low tl_dtype_bits(t) bits are the element). Before rounding,
 * in f32: AFFINE real * inv_scale + (float)zp with inv_scale = 1.0f / scale
 * rounded once (a multiply, not a divide: XNNPACK / TFLite-micro), INV
 * real * scale + (float)zp, DFP ldexpf(real, fl), NONE real. */
uint64_t tl_quantize_raw(const tl_quant *q, tl_dtype t, float real);

/* ---- the element conversion rule (docs/conversion.md) ------------------ */
typedef enum tl_elem_path {
    TL_EP_COPY = 0,   /* a) same dtype and same quantization: raw bits */
    TL_EP_REAL = 1,   /* b) a side is quantized: through the f32 real value */
    TL_EP_INT = 2,    /* c) integer or bool source, neither quantized */
    TL_EP_FLOAT = 3   /* c) float source, neither quantized */
} tl_elem_path;

/* Decided once per conversion, applied per element. Quantization on a float
 * dtype is ignored (kind NONE here), as TIDL does for its float tensors. */
typedef struct tl_elem_op {
    uint8_t path;       /* tl_elem_path */
    uint8_t src_dt, dst_dt;
    uint8_t src_bits, dst_bits;
    tl_quant sq, dq;    /* effective quantization of source and destination */
} tl_elem_op;

/* From dtypes and quantizations (NULL = none). */
void tl_elem_op_init_dt(tl_elem_op *op, tl_dtype src, const tl_quant *sq, tl_dtype dst,
                        const tl_quant *dq);
/* Destination raw bits of one source raw element: the rule as a pure function. */
uint64_t tl_elem_convert_raw(const tl_elem_op *op, uint64_t src_raw);

static inline void tl_elem_convert(const tl_elem_op *op, const uint8_t *src_base, int64_t src_bit,
                                   uint8_t *dst_base, int64_t dst_bit)
{
    uint64_t raw = tl_load_raw(src_base, src_bit, op->src_bits);
    tl_store_raw(dst_base, dst_bit, op->dst_bits, tl_elem_convert_raw(op, raw));
}

#endif
