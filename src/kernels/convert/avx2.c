/* Contiguous convert, AVX2 + F16C: 8 lanes of f32 (x86_body.h holds the steps). */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <string.h>

#include "kernels/convert/pipeline.h"
#include "kernels/ring_x86.h"
#include "kernels/interleave/x86_tables.h" /* k_ilv3 */

#define W 8
#define TL_X86_HAVE_F16 1
#define TL_X86_HAVE_GROUPS 1 /* st4_groups: an in-lane byte shuffle */
#define TL_TARGET __attribute__((target("avx2,f16c")))
#define TL_FN static inline TL_TARGET
#define TL_KERNEL TL_TARGET
typedef __m256 vf;
typedef __m256i vi;

TL_FN vf vf_set1(float x) { return _mm256_set1_ps(x); }
TL_FN vi vi_set1(int32_t x) { return _mm256_set1_epi32(x); }
TL_FN vf vf_add(vf a, vf b) { return _mm256_add_ps(a, b); }
TL_FN vf vf_sub(vf a, vf b) { return _mm256_sub_ps(a, b); }
TL_FN vf vf_mul(vf a, vf b) { return _mm256_mul_ps(a, b); }
TL_FN vf vf_div(vf a, vf b) { return _mm256_div_ps(a, b); }
TL_FN vf vf_min(vf a, vf b) { return _mm256_min_ps(a, b); }
TL_FN vf vf_max(vf a, vf b) { return _mm256_max_ps(a, b); }
TL_FN vf vf_load(const uint8_t *p) { return _mm256_loadu_ps((const float *)p); }
TL_FN void vf_store(uint8_t *p, vf x) { _mm256_storeu_ps((float *)p, x); }
TL_FN vi vi_add(vi a, vi b) { return _mm256_add_epi32(a, b); }
TL_FN vi vi_sub(vi a, vi b) { return _mm256_sub_epi32(a, b); }
TL_FN vi vi_and(vi a, vi b) { return _mm256_and_si256(a, b); }
TL_FN vi vi_or(vi a, vi b) { return _mm256_or_si256(a, b); }
TL_FN vi vi_sll16(vi a) { return _mm256_slli_epi32(a, 16); }
TL_FN vi vi_srl16(vi a) { return _mm256_srli_epi32(a, 16); }
TL_FN vf vi_to_f(vi a) { return _mm256_cvtepi32_ps(a); }
TL_FN vf vi_as_f(vi a) { return _mm256_castsi256_ps(a); }
TL_FN vi vf_as_i(vf a) { return _mm256_castps_si256(a); }
TL_FN vi vf_to_i_trunc(vf a) { return _mm256_cvttps_epi32(a); }
TL_FN vi vf_to_i_even(vf a) { return _mm256_cvtps_epi32(a); }
TL_FN vf nan_mask(vf x) { return _mm256_cmp_ps(x, x, _CMP_UNORD_Q); }
TL_FN vi vi_select_nan(vf x, vi a, vi b) { return _mm256_castps_si256(_mm256_blendv_ps(_mm256_castsi256_ps(b), _mm256_castsi256_ps(a), nan_mask(x))); }
TL_FN vf vf_nan_to_zero(vf x) { return _mm256_and_ps(x, _mm256_cmp_ps(x, x, _CMP_ORD_Q)); }
TL_FN vf vf_quiet(vf x) { return _mm256_or_ps(x, _mm256_and_ps(nan_mask(x), _mm256_castsi256_ps(vi_set1(0x400000)))); }
TL_FN vi vi_away_adjust(vi t, vf f)
{
    vi ge = _mm256_castps_si256(_mm256_cmp_ps(f, vf_set1(0.5f), _CMP_GE_OQ));
    vi le = _mm256_castps_si256(_mm256_cmp_ps(f, vf_set1(-0.5f), _CMP_LE_OQ));
    return _mm256_add_epi32(_mm256_sub_epi32(t, ge), le);
}
TL_FN vi ld_u8(const uint8_t *p) { return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)p)); }
TL_FN vi ld_i8(const uint8_t *p) { return _mm256_cvtepi8_epi32(_mm_loadl_epi64((const __m128i *)p)); }
TL_FN vi ld_i16(const uint8_t *p) { return _mm256_cvtepi16_epi32(_mm_loadu_si128((const __m128i *)p)); }
TL_FN vi ld_u16(const uint8_t *p) { return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)p)); }
TL_FN vf ld_f16(const uint8_t *p) { return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p)); }
TL_FN __m128i pack16(vi v) { return _mm_packs_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)); }
TL_FN void st_u8(uint8_t *p, vi v) { __m128i h = pack16(v); _mm_storel_epi64((__m128i *)p, _mm_packus_epi16(h, h)); }
TL_FN void st_i8(uint8_t *p, vi v) { __m128i h = pack16(v); _mm_storel_epi64((__m128i *)p, _mm_packs_epi16(h, h)); }
/* 4 vectors of codes already in range: saturating packs are exact; the
 * packs work per 128-bit lane, one dword permute puts the lanes in order */
