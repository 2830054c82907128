/* Detection decoders (tlayout/detect.h): YOLOv8/11 split heads, the YOLOv8
 * single output and YOLOv5 anchor heads, then class-aware NMS.
 *
 * Scores are thresholded by tl_scan in the code domain; only the cells that
 * pass are decoded (DFL softmax, anchors), in double. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "post/post_internal.h"
#include "tlayout/detect.h"

/* ---- candidates --------------------------------------------------------------- */
typedef struct cands {
    tl_detection *items;
    size_t len, cap;
} cands;

static tl_status cand_push(cands *c, const tl_detection *d)
{
    if (c->len == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 256;
        tl_detection *p = realloc(c->items, cap * sizeof *p);
        if (!p) return tl_fail(TL_ERR_NOMEM, "detection candidates: %zu", cap);
        c->items = p, c->cap = cap;
    }
    c->items[c->len++] = *d;
    return TL_OK;
}

static double iou(const tl_detection *a, const tl_detection *b)
{
    double iw = fmin(a->x1, b->x1) - fmax(a->x0, b->x0), ih = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
    double inter = iw > 0 && ih > 0 ? iw * ih : 0.0;
    double uni = (a->x1 - a->x0) * (a->y1 - a->y0) + (b->x1 - b->x0) * (b->y1 - b->y0) - inter;
    return uni > 0 ? inter / uni : 0.0;
}

typedef struct ranked {
    double score;
    size_t index;
} ranked;

static int by_score(const void *pa, const void *pb)
{
    const ranked *a = pa, *b = pb;
    if (a->score != b->score) return a->score > b->score ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index; /* stable */
}

/* NMS, the box map and the copy out; frees the candidates. */
static tl_status finish(cands *c, const tl_detect_params *p, tl_detection *out, size_t cap, size_t *count)
{
    ranked *order = malloc((c->len ? c->len : 1) * sizeof *order);
    size_t *kept = malloc((c->len ? c->len : 1) * sizeof *kept), nkept = 0;
    tl_status s = TL_OK;
    if (!order || !kept) s = tl_fail(TL_ERR_NOMEM, "NMS of %zu candidates", c->len);
    if (s == TL_OK) {
        for (size_t i = 0; i < c->len; i++) order[i] = (ranked){c->items[i].score, i};
        qsort(order, c->len, sizeof *order, by_score);
        for (size_t i = 0; i < c->len; i++) {
            const tl_detection *d = &c->items[order[i].index];
            bool drop = false;
            for (size_t k = 0; k < nkept && !drop; k++) {
                const tl_detection *e = &c->items[kept[k]];
                drop = e->cls == d->cls && iou(e, d) > p->iou;
            }
            if (!drop) kept[nkept++] = order[i].index;
        }
        *count = nkept;
        if (nkept > cap)
            s = tl_fail(TL_ERR_BUFFER_SMALL, "cap=%zu detections: %zu kept after NMS (nothing written)", cap, nkept);
    }
    for (size_t k = 0; s == TL_OK && k < nkept; k++) {
        tl_detection d = c->items[kept[k]];
        if (p->map) {
            d.x0 = (d.x0 - p->map->dx) / p->map->sx, d.x1 = (d.x1 - p->map->dx) / p->map->sx;
            d.y0 = (d.y0 - p->map->dy) / p->map->sy, d.y1 = (d.y1 - p->map->dy) / p->map->sy;
        }
        out[k] = d;
    }
    free(order), free(kept), free(c->items);
    memset(c, 0, sizeof *c);
    return s;
}

