/* tl_argmax: the best channel per position, optionally on an upsampled grid.
 *
 * Bilinear upsampling blends the real logits of 4 neighbours. On the
 * half-pixel grid the source coordinate of output x is
 *   sx = (x + 0.5) * W / out_w - 0.5 = ((2x + 1) * W - out_w) / (2 * out_w),
 * so with num = max(0, (2x + 1) * W - out_w) the left neighbour is
 * num / (2 out_w) and the weights are (2 out_w - a, a), a = num % (2 out_w):
 * integers. When the dequantization is exactly linear in the code (value =
 * step * (code - zp), step > 0) the argmax of the blended values equals the
 * argmax of the blended codes, which int32 (or exact double) arithmetic gives
 * exactly. Otherwise the blend runs in double on the dequantized values. The
 * blend is separable: each source row is interpolated horizontally once, then
 * output rows blend two such rows. */
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "kernels/scan/scan.h"
#include "parallel/parallel.h"
#include "post/post_internal.h"

/* One horizontal tap pair per output column. */
typedef struct tap {
    int64_t i0, i1;  /* source columns */
    int64_t w0, w1;  /* integer weights, sum 2 * out */
} tap;

static void make_taps(tap *t, int64_t in, int64_t out)
{
    for (int64_t x = 0; x < out; x++) {
        int64_t num = (2 * x + 1) * in - out;
        if (num < 0) num = 0;
        int64_t i0 = num / (2 * out), a = num % (2 * out);
        if (i0 >= in - 1) i0 = in - 1, a = 0; /* clamped at the far edge */
        t[x] = (tap){i0, i0 + (a > 0), 2 * out - a, a};
    }
}

/* Exactly linear dequantization: value(q) == step * (q - zp) for every code. */
static bool linear_codes(const tl_pview *v, int64_t *zp)
{
    const tl_quant *q = &v->d->quant;
    *zp = (q->kind == TL_Q_AFFINE || q->kind == TL_Q_INV) ? q->zp : 0;
    double step = tl_dequantize_value(q, *zp + 1) - tl_dequantize_value(q, *zp);
    if (!(step > 0.0)) return false;
    for (int64_t c = v->lo; c <= v->hi; c++)
        if (tl_dequantize_value(q, c) != step * (double)(c - *zp)) return false;
    return true;
}

typedef struct blend {
    const tl_pview *v;
    const uint8_t *buf;
    bool codes;          /* blend codes (exact), else values */
    bool i32;            /* codes fit int32 after both blends */
    int64_t out_h, out_w;
    tap *tx, *ty;
    void *rows[2];       /* horizontally blended rows: C x out_w each */
    int64_t row_of[2];   /* source row held, -1 none */
    void *best;          /* out_w accumulators */
    int32_t *label;      /* out_w labels */
    bool bytes;          /* 8-bit codes, separable, int32: the direct row pass */
    int64_t *xo;         /* bytes: out_w offsets of i0 then out_w of i1 */
    int32_t *xw;         /* out_w weights w0 then out_w of w1 */
    tl_argmax_row_fn row_fn;
} blend;

static double elem_value(const blend *b, int64_t n, int64_t c, int64_t h, int64_t w)
{
    int64_t code = tl_pview_load(b->v, b->buf, tl_pview_bit(b->v, n, c, h, w));
    return b->codes ? (double)code : tl_pview_value(b->v, code);
}

/* Horizontal pass of source row h of item n into slot k. */
/* hrow for 8-bit codes: straight byte loads at precomputed column offsets. */
static void hrow_bytes(blend *b, int k, int64_t n, int64_t h)
{
    const tl_pview *v = b->v;
    const int64_t ow = b->out_w, *xo0 = b->xo, *xo1 = b->xo + ow;
    const int32_t *w0 = b->xw, *w1 = b->xw + ow;
    for (int64_t c = 0; c < v->C; c++) {
        const uint8_t *row = b->buf + ((v->base + v->tn[n] + v->tc[c] + v->th[h]) >> 3);
        int32_t *out = (int32_t *)b->rows[k] + c * ow;
        if (v->is_signed)
            for (int64_t x = 0; x < ow; x++) out[x] = w0[x] * (int8_t)row[xo0[x]] + w1[x] * (int8_t)row[xo1[x]];
        else
            for (int64_t x = 0; x < ow; x++) out[x] = w0[x] * row[xo0[x]] + w1[x] * row[xo1[x]];
    }
    b->row_of[k] = h;
}

