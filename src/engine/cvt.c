/* The conversion a plan's kernels apply: elem.c's rule decided once and laid
 * out as the constants of the f32 pipeline (kernels/kernels.h, tl_cvt). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

static float f32_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* 2^n for n in [-149, 127], exact (as elem.c's pow2f). */
static float pow2(int n)
{
    if (n >= -126) return f32_bits((uint32_t)(n + 127) << 23);
    return f32_bits((uint32_t)1 << (n + 149));
}

static int64_t clamp64(int64_t v, int64_t lo, int64_t hi) { return v < lo ? lo : v > hi ? hi : v; }

static void dst_range(tl_cvt *cv, tl_dtype t)
{
    switch (t) {
    case TL_U8: cv->lo = 0.0f; cv->hi = 255.0f; break;
    case TL_I8: cv->lo = -128.0f; cv->hi = 127.0f; break;
    case TL_I16: cv->lo = -32768.0f; cv->hi = 32767.0f; break;
    default: cv->lo = cv->hi = 0.0f; break;
    }
}

/* Parameters whose f32 arithmetic the kernels reproduce exactly: an int32
 * code minus zp must not overflow, so |zp| stays below 2^30. */
static bool params_fast(const tl_quant *q)
{
    if (q->kind == TL_Q_AFFINE || q->kind == TL_Q_INV) return q->zp > -(1 << 30) && q->zp < (1 << 30);
    return true;
}

/* An integer quantization that maps every code to itself (scale 1, zp 0,
 * fl 0): real == code exactly in f32 for 8/16-bit codes. */
static bool quant_identity(const tl_quant *q)
{
    switch (q->kind) {
    case TL_Q_NONE: return true;
    case TL_Q_AFFINE:
    case TL_Q_INV: return q->zp == 0 && q->scale == 1.0f;
    default: return q->fl == 0;
    }
}

/* What the 16-bit kernels compute for code v (tl_cvt affine8), in int32
 * (the search keeps every step inside 16 bits); floor division for the
 * shifts, as the kernels' arithmetic shifts do. */
static int affine8_code(int v, const tl_cvt *k, int lo, int hi)
{
    int t = v * k->affine8_mul + k->affine8_add, d = 1 << k->affine8_shift;
    int fl = t >= 0 ? t / d : -((-t + d - 1) / d);
    int u = t + k->affine8_bias + (fl & k->affine8_odd);
    int r = u >= 0 ? u / d : -((-u + d - 1) / d);
    return r < lo ? lo : r > hi ? hi : r;
}

/* An 8-bit table that is an affine map of the code (tl_cvt affine8): the
 * rule's real multiplier and offset, scaled by 2^shift and rounded to
 * integers, for the smallest shift and the first rounding (half to even,
 * half up, down) whose map gives all 256 answers of the table, with every
 * intermediate inside 16 bits. Nothing is assumed about the scales or the
 * rounding mode: the table decides (TIDL rounds half away from zero, which
 * on codes that stay positive is half up). */
static void find_affine8(tl_cvt *cv)
{
    int s_signed = cv->sdt == TL_I8, d_signed = cv->ddt == TL_I8;
    int lo = d_signed ? -128 : 0, hi = d_signed ? 127 : 255, vlo = s_signed ? -128 : 0, vhi = vlo + 255;
    double in = cv->s_q == TL_Q_AFFINE ? cv->s_scale
                : cv->s_q == TL_Q_INV  ? 1.0 / cv->s_scale
                : cv->s_q == TL_Q_DFP  ? (double)cv->s_m1 * cv->s_m2
                                       : 1.0;
    double m = in * cv->d_mul, c = cv->d_add - cv->s_zp * m;
    tl_cvt k = *cv;
    for (int shift = 0; shift <= 14; shift++) {
        double mf = ldexp(m, shift), cf = ldexp(c, shift);
        if (fabs(mf) > 32767 || fabs(cf) > 32767) return;
        k.affine8_mul = (int16_t)lrint(mf), k.affine8_add = (int16_t)lrint(cf);
        k.affine8_shift = (uint8_t)shift;
        int a = vlo * k.affine8_mul + k.affine8_add, b = vhi * k.affine8_mul + k.affine8_add;
        if ((abs(a) > abs(b) ? abs(a) : abs(b)) + (1 << shift) > 32767) return;
        int half = shift ? 1 << (shift - 1) : 0;
        const int roundings[3][2] = {{half ? half - 1 : 0, half ? 1 : 0}, {half, 0}, {0, 0}};
        for (int rd = 0; rd < (shift ? 3 : 1); rd++) {
            k.affine8_bias = (int16_t)roundings[rd][0], k.affine8_odd = (uint8_t)roundings[rd][1];
            bool all = true;
            for (unsigned x = 0; x < 256 && all; x++) {
                int v = s_signed ? (int8_t)x : (int)x, q = d_signed ? (int8_t)cv->lut[x] : cv->lut[x];
                all = q == affine8_code(v, &k, lo, hi);
            }
            if (all) {
                k.affine8 = 1;
                *cv = k;
                return;
            }
        }
    }
}

