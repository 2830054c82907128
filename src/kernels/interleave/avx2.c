/* Interleave, de-interleave and RGB -> RGB0 re-pack, AVX2: byte shuffles for
 * 3 channels of bytes, lane shuffles for 3 channels of 32-bit elements. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TL_FN static inline
#define TL_KERNEL
#include "kernels/interleave/interleave_lut.h" /* tl_rows3 */
#include "kernels/interleave/x86_wrap.h"
#include "kernels/convert/affine8_x86.h"
#include "kernels/move/move.h" /* tl_zero_bytes */
#include "kernels/ring_x86.h"

/* Non-temporal stores when the engine allows them (the call writes more than
 * the cache holds) and every store is 32-byte aligned (pixels are sequential, so lines fill whole). */
TL_FN int streams(int stream, const uint8_t *d, ptrdiff_t ds1)
{
    return stream && (((uintptr_t)d | (uintptr_t)ds1) & 31) == 0;
}

TL_FN void st256(uint8_t *p, __m256i v, int nt)
{
    if (nt) _mm256_stream_si256((__m256i *)p, v);
    else _mm256_storeu_si256((__m256i *)p, v);
}

/* ---- bytes, 3 channels ------------------------------------------------------------ */
#include "kernels/interleave/x86_tables.h"

TL_FN __m256i bmask(const uint8_t *m) { return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)m)); }

TL_FN __m256i ld32_or_zero(const uint8_t *p, size_t off)
{
    return p ? _mm256_loadu_si256((const __m256i *)(p + off)) : _mm256_setzero_si256();
}

/* 32 pixels from pixel i; each lane makes 48 bytes, stored in order. m:
 * the byte map (tl_map8) applied to each plane's register after the load,
 * w its constants (a missing plane stays zero). */
TL_FN __attribute__((always_inline)) void ilv_x8_3_step(const uint8_t *const *pl, size_t i, uint8_t *d,
                                                        const __m256i k[3][3], const tl_aff8_256 *w, int m, int nt)
{
    __m256i r = ld32_or_zero(pl[0], i), g = ld32_or_zero(pl[1], i), b = ld32_or_zero(pl[2], i), o[3];
    r = map8_bytes256(r, w, m), g = map8_bytes256(g, w, m), b = map8_bytes256(b, w, m);
    for (int q = 0; q < 3; q++)
        o[q] = _mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(r, k[q][0]), _mm256_shuffle_epi8(g, k[q][1])),
                               _mm256_shuffle_epi8(b, k[q][2]));
    uint8_t *p = d + 3 * i;
    st256(p, _mm256_permute2x128_si256(o[0], o[1], 0x20), nt);
    st256(p + 32, _mm256_permute2x128_si256(o[2], o[0], 0x30), nt);
    st256(p + 64, _mm256_permute2x128_si256(o[1], o[2], 0x31), nt);
}

/* 32 pixels per step. Streaming to pixels off 32-byte lines (the images
 * after the first when H x W is not a multiple of 32): the first step
 * plain, then whole lines from the first pixel that starts a 32-byte
 * block (NCHW -> NHWC u8 C = 3, 5 images, AVX2 path, Zen 5:
 * docs/performance.md). */
TL_FN __attribute__((always_inline)) size_t ilv_x8_3_map(const uint8_t *const *pl, uint8_t *d, size_t n, int stream,
                                                         const tl_aff8_256 *w, int m)
{
    int nt = streams(stream, d, 0);
    __m256i k[3][3];
    for (int b = 0; b < 3; b++)
        for (int c = 0; c < 3; c++) k[b][c] = bmask(k_ilv3[b][c]);
    size_t i = 0;
    if ((stream & TL_T2D_STREAM) && !nt && n >= 64) {
        ilv_x8_3_step(pl, 0, d, k, w, m, 0);
        while ((uintptr_t)(d + 3 * ++i) % 32) {}
        nt = 1;
    }
    for (; i + 32 <= n; i += 32) ilv_x8_3_step(pl, i, d, k, w, m, nt);
    if (nt) _mm_sfence();
    return i;
}

TL_FN size_t ilv_x8_3(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    return ilv_x8_3_map(pl, d, n, stream, NULL, TL_MAP8_MOVE);
}

TL_FN __m256i ld2x128(const uint8_t *lo, const uint8_t *hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)lo)),
                                   _mm_loadu_si128((const __m128i *)hi), 1);
}

