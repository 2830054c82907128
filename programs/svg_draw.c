/* The memory map of a descriptor as an SVG picture (`tlayout draw`, `demo`).
 *
 * Memory runs left to right, top to bottom, one line per step of the row
 * dim (H, else the second-to-last dim), so a pitched row is a line and its
 * alignment slack sits at the end of it. Each plane region (Y, interleaved
 * CbCr, ...) gets its own panel. A cell is the largest unit every element,
 * stride and offset is a multiple of (one element, or one byte for
 * byte-granular pitches); an element spans cells/element boxes.
 *
 * Colour = the element's channel (C, or the plane dim); padding elements are
 * hatched over a pale tint; slack (bytes no element uses) is cross-hatched;
 * elements that differ only in the innermost dim (a pixel's channels, a
 * vector's lanes, a CbCr pair) are outlined together.
 *
 * Large tensors are summarised: a line shows its first cells, a gap (⋯) and
 * its end (with the slack run shortened to one labelled box), and a panel
 * shows its first lines, the lines around the first block boundaries and its
 * last line, with gaps (⋮) that say how much was left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "svg_map.h"

#define MARGIN 12
#define LABEL_W 128   /* row labels left of the cells */
#define TARGET_W 1100 /* cells of a line aim at this width */
#define GAP_W 44      /* an elided run of a line */
#define SLACK_W 64    /* a shortened slack run */
#define GAPROW_H 20   /* an elided run of lines */
#define MAX_SEGS 4
#define MAX_SHOWN 40  /* lines listed per region, gaps excluded */
#define NCOLOURS 10

/* Tableau-10 reordered so channels 0, 1, 2 of an RGB image are red, green, blue. */
static const char *const palette[NCOLOURS] = {"#e15759", "#59a14f", "#4e79a7", "#f28e2b", "#b07aa1",
                                              "#76b7b2", "#edc948", "#ff9da7", "#9c755f", "#79706e"};
static const char *const tints[NCOLOURS] = {"#f6cdcd", "#cde4ca", "#cad7e5", "#fbdcbf", "#e7d7e3",
                                            "#d6e9e8", "#f9efc9", "#ffe1e5", "#e1d5cf", "#d7d4d3"};

/* One shown run of a line: cells [from, to); `shorten` draws a slack run as one box. */
typedef struct seg {
    int64_t from, to;
    int shorten;
} seg;

typedef struct region {
    int64_t begin, end;      /* cells drawn in this panel */
    int first_plane;         /* the plane whose axes shape the lines */
    int nplanes;             /* planes whose elements lie here */
    int planes[TL_MAX_PLANES];
    int64_t line;            /* cells per line */
    int line_dim;            /* the dim one line is a step of, -1 = none */
    int64_t nlines;
    int64_t group;           /* cells of one outlined group (pixel, vector) */
    int xdim[2], nx;         /* dims that vary inside a group */
    int label_dim;           /* the coordinate written in each element box */
    int head_dim;            /* the coordinate written above each group, -1 = none */
    int nseg;
    seg segs[MAX_SEGS];
    int64_t lines[MAX_SHOWN];
    int nshown;
} region;

static int64_t seg_cells(const region *r);

typedef struct canvas {
    const tl_desc *d;
    mm_map m;
    mm_stats st;
    const svg_opts *o;
    svg_buf *out;
    int nreg;
    region reg[TL_MAX_PLANES];
    int cw, rh;              /* cell width, row height (px) */
    int width;
    int colour_dim;
    unsigned used_colours;   /* bit per palette entry seen */
    int used_grey, used_pad, used_slack, used_outline;
    int64_t y;
} canvas;

static int64_t opt_lines(const canvas *cv) { return cv->o && cv->o->max_lines > 0 ? cv->o->max_lines : 14; }
static int64_t opt_cells(const canvas *cv) { return cv->o && cv->o->max_cells > 0 ? cv->o->max_cells : 64; }

/* ---- regions: plane spans that overlap share a panel ------------------------------ */
static void build_regions(canvas *cv)
{
    const mm_map *m = &cv->m;
    int order[TL_MAX_PLANES];
    for (int k = 0; k < m->nplanes; k++) {
        int j = k;
        while (j > 0 && m->planes[order[j - 1]].begin_bits > m->planes[k].begin_bits) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = k;
    }
    cv->nreg = 0;
    int64_t end_bits = -1;
    for (int i = 0; i < m->nplanes; i++) {
        const mm_plane *p = &m->planes[order[i]];
        region *r = cv->nreg ? &cv->reg[cv->nreg - 1] : NULL;
        if (!r || p->begin_bits >= end_bits) {
            r = &cv->reg[cv->nreg++];
            memset(r, 0, sizeof *r);
            r->begin = cv->nreg == 1 ? 0 : p->begin_bits / m->unit_bits;
            r->first_plane = order[i];
        }
        r->planes[r->nplanes++] = order[i];
        if (p->end_bits > end_bits) end_bits = p->end_bits;
    }
    for (int i = 0; i < cv->nreg; i++)
        cv->reg[i].end = i + 1 < cv->nreg ? cv->reg[i + 1].begin : m->cells;
}