static void hrow(blend *b, int k, int64_t n, int64_t h)
{
    const tl_pview *v = b->v;
    if (b->bytes) {
        hrow_bytes(b, k, n, h);
        return;
    }
    for (int64_t c = 0; c < v->C; c++)
        for (int64_t x = 0; x < b->out_w; x++) {
            const tap *t = &b->tx[x];
            double s = (double)t->w0 * elem_value(b, n, c, h, t->i0) + (double)t->w1 * elem_value(b, n, c, h, t->i1);
            if (b->i32) ((int32_t *)b->rows[k])[c * b->out_w + x] = (int32_t)s;
            else ((double *)b->rows[k])[c * b->out_w + x] = s;
        }
    b->row_of[k] = h;
}

static void vrow_i32(blend *b, const int32_t *r0, const int32_t *r1, int32_t w0, int32_t w1)
{
    int32_t *best = b->best, *label = b->label;
    for (int64_t x = 0; x < b->out_w; x++) best[x] = w0 * r0[x] + w1 * r1[x], label[x] = 0;
    for (int64_t c = 1; c < b->v->C; c++)
        b->row_fn(r0 + c * b->out_w, r1 + c * b->out_w, w0, w1, (int32_t)c, best, label, (size_t)b->out_w);
}

static void vrow_f64(blend *b, const double *r0, const double *r1, double w0, double w1)
{
    double *best = b->best;
    for (int64_t c = 0; c < b->v->C; c++) {
        const double *a = r0 + c * b->out_w, *z = r1 + c * b->out_w;
        for (int64_t x = 0; x < b->out_w; x++) {
            double s = w0 * a[x] + w1 * z[x];
            if (c == 0 || s > best[x]) best[x] = s, b->label[x] = (int32_t)c;
        }
    }
}

static int slot_of(const blend *b, int64_t h) { return b->row_of[0] == h ? 0 : b->row_of[1] == h ? 1 : -1; }

/* Labels of output row y of item n into b->label (rows i0 and i1 may be one). */
static void out_row(blend *b, int64_t n, int64_t y)
{
    const tap *t = &b->ty[y];
    int k0 = slot_of(b, t->i0);
    if (k0 < 0) {
        k0 = b->row_of[0] == t->i1 ? 1 : 0;
        hrow(b, k0, n, t->i0);
    }
    int k1 = slot_of(b, t->i1);
    if (k1 < 0) {
        k1 = 1 - k0;
        hrow(b, k1, n, t->i1);
    }
    if (b->i32) vrow_i32(b, b->rows[k0], b->rows[k1], (int32_t)t->w0, (int32_t)t->w1);
    else vrow_f64(b, b->rows[k0], b->rows[k1], (double)t->w0, (double)t->w1);
}

static void store_labels(void *labels, tl_label_type type, int64_t at, const int32_t *src, int64_t n)
{
    if (type == TL_LABEL_I32) memcpy((int32_t *)labels + at, src, (size_t)n * sizeof *src);
    else
        for (int64_t i = 0; i < n; i++) ((uint8_t *)labels)[at + i] = (uint8_t)src[i];
}

/* Labels at the source grid, row h of item n. */
static void src_row(const tl_pview *v, const uint8_t *buf, int64_t n, int64_t h, int32_t *label)
{
    for (int64_t w = 0; w < v->W; w++) {
        double best = 0.0;
        for (int64_t c = 0; c < v->C; c++) {
            double x = tl_pview_value(v, tl_pview_load(v, buf, tl_pview_bit(v, n, c, h, w)));
            if (c == 0 || x > best) best = x, label[w] = (int32_t)c;
        }
    }
}

