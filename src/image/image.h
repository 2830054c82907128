/* tlayout image: internal pieces shared by the plan (plan.c) and the resize
 * rows (resize.c). Not installed. */
#ifndef TL_IMAGE_INTERNAL_H
#define TL_IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "tlayout.h"

/* ---- resizing one channel-interleaved u8 image (OpenCV 4.6's rules) ---- */
typedef enum tl_rz_method {
    TL_RZ_LINEAR = 0,    /* INTER_LINEAR (and INTER_AREA when enlarging): 11-bit weights */
    TL_RZ_NEAREST = 1,   /* INTER_NEAREST */
    TL_RZ_AREA_FAST = 2, /* INTER_AREA, integer factors: k x k box sums */
    TL_RZ_AREA = 3       /* INTER_AREA, other shrinking: float box weights */
} tl_rz_method;

typedef struct tl_rz_tap { /* one source sample of an area box: src index, dst index, weight */
    int32_t si, di;
    float alpha;
} tl_rz_tap;

typedef struct tl_rz {
    int method;              /* tl_rz_method */
    int cn;                  /* channels per pixel */
    int32_t sw, sh, dw, dh;
    int32_t *xo, *yo;        /* LINEAR: first source index; NEAREST: the index */
    int16_t *xa, *yb;        /* LINEAR: two weights per destination index */
    int32_t kx, ky;          /* AREA_FAST */
    tl_rz_tap *xt, *yt;      /* AREA: taps; row dy uses yt[ybeg[dy] .. ybeg[dy+1]) */
    int32_t nxt, nyt, *ybeg;
} tl_rz;

/* Produce source row sy (sw pixels of cn u8 channels) into row. */
typedef void (*tl_rz_src_fn)(const void *ctx, int32_t sy, uint8_t *row);

/* Scratch of one run: a source line, two horizontally resized rows (cached by
 * source row), float accumulators for AREA. */
typedef struct tl_rz_work {
    uint8_t *line;
    int32_t *h[2];
    int32_t tag[2];
    float *buf, *sum;
} tl_rz_work;

/* Tables for resizing sw x sh to dw x dh with `resize` (tl_image_resize). */
tl_status tl_rz_init(tl_rz *rz, int resize, int cn, int32_t sw, int32_t sh, int32_t dw, int32_t dh);
void tl_rz_free(tl_rz *rz);
/* Bytes of scratch tl_rz_work_init carves from `mem` (64-byte aligned pieces). */
size_t tl_rz_work_bytes(const tl_rz *rz);
void tl_rz_work_init(tl_rz_work *w, const tl_rz *rz, void *mem);
/* Destination row dy (dw * cn u8) into out. */
void tl_rz_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx,
               uint8_t *out);

#endif