/* 32 packed pixels at p -> v[c]: channel c's 32 bytes, mapped */
TL_FN __attribute__((always_inline)) void dilv_x8_3_step(const uint8_t *p, const __m256i k[3][3], __m256i v[3],
                                                         const tl_aff8_256 *w, int m)
{
    __m256i in[3] = {ld2x128(p, p + 48), ld2x128(p + 16, p + 64), ld2x128(p + 32, p + 80)};
    for (int c = 0; c < 3; c++)
        v[c] = map8_bytes256(_mm256_or_si256(_mm256_or_si256(_mm256_shuffle_epi8(in[0], k[c][0]),
                                                             _mm256_shuffle_epi8(in[1], k[c][1])),
                                             _mm256_shuffle_epi8(in[2], k[c][2])),
                             w, m);
}

/* 32 pixels a step; m: the byte map (tl_map8) applied to each plane's
 * register before it is stored, w its constants. Streaming into planes
 * off 32-byte lines (H x W not a multiple of 32), 128 pixels a step go
 * through each plane's L1 ring (ring_x86.h) and leave as whole lines;
 * plain stores had read every plane line first (NHWC -> NCHW u8 C = 3,
 * AVX2 path, Zen 5: docs/performance.md). */
TL_FN __attribute__((always_inline)) size_t dilv_x8_3_map(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n,
                                                          int stream, const tl_aff8_256 *w, int m)
{
    int nt = streams(stream, d, ds1);
    __m256i k[3][3], v[3];
    for (int c = 0; c < 3; c++)
        for (int b = 0; b < 3; b++) k[c][b] = bmask(k_dlv3[c][b]);
    size_t i = 0;
    if ((stream & TL_T2D_STREAM) && !nt && n >= 256) {
        _Alignas(64) uint8_t ring[3 * TL_RING_BYTES];
        for (; i + 128 <= n; i += 128) {
            for (size_t j = 0; j < 128; j += 32) {
                dilv_x8_3_step(s + 3 * (i + j), k, v, w, m);
                for (int c = 0; c < 3; c++) _mm256_store_si256((__m256i *)(ring + c * TL_RING_BYTES + 64 + j), v[c]);
            }
            for (int c = 0; c < 3; c++) tl_ring_step(d + c * ds1, i, ring + c * TL_RING_BYTES);
        }
        for (int c = 0; c < 3; c++) tl_ring_end(d + c * ds1, i, ring + c * TL_RING_BYTES);
        _mm_sfence();
    }
    for (; i + 32 <= n; i += 32) {
        dilv_x8_3_step(s + 3 * i, k, v, w, m);
        for (int c = 0; c < 3; c++) st256(d + c * ds1 + i, v[c], nt);
    }
    if (nt) _mm_sfence();
    return i;
}

TL_FN size_t dilv_x8_3(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    return dilv_x8_3_map(s, d, ds1, n, stream, NULL, TL_MAP8_MOVE);
}

/* The rows kernels: each byte map (tl_map8) a constant in its own loop, so
 * no map is tested per register (TIDL's v / 2 into i8 is 2 operations per
 * plane register instead of 7 widened). cv NULL: a plain move. */
TL_FN __attribute__((always_inline)) void dilv_rows(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                                    const tl_cvt *cv, const tl_aff8_256 *w, int m)
{
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->packed_row;
        uint8_t *d = dst + (ptrdiff_t)r * g->plane_row;
        size_t i = dilv_x8_3_map(s, d, g->plane, g->n, stream, w, m);
        if (i < g->n && g->n >= 32) dilv_x8_3_map(s + 3 * (g->n - 32), d + (g->n - 32), g->plane, 32, 0, w, m);
        else
            for (; i < g->n; i++)
                for (int c = 0; c < 3; c++) d[c * g->plane + (ptrdiff_t)i] = tl_map8_code(s[3 * i + (size_t)c], cv, m);
        for (int c = 0; c < 3; c++) { /* a few bytes each: stores, not memset calls */
            tl_zero_bytes(d + c * g->plane - (ptrdiff_t)g->head, g->head);
            tl_zero_bytes(d + c * g->plane + (ptrdiff_t)g->n, g->tail);
        }
    }
}