TL_FN vi pack4_8(vi a, vi b, vi c, vi d, int sgn)
{
    vi ab = _mm256_packs_epi32(a, b), cd = _mm256_packs_epi32(c, d);
    vi v = sgn ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
    return _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
}
TL_FN void st4_8(uint8_t *p, vi a, vi b, vi c, vi d, int sgn)
{
    _mm256_storeu_si256((__m256i *)p, pack4_8(a, b, c, d, sgn));
}
/* 4 vectors of codes in range (4 rows' same 8 elements) -> 8 groups of 4
 * bytes, in element order (avx512.c's st4_groups) */
TL_FN vi groups4(vi a, vi b, vi c, vi d, int sgn)
{
    vi ab = _mm256_packs_epi32(a, b), cd = _mm256_packs_epi32(c, d);
    vi v = sgn ? _mm256_packs_epi16(ab, cd) : _mm256_packus_epi16(ab, cd);
    const vi k = _mm256_broadcastsi128_si256(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    return _mm256_shuffle_epi8(v, k);
}
TL_FN void st4_groups(uint8_t *p, vi a, vi b, vi c, vi d, int sgn)
{
    _mm256_storeu_si256((__m256i *)p, groups4(a, b, c, d, sgn));
}
TL_FN void st_i16(uint8_t *p, vi v) { _mm_storeu_si128((__m128i *)p, pack16(v)); }
TL_FN void st_u16(uint8_t *p, vi v)
{
    _mm_storeu_si128((__m128i *)p, _mm_packus_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1)));
}
TL_FN void st_f16(uint8_t *p, vf x) { _mm_storeu_si128((__m128i *)p, _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT)); }

/* u8 <-> i8 without quantization: one saturating byte operation */
TL_FN void sat8(const uint8_t *s, uint8_t *d, int to_i8)
{
    __m256i x = _mm256_loadu_si256((const __m256i *)s);
    x = to_i8 ? _mm256_min_epu8(x, _mm256_set1_epi8(127)) : _mm256_max_epi8(x, _mm256_setzero_si256());
    _mm256_storeu_si256((__m256i *)d, x);
}
/* the last bytes one by one: u8 -> i8 caps at 127, i8 -> u8 floors at 0 */
TL_FN void sat8_tail(const uint8_t *s, uint8_t *d, size_t n, int to_i8)
{
    for (size_t k = 0; k < n; k++) d[k] = to_i8 ? (s[k] > 127 ? 127 : s[k]) : (s[k] > 127 ? 0 : s[k]);
}
#define SAT8_BYTES 32

#include "kernels/convert/x86_body.h"

TL_X86_ROW(tl_u8_u8_convert_ukernel__avx2, TL_U8, TL_U8)
TL_X86_ROW(tl_u8_i8_convert_ukernel__avx2, TL_U8, TL_I8)
TL_X86_ROW(tl_u8_i16_convert_ukernel__avx2, TL_U8, TL_I16)
TL_X86_ROW(tl_u8_f16_convert_ukernel__avx2, TL_U8, TL_F16)
TL_X86_ROW(tl_u8_bf16_convert_ukernel__avx2, TL_U8, TL_BF16)
TL_X86_ROW(tl_u8_f32_convert_ukernel__avx2, TL_U8, TL_F32)
TL_X86_ROW(tl_i8_u8_convert_ukernel__avx2, TL_I8, TL_U8)
TL_X86_ROW(tl_i8_i8_convert_ukernel__avx2, TL_I8, TL_I8)
TL_X86_ROW(tl_i8_i16_convert_ukernel__avx2, TL_I8, TL_I16)
TL_X86_ROW(tl_i8_f16_convert_ukernel__avx2, TL_I8, TL_F16)
TL_X86_ROW(tl_i8_bf16_convert_ukernel__avx2, TL_I8, TL_BF16)
TL_X86_ROW(tl_i8_f32_convert_ukernel__avx2, TL_I8, TL_F32)
TL_X86_ROW(tl_i16_u8_convert_ukernel__avx2, TL_I16, TL_U8)
TL_X86_ROW(tl_i16_i8_convert_ukernel__avx2, TL_I16, TL_I8)
TL_X86_ROW(tl_i16_i16_convert_ukernel__avx2, TL_I16, TL_I16)
TL_X86_ROW(tl_i16_f16_convert_ukernel__avx2, TL_I16, TL_F16)
TL_X86_ROW(tl_i16_bf16_convert_ukernel__avx2, TL_I16, TL_BF16)
TL_X86_ROW(tl_i16_f32_convert_ukernel__avx2, TL_I16, TL_F32)
TL_X86_ROW(tl_f16_u8_convert_ukernel__avx2, TL_F16, TL_U8)
TL_X86_ROW(tl_f16_i8_convert_ukernel__avx2, TL_F16, TL_I8)
TL_X86_ROW(tl_f16_i16_convert_ukernel__avx2, TL_F16, TL_I16)
TL_X86_ROW(tl_f16_f16_convert_ukernel__avx2, TL_F16, TL_F16)
TL_X86_ROW(tl_f16_bf16_convert_ukernel__avx2, TL_F16, TL_BF16)
TL_X86_ROW(tl_f16_f32_convert_ukernel__avx2, TL_F16, TL_F32)
TL_X86_ROW(tl_bf16_u8_convert_ukernel__avx2, TL_BF16, TL_U8)
TL_X86_ROW(tl_bf16_i8_convert_ukernel__avx2, TL_BF16, TL_I8)
TL_X86_ROW(tl_bf16_i16_convert_ukernel__avx2, TL_BF16, TL_I16)
TL_X86_ROW(tl_bf16_f16_convert_ukernel__avx2, TL_BF16, TL_F16)
TL_X86_ROW(tl_bf16_bf16_convert_ukernel__avx2, TL_BF16, TL_BF16)
TL_X86_ROW(tl_bf16_f32_convert_ukernel__avx2, TL_BF16, TL_F32)
TL_X86_ROW(tl_f32_u8_convert_ukernel__avx2, TL_F32, TL_U8)
TL_X86_ROW(tl_f32_i8_convert_ukernel__avx2, TL_F32, TL_I8)
TL_X86_ROW(tl_f32_i16_convert_ukernel__avx2, TL_F32, TL_I16)
TL_X86_ROW(tl_f32_f16_convert_ukernel__avx2, TL_F32, TL_F16)
TL_X86_ROW(tl_f32_bf16_convert_ukernel__avx2, TL_F32, TL_BF16)
TL_X86_ROW(tl_f32_f32_convert_ukernel__avx2, TL_F32, TL_F32)
TL_X86_GROUP4(tl_f32_u8_group4_ukernel__avx2, TL_U8)
TL_X86_GROUP4(tl_f32_i8_group4_ukernel__avx2, TL_I8)