static tl_status check_params(const tl_detect_params *p, tl_detection *out, size_t cap, size_t *count)
{
    if (!p || !count || (!out && cap > 0)) return tl_fail(TL_ERR_NULL, "params, count or out (with cap > 0) is NULL");
    if (isnan(p->threshold)) return tl_fail(TL_ERR_QUANT, "threshold=nan: a confidence threshold must be a number");
    if (!(p->iou >= 0.0 && p->iou <= 1.0))
        return tl_fail(TL_ERR_COORD, "iou=%g: the NMS IoU threshold must be in [0, 1]", p->iou);
    if (p->input_w < 1 || p->input_h < 1)
        return tl_fail(TL_ERR_DIM, "input %dx%d: the model input size (pixels) must be >= 1x1 (strides come from it)",
                       (int)p->input_w, (int)p->input_h);
    if (p->batch < 0) return tl_fail(TL_ERR_COORD, "batch=%lld: must be >= 0", (long long)p->batch);
    if (p->map && !(p->map->sx > 0 && p->map->sy > 0 && isfinite(p->map->dx) && isfinite(p->map->dy)))
        return tl_fail(TL_ERR_COORD, "box map sx=%g sy=%g dx=%g dy=%g: scales must be > 0, offsets finite",
                       p->map->sx, p->map->sy, p->map->dx, p->map->dy);
    return TL_OK;
}

/* A named tensor as (n, c, h, w) of codes. */
static tl_status open_tensor(tl_pview *v, const tl_tensor *t, const char *what, int branch)
{
    memset(v, 0, sizeof *v);
    if (!t->desc || !t->buf) return tl_fail(TL_ERR_NULL, "branch %d %s: descriptor or buffer is NULL", branch, what);
    tl_status s = tl_pview_init(v, t->desc, t->len, true);
    if (s == TL_OK) return TL_OK;
    char why[512];
    snprintf(why, sizeof why, "%s", tl_last_error());
    return tl_fail(s, "branch %d %s: %s", branch, what, why);
}

static tl_status same_grid(const tl_pview *a, const tl_pview *b, const char *an, const char *bn, int branch)
{
    if (a->N == b->N && a->H == b->H && a->W == b->W) return TL_OK;
    return tl_fail(TL_ERR_MISMATCH, "branch %d: %s has N=%lld H=%lld W=%lld but %s has N=%lld H=%lld W=%lld: the "
                   "heads of a branch must share the grid", branch, an, (long long)a->N, (long long)a->H,
                   (long long)a->W, bn, (long long)b->N, (long long)b->H, (long long)b->W);
}

static tl_status check_batch(const tl_pview *v, const tl_detect_params *p, int branch)
{
    if (p->batch < v->N) return TL_OK;
    return tl_fail(TL_ERR_COORD, "batch=%lld: branch %d has N=%lld", (long long)p->batch, branch, (long long)v->N);
}

static tl_status same_count(int64_t *have, int64_t got, const char *what, int branch)
{
    if (*have < 0) *have = got;
    if (*have == got) return TL_OK;
    return tl_fail(TL_ERR_MISMATCH, "branch %d: %s=%lld but branch 0 has %lld: every branch must agree", branch,
                   what, (long long)got, (long long)*have);
}

static double value_at(const tl_pview *v, const uint8_t *buf, int64_t n, int64_t c, int64_t h, int64_t w)
{
    return tl_pview_value(v, tl_pview_load(v, buf, tl_pview_bit(v, n, c, h, w)));
}

/* ---- YOLOv8 split heads --------------------------------------------------------- */
/* exp of each code's value relative to the largest code's: the softmax
 * weights of 8-bit codes without one exp per bin. NULL for wider codes or
 * when the value range could underflow a weight to 0 (then dfl() calls exp). */
static double *exp_table(const tl_pview *v)
{
    if (!v->lut || !(tl_pview_value(v, v->hi) - tl_pview_value(v, v->lo) < 700.0)) return NULL;
    int64_t n = v->hi - v->lo + 1;
    double *t = malloc((size_t)n * sizeof *t), top = tl_pview_value(v, v->hi);
    for (int64_t i = 0; t && i < n; i++) t[i] = exp(tl_pview_value(v, v->lo + i) - top);
    return t;
}