/* Rows of packed 3-byte pixels into 3 planes in one call (tl_rows3: TIDL's
 * padded planes, each planar row with head zero bytes before it and tail
 * after): the 2d executor otherwise ran once per image row, a third of the
 * time at TIDL's 296-pixel rows (perf). cv: the plan's conversion when it
 * is a byte map (tl_map8_of: TIDL's i8 with scale 0.5, identity
 * quantizations), mapped in the registers; NULL: a plain move. A row's last
 * pixels: one more step over its last 32 (written twice, same values). */
void tl_x8_deinterleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                            const tl_cvt *cv);
TL_KERNEL void tl_x8_deinterleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                      int stream, const tl_cvt *cv)
{
    const int map = cv ? tl_map8_of(cv) : TL_MAP8_MOVE;
    const tl_aff8_256 w = map8_init256(cv, map);
#define TL_DILV(M) dilv_rows(src, dst, g, stream, cv, &w, M)
    TL_MAP8_SWITCH(map, TL_DILV)
#undef TL_DILV
}

TL_FN __attribute__((always_inline)) void ilv_rows(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                                   const tl_cvt *cv, const tl_aff8_256 *w, int m)
{
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->plane_row;
        const uint8_t *pl[3] = {s, s + g->plane, s + 2 * g->plane};
        uint8_t *d = dst + (ptrdiff_t)r * g->packed_row;
        size_t i = ilv_x8_3_map(pl, d, g->n, stream, w, m);
        if (i < g->n && g->n >= 32) {
            size_t o = g->n - 32;
            const uint8_t *last[3] = {pl[0] + o, pl[1] + o, pl[2] + o};
            ilv_x8_3_map(last, d + 3 * o, 32, 0, w, m);
        } else
            for (; i < g->n; i++)
                for (int c = 0; c < 3; c++) d[3 * i + (size_t)c] = tl_map8_code(pl[c][i], cv, m);
    }
}

/* The way back, 3 planar rows (TIDL's padded planes: the padding is not
 * read) into rows of packed pixels in one call, the same maps in the
 * registers; a row's last pixels one overlapping step. */
void tl_x8_interleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                          const tl_cvt *cv);
TL_KERNEL void tl_x8_interleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                    int stream, const tl_cvt *cv)
{
    const int map = cv ? tl_map8_of(cv) : TL_MAP8_MOVE;
    const tl_aff8_256 w = map8_init256(cv, map);
#define TL_ILV(M) ilv_rows(src, dst, g, stream, cv, &w, M)
    TL_MAP8_SWITCH(map, TL_ILV)
#undef TL_ILV
}

/* ---- 32-bit, 3 channels: 8 pixels per step ------------------------------------------ */
TL_FN __m256 ldf_or_zero(const uint8_t *p, size_t off)
{
    return p ? _mm256_loadu_ps((const float *)(p + off)) : _mm256_setzero_ps();
}

TL_FN size_t ilv_x32_3(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    int nt = streams(stream, d, 0);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        __m256 r = ldf_or_zero(pl[0], 4 * i), g = ldf_or_zero(pl[1], 4 * i), b = ldf_or_zero(pl[2], 4 * i);
        __m256 rg0 = _mm256_unpacklo_ps(r, g), rg1 = _mm256_unpackhi_ps(r, g);
        __m256 x = _mm256_shuffle_ps(b, rg0, _MM_SHUFFLE(2, 2, 0, 0));
        __m256 o0 = _mm256_shuffle_ps(rg0, x, _MM_SHUFFLE(2, 0, 1, 0));         /* r0 g0 b0 r1 */
        __m256 y = _mm256_shuffle_ps(g, b, _MM_SHUFFLE(1, 1, 1, 1));
        __m256 o1 = _mm256_shuffle_ps(y, rg1, _MM_SHUFFLE(1, 0, 2, 0));         /* g1 b1 r2 g2 */
        __m256 p = _mm256_shuffle_ps(b, rg1, _MM_SHUFFLE(2, 2, 2, 2));
        __m256 q = _mm256_shuffle_ps(rg1, b, _MM_SHUFFLE(3, 3, 3, 3));
        __m256 o2 = _mm256_shuffle_ps(p, q, _MM_SHUFFLE(2, 0, 2, 0));           /* b2 r3 g3 b3 */
        uint8_t *o = d + 12 * i;
        st256(o, _mm256_castps_si256(_mm256_permute2f128_ps(o0, o1, 0x20)), nt);
        st256(o + 32, _mm256_castps_si256(_mm256_permute2f128_ps(o2, o0, 0x30)), nt);
        st256(o + 64, _mm256_castps_si256(_mm256_permute2f128_ps(o1, o2, 0x31)), nt);
    }
    if (nt) _mm_sfence();
    return i;
}

