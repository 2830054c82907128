/* The move family's pixel spread and gather, AVX-512 VBMI: one byte permute
 * (vpermb) per 64 bytes moves every pixel of a register at once, where the
 * scalar kernels take a word move per pixel (a 3-byte RGB pixel into a
 * 16-byte RKNN NC1HWC2 pixel: 4 pixels a step; 6-byte f16 RGB into an 8-byte
 * DLA HWC4 pixel: 8 a step). Pixels are a power-of-two size up to 64 bytes
 * on their strided side; the permute's index table and its zeroing mask are
 * made once by the plan (tl_px_perm_spread / tl_px_perm_gather, move.h).
 * Compiled without ISA flags (the name is not an ISA's): the functions carry
 * target attributes, and the pixels executor calls them only on a CPU with
 * VBMI. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdbool.h>

#include "kernels/kernels.h" /* tl_store_line */
#include "kernels/move/move.h"
#include "kernels/row_end512.h"

#define TL_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

/* m runs of rd bytes, dense in t, into m pixels of w bytes, dense in d,
 * each kept byte plus add. Every step loads 64 bytes from its first run: a
 * tile has them, a source for tl_x8_spread_direct__avx512vbmi's pixels.
 * nt: whole steps stored non-temporally (d on a line; the caller fences). */
TL_VBMI static inline __m512i spread_step(__m512i idx, uint64_t keep, __m512i a, const uint8_t *t)
{
    return _mm512_maskz_add_epi8(keep, _mm512_permutexvar_epi8(idx, _mm512_loadu_si512((const void *)t)), a);
}

TL_VBMI void tl_x8_spread_ukernel__avx512vbmi(const uint8_t *t, size_t rd, uint8_t *d, size_t m, size_t w,
                                              const uint8_t *perm, uint64_t keep, int nt, uint8_t add)
{
    const __m512i idx = _mm512_loadu_si512((const void *)perm), a = _mm512_set1_epi8((char)add);
    const size_t per = 64 / w;
    size_t i = 0;
    for (; i + per <= m; i += per, t += per * rd, d += 64) tl_store_line(d, spread_step(idx, keep, a, t), nt);
    if (i < m) _mm512_mask_storeu_epi8(d, ~0ull >> (64 - (m - i) * w), spread_step(idx, keep, a, t));
}

/* How many of m pixels the spread above takes from a source with `avail`
 * readable bytes from t: its steps start every 64 / w pixels, each reading
 * 64 bytes, so the last step must start 64 bytes before the end. */
size_t tl_x8_spread_direct__avx512vbmi(size_t rd, size_t w, size_t m, size_t avail)
{
    size_t per = 64 / w;
    if (avail < 64) return 0;
    size_t n = ((avail - 64) / (per * rd) + 1) * per;
    return n < m ? n : m;
}

/* m pixels of ss bytes, dense in s, to their first rs bytes, dense in t.
 * Reads nothing past the last pixel's rs bytes. `sat` saturates u8 <-> i8
 * in the register (0 none, 1 to i8, 2 to u8); `exact` stores only the runs'
 * bytes (a destination), else up to 64 bytes past them (an L1 tile with
 * room for them: one plain store per step). */
enum { SAT_NONE = 0, SAT_TO_I8 = 1, SAT_TO_U8 = 2 };
TL_VBMI static inline __m512i saturate(__m512i v, int sat)
{
    if (sat == SAT_TO_I8) return _mm512_min_epu8(v, _mm512_set1_epi8(127));
    if (sat == SAT_TO_U8) return _mm512_max_epi8(v, _mm512_setzero_si512());
    return v;
}

TL_VBMI static inline __m512i gather_step(__m512i idx, __m512i v, int sat)
{
    return saturate(_mm512_permutexvar_epi8(idx, v), sat);
}

TL_VBMI static inline void gather(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m, const uint8_t *perm,
                                  int sat, int exact)
{
    const __m512i idx = _mm512_loadu_si512((const void *)perm);
    const size_t per = 64 / ss;
    const __mmask64 step = ~0ull >> (64 - per * rs);
    size_t i = 0;
    for (; i + per < m; i += per, s += 64, t += per * rs) { /* the last pixel's stride may end past s */
        __m512i v = gather_step(idx, _mm512_loadu_si512((const void *)s), sat);
        if (exact) _mm512_mask_storeu_epi8(t, step, v);
        else _mm512_storeu_si512((void *)t, v);
    }
    if (i < m) {
        __mmask64 ld = ~0ull >> (64 - ((m - i - 1) * ss + rs)), st = ~0ull >> (64 - (m - i) * rs);
        _mm512_mask_storeu_epi8(t, st, gather_step(idx, _mm512_maskz_loadu_epi8(ld, s), sat));
    }
}