void tl_cvt_init_dt(tl_cvt *cv, tl_dtype s, const tl_quant *sq, tl_dtype d, const tl_quant *dq)
{
    memset(cv, 0, sizeof *cv);
    tl_elem_op_init_dt(&cv->op, s, sq, d, dq);
    const tl_elem_op *op = &cv->op;
    cv->path = op->path;
    cv->sdt = (uint8_t)s;
    cv->ddt = (uint8_t)d;
    cv->es = (uint8_t)(tl_dtype_bits(s) / 8);
    cv->ed = (uint8_t)(tl_dtype_bits(d) / 8);
    cv->s_q = op->sq.kind;
    cv->s_zp = op->sq.zp;
    cv->s_scale = op->sq.scale;
    /* INV reads codes as TIDL-RT does, times the f32 reciprocal rounded once
     * (elem.c): exactly an AFFINE source with that reciprocal as its scale.
     * Only TL_DEQ_DIVIDE keeps the kernels' divide. */
    if (op->sq.kind == TL_Q_INV && op->sq.dequant != TL_DEQ_DIVIDE) {
        cv->s_q = TL_Q_AFFINE;
        cv->s_scale = 1.0f / op->sq.scale;
    }
    cv->s_m1 = cv->s_m2 = 1.0f;
    if (op->sq.kind == TL_Q_DFP) { /* ldexpf(x, -fl), -fl in [-127, 128] */
        int n = -(int)op->sq.fl;
        if (n > 127) {
            cv->s_m1 = pow2(127);
            n -= 127;
        }
        if (n > 127 || n < -149) n = 0; /* unreachable for an int8 fl */
        if (cv->s_m1 == 1.0f) cv->s_m1 = pow2(n);
        else cv->s_m2 = pow2(n);
    }
    cv->d_q = op->dq.kind;
    cv->round = op->dq.round;
    /* AFFINE quantizes by the f32 reciprocal, rounded once (elem.c):
     * both kinds are then one multiply and one add per element */
    cv->d_scale = op->dq.kind == TL_Q_AFFINE ? 1.0f / op->dq.scale : op->dq.scale;
    cv->d_zpf = (float)op->dq.zp;
    cv->d_m1 = op->dq.kind == TL_Q_DFP ? pow2(op->dq.fl) : 1.0f;
    bool zp_kind = op->dq.kind == TL_Q_AFFINE || op->dq.kind == TL_Q_INV;
    cv->d_mul = zp_kind ? cv->d_scale : cv->d_m1;
    cv->d_add = zp_kind ? cv->d_zpf : 0.0f;
    dst_range(cv, d);
    if (op->dq.kind == TL_Q_AFFINE || op->dq.kind == TL_Q_INV)
        cv->nan_code = (int32_t)clamp64(op->dq.zp, (int64_t)cv->lo, (int64_t)cv->hi);
    cv->fast = (uint8_t)(tl_fast_dtype(s) && tl_fast_dtype(d) && params_fast(&op->sq) &&
                         params_fast(&op->dq));
    /* same 8/16-bit integer type, both quantizations the identity: the rule
     * gives back every code unchanged (f32 holds them exactly), so move bytes */
    bool ints = (s == TL_U8 || s == TL_I8 || s == TL_I16) && (d == TL_U8 || d == TL_I8 || d == TL_I16);
    if (s == d && cv->fast && ints && quant_identity(&op->sq) && quant_identity(&op->dq))
        cv->path = TL_EP_COPY;
    /* different 8/16-bit integer types, both quantizations the identity (an
     * int8 DLA input with scale 1): the rule gives the code saturated to the
     * destination range, exactly what rule c) does, so the kernels take the
     * integer path (u8 <-> i8 is one saturating byte operation) */
    else if (cv->fast && ints && quant_identity(&op->sq) && quant_identity(&op->dq))
        cv->path = TL_EP_INT;
    /* an 8-bit source has 256 answers whatever the rule, so any other rule
     * into u8, i8, f16, bf16 or i16 is a table of them (low bytes in lut,
     * high bytes in lut_hi), taken from the element rule itself: a lookup is
     * exact by construction, and a byte shuffle where the f32 pipeline is a
     * dozen operations. A move or a cast between integer codes (COPY, INT
     * between ints) stays a byte operation or a widening. */
    bool from8 = s == TL_U8 || s == TL_I8;
    bool into8_16 = d == TL_U8 || d == TL_I8 || d == TL_F16 || d == TL_BF16 || d == TL_I16;
    if (from8 && into8_16 && cv->fast && cv->path != TL_EP_COPY && !(ints && cv->path == TL_EP_INT)) {
        for (unsigned c = 0; c < 256; c++) {
            uint16_t h = (uint16_t)tl_elem_convert_raw(op, c);
            cv->lut[c] = (uint8_t)h;
            if (cv->ed == 2) cv->lut_hi[c] = (uint8_t)(h >> 8);
        }
        if (cv->ed == 1) {
            cv->lut8 = 1;
            find_affine8(cv);
        } else {
            cv->lut16 = 1;
        }
    }
}

void tl_cvt_init(tl_cvt *cv, const tl_desc *src, const tl_desc *dst)
{
    tl_cvt_init_dt(cv, (tl_dtype)src->dtype, &src->quant, (tl_dtype)dst->dtype, &dst->quant);
}

bool tl_cvt_byte_add(const tl_cvt *cv, uint8_t *add)
{
    const int m = tl_map8_of(cv);
    if (m != TL_MAP8_MOVE && m != TL_MAP8(TL_MAP8_ADD, 0, 0)) return false;
    *add = m == TL_MAP8_MOVE ? 0 : (uint8_t)tl_map8_add(cv);
    return true;
}
