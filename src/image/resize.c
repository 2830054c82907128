/* Resizing rows of a u8 image with OpenCV 4.6's arithmetic (cv::resize,
 * modules/imgproc/src/resize.cpp), written from its definitions:
 *
 * - INTER_LINEAR: source coordinate f = (float)((d + 0.5) * scale - 0.5) with
 *   scale = 1. / ((double)dst / src); i = floor(f), weights
 *   rint((1 - frac) * 2048), rint(frac * 2048) (float products, ties to even).
 *   Columns clamp (i < 0 or i >= src - 1: weight 2048 on the edge pixel), rows
 *   clamp their index only. Horizontal sums are exact ints; the vertical step
 *   is the vector form every x86-64 build runs:
 *   (((h0 >> 4) * b0 >> 16) + ((h1 >> 4) * b1 >> 16) + 2) >> 2, saturated.
 * - INTER_NEAREST: i = min(floor(d * scale), src - 1).
 * - INTER_AREA, both factors integers k (|scale - k| < DBL_EPSILON): the sum of
 *   the k x k box; (sum + 2) >> 2 for 2 x 2, else rint((float)sum * (1.f / k^2)).
 * - INTER_AREA shrinking by other factors: per-axis taps (computeResizeAreaTab),
 *   float row sums then float column sums in OpenCV's order, rint.
 * - INTER_AREA enlarging on either axis: INTER_LINEAR's arithmetic with
 *   i = floor(d * scale), frac = (float)((d + 1) - (i + 1) / scale) mod 1.
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "image/image.h"

static inline uint8_t sat_u8(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

/* 11-bit weights of one linear tap, from the float fraction (cv::saturate_cast<short>). */
static void linear_weights(float f, int16_t *w)
{
    w[0] = (int16_t)lrintf((1.f - f) * 2048.f);
    w[1] = (int16_t)lrintf(f * 2048.f);
}

/* Linear taps along one axis; `clamp` for columns (OpenCV clamps the weight
 * there, but only the row index of rows). */
static void linear_axis(int32_t sn, int32_t dn, bool area_mode, bool clamp, int32_t *idx, int16_t *w)
{
    double inv_scale = (double)dn / sn, scale = 1. / inv_scale;
    for (int32_t d = 0; d < dn; d++) {
        int32_t i;
        float f;
        if (area_mode) {
            i = (int32_t)floor(d * scale);
            f = (float)((d + 1) - (i + 1) * inv_scale);
            f = f <= 0 ? 0.f : f - floorf(f);
        } else {
            f = (float)((d + 0.5) * scale - 0.5);
            i = (int32_t)floorf(f);
            f -= (float)i;
        }
        if (clamp && i < 0) i = 0, f = 0.f;
        if (clamp && i >= sn - 1) i = sn - 1, f = 0.f;
        idx[d] = i;
        linear_weights(f, &w[2 * d]);
    }
}

static void nearest_axis(int32_t sn, int32_t dn, int32_t *idx)
{
    double scale = 1. / ((double)dn / sn);
    for (int32_t d = 0; d < dn; d++) {
        int32_t i = (int32_t)floor(d * scale);
        idx[d] = i < sn - 1 ? i : sn - 1;
    }
}

/* computeResizeAreaTab: the taps of each destination cell [d*scale, (d+1)*scale). */
static int32_t area_taps(int32_t sn, int32_t dn, int cn, double scale, tl_rz_tap *tab)
{
    int32_t k = 0;
    for (int32_t d = 0; d < dn; d++) {
        double f1 = d * scale, f2 = f1 + scale;
        double cell = fmin(scale, sn - f1);
        int32_t s1 = (int32_t)ceil(f1), s2 = (int32_t)floor(f2);
        if (s2 > sn - 1) s2 = sn - 1;
        if (s1 > s2) s1 = s2;
        if (s1 - f1 > 1e-3) tab[k++] = (tl_rz_tap){(s1 - 1) * cn, d * cn, (float)((s1 - f1) / cell)};
        for (int32_t s = s1; s < s2; s++) tab[k++] = (tl_rz_tap){s * cn, d * cn, (float)(1.0 / cell)};
        if (f2 - s2 > 1e-3) tab[k++] = (tl_rz_tap){s2 * cn, d * cn, (float)(fmin(fmin(f2 - s2, 1.), cell) / cell)};
    }
    return k;
}

