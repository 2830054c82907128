/* Writing destination rows: every element of a padded row (the image's
 * elements through the plan's per-channel code tables, padding elements as
 * raw zero, as tl_convert writes them), so padding costs no extra pass.
 *
 * Offsets over the padded box are separable like the logical ones: element
 * (c, y, x) of the padded box is at row[c][y] + col[c][x]. Two shapes get
 * straight loops: whole pixels of all padded channels side by side (NHWC,
 * pitched NHWC, NC1HWC2 with one C1 block, HWC4, kCHW16/32 with C <= block),
 * and channel rows (NCHW, TIDL's padded planes). Anything else is written
 * element by element through the tables. */
#include <stdlib.h>
#include <string.h>

#include "core/internal.h"
#include "image/image.h"

#define TL_IMG_MAX_PIXEL 256 /* bytes of a padded pixel written through the staging buffer */

/* Bit offset of a padded-box coordinate (pc = coordinate + pad_lo). */
static int64_t padded_offset_bits(const tl_desc *d, const int64_t *pc)
{
    const tl_plane *pl = &d->planes[0];
    if (d->plane_dim >= 0)
        for (int k = 0; k < d->nplanes; k++)
            if (pc[d->plane_dim] >= d->planes[k].first && pc[d->plane_dim] < d->planes[k].first + d->planes[k].count)
                pl = &d->planes[k];
    int64_t bits = pl->offset_bytes * 8;
    for (int a = 0; a < pl->naxes; a++) {
        const tl_axis *ax = &pl->axes[a];
        int64_t p = pc[ax->dim] - (ax->dim == d->plane_dim ? pl->first : 0);
        bits += (p / ax->block) % ax->extent * ax->stride_bits;
    }
    return bits;
}

static int64_t offset_bytes(const tl_desc *d, const tl_img_dst *w, int64_t c, int64_t y, int64_t x)
{
    int64_t pc[TL_MAX_DIMS] = {0};
    pc[w->cdim] = c, pc[w->hdim] = y, pc[w->wdim] = x;
    return padded_offset_bits(d, pc) / 8;
}

static bool pixel_shape(const tl_img_dst *w)
{
    if (w->cp * w->eb > TL_IMG_MAX_PIXEL) return false; /* staged in a small buffer */
    for (int64_t c = 0; c < w->cp; c++) {
        if (w->row[c * w->hp] != w->row[0] + c * w->eb) return false;
        for (int64_t y = 0; y < w->hp; y++)
            if (w->row[c * w->hp + y] - w->row[y] != c * w->eb) return false;
        for (int64_t x = 0; x < w->wp; x++)
            if (w->col[c * w->wp + x] != x * w->ps) return false;
    }
    return w->ps == w->cp * w->eb;
}

static bool planar_shape(const tl_img_dst *w)
{
    for (int64_t c = 0; c < w->cp; c++)
        for (int64_t x = 0; x < w->wp; x++)
            if (w->col[c * w->wp + x] != x * w->eb) return false;
    return true;
}

tl_status tl_img_dst_init(tl_img_dst *w, const tl_desc *d, int cdim, int hdim, int wdim)
{
    memset(w, 0, sizeof *w);
    w->cdim = cdim, w->hdim = hdim, w->wdim = wdim;
    w->eb = (int)(tl_dtype_bits((tl_dtype)d->dtype) / 8);
    w->dc = (int)d->dims[cdim];
    w->plo_c = d->pad_lo[cdim], w->plo_h = d->pad_lo[hdim], w->plo_w = d->pad_lo[wdim];
    w->cp = d->dims[cdim] + d->pad_lo[cdim] + d->pad_hi[cdim];
    w->hp = d->dims[hdim] + d->pad_lo[hdim] + d->pad_hi[hdim];
    w->wp = d->dims[wdim] + d->pad_lo[wdim] + d->pad_hi[wdim];
    for (int i = 0; i < d->rank; i++)
        if (i != cdim && i != hdim && i != wdim && (d->pad_lo[i] || d->pad_hi[i])) w->fill_rest = true;
    w->row = malloc(sizeof(int64_t) * (size_t)(w->cp * w->hp));
    w->col = malloc(sizeof(int64_t) * (size_t)(w->cp * w->wp));
    if (!w->row || !w->col) return tl_fail(TL_ERR_NOMEM, "image destination tables: out of memory");
    for (int64_t c = 0; c < w->cp; c++) {
        int64_t base = offset_bytes(d, w, c, 0, 0);
        for (int64_t y = 0; y < w->hp; y++) w->row[c * w->hp + y] = offset_bytes(d, w, c, y, 0);
        for (int64_t x = 0; x < w->wp; x++) w->col[c * w->wp + x] = offset_bytes(d, w, c, 0, x) - base;
    }
    w->ps = w->wp > 1 ? w->col[1] : w->cp * w->eb;
    w->shape = pixel_shape(w) ? TL_DST_PIXELS : planar_shape(w) ? TL_DST_PLANES : TL_DST_ELEMENTS;
    return TL_OK;
}

