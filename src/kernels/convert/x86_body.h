/* The body of the x86 convert kernels, shared by sse2.c, avx2.c and avx512.c.
 * The including file defines the vector primitives for its width W (lanes of
 * f32): vf / vi types, TL_FN (function attributes), and the operations used
 * below. The steps are pipeline.h's, lane-wise: same f32 operations in the
 * same order, clamp before rounding, NaN to its code. Tails go through a
 * small stack buffer (libyuv's ANY): nothing outside the caller's rows is
 * read or written. */

/* ---- the source stage: W elements -> W reals ---------------------------------- */
/* q: the source's tl_qkind (cv->s_q; a kernel that passes a constant has
 * no mode test in its loop) */
TL_FN vf dequant_as(const tl_cvt *cv, int q, vi c)
{
    vf x = vi_to_f(vi_sub(c, vi_set1(cv->s_zp)));
    if (q == TL_Q_INV) return vf_div(x, vf_set1(cv->s_scale));
    if (q == TL_Q_AFFINE) return vf_mul(x, vf_set1(cv->s_scale));
    if (q == TL_Q_DFP) return vf_mul(vf_mul(x, vf_set1(cv->s_m1)), vf_set1(cv->s_m2));
    return x;
}

TL_FN vf dequant(const tl_cvt *cv, vi c) { return dequant_as(cv, cv->s_q, c); }

/* Pixels before the first of planes ps floats apart starts a line, when
 * whole lines are to be streamed: 0 and *nt cleared when the planes do not
 * share their phase (nothing streamed). At most n. */
TL_FN size_t planes_stream_head(const float *d, size_t ps, size_t n, int *nt)
{
    size_t head = 0;
    if (!*nt || ps % 16 || (uintptr_t)d % 4) return *nt = 0, 0;
    while (((uintptr_t)(d + head)) % 64) head++;
    return head < n ? head : n;
}

/* F(args..., q) with the source's kind q a constant: one instance per kind,
 * no kind test in its loop */
#define TL_BY_SOURCE_Q(cv, F, ...)                                                                \
    do {                                                                                          \
        switch ((cv)->s_q) {                                                                      \
        case TL_Q_AFFINE: F(__VA_ARGS__, TL_Q_AFFINE); break;                                     \
        case TL_Q_INV: F(__VA_ARGS__, TL_Q_INV); break;                                           \
        case TL_Q_DFP: F(__VA_ARGS__, TL_Q_DFP); break;                                           \
        default: F(__VA_ARGS__, TL_Q_NONE); break;                                                \
        }                                                                                         \
    } while (0)

TL_FN vf stage_in(const tl_cvt *cv, int S, const uint8_t *p)
{
    switch (S) {
    case TL_U8: return dequant(cv, ld_u8(p));
    case TL_I8: return dequant(cv, ld_i8(p));
    case TL_I16: return dequant(cv, ld_i16(p));
#if TL_X86_HAVE_F16
    case TL_F16: return ld_f16(p);
#endif
    case TL_BF16: {
        vf x = vi_as_f(vi_sll16(ld_u16(p)));
        return vf_quiet(x); /* a NaN turns quiet, payload kept */
    }
    default: return vf_load(p);
    }
}

/* ---- the destination stage: W reals -> W elements ----------------------------- */
/* round: a tl_round (the kernels that convert many vectors a step pass it
 * as a constant, so no vector tests it) */
TL_FN vi round_mode(int round, vf x)
{
    if (round == TL_ROUND_ZERO) return vf_to_i_trunc(x);
    if (round == TL_ROUND_AWAY) {
        vi t = vf_to_i_trunc(x);
        vf f = vf_sub(x, vi_to_f(t)); /* exact */
        return vi_away_adjust(t, f);
    }
    return vf_to_i_even(x); /* MXCSR default: nearest-even (elem.h's assumption) */
}

TL_FN vi round_to_int(const tl_cvt *cv, vf x) { return round_mode(cv->round, x); }

/* Every kind is one multiply and one add (tl_cvt d_mul, d_add: AFFINE's
 * multiplier is 1.0f / scale, elem.c; DFP and NONE add 0 and multiply by
 * 2^fl or 1, exact for an integer result). A NaN product becomes +0 before
 * the add, so it comes out as (float)zp or 0, clamped and rounded: the
 * rule's nan_code. Nothing else turns into a NaN at the add (inf + zp is inf).
 * No mode tests per vector: the compiler keeps this loop branch-free. */
