/* tlayout image: internal pieces shared by the plan (plan.c) and the resize
 * rows (resize.c). Not installed. */
#ifndef TL_IMAGE_INTERNAL_H
#define TL_IMAGE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "kernels/image/encode.h"
#include "kernels/image/image.h"
#include "kernels/kernels.h"
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
    int32_t *cols, ncols;    /* the source columns a row is read at, increasing */
    int32_t *xc;             /* LINEAR, NEAREST: position of xo[dx] in cols (its pixel in a line) */
    bool xpick;              /* LINEAR: every column's weights are (2048, 0): the tap's pixel */
    bool xdirect;            /* xpick, and line pixel dx is output pixel dx (cols[dx] = xo[dx]) */
    int32_t *xk;             /* LINEAR: per output value, its first sample's byte in a line */
    int16_t *wk;             /* LINEAR: per output value, the two weights */
    tl_vlinear_fn vlinear;   /* LINEAR's vertical and horizontal steps (row kernels) */
    tl_hlinear_fn hlinear;
} tl_rz;

/* Produce source row sy into row, compacted: the pixel of column cols[k]
 * (cn u8 channels) at row + k * cn, for k < ncols. */
typedef void (*tl_rz_src_fn)(const void *ctx, int32_t sy, const int32_t *cols, int32_t ncols, uint8_t *row);

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
/* Whether destination row dy is source row *sy, column k being cols[k] (a
 * crop, or a shrink by an odd whole factor: every weight (2048, 0)); such a
 * row can be made straight from the source in any layout. */
bool tl_rz_row_is_line(const tl_rz *rz, int32_t dy, int32_t *sy);
/* Destination row dy (dw * cn u8) into out. */
void tl_rz_row(const tl_rz *rz, tl_rz_work *w, int32_t dy, tl_rz_src_fn src, const void *ctx,
               uint8_t *out);

/* ---- fast mode: resizing one u8 plane of cn interleaved channels (fast.c) ----
 * OpenCV's source coordinates and taps (bilinear or nearest), weights in 6
 * bits and 16-bit sums (the tl_*_fast kernels), rows read in place. */
typedef struct tl_fz {
    int cn;
    int32_t sw, sh, dw, dh;
    const tl_image_kernels *k;
    bool pick_x;             /* every column's weights are (64, 0): out = line[ofs] */
    int32_t *ofs;            /* per output value (dx, c): byte of its first tap in a source row */
    int8_t *wx;              /* per output value: (w0, w1), sum 64 */
    int32_t *base;           /* ofs by blocks of 32 values (tl_taps) */
    uint8_t *pair, *pick, *pick_words;
    tl_taps taps;            /* the five above */
    int32_t *y0, *y1;        /* per destination row: the two source rows */
    uint8_t *by;             /* per destination row: weight of y1, 0..63 (0: y0 alone) */
} tl_fz;

/* Source row sy of the plane: its crop columns from byte 0, sw * cn bytes and
 * 128 readable bytes after them; either in the frame or copied into scratch
 * (tl_fz_work's line). */
typedef const uint8_t *(*tl_fz_src_fn)(const void *ctx, int32_t sy, uint8_t *scratch);

typedef struct tl_fz_work {
    uint8_t *line[2];        /* scratch for source rows not read in place (tl_fz_lines: two at once) */
    uint16_t *h[2];
    int32_t tag[2];
} tl_fz_work;

/* resize: TL_IMAGE_BILINEAR or TL_IMAGE_NEAREST. */
tl_status tl_fz_init(tl_fz *fz, int resize, int cn, int32_t sw, int32_t sh, int32_t dw, int32_t dh, const tl_image_kernels *k);
void tl_fz_free(tl_fz *fz);
size_t tl_fz_work_bytes(const tl_fz *fz);
void tl_fz_work_init(tl_fz_work *w, const tl_fz *fz, void *mem);
/* What destination row dy is made of, before the last step: a source row
 * whose taps are the row (line; pick with the plane's taps), or two
 * horizontal rows and the weight of the second (line NULL; vlinear_fast). */
typedef struct tl_fz_parts {
    const uint8_t *line;
    const uint16_t *h0, *h1;
    int32_t b1;
} tl_fz_parts;
tl_fz_parts tl_fz_parts_of(const tl_fz *fz, tl_fz_work *w, int32_t dy, tl_fz_src_fn src, const void *ctx);
/* Is destination row dy a pick of one source row (tl_fz_parts.line)? */
bool tl_fz_picks(const tl_fz *fz, int32_t dy);
/* The two source rows of destination row dy, the second's weight returned
 * (0: line[1] is line[0]), for kernels that make the row from them. */
int32_t tl_fz_lines(const tl_fz *fz, tl_fz_work *w, int32_t dy, tl_fz_src_fn src, const void *ctx, const uint8_t *line[2]);
/* The parts' last step: the row (dw * cn u8) into out. */
void tl_fz_finish(const tl_fz *fz, const tl_fz_parts *p, uint8_t *out);

/* tl_image_plan_create with the row kernels of one path (TL_ISA_*), for the
 * tests of every path; NULL kernels (path missing) give TL_ERR_UNSUPPORTED. */
tl_status tl_image_plan_create_isa(tl_image_plan **plan, const tl_desc *src_d, const tl_desc *dst_d,
                                   const tl_image_params *params, int isa);

/* ---- writing destination rows (write.c) ----------------------------------- */
typedef enum tl_dst_shape {
    TL_DST_PIXELS = 0,   /* padded channels of a pixel side by side, pixels side by side */
    TL_DST_PLANES = 1,   /* each channel's row contiguous */
    TL_DST_ELEMENTS = 2  /* anything else: element by element */
} tl_dst_shape;

