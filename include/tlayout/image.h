/* tlayout image: a camera frame (NV12, NV21, I420, RGB/BGR/RGBX/BGRX u8, gray)
 * to a model input in any destination descriptor, in one pass: crop, resize
 * (stretched or letterboxed), colour conversion, per-channel (x - mean) / std
 * in f32, then the destination's dtype and quantization by the element rule.
 * Included by tlayout.h. docs/image.md explains every parameter.
 *
 * Exact mode (the default) gives the same bits as OpenCV 4.6's chain
 *   cv2.cvtColor(frame, COLOR_YUV2RGB_NV12) -> rgb[y:y+h, x:x+w]
 *   -> cv2.resize(INTER_LINEAR | INTER_NEAREST | INTER_AREA)
 *   -> Ultralytics letterbox (copyMakeBorder) -> optional BGR
 *   -> (x.astype(float32) - mean) / std -> the destination's element rule.
 */
#ifndef TLAYOUT_IMAGE_H
#define TLAYOUT_IMAGE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tl_image_resize {
    TL_IMAGE_BILINEAR = 0,  /* cv2.INTER_LINEAR: half-pixel centres, 11-bit weights */
    TL_IMAGE_NEAREST = 1,   /* cv2.INTER_NEAREST: src = floor(dst * src_size / dst_size) */
    TL_IMAGE_AREA = 2       /* cv2.INTER_AREA: box average when shrinking */
} tl_image_resize;

typedef enum tl_image_fit {
    TL_IMAGE_STRETCH = 0,   /* the crop fills the destination's H x W */
    TL_IMAGE_LETTERBOX = 1  /* aspect kept, centred, border filled with pad[] (Ultralytics) */
} tl_image_fit;

typedef enum tl_image_color {
    TL_IMAGE_BT601 = 0,       /* BT.601 limited range (Y 16..235): OpenCV's YUV2RGB */
    TL_IMAGE_BT709 = 1,       /* BT.709 limited range */
    TL_IMAGE_BT601_FULL = 2,  /* BT.601 full range (JPEG, Y 0..255) */
    TL_IMAGE_BT709_FULL = 3   /* BT.709 full range */
} tl_image_color;

typedef enum tl_image_order {
    TL_IMAGE_RGB = 0,
    TL_IMAGE_BGR = 1
} tl_image_order;

typedef enum tl_image_mode {
    TL_IMAGE_EXACT = 0,  /* convert colour first, then resize: OpenCV's bits */
    TL_IMAGE_FAST = 1    /* resize Y and chroma, convert the output pixels only */
} tl_image_mode;

typedef struct tl_image_params {
    /* Crop rectangle in frame pixels; w or h 0 = up to the frame's edge. */
    int64_t crop_x, crop_y, crop_w, crop_h;
    int32_t resize;      /* tl_image_resize */
    int32_t fit;         /* tl_image_fit */
    int32_t color;       /* tl_image_color (YUV sources) */
    int32_t order;       /* tl_image_order of the destination's channels */
    int32_t src_order;   /* tl_image_order of an RGB source's channels */
    int32_t mode;        /* tl_image_mode */
    /* Letterbox border, per destination channel (after `order`), in pixel
     * units 0..255. A 4th destination channel is 255 inside the image. */
    uint8_t pad[4];
    /* Per destination channel: value = ((float)pixel - mean[c]) / std[c]. */
    float mean[4];
    float std[4];
} tl_image_params;

/* Defaults: whole frame, bilinear, stretch, BT.601 limited, RGB from RGB,
 * exact, pad 114,114,114,255, mean 0, std 1. */
#define TL_IMAGE_PARAMS_INIT                                                             \
    {0, 0, 0, 0, TL_IMAGE_BILINEAR, TL_IMAGE_STRETCH, TL_IMAGE_BT601, TL_IMAGE_RGB,      \
     TL_IMAGE_RGB, TL_IMAGE_EXACT, {114, 114, 114, 255}, {0.f, 0.f, 0.f, 0.f},           \
     {1.f, 1.f, 1.f, 1.f}}
TL_API void tl_image_params_init(tl_image_params *p);

/* Where the frame lands in the destination, and back. For a destination
 * pixel coordinate (x, y) (continuous: pixel i spans [i, i+1)), the frame
 * coordinate is x * scale_x + offset_x, y * scale_y + offset_y; a detection
 * box maps back corner by corner. (left, top, width, height) is the image
 * area inside the letterbox border, in destination pixels. */
typedef struct tl_image_map {
    double scale_x, scale_y;
    double offset_x, offset_y;
    int64_t left, top, width, height;
} tl_image_map;

typedef struct tl_image_plan tl_image_plan; /* opaque; immutable after creation */

/* Check everything and precompute the tables. The source is a u8 image of
 * dims (N=1,) C, H, W: a 4:2:0 YUV descriptor (yuv.nv12/nv21/i420,
 * larod.420sp...), or C = 3/4 RGB (src_order) or C = 1 gray. The destination
 * is any writable descriptor with labelled C (1, 3 or 4), H, W and optionally
 * N = 1. Errors name the field and the rule; nothing is allocated on failure. */
TL_API tl_status tl_image_plan_create(tl_image_plan **plan, const tl_desc *src_d,
                                      const tl_desc *dst_d, const tl_image_params *params);
/* Write the whole destination, its padding (zero) and letterbox border
 * included. Nothing is written unless both buffers are large enough. */
TL_API tl_status tl_image_plan_run(const tl_image_plan *plan, const void *src, size_t src_len,
                                   void *dst, size_t dst_len);
/* Part `part` of `nparts`: a band of destination rows (caller-driven threads;
 * the parts together write everything, each byte once). */
TL_API tl_status tl_image_plan_run_part(const tl_image_plan *plan, unsigned part, unsigned nparts,
                                        const void *src, size_t src_len, void *dst,
                                        size_t dst_len);
/* tl_image_plan_run on up to nthreads threads (tlayout/parallel.h: the
 * caller's thread counts as one, 0 = the fast cores, small frames stay on the
 * caller's thread). Byte-identical to tl_image_plan_run; errors as it. */
TL_API tl_status tl_image_plan_run_parallel(const tl_image_plan *plan, const void *src, size_t src_len,
                                            void *dst, size_t dst_len, unsigned nthreads);
/* The letterbox transform, destination pixel -> frame pixel. */
TL_API tl_status tl_image_plan_map(const tl_image_plan *plan, tl_image_map *map);
/* One line: source kind, crop, resize, geometry, colour, destination. */
TL_API const char *tl_image_plan_describe(const tl_image_plan *plan);
TL_API void tl_image_plan_destroy(tl_image_plan *plan);

#ifdef __cplusplus
}
#endif

#endif /* TLAYOUT_IMAGE_H */
