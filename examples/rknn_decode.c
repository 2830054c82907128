/* rknn_decode: a YOLOv8n detection decode straight from RKNN native outputs.
 *
 * The model zoo's split-head export gives, per stride, a box head (4 x 16 DFL
 * bins), a class head (80 scores) and a score-sum head, which an RK3588 hands
 * back as NC1HWC2 int8 ([1, C1, H, W, 16]). Here they are synthetic, with the
 * statistics of a busy scene (yolov8_heads.h). Two ways:
 *
 *   A. tl_detect_yolov8 on the native buffers: class scores are compared as
 *      codes with the exact quantized threshold, only the cells that pass are
 *      decoded (DFL softmax), then class-aware NMS;
 *   B. what a runtime asked for float NCHW output does: dequantize every head
 *      (tl_convert to NCHW f32), then decode the floats cell by cell.
 *
 *   usage: rknn_decode [THRESHOLD] [REPEATS]      (defaults 0.25 and 20)
 *
 * Exit status 0 when both ways give the same detections (class, score bit for
 * bit, box within 1e-6 px), 1 if not. Timings are informational.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tlayout.h"
#include "tlayout/detect.h"
#include "yolov8_heads.h"

#define MAX_DET 4096
#define IOU 0.45

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- B: dequantize everything, then decode floats --------------------------------- */
typedef struct fhead {
    float *box, *cls, *sum; /* NCHW f32 */
    int64_t H, W;
} fhead;

static tl_status to_f32(const tl_desc *d, const int8_t *buf, float **out)
{
    char spec[96];
    tl_desc f;
    snprintf(spec, sizeof spec, "NCHW:f32:1x%lldx%lldx%lld", (long long)d->dims[1], (long long)d->dims[2],
             (long long)d->dims[3]);
    tl_status s = tl_desc_parse(&f, spec);
    if (s == TL_OK && !*out) *out = malloc((size_t)f.size_bytes);
    if (s == TL_OK) s = *out ? tl_convert(d, buf, (size_t)d->size_bytes, &f, *out, (size_t)f.size_bytes) : TL_ERR_NOMEM;
    return s;
}

static double iou(const tl_detection *a, const tl_detection *b)
{
    double iw = fmin(a->x1, b->x1) - fmax(a->x0, b->x0), ih = fmin(a->y1, b->y1) - fmax(a->y0, b->y0);
    double inter = iw > 0 && ih > 0 ? iw * ih : 0;
    double u = (a->x1 - a->x0) * (a->y1 - a->y0) + (b->x1 - b->x0) * (b->y1 - b->y0) - inter;
    return u > 0 ? inter / u : 0;
}

static int decode_float(const fhead *fh, double t, tl_detection *out)
{
    static tl_detection cand[MAX_DET];
    int n = 0;
    for (int b = 0; b < YH_BRANCHES; b++) {
        int64_t H = fh[b].H, W = fh[b].W, plane = H * W;
        double stride = (double)YH_INPUT / (double)H;
        for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++) {
                if (!(fh[b].sum[h * W + w] >= t)) continue; /* the score-sum reject */
                int best = 0;
                for (int c = 1; c < YH_CLASSES; c++)
                    if (fh[b].cls[c * plane + h * W + w] > fh[b].cls[best * plane + h * W + w]) best = c;
                float score = fh[b].cls[best * plane + h * W + w];
                if (!(score >= t) || n == MAX_DET) continue;
                double d[4];
                for (int k = 0; k < 4; k++) { /* DFL: expectation of the softmax over 16 bins */
                    double m = -INFINITY, se = 0, acc = 0;
                    for (int i = 0; i < YH_BINS; i++) m = fmax(m, fh[b].box[(k * YH_BINS + i) * plane + h * W + w]);
                    for (int i = 0; i < YH_BINS; i++) {
                        double e = exp(fh[b].box[(k * YH_BINS + i) * plane + h * W + w] - m);
                        se += e, acc += e * i;
                    }
                    d[k] = acc / se;
                }
                double cx = (double)w + 0.5, cy = (double)h + 0.5;
                cand[n++] = (tl_detection){(cx - d[0]) * stride, (cy - d[1]) * stride, (cx + d[2]) * stride,
                                           (cy + d[3]) * stride, score, best, b, 0, 0, h, w};
            }
    }
    for (int i = 1; i < n; i++) { /* stable sort by score, descending */
        tl_detection x = cand[i];
        int j = i;
        while (j > 0 && cand[j - 1].score < x.score) cand[j] = cand[j - 1], j--;
        cand[j] = x;
    }
    int k = 0;
    for (int i = 0; i < n; i++) {
        int drop = 0;
        for (int j = 0; j < k && !drop; j++) drop = out[j].cls == cand[i].cls && iou(&out[j], &cand[i]) > IOU;
        if (!drop) out[k++] = cand[i];
    }
    return k;
}