/* Expected bin of the softmax over R bins of side k. */
static double dfl(const tl_pview *v, const double *et, const uint8_t *buf, int64_t n, int64_t k, int64_t R,
                  int64_t h, int64_t w)
{
    double sum = 0.0, acc = 0.0;
    if (et && v->separable && v->bits == 8) { /* bytes: the pixel's base, then each channel's offset */
        const uint8_t *px = buf + ((v->base + v->tn[n] + v->th[h] + v->tw[w]) >> 3);
        const int64_t *tc = v->tc + k * R;
        int64_t flip = v->is_signed ? 128 : 0;
        for (int64_t i = 0; i < R; i++) {
            double e = et[(px[tc[i] >> 3] ^ flip)];
            sum += e, acc += e * (double)i;
        }
        return acc / sum;
    }
    double bins[64], m = -INFINITY;
    for (int64_t i = 0; i < R; i++) {
        int64_t code = tl_pview_load(v, buf, tl_pview_bit(v, n, k * R + i, h, w));
        if (et) {
            sum += et[code - v->lo], acc += et[code - v->lo] * (double)i;
            continue;
        }
        bins[i] = tl_pview_value(v, code);
        m = fmax(m, bins[i]);
    }
    for (int64_t i = 0; !et && i < R; i++) {
        double e = exp(bins[i] - m);
        sum += e, acc += e * (double)i;
    }
    return acc / sum;
}

typedef struct v8ctx {
    tl_pview box, cls, sum;
    bool has_sum;
} v8ctx;

static void v8_close(v8ctx *c)
{
    tl_pview_free(&c->box), tl_pview_free(&c->cls), tl_pview_free(&c->sum);
}

static tl_status v8_open(v8ctx *c, const tl_yolov8_branch *b, int i, const tl_detect_params *p, int64_t *nc,
                         int64_t *R)
{
    memset(c, 0, sizeof *c);
    TL_TRY(open_tensor(&c->box, &b->box, "box", i));
    TL_TRY(open_tensor(&c->cls, &b->cls, "cls", i));
    c->has_sum = b->sum.desc != NULL;
    if (c->has_sum) {
        TL_TRY(open_tensor(&c->sum, &b->sum, "sum", i));
        TL_TRY(same_grid(&c->cls, &c->sum, "cls", "sum", i));
        if (c->sum.C != 1)
            return tl_fail(TL_ERR_MISMATCH, "branch %d sum: C=%lld, the score-sum head has 1 channel", i,
                           (long long)c->sum.C);
    }
    TL_TRY(same_grid(&c->box, &c->cls, "box", "cls", i));
    TL_TRY(check_batch(&c->box, p, i));
    if (c->box.C % 4 || c->box.C / 4 > 64)
        return tl_fail(TL_ERR_MISMATCH, "branch %d box: C=%lld must be 4 x R DFL bins (R <= 64; 64 = 4 x 16 in "
                       "YOLOv8)", i, (long long)c->box.C);
    TL_TRY(same_count(nc, c->cls.C, "classes", i));
    return same_count(R, c->box.C / 4, "DFL bins R", i);
}

static tl_status v8_branch(v8ctx *c, const tl_yolov8_branch *b, int i, const tl_detect_params *p, int64_t R,
                           cands *out)
{
    tl_hitlist hits = {0};
    int32_t Tsum = 0;
    if (c->has_sum) TL_TRY(tl_post_threshold(&c->sum, p->threshold, &Tsum));
    tl_status s = tl_scan_list(&c->cls, b->cls.buf, 0, c->cls.C, p->threshold, TL_SCAN_BEST, &hits);
    double *et = hits.len ? exp_table(&c->box) : NULL;
    if (s == TL_OK && hits.nomem) s = tl_fail(TL_ERR_NOMEM, "scan hits");
    double sx = (double)p->input_w / (double)c->cls.W, sy = (double)p->input_h / (double)c->cls.H;
    const uint8_t *bb = b->box.buf, *sb = b->sum.buf;
    for (size_t k = 0; s == TL_OK && k < hits.len; k++) {
        const tl_hit *h = &hits.items[k];
        if (h->n != p->batch) continue;
        if (c->has_sum && tl_pview_load(&c->sum, sb, tl_pview_bit(&c->sum, h->n, 0, h->h, h->w)) < Tsum) continue;
        double d[4], cx = (double)h->w + 0.5, cy = (double)h->h + 0.5;
        for (int side = 0; side < 4; side++) d[side] = dfl(&c->box, et, bb, h->n, side, R, h->h, h->w);
        tl_detection det = {(cx - d[0]) * sx, (cy - d[1]) * sy, (cx + d[2]) * sx, (cy + d[3]) * sy,
                            h->value, h->c, i, 0, h->code, h->h, h->w};
        s = cand_push(out, &det);
    }
    free(hits.items);
    free(et);
    return s;
}

