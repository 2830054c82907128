/* Scalar twins of the image row kernels: the definitions, one value at a time. */
#include <stdbool.h>
#include <string.h>

#include "kernels/image/image.h"

static inline uint8_t sat_u8(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

void tl_u8_vlinear_ukernel__scalar(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) out[i] = sat_u8(((((h0[i] >> 4) * b0) >> 16) + (((h1[i] >> 4) * b1) >> 16) + 2) >> 2);
}

void tl_u8_hlinear_ukernel__scalar(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n)
{
    for (size_t k = 0; k < n; k++) h[k] = line[ofs[k]] * w[2 * k] + line[ofs[k] + cn] * w[2 * k + 1];
}

void tl_yuv_rgb_ukernel__scalar(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out)
{
    uint8_t *R = out->ch[0], *G = out->ch[1], *B = out->ch[2];
    const int64_t step = out->step;
    for (int64_t x = x0, k = 0; x < x1; x++, k += step) {
        int64_t ci = (x >> r->cshift) * r->cstep;
        int32_t y = r->y[x], u = r->u[ci] - 128, v = r->v[ci] - 128;
        int32_t t = (y > r->yoff ? y - r->yoff : 0) * r->cy + (1 << 19);
        R[k] = sat_u8((t + r->cvr * v) >> 20);
        G[k] = sat_u8((t + r->cvg * v + r->cug * u) >> 20);
        B[k] = sat_u8((t + r->cub * u) >> 20);
    }
}

/* ---- fast mode ---- */
/* Value of the word w of the fused kernels' order (tl_taps). */
static int fused_value(int w) { return w % 8 < 4 ? 4 * (w / 8) + w % 8 : 16 + 4 * (w / 8) + w % 8 - 4; }

int tl_taps_blocks(const int32_t *ofs, int cn, size_t n, int32_t *base, uint8_t *pair, uint8_t *pick, uint8_t *pick_words)
{
    int span = 1;
    memset(pair, 0, 64 * ((n + 31) / 32)), memset(pick, 0, 32 * ((n + 31) / 32));
    for (size_t b = 0; b < (n + 31) / 32; b++) {
        bool fits = 32 * b + 32 <= n;
        for (size_t j = 0; j < 32 && fits; j++) {
            int64_t rel = (int64_t)ofs[32 * b + j] - ofs[32 * b];
            fits = rel >= 0 && rel + cn <= 127;
            if (fits && rel + cn + 1 > span) span = (int)(rel + cn + 1);
            pair[64 * b + 2 * j] = pick[32 * b + j] = (uint8_t)rel, pair[64 * b + 2 * j + 1] = (uint8_t)(rel + cn);
        }
        base[b] = fits ? ofs[32 * b] : -1;
        for (int w = 0; w < 32; w++) pick_words[64 * b + 2 * w] = pick_words[64 * b + 2 * w + 1] = pick[32 * b + fused_value(w)];
    }
    return span;
}

void tl_u8_pick_ukernel__scalar(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n)
{
    for (size_t k = 0; k < n; k++) out[k] = line[t->ofs[k]];
}

void tl_u8_hlinear_fast_ukernel__scalar(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n)
{
    const int32_t *ofs = t->ofs;
    const int8_t *w = t->w;
    for (size_t k = 0; k < n; k++) h[k] = (uint16_t)(line[ofs[k]] * w[2 * k] + line[ofs[k] + t->cn] * w[2 * k + 1]);
}

void tl_u8_vlinear_fast_ukernel__scalar(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        int32_t t = ((h1[i] - h0[i]) * b1 + 32) >> 6; /* >= -h0[i]: the sum below is >= 0 */
        out[i] = (uint8_t)((h0[i] + t + 32) >> 6);
    }
}

void tl_yuv_rgb_fast_ukernel__scalar(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    for (size_t x = 0; x < n; x++, rgb += 3) {
        int32_t y = r->y[x], u = r->uv[2 * x + r->vfirst] - 128, v = r->uv[2 * x + !r->vfirst] - 128;
        int32_t t = (((y > r->yoff ? y - r->yoff : 0) * 257 * r->yg) >> 16) + 32;
        rgb[0] = sat_u8((t + r->cvr * v) >> 6);
        rgb[1] = sat_u8((t + r->cug * u + r->cvg * v) >> 6);
        rgb[2] = sat_u8((t + r->cub * u) >> 6);
    }
}

/* The definition of the fused row: the kernels in turn, 64 pixels at a time. */
void tl_yuv_rgb_fused_ukernel__scalar(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    uint8_t y[64], uv[128];
    uint16_t h0[128], h1[128];
    for (size_t x = 0; x < n; x += 64) {
        size_t m = n - x < 64 ? n - x : 64;
        tl_yuv_fast part = *r;
        if (r->y_taps) {
            tl_taps t = *r->y_taps;
            t.ofs += x;
            tl_u8_pick_ukernel__scalar(r->y_line, &t, y, m);
            part.y = y;
        } else {
            part.y = r->y + x;
        }
        tl_taps c = *r->uv_taps;
        c.ofs += 2 * x, c.w += 4 * x;
        tl_u8_hlinear_fast_ukernel__scalar(r->uv_line0, &c, h0, 2 * m);
        tl_u8_hlinear_fast_ukernel__scalar(r->uv_line1, &c, h1, 2 * m);
        tl_u8_vlinear_fast_ukernel__scalar(h0, h1, r->b1, uv, 2 * m);
        part.uv = uv;
        tl_yuv_rgb_fast_ukernel__scalar(&part, m, rgb + 3 * x);
    }
}