void tl_img_dst_free(tl_img_dst *w)
{
    free(w->row), free(w->col);
    w->row = w->col = NULL;
}

static inline void put(uint8_t *p, int eb, uint64_t v)
{
    switch (eb) {
    case 1: *p = (uint8_t)v; return;
    case 2: { uint16_t t = (uint16_t)v; memcpy(p, &t, 2); return; }
    case 4: { uint32_t t = (uint32_t)v; memcpy(p, &t, 4); return; }
    default: memcpy(p, &v, 8); return;
    }
}

/* Code of padded channel c at padded column x: the table's, or 0 in padding. */
static inline uint64_t code(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px, int64_t c, int64_t x)
{
    int64_t lc = c - w->plo_c, lx = x - w->plo_w;
    if (!px || lc < 0 || lc >= w->dc || lx < 0 || lx >= (int64_t)t->width) return 0;
    return t->lut[lc][px[lx * w->dc + lc]];
}

/* One padded pixel from a staging buffer whose pad lanes stay zero: a
 * fixed-size move for the usual pixel sizes. */
static inline void move_pixel(uint8_t *p, const uint8_t *pix, int64_t ps)
{
    switch (ps) {
    case 3: memcpy(p, pix, 3); return;
    case 4: memcpy(p, pix, 4); return;
    case 8: memcpy(p, pix, 8); return;
    case 16: memcpy(p, pix, 16); return;
    case 32: memcpy(p, pix, 32); return;
    case 64: memcpy(p, pix, 64); return;
    default: memcpy(p, pix, (size_t)ps); return;
    }
}

void tl_img_codes_pack(const tl_img_dst *w, tl_img_codes *t)
{
    const uint16_t one = 1;
    uint8_t first;
    memcpy(&first, &one, 1);
    t->packed_ok = w->shape == TL_DST_PIXELS && first == 1 && (w->plo_c + w->dc) * w->eb <= 8;
    if (!t->packed_ok) return;
    const uint64_t mask = w->eb == 8 ? ~(uint64_t)0 : ((uint64_t)1 << (8 * w->eb)) - 1;
    for (int c = 0; c < w->dc; c++)
        for (int v = 0; v < 256; v++) t->packed[c][v] = (t->lut[c][v] & mask) << (8 * w->eb * (w->plo_c + c));
}

static inline uint64_t packed_pixel(const tl_img_codes *t, const uint8_t *px, int dc)
{
    uint64_t v = t->packed[0][px[0]];
    for (int c = 1; c < dc; c++) v |= t->packed[c][px[c]];
    return v;
}

/* n image pixels of ps bytes from packed words: the lanes past the word are
 * padding, zero; one store per pixel for the usual sizes (no staging buffer
 * read back, so no store-to-load forwarding stall per pixel). Inlined per
 * channel count, so the channel loop unrolls. */
static inline void packed_loop(const tl_img_codes *t, const uint8_t *px, int64_t n, int64_t ps, uint8_t *p, int dc)
{
#define TL_PACKED_LOOP(STORE)                                                     \
    for (int64_t x = 0; x < n; x++, p += ps, px += dc) {                          \
        uint64_t v = packed_pixel(t, px, dc);                                     \
        STORE;                                                                    \
    }
    switch (ps) {
    case 4: { TL_PACKED_LOOP(uint32_t v32 = (uint32_t)v; memcpy(p, &v32, 4)) break; }
    case 8: TL_PACKED_LOOP(memcpy(p, &v, 8)) break;
    case 16: { const uint64_t zero = 0; TL_PACKED_LOOP(memcpy(p, &v, 8); memcpy(p + 8, &zero, 8)) break; }
    default: TL_PACKED_LOOP(memcpy(p, &v, (size_t)(ps < 8 ? ps : 8))) break;
    }
#undef TL_PACKED_LOOP
}

static void packed_pixels(const tl_img_codes *t, int dc, const uint8_t *px, int64_t n, int64_t ps, uint8_t *p)
{
    if (ps > 8 && ps != 16) memset(p, 0, (size_t)(n * ps));
    switch (dc) { /* 1, 3 or 4 (image channels) */
    case 1: packed_loop(t, px, n, ps, p, 1); return;
    case 3: packed_loop(t, px, n, ps, p, 3); return;
    default: packed_loop(t, px, n, ps, p, 4); return;
    }
}

