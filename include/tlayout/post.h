/* Post-processing on native buffers (included by tlayout.h; docs/postprocess.md).
 *
 * Model outputs are read where the accelerator left them, in any layout a
 * descriptor describes (RKNN NC1HWC2, TensorRT kCHW32, TIDL padded planes, ...):
 * no conversion pass. Every operation sees the tensor as (n, c, h, w):
 *   - c is the dim labelled C; n, h, w the dims labelled N, H, W (a missing one
 *     counts as size 1);
 *   - an unlabelled tensor is read by position: rank 1 (C), 2 (N C), 3 (N C W),
 *     4 (N C H W);
 *   - any other dim must be 1.
 * Padding and pad channels are never read as values. Codes are integers (i8 u8
 * i16 u16 i4 u4), quantized (affine, inverse-scale, dfp) or not; their real
 * value is tl_dequantize_value(&d->quant, code), the library's f32 arithmetic.
 * Thresholds are compared in the code domain with the exact quantized threshold
 * (tl_rknn_quant_threshold), so the set of hits is exactly the set a
 * dequantize-everything-then-compare pass keeps.
 *
 * Order: results come in (n, h, w, c) order. Outputs are caller-sized; nothing
 * is written unless the whole call succeeds.
 */
#ifndef TLAYOUT_POST_H
#define TLAYOUT_POST_H
#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

/* One element found by a scan or a top-k. */
typedef struct tl_hit {
    int64_t n, h, w;
    int32_t c;          /* channel (index in the C dim, not in the range) */
    int32_t code;       /* the stored code */
    double value;       /* its real value (tl_dequantize_value) */
} tl_hit;

/* tl_scan flags. */
#define TL_SCAN_BEST 1u /* per (n, h, w): only the best channel of the range
                           (ties -> the lowest channel), if it passes */

/* Every (n, h, w, c) with c in [first, first + count) whose real value is >= t
 * (or, with TL_SCAN_BEST, the best channel per position when it is >= t), in
 * (n, h, w, c) order. hits[0..cap) receives them and *nhits their number.
 * When cap is too small: TL_ERR_BUFFER_SMALL, *nhits = the number needed,
 * hits untouched (hits may be NULL with cap 0 to count).
 * Errors: TL_ERR_COORD (empty or out-of-range channel range), TL_ERR_QUANT
 * (NaN t, negative or non-finite scale), TL_ERR_DTYPE (not an integer code
 * type), TL_ERR_LABEL / TL_ERR_RANK (no (n, c, h, w) reading),
 * TL_ERR_BUFFER_SMALL (len below the descriptor's size). */
TL_API tl_status tl_scan(const tl_desc *d, const void *buf, size_t len, int64_t first, int64_t count, double t,
                         unsigned flags, tl_hit *hits, size_t cap, size_t *nhits);

/* Upsampling before an argmax (semantic segmentation). */
typedef enum tl_resize {
    TL_RESIZE_NONE = 0,     /* labels at the tensor's H x W */
    TL_RESIZE_NEAREST = 1,  /* source pixel floor(x * W / out_w) (cv2 INTER_NEAREST) */
    TL_RESIZE_BILINEAR = 2  /* half-pixel centres, edges clamped (cv2 INTER_LINEAR,
                               align_corners = false) */
} tl_resize;

/* Label map element type. */
typedef enum tl_label_type { TL_LABEL_I32 = 0, TL_LABEL_U8 = 1 } tl_label_type;

/* Per (n, y, x) of an out_h x out_w map (the tensor's H x W when resize is
 * NONE; then out_h/out_w must be 0 or equal), the channel with the largest
 * real value (ties -> the lowest channel), written at
 * labels[(n * out_h + y) * out_w + x] as int32 or uint8 (C <= 256 for u8).
 * Bilinear: the real logits of the 4 neighbours are blended with the weights
 * of the half-pixel grid before the argmax. When the tensor's dequantization
 * is exactly linear in the code (e.g. a power-of-two scale), the blend runs
 * on integer codes with integer weights and is exact; otherwise it runs in
 * double on the dequantized values. len_labels is in bytes. */
TL_API tl_status tl_argmax(const tl_desc *d, const void *buf, size_t len, tl_resize resize, int64_t out_h,
                           int64_t out_w, tl_label_type type, void *labels, size_t len_labels);
/* tl_argmax on up to nthreads threads, bands of label rows on the pool of
 * tlayout/parallel.h (1 = the caller's thread only, 0 = the fast cores; small
 * maps stay on the caller's thread). Byte-identical to tl_argmax; everything
 * is checked before any label is written. Worth it for upsampled maps (a
 * 21 x 65 x 65 output to 513 x 513 labels). */
TL_API tl_status tl_argmax_parallel(const tl_desc *d, const void *buf, size_t len, tl_resize resize,
                                    int64_t out_h, int64_t out_w, tl_label_type type, void *labels,
                                    size_t len_labels, unsigned nthreads);

/* tl_topk flags. */
#define TL_TOPK_PER_ITEM 1u /* over every (c, h, w) of a batch item, not per position */

/* The k largest values over C per (n, h, w) (or per n with TL_TOPK_PER_ITEM),
 * largest first, ties -> earlier in (n, h, w, c) order. hits receives k per
 * group, groups in (n, h, w) order: cap must be >= groups * k, else
 * TL_ERR_BUFFER_SMALL with *nhits the number needed. k <= C (per position) or
 * <= C*H*W (per item). */
TL_API tl_status tl_topk(const tl_desc *d, const void *buf, size_t len, int64_t k, unsigned flags, tl_hit *hits,
                         size_t cap, size_t *nhits);

/* Dequantize just the listed elements: coords holds count (n, c, h, w)
 * quadruples; out[i] = the real value of element i. Every coordinate is
 * checked before anything is written (TL_ERR_COORD). Any dtype: floats are
 * read as they are. */
TL_API tl_status tl_gather(const tl_desc *d, const void *buf, size_t len, const int64_t *coords, size_t count,
                           double *out);

#ifdef __cplusplus
}
#endif
#endif