/* ---- line width, groups and labels of a region ------------------------------------ */
static int row_dim(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == 'H') return i;
    return d->rank >= 2 ? d->rank - 2 : -1;
}

/* A line is one step of the row dim: its innermost axis, unless that is the
 * innermost axis of all; then one step of the axis above the innermost. */
static void shape_lines(const canvas *cv, region *r)
{
    const mm_plane *p = &cv->m.planes[r->first_plane];
    int64_t u = cv->m.unit_bits, line_bits = 0;
    int rd = row_dim(cv->d), n = p->naxes;
    r->line_dim = -1;
    for (int a = 0; a < n - 1; a++)
        if (p->axes[a].dim == rd) line_bits = p->axes[a].stride_bits, r->line_dim = rd;
    if (line_bits == 0 && n >= 2) line_bits = p->axes[n - 2].stride_bits, r->line_dim = p->axes[n - 2].dim;
    r->line = line_bits / u;
    if (line_bits == 0) r->line = 16 * (cv->m.ebits / u); /* one axis: 16 elements a line */
    if (r->line < 1 || r->line > r->end - r->begin) r->line = r->end - r->begin;
    if (r->line < 1) r->line = 1;
    r->nlines = (r->end - r->begin + r->line - 1) / r->line;
}

static void shape_groups(const canvas *cv, region *r)
{
    const tl_desc *d = cv->d;
    const mm_plane *p = &cv->m.planes[r->first_plane];
    int64_t u = cv->m.unit_bits, per_elem = cv->m.ebits / u;
    int n = p->naxes;
    r->nx = 0;
    r->group = per_elem;
    r->head_dim = -1;
    r->label_dim = n ? p->axes[n - 1].dim : 0;
    if (n == 0) return;
    const tl_axis *in = &p->axes[n - 1];
    if (n >= 2 && p->axes[n - 2].stride_bits / u < r->line) {
        r->xdim[r->nx++] = in->dim; /* another axis inside the line: group by it */
        r->group = p->axes[n - 2].stride_bits / u;
    } else if (in->stride_bits > cv->m.ebits) {
        r->group = in->stride_bits / u; /* spaced elements: one step of the innermost axis */
    }
    if (r->nplanes > 1) {
        r->xdim[r->nx++] = d->plane_dim;
        r->label_dim = d->plane_dim;
    }
    if (r->nx == 0) return;
    for (int a = n - 1; a >= 0 && r->head_dim < 0; a--) {
        int dim = p->axes[a].dim, inx = 0;
        for (int k = 0; k < r->nx; k++) inx |= r->xdim[k] == dim;
        if (!inx) r->head_dim = dim;
    }
}

/* ---- which columns and lines are drawn ------------------------------------------- */
/* End of the last element on the region's first line (cells from the line start). */
static int64_t content_end(const canvas *cv, const region *r)
{
    int64_t len = r->line < r->end - r->begin ? r->line : r->end - r->begin;
    for (int64_t k = len - 1, seen = 0; k >= 0 && seen < 65536; k--, seen++) {
        mm_cell c;
        mm_locate(&cv->m, r->begin + k, &c);
        if (c.kind != MM_SLACK) return k + 1;
    }
    return len;
}

static void add_seg(region *r, int64_t from, int64_t to, int shorten)
{
    if (to <= from || r->nseg >= MAX_SEGS) return;
    r->segs[r->nseg++] = (seg){from, to, shorten};
}

static void plan_columns(const canvas *cv, region *r)
{
    int64_t L = r->line, E = content_end(cv, r), G = r->group > 0 ? r->group : 1, maxc = opt_cells(cv);
    int64_t tail_slack = L - E;
    int shorten = tail_slack > 16;
    r->nseg = 0;
    if (E <= maxc || (E <= 2 * maxc && r->end - r->begin <= 2048)) {
        add_seg(r, 0, shorten ? E : L, 0);
    } else {
        int64_t head = (maxc * 5 / 8) / G * G, tail = G >= 8 ? G : (8 + G - 1) / G * G;
        if (head < G) head = G;
        if (G >= 16 && 2 * G <= maxc + G / 2) head = 2 * G;
        int64_t from = (E - tail) / G * G;
        if (from <= head) add_seg(r, 0, E, 0);
        else {
            add_seg(r, 0, head, 0);
            add_seg(r, from, E, 0);
        }
        if (!shorten) add_seg(r, E, L, 0);
    }
    if (shorten) add_seg(r, E, L, 1);
}