static void pixels_row(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px, uint8_t *row)
{
    const int eb = w->eb;
    const int64_t ps = w->ps, dc = w->dc;
    if (!px) { memset(row, 0, (size_t)(w->wp * ps)); return; }
    if (t->identity && eb == 1 && w->cp == dc && w->wp == (int64_t)t->width) { memcpy(row, px, (size_t)(t->width * dc)); return; }
    memset(row, 0, (size_t)(w->plo_w * ps));
    uint8_t *p = row + w->plo_w * ps;
    if (t->packed_ok) {
        packed_pixels(t, (int)dc, px, (int64_t)t->width, ps, p);
        memset(p + (int64_t)t->width * ps, 0, (size_t)((w->wp - w->plo_w - (int64_t)t->width) * ps));
        return;
    }
    uint8_t pix[TL_IMG_MAX_PIXEL] = {0};
    uint8_t *lanes = pix + w->plo_c * eb;
    const int64_t n = (int64_t)t->width;
    /* one loop per element size, so that each store has a constant size */
#define TL_PIXELS_LOOP(T)                                                             \
    for (int64_t x = 0; x < n; x++, p += ps, px += dc) {                              \
        for (int64_t c = 0; c < dc; c++) {                                            \
            T v = (T)t->lut[c][px[c]];                                                \
            memcpy(lanes + c * (int64_t)sizeof(T), &v, sizeof(T));                    \
        }                                                                             \
        move_pixel(p, pix, ps);                                                       \
    }
    switch (eb) {
    case 1: TL_PIXELS_LOOP(uint8_t) break;
    case 2: TL_PIXELS_LOOP(uint16_t) break;
    case 4: TL_PIXELS_LOOP(uint32_t) break;
    default: TL_PIXELS_LOOP(uint64_t) break;
    }
#undef TL_PIXELS_LOOP
    memset(p, 0, (size_t)((w->wp - w->plo_w - (int64_t)t->width) * ps));
}

/* Padded channel c of a plane-shaped row at row (wp elements). */
static void plane_channel_row(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px, int64_t c, uint8_t *row)
{
    const int eb = w->eb;
    int64_t lc = c - w->plo_c;
    if (!px || lc < 0 || lc >= w->dc) { memset(row, 0, (size_t)(w->wp * eb)); return; }
    const uint64_t *lut = t->lut[lc];
    const uint8_t *s = px + lc;
    memset(row, 0, (size_t)(w->plo_w * eb));
    uint8_t *p = row + w->plo_w * eb;
    const int64_t n = (int64_t)t->width, dc = w->dc;
    /* one loop per element size, so that each store has a constant size */
#define TL_PLANE_LOOP(T)                                                  \
    for (int64_t x = 0; x < n; x++) {                                     \
        T v = (T)lut[s[x * dc]];                                          \
        memcpy(p + x * (int64_t)sizeof(T), &v, sizeof(T));                \
    }
    switch (eb) {
    case 1: TL_PLANE_LOOP(uint8_t) break;
    case 2: TL_PLANE_LOOP(uint16_t) break;
    case 4: TL_PLANE_LOOP(uint32_t) break;
    default: TL_PLANE_LOOP(uint64_t) break;
    }
#undef TL_PLANE_LOOP
    int64_t end = w->plo_w + (int64_t)t->width;
    memset(row + end * eb, 0, (size_t)((w->wp - end) * eb));
}

static void planes_row(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px, int64_t y, uint8_t *dst)
{
    for (int64_t c = 0; c < w->cp; c++) plane_channel_row(w, t, px, c, dst + w->row[c * w->hp + y]);
}

/* Bytes of an encoded row: one line of pixels, or cp plane lines. */
static size_t encoded_bytes(const tl_img_dst *w)
{
    return (size_t)(w->shape == TL_DST_PIXELS ? w->wp * w->ps : w->wp * w->eb * w->cp);
}

uint8_t *tl_img_dst_encode(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px)
{
    if (w->shape == TL_DST_ELEMENTS) return NULL;
    size_t line = (size_t)(w->shape == TL_DST_PIXELS ? w->wp * w->ps : w->wp * w->eb);
    uint8_t *enc = malloc(encoded_bytes(w));
    if (!enc) return NULL;
    if (w->shape == TL_DST_PIXELS) pixels_row(w, t, px, enc);
    else
        for (int64_t c = 0; c < w->cp; c++) plane_channel_row(w, t, px, c, enc + (size_t)c * line);
    return enc;
}

