/* Contiguous convert, AVX-512 F/BW: 16 lanes of f32 (x86_body.h holds the steps). */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <string.h>

#include "kernels/convert/pipeline.h"
#include "kernels/interleave/interleave_lut.h"
#include "kernels/move/move.h"

#define W 16
#define TL_X86_HAVE_F16 1
#define TL_X86_HAVE_GROUPS 1 /* st4_groups: an in-lane byte shuffle */
#define TL_FN static inline
#define TL_KERNEL
typedef __m512 vf;
typedef __m512i vi;

TL_FN vf vf_set1(float x) { return _mm512_set1_ps(x); }
TL_FN vi vi_set1(int32_t x) { return _mm512_set1_epi32(x); }
TL_FN vf vf_add(vf a, vf b) { return _mm512_add_ps(a, b); }
TL_FN vf vf_sub(vf a, vf b) { return _mm512_sub_ps(a, b); }
TL_FN vf vf_mul(vf a, vf b) { return _mm512_mul_ps(a, b); }
TL_FN vf vf_div(vf a, vf b) { return _mm512_div_ps(a, b); }
TL_FN vf vf_min(vf a, vf b) { return _mm512_min_ps(a, b); }
TL_FN vf vf_max(vf a, vf b) { return _mm512_max_ps(a, b); }
TL_FN vf vf_load(const uint8_t *p) { return _mm512_loadu_ps((const float *)p); }
TL_FN void vf_store(uint8_t *p, vf x) { _mm512_storeu_ps((float *)p, x); }
TL_FN vi vi_add(vi a, vi b) { return _mm512_add_epi32(a, b); }
TL_FN vi vi_sub(vi a, vi b) { return _mm512_sub_epi32(a, b); }
TL_FN vi vi_and(vi a, vi b) { return _mm512_and_si512(a, b); }
TL_FN vi vi_or(vi a, vi b) { return _mm512_or_si512(a, b); }
TL_FN vi vi_sll16(vi a) { return _mm512_slli_epi32(a, 16); }
TL_FN vi vi_srl16(vi a) { return _mm512_srli_epi32(a, 16); }
TL_FN vf vi_to_f(vi a) { return _mm512_cvtepi32_ps(a); }
TL_FN vf vi_as_f(vi a) { return _mm512_castsi512_ps(a); }
TL_FN vi vf_as_i(vf a) { return _mm512_castps_si512(a); }
TL_FN vi vf_to_i_trunc(vf a) { return _mm512_cvttps_epi32(a); }
TL_FN vi vf_to_i_even(vf a) { return _mm512_cvtps_epi32(a); }
TL_FN __mmask16 nan_mask(vf x) { return _mm512_cmp_ps_mask(x, x, _CMP_UNORD_Q); }
TL_FN vi vi_select_nan(vf x, vi a, vi b) { return _mm512_mask_mov_epi32(b, nan_mask(x), a); }
/* one fix-up in place instead of a compare and a blend: QNaN and SNaN
 * lanes become +0 (token 8), every other class keeps x (token 0) */
TL_FN vf vf_nan_to_zero(vf x) { return _mm512_fixupimm_ps(x, x, vi_set1(0x88), 0); }
TL_FN vf vf_quiet(vf x) { return _mm512_castsi512_ps(_mm512_mask_or_epi32(vf_as_i(x), nan_mask(x), vf_as_i(x), vi_set1(0x400000))); }
TL_FN vi vi_away_adjust(vi t, vf f)
{
    __mmask16 ge = _mm512_cmp_ps_mask(f, vf_set1(0.5f), _CMP_GE_OQ);
    __mmask16 le = _mm512_cmp_ps_mask(f, vf_set1(-0.5f), _CMP_LE_OQ);
    t = _mm512_mask_add_epi32(t, ge, t, vi_set1(1));
    return _mm512_mask_sub_epi32(t, le, t, vi_set1(1));
}
TL_FN vi ld_u8(const uint8_t *p) { return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)p)); }
TL_FN vi ld_i8(const uint8_t *p) { return _mm512_cvtepi8_epi32(_mm_loadu_si128((const __m128i *)p)); }
TL_FN vi ld_i16(const uint8_t *p) { return _mm512_cvtepi16_epi32(_mm256_loadu_si256((const __m256i *)p)); }
TL_FN vi ld_u16(const uint8_t *p) { return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)p)); }
TL_FN vf ld_f16(const uint8_t *p) { return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p)); }
/* values are in range already: truncating narrows are exact */
TL_FN void st_u8(uint8_t *p, vi v) { _mm_storeu_si128((__m128i *)p, _mm512_cvtepi32_epi8(v)); }
TL_FN void st_i8(uint8_t *p, vi v) { _mm_storeu_si128((__m128i *)p, _mm512_cvtepi32_epi8(v)); }
/* 4 vectors of codes already in range: saturating packs are exact; the
 * packs work per 128-bit lane, one dword permute puts the lanes in order */
TL_FN void st4_8(uint8_t *p, vi a, vi b, vi c, vi d, int sgn)
{
    vi ab = _mm512_packs_epi32(a, b), cd = _mm512_packs_epi32(c, d);
    vi v = sgn ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd);
    const vi k = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    _mm512_storeu_si512((void *)p, _mm512_permutexvar_epi32(k, v));
}
/* 4 vectors of codes in range (4 rows' codes of the same 16 elements) ->
 * 16 groups of 4 bytes: the packs leave per lane 4 codes of a, b, c and d,
 * an in-lane shuffle regroups them per element */