static tl_status check_out(const tl_pview *v, tl_resize resize, int64_t *oh, int64_t *ow, tl_label_type type,
                           size_t len_labels)
{
    if (resize != TL_RESIZE_NONE && resize != TL_RESIZE_NEAREST && resize != TL_RESIZE_BILINEAR)
        return tl_fail(TL_ERR_UNSUPPORTED, "resize=%d: must be none (0), nearest (1) or bilinear (2)", (int)resize);
    if (type != TL_LABEL_I32 && type != TL_LABEL_U8)
        return tl_fail(TL_ERR_DTYPE, "label type=%d: must be TL_LABEL_I32 or TL_LABEL_U8", (int)type);
    if (type == TL_LABEL_U8 && v->C > 256)
        return tl_fail(TL_ERR_DTYPE, "C=%lld channels: u8 labels hold at most 256; use TL_LABEL_I32", (long long)v->C);
    if (resize == TL_RESIZE_NONE) {
        if ((*oh && *oh != v->H) || (*ow && *ow != v->W))
            return tl_fail(TL_ERR_MISMATCH, "out %lldx%lld without resize: must be 0x0 or HxW=%lldx%lld",
                           (long long)*oh, (long long)*ow, (long long)v->H, (long long)v->W);
        *oh = v->H, *ow = v->W;
    }
    if (*oh < 1 || *ow < 1 || *oh > (1 << 24) || *ow > (1 << 24))
        return tl_fail(TL_ERR_DIM, "out %lldx%lld: each side must be 1..16777216", (long long)*oh, (long long)*ow);
    int64_t need = 0;
    if (!tl_mul_ok(v->N, *oh, &need) || !tl_mul_ok(need, *ow, &need) ||
        !tl_mul_ok(need, type == TL_LABEL_I32 ? 4 : 1, &need))
        return tl_fail(TL_ERR_OVERFLOW, "label map N x %lld x %lld overflows 64 bits", (long long)*oh, (long long)*ow);
    if ((uint64_t)len_labels < (uint64_t)need)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len_labels=%llu < %lld bytes of the %lldx%lldx%lld label map",
                       (unsigned long long)len_labels, (long long)need, (long long)v->N, (long long)*oh,
                       (long long)*ow);
    return TL_OK;
}

/* What every part of a bilinear call shares, made once per call: the
 * blend's mode, the taps and the byte path's column offsets. A part takes a
 * copy and points it at its own row buffers. */
static tl_status bilinear_setup(blend *b, const tl_pview *v, const uint8_t *buf, int64_t oh, int64_t ow)
{
    *b = (blend){.v = v, .buf = buf, .out_h = oh, .out_w = ow, .row_of = {-1, -1},
                 .row_fn = tl_argmax_row_kernel_default()};
    int64_t zp = 0, mag = v->hi > -v->lo ? v->hi : -v->lo;
    b->codes = linear_codes(v, &zp);
    double bound = 4.0 * (double)oh * (double)ow * (double)mag;
    b->i32 = b->codes && bound < 2147483648.0;
    if (b->codes && bound >= 9007199254740992.0) b->codes = false; /* not exact in double */
    b->bytes = b->i32 && v->separable && v->bits == 8;
    b->tx = malloc((size_t)ow * sizeof *b->tx);
    b->ty = malloc((size_t)oh * sizeof *b->ty);
    b->xo = malloc((size_t)(2 * ow) * sizeof *b->xo);
    b->xw = malloc((size_t)(2 * ow) * sizeof *b->xw);
    if (!b->tx || !b->ty || !b->xo || !b->xw)
        return tl_fail(TL_ERR_NOMEM, "bilinear argmax taps for %lld x %lld", (long long)oh, (long long)ow);
    make_taps(b->tx, v->W, ow);
    make_taps(b->ty, v->H, oh);
    for (int64_t x = 0; b->bytes && x < ow; x++) {
        b->xo[x] = v->tw[b->tx[x].i0] >> 3, b->xo[ow + x] = v->tw[b->tx[x].i1] >> 3;
        b->xw[x] = (int32_t)b->tx[x].w0, b->xw[ow + x] = (int32_t)b->tx[x].w1;
    }
    return TL_OK;
}

static void bilinear_free(blend *b) { free(b->tx), free(b->ty), free(b->xo), free(b->xw); }

/* One part's row buffers: two blended rows, the best values, the labels,
 * each starting on a 64-byte line: the row kernels' vector loads must not
 * straddle lines (unaligned rows measured 1.3 to 1.9 x slower). */
#define LINE_UP(n) (((n) + (size_t)63) & ~(size_t)63)

