/* The text of `tlayout explain`, without the output: the model's account of a
 * descriptor and the vendor's. Kept apart from cmd_explain.c (which wraps and
 * prints it) so the Python module builds the same text (Desc.explain()).
 *
 * The model part is built from the descriptor alone, so it reads the same for
 * every layout: what the tensor is, the memory order, the padding, the step
 * of each axis, the offset formula, how the size divides into values,
 * padding elements and slack, and where the last element lives. The vendor
 * part is tl_desc_explain_vendor (the explain hook of src/vendors/<v>.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explain.h"
#include "svg_map.h"

/* Padding before + dim + padding after: the positions the axes of dim i span. */
static int64_t padded_dim(const tl_desc *d, int i) { return d->pad_lo[i] + d->dims[i] + d->pad_hi[i]; }

/* ---- names ------------------------------------------------------------------------ */
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* "h", or "i2" for an unlabelled dim. */
static const char *var(const tl_desc *d, int i, char *buf, size_t len)
{
    if (d->labels[i]) snprintf(buf, len, "%c", lower(d->labels[i]));
    else snprintf(buf, len, "i%d", i);
    return buf;
}

static const char *dim_title(const tl_desc *d, int i, char *buf, size_t len)
{
    if (d->labels[i]) snprintf(buf, len, "%c", d->labels[i]);
    else snprintf(buf, len, "dims[%d]", i);
    return buf;
}

/* "1216 bytes", "1 byte", "0.5 bytes"; buf holds >= 48 chars. */
static const char *bytes_text(int64_t bits, char *buf, size_t len)
{
    format_bits_as_bytes(bits, buf, len);
    size_t n = strlen(buf);
    const char *unit = bits == 8 ? " byte" : " bytes";
    if (n + strlen(unit) < len) memcpy(buf + n, unit, strlen(unit) + 1);
    return buf;
}

/* ---- the logical tensor ------------------------------------------------------------ */
static void logical(const tl_desc *d, cli_sb *sb)
{
    char b[32], n[24];
    int64_t count = 1;
    unsigned bits = tl_dtype_bits((tl_dtype)d->dtype);
    for (int i = 0; i < d->rank; i++) count *= d->dims[i];
    cli_sb_printf(sb, "A tensor of %s (%s per element) with %d dim%s:", tl_dtype_name((tl_dtype)d->dtype),
                  bytes_text(bits, b, sizeof b), (int)d->rank, d->rank == 1 ? "" : "s");
    for (int i = 0; i < d->rank; i++)
        cli_sb_printf(sb, "%s %s=%lld", i ? "," : "", dim_title(d, i, n, sizeof n), (long long)d->dims[i]);
    cli_sb_printf(sb, ", %lld element%s.", (long long)count, count == 1 ? "" : "s");
    if (d->nplanes > 1)
        cli_sb_printf(sb, " It is stored in %d planes split along %s.", (int)d->nplanes,
                      dim_title(d, d->plane_dim, n, sizeof n));
    cli_sb_printf(sb, "\n");
}

static const char *round_name(int r)
{
    return r == TL_ROUND_AWAY ? "to nearest (ties away from zero)"
           : r == TL_ROUND_ZERO ? "toward zero" : "to nearest (ties to even)";
}

static void quant(const tl_desc *d, cli_sb *sb)
{
    const tl_quant *q = &d->quant;
    if (q->kind == TL_Q_NONE) return;
    cli_sb_printf(sb, "Stored values are codes q of a real value: real = ");
    if (q->kind == TL_Q_DFP) {
        cli_sb_printf(sb, "q * 2^-%d", (int)q->fl);
    } else {
        if (q->zp) cli_sb_printf(sb, "(q - (%d))", (int)q->zp);
        else cli_sb_printf(sb, "q");
        int inv = q->kind == TL_Q_INV, divide = inv && q->dequant == TL_DEQ_DIVIDE;
        cli_sb_printf(sb, " %s ", divide ? "/" : inv ? "* (1 /" : "*");
        cli_sb_float(sb, q->scale);
        if (divide) cli_sb_printf(sb, " (inverse scale, divided: dequant=divide)");
        else if (inv) cli_sb_printf(sb, ") (inverse scale, times its f32 reciprocal as TIDL-RT computes it)");
    }
    cli_sb_printf(sb, ". Quantizing into this tensor rounds %s and saturates to the range of %s.\n",
                  round_name(q->round), tl_dtype_name((tl_dtype)d->dtype));
}

