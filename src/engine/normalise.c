/* Normalisation: a checked (src, dst) descriptor pair becomes a list of passes,
 * each a loop nest of {count, src_stride, dst_stride} nodes (docs/engine.md).
 *
 * For every destination plane and every source plane the logical region they
 * share is a box. Per dim, the union of both sides' block boundaries splits
 * the padded coordinate into digits (a chain of units, each dividing the
 * next); a range that does not start or end on a block boundary becomes a few
 * segments (head, full middle, tail), each a clean nest of digits. A box of
 * the nest is one segment per dim; its nodes are ordered by destination
 * stride, merged where contiguous on both sides. Destination padding becomes
 * fill boxes (the complement of the logical box), except the padding around
 * the innermost destination run, which the convert pass writes itself (fused
 * head/tail) so every destination cache line is written once.
 *
 * Dims whose blockings do not nest (block 16 against 24, a source shifted by
 * padding against its blocks) fall back to runs found by comparing offsets;
 * a region that would need too many boxes is walked element by element. */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "engine/exec/exec.h"

#define MAX_UNITS (2 * TL_MAX_AXES + 2)
#define MAX_BOXES 1024      /* boxes per region before the element walk takes over */
#define MAX_RUNS 4096       /* runs per dim for dims whose blockings do not nest */

/* ---- one side (source or destination plane) of one dim ------------------------ */
typedef struct dimside {
    int nax;
    const tl_axis *ax[TL_MAX_AXES];
    int64_t c;     /* padded plane-local coordinate p = x + c */
    int64_t span;  /* padded extent inside the plane */
} dimside;

static void dimside_init(dimside *s, const tl_desc *d, int plane, int dim)
{
    const tl_plane *pl = &d->planes[plane];
    s->nax = 0;
    for (int a = 0; a < pl->naxes; a++)
        if (pl->axes[a].dim == dim) s->ax[s->nax++] = &pl->axes[a];
    s->c = d->pad_lo[dim];
    s->span = tl_padded_dim(d, dim);
    if (d->nplanes > 1 && dim == d->plane_dim) {
        s->c -= pl->first;
        s->span = pl->count;
    }
}

static int64_t dimside_bits(const dimside *s, int64_t p)
{
    int64_t bits = 0;
    for (int a = 0; a < s->nax; a++)
        bits += ((p / s->ax[a]->block) % s->ax[a]->extent) * s->ax[a]->stride_bits;
    return bits;
}

/* Smallest block (1 = every position stored; > 1 = subsampled). */
static int64_t dimside_min_block(const dimside *s)
{
    int64_t m = 0;
    for (int a = 0; a < s->nax; a++)
        if (m == 0 || s->ax[a]->block < m) m = s->ax[a]->block;
    return m ? m : 1;
}

static int64_t dimside_max_block(const dimside *s)
{
    int64_t m = 1;
    for (int a = 0; a < s->nax; a++)
        if (s->ax[a]->block > m) m = s->ax[a]->block;
    return m;
}

/* Smallest block above 1, or 0 when the dim is plain. */
static int64_t dimside_next_block(const dimside *s)
{
    int64_t m = 0;
    for (int a = 0; a < s->nax; a++)
        if (s->ax[a]->block > 1 && (m == 0 || s->ax[a]->block < m)) m = s->ax[a]->block;
    return m;
}

/* ---- segments of one dim ---------------------------------------------------------- */
typedef struct seg {
    int64_t p0;                  /* first destination position (padded, plane-local) */
    int nlev;                    /* digits, outermost first */
    int64_t count[MAX_UNITS], unit[MAX_UNITS];
} seg;

typedef struct segvec {
    seg *v;
    int n, cap;
    int overflow;
} segvec;

static void segvec_push(segvec *sv, const seg *s)
{
    if (sv->overflow) return;
    if (sv->n == sv->cap) {
        int cap = sv->cap ? sv->cap * 2 : 4;
        seg *v = realloc(sv->v, (size_t)cap * sizeof *v);
        if (!v) { sv->overflow = 1; return; }
        sv->v = v;
        sv->cap = cap;
    }
    sv->v[sv->n++] = *s;
}

