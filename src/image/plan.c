/* tl_image_plan: a camera frame to a model input in one pass (docs/image.md).
 *
 * A run walks destination rows. For each row it makes one row of u8 pixels in
 * the destination's channel order (letterbox border, resized content), then
 * writes every element: the pixel is u8 after colour conversion and resizing,
 * so ((float)v - mean[c]) / std[c] followed by the element rule has 256
 * possible results per channel, a table computed with the rule itself when
 * the plan is made. That table is the definition; rows are written by the
 * vector encode (encode.c) wherever it gives the same codes, else from it.
 *
 * Addressing: a descriptor's offset is a sum of one term per dim (each
 * physical axis indexes one dim; planes split one dim), so element (c, y, x)
 * lives at row[c][y] + col[c][x]. Both tables are measured with
 * tl_desc_offset, never derived from a format name: the same code reads NV12,
 * I420, larod's 420SP, pitched RGB, and writes NC1HWC2, TIDL, HWC4 or DML.
 * Chroma subsampling needs no special case either: the descriptor maps a full
 * resolution coordinate to its chroma sample.
 *
 * Internal headers used: core/internal.h (tl_fail, overflow helpers) and
 * core/elem.h (tl_elem_op_init_dt, tl_elem_convert_raw: the element rule). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numerics/elem.h"
#include "core/internal.h"
#include "image/image.h"

#define TL_IMAGE_MAX_SIDE (1 << 24)
#define TL_IMAGE_MAX_FACTOR 4096

typedef enum { SRC_YUV = 0, SRC_RGB = 1, SRC_GRAY = 2 } src_kind;

typedef struct tl_addr {       /* element (c, y, x) at row[c][y] + col[c][x], bytes */
    int nc;
    int64_t *row[4], *col[4];
} tl_addr;

typedef struct tl_csc {        /* YUV -> RGB, 20-bit fixed point (OpenCV's form) */
    int32_t yoff, cy, cvr, cvg, cug, cub;
    /* The same sums from tables: R = (ty[Y] + tr[V]) >> 20, G = (ty[Y] + tgu[U] + tgv[V]) >> 20,
     * B = (ty[Y] + tb[U]) >> 20, each term exactly the product above (2^19 folded into ty). */
    int32_t ty[256], tr[256], tgu[256], tgv[256], tb[256];
} tl_csc;

/* Channel c's column term is col0 + (x >> shift) * step for every frame column x:
 * rows of plain or 2x-subsampled samples at a fixed step. */
typedef struct tl_cols {
    bool regular;
    bool kernel;               /* what the YUV row kernels take: Y step 1, chroma pairs or planes */
    int shift[3];
    int64_t step[3];
} tl_cols;

struct tl_image_plan {
    tl_image_params p;
    src_kind kind;
    int sc;                    /* source channels read: 3 (YUV, RGB), 1 (gray) */
    int pc;                    /* channels resized: 3 (colour) or 1 (gray) */
    int dc;                    /* destination channels: 1, 3, 4 */
    int64_t sw, sh, dw, dh;    /* frame and destination sizes */
    int64_t cx, cy, cw, ch;    /* crop */
    int64_t left, top, nw, nh; /* image area in the destination */
    int64_t src_size, dst_size;
    int eb;                    /* destination element bytes */
    int chroma_sx, chroma_sy;  /* chroma subsampling of a YUV source */
    tl_addr src;
    tl_img_dst dst;
    tl_csc csc;
    tl_cols cols;
    const tl_image_kernels *k; /* row kernels of the plan's path */
    tl_rz rz;                  /* exact: pc channels; fast with area: Y */
    tl_rz rz_uv;               /* fast with area: U and V at chroma resolution */
    bool fast;
    bool fz_on;                /* fast, bilinear or nearest: fz, fz_uv below instead of rz, rz_uv */
    tl_fz fz, fz_uv;           /* fast: Y, and (U, V) pairs at chroma resolution */
    tl_yuv_fast yf;            /* fast: 6-bit colour coefficients (and the chroma order of fz_uv's rows) */
    tl_desc dst_d;
    tl_img_codes codes;        /* destination raw code per channel and u8 value */
    tl_img_enc enc;            /* the same by vector kernels (encode.c), when on */
    bool rows_direct;          /* exact into planes: rows that are source lines are made a row per channel */
    int isa;                   /* the path asked for (-1: the default) */
    uint8_t *border;           /* a destination row of pad pixels (dw x dc) */
    uint8_t *border_row;       /* the same, encoded in the destination (NULL: written each time) */
    int border_fill;           /* the byte all of border_row is, else -1 (tl_img_dst_fill_of) */
    char text[256];
};

void tl_image_params_init(tl_image_params *p)
{
    if (p) *p = (tl_image_params)TL_IMAGE_PARAMS_INIT;
}

/* ---- descriptors ------------------------------------------------------------ */
typedef struct img_dims {
    int c, h, w, n;            /* dim indices; n = -1 when absent */
} img_dims;

static tl_status find_dims(const tl_desc *d, const char *what, img_dims *o)
{
    o->c = o->h = o->w = o->n = -1;
    for (int i = 0; i < d->rank; i++) {
        int *slot = d->labels[i] == 'C' ? &o->c : d->labels[i] == 'H' ? &o->h : d->labels[i] == 'W' ? &o->w
                  : d->labels[i] == 'N' ? &o->n : NULL;
        if (!slot)
            return tl_fail(TL_ERR_LABEL, "%s: dim %d is labelled '%c'; an image has dims (N,) C, H, W only", what, i,
                           d->labels[i] ? d->labels[i] : '?');
        *slot = i;
    }
    if (o->c < 0 || o->h < 0 || o->w < 0)
        return tl_fail(TL_ERR_LABEL, "%s: rank %d without labelled C, H and W dims; an image needs all three (e.g. NHWC, NCHW, yuv.nv12)",
                       what, (int)d->rank);
    if (o->n >= 0 && d->dims[o->n] != 1)
        return tl_fail(TL_ERR_DIM, "%s: N=%lld; an image plan writes one image: N must be 1", what, (long long)d->dims[o->n]);
    int64_t c = d->dims[o->c];
    if (c != 1 && c != 3 && c != 4)
        return tl_fail(TL_ERR_DIM, "%s: C=%lld; an image has 1 (gray), 3 or 4 (RGBX) channels", what, (long long)c);
    if (d->dims[o->h] > TL_IMAGE_MAX_SIDE || d->dims[o->w] > TL_IMAGE_MAX_SIDE)
        return tl_fail(TL_ERR_UNSUPPORTED, "%s: H=%lld W=%lld; image sides are limited to %d", what,
                       (long long)d->dims[o->h], (long long)d->dims[o->w], TL_IMAGE_MAX_SIDE);
    return TL_OK;
}