/* ---- u8 pixels -> pixels of 4 f16 halves, in the register ----------------------- */
/* 8 RGB pixels (24 u8 codes at s) -> 64 bytes at d, two pixels a register:
 * a byte shuffle widens a pair's 6 codes to the 8 dwords of its two pixels
 * (the fourth of each zero), the rule's source stage (plain: codes without
 * a quantization, which convert as they are; else kind q, the fourth set
 * to +0 after it) and F16C give the pair's 16 bytes in place.
 * Converting only the 24 codes and placing the halves afterwards took 9
 * shuffles a step against these 4 (0.34x memcpy in cache, Zen 3). */
TL_FN __attribute__((always_inline)) void u8_f16_spread4_step(const uint8_t *s, uint8_t *d, const tl_cvt *cv,
                                                             const vi ctl[4], int plain, int q, int nt)
{
    const vi lo = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)s));       /* codes 0-15 */
    const vi hi = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(s + 8))); /* 8-23 */
    const vi pair[4] = {_mm256_shuffle_epi8(lo, ctl[0]), _mm256_shuffle_epi8(lo, ctl[1]),
                        _mm256_shuffle_epi8(hi, ctl[2]), _mm256_shuffle_epi8(hi, ctl[3])};
    for (int j = 0; j < 4; j++) {
        vf x = plain ? vi_to_f(pair[j]) : _mm256_blend_ps(dequant_as(cv, q, pair[j]), _mm256_setzero_ps(), 0x88);
        const __m128i h = _mm256_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT);
        if (nt) _mm_stream_si128((__m128i *)(d + 16 * j), h);
        else _mm_storeu_si128((__m128i *)(d + 16 * j), h);
    }
}

/* One row of m pixels: whole steps, the last 8 again when a step is left
 * over, a row shorter than a step through a stack buffer; then the row's
 * gap of zero bytes. */
TL_FN __attribute__((always_inline)) void u8_f16_spread4_row(const uint8_t *s, uint8_t *d, size_t m, size_t gap,
                                                            const tl_cvt *cv, const vi ctl[4], int plain, int q, int nt)
{
    size_t i = 0;
    for (; i + 8 <= m; i += 8) u8_f16_spread4_step(s + 3 * i, d + 8 * i, cv, ctl, plain, q, nt);
    if (i < m && m >= 8) {
        u8_f16_spread4_step(s + 3 * (m - 8), d + 8 * (m - 8), cv, ctl, plain, q, 0); /* the last 8 again: same values */
    } else if (i < m) {
        uint8_t in[24] = {0}, out[64];
        memcpy(in, s + 3 * i, 3 * (m - i));
        u8_f16_spread4_step(in, out, cv, ctl, plain, q, 0);
        memcpy(d + 8 * i, out, 8 * (m - i));
    }
    memset(d + 8 * m, 0, gap);
}

