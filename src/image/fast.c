/* Fast mode's resize of one plane (docs/image.md "Exact and fast mode").
 *
 * The taps are OpenCV's (resize.c: the same source coordinates, clamps and
 * nearest indices), so fast and exact mode sample the same places; only the
 * arithmetic differs. Weights are rounded from the 11-bit ones to 6 bits,
 * w1 = (w1_11 + 16) >> 5, w0 = 64 - w1 (a weight of 64 moves the tap one
 * sample on, with weights 64, 0), so a horizontal sum fits 16 bits
 * (tl_hlinear_fast_fn: pmaddubsw) and the vertical step is one rounded
 * multiply-high of the two rows' difference (tl_vlinear_fast_fn). A row or
 * column whose weights are (64, 0) is its tap's sample: h = 64 v and
 * (h + 0 + 32) >> 6 = v. Rows are read where they lie in the frame (no copy)
 * and handed whole to the kernels, which take their taps with wide loads. */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "image/image.h"

void tl_fz_free(tl_fz *fz)
{
    free(fz->ofs), free(fz->wx), free(fz->y0), free(fz->y1), free(fz->by), free(fz->base), free(fz->pair), free(fz->pick), free(fz->pick_words);
    memset(fz, 0, sizeof *fz);
}

/* 11-bit second weight to 6 bits; 64 = the next sample alone. */
static int w6(int16_t w11) { return (w11 + 16) >> 5; }

static tl_status columns(tl_fz *fz, const tl_rz *rz)
{
    const int cn = fz->cn;
    fz->pick_x = true;
    for (int32_t dx = 0; dx < fz->dw; dx++) {
        int32_t x = rz->xo[dx];
        int w1 = rz->method == TL_RZ_LINEAR ? w6(rz->xa[2 * dx + 1]) : 0;
        if (w1 == 64) x++, w1 = 0;  /* clamping made the last column weight 0: x + 1 < sw here */
        if (x + 1 >= fz->sw) w1 = 0; /* the edge: one sample */
        fz->pick_x &= w1 == 0;
        for (int c = 0; c < cn; c++) {
            size_t k = (size_t)dx * cn + c;
            fz->ofs[k] = x * cn + c;
            fz->wx[2 * k] = (int8_t)(64 - w1), fz->wx[2 * k + 1] = (int8_t)w1;
        }
    }
    return TL_OK;
}

static void rows(tl_fz *fz, const tl_rz *rz)
{
    for (int32_t dy = 0; dy < fz->dh; dy++) {
        int32_t y = rz->yo[dy];
        int b1 = rz->method == TL_RZ_LINEAR ? w6(rz->yb[2 * dy + 1]) : 0;
        if (b1 == 64) y++, b1 = 0;
        int32_t y0 = y < 0 ? 0 : y > fz->sh - 1 ? fz->sh - 1 : y;
        int32_t y1 = y + 1 < 0 ? 0 : y + 1 > fz->sh - 1 ? fz->sh - 1 : y + 1;
        if (y0 == y1) b1 = 0; /* both taps clamped to one row: (64 - b1) + b1 = 64 of it */
        fz->y0[dy] = y0, fz->y1[dy] = y1, fz->by[dy] = (uint8_t)b1;
    }
}

