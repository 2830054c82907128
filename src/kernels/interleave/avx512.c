/* AVX-512 F/BW/VL: interleave, de-interleave and RGB -> RGB0 re-pack of
 * bytes, and the 32-bit de-interleave, for 3 channels.
 *
 * Bytes: 64 pixels per step, 16 per 128-bit lane, with the AVX2 kernels'
 * byte shuffle tables. The shuffles are in-lane (vpshufb, one uop per 64
 * bytes on the 512-bit shuffle port); the lanes are moved by the loads and
 * stores: a lane is loaded by an insert from memory, stored by an extract to
 * memory, and neither uses the shuffle port. Streaming stores need whole
 * registers, and get them from two qword permutes per register.
 *
 * The last partial step repeats the last whole one (the same bytes again),
 * or, for rows shorter than a step, uses masked loads and stores: a call
 * never ends in a per-pixel loop (a TIDL row of 296 pixels is 5 steps). */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h" /* TL_UNROLL */

#define TL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
#define TL_FN static inline TL_TARGET
#define TL_KERNEL TL_TARGET
#include "kernels/interleave/x86_tables.h"
#include "kernels/interleave/x86_bytes3_512.h"
#include "kernels/interleave/x86_wrap.h"
#include "kernels/row_end512.h"

/* The byte bodies without a table (TL_X8_LUT is 0 here). */
TL_FN size_t ilv_x8_3_copy(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    return ilv_x8_3(pl, d, n, stream, NULL, TL_MAP8(TL_MAP8_MOVE, 0, 0));
}

TL_FN size_t dilv_x8_3_copy(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    return dilv_x8_3(s, d, ds1, n, stream, NULL, TL_MAP8(TL_MAP8_MOVE, 0, 0));
}

/* ---- 32-bit de-interleave: 16 packed pixels -> 3 planes per step -------------------- */
/* Channel c of pixel j is element 3j + c of the three registers: one
 * two-source permute for the elements in the first two, a masked permute
 * for those in the third. Rows off a 64-byte line go through the aligner. */
TL_FN void dlv32_3(__m512i a, __m512i b, __m512i c, __m512i v[3])
{
    v[0] = _mm512_mask_permutexvar_epi32(
        _mm512_permutex2var_epi32(a, _mm512_setr_epi32(0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 0, 0, 0, 0, 0), b), 0xF800,
        _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 4, 7, 10, 13), c);
    v[1] = _mm512_mask_permutexvar_epi32(
        _mm512_permutex2var_epi32(a, _mm512_setr_epi32(1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 0, 0, 0, 0, 0), b), 0xF800,
        _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 5, 8, 11, 14), c);
    v[2] = _mm512_mask_permutexvar_epi32(
        _mm512_permutex2var_epi32(a, _mm512_setr_epi32(2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 0, 0, 0, 0, 0, 0), b), 0xFC00,
        _mm512_setr_epi32(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 6, 9, 12, 15), c);
}