TL_VBMI void tl_x8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                              const uint8_t *perm)
{
    gather(s, ss, t, rs, m, perm, SAT_NONE, 0);
}

/* The same saturating u8 -> i8 and i8 -> u8 (identity quantizations), with
 * exact stores: straight into a destination, which is only stored to. */
TL_VBMI void tl_u8_i8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                                 const uint8_t *perm)
{
    gather(s, ss, t, rs, m, perm, SAT_TO_I8, 1);
}

TL_VBMI void tl_i8_u8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                                 const uint8_t *perm)
{
    gather(s, ss, t, rs, m, perm, SAT_TO_U8, 1);
}
/* ---- the line gather (move.h: tl_px_lines) ---------------------------------- */
TL_VBMI static inline __m512i lut_step(__m512i x, const __m512i t[4])
{
    __m512i lo = _mm512_permutex2var_epi8(t[0], x, t[1]), hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
    return _mm512_mask_blend_epi8(_mm512_movepi8_mask(x), lo, hi);
}

/* ---- u8 -> f16 spread: the plan's 256 answers looked up, then spread -------
 * m pixels of k u8 codes, dense in s (exactly m * k bytes read), into m
 * pixels of w bytes in d (DLA kDLA_HWC4 f16 from RGB: k = 3, w = 8). Any
 * u8 -> f16 rule, quantized or not, has 256 answers, which the plan keeps
 * as low and high bytes (lo, hi: tl_cvt lut16): two table lookups per 64 codes
 * (two vpermi2b and a blend each) and one two-source byte permute per
 * 64-byte line, which puts each code's two bytes where the spread's index
 * table (perm, keep: tl_px_perm_spread for runs of 2k bytes) wants them.
 * A line takes per * k codes (24 for RGB), so one 64-code register serves
 * 64 / (per * k) lines (2): 3 shuffles a line against 5 and 6 other
 * operations for converting 32 codes a line (0.31x memcpy at 256 KiB, the
 * conversion's operations being the time). */
/* Line t of a register whose first code is `first` codes before the
 * line group's: byte b takes byte perm[b] of the dense f16 run of its codes,
 * i.e. the low (first table) or high (second) byte of code first + t * cpl
 * + perm[b] / 2. */
TL_VBMI static inline __m512i f16_line_index(__m512i half, __m512i table, size_t code)
{
    return _mm512_or_si512(table, _mm512_and_si512(_mm512_add_epi8(half, _mm512_set1_epi8((char)code)),
                                                   _mm512_set1_epi8(63)));
}

/* The lookups' tables and the spread's index tables, made once a call. */
typedef struct f16_tables {
    __m512i lo_t[4], hi_t[4], idx[8];
    uint64_t keep;
} f16_tables;

/* One row of m pixels of k codes into pixels of w bytes, and its gap (end:
 * the row's bytes with it), lpr lines a register (a constant once
 * inlined): whole registers while more than one is left, then one register
 * whose lines end the row, zero past its pixels (tl_row_end512). `ahead`:
 * 64 bytes from any code of the row are readable (the next source row
 * follows), so whole registers are loaded plain past the row's end. */
TL_VBMI __attribute__((always_inline)) static inline void f16_spread_row(const uint8_t *s, size_t k, uint8_t *d,
                                                                      size_t m, size_t w, size_t end,
                                                                      const f16_tables *tb, int nt, size_t lpr,
                                                                      int ahead)
{
    const size_t per = 64 / w, gp = lpr * per; /* pixels a line, pixels a register */
    size_t i = 0;
    for (; i + gp < m && (ahead || (m - i) * k >= 64); i += gp) {
        __m512i c = _mm512_loadu_si512((const void *)(s + i * k));
        __m512i lo = lut_step(c, tb->lo_t), hi = lut_step(c, tb->hi_t);
        for (size_t t = 0; t < lpr; t++)
            tl_store_line(d + (i + t * per) * w, _mm512_maskz_permutex2var_epi8(tb->keep, lo, tb->idx[t], hi), nt);
    }
    for (; i < m; i += gp) {
        size_t left = m - i;
        __m512i c = ahead || left * k >= 64 ? _mm512_loadu_si512((const void *)(s + i * k))
                                            : _mm512_maskz_loadu_epi8(tl_first_bits((ptrdiff_t)(left * k)), s + i * k);
        __m512i lo = lut_step(c, tb->lo_t), hi = lut_step(c, tb->hi_t), v[8];
        for (size_t t = 0; t < lpr; t++)
            v[t] = _mm512_maskz_permutex2var_epi8(
                tb->keep & tl_first_bits(((ptrdiff_t)left - (ptrdiff_t)(t * per)) * (ptrdiff_t)w), lo, tb->idx[t], hi);
        if (left <= gp) {
            tl_row_end512(d, i * w, end, v, lpr, nt);
            return;
        }
        for (size_t t = 0; t < lpr; t++) tl_store_line(d + (i + t * per) * w, v[t], nt);
    }
}

