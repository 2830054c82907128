/* yolov8_heads.h: synthetic YOLOv8n outputs as the RKNN model zoo's split-head
 * export hands them back on an RK3588 in the native layout: for strides 8, 16
 * and 32 (grids 80, 40, 20 at 640x640), three NC1HWC2 int8 tensors (C2 = 16):
 *   box  [1, 4, H, W, 16]  c=64  4 sides x 16 DFL bins (logits)
 *   cls  [1, 5, H, W, 16]  c=80  class scores after sigmoid
 *   sum  [1, 1, H, W, 16]  c=1   the sum of the class scores (clipped to 1)
 * with score statistics like a real street scene: every background score tiny
 * (below 0.03, a few up to 0.12), and a handful of objects, each lighting up a
 * cluster of neighbouring cells on one or two strides (scores falling off
 * from the centre, the cells' DFL bins peaked at the object's true edges),
 * so that a 0.25 threshold keeps a few hundred candidates and NMS has work.
 *
 * Used by examples/rknn_decode.c, `tlayout demo` and bench/bench_post.c.
 * Header-only: every function is static. */
#ifndef TL_EXAMPLE_YOLOV8_HEADS_H
#define TL_EXAMPLE_YOLOV8_HEADS_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlayout.h"

#define YH_BRANCHES 3
#define YH_CLASSES 80
#define YH_BINS 16
#define YH_INPUT 640

typedef struct yolo_heads {
    tl_desc box[YH_BRANCHES], cls[YH_BRANCHES], sum[YH_BRANCHES];
    int8_t *box_buf[YH_BRANCHES], *cls_buf[YH_BRANCHES], *sum_buf[YH_BRANCHES];
} yolo_heads;

static uint32_t yh_rng(uint32_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5; /* xorshift32 */
    return *s;
}

static double yh_unit(uint32_t *s) { return (double)(yh_rng(s) >> 8) / 16777216.0; }

/* Set channel c at (h, w) to the code of real value x. */
static void yh_put(const tl_desc *d, int8_t *buf, int64_t c, int64_t h, int64_t w, double x)
{
    int64_t at[4] = {0, c, h, w};
    uint64_t off = 0;
    if (tl_desc_offset(d, at, &off) == TL_OK)
        buf[off] = (int8_t)tl_quantize_value(&d->quant, (tl_dtype)d->dtype, (float)x);
}

static double yh_get(const tl_desc *d, const int8_t *buf, int64_t c, int64_t h, int64_t w)
{
    int64_t at[4] = {0, c, h, w};
    uint64_t off = 0;
    tl_desc_offset(d, at, &off);
    return tl_dequantize_value(&d->quant, buf[off]);
}

static int yh_alloc(const tl_desc *d, int8_t **buf)
{
    *buf = (int8_t *)malloc((size_t)d->size_bytes);
    return *buf != NULL;
}

/* DFL logits of one side: a peak at distance `dist` (in cells), spread over the
 * two neighbouring bins so that the expectation lands near it. */
static void yh_side(const tl_desc *d, int8_t *buf, int side, int64_t h, int64_t w, double dist, uint32_t *s)
{
    for (int i = 0; i < YH_BINS; i++) {
        double x = -4.0 - 2.0 * fabs(i - dist) + 0.5 * yh_unit(s);
        yh_put(d, buf, side * YH_BINS + i, h, w, x);
    }
}

