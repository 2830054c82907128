/* Row kernels of tl_image (src/image): the vertical step of the bilinear
 * resize and YUV 4:2:0 -> RGB of a run of pixels, each bit-identical to its
 * scalar twin (scalar.c), which is written from the definitions in
 * src/image/resize.c and src/image/plan.c. Not installed. */
#ifndef TL_KERNELS_IMAGE_H
#define TL_KERNELS_IMAGE_H

#include <stddef.h>
#include <stdint.h>

/* out[i] = sat_u8((((h0[i] >> 4) * b0 >> 16) + ((h1[i] >> 4) * b1 >> 16) + 2) >> 2):
 * OpenCV's INTER_LINEAR vertical step on 8-bit images. 0 <= h < 2^19, 0 <= b <= 2048. */
typedef void (*tl_vlinear_fn)(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n);

/* h[k] = line[ofs[k]] * w[2k] + line[ofs[k] + cn] * w[2k + 1]: OpenCV's
 * INTER_LINEAR horizontal step on 8-bit pixels of cn (1..3) channels, one
 * output per channel and destination pixel. May read 16 bytes from each
 * line + ofs[k]; where w[2k + 1] is 0 the second byte's value does not count. */
typedef void (*tl_hlinear_fn)(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n);

/* YUV rows: pixel x has Y y[x] and chroma u[(x >> cshift) * cstep], v[...]
 * (cshift 1: 4:2:0 and 4:2:2 chroma pairs, 0: a chroma sample per pixel;
 * cstep 2 with u, v one byte apart: NV12/NV21; 1: I420). Coefficients in
 * 2^-20 (src/image/plan.c): R = (max(0, Y - yoff) cy + 2^19 + cvr V') >> 20, ... */
typedef struct tl_yuv_rows {
    const uint8_t *y, *u, *v;
    int32_t cshift, cstep;
    int32_t yoff, cy, cvr, cvg, cug, cub;
} tl_yuv_rows;

/* Where a colour kernel puts the k-th pixel of its run: channel c (R, G, B)
 * at ch[c][k * step]. RGB bytes are {p, p + 1, p + 2} with step 3
 * (tl_rgb_bytes); one row per channel has step 1, which the planar
 * destinations take without a deinterleave. */
typedef struct tl_rgb_out {
    uint8_t *ch[3];
    int64_t step;
} tl_rgb_out;

static inline tl_rgb_out tl_rgb_bytes(uint8_t *p)
{
    tl_rgb_out o = {{p, p + 1, p + 2}, 3};
    return o;
}

/* The stores a vector kernel has for an output: RGB bytes, channel rows, or
 * neither (its scalar twin writes it). */
enum { TL_RGB_OTHER, TL_RGB_BYTES, TL_RGB_ROWS };

static inline int tl_rgb_form(const tl_rgb_out *o)
{
    if (o->step == 1) return TL_RGB_ROWS;
    return o->step == 3 && o->ch[1] == o->ch[0] + 1 && o->ch[2] == o->ch[0] + 2 ? TL_RGB_BYTES : TL_RGB_OTHER;
}

/* o moved on by k pixels. */
static inline void tl_rgb_skip(tl_rgb_out *o, int64_t k)
{
    for (int c = 0; c < 3; c++) o->ch[c] += k * o->step;
}

/* Pixels x0 .. x1-1 into out (pixel x is the run's (x - x0)-th). */
typedef void (*tl_yuv_rgb_fn)(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out);

/* ---- fast mode (docs/image.md "Exact and fast mode"): 16-bit arithmetic ---- */

/* The taps of a row's n output values: value k reads line[ofs[k]] and
 * line[ofs[k] + cn] with weights w[2k], w[2k + 1] (0..64, summing to 64).
 * The same taps by blocks of 32 values, for kernels with a 128-byte byte
 * permute: block b reads line + base[b] .. + 127, value 32 b + j's samples
 * are bytes pair[64 b + 2 j] and pair[64 b + 2 j + 1] of it, and pick[32 b + j]
 * = pair[64 b + 2 j]; base[b] = -1 when the block's taps spread wider (and
 * for the last, partial block). pick_words[64 b ..] are the block's pick
 * indices each twice, as the 32 words of a 512-bit register in the order
 * the fused colour kernels keep pixels (two 16-value halves packed lane by
 * lane: word 8 l + i is value 4 l + i for i < 4, 16 + 4 l + i - 4 above), so
 * one byte permute gives those words as Y * 257. Made once per plan by
 * tl_taps_blocks. */
typedef struct tl_taps {
    const int32_t *ofs;
    const int8_t *w;
    int cn;
    const int32_t *base;
    const uint8_t *pair, *pick, *pick_words;
    int span;            /* every block's pairs lie in its first `span` bytes (<= 128) */
} tl_taps;

/* The taps from value k on (k a multiple of 32: whole blocks). */
static inline tl_taps tl_taps_at(const tl_taps *t, size_t k)
{
    tl_taps r = *t;
    r.ofs += k, r.w += 2 * k, r.base += k / 32, r.pair += 2 * k, r.pick += k, r.pick_words += 2 * k;
    return r;
}

/* Fill base[(n + 31) / 32], pair[64 ...], pick[32 ...], pick_words[64 ...]
 * from ofs and cn; returns `span`. */
int tl_taps_blocks(const int32_t *ofs, int cn, size_t n, int32_t *base, uint8_t *pair, uint8_t *pick, uint8_t *pick_words);

/* out[k] = line[t->ofs[k]]: the taps of rows and columns whose weights are
 * all one. May read 128 bytes from each line + ofs[k]. */
typedef void (*tl_pick_fn)(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n);