static size_t bilinear_scratch_bytes(const blend *b)
{
    size_t es = b->i32 ? 4 : 8, ow = (size_t)b->out_w;
    return 64 + 2 * LINE_UP((size_t)b->v->C * ow * es) + LINE_UP(ow * es) + ow * sizeof(int32_t);
}

/* Output rows are numbered g = n * out_h + y over the whole batch; a run
 * writes rows [g0, g1) (a part of tl_argmax_parallel, or all of them) with
 * the row buffers at scratch. */
static void run_bilinear(const blend *shared, void *scratch, tl_label_type type, void *labels, int64_t g0, int64_t g1)
{
    blend b = *shared;
    size_t es = b.i32 ? 4 : 8, row = LINE_UP((size_t)(b.v->C * b.out_w) * es);
    uint8_t *at = (uint8_t *)(((uintptr_t)scratch + 63) & ~(uintptr_t)63);
    b.rows[0] = at;
    b.rows[1] = at + row;
    b.best = at + 2 * row;
    b.label = (int32_t *)(void *)((uint8_t *)b.best + LINE_UP((size_t)b.out_w * es));
    for (int64_t g = g0; g < g1; g++) {
        if (g == g0 || g % b.out_h == 0) b.row_of[0] = b.row_of[1] = -1; /* held rows are of one item */
        out_row(&b, g / b.out_h, g % b.out_h);
        store_labels(labels, type, g * b.out_w, b.label, b.out_w);
    }
}

/* A part's first output row moved to where the upper source row changes
 * (the start of the next group of output rows that blend the same two
 * source rows): a group split between two parts would have both blend its
 * source rows horizontally, the costly half of the work. */
static int64_t group_start(const blend *b, int64_t g, int64_t rows)
{
    while (g < rows && g % b->out_h != 0 && b->ty[g % b->out_h].i0 == b->ty[g % b->out_h - 1].i0) g++;
    return g;
}

/* Labels of source rows are made when an output row first needs them (a
 * nearest upsample repeats a source row over consecutive output rows). */
static tl_status run_source(const tl_pview *v, const uint8_t *buf, tl_resize resize, int64_t oh, int64_t ow,
                            tl_label_type type, void *labels, int64_t g0, int64_t g1)
{
    int32_t *src = malloc((size_t)v->W * sizeof *src), *row = malloc((size_t)ow * sizeof *row);
    if (!src || !row) {
        free(src), free(row);
        return tl_fail(TL_ERR_NOMEM, "argmax label rows");
    }
    int64_t held = -1; /* source row (n * H + h) whose labels src holds */
    for (int64_t g = g0; g < g1; g++) {
        int64_t n = g / oh, y = g % oh, sy = resize == TL_RESIZE_NONE ? y : y * v->H / oh;
        if (held != n * v->H + sy) src_row(v, buf, n, sy, src), held = n * v->H + sy;
        for (int64_t x = 0; x < ow; x++) row[x] = src[resize == TL_RESIZE_NONE ? x : x * v->W / ow];
        store_labels(labels, type, g * ow, row, ow);
    }
    free(src), free(row);
    return TL_OK;
}

/* One checked argmax call, run as parts of its output rows. A bilinear
 * part's row buffers come from one of `nslots` slots (one per thread that
 * can run a part at once), each allocated by the first part that takes it
 * and kept to the end of the call: no allocation per part. */
typedef struct argmax_job {
    const tl_pview *v;
    const uint8_t *buf;
    tl_resize resize;
    int64_t out_h, out_w;
    tl_label_type type;
    void *labels;
    blend shared;                                /* bilinear: made once */
    unsigned nslots;
    atomic_int taken[TL_PARALLEL_MAX_THREADS];
    void *slot[TL_PARALLEL_MAX_THREADS];
} argmax_job;

static tl_status bilinear_part(argmax_job *j, int64_t g0, int64_t g1)
{
    unsigned k = 0;
    while (k < j->nslots && atomic_exchange(&j->taken[k], 1)) k++;
    if (k == j->nslots) return tl_fail(TL_ERR_NOMEM, "argmax: more parts at once than the %u threads", j->nslots);
    if (!j->slot[k]) j->slot[k] = malloc(bilinear_scratch_bytes(&j->shared));
    tl_status s = TL_OK;
    if (!j->slot[k])
        s = tl_fail(TL_ERR_NOMEM, "bilinear argmax rows for %lld x %lld", (long long)j->v->C, (long long)j->out_w);
    else run_bilinear(&j->shared, j->slot[k], j->type, j->labels, g0, g1);
    atomic_store(&j->taken[k], 0);
    return s;
}