/* ---- memory order and padding ------------------------------------------------------ */
static int axes_of_dim(const tl_plane *p, int dim)
{
    int n = 0;
    for (int a = 0; a < p->naxes; a++) n += p->axes[a].dim == dim && p->axes[a].extent > 1;
    return n;
}

/* "C/16" for the outer axis of a blocked dim, "C%16" for its inner one. */
static const char *axis_name(const tl_desc *d, const tl_plane *p, const tl_axis *x, char *buf, size_t len)
{
    char n[24];
    dim_title(d, x->dim, n, sizeof n);
    int64_t padded = padded_dim(d, x->dim);
    int whole = x->block * x->extent >= padded;
    if (axes_of_dim(p, x->dim) < 2 || (x->block == 1 && whole)) snprintf(buf, len, "%s", n);
    else if (x->block > 1 && whole) snprintf(buf, len, "%s/%lld", n, (long long)x->block);
    else if (x->block == 1) snprintf(buf, len, "%s%%%lld", n, (long long)x->extent);
    else snprintf(buf, len, "%s/%lld%%%lld", n, (long long)x->block, (long long)x->extent);
    return buf;
}

/* "H and W" of the dims a plane stores subsampled, and by how much (0 = none). */
static int64_t subsampled(const tl_desc *d, const tl_plane *p, char *buf, size_t len)
{
    char n[24];
    int64_t by = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < d->rank; i++) {
        int64_t mb = 0;
        for (int a = 0; a < p->naxes; a++)
            if (p->axes[a].dim == i && (mb == 0 || p->axes[a].block < mb)) mb = p->axes[a].block;
        if (mb <= 1 || used + 32 > len) continue;
        used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " and " : "", dim_title(d, i, n, sizeof n));
        by = mb;
    }
    return by;
}

static void plane_intro(const tl_desc *d, int k, cli_sb *sb)
{
    char n[24], sub[96];
    const tl_plane *p = &d->planes[k];
    const char *nm = mm_channel_name(d, p->first);
    cli_sb_printf(sb, "Plane %d (%s%s%s %lld", k, nm ? nm : "", nm ? ": " : "", dim_title(d, d->plane_dim, n, sizeof n),
                  (long long)p->first);
    if (p->count > 1) cli_sb_printf(sb, "..%lld", (long long)(p->first + p->count - 1));
    cli_sb_printf(sb, ") starts at byte %lld", (long long)p->offset_bytes);
    int64_t by = subsampled(d, p, sub, sizeof sub);
    if (by) cli_sb_printf(sb, " and stores %s subsampled by %lld", sub, (long long)by);
    cli_sb_printf(sb, ". ");
}

static void order(const tl_desc *d, const mm_plane *mp, int k, cli_sb *sb)
{
    char n[48], b[48];
    const tl_plane *p = &d->planes[k];
    if (d->nplanes > 1) plane_intro(d, k, sb);
    if (mp->naxes == 0) {
        cli_sb_printf(sb, "A single element: there is nothing to order.\n");
        return;
    }
    cli_sb_printf(sb, "Memory order, outermost first (steps x bytes per step):");
    for (int a = 0; a < mp->naxes; a++) {
        const tl_axis *x = &mp->axes[a];
        cli_sb_printf(sb, "%s %s %lld x %s", a ? "," : "", axis_name(d, p, x, n, sizeof n), (long long)x->extent,
                      bytes_text(x->stride_bits, b, sizeof b));
    }
    cli_sb_printf(sb, ".");
    int blocked = 0;
    for (int a = 0; a < mp->naxes; a++) blocked |= mp->axes[a].block > 1 && axes_of_dim(p, mp->axes[a].dim) > 1;
    if (blocked) cli_sb_printf(sb, " X/B counts blocks of B positions of X, X%%B the position inside a block.");
    cli_sb_printf(sb, "\n");
}