static void add_line(region *r, int64_t k)
{
    if (k < 0 || k >= r->nlines || r->nshown >= MAX_SHOWN) return;
    for (int i = 0; i < r->nshown; i++)
        if (r->lines[i] == k) return;
    int i = r->nshown++;
    while (i > 0 && r->lines[i - 1] > k) {
        r->lines[i] = r->lines[i - 1];
        i--;
    }
    r->lines[i] = k;
}

/* First lines, the lines around the first boundaries of the next outer axis
 * (the end of one channel plane and the start of the next), the last line. */
static void plan_lines(const canvas *cv, region *r)
{
    int64_t maxl = opt_lines(cv);
    r->nshown = 0;
    if (r->nlines <= maxl || (r->nlines <= MAX_SHOWN && r->nlines * seg_cells(r) <= 1600)) {
        for (int64_t k = 0; k < r->nlines; k++) add_line(r, k);
        return;
    }
    for (int64_t k = 0; k < 3; k++) add_line(r, k);
    const mm_plane *p = &cv->m.planes[r->first_plane];
    int64_t lb = r->line * cv->m.unit_bits;
    for (int a = p->naxes - 1; a >= 0; a--) {
        if (p->axes[a].stride_bits <= lb) continue;
        int64_t step = p->axes[a].stride_bits / cv->m.unit_bits;
        for (int64_t k = 1; k < p->axes[a].extent && k <= 2; k++)
            for (int64_t j = -1; j <= 1; j++) add_line(r, (k * step) / r->line + j);
        break;
    }
    add_line(r, r->nlines - 1);
}

/* ---- sizes --------------------------------------------------------------------- */
static int64_t seg_cells(const region *r)
{
    int64_t n = 0;
    for (int i = 0; i < r->nseg; i++)
        if (!r->segs[i].shorten) n += r->segs[i].to - r->segs[i].from;
    return n;
}

static int64_t region_width(const canvas *cv, const region *r)
{
    int64_t w = seg_cells(r) * cv->cw;
    for (int i = 0; i < r->nseg; i++) {
        if (r->segs[i].shorten) w += SLACK_W;
        if (i > 0 && r->segs[i].from != r->segs[i - 1].to) w += GAP_W;
    }
    return w;
}

static void choose_sizes(canvas *cv)
{
    int64_t most = 1;
    for (int i = 0; i < cv->nreg; i++)
        if (seg_cells(&cv->reg[i]) > most) most = seg_cells(&cv->reg[i]);
    int64_t cw = TARGET_W / most;
    cw = cw > 40 ? 40 : cw < 8 ? 8 : cw;
    cv->cw = (int)cw;
    cv->rh = cv->cw >= 16 ? 32 : 24;
    int64_t w = 560;
    for (int i = 0; i < cv->nreg; i++) {
        int64_t rw = region_width(cv, &cv->reg[i]);
        if (rw > w) w = rw;
    }
    cv->width = (int)(2 * MARGIN + LABEL_W + w);
}

/* ---- SVG pieces ------------------------------------------------------------------ */
static void put_text(canvas *cv, int64_t x, int64_t y, const char *cls, const char *text)
{
    svg_printf(cv->out, "<text x=\"%lld\" y=\"%lld\" class=\"%s\">", (long long)x, (long long)y, cls);
    for (const char *s = text; *s; s++) {
        if (*s == '<') svg_printf(cv->out, "&lt;");
        else if (*s == '>') svg_printf(cv->out, "&gt;");
        else if (*s == '&') svg_printf(cv->out, "&amp;");
        else if (*s == '"') svg_printf(cv->out, "&quot;");
        else svg_printf(cv->out, "%c", *s);
    }
    svg_printf(cv->out, "</text>\n");
}

static void put_rect(canvas *cv, int64_t x, int64_t y, int64_t w, int64_t h, const char *fill, const char *cls)
{
    svg_printf(cv->out, "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%lld\"", (long long)x, (long long)y,
               (long long)w, (long long)h);
    if (fill) svg_printf(cv->out, " fill=\"%s\"", fill);
    svg_printf(cv->out, " class=\"%s\"/>\n", cls);
}

