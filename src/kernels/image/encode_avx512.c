/* AVX-512 real-value kernel (kernels/image/encode.h): 16 values a step;
 * the FMA form uses AVX-512 F's fused multiply-adds. Tails by masks. */
#if defined(__x86_64__) && defined(__AVX512F__)
#include <immintrin.h>

#include "kernels/image/encode.h"

#define TL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))

/* mode is a constant in each loop below: no test per vector */
TL_TARGET static inline __m512 real16(__m128i b, const tl_img_real *r, size_t k, int mode)
{
    __m512 a = _mm512_sub_ps(_mm512_cvtepi32_ps(_mm512_cvtepu8_epi32(b)), _mm512_loadu_ps(r->mean + k));
    __m512 rcp = _mm512_loadu_ps(r->rcp + k);
    if (mode == TL_REAL_MUL) return _mm512_mul_ps(a, rcp);
    if (mode == TL_REAL_FMA) {
        __m512 q = _mm512_mul_ps(a, rcp);
        __m512 e = _mm512_fnmadd_ps(q, _mm512_loadu_ps(r->std + k), a); /* a - q * std, exact */
        return _mm512_fmadd_ps(e, rcp, q);
    }
    return _mm512_div_ps(a, _mm512_loadu_ps(r->std + k));
}

TL_TARGET static inline void real_loop(const uint8_t *src, float *dst, size_t n, const tl_img_real *r, int mode)
{
    size_t i = 0, k = 0;
    for (; i + 16 <= n; i += 16, k = k + 16 == TL_REAL_PERIOD ? 0 : k + 16)
        _mm512_storeu_ps(dst + i, real16(_mm_loadu_si128((const __m128i *)(src + i)), r, k, mode));
    if (i == n) return;
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1);
    __m128i b = _mm_maskz_loadu_epi8(m, src + i); /* AVX-512 BW + VL: the path's */
    _mm512_mask_storeu_ps(dst + i, m, real16(b, r, k, mode));
}

TL_TARGET void tl_u8_real_ukernel__avx512(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    switch (r->mode) {
    case TL_REAL_MUL: real_loop(src, dst, n, r, TL_REAL_MUL); return;
    case TL_REAL_FMA: real_loop(src, dst, n, r, TL_REAL_FMA); return;
    default: real_loop(src, dst, n, r, TL_REAL_DIV); return;
    }
}
#endif

/* AVX-512 VBMI: 64 output bytes a step by one byte permute of the 64-byte
 * window at the step's first pixel, the pad bytes zeroed by its mask. */
#if defined(__x86_64__) && defined(__AVX512F__)
__attribute__((target("avx512f,avx512bw,avx512vbmi"))) void
tl_x8_expand_ukernel__avx512vbmi(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out)
{
    const __m512i idx = _mm512_loadu_si512(x->idx);
    const __mmask64 keep = (__mmask64)x->keep;
    const size_t bytes = (size_t)x->bytes, ps = (size_t)x->ps;
    if (ps > 64) { tl_x8_expand_ukernel__scalar(in, n, x, out); return; }
    const size_t per = 64 / ps;
    size_t i = 0;
    for (; i + per <= n; i += per, in += per * bytes, out += 64)
        _mm512_storeu_si512(out, _mm512_maskz_permutexvar_epi8(keep, idx, _mm512_loadu_si512(in)));
    tl_x8_expand_ukernel__scalar(in, n - i, x, out);
}
#endif

/* ---- 8-bit codes into padded pixels, real values into plane rows, border
 * rows (kernels/image/encode.h). The first two need VBMI's byte permutes;
 * their stores are aligned to 64 bytes after a masked head, where the row's
 * alignment allows it (a misaligned 64-byte store writes two lines). */
#if defined(__x86_64__) && defined(__AVX512F__)
#define TL_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))
/* Loops over channels and output vectors have constant counts per
 * specialisation; unrolled, their constants stay in registers (0.37 ms
 * against 0.41 for NCHW f32 rows). Without optimisation GCC ignores the
 * hint with a warning, so it is only given when optimising. */
#if defined(__OPTIMIZE__)
#define TL_UNROLL _Pragma("GCC unroll 16")
#else
#define TL_UNROLL
#endif
/* the loops below are specialised per constant argument: always inlined */
#define TL_VBMI_INLINE static inline __attribute__((always_inline, target("avx512f,avx512bw,avx512vbmi")))