static int64_t offset_of(const tl_desc *d, const img_dims *g, int64_t c, int64_t y, int64_t x)
{
    int64_t co[TL_MAX_DIMS] = {0};
    uint64_t off = 0;
    co[g->c] = c, co[g->h] = y, co[g->w] = x;
    tl_desc_offset(d, co, &off); /* in range by construction */
    return (int64_t)off;
}

static tl_status addr_init(tl_addr *a, const tl_desc *d, const img_dims *g, int nc)
{
    int64_t h = d->dims[g->h], w = d->dims[g->w];
    a->nc = nc;
    for (int c = 0; c < nc; c++) {
        a->row[c] = malloc(sizeof(int64_t) * (size_t)h);
        a->col[c] = malloc(sizeof(int64_t) * (size_t)w);
        if (!a->row[c] || !a->col[c]) return tl_fail(TL_ERR_NOMEM, "image address tables: out of memory");
        int64_t base = offset_of(d, g, c, 0, 0);
        for (int64_t y = 0; y < h; y++) a->row[c][y] = offset_of(d, g, c, y, 0);
        for (int64_t x = 0; x < w; x++) a->col[c][x] = offset_of(d, g, c, 0, x) - base;
    }
    return TL_OK;
}

static void addr_free(tl_addr *a)
{
    for (int c = 0; c < a->nc; c++) free(a->row[c]), free(a->col[c]);
}

/* Smallest block of the axes over dim `dim` in the plane holding channel c:
 * > 1 when that channel is subsampled along the dim (4:2:0 chroma). */
static int64_t subsampling(const tl_desc *d, const img_dims *g, int64_t c, int dim)
{
    const tl_plane *pl = &d->planes[0];
    if (d->plane_dim == g->c)
        for (int k = 0; k < d->nplanes; k++)
            if (c >= d->planes[k].first && c < d->planes[k].first + d->planes[k].count) pl = &d->planes[k];
    int64_t b = 0;
    for (int a = 0; a < pl->naxes; a++)
        if (pl->axes[a].dim == dim && (b == 0 || pl->axes[a].block < b)) b = pl->axes[a].block;
    return b ? b : 1;
}

static tl_status check_src(tl_image_plan *pl, const tl_desc *s, img_dims *g)
{
    TL_TRY(tl_desc_validate(s));
    TL_TRY(find_dims(s, "source", g));
    if (s->dtype != TL_U8)
        return tl_fail(TL_ERR_DTYPE, "source dtype %s: camera frames are u8", tl_dtype_name((tl_dtype)s->dtype));
    int64_t c = s->dims[g->c];
    pl->chroma_sx = (int)subsampling(s, g, c > 1 ? 1 : 0, g->w);
    pl->chroma_sy = (int)subsampling(s, g, c > 1 ? 1 : 0, g->h);
    bool yuv = s->vendor == TL_VENDOR_YUV || pl->chroma_sx > 1 || pl->chroma_sy > 1;
    if (yuv && c != 3)
        return tl_fail(TL_ERR_DIM, "source: a YUV image has C=3 (Y, U, V), not %lld", (long long)c);
    pl->kind = yuv ? SRC_YUV : c == 1 ? SRC_GRAY : SRC_RGB;
    pl->sc = c == 1 ? 1 : 3;
    pl->sw = s->dims[g->w], pl->sh = s->dims[g->h];
    pl->src_size = s->size_bytes;
    return TL_OK;
}

static tl_status check_dst(tl_image_plan *pl, const tl_desc *d, img_dims *g)
{
    TL_TRY(tl_desc_validate(d));
    TL_TRY(find_dims(d, "destination", g));
    if (!tl_desc_writable(d))
        return tl_fail(TL_ERR_READONLY, "destination is read-only (broadcast strides): it cannot be written");
    unsigned bits = tl_dtype_bits((tl_dtype)d->dtype);
    if (bits < 8)
        return tl_fail(TL_ERR_DTYPE, "destination dtype %s: image plans write whole bytes; use u8, i8, f16 or f32",
                       tl_dtype_name((tl_dtype)d->dtype));
    pl->eb = (int)(bits / 8);
    pl->dc = (int)d->dims[g->c];
    for (int64_t c = 0; c < pl->dc; c++)
        if (subsampling(d, g, c, g->h) > 1 || subsampling(d, g, c, g->w) > 1)
            return tl_fail(TL_ERR_UNSUPPORTED, "destination channel %lld is subsampled (4:2:0): a model input stores every pixel; use an RGB layout",
                           (long long)c);
    pl->dw = d->dims[g->w], pl->dh = d->dims[g->h];
    pl->dst_size = d->size_bytes;
    pl->dst_d = *d;
    return TL_OK;
}

/* ---- parameters ---------------------------------------------------------------- */
static tl_status check_params(const tl_image_params *p)
{
    if (p->resize < TL_IMAGE_BILINEAR || p->resize > TL_IMAGE_AREA)
        return tl_fail(TL_ERR_UNSUPPORTED, "params.resize=%d: expected bilinear (0), nearest (1) or area (2)", (int)p->resize);
    if (p->fit != TL_IMAGE_STRETCH && p->fit != TL_IMAGE_LETTERBOX)
        return tl_fail(TL_ERR_UNSUPPORTED, "params.fit=%d: expected stretch (0) or letterbox (1)", (int)p->fit);
    if (p->color < TL_IMAGE_BT601 || p->color > TL_IMAGE_BT709_FULL)
        return tl_fail(TL_ERR_UNSUPPORTED, "params.color=%d: expected bt601, bt709, bt601-full or bt709-full (0..3)", (int)p->color);
    if ((p->order != TL_IMAGE_RGB && p->order != TL_IMAGE_BGR) || (p->src_order != TL_IMAGE_RGB && p->src_order != TL_IMAGE_BGR))
        return tl_fail(TL_ERR_UNSUPPORTED, "params.order=%d src_order=%d: expected rgb (0) or bgr (1)", (int)p->order, (int)p->src_order);
    if (p->mode != TL_IMAGE_EXACT && p->mode != TL_IMAGE_FAST)
        return tl_fail(TL_ERR_UNSUPPORTED, "params.mode=%d: expected exact (0) or fast (1)", (int)p->mode);
    for (int c = 0; c < 4; c++) {
        if (!(p->std[c] != 0.f) || !isfinite(p->std[c]))
            return tl_fail(TL_ERR_UNSUPPORTED, "params.std[%d]=%g: the divisor must be finite and non-zero", c, (double)p->std[c]);
        if (!isfinite(p->mean[c]))
            return tl_fail(TL_ERR_UNSUPPORTED, "params.mean[%d]=%g: must be finite", c, (double)p->mean[c]);
    }
    return TL_OK;
}