static tl_status argmax_part(void *ctx, unsigned part, unsigned nparts)
{
    argmax_job *j = (argmax_job *)ctx;
    int64_t rows = j->v->N * j->out_h, g0 = rows * part / nparts, g1 = rows * (part + 1) / nparts;
    if (j->resize != TL_RESIZE_BILINEAR)
        return g0 == g1 ? TL_OK : run_source(j->v, j->buf, j->resize, j->out_h, j->out_w, j->type, j->labels, g0, g1);
    g0 = group_start(&j->shared, g0, rows), g1 = group_start(&j->shared, g1, rows);
    return g0 == g1 ? TL_OK : bilinear_part(j, g0, g1);
}

/* Work of the pool's estimate: every output label blends or compares C
 * values, a compute-bound job; the bytes read and written come on top. */
static uint64_t argmax_work(const argmax_job *j, size_t len, size_t len_labels)
{
    double labels = (double)j->v->N * (double)j->out_h * (double)j->out_w * (double)j->v->C;
    uint64_t w = tl_par_work(len, len_labels), c = labels >= 1.8e19 ? UINT64_MAX : (uint64_t)labels;
    return w > UINT64_MAX - c ? UINT64_MAX : w + c;
}

/* Tiles per thread: each bilinear part blends one extra source row at its
 * start (about 5 output rows' work at 21 classes): 8 tiles a thread balance
 * that against the idle end of a run. */
#define ARGMAX_TILES_PER_THREAD 8u

tl_status tl_argmax_parallel(const tl_desc *d, const void *buf, size_t len, tl_resize resize, int64_t out_h,
                             int64_t out_w, tl_label_type type, void *labels, size_t len_labels, unsigned nthreads)
{
    tl_pview v;
    if (!buf || !labels) return tl_fail(TL_ERR_NULL, "buf or labels is NULL");
    TL_TRY(tl_pview_init(&v, d, len, true));
    tl_status s = check_out(&v, resize, &out_h, &out_w, type, len_labels);
    argmax_job *j = s == TL_OK ? calloc(1, sizeof *j) : NULL;
    if (s == TL_OK && !j) s = tl_fail(TL_ERR_NOMEM, "argmax job");
    if (s == TL_OK) {
        unsigned slots = tl_par_threads(nthreads); /* a bad nthreads fails in the pool, before any part */
        j->v = &v, j->buf = buf, j->resize = resize, j->out_h = out_h, j->out_w = out_w, j->type = type;
        j->labels = labels;
        j->nslots = slots < TL_PARALLEL_MAX_THREADS ? slots : TL_PARALLEL_MAX_THREADS;
        for (unsigned k = 0; k < TL_PARALLEL_MAX_THREADS; k++) atomic_init(&j->taken[k], 0);
        /* the view fills its value table on first use: fill it now, before
         * parts on several threads read it */
        for (int64_t q = v.lo; slots > 1 && v.lut && q <= v.hi; q++) tl_pview_value(&v, q);
        if (resize == TL_RESIZE_BILINEAR) s = bilinear_setup(&j->shared, &v, buf, out_h, out_w);
    }
    if (s == TL_OK)
        s = tl_par_run_tiles(argmax_part, j, argmax_work(j, len, len_labels), nthreads, ARGMAX_TILES_PER_THREAD);
    if (j) {
        bilinear_free(&j->shared);
        for (unsigned k = 0; k < j->nslots; k++) free(j->slot[k]);
    }
    free(j);
    tl_pview_free(&v);
    return s;
}

tl_status tl_argmax(const tl_desc *d, const void *buf, size_t len, tl_resize resize, int64_t out_h, int64_t out_w,
                    tl_label_type type, void *labels, size_t len_labels)
{
    return tl_argmax_parallel(d, buf, len, resize, out_h, out_w, type, labels, len_labels, 1);
}