TL_FN void st4_groups(uint8_t *p, vi a, vi b, vi c, vi d, int sgn)
{
    vi ab = _mm512_packs_epi32(a, b), cd = _mm512_packs_epi32(c, d);
    vi v = sgn ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd);
    const vi k = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    _mm512_storeu_si512((void *)p, _mm512_shuffle_epi8(v, k));
}
TL_FN void st_i16(uint8_t *p, vi v) { _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(v)); }
TL_FN void st_u16(uint8_t *p, vi v) { _mm256_storeu_si256((__m256i *)p, _mm512_cvtepi32_epi16(v)); }
TL_FN void st_f16(uint8_t *p, vf x)
{
    _mm256_storeu_si256((__m256i *)p, _mm512_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

/* u8 <-> i8 without quantization: one saturating byte operation */
TL_FN void sat8(const uint8_t *s, uint8_t *d, int to_i8)
{
    __m512i x = _mm512_loadu_si512((const void *)s);
    x = to_i8 ? _mm512_min_epu8(x, _mm512_set1_epi8(127)) : _mm512_max_epi8(x, _mm512_setzero_si512());
    _mm512_storeu_si512((void *)d, x);
}
#define SAT8_BYTES 64
TL_FN void sat8_tail(const uint8_t *s, uint8_t *d, size_t n, int to_i8)
{
    __mmask64 m = ((__mmask64)1 << n) - 1; /* n < 64 */
    __m512i x = _mm512_maskz_loadu_epi8(m, s);
    x = to_i8 ? _mm512_min_epu8(x, _mm512_set1_epi8(127)) : _mm512_max_epi8(x, _mm512_setzero_si512());
    _mm512_mask_storeu_epi8(d, m, x);
}

/* ---- f16 -> u8 plain codes without F16C ------------------------------------------
 * The plain u8 rule (nearest even, saturated to 0..255, NaN 0), 32 halves a
 * vector. On this Zen 4 F16C's vcvtph2ps, the clamp, vcvtps2dq and the packs
 * share about one 512-bit operation a cycle; this takes none of them. Each
 * half is clamped as a 16-bit integer: a NaN or a negative (above 0x7C00
 * unsigned) to +0, anything from 255.375 (0x5BFB) up to +inf to 255.375,
 * which rounds to 255. A multiply-add of the halves by 2^13 (vpmaddwd: one
 * half of each dword, the other times 0) puts a half's exponent and mantissa
 * in an f32's bits: the same value times 2^-112, exactly (an f16 normal is
 * an f32 normal there; a subnormal rounds to 0 either way). Adding 1.5 *
 * 2^-89, whose last mantissa bit is worth 2^-112, rounds that to an integer
 * in the sum's low mantissa bits, nearest even by the add's own rounding
 * (in the instruction, not MXCSR); the low byte of each sum is a code. The
 * same output as F16C's for all 65536 halves (test_engine). */
TL_FN void f16_u8_sums(__m512i h, __m512i *even, __m512i *odd)
{
    const __mmask32 ordered = _mm512_cmple_epu16_mask(h, _mm512_set1_epi16(0x7C00));
    h = _mm512_maskz_min_epu16(ordered, h, _mm512_set1_epi16(0x5BFB));
    const __m512 round = _mm512_castsi512_ps(_mm512_set1_epi32(0x13400000)); /* 1.5 * 2^-89 */
    __m512 e = _mm512_castsi512_ps(_mm512_madd_epi16(h, _mm512_set1_epi32(1 << 13)));
    __m512 o = _mm512_castsi512_ps(_mm512_madd_epi16(h, _mm512_set1_epi32((1 << 13) << 16)));
    *even = _mm512_castps_si512(_mm512_add_round_ps(e, round, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    *odd = _mm512_castps_si512(_mm512_add_round_ps(o, round, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
}

/* 32 halves -> their 32 codes in order: each dword's two codes joined in
 * its low 16 bits (a bit select of the even sum and the odd one shifted),
 * the dwords narrowed to words */
TL_FN __m256i f16_u8_codes32(__m512i h)
{
    __m512i even, odd;
    f16_u8_sums(h, &even, &odd);
    const __m512i w = _mm512_ternarylogic_epi32(_mm512_set1_epi32(0xFF), even, _mm512_slli_epi32(odd, 8), 0xCA);
    return _mm512_cvtepi32_epi16(w);
}

static const uint16_t k_even_words[32] = {0,  2,  4,  6,  8,  10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30,
                                          32, 34, 36, 38, 40, 42, 44, 46, 48, 50, 52, 54, 56, 58, 60, 62};

/* 64 halves -> their 64 codes: the two registers' words joined by one
 * two-source word permute and stored whole, instead of two narrowings
 * (vpmovdw) and two half stores */
TL_FN __m512i f16_u8_codes64(__m512i h0, __m512i h1)
{
    __m512i e0, o0, e1, o1;
    f16_u8_sums(h0, &e0, &o0);
    f16_u8_sums(h1, &e1, &o1);
    const __m512i lo = _mm512_set1_epi32(0xFF);
    const __m512i w0 = _mm512_ternarylogic_epi32(lo, e0, _mm512_slli_epi32(o0, 8), 0xCA);
    const __m512i w1 = _mm512_ternarylogic_epi32(lo, e1, _mm512_slli_epi32(o1, 8), 0xCA);
    const __m512i even_words = _mm512_loadu_si512((const void *)k_even_words);
    return _mm512_permutex2var_epi16(w0, even_words, w1);
}

/* Rows of f16 -> u8 plain codes (pipeline_rows takes these for the rule): a
 * row's last n % 32 by a masked load and a masked store. */
#define TL_X86_F16_U8 1
TL_FN void f16_u8_plain_rows(const uint8_t *sp, ptrdiff_t ss, uint8_t *dp, ptrdiff_t ds, size_t rows, size_t n)
{
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *s = sp + (ptrdiff_t)r * ss;
        uint8_t *d = dp + (ptrdiff_t)r * ds;
        size_t i = 0;
        for (; i + 64 <= n; i += 64)
            _mm512_storeu_si512((void *)(d + i), f16_u8_codes64(_mm512_loadu_si512((const void *)(s + 2 * i)),
                                                                _mm512_loadu_si512((const void *)(s + 2 * i + 64))));
        for (; i + 32 <= n; i += 32)
            _mm256_storeu_si256((__m256i *)(d + i), f16_u8_codes32(_mm512_loadu_si512((const void *)(s + 2 * i))));
        if (i < n) {
            const __mmask32 k = (__mmask32)tl_first_bits((ptrdiff_t)(n - i));
            __m256i c = f16_u8_codes32(_mm512_maskz_loadu_epi16(k, s + 2 * i));
            _mm512_mask_storeu_epi8(d + i, (__mmask64)k, _mm512_castsi256_si512(c));
        }
    }
}

#include "kernels/convert/x86_body.h"

TL_X86_ROW(tl_u8_u8_convert_ukernel__avx512, TL_U8, TL_U8)
TL_X86_ROW(tl_u8_i8_convert_ukernel__avx512, TL_U8, TL_I8)
TL_X86_ROW(tl_u8_i16_convert_ukernel__avx512, TL_U8, TL_I16)
TL_X86_ROW(tl_u8_f16_convert_ukernel__avx512, TL_U8, TL_F16)
TL_X86_ROW(tl_u8_bf16_convert_ukernel__avx512, TL_U8, TL_BF16)
TL_X86_ROW(tl_u8_f32_convert_ukernel__avx512, TL_U8, TL_F32)
TL_X86_ROW(tl_i8_u8_convert_ukernel__avx512, TL_I8, TL_U8)
TL_X86_ROW(tl_i8_i8_convert_ukernel__avx512, TL_I8, TL_I8)
TL_X86_ROW(tl_i8_i16_convert_ukernel__avx512, TL_I8, TL_I16)
TL_X86_ROW(tl_i8_f16_convert_ukernel__avx512, TL_I8, TL_F16)
TL_X86_ROW(tl_i8_bf16_convert_ukernel__avx512, TL_I8, TL_BF16)
TL_X86_ROW(tl_i8_f32_convert_ukernel__avx512, TL_I8, TL_F32)
TL_X86_ROW(tl_i16_u8_convert_ukernel__avx512, TL_I16, TL_U8)
TL_X86_ROW(tl_i16_i8_convert_ukernel__avx512, TL_I16, TL_I8)
TL_X86_ROW(tl_i16_i16_convert_ukernel__avx512, TL_I16, TL_I16)
TL_X86_ROW(tl_i16_f16_convert_ukernel__avx512, TL_I16, TL_F16)
TL_X86_ROW(tl_i16_bf16_convert_ukernel__avx512, TL_I16, TL_BF16)
TL_X86_ROW(tl_i16_f32_convert_ukernel__avx512, TL_I16, TL_F32)
TL_X86_ROW(tl_f16_u8_convert_ukernel__avx512, TL_F16, TL_U8)
TL_X86_ROW(tl_f16_i8_convert_ukernel__avx512, TL_F16, TL_I8)
TL_X86_ROW(tl_f16_i16_convert_ukernel__avx512, TL_F16, TL_I16)
TL_X86_ROW(tl_f16_f16_convert_ukernel__avx512, TL_F16, TL_F16)
TL_X86_ROW(tl_f16_bf16_convert_ukernel__avx512, TL_F16, TL_BF16)
TL_X86_ROW(tl_f16_f32_convert_ukernel__avx512, TL_F16, TL_F32)
TL_X86_ROW(tl_bf16_u8_convert_ukernel__avx512, TL_BF16, TL_U8)
TL_X86_ROW(tl_bf16_i8_convert_ukernel__avx512, TL_BF16, TL_I8)
TL_X86_ROW(tl_bf16_i16_convert_ukernel__avx512, TL_BF16, TL_I16)
TL_X86_ROW(tl_bf16_f16_convert_ukernel__avx512, TL_BF16, TL_F16)
TL_X86_ROW(tl_bf16_bf16_convert_ukernel__avx512, TL_BF16, TL_BF16)
TL_X86_ROW(tl_bf16_f32_convert_ukernel__avx512, TL_BF16, TL_F32)
TL_X86_ROW(tl_f32_u8_convert_ukernel__avx512, TL_F32, TL_U8)
TL_X86_ROW(tl_f32_i8_convert_ukernel__avx512, TL_F32, TL_I8)
TL_X86_ROW(tl_f32_i16_convert_ukernel__avx512, TL_F32, TL_I16)
TL_X86_ROW(tl_f32_f16_convert_ukernel__avx512, TL_F32, TL_F16)
TL_X86_ROW(tl_f32_bf16_convert_ukernel__avx512, TL_F32, TL_BF16)
TL_X86_ROW(tl_f32_f32_convert_ukernel__avx512, TL_F32, TL_F32)
TL_X86_GROUP4(tl_f32_u8_group4_ukernel__avx512, TL_U8)
TL_X86_GROUP4(tl_f32_i8_group4_ukernel__avx512, TL_I8)

/* The fused kernels below carry the VBMI target; the executors call them
 * only on a CPU with it. (u8 -> f16 into pixels is a table lookup in the
 * move family: kernels/move/avx512vbmi.c.) */
#define TL_VBMI_CVT __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))


/* ---- f16 -> 8-bit fused with the line gather (move.h: tl_px_lines) ----------
 * kDLA_HWC4 f16 into an RGB image: 16 pixels of 4 halves a group, converted
 * with the row kernel's steps (quantize8, or plain codes) and packed to
 * bytes without the packs' lane fix-up (the line tables undo it), 64 pixels
 * a step stored as rs whole lines. The padding half of each pixel is
 * converted too: one conversion of 4 halves costs less than moving 3 into
 * a tile first (the gather then the row kernel, 256 MiB: 13 GB/s). */
TL_VBMI_CVT __attribute__((always_inline)) static inline __m512i f16_group(const tl_cvt *cv, int q8, int sgn,
                                                                          const uint8_t *s, int part, ptrdiff_t lim)
{
    vi q[4];
    for (int v = 0; v < 4; v++) {
        ptrdiff_t left = lim - 32 * v; /* masked loads only where the pixels end */
        vf x = !part || left >= 32 ? ld_f16(s + 32 * v)
               : left <= 0         ? _mm512_setzero_ps()
                                   : _mm512_cvtph_ps(_mm256_maskz_loadu_epi8((__mmask32)tl_first_bits(left), s + 32 * v));
        q[v] = quantize8_q8(cv, q8, x);
    }
    vi ab = _mm512_packs_epi32(q[0], q[1]), cd = _mm512_packs_epi32(q[2], q[3]);
    return sgn ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd);
}

TL_VBMI_CVT __attribute__((always_inline)) static inline void f16_lines_step(const uint8_t *s, uint8_t *d, size_t rs,
                                                                          const __m512i *li, const tl_cvt *cv,
                                                                          int q8, int sgn, int nt, int part,
                                                                          ptrdiff_t in, ptrdiff_t out)
{
    __m512i g[4];
#pragma GCC unroll 4
    for (size_t q = 0; q < 4; q++) g[q] = f16_group(cv, q8, sgn, s + 128 * q, part, in - 128 * (ptrdiff_t)q);
#pragma GCC unroll 4
    for (size_t j = 0; j < rs; j++) {
        const size_t f = 64 * j / rs / 16;
        __m512i v = _mm512_permutex2var_epi8(g[f], li[j], g[f + 1 < 4 ? f + 1 : 3]);
        if (part) _mm512_mask_storeu_epi8(d + 64 * j, tl_first_bits(out - 64 * (ptrdiff_t)j), v);
        else tl_store_line(d + 64 * j, v, nt);
    }
}

TL_VBMI_CVT __attribute__((always_inline)) static inline void f16_lines(const uint8_t *s, uint8_t *d, size_t rs, const tl_px_rows *g,
                                                                       const tl_px_lines *L, const tl_cvt *cv, int q8,
                                                                       int nt, size_t slices)
{
    const int sgn = cv->ddt == TL_I8;
    __m512i li[4];
    for (size_t j = 0; j < 4; j++) li[j] = _mm512_loadu_si512((const void *)L->line[j]);
#define TL_F16_LINES_STEP(src, dst, st) f16_lines_step(src, dst, rs, li, cv, q8, sgn, st, 0, 0, 0)
#define TL_F16_LINES_PART(src, dst, in, out)                                                                 \
    f16_lines_step(src, dst, rs, li, cv, q8, sgn, 0, 1, (ptrdiff_t)(in), (ptrdiff_t)(out))
    TL_PX_LINES_ROWS(s, 8, 2 * rs, d, rs, g, nt, slices, TL_F16_LINES_STEP, TL_F16_LINES_PART);
#undef TL_F16_LINES_STEP
#undef TL_F16_LINES_PART
}

TL_VBMI_CVT void tl_f16_x8_gather_lines_ukernel__avx512vbmi(const uint8_t *s, uint8_t *d, size_t rs, const tl_px_rows *g,
                                                           const tl_px_lines *L, const tl_cvt *cv_in, int nt,
                                                           size_t slices)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
#define TL_F16_LINES(Q8)                                                                                    \
    do {                                                                                                   \
        if (rs == 2) f16_lines(s, d, 2, g, L, cv, Q8, nt, slices);                                         \
        if (rs == 3) f16_lines(s, d, 3, g, L, cv, Q8, nt, slices);                                         \
        if (rs == 4) f16_lines(s, d, 4, g, L, cv, Q8, nt, slices);                                         \
    } while (0)
    TL_Q8_DISPATCH(q8_mode(cv, cv->ddt), TL_F16_LINES);
#undef TL_F16_LINES
}
/* ---- f16 pixels -> RGB u8 plain codes, without F16C (AVX-512 VBMI) ------------
 * kDLA_HWC4 f16 into an RGB u8 image under the plain rule, 16 pixels a step,
 * in cache: the halves' sums as for rows (f16_u8_sums), then one byte
 * permute of the even sums (R and B) and the odd ones (G and padding)
 * orders each pixel's three codes. The F16C conversion, clamp, conversion to
 * int32 and packs (the AVX2 kernel) took 0.264 ns a pixel against 0.141
 * here (256 KiB, Zen 4). */
TL_VBMI_CVT __attribute__((always_inline)) static inline __m256i f16_u8_codes8(__m512i h, __m512i order)
{
    __m512i even, odd;
    f16_u8_sums(h, &even, &odd);
    return _mm512_castsi512_si256(_mm512_permutex2var_epi8(even, order, odd));
}

/* 16 pixels at s -> 48 codes at d. Whole (part 0): two 64-byte loads and
 * two 32-byte stores, 8 bytes past the step (the next step's). Part: the
 * t <= 16 pixels' bytes, the last pixel's 6 (its padding half may be
 * missing), and exactly 3t codes. */
TL_VBMI_CVT __attribute__((always_inline)) static inline void f16_u8_step(const uint8_t *s, uint8_t *d, __m512i order,
                                                                        int part, size_t t)
{
    const ptrdiff_t in = part ? 8 * (ptrdiff_t)t - 2 : 128, out = 3 * (ptrdiff_t)t;
    for (int k = 0; k < 2; k++) {
        __m512i h = part ? _mm512_maskz_loadu_epi8(tl_first_bits(in - 64 * k), s + 64 * k)
                         : _mm512_loadu_si512((const void *)(s + 64 * k));
        __m256i c = f16_u8_codes8(h, order);
        if (part) _mm256_mask_storeu_epi8(d + 24 * k, (__mmask32)tl_first_bits(out - 24 * k), c);
        else _mm256_storeu_si256((__m256i *)(d + 24 * k), c);
    }
}

/* Rows of pixels of 4 f16 halves (tl_px_rows; kDLA_HWC4 f16) -> rows of 3
 * u8 codes a pixel under the plain rule, each row's gap zeroed. Only a
 * pixel's first 6 bytes are read where it ends a row. */
TL_VBMI_CVT void tl_f16_u8_gather4_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_px_rows *g)
{
    _Alignas(64) uint8_t ix[64] = {0}; /* pixel p: R, G, B at bytes 8p, 64 + 8p, 8p + 4 of the sums */
    for (unsigned p = 0; p < 8; p++) {
        ix[3 * p] = (uint8_t)(8 * p);
        ix[3 * p + 1] = (uint8_t)(64 + 8 * p);
        ix[3 * p + 2] = (uint8_t)(8 * p + 4);
    }
    const __m512i order = _mm512_load_si512((const void *)ix);
    const size_t m = g->n;
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->ss;
        uint8_t *d = dst + (ptrdiff_t)r * g->ds;
        size_t i = 0;
        for (; i + 19 <= m; i += 16) f16_u8_step(s + 8 * i, d + 3 * i, order, 0, 16); /* 128 bytes read, 56 written */
        for (size_t t; i < m; i += t) {
            t = m - i < 16 ? m - i : 16;
            f16_u8_step(s + 8 * i, d + 3 * i, order, 1, t);
        }
        if (g->gap) memset(d + 3 * m, 0, g->gap);
    }
}

/* ---- f32 planes -> 8-bit packed 3-channel pixels (AVX-512 VBMI) ----------------
 * Quantizing an NCHW f32 tensor into an NHWC i8 image with 3 channels: 64
 * pixels a step, each plane's 64 floats converted with the row kernel's
 * steps and packed to bytes (in the packs' lane order), then each of the 3
 * output lines built by a two-source byte permute of two planes and a
 * masked one of the third, whose tables fold in the packs' order. No L1
 * tile of codes and no second pass over it; whole lines streamed. */
TL_VBMI_CVT __attribute__((always_inline)) static inline __m512i f32_plane64(const tl_cvt *cv, int q8, int sgn,
                                                                           const float *p, int part, ptrdiff_t lim)
{
    vi q[4];
#pragma GCC unroll 4
    for (int v = 0; v < 4; v++) {
        ptrdiff_t left = lim - 16 * v; /* masked loads only where the row ends */
        vf x = !part || left >= 16 ? _mm512_loadu_ps(p + 16 * v)
               : left <= 0         ? _mm512_setzero_ps()
                                   : _mm512_maskz_loadu_ps((__mmask16)tl_first_bits(left), p + 16 * v);
        q[v] = quantize8_q8(cv, q8, x);
    }
    vi ab = _mm512_packs_epi32(q[0], q[1]), cd = _mm512_packs_epi32(q[2], q[3]);
    return sgn ? _mm512_packs_epi16(ab, cd) : _mm512_packus_epi16(ab, cd);
}

typedef struct {
    __m512i rg[3], b[3]; /* line j: bytes of planes 0:1 (two-source), of plane 2 (masked) */
    __mmask64 kb[3];
} ilv3_tables;

/* Byte t of line j is channel (64j + t) % 3 of pixel (64j + t) / 3, found
 * in its plane's packed register at tl_px_lines_pos(0, pixel / 4, pixel % 4)
 * (element e sits at 16 (e / 4 % 4) + 4 (e / 16) + e % 4). */
TL_VBMI_CVT static void ilv3_tables_init(ilv3_tables *T)
{
    _Alignas(64) uint8_t rg[64], b[64];
    for (unsigned j = 0; j < 3; j++) {
        uint64_t kb = 0;
        for (unsigned t = 0; t < 64; t++) {
            unsigned o = 64 * j + t, px = o / 3, c = o % 3, at = tl_px_lines_pos(0, px / 4, px % 4);
            rg[t] = (uint8_t)(c == 1 ? 64 + at : at);
            b[t] = (uint8_t)at;
            kb |= (uint64_t)(c == 2) << t;
        }
        T->rg[j] = _mm512_load_si512((const void *)rg);
        T->b[j] = _mm512_load_si512((const void *)b);
        T->kb[j] = kb;
    }
}

TL_VBMI_CVT __attribute__((always_inline)) static inline void f32_ilv3_step(const float *const *pl, size_t i, uint8_t *d,
                                                                          const ilv3_tables *T, const tl_cvt *cv,
                                                                          int q8, int sgn, int nt, size_t part)
{
    __m512i c[3];
#pragma GCC unroll 3
    for (int k = 0; k < 3; k++) c[k] = f32_plane64(cv, q8, sgn, pl[k] + i, part != 0, (ptrdiff_t)part);
#pragma GCC unroll 3
    for (int j = 0; j < 3; j++) {
        __m512i v = _mm512_permutex2var_epi8(c[0], T->rg[j], c[1]);
        v = _mm512_mask_permutexvar_epi8(v, T->kb[j], T->b[j], c[2]);
        if (part) _mm512_mask_storeu_epi8(d + 64 * j, tl_first_bits(3 * (ptrdiff_t)part - 64 * j), v);
        else tl_store_line(d + 64 * j, v, nt);
    }
}

/* n pixels from 3 f32 planes into n packed 8-bit pixels at d: the pixels
 * before d's first line start (streaming) and after the last whole step
 * through the masked step. */
TL_VBMI_CVT __attribute__((always_inline)) static inline void f32_ilv3(const float *const *pl, uint8_t *d, size_t n,
                                                                      int stream, const tl_cvt *cv, int q8)
{
    const int sgn = cv->ddt == TL_I8;
    ilv3_tables T;
    ilv3_tables_init(&T);
    size_t i = 0, head = 0;
    while (stream && head < 64 && ((uintptr_t)d + 3 * head) % 64) head++;
    if (head > n) head = n;
    if (head) f32_ilv3_step(pl, 0, d, &T, cv, q8, sgn, 0, head);
    for (i = head; i + 64 <= n; i += 64)
        f32_ilv3_step(pl, i, d + 3 * i, &T, cv, q8, sgn, stream, 0);
    /* the last pixels: the last 64 again (the same bytes; masked loads and
     * stores cost more here), or the masked step for fewer than 64 */
    if (i < n && n >= 64) f32_ilv3_step(pl, n - 64, d + 3 * (n - 64), &T, cv, q8, sgn, 0, 0);
    else if (i < n) f32_ilv3_step(pl, i, d + 3 * i, &T, cv, q8, sgn, 0, n - i);
}

TL_VBMI_CVT void tl_f32_x8_interleave3_ukernel__avx512vbmi(const uint8_t *const *planes, uint8_t *d, size_t n,
                                                          int stream, const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
    const float *pl[3] = {(const float *)planes[0], (const float *)planes[1], (const float *)planes[2]};
#define TL_F32_ILV3(Q8) f32_ilv3(pl, d, n, stream, cv, Q8)
    TL_Q8_DISPATCH(q8_mode(cv, cv->ddt), TL_F32_ILV3);
#undef TL_F32_ILV3
}
/* ---- 16 f32 planes -> one 16-channel block of 8-bit pixels (AVX-512 VBMI) ------
 * Quantizing NCHW f32 into NCHW16c i8 (oneDNN's nChw16c, a blocked NPU
 * input): 64 pixels a step, each plane's 64 floats quantized and packed to
 * one register (f32_plane64), then per 128-bit lane a 16x16 byte transpose
 * (4 rounds of unpacks: planes to pixels), then 4x4 transposes of lanes
 * put 4 whole 16-byte pixels into each of the 16 output lines, streamed.
 * The packs leave pixel 16v + 4k + i of a plane at byte 4v + i of lane k,
 * so after the unpacks register 4v + i lane k is that pixel's 16 channels,
 * and line L (pixels 4L .. 4L + 3) is lane L % 4 of registers 4(L / 4) ..
 * 4(L / 4) + 3. No L1 tile of codes and no byte transpose pass over it. */
TL_VBMI_CVT __attribute__((always_inline)) static inline void transpose16x16_lanes(__m512i r[16])
{
    __m512i a[16], b[16];
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++)
        a[2 * j] = _mm512_unpacklo_epi8(r[2 * j], r[2 * j + 1]), a[2 * j + 1] = _mm512_unpackhi_epi8(r[2 * j], r[2 * j + 1]);
#pragma GCC unroll 4
    for (int m = 0; m < 4; m++)
#pragma GCC unroll 2
        for (int x = 0; x < 2; x++) {
            b[4 * m + 2 * x] = _mm512_unpacklo_epi16(a[4 * m + x], a[4 * m + 2 + x]);
            b[4 * m + 2 * x + 1] = _mm512_unpackhi_epi16(a[4 * m + x], a[4 * m + 2 + x]);
        }
#pragma GCC unroll 2
    for (int n = 0; n < 2; n++)
#pragma GCC unroll 4
        for (int g = 0; g < 4; g++) {
            a[8 * n + 2 * g] = _mm512_unpacklo_epi32(b[8 * n + g], b[8 * n + 4 + g]);
            a[8 * n + 2 * g + 1] = _mm512_unpackhi_epi32(b[8 * n + g], b[8 * n + 4 + g]);
        }
#pragma GCC unroll 8
    for (int q = 0; q < 8; q++) { /* q = 2g + h: columns 2q, 2q + 1 */
        r[2 * q] = _mm512_unpacklo_epi64(a[q], a[8 + q]);
        r[2 * q + 1] = _mm512_unpackhi_epi64(a[q], a[8 + q]);
    }
}