static tl_status crop_geometry(tl_image_plan *pl)
{
    const tl_image_params *p = &pl->p;
    int64_t end;
    if (p->crop_x < 0 || p->crop_y < 0 || p->crop_w < 0 || p->crop_h < 0)
        return tl_fail(TL_ERR_COORD, "crop %lld,%lld,%lld,%lld: values must be >= 0", (long long)p->crop_x,
                       (long long)p->crop_y, (long long)p->crop_w, (long long)p->crop_h);
    pl->cx = p->crop_x, pl->cy = p->crop_y;
    pl->cw = p->crop_w ? p->crop_w : pl->sw - p->crop_x;
    pl->ch = p->crop_h ? p->crop_h : pl->sh - p->crop_y;
    if (pl->cw < 1 || pl->ch < 1 || !tl_add_ok(pl->cx, pl->cw, &end) || end > pl->sw ||
        !tl_add_ok(pl->cy, pl->ch, &end) || end > pl->sh)
        return tl_fail(TL_ERR_COORD, "crop x=%lld y=%lld w=%lld h=%lld: outside the %lldx%lld frame (W x H); the rectangle must lie inside it with w, h >= 1",
                       (long long)p->crop_x, (long long)p->crop_y, (long long)p->crop_w, (long long)p->crop_h,
                       (long long)pl->sw, (long long)pl->sh);
    return TL_OK;
}

/* Ultralytics' letterbox: r = min(H/h, W/w); new = round(w*r), round(h*r)
 * (Python's round: ties to even, nearbyint under the default rounding mode);
 * top = round(dh - 0.1), left = round(dw - 0.1) with dh, dw half the slack. */
static tl_status fit_geometry(tl_image_plan *pl)
{
    if (pl->p.fit == TL_IMAGE_STRETCH) {
        pl->left = pl->top = 0, pl->nw = pl->dw, pl->nh = pl->dh;
    } else {
        double r = fmin((double)pl->dh / (double)pl->ch, (double)pl->dw / (double)pl->cw);
        pl->nw = (int64_t)nearbyint((double)pl->cw * r);
        pl->nh = (int64_t)nearbyint((double)pl->ch * r);
        double sx = (double)(pl->dw - pl->nw) / 2, sy = (double)(pl->dh - pl->nh) / 2;
        pl->left = (int64_t)nearbyint(sx - 0.1), pl->top = (int64_t)nearbyint(sy - 0.1);
        if (pl->nw < 1 || pl->nh < 1)
            return tl_fail(TL_ERR_UNSUPPORTED, "letterbox of a %lldx%lld crop into %lldx%lld leaves an image of %lldx%lld: the crop is too narrow for this destination",
                           (long long)pl->cw, (long long)pl->ch, (long long)pl->dw, (long long)pl->dh,
                           (long long)pl->nw, (long long)pl->nh);
    }
    if (pl->cw > pl->nw * TL_IMAGE_MAX_FACTOR || pl->nw > pl->cw * TL_IMAGE_MAX_FACTOR ||
        pl->ch > pl->nh * TL_IMAGE_MAX_FACTOR || pl->nh > pl->ch * TL_IMAGE_MAX_FACTOR)
        return tl_fail(TL_ERR_UNSUPPORTED, "resize %lldx%lld -> %lldx%lld: a scale factor beyond 1/%d..%d is not supported",
                       (long long)pl->cw, (long long)pl->ch, (long long)pl->nw, (long long)pl->nh,
                       TL_IMAGE_MAX_FACTOR, TL_IMAGE_MAX_FACTOR);
    return TL_OK;
}

/* ---- colour --------------------------------------------------------------------- */
static void csc_tables(tl_csc *m)
{
    for (int v = 0; v < 256; v++) {
        m->ty[v] = (v > m->yoff ? v - m->yoff : 0) * m->cy + (1 << 19);
        m->tr[v] = m->cvr * (v - 128), m->tgv[v] = m->cvg * (v - 128);
        m->tgu[v] = m->cug * (v - 128), m->tb[v] = m->cub * (v - 128);
    }
}

/* BT.601 limited range is OpenCV's constants (ITUR_BT_601_*: 1.164, 1.596,
 * -0.813, -0.391, 2.018 in 2^-20). The others come from the standards' Kr, Kb:
 * R = ys (Y - yo) + cs 2(1-Kr) V', B = ys (Y - yo) + cs 2(1-Kb) U',
 * G = ys (Y - yo) - cs (2(1-Kb)Kb U' + 2(1-Kr)Kr V') / Kg, with
 * ys = 255/219, cs = 255/224, yo = 16 for limited range, 1, 1, 0 for full. */
static void csc_init(tl_csc *m, int color)
{
    if (color == TL_IMAGE_BT601) {
        m->yoff = 16, m->cy = 1220542, m->cvr = 1673527, m->cvg = -852492, m->cug = -409993, m->cub = 2116026;
        csc_tables(m);
        return;
    }
    bool limited = color == TL_IMAGE_BT709;
    double kr = color == TL_IMAGE_BT601_FULL ? 0.299 : 0.2126, kb = color == TL_IMAGE_BT601_FULL ? 0.114 : 0.0722;
    double kg = 1 - kr - kb, ys = limited ? 255.0 / 219 : 1, cs = limited ? 255.0 / 224 : 1, one = 1 << 20;
    m->yoff = limited ? 16 : 0;
    m->cy = (int32_t)lrint(ys * one);
    m->cvr = (int32_t)lrint(cs * 2 * (1 - kr) * one);
    m->cub = (int32_t)lrint(cs * 2 * (1 - kb) * one);
    m->cug = (int32_t)lrint(-cs * 2 * (1 - kb) * kb / kg * one);
    m->cvg = (int32_t)lrint(-cs * 2 * (1 - kr) * kr / kg * one);
    csc_tables(m);
}

/* Fast mode's colour constants from the 20-bit ones: coefficients in 6 bits,
 * the luma gain for (Y * 257 * yg) >> 16 (tl_yuv_fast). */
static void yuv_fast_init(tl_yuv_fast *f, const tl_csc *m)
{
    f->yoff = m->yoff;
    f->yg = (int32_t)(((int64_t)m->cy * 4 + 128) / 257);
    f->cvr = (m->cvr + 8192) >> 14, f->cvg = (m->cvg + 8192) >> 14;
    f->cug = (m->cug + 8192) >> 14, f->cub = (m->cub + 8192) >> 14;
}