TL_FN size_t dilv_x32_3(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    __m512i v[3], prev[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    aligner al[3];
    TL_UNROLL
    for (int c = 0; c < 3; c++) aligner_init(&al[c], d + c * ds1);
    int nt = streams(stream, 0, 0); /* every full store below is aligned */
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const uint8_t *p = s + 12 * i;
        dlv32_3(_mm512_loadu_si512((const void *)p), _mm512_loadu_si512((const void *)(p + 64)),
                _mm512_loadu_si512((const void *)(p + 128)), v);
        TL_UNROLL
        for (int c = 0; c < 3; c++) {
            uint8_t *row = d + c * ds1;
            if (al[c].a == 0) store_line(row + 4 * i, v[c], nt);
            else if (i == 0) _mm512_mask_storeu_epi8(row, mask_n(al[c].a), v[c]); /* the head */
            else store_line(row + 4 * i - 64 + al[c].a, aligner_cat(&al[c], prev[c], v[c]), nt);
            prev[c] = v[c];
        }
    }
    if (nt) _mm_sfence();
    if (i > 0)
        TL_UNROLL
        for (int c = 0; c < 3; c++)
            if (al[c].a) _mm512_mask_storeu_epi8(d + c * ds1 + 4 * i - 64, ~mask_n(al[c].a), prev[c]);
    if (i < n) { /* the last 1..15 pixels: the last 16 again (same values), or masked */
        size_t m = n - i, j = n >= 16 ? n - 16 : i;
        const uint8_t *p = s + 12 * j;
        if (n >= 16) {
            dlv32_3(_mm512_loadu_si512((const void *)p), _mm512_loadu_si512((const void *)(p + 64)),
                    _mm512_loadu_si512((const void *)(p + 128)), v);
        } else {
            size_t e = 3 * m; /* elements left, < 48 */
            __mmask16 m0 = (__mmask16)mask_n(e > 16 ? 16 : e), m1 = (__mmask16)mask_n(e > 32 ? 16 : e > 16 ? e - 16 : 0);
            __mmask16 m2 = (__mmask16)mask_n(e > 32 ? e - 32 : 0);
            dlv32_3(_mm512_maskz_loadu_epi32(m0, p), _mm512_maskz_loadu_epi32(m1, p + 64),
                    _mm512_maskz_loadu_epi32(m2, p + 128), v);
        }
        TL_UNROLL
        for (int c = 0; c < 3; c++) {
            if (n >= 16) _mm512_storeu_si512((void *)(d + c * ds1 + 4 * j), v[c]);
            else _mm512_mask_storeu_epi32(d + c * ds1 + 4 * i, (__mmask16)mask_n(m), v[c]);
        }
    }
    return n;
}

/* ---- RGB -> RGB0: 16 pixels (48 -> 64 bytes) per step --------------------------------- */
/* A dword permute gives lane L the 12 bytes of its 4 pixels, a byte shuffle
 * spreads them and zeroes the 4th byte of each pixel. `sat`: the u8 <-> i8
 * saturation of identity quantizations in the register (0 none, 1 u8 -> i8,
 * 2 i8 -> u8; a zero lane stays zero), so a conversion does not go through
 * memory and the destination is only stored to. */
enum { SAT_NONE = 0, SAT_TO_I8 = 1, SAT_TO_U8 = 2 };
TL_FN __m512i repack_step(__m512i v, __m512i pd, __m512i sb, int sat)
{
    v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(pd, v), sb);
    if (sat == SAT_TO_I8) v = _mm512_min_epu8(v, _mm512_set1_epi8(127));
    if (sat == SAT_TO_U8) v = _mm512_max_epi8(v, _mm512_setzero_si512());
    return v;
}

TL_FN void repack3_0_1(const uint8_t *src, uint8_t *dst, size_t n, int sat, int nt)
{
    const __m512i pd = _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
    const __m512i sb = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128));
    size_t i = 0;
    /* whole 64-byte loads (16 bytes past the 48 used) while they stay inside
     * the row: a masked load is several times slower when it splits a line */
    for (; i + 22 <= n; i += 16) {
        /* dst + 4 i, i a multiple of 16: on a line when dst is */
        tl_store_line(dst + 4 * i, repack_step(_mm512_loadu_si512((const void *)(src + 3 * i)), pd, sb, sat), nt);
    }
    for (; i + 16 <= n; i += 16)
        _mm512_storeu_si512((void *)(dst + 4 * i), repack_step(_mm512_maskz_loadu_epi8(mask_n(48), src + 3 * i), pd, sb, sat));
    if (i < n) {
        size_t m = n - i;
        __m512i v = _mm512_maskz_loadu_epi8(mask_n(3 * m), src + 3 * i);
        _mm512_mask_storeu_epi8(dst + 4 * i, mask_n(4 * m), repack_step(v, pd, sb, sat));
    }
}

/* One row and its gap; `ahead`: 64 bytes from any of its pixels are
 * readable (the next source row follows), so its end is loaded plain. */