static inline __mmask64 low_bytes(size_t n) { return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1; }

/* 256-entry byte table (four 64-byte vectors) at the bytes of x */
TL_VBMI_INLINE __m512i lut256(__m512i x, __mmask64 top, const __m512i *t)
{
    __m512i lo = _mm512_permutex2var_epi8(t[0], x, t[1]), hi = _mm512_permutex2var_epi8(t[2], x, t[3]);
    return _mm512_mask_blend_epi8(top, lo, hi);
}

/* m <= 16 pixels from px to out: the codes (TABLES: 0 none, 1 shared, else
 * one per channel), then PS / 4 output vectors, the last ones cut to m. */
TL_VBMI_INLINE void pix8_step(const uint8_t *px, size_t m, uint8_t *out, const tl_img_pix8 *k,
                                     const __m512i t[4][4], const __m512i *idx, int tables, int ps)
{
    __m512i x = _mm512_maskz_loadu_epi8(low_bytes(m * (size_t)k->dc), px);
    if (tables > 0) {
        __mmask64 top = _mm512_movepi8_mask(x);
        __m512i codes = lut256(x, top, t[0]);
        TL_UNROLL
        for (int c = 1; c < tables; c++) codes = _mm512_mask_mov_epi8(codes, (__mmask64)k->chan[c], lut256(x, top, t[c]));
        x = codes;
    }
    const __mmask64 keep = (__mmask64)k->keep;
    size_t bytes = m * (size_t)ps;
    TL_UNROLL
    for (int o = 0; o < ps / 4; o++) {
        __m512i v = _mm512_maskz_permutexvar_epi8(keep, idx[o], x);
        if (bytes >= 64 * (size_t)(o + 1)) _mm512_storeu_si512(out + 64 * o, v);
        else if (bytes > 64 * (size_t)o) _mm512_mask_storeu_epi8(out + 64 * o, low_bytes(bytes - 64 * (size_t)o), v);
    }
}

TL_VBMI_INLINE void pix8_loop(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out, int tables, int ps)
{
    __m512i t[4][4], idx[16];
    TL_UNROLL
    for (int c = 0; c < tables; c++)
        for (int q = 0; q < 4; q++) t[c][q] = _mm512_loadu_si512(k->code[c] + 64 * q);
    TL_UNROLL
    for (int o = 0; o < ps / 4; o++) idx[o] = _mm512_loadu_si512(k->idx[o]);
    const size_t dc = (size_t)k->dc;
    size_t head = (uintptr_t)out % (size_t)ps ? 0 : (size_t)(-(uintptr_t)out & 63) / (size_t)ps;
    if (head > n) head = n;
    if (head) pix8_step(px, head, out, k, t, idx, tables, ps);
    size_t i = head;
    for (px += head * dc, out += head * (size_t)ps; i + 16 <= n; i += 16, px += 16 * dc, out += 16 * (size_t)ps)
        pix8_step(px, 16, out, k, t, idx, tables, ps);
    if (i < n) pix8_step(px, n - i, out, k, t, idx, tables, ps);
}

/* one loop per table count and pixel size: the step's loops unroll */
TL_VBMI_INLINE void pix8_sizes(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out, int tables)
{
    switch (k->ps) {
    case 4: pix8_loop(px, n, k, out, tables, 4); return;
    case 8: pix8_loop(px, n, k, out, tables, 8); return;
    case 16: pix8_loop(px, n, k, out, tables, 16); return;
    case 32: pix8_loop(px, n, k, out, tables, 32); return;
    default: pix8_loop(px, n, k, out, tables, 64); return;
    }
}

TL_VBMI void tl_x8_code_pixels_ukernel__avx512vbmi(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out)
{
    switch (k->tables) {
    case 0: pix8_sizes(px, n, k, out, 0); return;
    case 1: pix8_sizes(px, n, k, out, 1); return;
    case 3: pix8_sizes(px, n, k, out, 3); return;
    default: pix8_sizes(px, n, k, out, 4); return;
    }
}

/* The constants of one channel's division form, in registers. */
typedef struct plane_consts {
    __m512i pick;                   /* lane i's low byte: pixel i's byte of the channel */
    __m512 mean, rcp, std;
} plane_consts;

/* m <= 16 pixels: per channel, its bytes into 32-bit lanes by one permute,
 * the division form MODE, a store cut to m. */