/* Rows of pixels of k <= 4 u8 codes (tl_px_rows; dense rows: exactly n * k
 * bytes read a row) -> pixels of 4 f16 halves (kDLA_HWC4 f16 from an RGB
 * image), converted by the f32 pipeline's steps in the register (cv), the
 * halves past k zero, each row's gap zeroed: the row conversion into an L1
 * tile, the spread from it and a call per image row ran at 0.22x memcpy in
 * cache (Zen 3). nt: whole steps streamed when d and the rows are 32-byte
 * aligned (fenced here). */
void tl_u8_f16_spread4_rows_ukernel__avx2(const uint8_t *s, size_t k, uint8_t *d, const tl_px_rows *g,
                                          const tl_cvt *cv_in, int nt);
TL_KERNEL void tl_u8_f16_spread4_rows_ukernel__avx2(const uint8_t *s, size_t k, uint8_t *d, const tl_px_rows *g,
                                                    const tl_cvt *cv_in, int nt)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
    const size_t m = g->n, rows = g->rows, gap = g->gap;
    const ptrdiff_t ss = g->ss, ds = g->ds;
    (void)k; /* 3: the plan's condition */
    /* a pair's 6 codes (at byte o of the 16 broadcast to both lanes: 0 and
     * 6 of codes 0-15, 4 and 10 of codes 8-23) -> the dwords of its two
     * pixels, one a lane, the fourth zero */
#define Z -128, -128, -128
#define PAIR(o) _mm256_setr_epi8(o, Z, o + 1, Z, o + 2, Z, Z, -128, o + 3, Z, o + 4, Z, o + 5, Z, Z, -128)
    const vi ctl[4] = {PAIR(0), PAIR(6), PAIR(4), PAIR(10)};
#undef PAIR
#undef Z
    nt = nt && (((uintptr_t)d | (uintptr_t)ds) & 15) == 0;
    /* the source stage and the stores as constants in each loop: plain
     * codes, affine ones, the other kinds (their mode tested per vector) */
    const int plain = cv->s_q == TL_Q_NONE && cv->s_zp == 0, affine = cv->s_q == TL_Q_AFFINE;
#define ROWS(PLAIN, Q, NT)                                                                               \
    do {                                                                                                 \
        for (size_t r = 0; r < rows; r++)                                                                \
            u8_f16_spread4_row(s + (ptrdiff_t)r * ss, d + (ptrdiff_t)r * ds, m, gap, cv, ctl, PLAIN, Q, NT); \
    } while (0)
    if (plain && nt) ROWS(1, TL_Q_NONE, 1);
    else if (plain) ROWS(1, TL_Q_NONE, 0);
    else if (affine && nt) ROWS(0, TL_Q_AFFINE, 1);
    else if (affine) ROWS(0, TL_Q_AFFINE, 0);
    else if (nt) ROWS(0, cv->s_q, 1);
    else ROWS(0, cv->s_q, 0);
#undef ROWS
    if (nt) _mm_sfence();
}

/* ---- pixels of 4 f16 halves -> RGB 8-bit codes, in the register ---------------- */
/* 8 pixels (64 bytes at s): all four halves of each through F16C and the
 * rule's destination stage (a conversion reads its 16 bytes straight from
 * memory), the packs and one dword permute put the pixels' codes in order,
 * one byte shuffle drops the fourth code of each: 24 codes at d by three
 * stores (exactly the pixels' bytes). Dropping the fourth half before the
 * conversions instead (three, not four) took 11 shuffles per step on the
 * two shuffle pipes, about 18 cycles per step at 0.20x memcpy (Zen 3). */
TL_FN __attribute__((always_inline)) void f16_x8_gather4_step(const uint8_t *s, uint8_t *d, const tl_cvt *cv,
                                                             vi drop4, int exact, int sgn, int plain, int round)
{
    vi q[4];
    for (int j = 0; j < 4; j++) {
        vf f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 16 * j))); /* pixels 2j, 2j+1 */
        q[j] = plain ? quantize8_plain_mode(cv, round, f) : quantize8_mode(cv, round, f);
    }
    /* the packs work per lane: pixels 0 2 4 6 | 1 3 5 7, 4 codes each */
    vi a = _mm256_packs_epi32(q[0], q[1]), b = _mm256_packs_epi32(q[2], q[3]);
    vi c = sgn ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b);
    c = _mm256_permutevar8x32_epi32(c, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7)); /* pixels 0-3 | 4-7 */
    c = _mm256_shuffle_epi8(c, drop4); /* 12 codes at the start of each lane */
    __m128i lo = _mm256_castsi256_si128(c), hi = _mm256_extracti128_si256(c, 1);
    _mm_storeu_si128((__m128i *)d, lo); /* its last 4 bytes are replaced next */
    if (!exact) { /* 4 bytes past the step too: the caller's next steps write them again */
        _mm_storeu_si128((__m128i *)(d + 12), hi);
        return;
    }
    _mm_storel_epi64((__m128i *)(d + 12), hi);
    const int32_t last = _mm_extract_epi32(hi, 2);
    memcpy(d + 20, &last, 4);
}