static void defs(canvas *cv)
{
    svg_buf *o = cv->out;
    svg_printf(o, "<defs>\n<style>\n"
                  "text{font-family:'DejaVu Sans',Verdana,sans-serif;font-size:11px;fill:#222}\n"
                  ".t{font-size:15px;font-weight:bold}.s{font-size:12px}.h{font-size:12px;font-weight:bold}\n"
                  ".l{font-size:11px;text-anchor:end}.b{font-size:9px;fill:#666;text-anchor:end}\n"
                  ".c{font-size:9px;text-anchor:middle;fill:#fff}.cp{font-size:9px;text-anchor:middle}\n"
                  ".g{font-size:10px;text-anchor:middle;fill:#444}.gap{font-size:14px;text-anchor:middle;fill:#666}\n"
                  ".e{stroke:#fff;stroke-width:1}.p{stroke:#fff;stroke-width:1}.k{stroke:#bbb;stroke-width:1}\n"
                  ".o{fill:none;stroke:#222;stroke-width:1.5}.x{fill:#f3f3f3;stroke:#ccc;stroke-dasharray:3 2}\n"
                  "</style>\n");
    svg_printf(o, "<pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
                  "patternTransform=\"rotate(45)\"><rect width=\"2\" height=\"6\" fill=\"#000\" "
                  "fill-opacity=\"0.28\"/></pattern>\n");
    svg_printf(o, "<pattern id=\"cross\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\">"
                  "<rect width=\"6\" height=\"6\" fill=\"#fff\"/><path d=\"M0 0L6 6M6 0L0 6\" stroke=\"#aaa\" "
                  "stroke-width=\"0.8\"/></pattern>\n</defs>\n");
}

/* Palette entry of channel c; YUV: Y grey, Cb blue, Cr red. -1 = a padding channel. */
static int colour_index(const tl_desc *d, int cd, int64_t c)
{
    static const int yuv[3] = {9, 2, 0};
    if (cd < 0) return 2;
    if (c < 0 || c >= d->dims[cd]) return -1;
    if (mm_channel_name(d, c)) return yuv[c];
    return (int)(c % NCOLOURS);
}

static int colour_of(canvas *cv, const mm_cell *c)
{
    return colour_index(cv->d, cv->colour_dim, cv->colour_dim >= 0 ? c->x[cv->colour_dim] : 0);
}

/* The text in an element box: its coordinate along the region's label dim. */
static const char *cell_text(const canvas *cv, const region *r, const mm_cell *c, char *buf, size_t len)
{
    const char *name = r->label_dim == cv->colour_dim ? mm_channel_name(cv->d, c->x[r->label_dim]) : NULL;
    if (name) return name;
    return mm_coord_text(cv->d, c, r->label_dim, buf, len);
}

/* Room a 9-px label needs. */
static int64_t text_w(const char *t) { return (int64_t)strlen(t) * 11 / 2 + 4; }

/* One element (or slack run) box covering cells [from, to) drawn at x. */
static void draw_box(canvas *cv, const region *r, const mm_cell *c, int64_t x, int64_t w)
{
    char buf[48];
    int64_t y = cv->y;
    if (c->kind == MM_SLACK) {
        char b[32];
        put_rect(cv, x, y, w, cv->rh, "url(#cross)", "k");
        snprintf(buf, sizeof buf, "%s B", format_bits_as_bytes(w / cv->cw * cv->m.unit_bits, b, sizeof b));
        if (text_w(buf) + 8 <= w) put_text(cv, x + w / 2, y + cv->rh / 2 + 4, "cp", buf);
        cv->used_slack = 1;
        return;
    }
    int col = colour_of(cv, c);
    if (c->kind == MM_VALUE) {
        put_rect(cv, x, y, w, cv->rh, palette[col < 0 ? 9 : col], "e");
        cv->used_colours |= 1u << (col < 0 ? 9 : col);
    } else {
        put_rect(cv, x, y, w, cv->rh, col < 0 ? "#e4e4e4" : tints[col], "p");
        put_rect(cv, x, y, w, cv->rh, "url(#hatch)", "p");
        cv->used_pad = 1;
        if (col < 0) cv->used_grey = 1;
        else cv->used_colours |= 1u << col;
    }
    const char *t = cell_text(cv, r, c, buf, sizeof buf);
    if (text_w(t) > w) /* too narrow: the number alone, "c17" -> "17", "d1:5" -> "5" */
        t = strchr(t, ':') ? strchr(t, ':') + 1 : (t[0] >= 'a' && t[0] <= 'z') ? t + 1 : t;
    if (text_w(t) <= w) put_text(cv, x + w / 2, y + cv->rh / 2 + 4, c->kind == MM_VALUE ? "c" : "cp", t);
}

static int same_element(const mm_cell *a, const mm_cell *b, int rank)
{
    if (a->kind != b->kind || a->plane != b->plane) return 0;
    if (a->kind == MM_SLACK) return 1;
    if (b->part != a->part + 1) return 0;
    return memcmp(a->x, b->x, (size_t)rank * sizeof a->x[0]) == 0;
}

/* Same group: equal coordinates except the dims that vary inside a group. */
static int same_group(const region *r, const mm_cell *a, const mm_cell *b, int rank)
{
    if (a->kind == MM_SLACK || b->kind == MM_SLACK || r->nx == 0) return 0;
    for (int i = 0; i < rank; i++) {
        int skip = 0;
        for (int k = 0; k < r->nx; k++) skip |= r->xdim[k] == i;
        if (!skip && a->x[i] != b->x[i]) return 0;
    }
    return 1;
}