/* The rows (tl_px_rows): all but the last ahead when the source rows are
 * 64 bytes or more apart. The geometry in locals: the stores may alias *g
 * for the compiler, which reloaded it every row, and each row's first load
 * waited for that. */
TL_VBMI __attribute__((always_inline)) static inline void f16_spread(const uint8_t *src, size_t k, uint8_t *dst,
                                                                  const tl_px_rows *g, size_t w,
                                                                  const f16_tables *tb, int nt, size_t lpr)
{
    const size_t m = g->n, rows = g->rows, end = m * w + g->gap;
    const ptrdiff_t ss = g->ss, ds = g->ds;
    size_t r = 0;
    if (ss >= 64)
        for (; r + 1 < rows; r++) f16_spread_row(src + (ptrdiff_t)r * ss, k, dst + (ptrdiff_t)r * ds, m, w, end, tb, nt, lpr, 1);
    for (; r < rows; r++) f16_spread_row(src + (ptrdiff_t)r * ss, k, dst + (ptrdiff_t)r * ds, m, w, end, tb, nt, lpr, 0);
}

TL_VBMI void tl_u8_f16_spread_rows_ukernel__avx512vbmi(const uint8_t *s, size_t k, uint8_t *d, const tl_px_rows *g,
                                                       size_t w, const uint8_t *perm, uint64_t keep,
                                                       const uint8_t *lo, const uint8_t *hi, int nt)
{
    const size_t cpl = 64 / w * k;                       /* codes a line */
    const size_t lpr = 64 / cpl < 8 ? 64 / cpl : 8;      /* lines a register */
    f16_tables tb;
    for (int q = 0; q < 4; q++) {
        tb.lo_t[q] = _mm512_loadu_si512((const void *)(lo + 64 * q));
        tb.hi_t[q] = _mm512_loadu_si512((const void *)(hi + 64 * q));
    }
    /* the index table split into the code (perm / 2) and the table (perm % 2) */
    const __m512i p = _mm512_loadu_si512((const void *)perm);
    const __m512i half = _mm512_and_si512(_mm512_srli_epi16(p, 1), _mm512_set1_epi8(127)); /* perm / 2 */
    const __m512i table = _mm512_slli_epi16(_mm512_and_si512(p, _mm512_set1_epi8(1)), 6);  /* 64: high bytes */
    for (size_t t = 0; t < lpr; t++) tb.idx[t] = f16_line_index(half, table, t * cpl);
    tb.keep = keep;
    if (lpr == 2) f16_spread(s, k, d, g, w, &tb, nt, 2); /* RGB into 4 halves */
    else f16_spread(s, k, d, g, w, &tb, nt, lpr);
}

TL_VBMI void tl_u8_f16_spread_ukernel__avx512vbmi(const uint8_t *s, size_t k, uint8_t *d, size_t m, size_t w,
                                                  const uint8_t *perm, uint64_t keep, const uint8_t *lo,
                                                  const uint8_t *hi, int nt)
{
    const tl_px_rows g = {m, 1, 0, 0, 0};
    tl_u8_f16_spread_rows_ukernel__avx512vbmi(s, k, d, &g, w, perm, keep, lo, hi, nt);
}

/* A load of 64 bytes, or of those of them below lim (part): masked only
 * where lim ends inside them (masked loads cost several plain ones here). */
TL_VBMI __attribute__((always_inline)) static inline __m512i load_part(const uint8_t *s, int part, ptrdiff_t lim)
{
    if (!part || lim >= 64) return _mm512_loadu_si512((const void *)s);
    return lim <= 0 ? _mm512_setzero_si512() : _mm512_maskz_loadu_epi8(tl_first_bits(lim), s);
}

