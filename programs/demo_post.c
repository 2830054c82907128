/* The RKNN post-processing part of `tlayout demo`: YOLOv8n split heads in
 * RKNN NC1HWC2 int8 (synthetic, examples/yolov8_heads.h) decoded in place by
 * tl_detect_yolov8, timed (best of runs) against dequantizing every head first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "yolov8_heads.h"
#include "cli.h"
#include "tlayout/detect.h"

static double seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best time of dequantizing all nine heads to NCHW f32 (what a float runtime output costs). */
static tl_status dequantize_all(const yolo_heads *y, int runs, double *best)
{
    tl_desc f[3 * YH_BRANCHES];
    const tl_desc *src[3 * YH_BRANCHES];
    const int8_t *buf[3 * YH_BRANCHES];
    float *dst[3 * YH_BRANCHES] = {0};
    tl_status s = TL_OK;
    for (int b = 0; b < YH_BRANCHES; b++)
        src[3 * b] = &y->box[b], src[3 * b + 1] = &y->cls[b], src[3 * b + 2] = &y->sum[b],
        buf[3 * b] = y->box_buf[b], buf[3 * b + 1] = y->cls_buf[b], buf[3 * b + 2] = y->sum_buf[b];
    for (int i = 0; i < 3 * YH_BRANCHES && s == TL_OK; i++) {
        char spec[96];
        snprintf(spec, sizeof spec, "NCHW:f32:1x%lldx%lldx%lld", (long long)src[i]->dims[1],
                 (long long)src[i]->dims[2], (long long)src[i]->dims[3]);
        s = parse_spec(&f[i], "demo", spec);
        if (s == TL_OK && !(dst[i] = malloc((size_t)f[i].size_bytes))) s = cli_fail(TL_ERR_NOMEM, "demo: heads");
    }
    *best = 1e30;
    for (int r = 0; r < runs && s == TL_OK; r++) {
        double t0 = seconds();
        for (int i = 0; i < 3 * YH_BRANCHES && s == TL_OK; i++)
            s = tl_convert(src[i], buf[i], (size_t)src[i]->size_bytes, &f[i], dst[i], (size_t)f[i].size_bytes);
        *best = fmin(*best, seconds() - t0);
    }
    for (int i = 0; i < 3 * YH_BRANCHES; i++) free(dst[i]);
    return s;
}

tl_status demo_rknn_decode(int runs)
{
    yolo_heads y;
    if (!yolo_heads_make(&y, 2024u, 20)) return cli_fail(TL_ERR_NOMEM, "demo: YOLOv8 heads");
    tl_yolov8_branch br[YH_BRANCHES];
    for (int b = 0; b < YH_BRANCHES; b++) {
        br[b].box = (tl_tensor){&y.box[b], y.box_buf[b], (size_t)y.box[b].size_bytes};
        br[b].cls = (tl_tensor){&y.cls[b], y.cls_buf[b], (size_t)y.cls[b].size_bytes};
        br[b].sum = (tl_tensor){&y.sum[b], y.sum_buf[b], (size_t)y.sum[b].size_bytes};
    }
    tl_detect_params p = {0.25, 0.45, 0, YH_INPUT, YH_INPUT, 0, NULL};
    tl_detection det[256];
    size_t n = 0;
    double best = 1e30, deq = 0;
    tl_status s = TL_OK;
    for (int r = 0; r < runs && s == TL_OK; r++) {
        double t0 = seconds();
        s = tl_detect_yolov8(br, YH_BRANCHES, &p, det, 256, &n);
        best = fmin(best, seconds() - t0);
    }
    if (s == TL_OK) s = dequantize_all(&y, runs, &deq);
    if (s == TL_OK) {
        printf("\nRKNN post-processing in the native layout (step 5's NC1HWC2 i8): YOLOv8n split heads\n"
               "at 640x640 (synthetic, strides 8/16/32: 9 output tensors), decoded in place by\n"
               "tl_detect_yolov8 at confidence 0.25, NMS IoU 0.45: %zu detections in %.3f ms;\n"
               "dequantizing the heads to f32 alone (before any decode) takes %.3f ms.\n", n, best * 1e3,
               deq * 1e3);
        for (size_t i = 0; i < n && i < 3; i++)
            printf("    class %2d  score %.3f  box (%.0f, %.0f)-(%.0f, %.0f)\n", (int)det[i].cls, det[i].score,
                   det[i].x0, det[i].y0, det[i].x1, det[i].y1);
    }
    yolo_heads_free(&y);
    return s;
}