static inline uint8_t sat8(int32_t v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }


/* cv::cvtColor RGB2GRAY on 8U: 15-bit weights 9798, 19235, 3735 (OpenCV's
 * RY15, GY15, BY15; pinned by tests/image/live_compare.py). */
static inline uint8_t rgb_to_gray(int r, int g, int b) { return (uint8_t)((r * 9798 + g * 19235 + b * 3735 + 16384) >> 15); }

/* ---- source rows ------------------------------------------------------------------ */
typedef struct src_ctx {
    const tl_image_plan *pl;
    const uint8_t *src;
    uint8_t *gather;   /* 3 x crop width: Y, U, V samples of the columns read */
} src_ctx;

/* Columns of the three channels regular (plain or 2x subsampled, fixed step)? */
static void cols_init(tl_image_plan *pl)
{
    tl_cols *k = &pl->cols;
    k->regular = pl->sc == 3;
    for (int c = 0; c < 3 && k->regular; c++) {
        const int64_t *col = pl->src.col[c];
        k->shift[c] = c > 0 && pl->chroma_sx == 2 ? 1 : 0;
        k->step[c] = pl->sw > (2 << k->shift[c]) ? col[1 << k->shift[c]] - col[0] : 0;
        for (int64_t x = 0; x < pl->sw && k->regular; x++) k->regular = col[x] == (x >> k->shift[c]) * k->step[c];
    }
    if (!k->regular || pl->kind != SRC_YUV || k->step[0] != 1 || k->shift[1] != 1 || k->shift[2] != 1 ||
        k->step[1] != k->step[2] || (k->step[1] != 1 && k->step[1] != 2))
        return;
    k->kernel = true;
    if (k->step[1] == 2) /* interleaved: U and V one byte apart on every row */
        for (int64_t y = 0; y < pl->sh && k->kernel; y++) k->kernel = llabs(pl->src.row[1][y] - pl->src.row[2][y]) == 1;
}

static inline void yuv_to_rgb_tab(const tl_csc *m, int y, int u, int v, const tl_rgb_out *o, int64_t k)
{
    int32_t t = m->ty[y];
    o->ch[0][k * o->step] = sat8((t + m->tr[v]) >> 20);
    o->ch[1][k * o->step] = sat8((t + m->tgu[u] + m->tgv[v]) >> 20);
    o->ch[2][k * o->step] = sat8((t + m->tb[u]) >> 20);
}

/* Source rows hand the resize only the columns it reads, compacted (pixel k
 * is column cols[k]; image/image.h). */
static bool dense(const int32_t *cols, int32_t ncols) { return ncols && cols[ncols - 1] - cols[0] + 1 == ncols; }

/* The vector YUV kernel over the columns cols[]: straight from the frame when
 * they are side by side in a kernel layout, else from their Y, U, V samples
 * gathered into rows with a chroma sample per pixel (the kernel's cshift 0). */
static void yuv_kernel_row(const src_ctx *s, const uint8_t *r[3], const int32_t *cols, int32_t ncols, const tl_rgb_out *out)
{
    const tl_image_plan *pl = s->pl;
    const tl_csc *m = &pl->csc;
    if (pl->cols.kernel && dense(cols, ncols)) {
        tl_yuv_rows rows = {r[0], r[1], r[2], 1, (int32_t)pl->cols.step[1], m->yoff, m->cy, m->cvr, m->cvg, m->cug, m->cub};
        pl->k->yuv_rgb(&rows, pl->cx + cols[0], pl->cx + cols[ncols - 1] + 1, out);
        return;
    }
    uint8_t *g[3] = {s->gather, s->gather + ncols, s->gather + 2 * (size_t)ncols};
    tl_yuv_rows rows = {g[0], g[1], g[2], 0, 1, m->yoff, m->cy, m->cvr, m->cvg, m->cug, m->cub};
    if (pl->cols.kernel && pl->cols.step[1] == 2) { /* NV12, NV21: each column's U,V pair in one move */
        const uint8_t *pair = r[1] < r[2] ? r[1] : r[2];
        for (int32_t k = 0; k < ncols; k++) {
            int64_t x = pl->cx + cols[k];
            g[0][k] = r[0][x];
            memcpy(g[1] + 2 * (size_t)k, pair + (x >> 1) * 2, 2);
        }
        rows.u = g[1] + (r[1] - pair), rows.v = g[1] + (r[2] - pair), rows.cstep = 2;
    } else {
        for (int c = 0; c < 3; c++) {
            const int64_t *col = pl->src.col[c] + pl->cx;
            for (int32_t k = 0; k < ncols; k++) g[c][k] = r[c][col[cols[k]]];
        }
    }
    pl->k->yuv_rgb(&rows, 0, ncols, out);
}

/* Exact mode: crop row sy as the resize sees it, at the columns the resize
 * reads, into o: column cols[k]'s R, G, B at o->ch[c][k * o->step], or its
 * gray value at o->ch[0][k * o->step] (pc 1). Frame column = crop x +
 * column; the offset tables hold each channel's row and column terms
 * (chroma subsampling included). */
static void exact_pixels(const src_ctx *s, int32_t sy, const int32_t *cols, int32_t ncols, const tl_rgb_out *o)
{
    const tl_image_plan *pl = s->pl;
    const int64_t y = pl->cy + sy, step = o->step;
    const uint8_t *r0 = s->src + pl->src.row[0][y];
    const int64_t *c0 = pl->src.col[0] + pl->cx;
    if (pl->sc == 1 || (pl->kind == SRC_YUV && pl->pc == 1)) { /* gray source, or the Y of a gray output */
        for (int32_t k = 0; k < ncols; k++) {
            uint8_t g = r0[c0[cols[k]]];
            for (int c = 0; c < pl->pc; c++) o->ch[c][k * step] = g;
        }
        return;
    }
    const uint8_t *r1 = s->src + pl->src.row[1][y], *r2 = s->src + pl->src.row[2][y];
    const int64_t *c1 = pl->src.col[1] + pl->cx, *c2 = pl->src.col[2] + pl->cx;
    if (pl->kind == SRC_YUV && pl->k->yuv_rgb != tl_yuv_rgb_ukernel__scalar) {
        const uint8_t *r[3] = {r0, r1, r2};
        yuv_kernel_row(s, r, cols, ncols, o);
    } else if (pl->kind == SRC_YUV && pl->cols.regular) {
        const tl_csc *m = &pl->csc;
        const tl_cols *g = &pl->cols;
        const int64_t cx = pl->cx;
        for (int32_t k = 0; k < ncols; k++) {
            int64_t x = cx + cols[k];
            yuv_to_rgb_tab(m, r0[x * g->step[0]], r1[(x >> g->shift[1]) * g->step[1]], r2[(x >> g->shift[2]) * g->step[2]],
                           o, k);
        }
    } else if (pl->kind == SRC_YUV) {
        const tl_csc *m = &pl->csc;
        for (int32_t k = 0; k < ncols; k++) {
            int32_t i = cols[k];
            yuv_to_rgb_tab(m, r0[c0[i]], r1[c1[i]], r2[c2[i]], o, k);
        }
    } else {
        const bool bgr = pl->p.src_order == TL_IMAGE_BGR;
        for (int32_t k = 0; k < ncols; k++) {
            int32_t i = cols[k];
            uint8_t a = r0[c0[i]], g = r1[c1[i]], b = r2[c2[i]], r = bgr ? b : a;
            b = bgr ? a : b;
            if (pl->pc == 1) o->ch[0][k * step] = rgb_to_gray(r, g, b);
            else o->ch[0][k * step] = r, o->ch[1][k * step] = g, o->ch[2][k * step] = b;
        }
    }
}