/* The last pixel of a row of at least 3: the 16 bytes that end with its
 * run (its 3 halves, the 5 before them from the two pixels before), one
 * conversion, its 3 codes stored. A stack buffer filled by memcpy here
 * cost a store-forwarding stall per row, a tenth of a 209-pixel row's time. */
TL_FN __attribute__((always_inline)) void f16_x8_gather4_last(const uint8_t *s, uint8_t *d, const tl_cvt *cv,
                                                             int sgn, int plain, int round)
{
    vf f = _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)(s + 6 - 16)));
    vi q = plain ? quantize8_plain_mode(cv, round, f) : quantize8_mode(cv, round, f);
    __m128i w = pack16(q);
    w = sgn ? _mm_packs_epi16(w, w) : _mm_packus_epi16(w, w);
    const uint32_t codes = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(w, 5)); /* lanes 5-7 */
    memcpy(d, &codes, 3); /* little-endian: the first 3 bytes */
}

TL_FN __attribute__((always_inline)) void f16_x8_gather4_rows(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                             const tl_cvt *cv, int sgn, int plain, int round)
{
    const vi ctl = _mm256_setr_epi8(0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128,
                                    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, -128, -128, -128, -128);
    const size_t m = g->n;
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->ss;
        uint8_t *d = dst + (ptrdiff_t)r * g->ds;
        /* no step reads the last pixel's slot: only its run (6 bytes) is
         * known to be there (a run may start inside its pixel) */
        size_t i = 0;
        /* 4 bytes past each step: pixel i + 8 and a byte of i + 9, both in
         * the row and written again by the steps after */
        for (; i + 9 < m; i += 8) f16_x8_gather4_step(s + 8 * i, d + 3 * i, cv, ctl, 0, sgn, plain, round);
        if (m > 8) { /* the 8 before the last again (same values), then the last */
            f16_x8_gather4_step(s + 8 * (m - 9), d + 3 * (m - 9), cv, ctl, 1, sgn, plain, round);
            f16_x8_gather4_last(s + 8 * (m - 1), d + 3 * (m - 1), cv, sgn, plain, round);
            i = m;
        }
        if (i < m) { /* the rest, the last pixel's run included, through stack buffers */
            uint8_t in[64] = {0}, out[24];
            memcpy(in, s + 8 * i, 8 * (m - i - 1) + 6);
            f16_x8_gather4_step(in, out, cv, ctl, 1, sgn, plain, round);
            memcpy(d + 3 * i, out, 3 * (m - i));
        }
        if (g->gap) memset(d + 3 * m, 0, g->gap); /* the destination row's padding */
    }
}

/* Rows of pixels of 4 f16 halves (tl_px_rows; kDLA_HWC4 f16, 8 bytes a
 * pixel) -> rows of 3 u8 or i8 codes a pixel (an RGB image), each row's gap
 * zeroed, the first three halves through the rule's steps in the register
 * (the plan's f32 pipeline: cv): the gather into an L1 tile, the row
 * conversion and a call per image row ran at 0.19x memcpy in cache (Zen 3).
 * Plain stores. */
void tl_f16_x8_gather4_rows_ukernel__avx2(const uint8_t *s, uint8_t *d, const tl_px_rows *g, const tl_cvt *cv_in);
TL_KERNEL void tl_f16_x8_gather4_rows_ukernel__avx2(const uint8_t *s, uint8_t *d, const tl_px_rows *g,
                                                    const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    /* the steps with constant modes: an RGB image's plain codes (a DLA
     * output as it is) without the multiply and the add; the rest tested */
    const tl_cvt *cv = &cv_local;
    if (plain_u8(cv, cv->ddt) && cv->round == TL_ROUND_EVEN) f16_x8_gather4_rows(s, d, g, cv, 0, 1, TL_ROUND_EVEN);
    else if (cv->ddt == TL_I8) f16_x8_gather4_rows(s, d, g, cv, 1, 0, cv->round);
    else f16_x8_gather4_rows(s, d, g, cv, 0, 0, cv->round);
}

void tl_u8_f16_spread4_ukernel__avx2(const uint8_t *s, size_t k, uint8_t *d, size_t m, const tl_cvt *cv, int nt);
TL_KERNEL void tl_u8_f16_spread4_ukernel__avx2(const uint8_t *s, size_t k, uint8_t *d, size_t m, const tl_cvt *cv, int nt)
{
    const tl_px_rows g = {m, 1, 0, 0, 0};
    tl_u8_f16_spread4_rows_ukernel__avx2(s, k, d, &g, cv, nt);
}

/* One 16-channel block of 8-bit codes -> 16 f32 planes (NCHW16c i8 -> NCHW
 * f32), 32 pixels a step: the 16x16 byte network (kernels.h) turns the 32
 * pixels (pixel i and 16 + i in one register) into 16 channel rows of 32
 * codes, each widened and dequantized by the row kernel's source stage (q
 * a constant per instance) and stored as 128 bytes of its plane. The tile
 * path (a byte transpose into L1, then a row conversion per plane) ran at
 * 0.5x memcpy from DRAM (Zen 3). */