static void padding(const tl_desc *d, cli_sb *sb)
{
    char n[24];
    int any = 0;
    for (int i = 0; i < d->rank; i++) {
        if (!d->pad_lo[i] && !d->pad_hi[i]) continue;
        cli_sb_printf(sb, "%s%s is padded from %lld to %lld (", any ? "; " : "", dim_title(d, i, n, sizeof n),
                      (long long)d->dims[i], (long long)padded_dim(d, i));
        if (d->pad_lo[i]) cli_sb_printf(sb, "%lld before%s", (long long)d->pad_lo[i], d->pad_hi[i] ? ", " : "");
        if (d->pad_hi[i]) cli_sb_printf(sb, "%lld after", (long long)d->pad_hi[i]);
        cli_sb_printf(sb, ")");
        any = 1;
    }
    if (any)
        cli_sb_printf(sb, ". Padding elements are part of the buffer: conversions write 0 into them "
                         "(tl_fill_padding writes another value).\n");
}

static void subsampling(const tl_desc *d, cli_sb *sb)
{
    char sub[96];
    for (int k = 0; k < d->nplanes; k++)
        if (subsampled(d, &d->planes[k], sub, sizeof sub)) {
            cli_sb_printf(sb, "A subsampled plane keeps one sample per block of positions: reading gives every "
                             "position its block's sample, writing stores the first position of each block.\n");
            return;
        }
}

/* ---- offsets ----------------------------------------------------------------------- */
/* "1216*h", "(h+1)", "384*(c/16)", "4*(c%16)". */
static void term(const tl_desc *d, const tl_plane *p, const tl_axis *x, cli_sb *sb)
{
    char v[24], s[32];
    int plane_dim = d->nplanes > 1 && x->dim == d->plane_dim;
    var(d, x->dim, v, sizeof v);
    int64_t lo = plane_dim ? -p->first : d->pad_lo[x->dim];
    char e[64];
    if (lo > 0) snprintf(e, sizeof e, "(%s+%lld)", v, (long long)lo);
    else if (lo < 0) snprintf(e, sizeof e, "(%s-%lld)", v, (long long)-lo);
    else snprintf(e, sizeof e, "%s", v);
    int whole = x->block * x->extent >= (plane_dim ? p->count : padded_dim(d, x->dim));
    char c[96];
    if (x->block > 1 && !whole) snprintf(c, sizeof c, "(%s/%lld%%%lld)", e, (long long)x->block, (long long)x->extent);
    else if (x->block > 1) snprintf(c, sizeof c, "(%s/%lld)", e, (long long)x->block);
    else if (!whole) snprintf(c, sizeof c, "(%s%%%lld)", e, (long long)x->extent);
    else snprintf(c, sizeof c, "%s", e);
    format_bits_as_bytes(x->stride_bits, s, sizeof s);
    if (strcmp(s, "1") == 0) cli_sb_printf(sb, "%s", c);
    else cli_sb_printf(sb, "%s*%s", s, c);
}

static void formula(const tl_desc *d, const mm_map *m, int k, cli_sb *sb)
{
    char v[24];
    const tl_plane *p = &d->planes[k];
    const mm_plane *mp = &m->planes[k];
    if (d->nplanes > 1) {
        const char *nm = mm_channel_name(d, p->first);
        cli_sb_printf(sb, "Plane %d%s%s%s: byte", k, nm ? " (" : "", nm ? nm : "", nm ? ")" : "");
    } else {
        cli_sb_printf(sb, "Byte");
    }
    cli_sb_printf(sb, " offset of (");
    for (int i = 0; i < d->rank; i++) cli_sb_printf(sb, "%s%s", i ? ", " : "", var(d, i, v, sizeof v));
    cli_sb_printf(sb, ") = ");
    int n = 0;
    if (p->offset_bytes) n += (cli_sb_printf(sb, "%lld", (long long)p->offset_bytes), 1);
    for (int a = 0; a < mp->naxes; a++) {
        if (n++) cli_sb_printf(sb, " + ");
        term(d, p, &mp->axes[a], sb);
    }
    if (!n) cli_sb_printf(sb, "0");
    if (tl_dtype_bits((tl_dtype)d->dtype) < 8)
        cli_sb_printf(sb, " (an offset ending in .5 is the high nibble of that byte)");
    cli_sb_printf(sb, ".\n");
}

