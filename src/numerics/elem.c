/* Element semantics: dtypes, half-width floats, (de)quantization and the
 * element conversion rule. See elem.h and docs/conversion.md. */
#include "elem.h"

#include <string.h>

/* The quantization formulas round after every f32 operation (kernels do the
 * same). Clang would contract a*b+c into an FMA within an expression by
 * default, and GCC across statements under -ffp-contract=fast (its gnu11
 * default); the pragma covers clang, a volatile covers the one a*b+c. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#endif

/* ---- dtypes --------------------------------------------------------------- */
typedef struct dtype_info {
    const char *name;
    unsigned bits;
    uint64_t max, neg_limit;
} dtype_info;

static const dtype_info k_dtypes[TL_DT_COUNT] = {
    [TL_DT_INVALID] = {"?", 0, 0, 0},
    [TL_U8] = {"u8", 8, UINT8_MAX, 0},
    [TL_I8] = {"i8", 8, INT8_MAX, 128u},
    [TL_U16] = {"u16", 16, UINT16_MAX, 0},
    [TL_I16] = {"i16", 16, INT16_MAX, 32768u},
    [TL_U32] = {"u32", 32, UINT32_MAX, 0},
    [TL_I32] = {"i32", 32, INT32_MAX, 2147483648u},
    [TL_U64] = {"u64", 64, UINT64_MAX, 0},
    [TL_I64] = {"i64", 64, INT64_MAX, (uint64_t)1 << 63},
    [TL_F16] = {"f16", 16, 0, 0},
    [TL_BF16] = {"bf16", 16, 0, 0},
    [TL_F32] = {"f32", 32, 0, 0},
    [TL_F64] = {"f64", 64, 0, 0},
    [TL_BOOL] = {"bool", 8, 1, 0},
    [TL_U4] = {"u4", 4, 15, 0},
    [TL_I4] = {"i4", 4, 7, 8},
};

static const dtype_info *dtype_get(tl_dtype t)
{
    return (t > TL_DT_INVALID && t < TL_DT_COUNT) ? &k_dtypes[t] : &k_dtypes[TL_DT_INVALID];
}

unsigned tl_dtype_bits(tl_dtype t) { return dtype_get(t)->bits; }
const char *tl_dtype_name(tl_dtype t) { return dtype_get(t)->name; }
uint64_t tl_dtype_max(tl_dtype t) { return dtype_get(t)->max; }
uint64_t tl_dtype_neg_limit(tl_dtype t) { return dtype_get(t)->neg_limit; }

/* Names frameworks use (numpy, ONNX, PyTorch, TensorRT), accepted on input;
 * tl_dtype_name gives the canonical one back. */
static const struct { const char *name; tl_dtype t; } k_dtype_aliases[] = {
    {"uint8", TL_U8}, {"int8", TL_I8}, {"uint16", TL_U16}, {"int16", TL_I16},
    {"uint32", TL_U32}, {"int32", TL_I32}, {"uint64", TL_U64}, {"int64", TL_I64},
    {"float16", TL_F16}, {"fp16", TL_F16}, {"half", TL_F16},
    {"bfloat16", TL_BF16}, {"float32", TL_F32}, {"fp32", TL_F32}, {"float", TL_F32},
    {"float64", TL_F64}, {"fp64", TL_F64}, {"double", TL_F64},
    {"uint4", TL_U4}, {"int4", TL_I4}, {"bool8", TL_BOOL},
};

tl_dtype tl_dtype_from_name(const char *s)
{
    if (s == NULL) return TL_DT_INVALID;
    for (int t = TL_DT_INVALID + 1; t < TL_DT_COUNT; t++)
        if (strcmp(s, k_dtypes[t].name) == 0) return (tl_dtype)t;
    for (size_t i = 0; i < sizeof k_dtype_aliases / sizeof k_dtype_aliases[0]; i++)
        if (strcmp(s, k_dtype_aliases[i].name) == 0) return k_dtype_aliases[i].t;
    return TL_DT_INVALID;
}

const char *tl_dtype_closest_name(const char *s)
{
    const char *names[TL_DT_COUNT + sizeof k_dtype_aliases / sizeof k_dtype_aliases[0]];
    size_t n = 0;
    for (int t = TL_DT_INVALID + 1; t < TL_DT_COUNT; t++) names[n++] = k_dtypes[t].name;
    for (size_t i = 0; i < sizeof k_dtype_aliases / sizeof k_dtype_aliases[0]; i++) names[n++] = k_dtype_aliases[i].name;
    return tl_closest_name(s, names, n);
}