/* The resize's source rows: exact_pixels as pixels of pc channels. */
static void exact_row(const void *ctx, int32_t sy, const int32_t *cols, int32_t ncols, uint8_t *out)
{
    tl_rgb_out o = ((const src_ctx *)ctx)->pl->pc == 1 ? (tl_rgb_out){{out, out, out}, 1} : tl_rgb_bytes(out);
    exact_pixels(ctx, sy, cols, ncols, &o);
}

/* Fast mode: the luma crop, and the chroma crop at chroma resolution. */
static void fast_y_row(const void *ctx, int32_t sy, const int32_t *cols, int32_t ncols, uint8_t *out)
{
    const src_ctx *s = ctx;
    const tl_image_plan *pl = s->pl;
    const uint8_t *r0 = s->src + pl->src.row[0][pl->cy + sy];
    const int64_t *c0 = pl->src.col[0] + pl->cx;
    if (pl->cols.kernel && dense(cols, ncols)) { /* Y samples side by side */
        memcpy(out, r0 + pl->cx + cols[0], (size_t)ncols);
        return;
    }
    if (pl->cols.kernel) { /* Y step 1: the column is the byte */
        const uint8_t *y0 = r0 + pl->cx;
        for (int32_t k = 0; k < ncols; k++) out[k] = y0[cols[k]];
        return;
    }
    for (int32_t k = 0; k < ncols; k++) out[k] = r0[c0[cols[k]]];
}

static void fast_uv_row(const void *ctx, int32_t sy, const int32_t *cols, int32_t ncols, uint8_t *out)
{
    const src_ctx *s = ctx;
    const tl_image_plan *pl = s->pl;
    const int64_t y = pl->cy + (int64_t)sy * pl->chroma_sy;
    const uint8_t *r1 = s->src + pl->src.row[1][y], *r2 = s->src + pl->src.row[2][y];
    const int64_t *c1 = pl->src.col[1] + pl->cx, *c2 = pl->src.col[2] + pl->cx;
    if (pl->cols.kernel && pl->cols.step[1] == 2 && r1 < r2 && dense(cols, ncols)) { /* NV12: U,V pairs as they are */
        memcpy(out, r1 + pl->cx + 2 * cols[0], (size_t)(2 * ncols));
        return;
    }
    for (int32_t k = 0; k < ncols; k++) {
        int64_t x = cols[k] * (int64_t)pl->chroma_sx;
        out[2 * k] = r1[c1[x]], out[2 * k + 1] = r2[c2[x]];
    }
}

/* Fast mode, bilinear and nearest: a whole crop row of the plane, in place
 * when the kernel layout has it side by side with 128 bytes of the buffer
 * after it (the kernels' wide loads), else copied or gathered into scratch. */
static const uint8_t *in_place(const tl_image_plan *pl, const src_ctx *s, const uint8_t *p, size_t len, uint8_t *scratch)
{
    if ((uint64_t)(p - s->src) + len + 128 <= (uint64_t)pl->src_size) return p;
    memcpy(scratch, p, len);
    return scratch;
}

static const uint8_t *fz_y_line(const void *ctx, int32_t sy, uint8_t *scratch)
{
    const src_ctx *s = ctx;
    const tl_image_plan *pl = s->pl;
    const uint8_t *r0 = s->src + pl->src.row[0][pl->cy + sy];
    if (pl->cols.kernel) return in_place(pl, s, r0 + pl->cx, (size_t)pl->cw, scratch);
    const int64_t *c0 = pl->src.col[0] + pl->cx;
    for (int64_t x = 0; x < pl->cw; x++) scratch[x] = r0[c0[x]];
    return scratch;
}

static const uint8_t *fz_uv_line(const void *ctx, int32_t sy, uint8_t *scratch)
{
    const src_ctx *s = ctx;
    const tl_image_plan *pl = s->pl;
    const int64_t y = pl->cy + (int64_t)sy * pl->chroma_sy, n = pl->fz_uv.sw; /* cw / chroma_sx, without a division per row */
    const uint8_t *r1 = s->src + pl->src.row[1][y], *r2 = s->src + pl->src.row[2][y];
    if (pl->cols.kernel && pl->cols.step[1] == 2) /* NV12, NV21: the pairs as they are (yf.vfirst says which) */
        return in_place(pl, s, (r1 < r2 ? r1 : r2) + pl->cx, (size_t)(2 * n), scratch);
    const int64_t *c1 = pl->src.col[1] + pl->cx, *c2 = pl->src.col[2] + pl->cx;
    for (int64_t x = 0; x < n; x++) {
        int64_t fx = x * pl->chroma_sx;
        scratch[2 * x] = r1[c1[fx]], scratch[2 * x + 1] = r2[c2[fx]];
    }
    return scratch;
}