static int64_t rdown(int64_t a, int64_t u) { return a / u * u; }
static int64_t rup(int64_t a, int64_t u) { return (a + u - 1) / u * u; }

typedef struct chain {
    int n;
    int64_t u[MAX_UNITS];        /* ascending; u[0] = the destination's step */
} chain;

static void chain_add(chain *ch, int64_t u)
{
    for (int i = 0; i < ch->n; i++)
        if (ch->u[i] == u) return;
    int i = ch->n++;
    for (; i > 0 && ch->u[i - 1] > u; i--) ch->u[i] = ch->u[i - 1];
    ch->u[i] = u;
}

/* The union chain of both sides, or false when the blockings do not nest.
 * Positions step by the destination's smallest block (subsampled planes store
 * one representative per block); source digits must line up with destination
 * digits, so the shift between the two padded coordinates must be a multiple
 * of every source block. */
static bool make_chain(const dimside *d, const dimside *s, chain *ch)
{
    int64_t step = dimside_min_block(d);
    ch->n = 0;
    chain_add(ch, step);
    for (int a = 0; a < d->nax; a++) chain_add(ch, d->ax[a]->block);
    if (s) {
        int64_t delta = d->c - s->c, smax = dimside_max_block(s);
        if (delta % smax != 0) return false;
        for (int a = 0; a < s->nax; a++) {
            int64_t b = s->ax[a]->block;
            if (b < step) {
                if (step % b) return false;
            } else {
                chain_add(ch, b);
            }
        }
    }
    for (int i = 0; i + 1 < ch->n; i++)
        if (ch->u[i + 1] % ch->u[i]) return false;
    return true;
}

static void emit_level0(segvec *sv, const chain *ch, int64_t a, int64_t z)
{
    int64_t u0 = ch->u[0], first = rup(a, u0);
    if (first >= z) return;
    seg s = {.p0 = first, .nlev = 1};
    s.count[0] = (z - first + u0 - 1) / u0;
    s.unit[0] = u0;
    segvec_push(sv, &s);
}

/* [a, z) lies inside one block of unit u[L+1] (or is the whole span). */
static void segs_rec(segvec *sv, const chain *ch, int64_t a, int64_t z, int L)
{
    if (a >= z) return;
    if (L == 0) {
        emit_level0(sv, ch, a, z);
        return;
    }
    int64_t u = ch->u[L], ha = rup(a, u), zb = rdown(z, u);
    if (ha >= zb) {
        if (ha > zb) {
            segs_rec(sv, ch, a, z, L - 1);
        } else {
            segs_rec(sv, ch, a, ha, L - 1);
            segs_rec(sv, ch, ha, z, L - 1);
        }
        return;
    }
    segs_rec(sv, ch, a, ha, L - 1);
    seg s = {.p0 = ha, .nlev = 0};
    s.count[s.nlev] = (zb - ha) / u;
    s.unit[s.nlev++] = u;
    for (int j = L - 1; j >= 0; j--) {
        s.count[s.nlev] = ch->u[j + 1] / ch->u[j];
        s.unit[s.nlev++] = ch->u[j];
    }
    segvec_push(sv, &s);
    segs_rec(sv, ch, zb, z, L - 1);
}

/* Fallback: maximal runs along which both offsets move by a constant step. */
static void segs_runs(segvec *sv, const dimside *d, const dimside *s, int64_t a, int64_t z)
{
    int64_t step = dimside_min_block(d), p = rup(a, step);
    int64_t delta = s ? d->c - s->c : 0;
    while (p < z && !sv->overflow) {
        seg g = {.p0 = p, .nlev = 1};
        int64_t n = 1, sd = 0, ss = 0;
        if (p + step < z) {
            sd = dimside_bits(d, p + step) - dimside_bits(d, p);
            ss = s ? dimside_bits(s, p + step - delta) - dimside_bits(s, p - delta) : 0;
            n = 2;
            for (int64_t q = p + 2 * step; q < z; q += step, n++) {
                int64_t ed = dimside_bits(d, q) - dimside_bits(d, q - step);
                int64_t es = s ? dimside_bits(s, q - delta) - dimside_bits(s, q - step - delta) : 0;
                if (ed != sd || es != ss) break;
            }
        }
        g.count[0] = n;
        g.unit[0] = step;
        segvec_push(sv, &g);
        if (sv->n > MAX_RUNS) sv->overflow = 1;
        p += n * step;
    }
}