tl_status tl_detect_yolov8(const tl_yolov8_branch *branches, int nbranches, const tl_detect_params *p,
                           tl_detection *out, size_t cap, size_t *count)
{
    TL_TRY(check_params(p, out, cap, count));
    if (!branches || nbranches < 1) return tl_fail(TL_ERR_NULL, "nbranches=%d: at least one branch", nbranches);
    cands c = {0};
    int64_t nc = -1, R = -1;
    tl_status s = TL_OK;
    for (int i = 0; s == TL_OK && i < nbranches; i++) {
        v8ctx ctx;
        s = v8_open(&ctx, &branches[i], i, p, &nc, &R);
        if (s == TL_OK) s = v8_branch(&ctx, &branches[i], i, p, R, &c);
        v8_close(&ctx);
    }
    if (s != TL_OK) {
        free(c.items);
        return s;
    }
    return finish(&c, p, out, cap, count);
}

/* ---- YOLOv8 single output -------------------------------------------------------- */
tl_status tl_detect_yolov8_single(const tl_tensor *t, const tl_detect_params *p, tl_detection *out, size_t cap,
                                  size_t *count)
{
    TL_TRY(check_params(p, out, cap, count));
    if (!t) return tl_fail(TL_ERR_NULL, "tensor is NULL");
    tl_pview v;
    TL_TRY(open_tensor(&v, t, "output", 0));
    tl_hitlist hits = {0};
    cands c = {0};
    tl_status s = check_batch(&v, p, 0);
    if (s == TL_OK && v.C < 5)
        s = tl_fail(TL_ERR_MISMATCH, "C=%lld: the single output holds 4 box channels and at least one class",
                    (long long)v.C);
    if (s == TL_OK) s = tl_scan_list(&v, t->buf, 4, v.C - 4, p->threshold, TL_SCAN_BEST, &hits);
    if (s == TL_OK && hits.nomem) s = tl_fail(TL_ERR_NOMEM, "scan hits");
    for (size_t k = 0; s == TL_OK && k < hits.len; k++) {
        const tl_hit *h = &hits.items[k];
        if (h->n != p->batch) continue;
        double b[4];
        for (int j = 0; j < 4; j++) b[j] = value_at(&v, t->buf, h->n, j, h->h, h->w);
        tl_detection det = {b[0] - b[2] / 2, b[1] - b[3] / 2, b[0] + b[2] / 2, b[1] + b[3] / 2,
                            h->value, h->c - 4, 0, 0, h->code, h->h, h->w};
        s = cand_push(&c, &det);
    }
    free(hits.items);
    tl_pview_free(&v);
    if (s != TL_OK) {
        free(c.items);
        return s;
    }
    return finish(&c, p, out, cap, count);
}

/* ---- YOLOv5 ------------------------------------------------------------------------ */
void tl_yolov5_default_anchors(int branch, double anchors[6])
{
    static const double coco[3][6] = {{10, 13, 16, 30, 33, 23}, {30, 61, 62, 45, 59, 119}, {116, 90, 156, 198, 373, 326}};
    memcpy(anchors, coco[branch < 0 ? 0 : branch > 2 ? 2 : branch], sizeof coco[0]);
}