static void outline(canvas *cv, int64_t x0, int64_t x1, int elems)
{
    if (elems < 2) return;
    svg_printf(cv->out, "<rect x=\"%lld\" y=\"%lld\" width=\"%lld\" height=\"%d\" class=\"o\"/>\n",
               (long long)x0, (long long)cv->y, (long long)(x1 - x0), cv->rh);
    cv->used_outline = 1;
}

/* Draw cells [from, to) of the line starting at cell `base`, from pixel x. */
static void draw_run(canvas *cv, const region *r, int64_t base, int64_t from, int64_t to, int64_t x)
{
    mm_cell cur, nxt, gfirst;
    int64_t bx = x, gx = x;
    int gel = 0, rank = cv->d->rank;
    to = base + to > r->end ? r->end - base : to;
    if (from >= to) return;
    mm_locate(&cv->m, base + from, &cur);
    gfirst = cur;
    for (int64_t k = from; k < to; k++) {
        int last = k + 1 >= to;
        if (!last) mm_locate(&cv->m, base + k + 1, &nxt);
        x += cv->cw;
        if (!last && same_element(&cur, &nxt, rank)) {
            cur = nxt;
            continue;
        }
        draw_box(cv, r, &cur, bx, x - bx);
        gel++;
        if (last || !same_group(r, &gfirst, &nxt, rank)) {
            if (gfirst.kind != MM_SLACK) outline(cv, gx, x, gel);
            gx = x;
            gel = 0;
            if (!last) gfirst = nxt;
        }
        bx = x;
        if (!last) cur = nxt;
    }
}

static void shortened_slack(canvas *cv, int64_t x, int64_t cells)
{
    char t[48], b[32];
    put_rect(cv, x, cv->y, SLACK_W, cv->rh, "url(#cross)", "k");
    snprintf(t, sizeof t, "%s B", format_bits_as_bytes(cells * cv->m.unit_bits, b, sizeof b));
    put_text(cv, x + SLACK_W / 2, cv->y + cv->rh / 2 + 4, "cp", t);
    cv->used_slack = 1;
}

/* ---- rows ------------------------------------------------------------------------- */
/* Coordinate range of each dim over the element cells drawn on a line. */
static int line_ranges(canvas *cv, const region *r, int64_t base, int64_t *lo, int64_t *hi, mm_cell *first)
{
    int any = 0, rank = cv->d->rank;
    for (int s = 0; s < r->nseg; s++)
        for (int64_t k = r->segs[s].from; k < r->segs[s].to && base + k < r->end && !r->segs[s].shorten; k++) {
            mm_cell c;
            mm_locate(&cv->m, base + k, &c);
            if (c.kind == MM_SLACK) continue;
            if (!any) *first = c;
            for (int i = 0; i < rank; i++) {
                if (!any || c.x[i] < lo[i]) lo[i] = c.x[i];
                if (!any || c.x[i] > hi[i]) hi[i] = c.x[i];
            }
            any = 1;
        }
    return any;
}

/* "c0 h3" (the dims constant on the line), plus the range of a blocked dim ("c16-31"). */
static void row_label(canvas *cv, const region *r, int64_t base, char *buf, size_t len)
{
    int64_t lo[TL_MAX_DIMS], hi[TL_MAX_DIMS];
    mm_cell first;
    const tl_desc *d = cv->d;
    size_t n = 0;
    buf[0] = 0;
    if (!line_ranges(cv, r, base, lo, hi, &first)) {
        snprintf(buf, len, "slack");
        return;
    }
    for (int i = 0; i < d->rank && n + 24 < len; i++) {
        char t[40];
        int blocked = 0;
        for (int a = 0; a < cv->m.planes[r->first_plane].naxes; a++)
            blocked += cv->m.planes[r->first_plane].axes[a].dim == i;
        const char *name = i == cv->colour_dim && lo[i] == hi[i] ? mm_channel_name(d, lo[i]) : NULL;
        if (lo[i] == hi[i] && (d->dims[i] > 1 || d->pad_lo[i] || d->pad_hi[i] || name))
            n += (size_t)snprintf(buf + n, len - n, "%s%s", n ? " " : "", name ? name : mm_coord_text(d, &first, i, t, sizeof t));
        else if (lo[i] != hi[i] && blocked > 1 && d->labels[i])
            n += (size_t)snprintf(buf + n, len - n, "%s%c%lld-%lld", n ? " " : "", d->labels[i] - 'A' + 'a',
                                  (long long)lo[i], (long long)hi[i]);
        else if (lo[i] != hi[i] && blocked > 1)
            n += (size_t)snprintf(buf + n, len - n, "%sd%d:%lld-%lld", n ? " " : "", i, (long long)lo[i],
                                  (long long)hi[i]);
    }
}