typedef struct tl_img_dst {
    int shape;                    /* tl_dst_shape */
    int cdim, hdim, wdim;
    int eb;                       /* bytes per element */
    int dc;                       /* logical channels */
    int64_t plo_c, plo_h, plo_w;  /* padding before the image, per dim */
    int64_t cp, hp, wp;           /* padded extents */
    int64_t *row, *col;           /* row[c * hp + y], col[c * wp + x]: bytes, padded coordinates */
    int64_t ps;                   /* PIXELS: bytes per padded pixel */
    bool fill_rest;               /* other dims are padded: tl_fill_padding writes those */
} tl_img_dst;

/* The codes written for the image's pixels: lut[c][v] is the destination's
 * raw element for channel c at u8 value v. */
typedef struct tl_img_codes {
    uint64_t lut[4][256];
    int64_t width;                /* logical W */
    bool identity;                /* lut[c][v] == v for every c (u8, no normalisation) */
    /* PIXELS whose image lanes fit in 8 bytes: packed[c][v] is lut[c][v] at
     * its byte offset in a little-endian word, so a pixel is the OR of dc
     * entries, written with one store (tl_img_codes_pack). */
    bool packed_ok;
    uint64_t packed[4][256];
} tl_img_codes;

tl_status tl_img_dst_init(tl_img_dst *w, const tl_desc *d, int cdim, int hdim, int wdim);
/* Fill t->packed from t->lut for destination w (after the lut is made). */
void tl_img_codes_pack(const tl_img_dst *w, tl_img_codes *t);
void tl_img_dst_free(tl_img_dst *w);
/* Padded row y: px holds the logical row's W x dc u8 values in destination
 * channel order, or is NULL for a padding row. */
void tl_img_dst_row(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px, int64_t y, uint8_t *dst);
/* Where padded row y's bytes are the row of pixels itself (u8 pixels, no
 * normalisation, no padding): that row in dst, for making it in place; else NULL. */
uint8_t *tl_img_dst_pixels_at(const tl_img_dst *w, const tl_img_codes *t, int64_t y, uint8_t *dst);
/* Writing a letterbox border row from its encoded copy: the image's bytes of
 * a (plane) row, [at, at + len), are one pad pixel or element of `period`
 * bytes repeated, written by fn from the copy; the rest is copied. */
typedef struct tl_img_fill {
    tl_img_fill_fn fn;            /* NULL: the whole row is copied */
    size_t period;
    int64_t at, len;
} tl_img_fill;
/* A row of pixels px encoded once (pixel and plane shapes; NULL otherwise or
 * out of memory: then rows are written with tl_img_dst_row), and copied to row
 * y by fill, or by a memset where byte >= 0 (tl_img_dst_fill_of: the byte
 * every byte of enc is, else -1; a letterbox border of one value). */
uint8_t *tl_img_dst_encode(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px);
int tl_img_dst_fill_of(const tl_img_dst *w, const uint8_t *enc);
void tl_img_dst_copy_row(const tl_img_dst *w, const uint8_t *enc, const tl_img_fill *fill, int byte, int64_t y,
                         uint8_t *dst);

/* ---- the vector encode of rows (encode.c, write.c) ------------------------ */
#define TL_IMG_ENC_CHUNK 256 /* pixels per step: the step's buffers stay in L1 */

typedef struct tl_img_enc {
    bool on;                      /* rows go through the kernels (else the table) */
    bool identity;                /* mean 0, std 1: the element step reads the u8 values */
    tl_img_real all;              /* step 1 constants, lane k = channel k % dc */
    tl_img_real chan[4];          /* the same for one channel (planes) */
    tl_img_real_fn real;          /* step 1 (NULL when identity) */
    tl_cvt cv;                    /* step 2: f32 (or u8) -> the destination's element */
    tl_row_fn elem;               /* step 2's kernel (NULL: the elements are step 1's) */
    tl_t2d_fn dilv;               /* planes with dc > 1: u8 pixels -> channel rows */
    tl_img_expand ex;             /* pixels with pad lanes: packed elements -> padded pixels */
    tl_img_expand_fn expand;
    /* one-step kernels (AVX-512 VBMI), each replacing the steps above: */
    tl_img_pix8 pix8;             /* 8-bit codes into padded pixels, from the plan's tables */
    tl_img_pix8_fn pix8_fn;
    tl_img_real_planes_fn planes; /* f32 planes: real values into the channels' rows (chan[]) */
    const char *real_name, *elem_name, *expand_name;
    tl_img_fill fill;             /* border rows */
} tl_img_enc;

/* The encoder for destination w on path isa (-1: the default path); off
 * (e->on false) where the table stays: the scalar path, element-shaped
 * destinations, dtypes the convert kernels lack, no exact division form. */
void tl_img_enc_init(tl_img_enc *e, const tl_img_dst *w, const tl_desc *d, const tl_img_codes *t, const float *mean,
                     const float *std, int isa);
/* Padded row y from an image row px of width pixels (as tl_img_dst_row with
 * px != NULL and t->width = width). */
void tl_img_enc_row(const tl_img_dst *w, const tl_img_enc *e, const uint8_t *px, int64_t y, uint8_t *dst,
                    int64_t width);
/* The same from one u8 row per destination channel (a planar destination,
 * w->shape TL_DST_PLANES): no deinterleave. */
void tl_img_enc_rows(const tl_img_dst *w, const tl_img_enc *e, const uint8_t *const *rows, int64_t y, uint8_t *dst,
                     int64_t width);
/* The real-value kernel of a path (tests: scalar when the path has none). */
const tl_img_real_kernel *tl_img_real_kernel_for(int isa);
/* The encoder's kernels (tests): "real + elem", or NULL when the plan uses its table. */
const char *tl_image_plan_encoder(const tl_image_plan *pl);

#endif