TL_VBMI_CVT __attribute__((always_inline)) static inline void f32_block16_step(const float *p, size_t ps, uint8_t *d,
                                                                             const tl_cvt *cv, int q8, int sgn,
                                                                             int nt, size_t part)
{
    __m512i r[16];
#pragma GCC unroll 16
    for (int c = 0; c < 16; c++) r[c] = f32_plane64(cv, q8, sgn, p + c * ps, part != 0, (ptrdiff_t)part);
    transpose16x16_lanes(r);
#pragma GCC unroll 4
    for (int g = 0; g < 4; g++) {
        __m512i t0 = _mm512_shuffle_i64x2(r[4 * g], r[4 * g + 1], 0x44), t1 = _mm512_shuffle_i64x2(r[4 * g], r[4 * g + 1], 0xEE);
        __m512i t2 = _mm512_shuffle_i64x2(r[4 * g + 2], r[4 * g + 3], 0x44), t3 = _mm512_shuffle_i64x2(r[4 * g + 2], r[4 * g + 3], 0xEE);
        __m512i line[4] = {_mm512_shuffle_i64x2(t0, t2, 0x88), _mm512_shuffle_i64x2(t0, t2, 0xDD),
                           _mm512_shuffle_i64x2(t1, t3, 0x88), _mm512_shuffle_i64x2(t1, t3, 0xDD)};
#pragma GCC unroll 4
        for (int k = 0; k < 4; k++) {
            ptrdiff_t at = 64 * (4 * g + k);
            if (part) _mm512_mask_storeu_epi8(d + at, tl_first_bits(16 * (ptrdiff_t)part - at), line[k]);
            else tl_store_line(d + at, line[k], nt);
        }
    }
}