void tl_rz_free(tl_rz *rz)
{
    free(rz->xo), free(rz->yo), free(rz->xa), free(rz->yb);
    free(rz->xt), free(rz->yt), free(rz->ybeg), free(rz->cols), free(rz->xc), free(rz->xk), free(rz->wk);
    memset(rz, 0, sizeof *rz);
}

static tl_status nomem(tl_rz *rz)
{
    tl_rz_free(rz);
    return tl_fail(TL_ERR_NOMEM, "image resize tables: out of memory");
}

static tl_status area_init(tl_rz *rz, double sx, double sy)
{
    rz->xt = malloc(sizeof(tl_rz_tap) * (2 * (size_t)rz->sw + 2));
    rz->yt = malloc(sizeof(tl_rz_tap) * (2 * (size_t)rz->sh + 2));
    rz->ybeg = malloc(sizeof(int32_t) * ((size_t)rz->dh + 1));
    if (!rz->xt || !rz->yt || !rz->ybeg) return nomem(rz);
    rz->nxt = area_taps(rz->sw, rz->dw, rz->cn, sx, rz->xt);
    rz->nyt = area_taps(rz->sh, rz->dh, 1, sy, rz->yt);
    for (int32_t j = 0, dy = 0; dy <= rz->dh; dy++) {
        while (j < rz->nyt && rz->yt[j].di < dy) j++;
        rz->ybeg[dy] = j;
    }
    return TL_OK;
}

/* Whether LINEAR's second tap of column dx is read: its weight is not zero
 * (h = a * w0 + b * 0 does not depend on b), and it is inside the row. */
static bool second_tap(const tl_rz *rz, int32_t dx)
{
    return rz->xo[dx] + 1 < rz->sw && rz->xa[2 * dx + 1] != 0;
}

/* The source columns the rows read, increasing: nearest's taps and linear's
 * taps with a non-zero weight (so a 1/3 shrink reads a third of the columns),
 * else all. xc[dx] is the position of xo[dx] among them: the source row
 * functions write the columns compacted, so a line holds only these. */
static tl_status column_list(tl_rz *rz)
{
    rz->cols = malloc(sizeof(int32_t) * (size_t)rz->sw);
    if (!rz->cols) return nomem(rz);
    if (rz->method != TL_RZ_LINEAR && rz->method != TL_RZ_NEAREST) {
        for (int32_t x = 0; x < rz->sw; x++) rz->cols[x] = x;
        rz->ncols = rz->sw;
        return TL_OK;
    }
    rz->xc = malloc(sizeof(int32_t) * (size_t)rz->dw);
    if (!rz->xc) return nomem(rz);
    const bool linear = rz->method == TL_RZ_LINEAR;
    int32_t n = 0;
    rz->xpick = linear, rz->xdirect = linear;
    for (int32_t dx = 0; dx < rz->dw; dx++) { /* xo[] never decreases */
        int32_t x = rz->xo[dx];
        if (n == 0 || rz->cols[n - 1] < x) rz->cols[n++] = x;
        rz->xc[dx] = rz->cols[n - 1] == x ? n - 1 : n - 2; /* else x + 1 is last, an earlier second tap */
        if (linear && second_tap(rz, dx) && rz->cols[n - 1] < x + 1) rz->cols[n++] = x + 1;
        if (linear) rz->xpick &= rz->xa[2 * dx] == 2048 && !second_tap(rz, dx);
        rz->xdirect &= rz->xc[dx] == dx;
    }
    rz->ncols = n;
    rz->xdirect &= rz->xpick && n == rz->dw;
    return TL_OK;
}