static void draw_line(canvas *cv, const region *r, int64_t k)
{
    char lab[96], b[32], off[48];
    int64_t base = r->begin + k * r->line, x = MARGIN + LABEL_W;
    row_label(cv, r, base, lab, sizeof lab);
    snprintf(off, sizeof off, "byte %s", format_bits_as_bytes(base * cv->m.unit_bits, b, sizeof b));
    put_text(cv, x - 8, cv->y + cv->rh / 2 - 1, "l", lab);
    put_text(cv, x - 8, cv->y + cv->rh / 2 + 10, "b", off);
    for (int s = 0; s < r->nseg; s++) {
        const seg *g = &r->segs[s];
        if (s > 0 && g->from != r->segs[s - 1].to) {
            put_text(cv, x + GAP_W / 2, cv->y + cv->rh / 2 + 5, "gap", "\xe2\x8b\xaf");
            x += GAP_W;
        }
        if (g->shorten) {
            int64_t n = (base + g->to > r->end ? r->end - base : g->to) - g->from;
            if (n > 0) shortened_slack(cv, x, n);
            x += SLACK_W;
        } else {
            draw_run(cv, r, base, g->from, g->to, x);
            x += (g->to - g->from) * cv->cw;
        }
    }
    cv->y += cv->rh + 2;
}

static void gap_row(canvas *cv, const region *r, int64_t from, int64_t to)
{
    char t[160], b1[32], b2[32];
    int64_t u = cv->m.unit_bits;
    snprintf(t, sizeof t, "\xe2\x8b\xae  %lld lines not drawn (bytes %s to %s)", (long long)(to - from),
             format_bits_as_bytes((r->begin + from * r->line) * u, b1, sizeof b1),
             format_bits_as_bytes((r->begin + to * r->line) * u, b2, sizeof b2));
    put_text(cv, MARGIN + LABEL_W + 6, cv->y + 13, "s", t);
    cv->y += GAPROW_H;
}

/* ---- panel header: what the region holds, then group labels over the columns ---------- */
static void region_title(canvas *cv, const region *r, int idx)
{
    char t[256], b1[32], b2[32], b3[32];
    const tl_desc *d = cv->d;
    size_t n = 0;
    int64_t u = cv->m.unit_bits;
    if (d->nplanes > 1) {
        n += (size_t)snprintf(t, sizeof t, "plane%s ", r->nplanes > 1 ? "s" : "");
        for (int i = 0; i < r->nplanes; i++) {
            const tl_plane *p = &d->planes[r->planes[i]];
            const char *nm = mm_channel_name(d, p->first);
            if (nm) n += (size_t)snprintf(t + n, sizeof t - n, "%s%d (%s)", i ? " + " : "", r->planes[i], nm);
            else n += (size_t)snprintf(t + n, sizeof t - n, "%s%d", i ? " + " : "", r->planes[i]);
        }
        n += (size_t)snprintf(t + n, sizeof t - n, ": ");
    } else if (cv->nreg > 1 || idx > 0) {
        n += (size_t)snprintf(t, sizeof t, "region %d: ", idx);
    }
    char rd[40] = "";
    if (r->line_dim >= 0 && d->labels[r->line_dim])
        snprintf(rd, sizeof rd, " (one step of %c)", d->labels[r->line_dim] - 'A' + 'a');
    else if (r->line_dim >= 0)
        snprintf(rd, sizeof rd, " (one step of d%d)", r->line_dim);
    snprintf(t + n, sizeof t - n, "bytes %s-%s, %lld line%s of %s bytes%s",
             format_bits_as_bytes(r->begin * u, b1, sizeof b1), format_bits_as_bytes(((r->end * u + 7) / 8 - 1) * 8, b2, sizeof b2),
             (long long)r->nlines, r->nlines == 1 ? "" : "s", format_bits_as_bytes(r->line * u, b3, sizeof b3), rd);
    put_text(cv, MARGIN, cv->y + 14, "h", t);
    cv->y += 22;
}

static int has_gap(const region *r)
{
    for (int s = 1; s < r->nseg; s++)
        if (r->segs[s].from != r->segs[s - 1].to) return 1;
    return 0;
}

/* Labels above the groups of the first line (w0 w1 ...), thinned to fit, and
 * above each gap the bytes it leaves out. */
