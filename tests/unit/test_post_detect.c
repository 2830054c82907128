/* Detection decoders against a float64 reference decoder written from the
 * definitions in tlayout/detect.h: every cell dequantized through the offset
 * function, scores thresholded in real arithmetic, DFL as exp(v_i) / sum,
 * NMS by the definition. Compared detection for detection. */
#include <math.h>

#include "tl_test.h"
#include "tlayout/detect.h"

#define MAXC 20000

typedef struct rdet {
    double x0, y0, x1, y1, score;
    int cls, branch, anchor;
    int64_t h, w;
} rdet;

static int find_label(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

/* Real value of (n, c, h, w), straight from the descriptor. */
static double val(const tl_desc *d, const uint8_t *buf, int64_t n, int64_t c, int64_t h, int64_t w)
{
    int64_t x[TL_MAX_DIMS] = {0};
    const char *lab = "NCHW";
    const int64_t at[4] = {n, c, h, w};
    for (int k = 0; k < 4; k++) {
        int i = find_label(d, lab[k]);
        if (i >= 0) x[i] = at[k];
    }
    uint64_t bit = 0;
    tl_desc_offset_bits(d, x, &bit);
    int64_t code = d->dtype == TL_I8 ? (int8_t)buf[bit / 8] : buf[bit / 8];
    return tl_dequantize_value(&d->quant, code);
}

static int64_t dimof(const tl_desc *d, char c)
{
    int i = find_label(d, c);
    return i < 0 ? 1 : d->dims[i];
}

static double ref_iou(const rdet *a, const rdet *b)
{
    double iw = fmin(a->x1, b->x1) - fmax(a->x0, b->x0), ih = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
    double inter = iw > 0 && ih > 0 ? iw * ih : 0;
    double u = (a->x1 - a->x0) * (a->y1 - a->y0) + (b->x1 - b->x0) * (b->y1 - b->y0) - inter;
    return u > 0 ? inter / u : 0;
}

/* Stable sort by score (insertion), then NMS; returns the kept count. */
static size_t ref_nms(rdet *c, size_t n, double thr, rdet *kept)
{
    for (size_t i = 1; i < n; i++) {
        rdet x = c[i];
        size_t j = i;
        while (j > 0 && c[j - 1].score < x.score) c[j] = c[j - 1], j--;
        c[j] = x;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        int drop = 0;
        for (size_t j = 0; j < k && !drop; j++) drop = kept[j].cls == c[i].cls && ref_iou(&kept[j], &c[i]) > thr;
        if (!drop) kept[k++] = c[i];
    }
    return k;
}

static void compare(const tl_detection *got, size_t ng, const rdet *want, size_t nw, const tl_box_map *m,
                    const char *what)
{
    if (ng != nw) {
        FAILF("%s: %zu detections, reference %zu", what, ng, nw);
        return;
    }
    for (size_t i = 0; i < nw; i++) {
        const rdet *r = &want[i];
        double x0 = r->x0, y0 = r->y0, x1 = r->x1, y1 = r->y1;
        if (m) x0 = (x0 - m->dx) / m->sx, x1 = (x1 - m->dx) / m->sx, y0 = (y0 - m->dy) / m->sy, y1 = (y1 - m->dy) / m->sy;
        const tl_detection *g = &got[i];
        double tol = 1e-9 * (1 + fabs(x0) + fabs(x1) + fabs(y0) + fabs(y1));
        if (g->cls != r->cls || g->score != r->score || g->branch != r->branch || g->anchor != r->anchor ||
            g->h != r->h || g->w != r->w || fabs(g->x0 - x0) > tol || fabs(g->y0 - y0) > tol ||
            fabs(g->x1 - x1) > tol || fabs(g->y1 - y1) > tol)
            FAILF("%s: detection %zu: cls %d score %.9g cell (%lld,%lld) box %.6f %.6f %.6f %.6f; reference cls %d "
                  "score %.9g cell (%lld,%lld) box %.6f %.6f %.6f %.6f", what, i, g->cls, g->score, (long long)g->h,
                  (long long)g->w, g->x0, g->y0, g->x1, g->y1, r->cls, r->score, (long long)r->h, (long long)r->w, x0,
                  y0, x1, y1);
    }
}

/* Background codes low, a few cells with high scores; DFL bins random. */
static uint8_t *make(tl_rng *r, const tl_desc *d, int scores)
{
    uint8_t *b = malloc((size_t)d->size_bytes);
    tl_rng_bytes(r, b, (size_t)d->size_bytes);
    if (scores)
        for (int64_t i = 0; i < d->size_bytes; i++)
            if (tl_rng_pick(r, 60)) b[i] = (uint8_t)(0x80 | (b[i] & 0x1F)); /* i8 -128..-97 */
    return b;
}

static const char *const k_v8_layouts[][2] = {
    {"rknn.nc1hwc2:i8:3x%dx%dx%d:c2=16", "nc1hwc2 c2=16"},
    {"rknn.nc1hwc2:i8:3x%dx%dx%d:c2=8", "nc1hwc2 c2=8"},
    {"NCHW:i8:3x%dx%dx%d", "nchw"},
    {"NCHW32c:i8:3x%dx%dx%d", "nchw32c"},
};

TL_TEST(yolov8_split_equals_reference)
{
    tl_rng r = tl_test_rng();
    const int grids[3] = {12, 6, 3}, nc = 11, R = 16, input = 96;
    size_t suppressed = 0;
    for (int lay = 0; lay < 4; lay++)
        for (int with_sum = 0; with_sum < 2; with_sum++) {
            tl_desc box[3], cls[3], sum[3];
            uint8_t *bb[3], *cb[3], *sb[3];
            tl_yolov8_branch br[3];
            char spec[160];
            for (int i = 0; i < 3; i++) {
                snprintf(spec, sizeof spec, k_v8_layouts[lay][0], 4 * R, grids[i], grids[i]);
                REQUIRE_STATUS(tl_desc_parse(&box[i], spec), TL_OK);
                box[i].quant = tl_test_quant(TL_Q_AFFINE, -20, 0.07f, 0, 0);
                snprintf(spec, sizeof spec, k_v8_layouts[lay][0], nc, grids[i], grids[i]);
                REQUIRE_STATUS(tl_desc_parse(&cls[i], spec), TL_OK);
                cls[i].quant = tl_test_quant(TL_Q_AFFINE, -128, 0.00390625f, 0, 0);
                snprintf(spec, sizeof spec, k_v8_layouts[lay][0], 1, grids[i], grids[i]);
                REQUIRE_STATUS(tl_desc_parse(&sum[i], spec), TL_OK);
                sum[i].quant = tl_test_quant(TL_Q_AFFINE, -128, 0.0078125f, 0, 0);
                bb[i] = make(&r, &box[i], 0), cb[i] = make(&r, &cls[i], 1), sb[i] = make(&r, &sum[i], 0); /* the sum rejects about half the cells */
                br[i] = (tl_yolov8_branch){{&box[i], bb[i], (size_t)box[i].size_bytes},
                                           {&cls[i], cb[i], (size_t)cls[i].size_bytes},
                                           {with_sum ? &sum[i] : NULL, sb[i], (size_t)sum[i].size_bytes}};
            }
            tl_box_map map = {0.5, 0.5, 0, 12};
            for (int variant = 0; variant < 3; variant++) {
                /* threshold exactly a code's value, then between codes; batch 1 and 2 */
                double t = variant == 1 ? 0.3 : tl_dequantize_value(&cls[0].quant, -40 + variant);
                tl_detect_params p = {t, variant == 2 ? 0.3 : 0.45, 1 + variant % 2, input, input, 0,
                                      variant ? &map : NULL};
                static rdet cand[MAXC], want[MAXC];
                size_t nc_ = 0;
                for (int i = 0; i < 3; i++) {
                    int64_t H = dimof(&cls[i], 'H'), W = dimof(&cls[i], 'W');
                    double st = (double)input / (double)grids[i];
                    for (int64_t h = 0; h < H; h++)
                        for (int64_t w = 0; w < W; w++) {
                            if (with_sum && !(val(&sum[i], sb[i], p.batch, 0, h, w) >= t)) continue;
                            int bc = 0;
                            double bv = 0;
                            for (int c = 0; c < nc; c++) {
                                double v = val(&cls[i], cb[i], p.batch, c, h, w);
                                if (c == 0 || v > bv) bc = c, bv = v;
                            }
                            if (!(bv >= t)) continue;
                            double d[4];
                            for (int k = 0; k < 4; k++) {
                                double se = 0, acc = 0;
                                for (int j = 0; j < R; j++) se += exp(val(&box[i], bb[i], p.batch, k * R + j, h, w));
                                for (int j = 0; j < R; j++)
                                    acc += exp(val(&box[i], bb[i], p.batch, k * R + j, h, w)) / se * j;
                                d[k] = acc;
                            }
                            cand[nc_++] = (rdet){(w + 0.5 - d[0]) * st, (h + 0.5 - d[1]) * st, (w + 0.5 + d[2]) * st,
                                                 (h + 0.5 + d[3]) * st, bv, bc, i, 0, h, w};
                        }
                }
                size_t nw = ref_nms(cand, nc_, p.iou, want);
                suppressed += nc_ - nw;
                static tl_detection got[MAXC];
                size_t ng = 0;
                REQUIRE_STATUS(tl_detect_yolov8(br, 3, &p, got, MAXC, &ng), TL_OK);
                char what[120];
                snprintf(what, sizeof what, "yolov8 %s sum=%d variant %d", k_v8_layouts[lay][1], with_sum, variant);
                compare(got, ng, want, nw, p.map, what);
                if (nw <= 3) FAILF("%s: only %zu detections (%zu candidates)", what, nw, nc_);
                if (ng > 0) {
                    size_t n2 = 0;
                    got[0].cls = -7;
                    CHECK_STATUS(tl_detect_yolov8(br, 3, &p, got, ng - 1, &n2), TL_ERR_BUFFER_SMALL);
                    CHECK_EQ_I64((int64_t)n2, (int64_t)ng);
                    CHECK_EQ_I64(got[0].cls, -7);
                }
            }
            for (int i = 0; i < 3; i++) free(bb[i]), free(cb[i]), free(sb[i]);
        }
    CHECK(suppressed > 10); /* NMS had work to do */
}

TL_TEST(yolov8_single_equals_reference)
{
    tl_rng r = tl_test_rng();
    const char *specs[] = {"NCW:i8:3x15x300", "rknn.nc1hwc2:i8:3x15x1x300:c2=16", "NHWC:i8:3x1x300x15"};
    for (int s = 0; s < 3; s++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, specs[s]), TL_OK);
        d.quant = tl_test_quant(TL_Q_AFFINE, -128, 2.5f, 0, 0); /* boxes up to 637 px, scores too: see below */
        uint8_t *b = make(&r, &d, 1);
        /* box channels: plausible centres and sizes */
        int64_t A = dimof(&d, 'W');
        tl_tensor t = {&d, b, (size_t)d.size_bytes};
        double thr = tl_dequantize_value(&d.quant, -100);
        tl_detect_params p = {thr, 0.5, 2, 640, 640, 0, NULL};
        static rdet cand[MAXC], want[MAXC];
        size_t n = 0;
        for (int64_t a = 0; a < A; a++) {
            int bc = 0;
            double bv = 0;
            for (int c = 0; c < 11; c++) {
                double v = val(&d, b, 2, 4 + c, 0, a);
                if (c == 0 || v > bv) bc = c, bv = v;
            }
            if (!(bv >= thr)) continue;
            double cx = val(&d, b, 2, 0, 0, a), cy = val(&d, b, 2, 1, 0, a), w = val(&d, b, 2, 2, 0, a),
                   h = val(&d, b, 2, 3, 0, a);
            cand[n++] = (rdet){cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, bv, bc, 0, 0, 0, a};
        }
        size_t nw = ref_nms(cand, n, p.iou, want);
        static tl_detection got[MAXC];
        size_t ng = 0;
        REQUIRE_STATUS(tl_detect_yolov8_single(&t, &p, got, MAXC, &ng), TL_OK);
        compare(got, ng, want, nw, NULL, specs[s]);
        CHECK(nw > 3);
        free(b);
    }
}