static void broadcast(const tl_desc *d, cli_sb *sb)
{
    char n[24];
    int any = 0;
    for (int k = 0; k < d->nplanes; k++)
        for (int a = 0; a < d->planes[k].naxes; a++) {
            const tl_axis *x = &d->planes[k].axes[a];
            if (x->stride_bits != 0 || x->extent < 2) continue;
            cli_sb_printf(sb, "%s%s", any ? ", " : "Stride 0 along ", dim_title(d, x->dim, n, sizeof n));
            any++;
        }
    if (any)
        cli_sb_printf(sb, ": every position along %s reads the same stored element (broadcast).",
                      any > 1 ? "them" : "it");
    if (d->flags & TL_DESC_READONLY)
        cli_sb_printf(sb, "%sThe descriptor is read-only: it can be converted from, never into.", any ? " " : "");
    if (any || (d->flags & TL_DESC_READONLY)) cli_sb_printf(sb, "\n");
}

/* ---- size and the last element ---------------------------------------------------- */
static void size(const tl_desc *d, cli_sb *sb)
{
    mm_stats st;
    char b[4][48];
    if (mm_stats_of(d, &st) != TL_OK) {
        cli_clear_error(); /* the text just leaves the size out */
        return;
    }
    cli_sb_printf(sb, "A buffer needs %s", bytes_text(st.size_bits, b[0], sizeof b[0]));
    if (st.aliased) {
        cli_sb_printf(sb, "; elements share bytes, so it holds fewer stored elements than logical ones.\n");
        return;
    }
    if (st.pad_bits == 0 && st.slack_bits == 0) {
        cli_sb_printf(sb, ", all of them values: the layout is dense.\n");
        return;
    }
    cli_sb_printf(sb, ": %s of values", bytes_text(st.value_bits, b[1], sizeof b[1]));
    if (st.pad_bits) cli_sb_printf(sb, ", %s of padding elements", bytes_text(st.pad_bits, b[2], sizeof b[2]));
    if (st.slack_bits)
        cli_sb_printf(sb, " and %s of slack (bytes no element uses: alignment and tails, never written by "
                         "conversions)", bytes_text(st.slack_bits, b[3], sizeof b[3]));
    cli_sb_printf(sb, "; %.1f%% of the buffer holds values.\n", 100.0 * (double)st.value_bits / (double)st.size_bits);
}

static void last_element(const tl_desc *d, cli_sb *sb)
{
    int64_t x[TL_MAX_DIMS];
    uint64_t bits;
    char v[24], b[32];
    for (int i = 0; i < d->rank; i++) x[i] = d->dims[i] - 1;
    if (tl_desc_offset_bits(d, x, &bits) != TL_OK) return;
    cli_sb_printf(sb, "The last element (");
    for (int i = 0; i < d->rank; i++) cli_sb_printf(sb, "%s%s=%lld", i ? ", " : "", var(d, i, v, sizeof v), (long long)x[i]);
    cli_sb_printf(sb, ") is at byte %s.\n", format_bits_as_bytes((int64_t)bits, b, sizeof b));
}

tl_status explain_model(const tl_desc *d, cli_sb *sb)
{
    mm_map m;
    CLI_TRY(mm_init(&m, d));
    logical(d, sb);
    quant(d, sb);
    for (int k = 0; k < d->nplanes; k++) order(d, &m.planes[k], k, sb);
    padding(d, sb);
    subsampling(d, sb);
    broadcast(d, sb);
    for (int k = 0; k < d->nplanes; k++) formula(d, &m, k, sb);
    size(d, sb);
    last_element(d, sb);
    mm_free(&m);
    return TL_OK;
}

const char *explain_vendor_name(int v)
{
    static const char *const names[] = {"", "Axis larod", "TI TIDL-RT", "DirectML", "Rockchip RKNN",
                                        "NVIDIA TensorRT", "YUV 4:2:0"};
    return v > 0 && v < (int)(sizeof names / sizeof names[0]) ? names[v] : "vendor";
}

tl_status explain_vendor(const tl_desc *d, char **text)
{
    size_t need = 0;
    tl_status s = tl_desc_explain_vendor(d, NULL, 0, &need); /* len 0: only asks for the size */
    if (s != TL_ERR_BUFFER_SMALL) return s;
    *text = malloc(need);
    if (!*text) return cli_fail(TL_ERR_NOMEM, "explain: out of memory");
    return tl_desc_explain_vendor(d, *text, need, NULL);
}