/* ---- plan ---------------------------------------------------------------------- */
static tl_status fast_init(tl_image_plan *pl)
{
    int sx = pl->chroma_sx, sy = pl->chroma_sy;
    if (pl->cx % sx || pl->cy % sy || pl->cw % sx || pl->ch % sy)
        return tl_fail(TL_ERR_UNSUPPORTED, "mode fast with crop %lld,%lld,%lld,%lld of a %dx%d-subsampled frame: fast mode resizes the chroma plane, so x, y, w, h must be multiples of %d, %d; use mode exact for this crop",
                       (long long)pl->cx, (long long)pl->cy, (long long)pl->cw, (long long)pl->ch, sx, sy, sx, sy);
    yuv_fast_init(&pl->yf, &pl->csc);
    pl->fz_on = pl->p.resize != TL_IMAGE_AREA;
    if (pl->fz_on) {
        /* interleaved chroma read in place: V first when the frame has it first (NV21) */
        pl->yf.vfirst = pl->cols.kernel && pl->cols.step[1] == 2 && pl->src.row[2][0] < pl->src.row[1][0];
        TL_TRY(tl_fz_init(&pl->fz, pl->p.resize, 1, (int32_t)pl->cw, (int32_t)pl->ch, (int32_t)pl->nw, (int32_t)pl->nh, pl->k));
        return tl_fz_init(&pl->fz_uv, pl->p.resize, 2, (int32_t)(pl->cw / sx), (int32_t)(pl->ch / sy), (int32_t)pl->nw,
                          (int32_t)pl->nh, pl->k);
    }
    TL_TRY(tl_rz_init(&pl->rz, pl->p.resize, 1, (int32_t)pl->cw, (int32_t)pl->ch, (int32_t)pl->nw, (int32_t)pl->nh));
    return tl_rz_init(&pl->rz_uv, pl->p.resize, 2, (int32_t)(pl->cw / sx), (int32_t)(pl->ch / sy), (int32_t)pl->nw,
                      (int32_t)pl->nh);
}

static void lut_init(tl_image_plan *pl)
{
    tl_elem_op op;
    tl_elem_op_init_dt(&op, TL_F32, NULL, (tl_dtype)pl->dst_d.dtype, &pl->dst_d.quant);
    pl->codes.width = pl->dw;
    pl->codes.identity = true;
    for (int c = 0; c < pl->dc; c++)
        for (int v = 0; v < 256; v++) {
            float x = ((float)v - pl->p.mean[c]) / pl->p.std[c];
            uint32_t bits;
            memcpy(&bits, &x, 4);
            pl->codes.lut[c][v] = tl_elem_convert_raw(&op, bits);
            pl->codes.identity &= pl->codes.lut[c][v] == (uint64_t)v && pl->eb == 1;
        }
}

static const char *const resize_names[] = {"bilinear", "nearest", "area"};
static const char *const color_names[] = {"bt601", "bt709", "bt601-full", "bt709-full"};

static void describe(tl_image_plan *pl)
{
    static const char *const kinds[] = {"yuv", "rgb", "gray"};
    snprintf(pl->text, sizeof pl->text,
             "image %s %lldx%lld crop %lld,%lld,%lldx%lld -> %s %lldx%lld at %lld,%lld in %lldx%lld C=%d %s, %s, %s, %s, %s kernels",
             kinds[pl->kind], (long long)pl->sw, (long long)pl->sh, (long long)pl->cx, (long long)pl->cy,
             (long long)pl->cw, (long long)pl->ch, resize_names[pl->p.resize], (long long)pl->nw, (long long)pl->nh,
             (long long)pl->left, (long long)pl->top, (long long)pl->dw, (long long)pl->dh, pl->dc,
             tl_dtype_name((tl_dtype)pl->dst_d.dtype), pl->kind == SRC_YUV ? color_names[pl->p.color] : "no csc",
             pl->p.order == TL_IMAGE_BGR ? "bgr" : "rgb", pl->fast ? "fast" : "exact", pl->k->isa);
}

static tl_status build(tl_image_plan *pl, const tl_desc *src_d, const tl_desc *dst_d)
{
    if (!pl->k) return tl_fail(TL_ERR_UNSUPPORTED, "image plan: this machine or build lacks the requested instruction set");
    img_dims sg, dg;
    TL_TRY(check_params(&pl->p));
    TL_TRY(check_src(pl, src_d, &sg));
    TL_TRY(check_dst(pl, dst_d, &dg));
    TL_TRY(crop_geometry(pl));
    TL_TRY(fit_geometry(pl));
    pl->pc = pl->dc == 1 ? 1 : 3;
    pl->fast = pl->p.mode == TL_IMAGE_FAST && pl->kind == SRC_YUV && pl->pc == 3;
    csc_init(&pl->csc, pl->p.color);
    TL_TRY(addr_init(&pl->src, src_d, &sg, pl->sc));
    cols_init(pl);
    TL_TRY(tl_img_dst_init(&pl->dst, dst_d, dg.c, dg.h, dg.w));
    if (pl->fast) TL_TRY(fast_init(pl));
    else TL_TRY(tl_rz_init(&pl->rz, pl->p.resize, pl->pc, (int32_t)pl->cw, (int32_t)pl->ch, (int32_t)pl->nw, (int32_t)pl->nh));
    if (!(pl->border = malloc((size_t)(pl->dw * pl->dc)))) return tl_fail(TL_ERR_NOMEM, "image plan: out of memory");
    for (int64_t x = 0; x < pl->dw; x++) memcpy(pl->border + x * pl->dc, pl->p.pad, (size_t)pl->dc);
    pl->rz.vlinear = pl->rz_uv.vlinear = pl->k->vlinear;
    pl->rz.hlinear = pl->rz_uv.hlinear = pl->k->hlinear;
    lut_init(pl);
    tl_img_codes_pack(&pl->dst, &pl->codes);
    tl_img_enc_init(&pl->enc, &pl->dst, dst_d, &pl->codes, pl->p.mean, pl->p.std, pl->isa);
    /* Planar destinations take the colour kernel's channel rows as they are
     * (no RGB interleave, no deinterleave), where no resize arithmetic
     * stands between the frame's line and the row. */
    pl->rows_direct = !pl->fast && pl->enc.on && pl->dst.shape == TL_DST_PLANES && pl->pc == 3 && pl->dc == 3;
    if (pl->top > 0 || pl->top + pl->nh < pl->dh) pl->border_row = tl_img_dst_encode(&pl->dst, &pl->codes, pl->border);
    if (pl->border_row) pl->border_fill = tl_img_dst_fill_of(&pl->dst, pl->border_row);
    describe(pl);
    return TL_OK;
}

tl_status tl_image_plan_create(tl_image_plan **plan, const tl_desc *src_d, const tl_desc *dst_d,
                               const tl_image_params *params)
{
    return tl_image_plan_create_isa(plan, src_d, dst_d, params, -1);
}