TL_FN __attribute__((always_inline)) void repack3_0_1_row(const uint8_t *s, uint8_t *d, size_t n, size_t end,
                                                          int sat, int nt, int ahead)
{
    const __m512i pd = _mm512_setr_epi32(0, 1, 2, 0, 3, 4, 5, 0, 6, 7, 8, 0, 9, 10, 11, 0);
    const __m512i sb = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128));
    /* whole steps: a 64-byte load reads 16 bytes past its 48 */
    const size_t whole = ahead ? n / 16 * 16 : n >= 22 ? (n - 6) / 16 * 16 : 0;
    size_t i = 0;
    for (; i < whole; i += 16)
        tl_store_line(d + 4 * i, repack_step(_mm512_loadu_si512((const void *)(s + 3 * i)), pd, sb, sat), nt);
    if (i == n) { /* the row ended on a step: its gap alone */
        tl_row_end512(d, 4 * n, end, NULL, 0, nt);
        return;
    }
    for (; i < n; i += 16) { /* the last pixels (fewer than 16 ahead, else 6 .. 21), then the gap */
        size_t m = n - i < 16 ? n - i : 16;
        __m512i v = ahead ? _mm512_loadu_si512((const void *)(s + 3 * i)) : _mm512_maskz_loadu_epi8(mask_n(3 * m), s + 3 * i);
        v = _mm512_maskz_mov_epi8(mask_n(4 * m), repack_step(v, pd, sb, sat));
        if (i + m < n) tl_store_line(d + 4 * i, v, nt);
        else tl_row_end512(d, 4 * i, end, &v, 1, nt);
    }
}

/* The same over rows of pixels (tl_px_rows), each row's gap zeroed by the
 * stores that end it: one call per image, where a call per row and a fill
 * pass for the gaps took half the time (NHWC u8 -> kDLA_HWC4 i8, 296-pixel
 * rows, Zen 5: 0.40 against 0.78x memcpy with one long row). The geometry
 * is read into locals: the stores may alias *g for the compiler, which then
 * reloaded it every row, and each row's first load waited for that (0.51
 * -> 0.56x). */
TL_FN __attribute__((always_inline)) void repack3_0_1_rows(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                           int sat, int nt)
{
    const size_t n = g->n, rows = g->rows, end = 4 * n + g->gap;
    const ptrdiff_t ss = g->ss, ds = g->ds;
    size_t r = 0;
    if (ss >= 64)
        for (; r + 1 < rows; r++) repack3_0_1_row(src + (ptrdiff_t)r * ss, dst + (ptrdiff_t)r * ds, n, end, sat, nt, 1);
    for (; r < rows; r++) repack3_0_1_row(src + (ptrdiff_t)r * ss, dst + (ptrdiff_t)r * ds, n, end, sat, nt, 0);
}

#define TL_REPACK_ROWS(name, sat)                                                                 \
    void name(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, int nt);                     \
    TL_KERNEL void name(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, int nt)            \
    {                                                                                             \
        repack3_0_1_rows(src, dst, g, sat, nt);                                                   \
    }
TL_REPACK_ROWS(tl_x8_repack3_0_1_rows_ukernel__avx512, SAT_NONE)
TL_REPACK_ROWS(tl_u8_i8_repack3_0_1_rows_ukernel__avx512, SAT_TO_I8)
TL_REPACK_ROWS(tl_i8_u8_repack3_0_1_rows_ukernel__avx512, SAT_TO_U8)

void tl_x8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
TL_KERNEL void tl_x8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt)
{
    repack3_0_1(src, dst, n, SAT_NONE, nt);
}

void tl_u8_i8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
TL_KERNEL void tl_u8_i8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt)
{
    repack3_0_1(src, dst, n, SAT_TO_I8, nt);
}

void tl_i8_u8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
TL_KERNEL void tl_i8_u8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt)
{
    repack3_0_1(src, dst, n, SAT_TO_U8, nt);
}

TL_ILV_PLANES(tl_x8_interleave3_ukernel__avx512, 1, 3, ilv_x8_3_copy)
TL_ILV_T2D(tl_x8_interleave3_t2d_ukernel__avx512, tl_x8_interleave3_ukernel__avx512, 1, 3)
TL_DILV_T2D(tl_x8_deinterleave3_ukernel__avx512, 1, 3, dilv_x8_3_copy, 64)
TL_DILV_T2D(tl_x32_deinterleave3_ukernel__avx512, 4, 3, dilv_x32_3, 16)
#endif
