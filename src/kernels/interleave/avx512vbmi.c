/* The AVX-512 3-channel byte interleave and de-interleave with an 8-bit
 * conversion in the register (AVX-512 VBMI): each byte of a register goes
 * through the plan's byte map (a saturation, an add, TIDL's doubling: one
 * or two byte operations) or its 256-byte table (cv->lut, the element
 * rule's answer for every code: two vpermi2b and a blend), between the
 * shuffles and the stores (tl_x8_vbmi_map chooses).
 * An NHWC u8 image into TIDL's padded i8 planes (and back) is then one pass
 * over memory; the kernels without the table needed a table pass over an L1
 * tile and a move from it. The same bodies as avx512.c
 * (x86_bytes3_512.h); compiled without ISA flags (the name is not an ISA's):
 * the functions carry target attributes, and the 2d executor calls them only
 * on a CPU with VBMI. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/interleave/interleave_lut.h"
#include "kernels/kernels.h"      /* TL_UNROLL */
#include "kernels/move/move.h" /* tl_zero_bytes */

#define TL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define TL_FN static inline __attribute__((always_inline)) TL_TARGET
#define TL_KERNEL TL_TARGET
#define TL_X8_LUT 1
#include "kernels/interleave/x86_tables.h"
#include "kernels/interleave/x86_bytes3_512.h"
#include "kernels/interleave/x86_wrap.h"

TL_KERNEL void tl_x8_lut_deinterleave3_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, ptrdiff_t ds1,
                                                           size_t n, int stream, const tl_cvt *cv)
{
#define TL_DILV(M) dilv_x8_3(src, dst, ds1, n, stream, cv, M)
    TL_X8_VBMI_MAP_SWITCH(tl_x8_vbmi_map(cv), TL_DILV)
#undef TL_DILV
}

/* Without a table: the VBMI de-interleave's 6 shuffles a step, a registry
 * row (interleave.inc) listed before the F/BW/VL kernel; the same for the
 * interleave. */
TL_FN size_t dilv_x8_3_copy(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    return dilv_x8_3(s, d, ds1, n, stream, NULL, TL_MAP8(TL_MAP8_MOVE, 0, 0));
}
TL_DILV_T2D(tl_x8_deinterleave3_ukernel__avx512vbmi, 1, 3, dilv_x8_3_copy, 64)

/* The same for the interleave: whole output registers by byte permutes. */
TL_FN size_t ilv_x8_3_copy(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    return ilv_x8_3(pl, d, n, stream, NULL, TL_MAP8(TL_MAP8_MOVE, 0, 0));
}
TL_ILV_PLANES(tl_x8_interleave3_ukernel__avx512vbmi, 1, 3, ilv_x8_3_copy)
TL_ILV_T2D(tl_x8_interleave3_t2d_ukernel__avx512vbmi, tl_x8_interleave3_ukernel__avx512vbmi, 1, 3)

TL_KERNEL void tl_x8_lut_interleave3_ukernel__avx512vbmi(const uint8_t *const *planes, uint8_t *dst, size_t n,
                                                         int stream, const tl_cvt *cv)
{
#define TL_ILV(M) ilv_x8_3(planes, dst, n, stream, cv, M)
    TL_X8_VBMI_MAP_SWITCH(tl_x8_vbmi_map(cv), TL_ILV)
#undef TL_ILV
}

/* ---- rows (tl_rows3) ------------------------------------------------------------- */
/* Padded planar rows as one stream. When the planar rows are contiguous
 * but for their padding (plane_row == head + n + tail) and the packed rows
 * are dense, each plane from row 0's first pixel to the last row's last
 * is one byte stream in which a run of head + tail zero bytes follows
 * every row but the last. The 64-byte steps walk that stream, not the
 * rows: a step whose bytes cross a row's end carries the pad run in its
 * lanes (one byte permute), so every store is a whole step (whole aligned
 * lines through the aligner, streamed when the call streams, or each step
 * where it falls with TL_T2D_SPLIT) and nothing is done per row. Rows of at least 64 pixels, so a step crosses one row
 * end at most. */
static const uint8_t k_iota64[64] __attribute__((aligned(64))) = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};

/* Lanes [0, a) of v, then w zero bytes, then v's lanes from a on. */
TL_FN __m512i pads_in(__m512i v, size_t a, size_t w)
{
    __m512i iota = _mm512_load_si512((const void *)k_iota64);
    __mmask64 before = mask_n(a), upto = mask_n(a + w);
    __m512i idx = _mm512_mask_sub_epi8(iota, ~upto, iota, _mm512_set1_epi8((char)w));
    return _mm512_maskz_permutexvar_epi8(before | ~upto, idx, v);
}

/* A step k bytes into a row period (n pixels, then pad bytes): a pixels of
 * the row, then w pad bytes (a == 64, w == 0: no row end in the step; a ==
 * 0: the step starts inside the pad run, w of it left). */
TL_FN void step_pads(size_t k, size_t n, size_t pad, size_t *a, size_t *w)
{
    *a = 64, *w = 0;
    if (k + 64 <= n) return;
    if (k < n) *a = n - k, *w = pad;
    else *a = 0, *w = n + pad - k;
}