/* n pixels of 16 f32 planes (plane_stride bytes apart) into n 16-byte
 * pixels at d: the pixels before d's first line start (streaming) and after
 * the last whole step through the masked step. */
TL_VBMI_CVT __attribute__((always_inline)) static inline void f32_block16(const float *p, size_t ps, uint8_t *d, size_t n,
                                                                         int stream, const tl_cvt *cv, int q8)
{
    const int sgn = cv->ddt == TL_I8;
    size_t i = 0, head = 0;
    if (stream && (uintptr_t)d % 16 == 0)
        while (((uintptr_t)d + 16 * head) % 64) head++;
    else stream = 0;
    if (head > n) head = n;
    if (head) f32_block16_step(p, ps, d, cv, q8, sgn, 0, head);
    for (i = head; i + 64 <= n; i += 64) f32_block16_step(p + i, ps, d + 16 * i, cv, q8, sgn, stream, 0);
    if (i < n && n >= 64) f32_block16_step(p + n - 64, ps, d + 16 * (n - 64), cv, q8, sgn, 0, 0); /* (as above) */
    else if (i < n) f32_block16_step(p + i, ps, d + 16 * i, cv, q8, sgn, 0, n - i);
}

TL_VBMI_CVT void tl_f32_x8_block16_ukernel__avx512vbmi(const uint8_t *planes, size_t plane_stride, uint8_t *d, size_t n,
                                                      int stream, const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
#define TL_F32_BLOCK16(Q8) f32_block16((const float *)planes, plane_stride / 4, d, n, stream, cv, Q8)
    TL_Q8_DISPATCH(q8_mode(cv, cv->ddt), TL_F32_BLOCK16);
#undef TL_F32_BLOCK16
}
/* ---- one 16-channel block of 8-bit pixels -> 16 f32 planes (AVX-512 VBMI) ------
 * Dequantizing NCHW16c i8 into NCHW f32 (the reverse of the above): 16
 * pixels a step, 256 bytes in 4 registers of 4 pixels. Two two-source byte
 * permutes and a blend regroup them into 4 registers of 4 channels x 16
 * pixels (a channel per 128-bit lane); each lane is widened, dequantized by
 * the row kernel's steps (dequant, the quantization kind a constant per
 * instance) and stored as one whole line of its plane. No L1 tile of bytes
 * or floats and no second pass over one. Byte 16 cc + p of group g is
 * channel 4g + cc of pixel p: byte 16 (p % 4) + 4g + cc of register p / 4,
 * i.e. index 16 (b & 7) + (b >> 4) + 4g of the pair (p < 8: registers 0:1,
 * else 2:3). */