TL_FN vi quantize(const tl_cvt *cv, vf x)
{
    x = vf_add(vf_nan_to_zero(vf_mul(x, vf_set1(cv->d_mul))), vf_set1(cv->d_add));
    return round_to_int(cv, vf_min(vf_max(x, vf_set1(cv->lo)), vf_set1(cv->hi)));
}

/* The same for 8-bit codes that go through st4_8's saturating packs: below
 * lo, cvt(t)ps2dq gives a smaller int32 (or INT32_MIN, its out-of-range
 * value, for x < -2^31 and -inf), which the packs saturate to lo, so only the
 * upper clamp is needed. Ties away from zero adjust the truncation by the
 * remainder, which needs the value in range: that mode clamps both ends. */
TL_FN vi quantize8_mode(const tl_cvt *cv, int round, vf x)
{
    x = vf_add(vf_nan_to_zero(vf_mul(x, vf_set1(cv->d_mul))), vf_set1(cv->d_add));
    if (round == TL_ROUND_AWAY) return round_mode(round, vf_min(vf_max(x, vf_set1(cv->lo)), vf_set1(cv->hi)));
    return round_mode(round, vf_min(vf_set1(cv->hi), x));
}

/* Plain codes into u8 (the destination unquantized: d_mul 1 and d_add 0;
 * nearest-even or toward zero): x * 1 + 0 is x for every value but a NaN,
 * and a NaN is left to the conversion, whose out-of-range answer (INT32_MIN)
 * the packs saturate to 0, the rule's code for it. The minimum returns its
 * second operand when one is a NaN, so the NaN is that operand. Three
 * operations fewer per vector than quantize8 (an f16 DLA output into an RGB
 * image: the conversion is most of that path's time). */
TL_FN int plain_u8(const tl_cvt *cv, int D) { return D == TL_U8 && tl_cvt_plain_u8(cv); }

TL_FN vi quantize8_plain_mode(const tl_cvt *cv, int round, vf x) { return round_mode(round, vf_min(vf_set1(cv->hi), x)); }

/* nearest-even on the bits, NaN kept quiet (pipeline.h tl_p_f32_to_bf16) */
TL_FN vi f_to_bf16(vf x)
{
    vi u = vf_as_i(x);
    vi r = vi_srl16(vi_add(vi_add(u, vi_set1(0x7FFF)), vi_and(vi_srl16(u), vi_set1(1))));
    vi nan = vi_or(vi_srl16(u), vi_set1(0x40));
    return vi_select_nan(x, nan, r);
}

TL_FN void stage_out(const tl_cvt *cv, int D, uint8_t *p, vf x)
{
    switch (D) {
    case TL_U8: st_u8(p, quantize(cv, x)); return;
    case TL_I8: st_i8(p, quantize(cv, x)); return;
    case TL_I16: st_i16(p, quantize(cv, x)); return;
#if TL_X86_HAVE_F16
    case TL_F16: st_f16(p, x); return;
#endif
    case TL_BF16: st_u16(p, f_to_bf16(x)); return;
    default: vf_store(p, x); return;
    }
}

#include "kernels/convert/affine8_x86.h"

/* ---- 8-bit codes: the mode -------------------------------------------------------
 * Plain codes (16 + rounding) or quantized (the rounding). The fused kernels
 * make it a constant in each instance of their bodies (TL_Q8_DISPATCH): their
 * dozens of conversions a step then test nothing (tested per vector: NCHW
 * f32 -> NCHW16c i8 at 256 KiB, 0.43 against 0.55x memcpy before). */
TL_FN int q8_mode(const tl_cvt *cv, int D) { return (plain_u8(cv, D) ? 16 : 0) + cv->round; }
#define TL_Q8_DISPATCH(q8, BODY)                                                                              \
    do {                                                                                                     \
        switch (q8) {                                                                                        \
        case 16 + TL_ROUND_EVEN: BODY(16 + TL_ROUND_EVEN); break;                                            \
        case 16 + TL_ROUND_ZERO: BODY(16 + TL_ROUND_ZERO); break;                                            \
        case TL_ROUND_ZERO: BODY(TL_ROUND_ZERO); break;                                                      \
        case TL_ROUND_AWAY: BODY(TL_ROUND_AWAY); break;                                                      \
        default: BODY(TL_ROUND_EVEN); break;                                                                 \
        }                                                                                                    \
    } while (0)

TL_FN vi quantize8_q8(const tl_cvt *cv, int q8, vf x)
{
    return q8 >= 16 ? quantize8_plain_mode(cv, q8 - 16, x) : quantize8_mode(cv, q8, x);
}