TL_FN bool padded_stream(const tl_rows3 *g, ptrdiff_t packed_row)
{
    return g->n >= 64 && packed_row == (ptrdiff_t)(3 * g->n) &&
           g->plane_row == (ptrdiff_t)(g->n + g->head + g->tail);
}

/* Packed pixels into the padded planes' streams (padded_stream), with the
 * store form a constant: nt (non-temporal whole lines), split (each step
 * where it falls), else aligned lines through the aligners. */
#define TL_ALWAYS static inline __attribute__((always_inline)) TL_TARGET
TL_ALWAYS void dilv_stream_as(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int nt, int split,
                              const tl_cvt *cv, int map)
{
    size_t n = g->n, pad = g->head + g->tail, period = n + pad, total = (g->rows - 1) * period + n, npx = g->rows * n;
    ptrdiff_t ds1 = g->plane;
    __m512i k[3][3], a[3], prev[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    bmap bm;
    bmap_init(&bm, cv, map);
    dlv3_tables(k);
    aligner al[3];
    TL_UNROLL
    for (int c = 0; c < 3; c++) aligner_init(&al[c], dst + c * ds1);
    size_t i = 0, q = 0, at = 0;    /* stream byte, source pixel, byte of the row period */
#define TL_DILV_STEP(W, LANES)                                                                    \
    do {                                                                                          \
        TL_DLV3_LOAD(src + 3 * q, a); /* 64 pixels: n >= 64 keeps the w extra ones in the image */ \
        if (nt) tl_prefetch_ahead(src + 3 * q, 192, 3 * (npx - q));                                \
        TL_UNROLL                                                                                 \
        for (int c = 0; c < 3; c++) {                                                             \
            __m512i v = bmap_apply(dlv3_channel(a, k, c), &bm, map);                                   \
            if (W) v = pads_in(v, LANES, W);                                                      \
            uint8_t *row = dst + c * ds1;                                                         \
            if (split) _mm512_storeu_si512((void *)(row + i), v);                                   \
            else if (al[c].a == 0) store_line(row + i, v, nt);                                         \
            else if (i == 0) _mm512_mask_storeu_epi8(row, mask_n(al[c].a), v); /* the head */    \
            else store_line(row + i - 64 + al[c].a, aligner_cat(&al[c], prev[c], v), nt);        \
            prev[c] = v;                                                                          \
        }                                                                                         \
        i += 64, q += 64 - (W), at += 64;                                                         \
    } while (0)
    while (i + 64 <= total) {
        /* the steps inside the row, then the one across its end */
        size_t inside = at < n ? (n - at) / 64 : 0, left = (total - i) / 64;
        for (inside = inside < left ? inside : left; inside; inside--) TL_DILV_STEP(0, 64);
        if (i + 64 > total) break;
        size_t lanes, w;
        step_pads(at, n, pad, &lanes, &w);
        if (w > 64 - lanes) w = 64 - lanes;
        TL_DILV_STEP(w, lanes);
        if (at >= period) at -= period;
    }
#undef TL_DILV_STEP
    if (nt) _mm_sfence();
    TL_UNROLL
    for (int c = 0; c < 3; c++) /* the rest of the last whole step */
        if (al[c].a && !split) _mm512_mask_storeu_epi8(dst + c * ds1 + i - 64, ~mask_n(al[c].a), prev[c]);
    if (i < total) { /* the last 1..63 bytes: the last row's last 64 pixels again */
        TL_DLV3_LOAD(src + 3 * (g->rows * n - 64), a);
        TL_UNROLL
        for (int c = 0; c < 3; c++)
            _mm512_storeu_si512((void *)(dst + c * ds1 + total - 64), bmap_apply(dlv3_channel(a, k, c), &bm, map));
    }
}

/* The store form decided once, not tested in every step (a third slower
 * with the tests in the loop: 64 rows of 1364 pixels into pad-1 planes,
 * kernel alone, Zen 5). */
TL_ALWAYS void dilv_stream(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream, const tl_cvt *cv,
                            int map)
{
    int nt = streams(stream & TL_T2D_STREAM, 0, 0);
    if (nt) dilv_stream_as(src, dst, g, 1, 0, cv, map);
    else if (stream & TL_T2D_SPLIT) dilv_stream_as(src, dst, g, 0, 1, cv, map);
    else dilv_stream_as(src, dst, g, 0, 0, cv, map);
}

/* The padded planes' streams into packed pixels (padded_stream): a step
 * whose 64 pixels cross a row end takes the lanes from the pad run on from
 * a second load w bytes further (a blend, no permute). */
TL_FN void ilv_stream(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream, const tl_cvt *cv, int map)
{
    size_t n = g->n, pad = g->head + g->tail, period = n + pad, npx = g->rows * n;
    const uint8_t *pl[3] = {src, src + g->plane, src + 2 * g->plane};
    __m512i k[3][3], w3[3];
    bmap bm;
    bmap_init(&bm, cv, map);
    TL_UNROLL
    for (int r = 0; r < 3; r++)
        TL_UNROLL
        for (int c = 0; c < 3; c++) k[r][c] = bmask(k_ilv3[r][c]); /* (the masked step's) */
    size_t q = 0; /* the first pixel whose bytes start a line (streaming), as ilv_x8_3 */
    if (stream & TL_T2D_STREAM)
        while (q < 63 && ((uintptr_t)dst + 3 * q) % 64) q++;
    if (q) ilv3_part(pl[0], pl[1], pl[2], dst, 0, q, k, &bm, map); /* row 0: n >= 64 */
    int nt = streams(stream & TL_T2D_STREAM, (uintptr_t)(dst + 3 * q), 0);
    size_t o = q, at = q; /* plane stream byte, byte of the row period */
    for (; q + 64 <= npx; q += 64) {
        size_t lanes, w;
        step_pads(at, n, pad, &lanes, &w);
        __m512i v[3];
        TL_UNROLL
        for (int c = 0; c < 3; c++) {
            __m512i x = _mm512_loadu_si512((const void *)(pl[c] + o + w));
            if (lanes && w) x = _mm512_mask_blend_epi8(mask_n(lanes), x, _mm512_loadu_si512((const void *)(pl[c] + o)));
            v[c] = bmap_apply(x, &bm, map);
        }
        ilv3_regs(v[0], v[1], v[2], k, w3);
        uint8_t *p = dst + 3 * q;
        TL_UNROLL
        for (int j = 0; j < 3; j++) {
            if (nt) _mm512_stream_si512((void *)(p + 64 * j), w3[j]);
            else _mm512_storeu_si512((void *)(p + 64 * j), w3[j]);
        }
        o += 64 + w;
        at += 64 + w;
        if (at >= period) at -= period;
    }
    if (nt) _mm_sfence();
    if (q < npx) { /* the last 1..63 pixels: the last row's last 64 again */
        size_t last = (g->rows - 1) * period + n - 64;
        __m512i v[3];
        TL_UNROLL
        for (int c = 0; c < 3; c++) v[c] = bmap_apply(_mm512_loadu_si512((const void *)(pl[c] + last)), &bm, map);
        ilv3_regs(v[0], v[1], v[2], k, w3);
        TL_UNROLL
        for (int j = 0; j < 3; j++) _mm512_storeu_si512((void *)(dst + 3 * (npx - 64) + 64 * j), w3[j]);
    }
}

/* The padding of planar row r (its first pixel at `row`) in each plane:
 * `head` bytes before the row if `before`, `tail` after it if `after`. */
TL_FN void row_pads(uint8_t *row, const tl_rows3 *g, int before, int after)
{
    for (int c = 0; c < 3; c++) {
        if (before) tl_zero_bytes(row + c * g->plane - (ptrdiff_t)g->head, g->head);
        if (after) tl_zero_bytes(row + c * g->plane + g->n, g->tail);
    }
}

/* Rows in one call: as one stream where the layout allows, else row by row
 * (the row bodies above, each row's padding after it). Inlined once per
 * map (a constant), so no step tests it. */
TL_ALWAYS void dilv_rows(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream, const tl_cvt *cv, int map)
{
    if (padded_stream(g, g->packed_row)) {
        dilv_stream(src, dst, g, stream, cv, map);
        /* the runs between rows are in the streams: the first row's head, the last row's tail */
        row_pads(dst, g, 1, 0);
        row_pads(dst + (ptrdiff_t)(g->rows - 1) * g->plane_row, g, 0, 1);
        return;
    }
    for (size_t r = 0; r < g->rows; r++) {
        uint8_t *d = dst + (ptrdiff_t)r * g->plane_row;
        dilv_x8_3(src + (ptrdiff_t)r * g->packed_row, d, g->plane, g->n, stream, cv, map);
        row_pads(d, g, 1, 1);
    }
}

TL_ALWAYS void ilv_rows(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream, const tl_cvt *cv, int map)
{
    if (padded_stream(g, g->packed_row)) {
        ilv_stream(src, dst, g, stream, cv, map);
        return;
    }
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->plane_row, *planes[3] = {s, s + g->plane, s + 2 * g->plane};
        ilv_x8_3(planes, dst + (ptrdiff_t)r * g->packed_row, g->n, stream, cv, map);
    }
}

TL_KERNEL void tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                                int stream, const tl_cvt *cv)
{
#define TL_DILV(M) dilv_rows(src, dst, g, stream, cv, M)
    TL_X8_VBMI_MAP_SWITCH(tl_x8_vbmi_map(cv), TL_DILV)
#undef TL_DILV
}

TL_KERNEL void tl_x8_lut_interleave3_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                              int stream, const tl_cvt *cv)
{
#define TL_ILV(M) ilv_rows(src, dst, g, stream, cv, M)
    TL_X8_VBMI_MAP_SWITCH(tl_x8_vbmi_map(cv), TL_ILV)
#undef TL_ILV
}
#endif
