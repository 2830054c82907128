/* bench_post: post-processing on native buffers against the ways it is done
 * today (a program, not a test: run it on a quiet machine, one thread).
 *
 *   bench_post [--reps N] [--isa scalar|sse2|avx2|avx512|neon]   (--isa = TL_CPU)
 *
 * 1. YOLOv8n 640x640, RKNN split heads (NC1HWC2 i8, strides 8/16/32, synthetic
 *    scene statistics from examples/yolov8_heads.h), confidence 0.25, NMS 0.45:
 *    tl_detect_yolov8 on the native buffers, against a re-implementation of the
 *    RKNN model zoo's C++ post-processing (examples/yolov8/cpp/postprocess.cc):
 *    the runtime's conversion of each output to NCHW int8 (asked for NCHW, the
 *    runtime converts on the CPU), then the zoo's loops: a score-sum reject per
 *    cell, the 80 class scores read with a stride of H*W, float DFL with exp on
 *    every bin of the survivors, a sort by score and a per-class NMS pass over
 *    all candidates. Where the zoo's definitions differ from tlayout's (it
 *    truncates the quantized threshold, sorts unstably and adds 1 to box sides
 *    in its IoU), the re-implementation uses tlayout's, so that the detections
 *    can be compared: the program asserts they are identical (class, score,
 *    box within 1e-3 px) and exits 1 if not.
 * 2. tl_scan throughput on a 256 KiB NC1HWC2 i8 tensor where nothing passes
 *    (pure candidate search) against memcpy of the same 256 KiB.
 * 3. tl_argmax 21x65x65 -> 513x513 bilinear (segmentation labels) against
 *    dequantize (tl_convert to f32) + float bilinear upsample of every channel
 *    + argmax, asserting identical labels (the scale is a power of two: the
 *    integer blend is exact and so is the float one here).
 * Times: best of N repetitions (default 50), in microseconds. */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tlayout.h"
#include "tlayout/detect.h"
#include "yolov8_heads.h"

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

#define BEST_OF(reps, best, stmt)                          \
    do {                                                   \
        best = 1e30;                                       \
        for (int r_ = 0; r_ < (reps); r_++) {              \
            double t0_ = now();                            \
            stmt;                                          \
            double dt_ = now() - t0_;                      \
            best = dt_ < best ? dt_ : best;                \
        }                                                  \
    } while (0)

/* ==== 1. the model zoo's way ========================================================= */
typedef struct zoo_out {
    int8_t *box, *cls, *sum; /* NCHW int8, as the runtime returns them */
    int grid;
    int32_t box_zp, cls_zp, sum_zp;
    float box_scale, cls_scale, sum_scale;
} zoo_out;

/* The runtime's NC1HWC2 -> NCHW conversion of one output (Rockchip's sample loop). */
static void nc1hwc2_to_nchw(const tl_desc *d, const int8_t *src, int8_t *dst)
{
    int64_t C = 0, H = d->dims[2], W = d->dims[3], C2 = d->vendor_params[TL_RKNN_P_C2];
    C = d->dims[1];
    for (int64_t c = 0; c < C; c++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++)
                dst[(c * H + h) * W + w] = src[(((c / C2) * H + h) * W + w) * C2 + c % C2];
}

static float deq(int8_t q, int32_t zp, float scale) { return ((float)q - (float)zp) * scale; }

static void zoo_dfl(const float *t, int len, float *box)
{
    for (int b = 0; b < 4; b++) {
        float e[16], sum = 0, acc = 0;
        for (int i = 0; i < len; i++) e[i] = (float)exp(t[i + b * len]), sum += e[i];
        for (int i = 0; i < len; i++) acc += e[i] / sum * (float)i;
        box[b] = acc;
    }
}

typedef struct zdet {
    float x, y, w, h, score;
    int cls;
} zdet;