/* 16 pixels of ss bytes into one group register (ss and rs constants in
 * each instance below: the loads unroll, the tables stay in registers) */
TL_VBMI __attribute__((always_inline)) static inline __m512i group(const uint8_t *s, size_t ss, const __m512i *mi,
                                                                  const __mmask64 *mk, int part, ptrdiff_t lim)
{
    if (ss == 4) return load_part(s, part, lim);
    __m512i g = _mm512_maskz_permutexvar_epi8(mk[0], mi[0], load_part(s, part, lim));
    for (size_t j = 1; j < ss / 4; j++)
        g = _mm512_mask_permutexvar_epi8(g, mk[j], mi[j], load_part(s + 64 * j, part, lim - 64 * (ptrdiff_t)j));
    return g;
}

/* One step: 64 pixels of ss bytes to 64 * rs bytes, line j from groups
 * 64j / rs / 16 and the next (constants once ss and rs are); part: only
 * the first `in` bytes read and `out` bytes written. */
TL_VBMI __attribute__((always_inline)) static inline void lines_step(const uint8_t *s, size_t ss, uint8_t *d, size_t rs,
                                                                    const __m512i *mi, const __mmask64 *mk,
                                                                    const __m512i *li, const __m512i *t, int sat,
                                                                    int nt, int part, ptrdiff_t in, ptrdiff_t out)
{
    __m512i g[4];
#pragma GCC unroll 4
    for (size_t q = 0; q < 4; q++) g[q] = group(s + 16 * ss * q, ss, mi, mk, part, in - (ptrdiff_t)(16 * ss * q));
#pragma GCC unroll 4
    for (size_t j = 0; j < rs; j++) {
        const size_t f = 64 * j / rs / 16;
        __m512i v = _mm512_permutex2var_epi8(g[f], li[j], g[f + 1 < 4 ? f + 1 : 3]);
        if (t) v = lut_step(v, t);
        v = saturate(v, sat);
        if (part) _mm512_mask_storeu_epi8(d + 64 * j, tl_first_bits(out - 64 * (ptrdiff_t)j), v);
        else tl_store_line(d + 64 * j, v, nt);
    }
}

TL_VBMI __attribute__((always_inline)) static inline void gather_lines(const uint8_t *s, size_t ss, uint8_t *d, size_t rs,
                                                                      const tl_px_rows *g, const tl_px_lines *L, const uint8_t *lut,
                                                                      int sat, int nt, size_t slices)
{
    __m512i mi[8], li[4], tv[4];
    __mmask64 mk[8];
    for (size_t j = 0; j < 8; j++) mi[j] = _mm512_loadu_si512((const void *)L->merge[j]), mk[j] = L->merge_keep[j];
    for (size_t j = 0; j < 4; j++) li[j] = _mm512_loadu_si512((const void *)L->line[j]);
    for (size_t j = 0; j < 4 && lut; j++) tv[j] = _mm512_loadu_si512((const void *)(lut + 64 * j));
    const __m512i *t = lut ? tv : NULL;
#define TL_LINES_STEP(src, dst, st) lines_step(src, ss, dst, rs, mi, mk, li, t, sat, st, 0, 0, 0)
#define TL_LINES_PART(src, dst, in, out) lines_step(src, ss, dst, rs, mi, mk, li, t, sat, 0, 1, (ptrdiff_t)(in), (ptrdiff_t)(out))
    TL_PX_LINES_ROWS(s, ss, rs, d, rs, g, nt, slices, TL_LINES_STEP, TL_LINES_PART);
#undef TL_LINES_STEP
#undef TL_LINES_PART
}

TL_VBMI void tl_x8_gather_lines_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *d, size_t rs, const tl_px_rows *g,
                                                   const tl_px_lines *L, const uint8_t *lut, int sat, int nt,
                                                   size_t slices)
{
#define TL_LINES_CASE(SS, RS)                                                                         \
    if (ss == SS && rs == RS) return gather_lines(s, SS, d, RS, g, L, lut, sat, nt, slices);
    TL_LINES_CASE(4, 2) TL_LINES_CASE(4, 3)
    TL_LINES_CASE(8, 2) TL_LINES_CASE(8, 3) TL_LINES_CASE(8, 4)
    TL_LINES_CASE(16, 2) TL_LINES_CASE(16, 3) TL_LINES_CASE(16, 4)
    TL_LINES_CASE(32, 2) TL_LINES_CASE(32, 3) TL_LINES_CASE(32, 4)
#undef TL_LINES_CASE
}
#endif