TL_FN __m256 ldf2x128(const float *lo, const float *hi)
{
    return _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(lo)), _mm_loadu_ps(hi), 1);
}

TL_FN size_t dilv_x32_3(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    int nt = streams(stream, d, ds1);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const float *p = (const float *)(s + 12 * i);
        __m256 a = ldf2x128(p, p + 12), b = ldf2x128(p + 4, p + 16), c = ldf2x128(p + 8, p + 20);
        __m256 bc = _mm256_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2));
        __m256 r = _mm256_shuffle_ps(a, bc, _MM_SHUFFLE(2, 0, 3, 0));
        __m256 ab = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1));
        bc = _mm256_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3));
        __m256 g = _mm256_shuffle_ps(ab, bc, _MM_SHUFFLE(2, 0, 2, 0));
        ab = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2));
        __m256 bl = _mm256_shuffle_ps(ab, c, _MM_SHUFFLE(3, 0, 2, 0));
        st256(d + 4 * i, _mm256_castps_si256(r), nt);
        st256(d + ds1 + 4 * i, _mm256_castps_si256(g), nt);
        st256(d + 2 * ds1 + 4 * i, _mm256_castps_si256(bl), nt);
    }
    if (nt) _mm_sfence();
    return i;
}

/* ---- RGB -> RGB0: 8 pixels (24 -> 32 bytes) per step ---------------------------------- */
/* RGB -> RGB0 bytes, 8 pixels a step: two 12-byte groups into the lanes and
 * one byte shuffle (zero lanes by the shuffle's high bit); map: a tl_map8
 * code, a move or the u8 <-> i8 saturation of an identity quantization in
 * the same register (a byte minimum / maximum keeps the zero lanes zero), so
 * the re-pack is the whole conversion (kDLA_HWC4 i8 from an RGB u8 image and
 * back into RGB0 pixels). */
TL_FN __attribute__((always_inline)) void repack3_0_1(const uint8_t *src, uint8_t *dst, size_t n, int map, int nt)
{
    nt = nt && (uintptr_t)dst % 32 == 0; /* (whole 32-byte stores, two a line) */
    const __m256i k = _mm256_setr_epi8(0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128,
                                       0, 1, 2, -128, 3, 4, 5, -128, 6, 7, 8, -128, 9, 10, 11, -128);
    size_t i = 0;
    /* each 16-byte load reads 4 bytes past its 12: stop while 4 spare bytes remain */
    for (; i + 8 <= n && 3 * i + 28 <= 3 * n; i += 8) {
        __m256i v = ld2x128(src + 3 * i, src + 3 * i + 12);
        st256(dst + 4 * i, map8_bytes256(_mm256_shuffle_epi8(v, k), NULL, map), nt);
    }
    if (nt) _mm_sfence();
    for (; i < n; i++) {
        for (int c = 0; c < 3; c++) dst[4 * i + (size_t)c] = tl_map8_code(src[3 * i + (size_t)c], NULL, map);
        dst[4 * i + 3] = 0;
    }
}

void tl_x8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_x8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt)
{
    repack3_0_1(src, dst, n, TL_MAP8_MOVE, nt);
}

void tl_u8_i8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_u8_i8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt)
{
    repack3_0_1(src, dst, n, TL_MAP8(TL_MAP8_SAT, 0, 1), nt);
}

void tl_i8_u8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_i8_u8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt)
{
    repack3_0_1(src, dst, n, TL_MAP8(TL_MAP8_SAT, 1, 0), nt);
}

TL_ILV_PLANES(tl_x8_interleave3_ukernel__avx2, 1, 3, ilv_x8_3)
TL_ILV_T2D(tl_x8_interleave3_t2d_ukernel__avx2, tl_x8_interleave3_ukernel__avx2, 1, 3)
TL_ILV_PLANES(tl_x32_interleave3_ukernel__avx2, 4, 3, ilv_x32_3)
TL_ILV_T2D(tl_x32_interleave3_t2d_ukernel__avx2, tl_x32_interleave3_ukernel__avx2, 4, 3)
TL_DILV_T2D(tl_x8_deinterleave3_ukernel__avx2, 1, 3, dilv_x8_3, 32)
TL_DILV_T2D(tl_x32_deinterleave3_ukernel__avx2, 4, 3, dilv_x32_3, 8)
#endif