/* h[k] = line[ofs[k]] * w[2k] + line[ofs[k] + cn] * w[2k + 1] (tl_taps), so
 * h <= 16320. May read 128 bytes from each line + ofs[k]; where w[2k + 1] is
 * 0 the second byte's value does not count. */
typedef void (*tl_hlinear_fast_fn)(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n);

/* out[i] = (h0[i] + t + 32) >> 6 with t = ((h1[i] - h0[i]) * b1 + 32) >> 6
 * (arithmetic shift): the weights 64 - b1, b1 as one rounded step from h0
 * (pmulhrsw of the difference by b1 << 9). 0 <= b1 <= 63, h <= 16320. */
typedef void (*tl_vlinear_fast_fn)(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n);

/* A resized Y row and its resized chroma row, one (U, V) pair per pixel
 * (U at uv[2x + vfirst], V at uv[2x + !vfirst]), to RGB with 6-bit coefficients:
 *   t = ((max(0, Y - yoff) * 257) * yg) >> 16          (yg: the luma gain in 2^-6 / 257 * 2^16)
 *   R = sat_u8((t + 32 + cvr V') >> 6), G = sat_u8((t + 32 + cug U' + cvg V') >> 6),
 *   B = sat_u8((t + 32 + cub U') >> 6), with U' = U - 128, V' = V - 128, |c| <= 255. */
typedef struct tl_yuv_fast {
    const uint8_t *y, *uv;
    int32_t vfirst;
    int32_t yoff, yg, cvr, cvg, cug, cub;
    /* tl_yuv_rgb_fused_fn only: the Y row still to be picked (y_taps: Y[x] =
     * y_line[y_taps->ofs[x]], tl_pick_fn; NULL: Y is y), and the chroma row
     * still to be resized from two source rows (uv = tl_vlinear_fast_fn of
     * the tl_hlinear_fast_fn rows of uv_line0 and uv_line1 by uv_taps, second
     * weight b1; uv is not read). */
    const uint8_t *y_line;
    const tl_taps *y_taps;
    const uint8_t *uv_line0, *uv_line1;
    const tl_taps *uv_taps;
    int32_t b1;
} tl_yuv_fast;

/* Pixels 0 .. n-1 as RGB bytes at rgb[3 x]. */
typedef void (*tl_yuv_rgb_fast_fn)(const tl_yuv_fast *r, size_t n, uint8_t *rgb);

/* The same RGB bytes with the pick of the Y row and both chroma steps done
 * in the same pass (tl_yuv_fast's last fields): a destination row made from
 * the frame's rows with no row stored and read back in between.
 * Bit-identical to tl_pick_fn, tl_hlinear_fast_fn (twice),
 * tl_vlinear_fast_fn and tl_yuv_rgb_fast_fn run in turn (the scalar twin
 * does exactly that). Reads 128 bytes from each line + ofs like them. */
typedef tl_yuv_rgb_fast_fn tl_yuv_rgb_fused_fn;

typedef struct tl_image_kernels {
    const char *isa;
    tl_vlinear_fn vlinear;
    tl_hlinear_fn hlinear;
    tl_yuv_rgb_fn yuv_rgb;
    tl_pick_fn pick;
    tl_hlinear_fast_fn hlinear_fast;
    tl_vlinear_fast_fn vlinear_fast;
    tl_yuv_rgb_fast_fn yuv_rgb_fast;
    tl_yuv_rgb_fused_fn yuv_rgb_fused; /* NULL: the path has none; pick, vlinear_fast, yuv_rgb_fast in turn */
} tl_image_kernels;

void tl_u8_vlinear_ukernel__scalar(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_ukernel__sse2(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_ukernel__avx2(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_ukernel__neon(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n);
void tl_u8_hlinear_ukernel__scalar(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n);
void tl_u8_hlinear_ukernel__avx2(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n);
void tl_u8_hlinear_ukernel__neon(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n);
void tl_yuv_rgb_ukernel__scalar(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out);
void tl_yuv_rgb_ukernel__avx2(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out);
void tl_yuv_rgb_ukernel__neon(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out);
void tl_yuv_rgb_ukernel__sse2(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out);
void tl_u8_vlinear_ukernel__avx512(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n);
void tl_u8_hlinear_ukernel__neon(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n);

void tl_u8_pick_ukernel__scalar(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n);
void tl_u8_pick_ukernel__avx2(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n);
void tl_u8_pick_ukernel__neon(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n);
void tl_u8_hlinear_fast_ukernel__neon(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n);
void tl_u8_pick_ukernel__avx512vbmi(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n);
void tl_u8_hlinear_fast_ukernel__scalar(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n);
void tl_u8_hlinear_fast_ukernel__avx2(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n);
void tl_u8_hlinear_fast_ukernel__avx512vbmi(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n);
void tl_u8_vlinear_fast_ukernel__scalar(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_fast_ukernel__sse2(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_fast_ukernel__avx2(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_fast_ukernel__avx512(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n);
void tl_u8_vlinear_fast_ukernel__neon(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n);
void tl_yuv_rgb_fast_ukernel__scalar(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fast_ukernel__sse2(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fast_ukernel__avx2(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fast_ukernel__avx512(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fast_ukernel__avx512vbmi(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fast_ukernel__neon(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fused_ukernel__scalar(const tl_yuv_fast *r, size_t n, uint8_t *rgb);
void tl_yuv_rgb_fused_ukernel__avx512vbmi(const tl_yuv_fast *r, size_t n, uint8_t *rgb);

/* The kernels of one instruction set (TL_ISA_*; scalar where a kernel has no
 * such form), or NULL when this build or machine lacks it. */
const tl_image_kernels *tl_image_kernels_for(int isa);
/* The default path's kernels (TL_CPU honoured, as for plans). */
const tl_image_kernels *tl_image_kernels_best(void);

#endif