static const uint8_t k_unblock16_idx[64] __attribute__((aligned(64))) = {
    0, 16, 32, 48, 64, 80, 96, 112, 0, 16, 32, 48, 64, 80, 96, 112, 1, 17, 33, 49, 65, 81,
    97, 113, 1, 17, 33, 49, 65, 81, 97, 113, 2, 18, 34, 50, 66, 82, 98, 114, 2, 18, 34, 50,
    66, 82, 98, 114, 3, 19, 35, 51, 67, 83, 99, 115, 3, 19, 35, 51, 67, 83, 99, 115};

/* 16 pixels (part: the first `part` of them) of the block at s -> x[c]:
 * channel c's 16 floats */
TL_VBMI_CVT __attribute__((always_inline)) static inline void x8_unblock16_vecs(const uint8_t *s, const tl_cvt *cv,
                                                                              int q, int sgn, size_t part, vf x[16])
{
    __m512i r[4];
#pragma GCC unroll 4
    for (int j = 0; j < 4; j++)
        r[j] = part ? _mm512_maskz_loadu_epi8(tl_first_bits(16 * (ptrdiff_t)part - 64 * j), s + 64 * j)
                    : _mm512_loadu_si512((const void *)(s + 64 * j));
    const __m512i idx = _mm512_load_si512((const void *)k_unblock16_idx);
#pragma GCC unroll 4
    for (int g = 0; g < 4; g++) {
        __m512i ig = _mm512_add_epi8(idx, _mm512_set1_epi8((char)(4 * g)));
        __m512i a = _mm512_mask_blend_epi8(0xFF00FF00FF00FF00ull, _mm512_permutex2var_epi8(r[0], ig, r[1]),
                                           _mm512_permutex2var_epi8(r[2], ig, r[3]));
#pragma GCC unroll 4
        for (int cc = 0; cc < 4; cc++) {
            __m128i b = cc == 0   ? _mm512_castsi512_si128(a) /* (literal lanes: clang wants immediates) */
                        : cc == 1 ? _mm512_extracti32x4_epi32(a, 1)
                        : cc == 2 ? _mm512_extracti32x4_epi32(a, 2)
                                  : _mm512_extracti32x4_epi32(a, 3);
            x[4 * g + cc] = dequant_as(cv, q, sgn ? _mm512_cvtepi8_epi32(b) : _mm512_cvtepu8_epi32(b));
        }
    }
}