TL_FN void x8_unblock16_step(const uint8_t *s, float *d, size_t ps, const tl_cvt *cv, int q, int sgn, int nt)
{
    __m256i y[4][4], o[4];
    TL_UNROLL
    for (int g = 0; g < 4; g++)
        TL_UNROLL
        for (int r = 0; r < 4; r++)
            y[g][r] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(s + 16 * (4 * g + r)))),
                                              _mm_loadu_si128((const __m128i *)(s + 16 * (16 + 4 * g + r))), 1);
    TL_UNROLL
    for (int g = 0; g < 4; g++)
        TL_X8_ROWS4(__m256i, y[g], y[g], _mm256_unpacklo_epi8, _mm256_unpackhi_epi8, _mm256_unpacklo_epi16,
                    _mm256_unpackhi_epi16);
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        TL_X8_COLS4(__m256i, y, k, o, _mm256_unpacklo_epi32, _mm256_unpackhi_epi32, _mm256_unpacklo_epi64,
                    _mm256_unpackhi_epi64);
        TL_UNROLL
        for (int j = 0; j < 4; j++) {
            float *to = d + (size_t)(4 * k + j) * ps;
            TL_OPAQUE(to);
            TL_UNROLL
            for (int e = 0; e < 4; e++) { /* pixels 8e..8e+7 of the channel */
                __m128i h = e < 2 ? _mm256_castsi256_si128(o[j]) : _mm256_extracti128_si256(o[j], 1);
                if (e % 2) h = _mm_srli_si128(h, 8);
                vf x = dequant_as(cv, q, sgn ? _mm256_cvtepi8_epi32(h) : _mm256_cvtepu8_epi32(h));
                if (nt) _mm256_stream_ps(to + 8 * e, x);
                else _mm256_storeu_ps(to + 8 * e, x);
            }
        }
    }
}

/* m < 32 pixels through a zeroed 32-pixel block and a float tile (libyuv's ANY) */
TL_FN void x8_unblock16_part(const uint8_t *s, float *d, size_t ps, size_t m, const tl_cvt *cv, int q, int sgn)
{
    _Alignas(64) uint8_t blk[16 * 32] = {0};
    _Alignas(64) float tile[16 * 32];
    memcpy(blk, s, 16 * m);
    x8_unblock16_step(blk, tile, 32, cv, q, sgn, 0);
    for (size_t c = 0; c < 16; c++) memcpy(d + c * ps, tile + 32 * c, 4 * m);
}

/* Streamed into planes off each other's line phase (H x W not a multiple
 * of 16): each step's 32 floats a plane through the plane's L1 ring
 * (ring_x86.h), whole lines streamed from it. The plain stores had read
 * every plane line from DRAM first (NCHW16c i8 -> NCHW f32 C = 64, 1810 x
 * 1810, Zen 5: docs/performance.md). */
TL_FN void x8_unblock16_ring(const uint8_t *s, float *d, size_t ps, size_t n, const tl_cvt *cv, int q, int sgn)
{
    _Alignas(64) uint8_t ring[16 * TL_RING_BYTES];
    size_t i;
    for (i = 0; i + 32 <= n; i += 32) {
        x8_unblock16_step(s + 16 * i, (float *)(void *)(ring + 64), TL_RING_BYTES / 4, cv, q, sgn, 0);
        for (size_t c = 0; c < 16; c++) tl_ring_step((uint8_t *)(d + c * ps), 4 * i, ring + c * TL_RING_BYTES);
    }
    if (i)
        for (size_t c = 0; c < 16; c++) tl_ring_end((uint8_t *)(d + c * ps), 4 * i, ring + c * TL_RING_BYTES);
    _mm_sfence();
    if (i < n) x8_unblock16_part(s + 16 * i, d + i, ps, n - i, cv, q, sgn);
}

/* n pixels: whole steps, streamed when the planes share their phase (the
 * pixels before the first plane's line start go first) or through rings
 * when they do not, then the rest */
TL_FN void x8_unblock16(const uint8_t *s, float *d, size_t ps, size_t n, int nt, const tl_cvt *cv, int q)
{
    const int sgn = cv->sdt == TL_I8;
    if (nt && ps % 16 && n >= 64) {
        x8_unblock16_ring(s, d, ps, n, cv, q, sgn);
        return;
    }
    size_t head = planes_stream_head(d, ps, n, &nt), i;
    if (head) x8_unblock16_part(s, d, ps, head, cv, q, sgn);
    for (i = head; i + 32 <= n; i += 32) x8_unblock16_step(s + 16 * i, d + i, ps, cv, q, sgn, nt);
    if (nt) _mm_sfence();
    if (i < n) x8_unblock16_part(s + 16 * i, d + i, ps, n - i, cv, q, sgn);
}