/* process_i8: thresholds as codes; thr = T - 1 makes the zoo's `>` tlayout's `>= T`. */
static int zoo_process(const zoo_out *o, int stride, int8_t thr_cls, int8_t thr_sum, zdet *out, int n)
{
    int grid_len = o->grid * o->grid;
    for (int i = 0; i < o->grid; i++)
        for (int j = 0; j < o->grid; j++) {
            int offset = i * o->grid + j, max_class = -1;
            if (o->sum[offset] <= thr_sum) continue;
            int8_t max_score = (int8_t)-o->cls_zp;
            for (int c = 0; c < YH_CLASSES; c++) {
                if (o->cls[offset] > thr_cls && o->cls[offset] > max_score) max_score = o->cls[offset], max_class = c;
                offset += grid_len;
            }
            if (max_score > thr_cls && max_class >= 0) {
                float before[64], box[4];
                offset = i * o->grid + j;
                for (int k = 0; k < 64; k++, offset += grid_len) before[k] = deq(o->box[offset], o->box_zp, o->box_scale);
                zoo_dfl(before, 16, box);
                float x1 = (-box[0] + j + 0.5f) * stride, y1 = (-box[1] + i + 0.5f) * stride;
                float x2 = (box[2] + j + 0.5f) * stride, y2 = (box[3] + i + 0.5f) * stride;
                out[n++] = (zdet){x1, y1, x2 - x1, y2 - y1, deq(max_score, o->cls_zp, o->cls_scale), max_class};
            }
        }
    return n;
}

static float zoo_iou(const zdet *a, const zdet *b)
{
    float w = fminf(a->x + a->w, b->x + b->w) - fmaxf(a->x, b->x), h = fminf(a->y + a->h, b->y + b->h) - fmaxf(a->y, b->y);
    float i = w > 0 && h > 0 ? w * h : 0, u = a->w * a->h + b->w * b->h - i;
    return u <= 0 ? 0 : i / u;
}

/* Sort indices by score (stable here), then NMS per class present, as the zoo loops. */
static int zoo_post(zdet *d, int n, float iou, int *order)
{
    for (int i = 0; i < n; i++) order[i] = i;
    for (int i = 1; i < n; i++) {
        int x = order[i], j = i;
        while (j > 0 && d[order[j - 1]].score < d[x].score) order[j] = order[j - 1], j--;
        order[j] = x;
    }
    char present[YH_CLASSES] = {0};
    for (int i = 0; i < n; i++) present[d[i].cls] = 1;
    for (int c = 0; c < YH_CLASSES; c++) {
        if (!present[c]) continue;
        for (int i = 0; i < n; i++) {
            if (order[i] < 0 || d[order[i]].cls != c) continue;
            for (int j = i + 1; j < n; j++)
                if (order[j] >= 0 && d[order[j]].cls == c && zoo_iou(&d[order[i]], &d[order[j]]) > iou) order[j] = -1;
        }
    }
    int k = 0;
    for (int i = 0; i < n; i++)
        if (order[i] >= 0) order[k++] = order[i];
    return k;
}

static int zoo_decode(const yolo_heads *y, zoo_out *o, zdet *cand, int *order, int *kept)
{
    int n = 0;
    for (int b = 0; b < YH_BRANCHES; b++) {
        nc1hwc2_to_nchw(&y->box[b], y->box_buf[b], o[b].box);
        nc1hwc2_to_nchw(&y->cls[b], y->cls_buf[b], o[b].cls);
        nc1hwc2_to_nchw(&y->sum[b], y->sum_buf[b], o[b].sum);
        int32_t tc = 0, ts = 0;
        tl_rknn_threshold(&y->cls[b], 0.25, &tc);
        tl_rknn_threshold(&y->sum[b], 0.25, &ts);
        n = zoo_process(&o[b], YH_INPUT / o[b].grid, (int8_t)(tc - 1), (int8_t)(ts - 1), cand, n);
    }
    *kept = zoo_post(cand, n, 0.45f, order);
    return n;
}

