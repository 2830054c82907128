/* The memory map of a descriptor: which element lives at which byte
 * (see svg_map.h). Used by `tlayout draw`, `explain` and `demo`. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "svg_map.h"

/* Largest plane span (cells) and position count enumerated for a layout whose
 * strides are not nested; nested layouts (every vendor format) need no table. */
#define MM_ENUM_MAX ((int64_t)1 << 22)

/* ---- text buffer ------------------------------------------------------------ */
void svg_printf(svg_buf *b, const char *fmt, ...)
{
    va_list ap;
    if (b->oom) return;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->p ? b->p + b->len : NULL, b->p ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) { b->oom = 1; return; }
        if (b->p && (size_t)n < room) { b->len += (size_t)n; return; }
        size_t cap = b->cap ? b->cap : 4096;
        while (cap - b->len <= (size_t)n) cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) { b->oom = 1; return; }
        b->p = p;
        b->cap = cap;
    }
}

void svg_buf_free(svg_buf *b)
{
    free(b->p);
    memset(b, 0, sizeof *b);
}

/* ---- building the map --------------------------------------------------------- */
static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Cells are as large as possible while every element, stride and plane start
 * falls on a cell boundary: one cell per element for most layouts, one per
 * byte when a vendor pitch is byte-granular (larod). */
static int64_t unit_of(const tl_desc *d, int64_t ebits)
{
    int64_t u = gcd64(ebits, d->size_bytes * 8);
    for (int k = 0; k < d->nplanes; k++) {
        const tl_plane *p = &d->planes[k];
        u = gcd64(u, p->offset_bytes * 8);
        for (int a = 0; a < p->naxes; a++) u = gcd64(u, p->axes[a].stride_bits);
    }
    return u > 0 ? u : ebits;
}

/* Axes that move memory, largest stride first (stable: ties keep their order). */
static void sort_axes(const tl_plane *p, mm_plane *mp)
{
    mp->naxes = 0;
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        if (x->stride_bits == 0 || x->extent <= 1) continue;
        int k = mp->naxes++;
        while (k > 0 && mp->axes[k - 1].stride_bits < x->stride_bits) {
            mp->axes[k] = mp->axes[k - 1];
            k--;
        }
        mp->axes[k] = *x;
    }
}

/* Nested: each stride is at least the span of everything inside it, so an
 * offset splits into coordinates by division, largest stride first. */
static int64_t inner_spans(mm_plane *mp, int64_t ebits)
{
    int64_t span = ebits;
    mp->nested = 1;
    for (int a = mp->naxes - 1; a >= 0; a--) {
        if (mp->axes[a].stride_bits < span) mp->nested = 0;
        span += (mp->axes[a].extent - 1) * mp->axes[a].stride_bits;
    }
    return span;
}

static int64_t positions_of(const mm_plane *mp)
{
    int64_t n = 1;
    for (int a = 0; a < mp->naxes; a++)
        if (!cli_mul_ok(n, mp->axes[a].extent, &n)) return INT64_MAX;
    return n;
}

/* Coordinates of position `index` (last axis fastest) and its bit offset in the plane. */
static int64_t position_coords(const mm_plane *mp, int64_t index, int64_t *c)
{
    int64_t bits = 0;
    for (int a = mp->naxes - 1; a >= 0; a--) {
        c[a] = index % mp->axes[a].extent;
        index /= mp->axes[a].extent;
        bits += c[a] * mp->axes[a].stride_bits;
    }
    return bits;
}

/* Overlapping strides: record the first position that covers each cell. */
static tl_status enumerate_owners(const mm_map *m, mm_plane *mp)
{
    int64_t cells = (mp->end_bits - mp->begin_bits) / m->unit_bits, n = positions_of(mp);
    if (cells > MM_ENUM_MAX || n > MM_ENUM_MAX)
        return cli_fail(TL_ERR_UNSUPPORTED, "draw: the strides of this layout overlap (not nested) and it has "
                        "%lld positions over %lld cells; at most %lld can be mapped", (long long)n,
                        (long long)cells, (long long)MM_ENUM_MAX);
    mp->owner = calloc((size_t)cells, sizeof *mp->owner);
    if (!mp->owner) return cli_fail(TL_ERR_NOMEM, "draw: %lld cells: out of memory", (long long)cells);
    for (int64_t i = 0; i < n; i++) {
        int64_t c[TL_MAX_AXES];
        int64_t first = position_coords(mp, i, c) / m->unit_bits;
        for (int64_t k = 0; k < m->ebits / m->unit_bits; k++)
            if (mp->owner[first + k] == 0) mp->owner[first + k] = i + 1;
    }
    return TL_OK;
}