/* ---- bit casts ----------------------------------------------------------- */
static uint64_t bits_of_f64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static double f64_of_bits(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static uint32_t bits_of_f32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float f32_of_bits(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }

static int msb64(uint64_t v) { return 63 - __builtin_clzll(v); } /* v != 0 */

/* ---- narrow floats --------------------------------------------------------- */
/* A binary format with `mbits` fraction bits and `ebits` exponent bits. */
typedef struct small_fmt {
    unsigned mbits, ebits;
    int bias;
} small_fmt;

static const small_fmt k_f16 = {10, 5, 15};
static const small_fmt k_bf16 = {7, 8, 127};

/* sig / 2^shift rounded to nearest, ties to even (shift >= 1). */
static uint64_t shift_rne(uint64_t sig, int shift)
{
    if (shift > 64) return 0;                         /* below a quarter ulp */
    if (shift == 64) return sig > ((uint64_t)1 << 63); /* half exactly -> even 0 */
    uint64_t q = sig >> shift;
    uint64_t rem = sig & (((uint64_t)1 << shift) - 1);
    uint64_t half = (uint64_t)1 << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) q++;
    return q;
}

/* Round (neg ? -1 : 1) * sig * 2^exp to fmt, once. The encoding trick: the
 * count of ulps plus the biased exponent minus one lands on the right bits
 * even when rounding carries into the next binade or out of subnormals. */
static uint16_t round_small(small_fmt f, bool neg, uint64_t sig, int exp)
{
    uint16_t sign = neg ? 0x8000u : 0;
    if (sig == 0) return sign;
    int e = msb64(sig) + exp;           /* floor(log2 |value|) */
    int emin = 1 - f.bias;
    int eeff = e < emin ? emin : e;      /* subnormals share emin's ulp */
    int shift = eeff - (int)f.mbits - exp;
    uint64_t q = shift <= 0 ? sig << -shift : shift_rne(sig, shift);
    uint64_t inf = (((uint64_t)1 << f.ebits) - 1) << f.mbits;
    uint64_t bits = ((uint64_t)(eeff + f.bias - 1) << f.mbits) + q;
    return (uint16_t)(sign | (bits >= inf ? inf : bits));
}

/* NaN of fmt with the top payload bits of a NaN whose fraction is `frac`
 * (`fbits` wide), quiet bit set. */
static uint16_t small_nan(small_fmt f, bool neg, uint64_t frac, unsigned fbits)
{
    uint64_t inf = (((uint64_t)1 << f.ebits) - 1) << f.mbits;
    uint64_t quiet = (uint64_t)1 << (f.mbits - 1);
    return (uint16_t)((neg ? 0x8000u : 0) | inf | quiet | (frac >> (fbits - f.mbits)));
}

static uint16_t f64_to_small(small_fmt f, double d)
{
    uint64_t u = bits_of_f64(d);
    bool neg = (u >> 63) != 0;
    int e = (int)((u >> 52) & 0x7FF);
    uint64_t frac = u & ((((uint64_t)1) << 52) - 1);
    if (e == 0x7FF) {
        if (frac != 0) return small_nan(f, neg, frac, 52);
        return (uint16_t)((neg ? 0x8000u : 0) | ((((uint64_t)1 << f.ebits) - 1) << f.mbits));
    }
    if (e == 0) return round_small(f, neg, frac, -1074);
    return round_small(f, neg, frac | ((uint64_t)1 << 52), e - 1075);
}

static uint16_t f32_to_small(small_fmt f, float x)
{
    uint32_t u = bits_of_f32(x);
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu) != 0)
        return small_nan(f, (u >> 31) != 0, u & 0x7FFFFFu, 23);
    return f64_to_small(f, (double)x); /* exact widening: one rounding */
}