static int bench_yolo(int reps)
{
    yolo_heads y;
    if (!yolo_heads_make(&y, 2024u, 20)) return fprintf(stderr, "heads: %s\n", tl_last_error()), 1;
    zoo_out o[YH_BRANCHES];
    tl_yolov8_branch br[YH_BRANCHES];
    for (int b = 0; b < YH_BRANCHES; b++) {
        int g = (int)y.cls[b].dims[2];
        o[b] = (zoo_out){malloc((size_t)64 * g * g), malloc((size_t)80 * g * g), malloc((size_t)g * g), g,
                         y.box[b].quant.zp, y.cls[b].quant.zp, y.sum[b].quant.zp, y.box[b].quant.scale,
                         y.cls[b].quant.scale, y.sum[b].quant.scale};
        br[b].box = (tl_tensor){&y.box[b], y.box_buf[b], (size_t)y.box[b].size_bytes};
        br[b].cls = (tl_tensor){&y.cls[b], y.cls_buf[b], (size_t)y.cls[b].size_bytes};
        br[b].sum = (tl_tensor){&y.sum[b], y.sum_buf[b], (size_t)y.sum[b].size_bytes};
    }
    static zdet cand[20000];
    static int order[20000];
    static tl_detection det[4096];
    tl_detect_params p = {0.25, 0.45, 0, YH_INPUT, YH_INPUT, 0, NULL};
    size_t nd = 0;
    int kept = 0, ncand = 0;
    double t_tl, t_zoo;
    BEST_OF(reps, t_tl, tl_detect_yolov8(br, YH_BRANCHES, &p, det, 4096, &nd));
    BEST_OF(reps, t_zoo, ncand = zoo_decode(&y, o, cand, order, &kept));
    int same = (size_t)kept == nd;
    for (int i = 0; same && i < kept; i++) {
        const zdet *z = &cand[order[i]];
        const tl_detection *d = &det[i];
        same = z->cls == d->cls && (double)z->score == d->score && fabs(z->x - d->x0) < 1e-3 &&
               fabs(z->y - d->y0) < 1e-3 && fabs(z->x + z->w - d->x1) < 1e-3 && fabs(z->y + z->h - d->y1) < 1e-3;
    }
    printf("yolov8n 640 RKNN split heads, conf 0.25: %d candidates, %zu detections\n", ncand, nd);
    printf("  tlayout tl_detect_yolov8 (native NC1HWC2)   %9.1f us\n", t_tl * 1e6);
    printf("  model zoo way (to NCHW i8, strided loops)   %9.1f us   speedup %.2fx (target >= 4x)\n", t_zoo * 1e6,
           t_zoo / t_tl);
    printf("  detections identical: %s\n", same ? "yes" : "NO");
    for (int b = 0; b < YH_BRANCHES; b++) free(o[b].box), free(o[b].cls), free(o[b].sum);
    yolo_heads_free(&y);
    return same ? 0 : 1;
}