static tl_status tables(tl_rz *rz, int resize);

/* LINEAR's taps per output value (pixel dx, channel c) for the row kernels:
 * the first sample at pixel xc[dx] of the compacted line, the second the next
 * pixel there (column xo[dx] + 1 when second_tap; else any bytes, weight 0). */
static tl_status output_taps(tl_rz *rz)
{
    size_t n = (size_t)rz->dw * rz->cn;
    rz->xk = malloc(sizeof(int32_t) * n), rz->wk = malloc(sizeof(int16_t) * 2 * n);
    if (!rz->xk || !rz->wk) return nomem(rz);
    for (int32_t dx = 0; dx < rz->dw; dx++)
        for (int c = 0; c < rz->cn; c++) {
            size_t k = (size_t)dx * rz->cn + c;
            rz->xk[k] = rz->xc[dx] * rz->cn + c;
            rz->wk[2 * k] = rz->xa[2 * dx], rz->wk[2 * k + 1] = second_tap(rz, dx) ? rz->xa[2 * dx + 1] : 0;
        }
    return TL_OK;
}

tl_status tl_rz_init(tl_rz *rz, int resize, int cn, int32_t sw, int32_t sh, int32_t dw, int32_t dh)
{
    memset(rz, 0, sizeof *rz);
    rz->cn = cn, rz->sw = sw, rz->sh = sh, rz->dw = dw, rz->dh = dh;
    rz->vlinear = tl_u8_vlinear_ukernel__scalar;
    rz->hlinear = tl_u8_hlinear_ukernel__scalar;
    TL_TRY(tables(rz, resize));
    TL_TRY(column_list(rz));
    return rz->method == TL_RZ_LINEAR ? output_taps(rz) : TL_OK;
}

static tl_status tables(tl_rz *rz, int resize)
{
    const int32_t sw = rz->sw, sh = rz->sh, dw = rz->dw, dh = rz->dh;
    double sx = 1. / ((double)dw / sw), sy = 1. / ((double)dh / sh);
    if (resize == TL_IMAGE_NEAREST) {
        rz->method = TL_RZ_NEAREST;
        rz->xo = malloc(sizeof(int32_t) * (size_t)dw), rz->yo = malloc(sizeof(int32_t) * (size_t)dh);
        if (!rz->xo || !rz->yo) return nomem(rz);
        nearest_axis(sw, dw, rz->xo);
        nearest_axis(sh, dh, rz->yo);
        return TL_OK;
    }
    if (resize == TL_IMAGE_AREA && sx >= 1 && sy >= 1) {
        int32_t kx = (int32_t)lrint(sx), ky = (int32_t)lrint(sy);
        if (fabs(sx - kx) < DBL_EPSILON && fabs(sy - ky) < DBL_EPSILON) {
            rz->method = TL_RZ_AREA_FAST, rz->kx = kx, rz->ky = ky;
            return TL_OK;
        }
        rz->method = TL_RZ_AREA;
        return area_init(rz, sx, sy);
    }
    rz->method = TL_RZ_LINEAR;
    rz->xo = malloc(sizeof(int32_t) * (size_t)dw), rz->yo = malloc(sizeof(int32_t) * (size_t)dh);
    rz->xa = malloc(sizeof(int16_t) * 2 * (size_t)dw), rz->yb = malloc(sizeof(int16_t) * 2 * (size_t)dh);
    if (!rz->xo || !rz->yo || !rz->xa || !rz->yb) return nomem(rz);
    bool area_mode = resize == TL_IMAGE_AREA; /* enlarging on an axis */
    linear_axis(sw, dw, area_mode, true, rz->xo, rz->xa);
    linear_axis(sh, dh, area_mode, false, rz->yo, rz->yb);
    return TL_OK;
}

/* ---- scratch --------------------------------------------------------------- */
static size_t up64(size_t n) { return (n + 63) & ~(size_t)63; }