/* 16 pixels (part: the first `part` of them) of the block at s into the 16
 * planes at d (ps floats apart), pixel 0 at d */
TL_VBMI_CVT __attribute__((always_inline)) static inline void x8_unblock16_step(const uint8_t *s, float *d, size_t ps,
                                                                              const tl_cvt *cv, int q, int sgn,
                                                                              int nt, size_t part)
{
    vf x[16];
    x8_unblock16_vecs(s, cv, q, sgn, part, x);
#pragma GCC unroll 16
    for (int c = 0; c < 16; c++) {
        float *to = d + (size_t)c * ps;
        if (part) _mm512_mask_storeu_ps(to, (__mmask16)tl_first_bits((ptrdiff_t)part), x[c]);
        else if (nt) _mm512_stream_ps(to, x[c]);
        else _mm512_storeu_ps(to, x[c]);
    }
}

/* Streamed into planes whose lines start at different pixels (H x W not a
 * multiple of 16): plane c's whole lines start sh[c] floats in, each the
 * last 16 - sh[c] floats of one step and the first sh[c] of the next, one
 * two-source permute, and streamed; the partial first and last lines are
 * masked stores, the pixels after the last whole step a masked step.
 * Stored as they fell, every line was written twice by plain stores and
 * read from DRAM first (NCHW16c i8 -> NCHW f32 C = 64, 1810 x 1810, Zen 5:
 * 0.47x the streaming copy). */