/* Exact value of a small-format encoding as binary64 bits. */
static double small_to_f64(small_fmt f, uint16_t h)
{
    uint64_t sign = (uint64_t)(h >> 15) << 63;
    unsigned emax = (1u << f.ebits) - 1;
    unsigned e = (h >> f.mbits) & emax;
    uint64_t frac = h & ((1u << f.mbits) - 1);
    if (e == emax) {
        uint64_t nan = frac ? ((uint64_t)1 << 51) | (frac << (52 - f.mbits)) : 0;
        return f64_of_bits(sign | ((uint64_t)0x7FF << 52) | nan);
    }
    if (e == 0) {   /* subnormal: frac * 2^(emin - mbits), exact in binary64 */
        double m = (double)frac * f64_of_bits((uint64_t)(1023 + 1 - f.bias - (int)f.mbits) << 52);
        return (h >> 15) ? -m : m;
    }
    uint64_t de = (uint64_t)((int)e - f.bias + 1023);
    return f64_of_bits(sign | (de << 52) | (frac << (52 - f.mbits)));
}

uint16_t tl_f64_to_f16(double d) { return f64_to_small(k_f16, d); }
uint16_t tl_f32_to_f16(float f) { return f32_to_small(k_f16, f); }
double tl_f16_to_f64(uint16_t h) { return small_to_f64(k_f16, h); }
uint16_t tl_f64_to_bf16(double d) { return f64_to_small(k_bf16, d); }
uint16_t tl_f32_to_bf16(float f) { return f32_to_small(k_bf16, f); }
double tl_bf16_to_f64(uint16_t h) { return small_to_f64(k_bf16, h); }
uint16_t tl_int_to_f16(bool neg, uint64_t mag) { return round_small(k_f16, neg, mag, 0); }
uint16_t tl_int_to_bf16(bool neg, uint64_t mag) { return round_small(k_bf16, neg, mag, 0); }

/* Widening to f32 built from bits, so a NaN keeps its payload and sign
 * whatever the FPU does with signalling NaNs. */
float tl_f16_to_f32(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t e = (h >> 10) & 31u, frac = h & 0x3FFu;
    if (e == 31) return f32_of_bits(sign | 0x7F800000u | (frac ? 0x400000u | (frac << 13) : 0));
    if (e == 0) {
        float m = (float)frac * 0x1p-24f; /* exact */
        return sign ? -m : m;
    }
    return f32_of_bits(sign | ((e + 112u) << 23) | (frac << 13));
}

float tl_bf16_to_f32(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    if ((u & 0x7F800000u) == 0x7F800000u && (u & 0x7FFFFFu) != 0) u |= 0x400000u;
    return f32_of_bits(u);
}

/* ---- integers as sign and magnitude (covers i64 and u64 at once) ------- */
typedef struct ival {
    uint64_t mag;
    bool neg;   /* never set with mag 0 */
} ival;

static ival ival_of_i64(int64_t v)
{
    ival r = {v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0};
    return r;
}

static int64_t sign_extend(uint64_t raw, unsigned bits)
{
    if (bits >= 64) return (int64_t)raw;
    uint64_t m = (uint64_t)1 << (bits - 1);
    raw &= (m << 1) - 1;
    return (int64_t)(raw ^ m) - (int64_t)m;
}

static ival ival_of_raw(tl_dtype t, uint64_t raw)
{
    unsigned bits = tl_dtype_bits(t);
    if (tl_dtype_is_signed_int(t)) return ival_of_i64(sign_extend(raw, bits));
    if (bits < 64) raw &= ((uint64_t)1 << bits) - 1; /* callers may pass wider raws */
    ival r = {t == TL_BOOL ? raw != 0 : raw, false};
    return r;
}

/* Clamp to t's range; bool takes "non-zero" rather than a range. */
static ival ival_saturate(tl_dtype t, ival v)
{
    if (t == TL_BOOL) { v.mag = v.mag != 0; v.neg = false; return v; }
    uint64_t lim = v.neg ? tl_dtype_neg_limit(t) : tl_dtype_max(t);
    if (v.mag > lim) v.mag = lim;
    if (v.mag == 0) v.neg = false;
    return v;
}

static uint64_t raw_of_ival(ival v) { return v.neg ? 0 - v.mag : v.mag; }

/* v - zp, exact; magnitudes past 2^64 stick at UINT64_MAX, which converts to
 * the same f32 (2^64) as the exact value would. */