tl_status tl_image_plan_create_isa(tl_image_plan **plan, const tl_desc *src_d, const tl_desc *dst_d,
                                   const tl_image_params *params, int isa)
{
    if (!plan) return tl_fail(TL_ERR_NULL, "plan is NULL");
    *plan = NULL;
    if (!src_d || !dst_d) return tl_fail(TL_ERR_NULL, "%s descriptor is NULL", src_d ? "destination" : "source");
    tl_image_plan *pl = calloc(1, sizeof *pl);
    if (!pl) return tl_fail(TL_ERR_NOMEM, "image plan: out of memory");
    if (params) pl->p = *params;
    else tl_image_params_init(&pl->p);
    pl->k = isa < 0 ? tl_image_kernels_best() : tl_image_kernels_for(isa);
    pl->isa = isa;
    tl_status s = build(pl, src_d, dst_d);
    if (s != TL_OK) {
        tl_image_plan_destroy(pl);
        return s;
    }
    *plan = pl;
    tl_clear_error();
    return TL_OK;
}

void tl_image_plan_destroy(tl_image_plan *pl)
{
    if (!pl) return;
    addr_free(&pl->src);
    tl_img_dst_free(&pl->dst);
    tl_rz_free(&pl->rz);
    tl_rz_free(&pl->rz_uv);
    tl_fz_free(&pl->fz);
    tl_fz_free(&pl->fz_uv);
    free(pl->border);
    free(pl->border_row);
    free(pl);
}

const char *tl_image_plan_describe(const tl_image_plan *pl) { return pl ? pl->text : ""; }

const char *tl_image_plan_encoder(const tl_image_plan *pl)
{
    if (!pl || !pl->enc.on) return NULL;
    return pl->enc.real_name ? pl->enc.real_name : pl->enc.elem_name ? pl->enc.elem_name : "copy";
}

tl_status tl_image_plan_map(const tl_image_plan *pl, tl_image_map *m)
{
    if (!pl || !m) return tl_fail(TL_ERR_NULL, "%s is NULL", pl ? "map" : "plan");
    m->scale_x = (double)pl->cw / (double)pl->nw;
    m->scale_y = (double)pl->ch / (double)pl->nh;
    m->offset_x = (double)pl->cx - (double)pl->left * m->scale_x;
    m->offset_y = (double)pl->cy - (double)pl->top * m->scale_y;
    m->left = pl->left, m->top = pl->top, m->width = pl->nw, m->height = pl->nh;
    tl_clear_error();
    return TL_OK;
}

/* ---- running ------------------------------------------------------------------------ */
typedef struct run_work {
    tl_rz_work rz, rz_uv;
    tl_fz_work fz, fz_uv;
    uint8_t *content;   /* nw * pc resized pixels (fast: Y) */
    uint8_t *uv;        /* fast: nw * 2 */
    uint8_t *rgb;       /* fast: nw * 3 converted pixels */
    uint8_t *pixels;    /* dw * dc, destination channel order */
    uint8_t *rows[3];   /* rows_direct: dw each, destination channels */
    uint8_t *gather;    /* 3 * cw (+ 16): src_ctx's */
    void *mem;
} run_work;

static size_t up64(size_t n) { return (n + 63) & ~(size_t)63; }

static tl_status work_init(const tl_image_plan *pl, run_work *w)
{
    size_t a = pl->fz_on ? tl_fz_work_bytes(&pl->fz) : tl_rz_work_bytes(&pl->rz);
    size_t b = pl->fz_on ? tl_fz_work_bytes(&pl->fz_uv) : pl->fast ? tl_rz_work_bytes(&pl->rz_uv) : 0;
    size_t c = up64((size_t)pl->nw * 3), u = up64((size_t)pl->nw * 2), px = up64((size_t)pl->dw * 4);
    size_t g = up64((size_t)pl->cw * 3 + 16), r = pl->rows_direct ? up64((size_t)pl->dw) : 0;
    size_t all = a + b + 2 * c + u + px + g + 3 * r;
    w->mem = malloc(all + 64);
    if (!w->mem) return tl_fail(TL_ERR_NOMEM, "image run scratch of %zu bytes: out of memory", all);
    uint8_t *p = (uint8_t *)(((uintptr_t)w->mem + 63) & ~(uintptr_t)63);
    if (pl->fz_on) tl_fz_work_init(&w->fz, &pl->fz, p), p += a, tl_fz_work_init(&w->fz_uv, &pl->fz_uv, p), p += b;
    else tl_rz_work_init(&w->rz, &pl->rz, p), p += a;
    if (pl->fast && !pl->fz_on) tl_rz_work_init(&w->rz_uv, &pl->rz_uv, p), p += b;
    w->content = p, p += c;
    w->uv = p, p += u;
    w->rgb = p, p += c;
    w->pixels = p, p += px;
    w->gather = p, p += g;
    for (int k = 0; k < 3; k++) w->rows[k] = p, p += r;
    return TL_OK;
}

/* Destination channel c takes resized channel src_channel(c); -1 = the 4th (alpha). */
static int src_channel(const tl_image_plan *pl, int c)
{
    if (pl->pc == 1) return 0;
    if (c == 3) return -1;
    return pl->p.order == TL_IMAGE_BGR ? 2 - c : c;
}

static void fill_border(const tl_image_plan *pl, uint8_t *px, int64_t x0, int64_t x1)
{
    memcpy(px + x0 * pl->dc, pl->border + x0 * pl->dc, (size_t)((x1 - x0) * pl->dc));
}

/* Fast mode: image row dy as nw RGB pixels into out. With a fused kernel the
 * Y pick and both chroma steps happen in the colour pass, from the frame's
 * rows (no rows stored and read back); else each plane's row is made (the
 * horizontal steps cached per source row), then converted. */
static void fast_rgb(const tl_image_plan *pl, run_work *w, const src_ctx *ctx, int32_t dy, uint8_t *out)
{
    const size_t nw = (size_t)pl->nw;
    tl_yuv_fast yf = pl->yf;
    yf.y = w->content, yf.uv = w->uv;
    if (!pl->fz_on) {
        tl_rz_row(&pl->rz, &w->rz, dy, fast_y_row, ctx, w->content);
        tl_rz_row(&pl->rz_uv, &w->rz_uv, dy, fast_uv_row, ctx, w->uv);
        yf.vfirst = 0;
        pl->k->yuv_rgb_fast(&yf, nw, out);
        return;
    }
    tl_fz_parts y = tl_fz_parts_of(&pl->fz, &w->fz, dy, fz_y_line, ctx);
    if (!pl->k->yuv_rgb_fused || tl_fz_picks(&pl->fz_uv, dy)) { /* no fused kernel, or chroma picked: the rows, then colour */
        tl_fz_parts uv = tl_fz_parts_of(&pl->fz_uv, &w->fz_uv, dy, fz_uv_line, ctx);
        tl_fz_finish(&pl->fz, &y, w->content);
        tl_fz_finish(&pl->fz_uv, &uv, w->uv);
        pl->k->yuv_rgb_fast(&yf, nw, out);
        return;
    }
    if (y.line) yf.y_line = y.line, yf.y_taps = &pl->fz.taps;
    else tl_fz_finish(&pl->fz, &y, w->content);
    const uint8_t *uv[2];
    yf.b1 = tl_fz_lines(&pl->fz_uv, &w->fz_uv, dy, fz_uv_line, ctx, uv);
    yf.uv_line0 = uv[0], yf.uv_line1 = uv[1], yf.uv_taps = &pl->fz_uv.taps;
    pl->k->yuv_rgb_fused(&yf, nw, out);
}