int tl_img_dst_fill_of(const tl_img_dst *w, const uint8_t *enc)
{
    size_t n = encoded_bytes(w);
    for (size_t i = 1; i < n; i++)
        if (enc[i] != enc[0]) return -1;
    return n ? enc[0] : -1;
}

/* One row of `line` bytes from its encoded copy s: a memset where the whole
 * row is one byte (byte >= 0), the image's span by its pad pattern where f
 * has a kernel, else copies. Both spare the loads of a copy. */
static void copy_line(uint8_t *d, const uint8_t *s, size_t line, const tl_img_fill *f, int byte)
{
    if (byte >= 0) {
        memset(d, byte, line);
        return;
    }
    if (!f->fn) {
        memcpy(d, s, line);
        return;
    }
    size_t at = (size_t)f->at, len = (size_t)f->len;
    memcpy(d, s, at);
    f->fn(d + at, len, s + at, f->period);
    memcpy(d + at + len, s + at + len, line - at - len);
}

void tl_img_dst_copy_row(const tl_img_dst *w, const uint8_t *enc, const tl_img_fill *fill, int byte, int64_t y,
                         uint8_t *dst)
{
    if (w->shape == TL_DST_PIXELS) {
        copy_line(dst + w->row[y], enc, (size_t)(w->wp * w->ps), fill, byte);
        return;
    }
    size_t line = (size_t)(w->wp * w->eb);
    for (int64_t c = 0; c < w->cp; c++) copy_line(dst + w->row[c * w->hp + y], enc + (size_t)c * line, line, fill, byte);
}

uint8_t *tl_img_dst_pixels_at(const tl_img_dst *w, const tl_img_codes *t, int64_t y, uint8_t *dst)
{
    bool same = w->shape == TL_DST_PIXELS && t->identity && w->eb == 1 && w->cp == w->dc && w->wp == (int64_t)t->width;
    return same ? dst + w->row[y] : NULL;
}

void tl_img_dst_row(const tl_img_dst *w, const tl_img_codes *t, const uint8_t *px, int64_t y, uint8_t *dst)
{
    if (w->shape == TL_DST_PIXELS) {
        pixels_row(w, t, px, dst + w->row[y]);
    } else if (w->shape == TL_DST_PLANES) {
        planes_row(w, t, px, y, dst);
    } else {
        for (int64_t c = 0; c < w->cp; c++)
            for (int64_t x = 0; x < w->wp; x++)
                put(dst + w->row[c * w->hp + y] + w->col[c * w->wp + x], w->eb, code(w, t, px, c, x));
    }
}

/* ---- the vector encode (encode.c): a row in chunks of TL_IMG_ENC_CHUNK pixels ---- */
typedef struct enc_bufs {
    float real[TL_IMG_ENC_CHUNK * 4];          /* step 1's values */
    uint8_t elems[TL_IMG_ENC_CHUNK * 4 * 4 + 64]; /* step 2's elements (+ 64: the expand kernels' loads) */
    uint8_t chan[4 * TL_IMG_ENC_CHUNK];        /* planes: one u8 row per channel */
} enc_bufs;

/* Zero padding columns: most rows have none (no call then). */
static inline void zero(uint8_t *p, int64_t n)
{
    if (n > 0) memset(p, 0, (size_t)n);
}

/* n u8 values in, n destination elements at out (r: step 1's constants). */
static void encode_values(const tl_img_enc *e, const tl_img_real *r, const uint8_t *src, size_t n, uint8_t *out,
                          enc_bufs *b)
{
    if (e->identity) {
        if (e->elem) e->elem(src, 0, out, 0, 1, n, &e->cv);
        else memcpy(out, src, n); /* u8 into u8 */
        return;
    }
    if (!e->elem && ((uintptr_t)out & 3) == 0) {
        e->real(src, (float *)(void *)out, n, r); /* f32: step 1 is the element */
        return;
    }
    e->real(src, b->real, n, r);
    if (e->elem) e->elem(b->real, 0, out, 0, 1, n, &e->cv);
    else memcpy(out, b->real, n * 4);
}