static ival ival_sub_i32(ival v, int32_t zp)
{
    ival z = ival_of_i64(-(int64_t)zp);
    if (z.mag == 0) return v;
    if (v.neg == z.neg || v.mag == 0) {
        v.neg = z.neg;
        v.mag = v.mag > UINT64_MAX - z.mag ? UINT64_MAX : v.mag + z.mag;
    } else if (v.mag >= z.mag) {
        v.mag -= z.mag;
    } else {
        v.mag = z.mag - v.mag;
        v.neg = z.neg;
    }
    if (v.mag == 0) v.neg = false;
    return v;
}

static float f32_of_ival(ival v) { float f = (float)v.mag; return v.neg ? -f : f; }
static double f64_of_ival(ival v) { double d = (double)v.mag; return v.neg ? -d : d; }

/* ---- rounding a double to an integer, independent of fenv ------------------- */
static double abs_f64(double d) { return d < 0 ? -d : d; }

static double round_f64(double d, tl_round mode)
{
    if (!(abs_f64(d) < 0x1p52)) return d; /* integral already, inf or NaN */
    double t = (double)(int64_t)d;        /* truncation, exact here */
    double frac = abs_f64(d - t);          /* exact */
    double step = d < 0 ? -1.0 : 1.0;
    switch (mode) {
    case TL_ROUND_ZERO: return t;
    case TL_ROUND_AWAY: return frac >= 0.5 ? t + step : t;
    default:
        if (frac > 0.5) return t + step;
        if (frac == 0.5 && ((int64_t)t & 1)) return t + step;
        return t;
    }
}

/* An integral or infinite double (not NaN) as a saturated-to-2^64 ival. */
static ival ival_of_integral(double r)
{
    ival v = {0, r < 0};
    double m = abs_f64(r);
    v.mag = m >= 0x1p64 ? UINT64_MAX : (uint64_t)m;
    if (v.mag == 0) v.neg = false;
    return v;
}

/* float -> integer dtype t: rounded by mode, saturated, NaN -> 0. */
static uint64_t int_raw_of_f64(tl_dtype t, double d, tl_round mode)
{
    if (d != d) return 0;
    if (t == TL_BOOL) return d != 0;
    return raw_of_ival(ival_saturate(t, ival_of_integral(round_f64(d, mode))));
}

/* ---- floats by dtype --------------------------------------------------------- */
/* f32 <-> f64 by the hardware, except NaNs, which follow the f16 rule in
 * software (quiet, sign and top payload bits kept) whatever the FPU's
 * default-NaN or signalling behaviour. */
static double f64_of_f32_bits(uint32_t u)
{
    if ((u & 0x7F800000u) != 0x7F800000u || (u & 0x7FFFFFu) == 0) return (double)f32_of_bits(u);
    uint64_t sign = (uint64_t)(u >> 31) << 63;
    return f64_of_bits(sign | ((uint64_t)0xFFF << 51) | ((uint64_t)(u & 0x7FFFFFu) << 29));
}

static uint32_t f32_bits_of_f64(double d)
{
    if (d == d) return bits_of_f32((float)d);
    uint64_t u = bits_of_f64(d);
    uint32_t frac = (uint32_t)((u >> 29) & 0x7FFFFFu);
    return (uint32_t)(u >> 63) << 31 | 0x7FC00000u | frac;
}

/* Exact value of a float element. */
static double f64_of_float_raw(tl_dtype t, uint64_t raw)
{
    switch (t) {
    case TL_F16: return tl_f16_to_f64((uint16_t)raw);
    case TL_BF16: return tl_bf16_to_f64((uint16_t)raw);
    case TL_F32: return f64_of_f32_bits((uint32_t)raw);
    default: return f64_of_bits(raw);
    }
}

/* Rounded to nearest-even from the exact double. */
static uint64_t float_raw_of_f64(tl_dtype t, double d)
{
    switch (t) {
    case TL_F16: return tl_f64_to_f16(d);
    case TL_BF16: return tl_f64_to_bf16(d);
    case TL_F32: return f32_bits_of_f64(d);
    default: return bits_of_f64(d);
    }
}

static uint64_t float_raw_of_ival(tl_dtype t, ival v)
{
    switch (t) {
    case TL_F16: return tl_int_to_f16(v.neg, v.mag);
    case TL_BF16: return tl_int_to_bf16(v.neg, v.mag);
    case TL_F32: return bits_of_f32(f32_of_ival(v));
    default: return bits_of_f64(f64_of_ival(v));
    }
}