/* Destination row y as dw pixels of dc u8 channels in destination order, into px. */
static void pixel_row(const tl_image_plan *pl, run_work *w, const src_ctx *ctx, int64_t y, uint8_t *px)
{
    const int dc = pl->dc, pc = pl->pc;
    if (y < pl->top || y >= pl->top + pl->nh) { fill_border(pl, px, 0, pl->dw); return; }
    fill_border(pl, px, 0, pl->left);
    fill_border(pl, px, pl->left + pl->nw, pl->dw);
    int32_t dy = (int32_t)(y - pl->top);
    uint8_t *content = w->content;
    if (pl->fast) { /* RGB straight into the row when it is the destination's order */
        bool into_row = dc == 3 && pl->p.order == TL_IMAGE_RGB;
        fast_rgb(pl, w, ctx, dy, into_row ? px + pl->left * 3 : w->rgb);
        if (into_row) return;
        content = w->rgb;
    } else { /* resized pixels straight into the row when no channel moves */
        bool direct = dc == pc && (pc == 1 || pl->p.order == TL_IMAGE_RGB);
        if (direct) content = px + pl->left * dc;
        tl_rz_row(&pl->rz, &w->rz, dy, exact_row, ctx, content);
        if (direct) return;
    }
    int map[4];
    for (int c = 0; c < dc; c++) map[c] = src_channel(pl, c);
    uint8_t *o = px + pl->left * dc;
    for (int64_t i = 0; i < pl->nw; i++, o += dc, content += pc)
        for (int c = 0; c < dc; c++) o[c] = map[c] < 0 ? 255 : content[map[c]];
}

/* Destination row y, image row dy = source line sy, straight into the
 * planes: each channel's row (pad columns, then the colour kernel's row of
 * the source channel it takes), then the encoder. */
static void direct_row(const tl_image_plan *pl, run_work *w, const src_ctx *ctx, int32_t sy, int64_t yp, uint8_t *dst)
{
    tl_rgb_out o = {{NULL, NULL, NULL}, 1};
    for (int c = 0; c < 3; c++) {
        memset(w->rows[c], pl->p.pad[c], (size_t)pl->left);
        memset(w->rows[c] + pl->left + pl->nw, pl->p.pad[c], (size_t)(pl->dw - pl->left - pl->nw));
        o.ch[src_channel(pl, c)] = w->rows[c] + pl->left;
    }
    exact_pixels(ctx, sy, pl->rz.cols, pl->rz.ncols, &o);
    const uint8_t *rows[3] = {w->rows[0], w->rows[1], w->rows[2]};
    tl_img_enc_rows(&pl->dst, &pl->enc, rows, yp, dst, pl->dw);
}

tl_status tl_image_plan_run_part(const tl_image_plan *pl, unsigned part, unsigned nparts, const void *src,
                                 size_t src_len, void *dst, size_t dst_len)
{
    if (!pl || !src || !dst) return tl_fail(TL_ERR_NULL, "%s is NULL", !pl ? "plan" : !src ? "source buffer" : "destination buffer");
    if (nparts == 0 || part >= nparts)
        return tl_fail(TL_ERR_COORD, "part %u of %u: need part < nparts and nparts >= 1", part, nparts);
    if ((uint64_t)src_len < (uint64_t)pl->src_size)
        return tl_fail(TL_ERR_BUFFER_SMALL, "source buffer of %zu bytes < %lld the source descriptor needs", src_len, (long long)pl->src_size);
    if ((uint64_t)dst_len < (uint64_t)pl->dst_size)
        return tl_fail(TL_ERR_BUFFER_SMALL, "destination buffer of %zu bytes < %lld the destination descriptor needs", dst_len, (long long)pl->dst_size);
    /* Padding on a dim other than C, H, W (a padded N): tl_fill_padding writes
     * every padding byte, the rows' too, so part 0 does the whole run and the
     * other parts nothing (each byte written by one part only). */
    if (pl->dst.fill_rest && part > 0) {
        tl_clear_error();
        return TL_OK;
    }
    if (pl->dst.fill_rest) nparts = 1;
    run_work w;
    TL_TRY(work_init(pl, &w));
    if (pl->dst.fill_rest) tl_fill_padding(&pl->dst_d, dst, dst_len, 0); /* padded N */
    const int64_t hp = pl->dst.hp, y0 = hp * part / nparts, y1 = hp * (part + 1) / nparts;
    src_ctx ctx = {pl, src, w.gather};
    for (int64_t yp = y0; yp < y1; yp++) {
        int64_t y = yp - pl->dst.plo_h;
        bool image = y >= 0 && y < pl->dh;
        bool border = image && (y < pl->top || y >= pl->top + pl->nh); /* a whole letterbox border row */
        if (border && pl->border_row) {
            tl_img_dst_copy_row(&pl->dst, pl->border_row, &pl->enc.fill, pl->border_fill, yp, dst);
            continue;
        }
        int32_t sy;
        if (image && !border && pl->rows_direct && tl_rz_row_is_line(&pl->rz, (int32_t)(y - pl->top), &sy)) {
            direct_row(pl, &w, &ctx, sy, yp, dst);
            continue;
        }
        uint8_t *at = image ? tl_img_dst_pixels_at(&pl->dst, &pl->codes, yp, dst) : NULL;
        if (image) pixel_row(pl, &w, &ctx, y, at ? at : w.pixels);
        if (at) continue; /* made in place */
        if (image && pl->enc.on) tl_img_enc_row(&pl->dst, &pl->enc, w.pixels, yp, dst, pl->dw);
        else tl_img_dst_row(&pl->dst, &pl->codes, image ? w.pixels : NULL, yp, dst);
    }
    free(w.mem);
    tl_clear_error();
    return TL_OK;
}

tl_status tl_image_plan_run(const tl_image_plan *pl, const void *src, size_t src_len, void *dst, size_t dst_len)
{
    return tl_image_plan_run_part(pl, 0, 1, src, src_len, dst, dst_len);
}