/* Segments of logical range [xa, xz) of a dim (s NULL: destination only). */
static void dim_segments(segvec *sv, const dimside *d, const dimside *s, int64_t xa, int64_t xz)
{
    chain ch;
    int64_t a = xa + d->c, z = xz + d->c;
    if (make_chain(d, s, &ch)) segs_rec(sv, &ch, a, z, ch.n - 1);
    else segs_runs(sv, d, s, a, z);
}

/* ---- boxes -> passes ------------------------------------------------------------------ */
typedef struct boxctx {
    tl_plan *plan;
    int kind;                 /* TL_PASS_CONVERT / TL_PASS_FILL */
    int sp, dp;
    int rank;
    dimside ds[TL_MAX_DIMS], ss[TL_MAX_DIMS];
    segvec segs[TL_MAX_DIMS];
    int fdim;                 /* dim whose first/last segment carries fused fill, or -1 */
    int64_t head, tail;       /* fused counts for that dim's first / last segment */
    int cap;                  /* passes allocated */
    tl_status err;
} boxctx;

static tl_pass *new_pass(boxctx *b)
{
    tl_plan *p = b->plan;
    if (p->npasses == b->cap) {
        int cap = b->cap ? b->cap * 2 : 4;
        tl_pass *v = realloc(p->passes, (size_t)cap * sizeof *v);
        if (!v) {
            b->err = tl_fail(TL_ERR_NOMEM, "plan: out of memory for %d passes", cap);
            return NULL;
        }
        p->passes = v;
        b->cap = cap;
    }
    tl_pass *ps = &p->passes[p->npasses++];
    memset(ps, 0, sizeof *ps);
    ps->sp = b->sp;
    ps->dp = b->dp;
    return ps;
}

static void add_box(boxctx *b, const int *pick)
{
    tl_pass *ps = new_pass(b);
    if (!ps) return;
    const tl_plan *p = b->plan;
    ps->kind = (uint8_t)b->kind;
    ps->dst_bit = p->dst.planes[b->dp].offset_bytes * 8;
    ps->src_bit = b->kind == TL_PASS_CONVERT ? p->src.planes[b->sp].offset_bytes * 8 : 0;
    int n = 0, pin = -1;
    for (int i = 0; i < b->rank; i++) {
        const seg *g = &b->segs[i].v[pick[i]];
        const dimside *d = &b->ds[i], *s = b->kind == TL_PASS_CONVERT ? &b->ss[i] : NULL;
        int64_t q0 = s ? g->p0 - d->c + s->c : 0;
        ps->dst_bit += dimside_bits(d, g->p0);
        if (s) ps->src_bit += dimside_bits(s, q0);
        for (int l = 0; l < g->nlev; l++) {
            tl_node nd = {g->count[l], 0, 0};
            if (nd.count > 1) {
                nd.ds = dimside_bits(d, g->p0 + g->unit[l]) - dimside_bits(d, g->p0);
                if (s) nd.ss = dimside_bits(s, q0 + g->unit[l]) - dimside_bits(s, q0);
            }
            ps->nodes[n++] = nd;
        }
        if (i == b->fdim) {
            ps->head = pick[i] == 0 ? b->head : 0;
            ps->tail = pick[i] == b->segs[i].n - 1 ? b->tail : 0;
            if (ps->head || ps->tail) {
                pin = n - 1;
                ps->dst_bit -= ps->head * (int64_t)tl_dtype_bits((tl_dtype)p->dst.dtype);
            }
        }
    }
    if (pin >= 0) { /* the fused run goes last, pinned */
        tl_node t = ps->nodes[pin];
        memmove(&ps->nodes[pin], &ps->nodes[pin + 1], (size_t)(n - pin - 1) * sizeof t);
        ps->nodes[n - 1] = t;
    }
    ps->nnodes = tl_nodes_normalise(ps->nodes, n, pin >= 0);
}