/* f32 value of a float element: f16/bf16 exact, f64 rounded nearest-even. */
static float f32_of_float_raw(tl_dtype t, uint64_t raw)
{
    switch (t) {
    case TL_F16: return tl_f16_to_f32((uint16_t)raw);
    case TL_BF16: return tl_bf16_to_f32((uint16_t)raw);
    case TL_F32: return f32_of_bits((uint32_t)raw);
    default: return f32_of_bits(f32_bits_of_f64(f64_of_bits(raw)));
    }
}

/* ---- typed access --------------------------------------------------------- */
tl_value tl_elem_read(tl_dtype t, const uint8_t *base, int64_t bit)
{
    tl_value v;
    uint64_t raw = tl_load_raw(base, bit, tl_dtype_bits(t));
    if (tl_dtype_is_float(t)) v.f = f64_of_float_raw(t, raw);
    else if (t == TL_U64) v.u = raw;
    else v.i = (int64_t)raw_of_ival(ival_of_raw(t, raw));
    return v;
}

void tl_elem_write(tl_dtype t, uint8_t *base, int64_t bit, tl_value v)
{
    uint64_t raw;
    if (tl_dtype_is_float(t)) raw = float_raw_of_f64(t, v.f);
    else if (t == TL_U64) raw = v.u;
    else raw = raw_of_ival(ival_saturate(t, ival_of_i64(v.i)));
    tl_store_raw(base, bit, tl_dtype_bits(t), raw);
}

/* ---- quantization ---------------------------------------------------------- */
/* 2^n as a float, n in [-149, 127]: exact (2^-127, 2^-128 are subnormal). */
static float pow2f(int n)
{
    if (n >= -126) return f32_of_bits((uint32_t)(n + 127) << 23);
    return f32_of_bits((uint32_t)1 << (n + 149));
}

/* x * 2^n for n in [-128, 128]: one rounding, as ldexpf. Splitting 2^128 is
 * exact: the first product overflows only if the result does. */
static float ldexpf_fl(float x, int n)
{
    if (n > 127) { x *= pow2f(127); n -= 127; }
    return x * pow2f(n);
}

float tl_dequantize_f32(const tl_quant *q, bool neg, uint64_t mag)
{
    ival code = {mag, neg && mag != 0};
    switch (q->kind) {
    case TL_Q_AFFINE: return f32_of_ival(ival_sub_i32(code, q->zp)) * q->scale;
    case TL_Q_INV:
        if (q->dequant == TL_DEQ_DIVIDE) return f32_of_ival(ival_sub_i32(code, q->zp)) / q->scale;
        return f32_of_ival(ival_sub_i32(code, q->zp)) * (1.0f / q->scale); /* TIDL-RT's reciprocal */
    case TL_Q_DFP: return ldexpf_fl(f32_of_ival(code), -(int)q->fl);
    default: return f32_of_ival(code);
    }
}

/* real mapped to the code axis, before rounding, each operation rounded to
 * f32. AFFINE multiplies by the reciprocal of the scale, itself rounded to
 * f32 once (1.0f / scale): the XNNPACK / TFLite-micro convention, and what
 * lets SIMD kernels quantize without a divide. It can differ from
 * real / scale by one code when the quotient lands near a rounding boundary.
 * The volatile product keeps AFFINE and INV from becoming one fused
 * multiply-add. */
static float quant_axis(const tl_quant *q, float real)
{
    volatile float prod;
    switch (q->kind) {
    case TL_Q_AFFINE:
        prod = real * (1.0f / q->scale);
        return prod + (float)q->zp;
    case TL_Q_INV:
        prod = real * q->scale;
        return prod + (float)q->zp;
    case TL_Q_DFP: return ldexpf_fl(real, q->fl);
    default: return real;
    }
}

/* Quantizing into a float container has no range: clamp to int64's. */
static ival quant_saturate(tl_dtype t, ival v)
{
    if (tl_dtype_is_int(t)) return ival_saturate(t, v);
    return ival_saturate(TL_I64, v);
}

uint64_t tl_quantize_raw(const tl_quant *q, tl_dtype t, float real)
{
    float x = quant_axis(q, real);
    ival v;
    if (x != x) {
        bool has_zp = q->kind == TL_Q_AFFINE || q->kind == TL_Q_INV;
        v = ival_of_i64(has_zp ? q->zp : 0);
    } else {
        v = ival_of_integral(round_f64((double)x, (tl_round)q->round));
    }
    return raw_of_ival(quant_saturate(t, v));
}

