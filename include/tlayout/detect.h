/* Object detection decoders on native buffers (docs/postprocess.md).
 *
 *   #include "tlayout/detect.h"     (not included by tlayout.h: model-specific)
 *
 * Built on tl_scan and tl_gather: scores are compared in the code domain with
 * the exact quantized threshold, box channels are dequantized only for the
 * positions that pass, and every quantization is read from the descriptors.
 * Any layout tlayout describes works (RKNN NC1HWC2, NCHW, NHWC, TensorRT,
 * TIDL padded, ...); tensors are read as (n, c, h, w) as in tlayout/post.h.
 *
 * Definitions (all arithmetic in double):
 * - a candidate passes when its score >= threshold;
 * - class-aware NMS: candidates sorted by score, descending, stable (ties keep
 *   the decode order: branch, then anchor, then (h, w)); a candidate is
 *   dropped when its IoU with an already kept box of the same class is greater
 *   than the IoU threshold. IoU = intersection / union of the corner boxes
 *   (continuous coordinates, no +1), 0 when the union is 0;
 * - boxes are corners (x0, y0, x1, y1) in model-input pixels, or, with a
 *   tl_box_map, in source-frame pixels: x_src = (x - dx) / sx, y_src =
 *   (y - dy) / sy (not clamped).
 */
#ifndef TLAYOUT_DETECT_H
#define TLAYOUT_DETECT_H
#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

/* The forward map of a letterbox: model-input pixel = source pixel * s + d
 * (per axis). A letterbox of scale r with pads (px, py) is {r, r, px, py}. */
typedef struct tl_box_map {
    double sx, sy;
    double dx, dy;
} tl_box_map;

/* A tensor and its buffer. */
typedef struct tl_tensor {
    const tl_desc *desc;
    const void *buf;
    size_t len;
} tl_tensor;

typedef struct tl_detection {
    double x0, y0, x1, y1;  /* corners (see above) */
    double score;
    int32_t cls;            /* class index */
    int32_t branch;         /* which branch (stride) found it */
    int32_t anchor;         /* YOLOv5: anchor 0..na-1; else 0 */
    int32_t code;           /* the stored code of the class score */
    int64_t h, w;           /* grid cell (single output: h 0, w the anchor index) */
} tl_detection;

typedef struct tl_detect_params {
    double threshold;       /* confidence: keep score >= threshold */
    double iou;             /* NMS: drop IoU > iou with a kept box of the same class */
    int64_t batch;          /* batch item n to decode */
    int32_t input_w, input_h; /* model input in pixels: stride = input / grid size */
    int32_t reserved_;
    const tl_box_map *map;  /* NULL: boxes in model-input pixels */
} tl_detect_params;

/* YOLOv8 / YOLO11 split heads, as the RKNN model zoo exports them: one branch
 * per stride (8, 16, 32), each
 *   box: 4 x R channels, the DFL bins of the distances left, top, right,
 *        bottom (R = C / 4, 16 in YOLOv8);
 *   cls: nc channels of class scores (after the model's sigmoid);
 *   sum: optional (desc NULL = none), 1 channel: the model's sum of the class
 *        scores; a cell whose sum is below the threshold is skipped (the
 *        model zoo's fast reject, part of the definition when given).
 * Score = the best class score of the cell (ties -> the lowest class).
 * Box: d_k = sum_i i * softmax(bins_k)_i, then, with stride (input_w / W,
 * input_h / H) and the cell centre (w + 0.5, h + 0.5):
 *   x0 = (w + 0.5 - d_left) * stride_x    y0 = (h + 0.5 - d_top) * stride_y
 *   x1 = (w + 0.5 + d_right) * stride_x   y1 = (h + 0.5 + d_bottom) * stride_y
 * Every branch's tensors must agree on N, H, W, and every branch on nc and R:
 * TL_ERR_MISMATCH otherwise. out[0..cap) receives the kept detections, best
 * first; TL_ERR_BUFFER_SMALL (nothing written, *count = the number kept) when
 * cap is too small. */
typedef struct tl_yolov8_branch {
    tl_tensor box, cls, sum;
} tl_yolov8_branch;
TL_API tl_status tl_detect_yolov8(const tl_yolov8_branch *branches, int nbranches, const tl_detect_params *p,
                                  tl_detection *out, size_t cap, size_t *count);

/* YOLOv8 single output [N, 4 + nc, A] (Ultralytics export; read as N C W):
 * per anchor a, channels 0..3 are the box centre and size (cx, cy, w, h) in
 * input pixels, channels 4.. the class scores. Score = the best class. */
TL_API tl_status tl_detect_yolov8_single(const tl_tensor *t, const tl_detect_params *p, tl_detection *out,
                                         size_t cap, size_t *count);

/* YOLOv5 anchor-based heads, one branch per stride, [N, na*(5+nc), H, W]:
 * for anchor a, channels a*(5+nc) + (x, y, w, h, objectness, nc class scores),
 * all after the model's sigmoid (values in [0, 1]). Score = objectness * the
 * best class score; since class scores are <= 1, cells whose objectness is
 * below the threshold are skipped in the code domain. Box (model zoo decode):
 *   cx = (2x - 0.5 + w) * stride_x    bw = (2 w_out)^2 * anchor_w
 *   cy = (2y - 0.5 + h) * stride_y    bh = (2 h_out)^2 * anchor_h
 * corners cx -+ bw/2, cy -+ bh/2. anchors: na (w, h) pairs in input pixels. */
#define TL_YOLOV5_MAX_ANCHORS 8
typedef struct tl_yolov5_branch {
    tl_tensor t;
    int32_t na;                                   /* anchors (3 in YOLOv5) */
    int32_t reserved_;
    double anchors[2 * TL_YOLOV5_MAX_ANCHORS];    /* w0, h0, w1, h1, ... */
} tl_yolov5_branch;
TL_API tl_status tl_detect_yolov5(const tl_yolov5_branch *branches, int nbranches, const tl_detect_params *p,
                                  tl_detection *out, size_t cap, size_t *count);

/* The COCO anchors of YOLOv5 (strides 8, 16, 32), for the common case. */
TL_API void tl_yolov5_default_anchors(int branch, double anchors[6]);

#ifdef __cplusplus
}
#endif
#endif