TL_VBMI_CVT __attribute__((always_inline)) static inline void x8_unblock16_shifted(const uint8_t *s, float *d, size_t ps,
                                                                                 size_t n, const tl_cvt *cv, int q,
                                                                                 int sgn)
{
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    vf prev[16], cur[16];
    __m512i idx[16];
    unsigned sh[16];
    size_t f = n / 16 * 16;
    x8_unblock16_vecs(s, cv, q, sgn, 0, prev);
    for (int c = 0; c < 16; c++) {
        float *row = d + (size_t)c * ps;
        sh[c] = (unsigned)(-(uintptr_t)row & 63) / 4;
        idx[c] = _mm512_add_epi32(lanes, _mm512_set1_epi32((int)sh[c]));
        _mm512_mask_storeu_ps(row, (__mmask16)((1u << sh[c]) - 1), prev[c]);
    }
    for (size_t i = 16; i < f; i += 16) {
        x8_unblock16_vecs(s + 16 * i, cv, q, sgn, 0, cur);
#pragma GCC unroll 16
        for (int c = 0; c < 16; c++) {
            _mm512_stream_ps(d + (size_t)c * ps + i - 16 + sh[c], _mm512_permutex2var_ps(prev[c], idx[c], cur[c]));
            prev[c] = cur[c];
        }
    }
    for (int c = 0; c < 16; c++)
        _mm512_mask_storeu_ps(d + (size_t)c * ps + f - 16, (__mmask16)(0xFFFFu << sh[c]), prev[c]);
    _mm_sfence();
    if (f < n) x8_unblock16_step(s + 16 * f, d + f, ps, cv, q, sgn, 0, n - f);
}