size_t tl_rz_work_bytes(const tl_rz *rz)
{
    size_t line = up64((size_t)rz->sw * rz->cn + 16), row = (size_t)rz->dw * rz->cn;
    size_t n = line;
    if (rz->method == TL_RZ_LINEAR) n += 2 * up64(row * sizeof(int32_t));
    if (rz->method == TL_RZ_AREA_FAST) n += up64(row * sizeof(int32_t));
    if (rz->method == TL_RZ_AREA) n += 2 * up64(row * sizeof(float));
    return n;
}

void tl_rz_work_init(tl_rz_work *w, const tl_rz *rz, void *mem)
{
    uint8_t *p = mem;
    size_t row = (size_t)rz->dw * rz->cn;
    memset(w, 0, sizeof *w);
    w->line = p, p += up64((size_t)rz->sw * rz->cn + 16);
    memset(w->line, 0, up64((size_t)rz->sw * rz->cn + 16)); /* bytes past the columns read as 0 */
    w->tag[0] = w->tag[1] = -1;
    if (rz->method == TL_RZ_LINEAR || rz->method == TL_RZ_AREA_FAST) {
        w->h[0] = (int32_t *)(void *)p, p += up64(row * sizeof(int32_t));
        if (rz->method == TL_RZ_LINEAR) w->h[1] = (int32_t *)(void *)p;
    } else if (rz->method == TL_RZ_AREA) {
        w->buf = (float *)(void *)p, p += up64(row * sizeof(float));
        w->sum = (float *)(void *)p;
    }
}

/* ---- rows ------------------------------------------------------------------ */
/* Horizontal linear pass of source row sy, cached in one of two slots. */
static const int32_t *linear_hrow(const tl_rz *rz, tl_rz_work *w, int32_t sy, tl_rz_src_fn src,
                                  const void *ctx)
{
    for (int k = 0; k < 2; k++)
        if (w->tag[k] == sy) return w->h[k];
    /* Replace the slot not holding the other row this destination row needs:
     * rows are visited in increasing order, so the smaller tag is stale. */
    int k = w->tag[0] < w->tag[1] ? 0 : 1;
    src(ctx, sy, rz->cols, rz->ncols, w->line);
    rz->hlinear(w->line, rz->xk, rz->wk, rz->cn, w->h[k], (size_t)rz->dw * rz->cn);
    w->tag[k] = sy;
    return w->h[k];
}

/* A row whose weights are all one: OpenCV's sums reduce to the tap's pixel.
 * With x weights (2048, 0), h = 2048 v (the second sample counts 0 whatever
 * it is); with y weights (2048, 0) the vertical step gives
 * ((((2048 v) >> 4) * 2048 >> 16) + 0 + 2) >> 2 = (4 v + 2) >> 2 = v, which
 * is in 0..255 so the saturation changes nothing. */
static void pick_row(const tl_rz *rz, tl_rz_work *w, int32_t sy, tl_rz_src_fn src, const void *ctx, uint8_t *out)
{
    if (rz->xdirect) { /* the line is the output row */
        src(ctx, sy, rz->cols, rz->ncols, out);
        return;
    }
    src(ctx, sy, rz->cols, rz->ncols, w->line);
    const int cn = rz->cn;
    for (int32_t dx = 0; dx < rz->dw; dx++)
        for (int c = 0; c < cn; c++) out[(size_t)dx * cn + c] = w->line[(size_t)rz->xc[dx] * cn + c];
}