static tl_status v5_cell(const tl_pview *v, const tl_yolov5_branch *b, int i, int64_t a, int64_t per,
                         const tl_hit *obj, const tl_detect_params *p, cands *out)
{
    int64_t base = a * per, best_c = 0, best_code = 0;
    double best = 0.0;
    for (int64_t c = 0; c < per - 5; c++) {
        int64_t code = tl_pview_load(v, b->t.buf, tl_pview_bit(v, obj->n, base + 5 + c, obj->h, obj->w));
        double x = tl_pview_value(v, code);
        if (c == 0 || x > best) best = x, best_c = c, best_code = code;
    }
    double score = obj->value * best;
    if (!(score >= p->threshold)) return TL_OK;
    double q[4];
    for (int j = 0; j < 4; j++) q[j] = value_at(v, b->t.buf, obj->n, base + j, obj->h, obj->w);
    double sx = (double)p->input_w / (double)v->W, sy = (double)p->input_h / (double)v->H;
    double cx = (q[0] * 2.0 - 0.5 + (double)obj->w) * sx, cy = (q[1] * 2.0 - 0.5 + (double)obj->h) * sy;
    double bw = (q[2] * 2.0) * (q[2] * 2.0) * b->anchors[2 * a], bh = (q[3] * 2.0) * (q[3] * 2.0) * b->anchors[2 * a + 1];
    tl_detection det = {cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2, score, (int32_t)best_c, i, (int32_t)a,
                        (int32_t)best_code, obj->h, obj->w};
    return cand_push(out, &det);
}

static tl_status v5_branch(const tl_pview *v, const tl_yolov5_branch *b, int i, const tl_detect_params *p,
                           int64_t *nc, cands *out)
{
    if (b->na < 1 || b->na > TL_YOLOV5_MAX_ANCHORS)
        return tl_fail(TL_ERR_COORD, "branch %d: na=%d anchors, must be 1..%d", i, (int)b->na, TL_YOLOV5_MAX_ANCHORS);
    if (v->C % b->na || v->C / b->na < 6)
        return tl_fail(TL_ERR_MISMATCH, "branch %d: C=%lld is not na=%d x (5 + nc) with nc >= 1", i,
                       (long long)v->C, (int)b->na);
    int64_t per = v->C / b->na;
    TL_TRY(check_batch(v, p, i));
    TL_TRY(same_count(nc, per - 5, "classes", i));
    tl_status s = TL_OK;
    for (int64_t a = 0; s == TL_OK && a < b->na; a++) {
        tl_hitlist hits = {0};
        s = tl_scan_list(v, b->t.buf, a * per + 4, 1, p->threshold, 0, &hits);
        if (s == TL_OK && hits.nomem) s = tl_fail(TL_ERR_NOMEM, "scan hits");
        for (size_t k = 0; s == TL_OK && k < hits.len; k++)
            if (hits.items[k].n == p->batch) s = v5_cell(v, b, i, a, per, &hits.items[k], p, out);
        free(hits.items);
    }
    return s;
}

tl_status tl_detect_yolov5(const tl_yolov5_branch *branches, int nbranches, const tl_detect_params *p,
                           tl_detection *out, size_t cap, size_t *count)
{
    TL_TRY(check_params(p, out, cap, count));
    if (!branches || nbranches < 1) return tl_fail(TL_ERR_NULL, "nbranches=%d: at least one branch", nbranches);
    cands c = {0};
    int64_t nc = -1;
    tl_status s = TL_OK;
    for (int i = 0; s == TL_OK && i < nbranches; i++) {
        tl_pview v;
        s = open_tensor(&v, &branches[i].t, "head", i);
        if (s == TL_OK) s = v5_branch(&v, &branches[i], i, p, &nc, &c);
        tl_pview_free(&v);
    }
    if (s != TL_OK) {
        free(c.items);
        return s;
    }
    return finish(&c, p, out, cap, count);
}