static void column_heads(canvas *cv, const region *r)
{
    if (r->head_dim < 0 && !has_gap(r)) return;
    int64_t x = MARGIN + LABEL_W, last_end = -1000, base = r->begin;
    char buf[48], b[32];
    for (int s = 0; s < r->nseg; s++) {
        const seg *g = &r->segs[s];
        if (s > 0 && g->from != r->segs[s - 1].to) {
            snprintf(buf, sizeof buf, "%s B", format_bits_as_bytes((g->from - r->segs[s - 1].to) * cv->m.unit_bits, b, sizeof b));
            put_text(cv, x + GAP_W / 2, cv->y + 11, "g", buf);
            last_end = x + GAP_W / 2 + text_w(buf) / 2;
            x += GAP_W;
        }
        if (g->shorten) {
            x += SLACK_W;
            continue;
        }
        for (int64_t k = g->from; r->head_dim >= 0 && k < g->to && base + k < r->end; k++) {
            mm_cell c;
            mm_locate(&cv->m, base + k, &c);
            if (c.kind == MM_SLACK || c.part != 0 || (k != g->from && k % r->group != 0)) continue;
            const char *t = mm_coord_text(cv->d, &c, r->head_dim, buf, sizeof buf);
            int64_t cx = x + (k - g->from) * cv->cw + (r->group * cv->cw) / 2, tw = text_w(t);
            if (cx - tw / 2 > last_end + 4) {
                put_text(cv, cx, cv->y + 11, "g", t);
                last_end = cx + tw / 2;
            }
        }
        x += (g->to - g->from) * cv->cw;
    }
    cv->y += 16;
}

static void draw_region(canvas *cv, const region *r, int idx)
{
    region_title(cv, r, idx);
    column_heads(cv, r);
    for (int i = 0; i < r->nshown; i++) {
        if (i > 0 && r->lines[i] != r->lines[i - 1] + 1) gap_row(cv, r, r->lines[i - 1] + 1, r->lines[i]);
        draw_line(cv, r, r->lines[i]);
    }
    if (r->nshown && r->lines[r->nshown - 1] + 1 < r->nlines) gap_row(cv, r, r->lines[r->nshown - 1] + 1, r->nlines);
    cv->y += 14;
}