tl_status mm_init(mm_map *m, const tl_desc *d)
{
    memset(m, 0, sizeof *m);
    CLI_TRY(tl_desc_validate(d));
    m->d = d;
    m->ebits = tl_dtype_bits((tl_dtype)d->dtype);
    if (d->size_bytes > INT64_MAX / 8) /* the map counts bits */
        return cli_fail(TL_ERR_OVERFLOW, "size=%lld bytes: too large to map (more than 2^60 bytes)",
                        (long long)d->size_bytes);
    m->unit_bits = unit_of(d, m->ebits);
    m->cells = d->size_bytes * 8 / m->unit_bits;
    m->nplanes = d->nplanes;
    for (int k = 0; k < d->nplanes; k++) {
        mm_plane *mp = &m->planes[k];
        sort_axes(&d->planes[k], mp);
        mp->begin_bits = d->planes[k].offset_bytes * 8;
        mp->end_bits = mp->begin_bits + inner_spans(mp, m->ebits);
        if (!mp->nested) {
            tl_status s = enumerate_owners(m, mp);
            if (s != TL_OK) {
                mm_free(m);
                return s;
            }
        }
    }
    return TL_OK;
}

void mm_free(mm_map *m)
{
    for (int k = 0; k < TL_MAX_PLANES; k++) {
        free(m->planes[k].owner);
        m->planes[k].owner = NULL;
    }
}

/* ---- locating --------------------------------------------------------------- */
/* Axis coordinates of the element covering `rel` bits into the plane, and the
 * bit where that element starts; 0 when no element covers it. */
static int find_position(const mm_map *m, const mm_plane *mp, int64_t rel, int64_t *c, int64_t *start)
{
    if (!mp->nested) {
        int64_t i = mp->owner[rel / m->unit_bits];
        if (i == 0) return 0;
        *start = position_coords(mp, i - 1, c);
        return 1;
    }
    int64_t r = rel;
    for (int a = 0; a < mp->naxes; a++) {
        c[a] = r / mp->axes[a].stride_bits;
        if (c[a] >= mp->axes[a].extent) return 0;
        r -= c[a] * mp->axes[a].stride_bits;
    }
    if (r >= m->ebits) return 0;
    *start = rel - r;
    return 1;
}

/* Smallest block of dim i among the plane's axes (1 if it has none). */
static int64_t plane_min_block(const tl_plane *p, int i)
{
    int64_t b = 0;
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == i && p->axes[a].stride_bits != 0 && (b == 0 || p->axes[a].block < b))
            b = p->axes[a].block;
    return b ? b : 1;
}

static int has_broadcast(const tl_plane *p, int i)
{
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == i && p->axes[a].stride_bits == 0 && p->axes[a].extent > 1) return 1;
    return 0;
}

/* Logical coordinates from axis coordinates. */
static void fill_cell(const mm_map *m, int k, const int64_t *c, mm_cell *out)
{
    const tl_desc *d = m->d;
    const mm_plane *mp = &m->planes[k];
    int64_t p[TL_MAX_DIMS] = {0};
    for (int a = 0; a < mp->naxes; a++) p[mp->axes[a].dim] += c[a] * mp->axes[a].block;
    out->kind = MM_VALUE;
    out->plane = k;
    for (int i = 0; i < d->rank; i++) {
        int plane_dim = d->nplanes > 1 && i == d->plane_dim;
        out->x[i] = plane_dim ? p[i] + d->planes[k].first : p[i] - d->pad_lo[i];
        out->span[i] = has_broadcast(&d->planes[k], i) ? -1 : plane_dim ? 1 : plane_min_block(&d->planes[k], i);
        if (out->x[i] < 0 || out->x[i] >= d->dims[i]) out->kind = MM_PAD;
    }
}

void mm_locate(const mm_map *m, int64_t cell, mm_cell *out)
{
    int64_t bit = cell * m->unit_bits;
    memset(out, 0, sizeof *out);
    out->kind = MM_SLACK;
    out->plane = -1;
    for (int k = 0; k < m->nplanes; k++) {
        const mm_plane *mp = &m->planes[k];
        int64_t c[TL_MAX_AXES], start;
        if (bit < mp->begin_bits || bit >= mp->end_bits) continue;
        if (!find_position(m, mp, bit - mp->begin_bits, c, &start)) continue;
        fill_cell(m, k, c, out);
        out->parts = (int)(m->ebits / m->unit_bits);
        out->part = (int)((bit - mp->begin_bits - start) / m->unit_bits);
        return;
    }
}