/* ---- the rows: 4 vectors per step, then single vectors, then the tails ------- */
/* Single vectors of a row from element i on; returns where they end. */
__attribute__((always_inline)) TL_FN size_t row_vectors(const uint8_t *sp, uint8_t *dp, size_t i, size_t n,
                                                        const tl_cvt *cv, int S, int D)
{
    const size_t es = tl_p_size(S), ed = tl_p_size(D);
    for (; i + W <= n; i += W) stage_out(cv, D, dp + i * ed, stage_in(cv, S, sp + i * es));
    return i;
}

/* The last n % W elements of every row, through a small buffer, after all
 * rows' vectors: with the buffer's copies in the row loop the compiler
 * reloaded the vector constants every row (NCHW f32 -> NHWC i8, C = 64,
 * 256 KiB, rows of 256: 10 % of the time, where no row has a tail). */
__attribute__((always_inline)) TL_FN void rows_tails(const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds,
                                                     size_t rows, size_t n, const tl_cvt *cv, int S, int D)
{
    const size_t es = tl_p_size(S), ed = tl_p_size(D), i = n / W * W;
    if (i == n) return;
    for (size_t r = 0; r < rows; r++, sp += ss, dp += ds) {
        _Alignas(64) uint8_t tin[W * 4] = {0}, tout[W * 4];
        memcpy(tin, sp + i * es, (n - i) * es);
        stage_out(cv, D, tout, stage_in(cv, S, tin));
        memcpy(dp + i * ed, tout, (n - i) * ed);
    }
}

/* Rows of the f32 pipeline; S and D are constants (always inlined into each
 * kernel), cv a local copy of the constants. 8-bit codes go 4 vectors a step
 * through one pack network, their mode (q8_mode) tested per step, a branch
 * that always goes the same way: instances with the mode a constant
 * (TL_Q8_DISPATCH) measured 3 % on quantize NCHW f32 -> NHWC i8 C = 64 at
 * 256 KiB for 160 KB more code. */
__attribute__((always_inline)) TL_FN void pipeline_rows(const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds,
                                                        size_t rows, size_t n, const tl_cvt *cv, int S, int D)
{
    const size_t es = tl_p_size(S), ed = tl_p_size(D);
    const int q8 = q8_mode(cv, D);
#if defined(TL_X86_F16_U8) /* (AVX-512: without F16C) */
    if (S == TL_F16 && D == TL_U8 && tl_cvt_plain_u8_even(cv)) {
        f16_u8_plain_rows(sp, ss, dp, ds, rows, n);
        return;
    }
#endif
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *s = sp + (ptrdiff_t)r * ss;
        uint8_t *d = dp + (ptrdiff_t)r * ds;
        size_t i = 0;
        for (; i + 4 * W <= n; i += 4 * W) {
            vf a = stage_in(cv, S, s + i * es), b = stage_in(cv, S, s + (i + W) * es);
            vf c = stage_in(cv, S, s + (i + 2 * W) * es), e = stage_in(cv, S, s + (i + 3 * W) * es);
            if (D == TL_U8 || D == TL_I8) {
                st4_8(d + i, quantize8_q8(cv, q8, a), quantize8_q8(cv, q8, b), quantize8_q8(cv, q8, c),
                      quantize8_q8(cv, q8, e), D == TL_I8);
                continue;
            }
            stage_out(cv, D, d + i * ed, a);
            stage_out(cv, D, d + (i + W) * ed, b);
            stage_out(cv, D, d + (i + 2 * W) * ed, c);
            stage_out(cv, D, d + (i + 3 * W) * ed, e);
        }
        row_vectors(s, d, i, n, cv, S, D);
    }
    rows_tails(sp, ss, dp, ds, rows, n, cv, S, D);
}

#if TL_X86_HAVE_GROUPS
/* ---- 4 f32 rows into 4-byte groups of 8-bit codes (kernels.h, the 4-row form) -----
 * The same W elements of 4 rows go through one pack network (pipeline_rows'
 * steps), which leaves per 128-bit lane 4 codes of each row for the same 4
 * elements; st4_groups' in-lane byte shuffle makes them 4 whole groups. One
 * shuffle in place of st4_8's lane permute, and no byte transpose after. */
__attribute__((always_inline)) TL_FN void group4_vector(const uint8_t *s, ptrdiff_t ss, uint8_t *d, const tl_cvt *cv,
                                                        int q8, int sgn)
{
    st4_groups(d, quantize8_q8(cv, q8, vf_load(s)), quantize8_q8(cv, q8, vf_load(s + ss)),
               quantize8_q8(cv, q8, vf_load(s + 2 * ss)), quantize8_q8(cv, q8, vf_load(s + 3 * ss)), sgn);
}