static void add_elements_pass(boxctx *b, const int64_t *lo, const int64_t *hi)
{
    tl_pass *ps = new_pass(b);
    if (!ps) return;
    ps->kind = TL_PASS_ELEMENTS;
    ps->ex = b->kind == TL_PASS_FILL ? &tl_exec_fill : &tl_exec_walk;
    ps->nnodes = 0;
    for (int i = 0; i < b->rank; i++) {
        ps->lo[i] = lo[i];
        ps->hi[i] = hi[i];
    }
}

static void free_segs(boxctx *b)
{
    for (int i = 0; i < b->rank; i++) {
        free(b->segs[i].v);
        b->segs[i] = (segvec){0};
    }
}

/* One box of the destination plane (logical coordinates [lo, hi) for a convert
 * box, padded plane-local [lo, hi) for a fill box). */
static void emit_boxes(boxctx *b, const int64_t *lo, const int64_t *hi)
{
    int64_t total = 1;
    for (int i = 0; i < b->rank; i++)
        if (hi[i] <= lo[i]) return; /* an empty box (before anything is allocated) */
    for (int i = 0; i < b->rank; i++) {
        const dimside *s = b->kind == TL_PASS_CONVERT ? &b->ss[i] : NULL;
        int64_t off = b->kind == TL_PASS_CONVERT ? 0 : b->ds[i].c; /* fill boxes are padded */
        b->segs[i] = (segvec){0};
        dim_segments(&b->segs[i], &b->ds[i], s, lo[i] - off, hi[i] - off);
        if (b->segs[i].n == 0) { free_segs(b); return; } /* no stored position */
        if (b->segs[i].overflow || total > MAX_BOXES) total = MAX_BOXES + 1;
        else total *= b->segs[i].n;
    }
    if (total > MAX_BOXES) {
        add_elements_pass(b, lo, hi);
    } else {
        int pick[TL_MAX_DIMS] = {0};
        for (;;) {
            add_box(b, pick);
            int i = b->rank - 1;
            for (; i >= 0; i--) {
                if (++pick[i] < b->segs[i].n) break;
                pick[i] = 0;
            }
            if (i < 0 || b->err) break;
        }
    }
    free_segs(b);
}

/* ---- fused padding around the innermost destination run ---------------------------- */
/* The dim of the destination's innermost stored axis, when its padding can be
 * written by the convert pass: a block-1 axis of one element stride, not split
 * over planes on either side. -1 otherwise. */
static int fused_dim(const tl_plan *p, int dp)
{
    const tl_desc *d = &p->dst;
    const tl_plane *pl = &d->planes[dp];
    int64_t eb = tl_dtype_bits((tl_dtype)d->dtype);
    const tl_axis *best = NULL;
    if ((p->flags & TL_KEEP_PADDING) || eb < 8) return -1;
    for (int a = 0; a < pl->naxes; a++) {
        const tl_axis *x = &pl->axes[a];
        if (x->extent > 1 && (!best || x->stride_bits < best->stride_bits)) best = x;
    }
    if (!best || best->block != 1 || best->stride_bits != eb) return -1;
    int i = best->dim;
    if (d->pad_lo[i] == 0 && d->pad_hi[i] == 0) return -1;
    if (d->nplanes > 1 && d->plane_dim == i) return -1;
    if (p->src.nplanes > 1 && p->src.plane_dim == p->map[i]) return -1;
    return i;
}

/* Fused counts for the region's segments of dim fd: the padding in the same
 * destination block as the first / last logical position, when that
 * position's segment is a single unit-1 run. */