TL_TEST(yolov5_equals_reference)
{
    tl_rng r = tl_test_rng();
    const int grids[3] = {10, 5, 3}, nc = 7, na = 3, per = 5 + 7;
    const char *layouts[] = {"rknn.nc1hwc2:i8:3x%dx%dx%d:c2=16", "NCHW:i8:3x%dx%dx%d"};
    for (int lay = 0; lay < 2; lay++) {
        tl_desc d[3];
        uint8_t *b[3];
        tl_yolov5_branch br[3];
        for (int i = 0; i < 3; i++) {
            char spec[120];
            snprintf(spec, sizeof spec, layouts[lay], na * per, grids[i], grids[i]);
            REQUIRE_STATUS(tl_desc_parse(&d[i], spec), TL_OK);
            d[i].quant = tl_test_quant(TL_Q_AFFINE, -128, 0.00390625f, 0, 0);
            b[i] = make(&r, &d[i], 0);
            /* objectness mostly low */
            for (int64_t k = 0; k < d[i].size_bytes; k++)
                if (tl_rng_pick(&r, 3) == 0) b[i][k] = (uint8_t)(0x80 | (b[i][k] & 0x3F));
            memset(&br[i], 0, sizeof br[i]);
            br[i].t = (tl_tensor){&d[i], b[i], (size_t)d[i].size_bytes};
            br[i].na = na;
            tl_yolov5_default_anchors(i, br[i].anchors);
        }
        double thr = 0.25;
        tl_detect_params p = {thr, 0.45, 0, 80, 80, 0, NULL};
        static rdet cand[MAXC], want[MAXC];
        size_t n = 0;
        for (int i = 0; i < 3; i++) {
            double st = 80.0 / grids[i];
            for (int a = 0; a < na; a++)
                for (int64_t h = 0; h < grids[i]; h++)
                    for (int64_t w = 0; w < grids[i]; w++) {
                        int bc = 0;
                        double bv = 0;
                        for (int c = 0; c < nc; c++) {
                            double v = val(&d[i], b[i], 0, a * per + 5 + c, h, w);
                            if (c == 0 || v > bv) bc = c, bv = v;
                        }
                        double score = val(&d[i], b[i], 0, a * per + 4, h, w) * bv;
                        if (!(score >= thr)) continue;
                        double q[4];
                        for (int j = 0; j < 4; j++) q[j] = val(&d[i], b[i], 0, a * per + j, h, w);
                        double cx = (q[0] * 2 - 0.5 + w) * st, cy = (q[1] * 2 - 0.5 + h) * st;
                        double bw = 4 * q[2] * q[2] * br[i].anchors[2 * a], bh = 4 * q[3] * q[3] * br[i].anchors[2 * a + 1];
                        cand[n++] = (rdet){cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2, score, bc, i, a, h, w};
                    }
        }
        size_t nw = ref_nms(cand, n, p.iou, want);
        static tl_detection got[MAXC];
        size_t ng = 0;
        REQUIRE_STATUS(tl_detect_yolov5(br, 3, &p, got, MAXC, &ng), TL_OK);
        compare(got, ng, want, nw, NULL, layouts[lay]);
        CHECK(nw > 3);
        for (int i = 0; i < 3; i++) free(b[i]);
    }
}