/* ---- 16 f32 planes -> one 16-channel block of 8-bit pixels (AVX2) ------
 * Quantizing NCHW f32 into NCHW16c 8-bit codes in one pass, 8 pixels a
 * step: each 4 planes' 8 floats through the pack network into 8 groups of
 * 4 codes (groups4), then the 4 groups' 32-bit words transposed in
 * registers into 8 whole 16-byte pixels, 128 bytes, two lines streamed
 * where the plan streams. The tile path (a row conversion per plane into
 * L1, a byte transpose, a copy out) read the planes at 0.3x the streaming
 * copy's rate from DRAM on every x86 path (C = 80, 1810 x 1810, Zen 5). */
TL_FN void f32_block16_step(const float *p, size_t ps, uint8_t *d, const tl_cvt *cv, int q8, int sgn, int nt)
{
    vi g[4];
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        const float *q = p + 4 * (size_t)k * ps;
        g[k] = groups4(quantize8_q8(cv, q8, _mm256_loadu_ps(q)), quantize8_q8(cv, q8, _mm256_loadu_ps(q + ps)),
                       quantize8_q8(cv, q8, _mm256_loadu_ps(q + 2 * ps)),
                       quantize8_q8(cv, q8, _mm256_loadu_ps(q + 3 * ps)), sgn);
    }
    /* per lane, u[j] = pixel j (low lane) and pixel 4 + j (high lane) */
    vi t0 = _mm256_unpacklo_epi32(g[0], g[1]), t1 = _mm256_unpackhi_epi32(g[0], g[1]);
    vi t2 = _mm256_unpacklo_epi32(g[2], g[3]), t3 = _mm256_unpackhi_epi32(g[2], g[3]);
    vi u0 = _mm256_unpacklo_epi64(t0, t2), u1 = _mm256_unpackhi_epi64(t0, t2);
    vi u2 = _mm256_unpacklo_epi64(t1, t3), u3 = _mm256_unpackhi_epi64(t1, t3);
    vi o[4] = {_mm256_permute2x128_si256(u0, u1, 0x20), _mm256_permute2x128_si256(u2, u3, 0x20),
               _mm256_permute2x128_si256(u0, u1, 0x31), _mm256_permute2x128_si256(u2, u3, 0x31)};
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        if (nt) _mm256_stream_si256((__m256i *)(d + 32 * k), o[k]);
        else _mm256_storeu_si256((__m256i *)(d + 32 * k), o[k]);
    }
}

/* m < 8 pixels through zeroed planes and a pixel buffer (libyuv's ANY) */
TL_FN void f32_block16_part(const float *p, size_t ps, uint8_t *d, size_t m, const tl_cvt *cv, int q8, int sgn)
{
    _Alignas(32) float in[16 * 8] = {0};
    _Alignas(32) uint8_t out[16 * 8];
    for (size_t c = 0; c < 16; c++) memcpy(in + 8 * c, p + c * ps, 4 * m);
    f32_block16_step(in, 8, out, cv, q8, sgn, 0);
    memcpy(d, out, 16 * m);
}

/* n pixels: the pixels before d's first line start (streaming), whole
 * steps, the rest */
TL_FN __attribute__((always_inline)) void f32_block16(const float *p, size_t ps, uint8_t *d, size_t n, int nt,
                                                      const tl_cvt *cv, int q8)
{
    const int sgn = cv->ddt == TL_I8;
    size_t head = 0, i;
    if (nt && (uintptr_t)d % 16 == 0)
        while (((uintptr_t)d + 16 * head) % 64) head++;
    else nt = 0;
    if (head > n) head = n;
    if (head) f32_block16_part(p, ps, d, head, cv, q8, sgn);
    for (i = head; i + 8 <= n; i += 8) f32_block16_step(p + i, ps, d + 16 * i, cv, q8, sgn, nt);
    if (nt) _mm_sfence();
    if (i < n) f32_block16_part(p + i, ps, d + 16 * i, n - i, cv, q8, sgn);
}

void tl_f32_x8_block16_ukernel__avx2(const uint8_t *planes, size_t plane_stride, uint8_t *d, size_t n, int stream,
                                     const tl_cvt *cv_in);
TL_KERNEL void tl_f32_x8_block16_ukernel__avx2(const uint8_t *planes, size_t plane_stride, uint8_t *d, size_t n,
                                               int stream, const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
#define TL_F32_BLOCK16(Q8) f32_block16((const float *)(const void *)planes, plane_stride / 4, d, n, stream, cv, Q8)
    TL_Q8_DISPATCH(q8_mode(cv, cv->ddt), TL_F32_BLOCK16);
#undef TL_F32_BLOCK16
}