static void fused_counts(boxctx *b, int fd)
{
    const dimside *d = &b->ds[fd];
    const segvec *sv = &b->segs[fd];
    int64_t L = b->plan->dst.pad_lo[fd], E = L + b->plan->dst.dims[fd];
    int64_t blk = dimside_next_block(d);
    const seg *first = &sv->v[0], *last = &sv->v[sv->n - 1];
    b->head = b->tail = 0;
    /* a run found by offsets may cross a destination block: it must not */
    bool first_in = !blk || first->p0 + first->count[0] <= rdown(L, blk) + blk;
    bool last_in = !blk || last->p0 >= rdown(E - 1, blk);
    if (first->nlev == 1 && first->unit[0] == 1 && first->p0 == L && first_in)
        b->head = L - (blk ? rdown(L, blk) : 0);
    if (last->nlev == 1 && last->unit[0] == 1 && last->p0 + last->count[0] == E && last_in) {
        int64_t end = blk ? rup(E, blk) : d->span;
        b->tail = (end < d->span ? end : d->span) - E;
    }
}

/* ---- the region of a (destination plane, source plane) pair --------------------------- */
static bool region_of(const tl_plan *p, int dp, int sp, int64_t *lo, int64_t *hi)
{
    const tl_desc *d = &p->dst, *s = &p->src;
    for (int i = 0; i < d->rank; i++) {
        lo[i] = 0;
        hi[i] = d->dims[i];
        if (d->nplanes > 1 && i == d->plane_dim) {
            lo[i] = d->planes[dp].first;
            hi[i] = lo[i] + d->planes[dp].count;
        }
        if (s->nplanes > 1 && p->map[i] == s->plane_dim) {
            int64_t a = s->planes[sp].first, z = a + s->planes[sp].count;
            if (a > lo[i]) lo[i] = a;
            if (z < hi[i]) hi[i] = z;
        }
        if (lo[i] >= hi[i]) return false;
    }
    return true;
}

/* Convert boxes of one region; returns the fused counts it used for fd. */
static void convert_region(boxctx *b, const int64_t *lo, const int64_t *hi, int fd)
{
    const tl_plan *p = b->plan;
    b->kind = TL_PASS_CONVERT;
    b->fdim = -1;
    for (int i = 0; i < b->rank; i++) {
        dimside_init(&b->ds[i], &p->dst, b->dp, i);
        dimside_init(&b->ss[i], &p->src, b->sp, p->map[i]);
    }
    b->head = b->tail = 0;
    if (fd >= 0) { /* peek at fd's segments to decide the fused counts */
        segvec sv = {0};
        dim_segments(&sv, &b->ds[fd], &b->ss[fd], lo[fd], hi[fd]);
        b->segs[fd] = sv;
        if (sv.n > 0 && !sv.overflow) {
            fused_counts(b, fd);
            if (b->head || b->tail) b->fdim = fd;
        }
        free(sv.v);
        b->segs[fd] = (segvec){0};
    }
    emit_boxes(b, lo, hi);
}

/* Fill boxes: the padded box of the plane minus the logical box, dims in
 * order with fd last; fd's own padding is filled per region outside the
 * fused counts (a region's fused head/tail cover the rest). */
static void fill_plane(boxctx *b, int fd, const int64_t *fused_head, const int64_t *fused_tail,
                       int nregions, int64_t (*rlo)[TL_MAX_DIMS], int64_t (*rhi)[TL_MAX_DIMS])
{
    const tl_desc *d = &b->plan->dst;
    int order[TL_MAX_DIMS], n = 0;
    int64_t lo[TL_MAX_DIMS], hi[TL_MAX_DIMS], L[TL_MAX_DIMS], E[TL_MAX_DIMS];
    b->kind = TL_PASS_FILL;
    b->fdim = -1;
    for (int i = 0; i < b->rank; i++) {
        dimside_init(&b->ds[i], d, b->dp, i);
        L[i] = b->ds[i].c + (d->nplanes > 1 && i == d->plane_dim ? d->planes[b->dp].first : 0);
        E[i] = L[i] + (d->nplanes > 1 && i == d->plane_dim ? d->planes[b->dp].count : d->dims[i]);
        if (i != fd) order[n++] = i;
    }
    if (fd >= 0) order[n++] = fd;
    for (int k = 0; k < n; k++) {
        int i = order[k];
        if (i == fd) break;
        for (int j = 0; j < b->rank; j++) {
            lo[j] = 0;
            hi[j] = b->ds[j].span;
        }
        for (int m = 0; m < k; m++) lo[order[m]] = L[order[m]], hi[order[m]] = E[order[m]];
        hi[i] = L[i];
        emit_boxes(b, lo, hi);
        lo[i] = E[i];
        hi[i] = b->ds[i].span;
        emit_boxes(b, lo, hi);
    }
    if (fd < 0) return;
    for (int r = 0; r < nregions; r++) { /* fd's padding, per region, minus what was fused */
        for (int j = 0; j < b->rank; j++) {
            lo[j] = rlo[r][j] + b->ds[j].c;
            hi[j] = rhi[r][j] + b->ds[j].c;
        }
        lo[fd] = 0;
        hi[fd] = L[fd] - fused_head[r];
        emit_boxes(b, lo, hi);
        lo[fd] = E[fd] + fused_tail[r];
        hi[fd] = b->ds[fd].span;
        emit_boxes(b, lo, hi);
    }
}