/* One object on branch b: centre (cx, cy) and size (bw, bh) in pixels. */
static void yh_object(yolo_heads *y, int b, int cls, double cx, double cy, double bw, double bh, double peak,
                      uint32_t *s)
{
    double stride = (double)YH_INPUT / (double)y->cls[b].dims[2];
    int64_t H = y->cls[b].dims[2], W = y->cls[b].dims[3];
    int64_t h0 = (int64_t)(cy / stride), w0 = (int64_t)(cx / stride);
    for (int64_t h = h0 - 2; h <= h0 + 2; h++)
        for (int64_t w = w0 - 2; w <= w0 + 2; w++) {
            if (h < 0 || w < 0 || h >= H || w >= W) continue;
            double gx = (double)w + 0.5, gy = (double)h + 0.5, r2 = (gx - cx / stride) * (gx - cx / stride) +
                                                                       (gy - cy / stride) * (gy - cy / stride);
            double score = peak * exp(-0.35 * r2) * (0.9 + 0.1 * yh_unit(s));
            if (score < 0.05) continue;
            yh_put(&y->cls[b], y->cls_buf[b], cls, h, w, score);
            double sum = yh_get(&y->sum[b], y->sum_buf[b], 0, h, w) + score;
            yh_put(&y->sum[b], y->sum_buf[b], 0, h, w, sum > 1 ? 1 : sum);
            double l = gx - (cx - bw / 2) / stride, t = gy - (cy - bh / 2) / stride;
            double r = (cx + bw / 2) / stride - gx, bo = (cy + bh / 2) / stride - gy;
            double dist[4] = {l, t, r, bo};
            for (int k = 0; k < 4; k++) {
                double dk = dist[k] < 0 ? 0 : dist[k] > YH_BINS - 1 ? YH_BINS - 1 : dist[k];
                yh_side(&y->box[b], y->box_buf[b], k, h, w, dk, s);
            }
        }
}

static void yolo_heads_free(yolo_heads *y)
{
    for (int b = 0; b < YH_BRANCHES; b++) free(y->box_buf[b]), free(y->cls_buf[b]), free(y->sum_buf[b]);
    memset(y, 0, sizeof *y);
}

/* Make the heads; nobjects objects (20 is a busy street). 0 on failure. */
static int yolo_heads_make(yolo_heads *y, uint32_t seed, int nobjects)
{
    static const char *const fmt[3] = {"rknn.nc1hwc2:i8:1x4x%dx%dx16:c=64:zp=-58:scale=0.0897:platform=rk3588",
                                       "rknn.nc1hwc2:i8:1x5x%dx%dx16:c=80:zp=-128:scale=0.0039215689:platform=rk3588",
                                       "rknn.nc1hwc2:i8:1x1x%dx%dx16:c=1:zp=-128:scale=0.0039215689:platform=rk3588"};
    uint32_t s = seed ? seed : 1u;
    memset(y, 0, sizeof *y);
    for (int b = 0; b < YH_BRANCHES; b++) {
        int g = YH_INPUT / (8 << b);
        char spec[160];
        tl_desc *d[3] = {&y->box[b], &y->cls[b], &y->sum[b]};
        int8_t **buf[3] = {&y->box_buf[b], &y->cls_buf[b], &y->sum_buf[b]};
        for (int k = 0; k < 3; k++) {
            snprintf(spec, sizeof spec, fmt[k], g, g);
            if (tl_desc_parse(d[k], spec) != TL_OK || !yh_alloc(d[k], buf[k])) return yolo_heads_free(y), 0;
        }
        /* background: box logits anywhere, scores tiny, sums small */
        for (int64_t i = 0; i < y->box[b].size_bytes; i++) y->box_buf[b][i] = (int8_t)(yh_rng(&s) & 0xFF);
        for (int64_t i = 0; i < y->cls[b].size_bytes; i++) {
            uint32_t r = yh_rng(&s);
            y->cls_buf[b][i] = (int8_t)(-128 + (int)(r % 8) + ((r >> 8) % 512 == 0 ? 24 : 0));
        }
        for (int64_t i = 0; i < y->sum[b].size_bytes; i++) y->sum_buf[b][i] = (int8_t)(-128 + (int)(yh_rng(&s) % 20));
    }
    for (int o = 0; o < nobjects; o++) {
        int cls = (int)(yh_rng(&s) % YH_CLASSES);
        double bw = 24 + 300 * yh_unit(&s) * yh_unit(&s), bh = 24 + 300 * yh_unit(&s) * yh_unit(&s);
        double cx = bw / 2 + (YH_INPUT - bw) * yh_unit(&s), cy = bh / 2 + (YH_INPUT - bh) * yh_unit(&s);
        double peak = 0.45 + 0.5 * yh_unit(&s), size = bw > bh ? bw : bh;
        int b = size < 64 ? 0 : size < 160 ? 1 : 2; /* the stride that fits; the next one sees it weaker */
        yh_object(y, b, cls, cx, cy, bw, bh, peak, &s);
        if (b < 2) yh_object(y, b + 1, cls, cx, cy, bw, bh, peak * 0.7, &s);
    }
    return 1;
}

#endif