TL_TEST(detect_bad_input_named)
{
    tl_desc box, cls, cls2;
    REQUIRE_STATUS(tl_desc_parse(&box, "NCHW:i8:1x64x4x4"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&cls, "NCHW:i8:1x3x4x4"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&cls2, "NCHW:i8:1x3x4x5"), TL_OK);
    static uint8_t buf[4096];
    tl_yolov8_branch b = {{&box, buf, 1024}, {&cls2, buf, 60}, {NULL, NULL, 0}};
    tl_detect_params p = {0.5, 0.45, 0, 32, 32, 0, NULL};
    tl_detection out[4];
    size_t n = 0;
    CHECK_STATUS(tl_detect_yolov8(&b, 1, &p, out, 4, &n), TL_ERR_MISMATCH);
    CHECK_STR_CONTAINS(tl_last_error(), "must share the grid");
    b.cls.desc = &cls, b.cls.len = 48;
    p.threshold = NAN;
    CHECK_STATUS(tl_detect_yolov8(&b, 1, &p, out, 4, &n), TL_ERR_QUANT);
    p.threshold = 0.5, p.iou = 1.5;
    CHECK_STATUS(tl_detect_yolov8(&b, 1, &p, out, 4, &n), TL_ERR_COORD);
    p.iou = 0.45, p.batch = 1;
    CHECK_STATUS(tl_detect_yolov8(&b, 1, &p, out, 4, &n), TL_ERR_COORD);
    CHECK_STR_CONTAINS(tl_last_error(), "batch=1");
    p.batch = 0;
    b.box.len = 10;
    CHECK_STATUS(tl_detect_yolov8(&b, 1, &p, out, 4, &n), TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "branch 0 box");
    b.box.len = 1024;
    box.quant = tl_test_quant(TL_Q_AFFINE, 0, -1.0f, 0, 0);
    CHECK_STATUS(tl_detect_yolov8(&b, 1, &p, out, 4, &n), TL_ERR_QUANT);
    tl_yolov5_branch v5 = {{&cls, buf, 48}, 3, 0, {0}};
    CHECK_STATUS(tl_detect_yolov5(&v5, 1, &p, out, 4, &n), TL_ERR_MISMATCH);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(yolov8_split_equals_reference);
    TL_RUN(yolov8_single_equals_reference);
    TL_RUN(yolov5_equals_reference);
    TL_RUN(detect_bad_input_named);
    return tl_test_finish();
}