static tl_status build_plane(tl_plan *p, int dp)
{
    boxctx b;
    int64_t rlo[TL_MAX_PLANES][TL_MAX_DIMS], rhi[TL_MAX_PLANES][TL_MAX_DIMS];
    int64_t fh[TL_MAX_PLANES], ft[TL_MAX_PLANES];
    int nr = 0;
    memset(&b, 0, sizeof b);
    b.plan = p;
    b.rank = p->dst.rank;
    b.cap = p->npasses; /* realloc grows from the current array */
    b.dp = dp;
    int fd = fused_dim(p, dp);
    for (int sp = 0; sp < p->src.nplanes; sp++) {
        if (!region_of(p, dp, sp, rlo[nr], rhi[nr])) continue;
        b.sp = sp;
        convert_region(&b, rlo[nr], rhi[nr], fd);
        fh[nr] = b.fdim >= 0 ? b.head : 0;
        ft[nr] = b.fdim >= 0 ? b.tail : 0;
        nr++;
        if (b.err) return b.err;
    }
    if (!(p->flags & TL_KEEP_PADDING)) {
        b.sp = 0;
        fill_plane(&b, fd, fh, ft, nr, rlo, rhi);
    }
    return b.err;
}

/* Convert passes that differ only where they start, the destination by one
 * element each time, are one pass with an innermost node more: the U and V
 * planes of a planar YUV 4:4:4 image into NV12's interleaved chroma came as
 * two passes that each wrote every other byte of the same rows (reading
 * every destination line twice); merged, the executor sees both planes at
 * once and writes each row whole. So are passes whose sources start one
 * element apart, wherever they write (NV12's chroma back to the U and V
 * planes: two passes each read the whole interleaved chroma plane; merged,
 * the plane node is an outer one, and the chroma rows executor orders the
 * outer nodes so that both planes' rows are made from a chroma row while it
 * is in the L1). */
static bool same_box(const tl_pass *a, const tl_pass *b)
{
    if (a->kind != TL_PASS_CONVERT || b->kind != TL_PASS_CONVERT || a->nnodes != b->nnodes || a->head || a->tail ||
        b->head || b->tail)
        return false;
    for (int i = 0; i < a->nnodes; i++)
        if (a->nodes[i].count != b->nodes[i].count || a->nodes[i].ss != b->nodes[i].ss ||
            a->nodes[i].ds != b->nodes[i].ds)
            return false;
    return true;
}

static void merge_stepped_passes(tl_plan *p)
{
    int out = 0;
    for (int i = 0; i < p->npasses;) {
        tl_pass m = p->passes[i];
        int k = 1;
        if (m.nnodes < TL_MAX_NODES && i + 1 < p->npasses && same_box(&m, &p->passes[i + 1])) {
            int64_t ds = p->passes[i + 1].dst_bit - m.dst_bit, ss = p->passes[i + 1].src_bit - m.src_bit;
            int64_t eb = tl_dtype_bits((tl_dtype)p->dst.dtype), sb = tl_dtype_bits((tl_dtype)p->src.dtype);
            bool stepped = (ds == eb && ss > 0) || (ss == sb && ds > 0);
            while (stepped && i + k < p->npasses && same_box(&m, &p->passes[i + k]) &&
                   p->passes[i + k].dst_bit - p->passes[i + k - 1].dst_bit == ds &&
                   p->passes[i + k].src_bit - p->passes[i + k - 1].src_bit == ss)
                k++;
            if (k > 1) {
                m.nodes[m.nnodes] = (tl_node){k, ss, ds};
                m.nnodes = tl_nodes_normalise(m.nodes, m.nnodes + 1, 0);
            }
        }
        p->passes[out++] = m;
        i += k;
    }
    p->npasses = out;
}