TL_VBMI_INLINE void planes_step(const uint8_t *px, size_t m, const plane_consts *k, uint8_t *const *out, size_t at,
                                int dc, int mode)
{
    __m512i x = _mm512_maskz_loadu_epi8(low_bytes(m * (size_t)dc), px);
    TL_UNROLL
    for (int c = 0; c < dc; c++) {
        __m512i v = _mm512_maskz_permutexvar_epi8((__mmask64)0x1111111111111111ull, k[c].pick, x);
        __m512 a = _mm512_sub_ps(_mm512_cvtepi32_ps(v), k[c].mean), q;
        if (mode == TL_REAL_MUL) q = _mm512_mul_ps(a, k[c].rcp);
        else if (mode == TL_REAL_FMA) {
            q = _mm512_mul_ps(a, k[c].rcp);
            q = _mm512_fmadd_ps(_mm512_fnmadd_ps(q, k[c].std, a), k[c].rcp, q); /* a - q * std, exact */
        } else q = _mm512_div_ps(a, k[c].std);
        if (m == 16) _mm512_storeu_ps(out[c] + at, q);
        else _mm512_mask_storeu_ps(out[c] + at, (__mmask16)((1u << m) - 1), q);
    }
}

TL_VBMI_INLINE void planes_loop(const uint8_t *px, size_t n, const tl_img_real *chan, uint8_t *const *out, int dc,
                                int mode)
{
    plane_consts k[4];
    uint8_t *o[4]; /* locals: stores through uint8_t * could change the caller's array */
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    TL_UNROLL
    for (int c = 0; c < dc; c++) {
        o[c] = out[c];
        k[c].pick = _mm512_add_epi32(_mm512_mullo_epi32(lanes, _mm512_set1_epi32(dc)), _mm512_set1_epi32(c));
        k[c].mean = _mm512_set1_ps(chan[c].mean[0]), k[c].rcp = _mm512_set1_ps(chan[c].rcp[0]);
        k[c].std = _mm512_set1_ps(chan[c].std[0]);
    }
    /* the first plane's stores aligned (the others too where the plane
     * stride is a multiple of 64, as in NCHW at any width multiple of 16) */
    size_t head = (uintptr_t)out[0] % 4 ? 0 : (size_t)(-(uintptr_t)out[0] & 63) / 4, i = 0;
    if (head > n) head = n;
    if (head) planes_step(px, head, k, o, 0, dc, mode);
    for (i = head; i + 16 <= n; i += 16) planes_step(px + i * (size_t)dc, 16, k, o, 4 * i, dc, mode);
    if (i < n) planes_step(px + i * (size_t)dc, n - i, k, o, 4 * i, dc, mode);
}

/* one loop per channel count and form: the channel loop unrolls */
TL_VBMI_INLINE void planes_forms(const uint8_t *px, size_t n, const tl_img_real *chan, uint8_t *const *out, int dc)
{
    switch (chan[0].mode) {
    case TL_REAL_MUL: planes_loop(px, n, chan, out, dc, TL_REAL_MUL); return;
    case TL_REAL_FMA: planes_loop(px, n, chan, out, dc, TL_REAL_FMA); return;
    default: planes_loop(px, n, chan, out, dc, TL_REAL_DIV); return;
    }
}

TL_VBMI void tl_u8_real_planes_ukernel__avx512vbmi(const uint8_t *px, size_t n, int dc, const tl_img_real *chan,
                                                   uint8_t *const *out)
{
    switch (dc) {
    case 1: planes_forms(px, n, chan, out, 1); return;
    case 3: planes_forms(px, n, chan, out, 3); return;
    default: planes_forms(px, n, chan, out, 4); return;
    }
}

void tl_x8_fill_period_ukernel__avx512(uint8_t *dst, size_t n, const uint8_t *pat, size_t period)
{
    size_t head = (size_t)(-(uintptr_t)dst & 63);
    if (head > n) head = n;
    if (head) _mm512_mask_storeu_epi8(dst, low_bytes(head), _mm512_loadu_si512(pat));
    const __m512i v = _mm512_loadu_si512(pat + head % period); /* the pattern at the first aligned byte */
    size_t i = head;
    for (; i + 64 <= n; i += 64) _mm512_store_si512(dst + i, v);
    if (i < n) _mm512_mask_storeu_epi8(dst + i, low_bytes(n - i), v);
}
#endif