tl_status tl_fz_init(tl_fz *fz, int resize, int cn, int32_t sw, int32_t sh, int32_t dw, int32_t dh, const tl_image_kernels *k)
{
    memset(fz, 0, sizeof *fz);
    fz->cn = cn, fz->sw = sw, fz->sh = sh, fz->dw = dw, fz->dh = dh, fz->k = k;
    tl_rz rz; /* OpenCV's taps */
    TL_TRY(tl_rz_init(&rz, resize, cn, sw, sh, dw, dh));
    size_t n = (size_t)dw * cn;
    fz->ofs = malloc(sizeof(int32_t) * n), fz->wx = malloc(2 * n);
    fz->y0 = malloc(sizeof(int32_t) * (size_t)dh), fz->y1 = malloc(sizeof(int32_t) * (size_t)dh), fz->by = malloc((size_t)dh);
    size_t nb = (n + 31) / 32;
    fz->base = malloc(sizeof(int32_t) * nb), fz->pair = malloc(64 * nb), fz->pick = malloc(32 * nb), fz->pick_words = malloc(64 * nb);
    if (!fz->ofs || !fz->wx || !fz->y0 || !fz->y1 || !fz->by || !fz->base || !fz->pair || !fz->pick || !fz->pick_words) {
        tl_rz_free(&rz), tl_fz_free(fz);
        return tl_fail(TL_ERR_NOMEM, "image resize tables: out of memory");
    }
    columns(fz, &rz);
    rows(fz, &rz);
    int span = tl_taps_blocks(fz->ofs, cn, n, fz->base, fz->pair, fz->pick, fz->pick_words);
    fz->taps = (tl_taps){fz->ofs, fz->wx, cn, fz->base, fz->pair, fz->pick, fz->pick_words, span};
    tl_rz_free(&rz);
    return TL_OK;
}

static size_t up64(size_t n) { return (n + 63) & ~(size_t)63; }

size_t tl_fz_work_bytes(const tl_fz *fz)
{
    return 2 * up64((size_t)fz->sw * fz->cn + 128) + 2 * up64((size_t)fz->dw * fz->cn * sizeof(uint16_t));
}

void tl_fz_work_init(tl_fz_work *w, const tl_fz *fz, void *mem)
{
    uint8_t *p = mem;
    size_t line = up64((size_t)fz->sw * fz->cn + 128), row = up64((size_t)fz->dw * fz->cn * sizeof(uint16_t));
    w->line[0] = p, memset(p, 0, line), p += line;
    w->line[1] = p, memset(p, 0, line), p += line;
    w->h[0] = (uint16_t *)(void *)p, p += row;
    w->h[1] = (uint16_t *)(void *)p;
    w->tag[0] = w->tag[1] = -1;
}

/* Horizontal pass of source row sy, cached in one of two slots (rows come in
 * increasing order: the smaller tag is the stale one). */
static const uint16_t *hrow(const tl_fz *fz, tl_fz_work *w, int32_t sy, tl_fz_src_fn src, const void *ctx)
{
    for (int k = 0; k < 2; k++)
        if (w->tag[k] == sy) return w->h[k];
    int k = w->tag[0] < w->tag[1] ? 0 : 1;
    fz->k->hlinear_fast(src(ctx, sy, w->line[0]), &fz->taps, w->h[k], (size_t)fz->dw * fz->cn);
    w->tag[k] = sy;
    return w->h[k];
}

bool tl_fz_picks(const tl_fz *fz, int32_t dy) { return fz->by[dy] == 0 && fz->pick_x; }

int32_t tl_fz_lines(const tl_fz *fz, tl_fz_work *w, int32_t dy, tl_fz_src_fn src, const void *ctx, const uint8_t *line[2])
{
    line[0] = src(ctx, fz->y0[dy], w->line[0]);
    line[1] = fz->by[dy] ? src(ctx, fz->y1[dy], w->line[1]) : line[0];
    return fz->by[dy];
}

tl_fz_parts tl_fz_parts_of(const tl_fz *fz, tl_fz_work *w, int32_t dy, tl_fz_src_fn src, const void *ctx)
{
    const int32_t b1 = fz->by[dy];
    if (tl_fz_picks(fz, dy)) return (tl_fz_parts){src(ctx, fz->y0[dy], w->line[0]), NULL, NULL, 0};
    const uint16_t *h0 = hrow(fz, w, fz->y0[dy], src, ctx);
    const uint16_t *h1 = b1 ? hrow(fz, w, fz->y1[dy], src, ctx) : h0; /* b1 = 0: (h0 + 32) >> 6, row y0 alone */
    return (tl_fz_parts){NULL, h0, h1, b1};
}

void tl_fz_finish(const tl_fz *fz, const tl_fz_parts *p, uint8_t *out)
{
    const size_t n = (size_t)fz->dw * fz->cn;
    if (p->line) fz->k->pick(p->line, &fz->taps, out, n);
    else fz->k->vlinear_fast(p->h0, p->h1, p->b1, out, n);
}