tl_status tl_plan_build_passes(tl_plan *p)
{
    for (int dp = 0; dp < p->dst.nplanes; dp++) TL_TRY(build_plane(p, dp));
    merge_stepped_passes(p);
    return TL_OK;
}

/* ---- the pure part: order, drop, merge -------------------------------------------------- */
static bool node_outer(const tl_node *a, const tl_node *b)
{
    if (a->ds != b->ds) return a->ds > b->ds;
    return a->ss > b->ss;
}

int tl_nodes_normalise(tl_node *nodes, int n, int keep_inner)
{
    tl_node pin = {1, 0, 0};
    if (keep_inner && n > 0) pin = nodes[--n];
    int m = 0;
    for (int i = 0; i < n; i++)
        if (nodes[i].count > 1) nodes[m++] = nodes[i];
    for (int i = 1; i < m; i++) /* stable insertion sort, outermost first */
        for (int j = i; j > 0 && node_outer(&nodes[j], &nodes[j - 1]); j--) {
            tl_node t = nodes[j];
            nodes[j] = nodes[j - 1];
            nodes[j - 1] = t;
        }
    int k = m - 1;
    while (k > 0) { /* merge outer into inner when contiguous on both sides */
        tl_node *o = &nodes[k - 1], *in = &nodes[k];
        if (o->ds == in->count * in->ds && o->ss == in->count * in->ss) {
            in->count *= o->count;
            memmove(o, in, (size_t)(m - k) * sizeof *o);
            m--;
        }
        k--;
    }
    if (keep_inner) nodes[m++] = pin;
    if (m == 0) nodes[m++] = (tl_node){1, 0, 0};
    return m;
}

/* ---- the executors' node transforms ------------------------------------------------ */
bool tl_pass_to_bytes(tl_pass *ps, bool convert)
{
    if (ps->dst_bit % 8 || (convert && ps->src_bit % 8)) return false;
    for (int i = 0; i < ps->nnodes; i++)
        if (ps->nodes[i].ds % 8 || (convert && ps->nodes[i].ss % 8)) return false;
    ps->src_bit /= 8;
    ps->dst_bit /= 8;
    for (int i = 0; i < ps->nnodes; i++) {
        ps->nodes[i].ss /= 8;
        ps->nodes[i].ds /= 8;
    }
    return true;
}

/* Loop order is free, writes stay disjoint, and every destination row is
 * still written front to back (NHWC -> padded CHW: C sits outside H). */
void tl_pass_bring_src_contiguous(tl_pass *ps, int64_t es)
{
    int n = ps->nnodes;
    if (n < 3 || ps->nodes[n - 2].ss == es) return;
    for (int k = n - 3; k >= 0; k--) {
        if (ps->nodes[k].ss != es || ps->nodes[k].count < 2) continue;
        tl_node t = ps->nodes[k];
        memmove(&ps->nodes[k], &ps->nodes[k + 1], (size_t)(n - 2 - k) * sizeof t);
        ps->nodes[n - 2] = t;
        return;
    }
}

bool tl_pass_fold(tl_pass *ps, int64_t es)
{
    if (ps->nnodes < 3) return false;
    const tl_node *in = &ps->nodes[ps->nnodes - 1];
    int64_t w = in->count * es;
    if (in->ss != es || in->ds != es || (w != 2 && w != 4 && w != 8)) return false;
    const tl_node *a = &ps->nodes[ps->nnodes - 2], *b = &ps->nodes[ps->nnodes - 3];
    if (a->ds != w || b->ss != w) return false;
    ps->nnodes--;
    ps->esize = (uint8_t)w;
    return true;
}