/* ---- naming -------------------------------------------------------------------- */
int mm_colour_dim(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == 'C') return i;
    return d->nplanes > 1 ? d->plane_dim : -1;
}

const char *mm_channel_name(const tl_desc *d, int64_t c)
{
    static const char *const yuv[3] = {"Y", "Cb", "Cr"};
    int yuv_image = d->vendor == TL_VENDOR_YUV ||
                    (d->vendor == TL_VENDOR_LAROD && d->vendor_format == TL_LAROD_TENSOR_LAYOUT_420SP);
    if (yuv_image && d->nplanes > 1 && d->rank == 3 && d->plane_dim == 0 && c >= 0 && c < 3) return yuv[c];
    return NULL;
}

const char *mm_coord_text(const tl_desc *d, const mm_cell *c, int dim, char *buf, size_t len)
{
    char name[8];
    char l = d->labels[dim];
    if (l) snprintf(name, sizeof name, "%c", l >= 'A' && l <= 'Z' ? l - 'A' + 'a' : l);
    else snprintf(name, sizeof name, "d%d:", dim);
    if (c->span[dim] < 0) snprintf(buf, len, "%s*", name);
    else if (c->span[dim] > 1)
        snprintf(buf, len, "%s%lld-%lld", name, (long long)c->x[dim], (long long)(c->x[dim] + c->span[dim] - 1));
    else snprintf(buf, len, "%s%lld", name, (long long)c->x[dim]);
    return buf;
}

/* ---- statistics ---------------------------------------------------------------- */
/* Multiples of b in [lo, hi]. */
static int64_t multiples_in(int64_t lo, int64_t hi, int64_t b)
{
    if (hi < lo) return 0;
    int64_t first = (lo + b - 1) / b, last = hi / b;
    return last >= first ? last - first + 1 : 0;
}

/* Stored positions of dim i in plane k, and how many of them are logical elements. */
static void dim_counts(const tl_desc *d, int k, int i, int64_t *stored, int64_t *valid)
{
    const tl_plane *p = &d->planes[k];
    *stored = 1;
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == i && p->axes[a].stride_bits != 0) *stored *= p->axes[a].extent;
    if (d->nplanes > 1 && i == d->plane_dim) *valid = p->count;
    else if (has_broadcast(p, i)) *valid = 1;
    else *valid = multiples_in(d->pad_lo[i], d->pad_lo[i] + d->dims[i] - 1, plane_min_block(p, i));
    if (*valid > *stored) *valid = *stored;
}

tl_status mm_stats_of(const tl_desc *d, mm_stats *st)
{
    CLI_TRY(tl_desc_validate(d));
    memset(st, 0, sizeof *st);
    int64_t ebits = tl_dtype_bits((tl_dtype)d->dtype), stored_all = 0;
    for (int k = 0; k < d->nplanes; k++) {
        int64_t stored = 1, valid = 1;
        for (int i = 0; i < d->rank; i++) {
            int64_t s, v;
            dim_counts(d, k, i, &s, &v);
            if (!cli_mul_ok(stored, s, &stored) || !cli_mul_ok(valid, v, &valid))
                return cli_fail(TL_ERR_OVERFLOW, "element count of plane %d overflows 64 bits", k);
            if (has_broadcast(&d->planes[k], i)) st->aliased = 1;
        }
        if (!cli_add_ok(st->values, valid, &st->values) || !cli_add_ok(st->pads, stored - valid, &st->pads) ||
            !cli_add_ok(stored_all, stored, &stored_all))
            return cli_fail(TL_ERR_OVERFLOW, "element count of the planes overflows 64 bits");
    }
    int64_t stored_bits;
    if (d->size_bytes > INT64_MAX / 8 || !cli_mul_ok(st->values, ebits, &st->value_bits) ||
        !cli_mul_ok(st->pads, ebits, &st->pad_bits) || !cli_mul_ok(stored_all, ebits, &stored_bits))
        return cli_fail(TL_ERR_OVERFLOW, "size=%lld bytes: too large to map (bit counts overflow 64 bits)",
                        (long long)d->size_bytes);
    st->size_bits = d->size_bytes * 8;
    if ((d->flags & TL_DESC_READONLY) || stored_bits > st->size_bits) st->aliased = 1;
    st->slack_bits = st->aliased ? 0 : st->size_bits - stored_bits;
    return TL_OK;
}