int64_t tl_quantize_value(const tl_quant *q, tl_dtype t, float real)
{
    static const tl_quant none = {0};
    uint64_t raw = tl_quantize_raw(q ? q : &none, t, real);
    if (tl_dtype_is_signed_int(t)) return sign_extend(raw, tl_dtype_bits(t));
    return (int64_t)raw; /* u64 codes above INT64_MAX come back as their bit pattern */
}

double tl_dequantize_value(const tl_quant *q, int64_t code)
{
    if (q == NULL || q->kind == TL_Q_NONE) return (double)code;
    ival v = ival_of_i64(code);
    return (double)tl_dequantize_f32(q, v.neg, v.mag);
}

/* ---- the element rule -------------------------------------------------------- */
static bool quant_equal(const tl_quant *a, const tl_quant *b)
{
    if (a->kind != b->kind) return false;
    switch (a->kind) {
    case TL_Q_AFFINE:
    case TL_Q_INV:
        /* dequant changes how a code reads, not which code stands for
         * which value: equal codes still copy as raw bits */
        return a->zp == b->zp && bits_of_f32(a->scale) == bits_of_f32(b->scale);
    case TL_Q_DFP: return a->fl == b->fl;
    default: return true;
    }
}

static tl_quant effective_quant(tl_dtype t, const tl_quant *q)
{
    tl_quant r = {0};
    if (q != NULL) r = *q;
    if (tl_dtype_is_float(t) || r.kind > TL_Q_DFP) r.kind = TL_Q_NONE;
    return r;
}

void tl_elem_op_init_dt(tl_elem_op *op, tl_dtype src, const tl_quant *sq, tl_dtype dst,
                        const tl_quant *dq)
{
    memset(op, 0, sizeof *op);
    op->src_dt = (uint8_t)src;
    op->dst_dt = (uint8_t)dst;
    op->src_bits = (uint8_t)tl_dtype_bits(src);
    op->dst_bits = (uint8_t)tl_dtype_bits(dst);
    op->sq = effective_quant(src, sq);
    op->dq = effective_quant(dst, dq);
    if (src == dst && quant_equal(&op->sq, &op->dq)) op->path = TL_EP_COPY;
    else if (op->sq.kind != TL_Q_NONE || op->dq.kind != TL_Q_NONE) op->path = TL_EP_REAL;
    else if (tl_dtype_is_float(src)) op->path = TL_EP_FLOAT;
    else op->path = TL_EP_INT;
}

/* Rule b, source side: the f32 real value. */
static float real_of_raw(const tl_elem_op *op, uint64_t raw)
{
    tl_dtype t = (tl_dtype)op->src_dt;
    if (tl_dtype_is_float(t)) return f32_of_float_raw(t, raw);
    ival v = ival_of_raw(t, raw);
    return tl_dequantize_f32(&op->sq, v.neg, v.mag); /* NONE: (float)v, rounded once */
}

/* Rule b, destination side. */
static uint64_t raw_of_real(const tl_elem_op *op, float real)
{
    tl_dtype t = (tl_dtype)op->dst_dt;
    if (op->dq.kind != TL_Q_NONE) return tl_quantize_raw(&op->dq, t, real);
    if (tl_dtype_is_float(t)) return float_raw_of_f64(t, f64_of_f32_bits(bits_of_f32(real)));
    return int_raw_of_f64(t, (double)real, (tl_round)op->dq.round);
}

uint64_t tl_elem_convert_raw(const tl_elem_op *op, uint64_t raw)
{
    tl_dtype dt = (tl_dtype)op->dst_dt;
    switch ((tl_elem_path)op->path) {
    case TL_EP_COPY: return raw;
    case TL_EP_REAL: return raw_of_real(op, real_of_raw(op, raw));
    case TL_EP_FLOAT: {
        double d = f64_of_float_raw((tl_dtype)op->src_dt, raw);
        if (tl_dtype_is_float(dt)) return float_raw_of_f64(dt, d);
        return int_raw_of_f64(dt, d, (tl_round)op->dq.round);
    }
    default: {
        ival v = ival_of_raw((tl_dtype)op->src_dt, raw);
        if (tl_dtype_is_float(dt)) return float_raw_of_ival(dt, v);
        return raw_of_ival(ival_saturate(dt, v));
    }
    }
}