/* ==== 2. scan vs memcpy ============================================================== */
static int bench_scan(int reps)
{
    tl_desc d;
    if (tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x2x64x128x16:c=32:zp=-128:scale=0.0039215689") != TL_OK) return 1;
    size_t n = (size_t)d.size_bytes;
    int8_t *a = malloc(n), *b = malloc(n);
    uint32_t s = 7;
    for (size_t i = 0; i < n; i++) a[i] = (int8_t)(-128 + (int)(yh_rng(&s) % 20)); /* nothing reaches 0.25 */
    size_t hits = 0;
    double t_scan, t_copy;
    BEST_OF(reps * 4, t_scan, tl_scan(&d, a, n, 0, 32, 0.25, TL_SCAN_BEST, NULL, 0, &hits));
    BEST_OF(reps * 4, t_copy, memcpy(b, a, n); __asm__ __volatile__("" ::"r"(b) : "memory"));
    printf("tl_scan 256 KiB NC1HWC2 i8, no hits (%zu)       %9.1f us  %6.2f GB/s\n", hits, t_scan * 1e6, n / t_scan * 1e-9);
    printf("  memcpy of the same 256 KiB                  %9.1f us  %6.2f GB/s   scan/memcpy %.2f (target >= 0.5)\n",
           t_copy * 1e6, n / t_copy * 1e-9, t_copy / t_scan);
    free(a), free(b);
    return 0;
}

/* ==== 3. segmentation argmax ========================================================= */
/* Source taps of the half-pixel grid (cv2 INTER_LINEAR), computed once per axis. */
typedef struct ftap {
    int i0, i1;
    double f;
} ftap;

static void float_taps(ftap *t, int in, int out)
{
    for (int x = 0; x < out; x++) {
        double sx = (x + 0.5) * in / out - 0.5;
        sx = sx < 0 ? 0 : sx;
        int i0 = (int)sx;
        t[x] = i0 >= in - 1 ? (ftap){in - 1, in - 1, 0.0} : (ftap){i0, i0 + 1, sx - i0};
    }
}

/* The usual way: upsample every dequantized channel (taps computed once), then
 * an argmax over the channels of each output pixel. */
static void float_upsample_argmax(const float *f, int C, int H, int W, int oh, int ow, float *up, int32_t *lab)
{
    ftap tx[1024], ty[1024];
    float_taps(tx, W, ow);
    float_taps(ty, H, oh);
    for (int c = 0; c < C; c++) {
        const float *p = f + (size_t)c * H * W;
        for (int y = 0; y < oh; y++) {
            const float *r0 = p + ty[y].i0 * W, *r1 = p + ty[y].i1 * W;
            double fy = ty[y].f;
            float *o = up + ((size_t)c * oh + y) * ow;
            for (int x = 0; x < ow; x++) {
                double fx = tx[x].f;
                o[x] = (float)((1 - fy) * ((1 - fx) * r0[tx[x].i0] + fx * r0[tx[x].i1]) +
                               fy * ((1 - fx) * r1[tx[x].i0] + fx * r1[tx[x].i1]));
            }
        }
    }
    for (size_t i = 0; i < (size_t)oh * ow; i++) {
        int best = 0;
        for (int c = 1; c < C; c++)
            if (up[(size_t)c * oh * ow + i] > up[(size_t)best * oh * ow + i]) best = c;
        lab[i] = best;
    }
}

static int bench_argmax(int reps)
{
    tl_desc d, f;
    if (tl_desc_parse(&d, "rknn.nc1hwc2:i8:1x21x65x65:c2=16:zp=-10:scale=0.125") != TL_OK ||
        tl_desc_parse(&f, "NCHW:f32:1x21x65x65") != TL_OK)
        return 1;
    int8_t *a = malloc((size_t)d.size_bytes);
    float *fl = malloc((size_t)f.size_bytes), *up = malloc((size_t)21 * 513 * 513 * 4);
    int32_t *l1 = malloc(513 * 513 * 4), *l2 = malloc(513 * 513 * 4);
    uint32_t s = 99;
    for (int64_t i = 0; i < d.size_bytes; i++) a[i] = (int8_t)(yh_rng(&s) & 0xFF);
    double t_tl, t_f;
    BEST_OF(reps, t_tl, tl_argmax(&d, a, (size_t)d.size_bytes, TL_RESIZE_BILINEAR, 513, 513, TL_LABEL_I32, l1, 513 * 513 * 4));
    BEST_OF(reps, t_f, tl_convert(&d, a, (size_t)d.size_bytes, &f, fl, (size_t)f.size_bytes);
            float_upsample_argmax(fl, 21, 65, 65, 513, 513, up, l2));
    size_t diff = 0;
    for (size_t i = 0; i < 513 * 513; i++) diff += l1[i] != l2[i];
    printf("argmax 21x65x65 -> 513x513 bilinear: tl_argmax %9.1f us; dequantize + float upsample + argmax %9.1f us;"
           " speedup %.2fx (target >= 3x); labels differing: %zu\n", t_tl * 1e6, t_f * 1e6, t_f / t_tl, diff);
    free(a), free(fl), free(up), free(l1), free(l2);
    return diff != 0;
}

int main(int argc, char **argv)
{
    int reps = 50;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--reps") == 0 && i + 1 < argc) reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "--isa") == 0 && i + 1 < argc) {
            /* The library's kernel path is the engine's machine policy, read once
             * from TL_CPU before the first call: set it here, as TL_CPU=... would. */
            setenv("TL_CPU", argv[++i], 1);
        } else {
            fprintf(stderr, "usage: bench_post [--reps N] [--isa scalar|sse2|avx2|avx512|neon]\n");
            return 2;
        }
    }
    if (reps < 1) reps = 1;
    int bad = bench_yolo(reps);
    bad |= bench_scan(reps);
    bad |= bench_argmax(reps < 5 ? reps : 5);
    return bad;
}