static void enc_pixels_row(const tl_img_dst *w, const tl_img_enc *e, const uint8_t *px, uint8_t *row, int64_t width,
                           enc_bufs *b)
{
    const int64_t ps = w->ps, dc = w->dc, bytes = dc * w->eb;
    zero(row, w->plo_w * ps);
    uint8_t *p = row + w->plo_w * ps;
    if (e->pix8_fn) e->pix8_fn(px, (size_t)width, &e->pix8, p); /* in one step */
    else for (int64_t x0 = 0; x0 < width; x0 += TL_IMG_ENC_CHUNK) {
        size_t n = (size_t)(width - x0 < TL_IMG_ENC_CHUNK ? width - x0 : TL_IMG_ENC_CHUNK);
        const uint8_t *s = px + x0 * dc;
        if (ps == bytes) { /* packed pixels: the elements are the row */
            encode_values(e, &e->all, s, n * (size_t)dc, p + x0 * ps, b);
            continue;
        }
        encode_values(e, &e->all, s, n * (size_t)dc, b->elems, b);
        e->expand(b->elems, n, &e->ex, p + x0 * ps);
    }
    zero(p + width * ps, (w->wp - w->plo_w - width) * ps);
}

/* Planes: the padding of row y (pad channels, columns around the image). */
static void plane_pads(const tl_img_dst *w, int64_t y, uint8_t *dst, int64_t width)
{
    const int eb = w->eb;
    const int64_t end = w->plo_w + width;
    for (int64_t c = 0; c < w->cp; c++) {
        uint8_t *row = dst + w->row[c * w->hp + y];
        int64_t lc = c - w->plo_c;
        if (lc < 0 || lc >= w->dc) { memset(row, 0, (size_t)(w->wp * eb)); continue; }
        zero(row, w->plo_w * eb);
        zero(row + end * eb, (w->wp - end) * eb);
    }
}

/* Planes: where the image starts in row y of image channel lc. */
static uint8_t *plane_image_at(const tl_img_dst *w, uint8_t *dst, int64_t lc, int64_t y)
{
    return dst + w->row[(lc + w->plo_c) * w->hp + y] + w->plo_w * w->eb;
}

static void enc_planes_row(const tl_img_dst *w, const tl_img_enc *e, const uint8_t *px, int64_t y, uint8_t *dst,
                           int64_t width, enc_bufs *b)
{
    const int eb = w->eb;
    const int64_t dc = w->dc;
    plane_pads(w, y, dst, width);
    if (e->planes) { /* f32 rows in one step */
        uint8_t *rows[4];
        for (int64_t lc = 0; lc < dc; lc++) rows[lc] = plane_image_at(w, dst, lc, y);
        e->planes(px, (size_t)width, (int)dc, e->chan, rows);
        return;
    }
    for (int64_t x0 = 0; x0 < width; x0 += TL_IMG_ENC_CHUNK) {
        size_t n = (size_t)(width - x0 < TL_IMG_ENC_CHUNK ? width - x0 : TL_IMG_ENC_CHUNK);
        if (dc > 1) e->dilv(px + x0 * dc, (ptrdiff_t)dc, b->chan, TL_IMG_ENC_CHUNK, n, (size_t)dc, 0);
        for (int64_t lc = 0; lc < dc; lc++) {
            const uint8_t *s = dc > 1 ? b->chan + lc * TL_IMG_ENC_CHUNK : px + x0;
            uint8_t *row = plane_image_at(w, dst, lc, y) + x0 * eb;
            encode_values(e, &e->chan[lc], s, n, row, b);
        }
    }
}

void tl_img_enc_row(const tl_img_dst *w, const tl_img_enc *e, const uint8_t *px, int64_t y, uint8_t *dst,
                    int64_t width)
{
    enc_bufs b;
    if (w->shape == TL_DST_PIXELS) enc_pixels_row(w, e, px, dst + w->row[y], width, &b);
    else enc_planes_row(w, e, px, y, dst, width, &b);
}

void tl_img_enc_rows(const tl_img_dst *w, const tl_img_enc *e, const uint8_t *const *rows, int64_t y, uint8_t *dst,
                     int64_t width)
{
    enc_bufs b;
    const int eb = w->eb;
    plane_pads(w, y, dst, width);
    for (int64_t lc = 0; lc < w->dc; lc++) {
        uint8_t *row = plane_image_at(w, dst, lc, y);
        if (e->planes) { /* the planes kernel on one channel: its constants are chan[lc] */
            e->planes(rows[lc], (size_t)width, 1, &e->chan[lc], &row);
            continue;
        }
        for (int64_t x0 = 0; x0 < width; x0 += TL_IMG_ENC_CHUNK) {
            size_t n = (size_t)(width - x0 < TL_IMG_ENC_CHUNK ? width - x0 : TL_IMG_ENC_CHUNK);
            encode_values(e, &e->chan[lc], rows[lc] + x0, n, row + x0 * eb, &b);
        }
    }
}