/* ---- title and legend ------------------------------------------------------------ */
static void title(canvas *cv)
{
    char spec[512], t[600], b[4][32];
    const tl_desc *d = cv->d;
    if (tl_desc_format(d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "(no spec form)");
    put_text(cv, MARGIN, 24, "t", cv->o && cv->o->title ? cv->o->title : spec);
    size_t n = (size_t)snprintf(t, sizeof t, "%s%s, dims", cv->o && cv->o->title ? "" : "",
                                tl_dtype_name((tl_dtype)d->dtype));
    for (int i = 0; i < d->rank && n < sizeof t; i++) {
        if (d->labels[i]) n += (size_t)snprintf(t + n, sizeof t - n, " %c=%lld", d->labels[i], (long long)d->dims[i]);
        else n += (size_t)snprintf(t + n, sizeof t - n, " d%d=%lld", i, (long long)d->dims[i]);
    }
    if (cv->o && cv->o->title && n < sizeof t) snprintf(t + n, sizeof t - n, "  \xc2\xb7  %s", spec);
    put_text(cv, MARGIN, 44, "s", t);
    if (cv->st.aliased)
        snprintf(t, sizeof t, "%s bytes; elements share bytes (read-only: broadcast or overlapping strides)",
                 format_bits_as_bytes(cv->st.size_bits, b[0], sizeof b[0]));
    else {
        size_t k = (size_t)snprintf(t, sizeof t, "%s bytes = %s of values",
                                    format_bits_as_bytes(cv->st.size_bits, b[0], sizeof b[0]),
                                    format_bits_as_bytes(cv->st.value_bits, b[1], sizeof b[1]));
        if (cv->st.pad_bits && k < sizeof t)
            k += (size_t)snprintf(t + k, sizeof t - k, " + %s of padding elements",
                                  format_bits_as_bytes(cv->st.pad_bits, b[2], sizeof b[2]));
        if (cv->st.slack_bits && k < sizeof t)
            snprintf(t + k, sizeof t - k, " + %s of slack", format_bits_as_bytes(cv->st.slack_bits, b[3], sizeof b[3]));
    }
    put_text(cv, MARGIN, 62, "s", t);
    cv->y = 80;
}

static int64_t legend_item(canvas *cv, int64_t x, const char *fill, const char *fill2, const char *text)
{
    put_rect(cv, x, cv->y, 16, 16, fill, fill2 ? "p" : "e");
    if (fill2) put_rect(cv, x, cv->y, 16, 16, fill2, "p");
    put_text(cv, x + 21, cv->y + 12, "s", text);
    return x + 21 + (int64_t)strlen(text) * 7 + 16;
}

static void legend(canvas *cv)
{
    char t[128]; /* the outline legend: 38 characters + up to 63 of `which` */
    int64_t x = MARGIN;
    const tl_desc *d = cv->d;
    int cd = cv->colour_dim;
    for (int k = 0; k < NCOLOURS; k++) {
        int ci = colour_index(d, cd, k);
        if (ci < 0 || !(cv->used_colours & (1u << ci)) || (cd < 0 && k > 0)) continue;
        const char *nm = cd >= 0 ? mm_channel_name(d, k) : NULL;
        if (cd < 0) snprintf(t, sizeof t, "value");
        else if (nm) snprintf(t, sizeof t, "%s", nm);
        else if (d->dims[cd] > NCOLOURS) snprintf(t, sizeof t, "%c%d, %c%d, ...", d->labels[cd] ? d->labels[cd] - 'A' + 'a' : 'd', k,
                                                  d->labels[cd] ? d->labels[cd] - 'A' + 'a' : 'd', k + NCOLOURS);
        else snprintf(t, sizeof t, "%c%d", d->labels[cd] ? d->labels[cd] - 'A' + 'a' : 'd', k);
        if (x > cv->width - 160) { x = MARGIN; cv->y += 22; }
        x = legend_item(cv, x, palette[ci], NULL, t);
    }
    cv->y += 24;
    x = MARGIN;
    int tint = cd < 0 ? 2 : 0;
    for (int k = NCOLOURS - 1; k >= 0; k--)
        if (cv->used_colours & (1u << k)) tint = k;
    if (cv->used_pad) x = legend_item(cv, x, cv->used_grey ? "#e4e4e4" : tints[tint], "url(#hatch)",
                                      "padding element (stored; conversions write 0)");
    if (cv->used_slack) x = legend_item(cv, x, "url(#cross)", NULL, "slack (no element; never written)");
    if (x > cv->width - 200) { x = MARGIN; cv->y += 22; }
    if (cv->used_outline) {
        svg_printf(cv->out, "<rect x=\"%lld\" y=\"%lld\" width=\"16\" height=\"16\" class=\"o\"/>\n", (long long)x,
                   (long long)cv->y);
        char which[64] = "";
        const region *r = &cv->reg[0];
        for (int i = 0; i < cv->nreg && r->nx == 0; i++) r = &cv->reg[i];
        for (int k = 0, n = 0; k < r->nx && n < 40; k++) {
            int xd = r->xdim[k];
            if (d->labels[xd]) n += snprintf(which + n, sizeof which - (size_t)n, "%s%c", k ? " or " : "", d->labels[xd] - 'A' + 'a');
            else n += snprintf(which + n, sizeof which - (size_t)n, "%sd%d", k ? " or " : "", xd);
        }
        snprintf(t, sizeof t, "outline: elements that differ only in %s", which);
        put_text(cv, x + 21, cv->y + 12, "s", t);
    }
    cv->y += 24;
}

/* ---- entry point ----------------------------------------------------------------- */
static void plan_canvas(canvas *cv)
{
    build_regions(cv);
    for (int i = 0; i < cv->nreg; i++) {
        region *r = &cv->reg[i];
        shape_lines(cv, r);
        shape_groups(cv, r);
        plan_columns(cv, r);
        plan_lines(cv, r);
    }
    choose_sizes(cv);
}

tl_status svg_draw(const tl_desc *d, const svg_opts *o, svg_buf *out)
{
    canvas *cv = calloc(1, sizeof *cv);
    if (!cv) return cli_fail(TL_ERR_NOMEM, "draw: out of memory");
    tl_status s = mm_stats_of(d, &cv->st);
    if (s == TL_OK) s = mm_init(&cv->m, d);
    if (s != TL_OK) {
        free(cv);
        return s;
    }
    cv->d = d;
    cv->o = o;
    cv->colour_dim = mm_colour_dim(d);
    plan_canvas(cv);
    svg_buf body = {0};
    cv->out = &body;
    title(cv);
    for (int i = 0; i < cv->nreg; i++) draw_region(cv, &cv->reg[i], i);
    legend(cv);
    svg_printf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                    "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%lld\" viewBox=\"0 0 %d %lld\">\n",
               cv->width, (long long)cv->y + MARGIN, cv->width, (long long)cv->y + MARGIN);
    cv->out = out;
    defs(cv);
    put_rect(cv, 0, 0, cv->width, cv->y + MARGIN, "#fff", "bg");
    svg_printf(out, "%s</svg>\n", body.p ? body.p : "");
    if (body.oom) out->oom = 1;
    svg_buf_free(&body);
    mm_free(&cv->m);
    free(cv);
    return TL_OK;
}

/* ---- writing (the renderer writes its own picture: svg_map.c only maps) ------------ */
tl_status svg_write(const tl_desc *d, const svg_opts *o, const char *path)
{
    svg_buf b = {0};
    tl_status s = svg_draw(d, o, &b);
    if (s == TL_OK && b.oom) s = cli_fail(TL_ERR_NOMEM, "draw: out of memory building the SVG");
    if (s == TL_OK) s = write_file(path, b.p, b.len);
    svg_buf_free(&b);
    return s;
}