/* ---- 3 f32 planes -> packed 8-bit pixels (AVX2) --------------------------
 * Quantizing NCHW f32 into NHWC 8-bit codes with C = 3 in one pass, 32
 * pixels a step: each plane's 32 floats through the pack network into one
 * register of codes, then the interleave's byte shuffles (x86_tables.h,
 * the AVX2 interleave's network) into 96 bytes, streamed where the plan
 * streams (32-byte stores from a line start: whole lines every 2 steps).
 * The tile path (a row conversion per plane into L1, then the byte
 * interleave) ran at 0.35-0.40x the streaming copy from DRAM (Zen 5). */
TL_FN void f32_ilv3_step(const float *const *pl, size_t i, uint8_t *d, const vi k[3][3], const tl_cvt *cv, int q8,
                         int sgn, int nt)
{
    vi c[3], o[3];
    TL_UNROLL
    for (int p = 0; p < 3; p++) {
        const float *q = pl[p] + i;
        c[p] = pack4_8(quantize8_q8(cv, q8, _mm256_loadu_ps(q)), quantize8_q8(cv, q8, _mm256_loadu_ps(q + 8)),
                       quantize8_q8(cv, q8, _mm256_loadu_ps(q + 16)), quantize8_q8(cv, q8, _mm256_loadu_ps(q + 24)),
                       sgn);
    }
    TL_UNROLL
    for (int q = 0; q < 3; q++)
        o[q] = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(c[0], k[q][0]), _mm256_shuffle_epi8(c[1], k[q][1])),
                               _mm256_shuffle_epi8(c[2], k[q][2]));
    vi out[3] = {_mm256_permute2x128_si256(o[0], o[1], 0x20), _mm256_permute2x128_si256(o[2], o[0], 0x30),
                 _mm256_permute2x128_si256(o[1], o[2], 0x31)};
    TL_UNROLL
    for (int j = 0; j < 3; j++) {
        if (nt) _mm256_stream_si256((__m256i *)(d + 32 * j), out[j]);
        else _mm256_storeu_si256((__m256i *)(d + 32 * j), out[j]);
    }
}

/* m <= 32 pixels from pixel i through zeroed planes and a pixel buffer */
TL_FN void f32_ilv3_part(const float *const *pl, size_t i, uint8_t *d, size_t m, const vi k[3][3], const tl_cvt *cv,
                         int q8, int sgn)
{
    _Alignas(32) float in[3][32] = {{0}};
    _Alignas(32) uint8_t out[96];
    const float *tp[3] = {in[0], in[1], in[2]};
    for (int p = 0; p < 3; p++) memcpy(in[p], pl[p] + i, 4 * m);
    f32_ilv3_step(tp, 0, out, k, cv, q8, sgn, 0);
    memcpy(d, out, 3 * m);
}

/* n pixels: those before d's first line start (streaming), whole steps,
 * the rest */
TL_FN __attribute__((always_inline)) void f32_ilv3(const float *const *pl, uint8_t *d, size_t n, int nt,
                                                   const tl_cvt *cv, int q8)
{
    const int sgn = cv->ddt == TL_I8;
    vi k[3][3];
    for (int q = 0; q < 3; q++)
        for (int c = 0; c < 3; c++) k[q][c] = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)k_ilv3[q][c]));
    size_t head = 0, i;
    while (nt && head < 64 && ((uintptr_t)d + 3 * head) % 64) head++;
    if (head > n) head = n;
    for (i = 0; i < head; i += 32) f32_ilv3_part(pl, i, d + 3 * i, head - i < 32 ? head - i : 32, k, cv, q8, sgn);
    for (i = head; i + 32 <= n; i += 32) f32_ilv3_step(pl, i, d + 3 * i, k, cv, q8, sgn, nt);
    if (nt) _mm_sfence();
    if (i < n) f32_ilv3_part(pl, i, d + 3 * i, n - i, k, cv, q8, sgn);
}

void tl_f32_x8_interleave3_ukernel__avx2(const uint8_t *const *planes, uint8_t *d, size_t n, int stream,
                                         const tl_cvt *cv_in);
TL_KERNEL void tl_f32_x8_interleave3_ukernel__avx2(const uint8_t *const *planes, uint8_t *d, size_t n, int stream,
                                                   const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
    const float *pl[3] = {(const float *)(const void *)planes[0], (const float *)(const void *)planes[1],
                          (const float *)(const void *)planes[2]};
#define TL_F32_ILV3(Q8) f32_ilv3(pl, d, n, stream, cv, Q8)
    TL_Q8_DISPATCH(q8_mode(cv, cv->ddt), TL_F32_ILV3);
#undef TL_F32_ILV3
}

void tl_x8_f32_unblock16_ukernel__avx2(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const tl_cvt *cv_in);
TL_KERNEL void tl_x8_f32_unblock16_ukernel__avx2(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n,
                                                int stream, const tl_cvt *cv_in)
{
    tl_cvt cv_local;
    tl_cvt_constants(&cv_local, cv_in);
    const tl_cvt *cv = &cv_local;
    float *d = (float *)(void *)planes;
    size_t ps = plane_stride / 4;
    TL_BY_SOURCE_Q(cv, x8_unblock16, src, d, ps, n, stream, cv);
}
#endif