/* n pixels: the ones before the planes' first line start (streaming, when
 * the planes share their phase) and after the last whole step by the
 * masked step, or the last 16 again (same values); streaming into planes
 * of different phases, shifted. */
TL_VBMI_CVT __attribute__((always_inline)) static inline void x8_unblock16(const uint8_t *s, float *d, size_t ps, size_t n,
                                                                          int stream, const tl_cvt *cv, int q)
{
    const int sgn = cv->sdt == TL_I8;
    if (stream && ps % 16 && (uintptr_t)d % 4 == 0 && n >= 32) {
        x8_unblock16_shifted(s, d, ps, n, cv, q, sgn);
        return;
    }
    size_t i = 0, head = planes_stream_head(d, ps, n, &stream);
    if (head) x8_unblock16_step(s, d, ps, cv, q, sgn, 0, head);
    for (i = head; i + 16 <= n; i += 16) x8_unblock16_step(s + 16 * i, d + i, ps, cv, q, sgn, stream, 0);
    if (i < n && n >= 16) x8_unblock16_step(s + 16 * (n - 16), d + n - 16, ps, cv, q, sgn, 0, 0);
    else if (i < n) x8_unblock16_step(s + 16 * i, d + i, ps, cv, q, sgn, 0, n - i);
}

TL_VBMI_CVT void tl_x8_f32_unblock16_ukernel__avx512vbmi(const uint8_t *src, uint8_t *planes, size_t plane_stride,
                                                        size_t n, int stream, const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
    float *d = (float *)(void *)planes;
    size_t ps = plane_stride / 4;
    TL_BY_SOURCE_Q(cv, x8_unblock16, src, d, ps, n, stream, cv);
}
#endif