static int same(const tl_detection *a, size_t na, const tl_detection *b, size_t nb)
{
    if (na != nb) return 0;
    for (size_t i = 0; i < na; i++)
        if (a[i].cls != b[i].cls || a[i].score != b[i].score || fabs(a[i].x0 - b[i].x0) > 1e-6 ||
            fabs(a[i].y0 - b[i].y0) > 1e-6 || fabs(a[i].x1 - b[i].x1) > 1e-6 || fabs(a[i].y1 - b[i].y1) > 1e-6)
            return 0;
    return 1;
}

int main(int argc, char **argv)
{
    double t = argc > 1 ? atof(argv[1]) : 0.25;
    int repeats = argc > 2 ? atoi(argv[2]) : 20;
    if (repeats < 1) repeats = 1;
    yolo_heads y;
    if (!yolo_heads_make(&y, 2024u, 20)) {
        fprintf(stderr, "rknn_decode: heads: %s\n", tl_last_error());
        return 1;
    }
    tl_yolov8_branch br[YH_BRANCHES];
    fhead fh[YH_BRANCHES];
    memset(fh, 0, sizeof fh);
    for (int b = 0; b < YH_BRANCHES; b++) {
        br[b].box = (tl_tensor){&y.box[b], y.box_buf[b], (size_t)y.box[b].size_bytes};
        br[b].cls = (tl_tensor){&y.cls[b], y.cls_buf[b], (size_t)y.cls[b].size_bytes};
        br[b].sum = (tl_tensor){&y.sum[b], y.sum_buf[b], (size_t)y.sum[b].size_bytes};
        fh[b].H = y.cls[b].dims[2], fh[b].W = y.cls[b].dims[3];
    }
    tl_detect_params p = {t, IOU, 0, YH_INPUT, YH_INPUT, 0, NULL};
    static tl_detection a[MAX_DET], bdet[MAX_DET];
    size_t na = 0;
    int nb = 0;
    tl_status s = TL_OK;
    double t0 = now_seconds();
    for (int r = 0; r < repeats && s == TL_OK; r++) s = tl_detect_yolov8(br, YH_BRANCHES, &p, a, MAX_DET, &na);
    double t1 = now_seconds();
    for (int r = 0; r < repeats && s == TL_OK; r++) {
        for (int b = 0; b < YH_BRANCHES && s == TL_OK; b++) {
            s = to_f32(&y.box[b], y.box_buf[b], &fh[b].box);
            if (s == TL_OK) s = to_f32(&y.cls[b], y.cls_buf[b], &fh[b].cls);
            if (s == TL_OK) s = to_f32(&y.sum[b], y.sum_buf[b], &fh[b].sum);
        }
        if (s == TL_OK) nb = decode_float(fh, t, bdet);
    }
    double t2 = now_seconds();
    if (s != TL_OK) {
        fprintf(stderr, "rknn_decode: %s: %s\n", tl_status_str(s), tl_last_error());
        return 1;
    }
    int ok = same(a, na, bdet, (size_t)nb);
    printf("YOLOv8n split heads, RKNN NC1HWC2 i8 (strides 8/16/32), threshold %g, NMS IoU %g\n", t, IOU);
    printf("A native decode (tl_detect_yolov8): %zu detections, %.1f us/frame\n", na, (t1 - t0) * 1e6 / repeats);
    printf("B dequantize all, decode floats:    %d detections, %.1f us/frame\n", nb, (t2 - t1) * 1e6 / repeats);
    for (size_t i = 0; i < na && i < 3; i++)
        printf("  class %2d score %.4f box (%.1f, %.1f)-(%.1f, %.1f) stride %d\n", (int)a[i].cls, a[i].score,
               a[i].x0, a[i].y0, a[i].x1, a[i].y1, 8 << a[i].branch);
    printf("%s\n", ok ? "A and B agree on every detection" : "MISMATCH between A and B");
    for (int b = 0; b < YH_BRANCHES; b++) free(fh[b].box), free(fh[b].cls), free(fh[b].sum);
    yolo_heads_free(&y);
    return ok && na > 0 ? 0 : 1;
}