__attribute__((always_inline)) TL_FN void group4_rows(const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds,
                                                      size_t rows, size_t n, const tl_cvt *cv, int D)
{
    const int q8 = q8_mode(cv, D), sgn = D == TL_I8;
    const size_t whole = n / W * W;
    for (size_t g = 0; g + 4 <= rows; g += 4) {
        const uint8_t *s = sp + (ptrdiff_t)g * ss;
        uint8_t *d = dp + (ptrdiff_t)(g / 4) * ds;
        for (size_t i = 0; i < whole; i += W) group4_vector(s + 4 * i, ss, d + 4 * i, cv, q8, sgn);
    }
    if (whole == n) return;
    /* the last n % W elements of every group, through a small buffer after
     * all groups' vectors (rows_tails' reason) */
    for (size_t g = 0; g + 4 <= rows; g += 4) {
        _Alignas(64) uint8_t tin[4 * W * 4] = {0}, tout[4 * W];
        for (int c = 0; c < 4; c++) memcpy(tin + c * W * 4, sp + (ptrdiff_t)(g + (size_t)c) * ss + whole * 4, (n - whole) * 4);
        group4_vector(tin, W * 4, tout, cv, q8, sgn);
        memcpy(dp + (ptrdiff_t)(g / 4) * ds + whole * 4, tout, (n - whole) * 4);
    }
}

#define TL_X86_GROUP4(fn, D)                                                                    \
    void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n, const tl_cvt *cv); \
    TL_KERNEL void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,          \
                      const tl_cvt *cv_in)                                                     \
    {                                                                                          \
        tl_cvt cv_local;                                                                       \
        tl_cvt_constants(&cv_local, cv_in);                                                    \
        group4_rows((const uint8_t *)src, ss, (uint8_t *)dst, ds, rows, n, &cv_local, D);      \
    }
#endif

/* The kernel (kernels.h tl_row_fn): rows of n elements. The set-up (the
 * constants' copy, the broadcasts) is done once per call, not per row: an
 * L1 tile's 64 rows of 256 floats in one call, with the tails after the
 * rows, take NCHW f32 -> NHWC i8, C = 64, 256 KiB from 0.42 to 0.48x memcpy
 * (AVX-512, Zen 4; 64 calls before). */
#define TL_X86_ROW(fn, S, D)                                                                    \
    void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n, const tl_cvt *cv); \
    TL_KERNEL void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,          \
                      const tl_cvt *cv_in)                                                     \
    {                                                                                          \
        const uint8_t *sp = (const uint8_t *)src;                                              \
        uint8_t *dp = (uint8_t *)dst;                                                          \
        if (cv_in->path == TL_EP_INT && ((S == TL_U8 && D == TL_I8) || (S == TL_I8 && D == TL_U8))) { \
            for (size_t r = 0; r < rows; r++) {                                                \
                const uint8_t *s = sp + (ptrdiff_t)r * ss;                                     \
                uint8_t *d = dp + (ptrdiff_t)r * ds;                                           \
                size_t i = 0;                                                                  \
                for (; i + SAT8_BYTES <= n; i += SAT8_BYTES) sat8(s + i, d + i, D == TL_I8);   \
                sat8_tail(s + i, d + i, n - i, D == TL_I8);                                    \
            }                                                                                  \
            return;                                                                            \
        }                                                                                      \
        if ((S == TL_U8 || S == TL_I8) && (D == TL_U8 || D == TL_I8) && cv_in->affine8) {      \
            const tl_aff8 k = aff8_init(cv_in);                                                \
            for (size_t r = 0; r < rows; r++) {                                                \
                const uint8_t *s = sp + (ptrdiff_t)r * ss;                                     \
                uint8_t *d = dp + (ptrdiff_t)r * ds;                                           \
                size_t i = affine8_wide(s, d, n, &k, S == TL_I8, D == TL_I8);                  \
                for (; i + 16 <= n; i += 16) affine8_16(s + i, d + i, &k, S == TL_I8, D == TL_I8); \
                for (; i < n; i++) d[i] = cv_in->lut[s[i]]; /* the table: the same answers */   \
            }                                                                                  \
            return;                                                                            \
        }                                                                                      \
        tl_cvt cv_local;                                                                       \
        tl_cvt_constants(&cv_local, cv_in);                                                    \
        pipeline_rows(sp, ss, dp, ds, rows, n, &cv_local, S, D);                               \
    }