static void linear_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx,
                       uint8_t *out)
{
    int32_t y0 = rz->yo[dy], y1 = y0 + 1;
    int32_t b0 = rz->yb[2 * dy], b1 = rz->yb[2 * dy + 1];
    y0 = y0 < 0 ? 0 : y0 > rz->sh - 1 ? rz->sh - 1 : y0;
    y1 = y1 < 0 ? 0 : y1 > rz->sh - 1 ? rz->sh - 1 : y1;
    if (rz->xpick && b0 == 2048 && b1 == 0) {
        pick_row(rz, w, y0, src, ctx, out);
        return;
    }
    const int32_t *h0 = linear_hrow(rz, w, y0, src, ctx);
    /* weight 0: ((h1 >> 4) * 0) >> 16 = 0 for any h1, so row y1 is not made */
    const int32_t *h1 = b1 == 0 ? h0 : linear_hrow(rz, w, y1, src, ctx);
    rz->vlinear(h0, h1, b0, b1, out, (size_t)rz->dw * rz->cn);
}

static void nearest_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx,
                        uint8_t *out)
{
    src(ctx, rz->yo[dy], rz->cols, rz->ncols, w->line);
    const int cn = rz->cn;
    for (int32_t dx = 0; dx < rz->dw; dx++)
        memcpy(out + (size_t)dx * cn, w->line + (size_t)rz->xc[dx] * cn, (size_t)cn);
}

static void area_fast_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx,
                          uint8_t *out)
{
    const int cn = rz->cn;
    const int32_t n = rz->dw * cn, kx = rz->kx;
    int32_t *sum = w->h[0];
    memset(sum, 0, sizeof(int32_t) * (size_t)n);
    for (int32_t j = 0; j < rz->ky; j++) {
        src(ctx, dy * rz->ky + j, rz->cols, rz->ncols, w->line);
        for (int32_t dx = 0; dx < rz->dw; dx++)
            for (int32_t i = 0; i < kx; i++)
                for (int c = 0; c < cn; c++) sum[dx * cn + c] += w->line[((size_t)dx * kx + i) * cn + c];
    }
    float scale = 1.f / (float)(rz->kx * rz->ky);
    for (int32_t i = 0; i < n; i++)
        out[i] = rz->kx == 2 && rz->ky == 2 ? (uint8_t)((sum[i] + 2) >> 2)
                                            : sat_u8((int)lrintf((float)sum[i] * scale));
}

static void area_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx,
                     uint8_t *out)
{
    const int cn = rz->cn;
    const int32_t n = rz->dw * cn;
    for (int32_t j = rz->ybeg[dy]; j < rz->ybeg[dy + 1]; j++) {
        src(ctx, rz->yt[j].si, rz->cols, rz->ncols, w->line);
        memset(w->buf, 0, sizeof(float) * (size_t)n);
        for (int32_t k = 0; k < rz->nxt; k++) {
            const tl_rz_tap *t = &rz->xt[k];
            for (int c = 0; c < cn; c++) w->buf[t->di + c] = w->buf[t->di + c] + (float)w->line[t->si + c] * t->alpha;
        }
        float beta = rz->yt[j].alpha;
        for (int32_t i = 0; i < n; i++)
            w->sum[i] = j == rz->ybeg[dy] ? beta * w->buf[i] : w->sum[i] + beta * w->buf[i];
    }
    for (int32_t i = 0; i < n; i++) {
        long v = lrintf(w->sum[i]);
        out[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

bool tl_rz_row_is_line(const tl_rz *rz, int32_t dy, int32_t *sy)
{
    if (rz->method != TL_RZ_LINEAR || !rz->xdirect || rz->yb[2 * dy] != 2048 || rz->yb[2 * dy + 1] != 0) return false;
    int32_t y = rz->yo[dy];
    *sy = y < 0 ? 0 : y > rz->sh - 1 ? rz->sh - 1 : y; /* linear_row's clamp */
    return true;
}

void tl_rz_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx, uint8_t *out)
{
    switch (rz->method) {
    case TL_RZ_LINEAR: linear_row(rz, w, dy, src, ctx, out); return;
    case TL_RZ_NEAREST: nearest_row(rz, w, dy, src, ctx, out); return;
    case TL_RZ_AREA_FAST: area_fast_row(rz, w, dy, src, ctx, out); return;
    default: area_row(rz, w, dy, src, ctx, out); return;
    }
}
