/* tl_desc_json: one JSON object describing a descriptor, for `tlayout describe
 * --json` and for tools that script around the CLI; public as tl_desc_to_json,
 * beside tl_desc_explain_vendor (the vendor's explain hook) at the end.
 *
 * Members (docs/cli.md): spec (canonical, null when the descriptor cannot be
 * written as a spec), dtype, bits, rank, dims, labels ('-' for an unlabelled
 * dim), quant {kind, scale, zp, fl, round}, size_bytes, pad_lo, pad_hi,
 * readonly, vendor, plane_dim, planes [{offset_bytes, first, count, axes}],
 * axes (plane 0's), then the vendor's own members. An axis is
 * {dim, label, block, extent, stride_bytes, stride_bits}; stride_bytes is exact
 * (0.5 for a 4-bit element). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

static const char *const qkind_names[] = {"none", "affine", "inv", "dfp"};
static const char *const round_names[] = {"even", "away", "zero"};

static void json_str(tl_strbuf *sb, const char *s)
{
    tl_sb_printf(sb, "\"");
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            tl_sb_printf(sb, "\\%c", c);
        else if (c < 0x20)
            tl_sb_printf(sb, "\\u%04x", c);
        else
            tl_sb_printf(sb, "%c", c);
    }
    tl_sb_printf(sb, "\"");
}

static void json_i64_array(tl_strbuf *sb, const int64_t *v, int n)
{
    tl_sb_printf(sb, "[");
    tl_sb_i64_list(sb, v, n, ", ");
    tl_sb_printf(sb, "]");
}

static void json_float(tl_strbuf *sb, float f)
{
    if (isfinite(f))
        tl_sb_float(sb, f);
    else
        tl_sb_printf(sb, "null");
}

/* A bit count as an exact decimal number of bytes: 768, 0.5, 12.125. */
static void json_bits_as_bytes(tl_strbuf *sb, int64_t bits)
{
    uint64_t mag = bits < 0 ? 0u - (uint64_t)bits : (uint64_t)bits;
    unsigned frac = (unsigned)(mag % 8u) * 125u;
    tl_sb_printf(sb, "%s%llu", bits < 0 ? "-" : "", (unsigned long long)(mag / 8u));
    if (frac == 0) return;
    while (frac % 10u == 0) frac /= 10u;
    tl_sb_printf(sb, ".%u", frac);
}

static const char *enum_name(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

static void json_spec(const tl_desc *d, tl_strbuf *sb)
{
    char small[512];
    if (tl_desc_format(d, small, sizeof small) == TL_OK) {
        json_str(sb, small);
        return;
    }
    /* Long vendor specs: one retry with a heap buffer. */
    size_t cap = 8192;
    char *big = malloc(cap);
    if (big && tl_desc_format(d, big, cap) == TL_OK)
        json_str(sb, big);
    else
        tl_sb_printf(sb, "null");
    free(big);
}

static void json_labels(const tl_desc *d, tl_strbuf *sb)
{
    char labels[TL_MAX_DIMS + 1];
    int any = 0, n = d->rank < 0 ? 0 : d->rank > TL_MAX_DIMS ? TL_MAX_DIMS : d->rank;
    for (int i = 0; i < n; i++) {
        labels[i] = d->labels[i] ? d->labels[i] : '-';
        any |= d->labels[i] != 0;
    }
    labels[any ? n : 0] = '\0';
    json_str(sb, labels);
}

static void json_quant(const tl_desc *d, tl_strbuf *sb)
{
    const tl_quant *q = &d->quant;
    tl_sb_printf(sb, "{\"kind\": \"%s\", \"scale\": ", enum_name(qkind_names, 4, q->kind));
    json_float(sb, q->scale);
    tl_sb_printf(sb, ", \"zp\": %ld, \"fl\": %d, \"round\": \"%s\"", (long)q->zp, (int)q->fl,
                 enum_name(round_names, 3, q->round));
    /* only inverse-scale codes have two readings (tl_dequant) */
    if (q->kind == TL_Q_INV) tl_sb_printf(sb, ", \"dequant\": \"%s\"", q->dequant ? "divide" : "recip");
    tl_sb_printf(sb, "}");
}

static void json_axis(const tl_desc *d, const tl_axis *a, tl_strbuf *sb)
{
    char label = a->dim >= 0 && a->dim < TL_MAX_DIMS ? d->labels[a->dim] : 0;
    tl_sb_printf(sb, "{\"dim\": %d, \"label\": ", (int)a->dim);
    if (label)
        tl_sb_printf(sb, "\"%c\"", label);
    else
        tl_sb_printf(sb, "null");
    tl_sb_printf(sb, ", \"block\": %lld, \"extent\": %lld, \"stride_bytes\": ", (long long)a->block,
                 (long long)a->extent);
    json_bits_as_bytes(sb, a->stride_bits);
    tl_sb_printf(sb, ", \"stride_bits\": %lld}", (long long)a->stride_bits);
}

static void json_axes(const tl_desc *d, const tl_plane *p, tl_strbuf *sb)
{
    int n = p->naxes < 0 ? 0 : p->naxes > TL_MAX_AXES ? TL_MAX_AXES : p->naxes;
    tl_sb_printf(sb, "[");
    for (int a = 0; a < n; a++) {
        tl_sb_printf(sb, "%s", a ? ", " : "");
        json_axis(d, &p->axes[a], sb);
    }
    tl_sb_printf(sb, "]");
}

static void json_planes(const tl_desc *d, tl_strbuf *sb)
{
    int n = d->nplanes < 1 ? 1 : d->nplanes > TL_MAX_PLANES ? TL_MAX_PLANES : d->nplanes;
    tl_sb_printf(sb, "[");
    for (int k = 0; k < n; k++) {
        const tl_plane *p = &d->planes[k];
        /* first/count as stored: they range over plane_dim, meaningless with one plane */
        tl_sb_printf(sb, "%s{\"offset_bytes\": %lld, \"first\": %lld, \"count\": %lld, \"axes\": ",
                     k ? ", " : "", (long long)p->offset_bytes, (long long)p->first,
                     (long long)p->count);
        json_axes(d, p, sb);
        tl_sb_printf(sb, "}");
    }
    tl_sb_printf(sb, "]");
}

static void json_vendor(const tl_desc *d, tl_strbuf *sb, const tl_vendor_ops **ops)
{
    *ops = d->vendor != TL_VENDOR_NONE ? tl_vendor_find((tl_vendor)d->vendor) : NULL;
    tl_sb_printf(sb, ", \"vendor\": ");
    if (*ops)
        json_str(sb, (*ops)->prefix);
    else
        tl_sb_printf(sb, "null");
}

void tl_desc_json(const tl_desc *d, tl_strbuf *sb)
{
    int rank = d->rank < 0 ? 0 : d->rank > TL_MAX_DIMS ? TL_MAX_DIMS : d->rank;
    const tl_vendor_ops *ops;
    tl_sb_printf(sb, "{\"spec\": ");
    json_spec(d, sb);
    tl_sb_printf(sb, ", \"dtype\": \"%s\", \"bits\": %u, \"rank\": %d, \"dims\": ",
                 tl_dtype_name((tl_dtype)d->dtype), tl_dtype_bits((tl_dtype)d->dtype), rank);
    json_i64_array(sb, d->dims, rank);
    tl_sb_printf(sb, ", \"labels\": ");
    json_labels(d, sb);
    tl_sb_printf(sb, ", \"quant\": ");
    json_quant(d, sb);
    tl_sb_printf(sb, ", \"size_bytes\": %lld, \"pad_lo\": ", (long long)d->size_bytes);
    json_i64_array(sb, d->pad_lo, rank);
    tl_sb_printf(sb, ", \"pad_hi\": ");
    json_i64_array(sb, d->pad_hi, rank);
    tl_sb_printf(sb, ", \"readonly\": %s", (d->flags & TL_DESC_READONLY) ? "true" : "false");
    json_vendor(d, sb, &ops);
    tl_sb_printf(sb, ", \"plane_dim\": %d, \"planes\": ", d->nplanes > 1 ? (int)d->plane_dim : -1);
    json_planes(d, sb);
    tl_sb_printf(sb, ", \"axes\": ");
    json_axes(d, &d->planes[0], sb);
    if (ops && ops->json_extra) ops->json_extra(d, sb);
    tl_sb_printf(sb, "}");
}

/* ---- the public text functions: describe --json and the vendor's explain ---- */

static void vendor_explain(const tl_desc *d, tl_strbuf *sb)
{
    const tl_vendor_ops *ops = d->vendor != TL_VENDOR_NONE ? tl_vendor_find((tl_vendor)d->vendor) : NULL;
    if (ops && ops->explain) ops->explain(d, sb);
}

/* Render fn(d) into buf. A first pass into no buffer measures the text, so a
 * short buffer is left untouched (as tl_desc_format does) and *needed tells
 * the caller what to allocate; the text depends on d alone, so the second
 * pass writes exactly that much. */
static tl_status render(const tl_desc *d, void (*fn)(const tl_desc *, tl_strbuf *), const char *what,
                        char *buf, size_t len, size_t *needed)
{
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    if (!buf && len) return tl_fail(TL_ERR_NULL, "buffer is NULL with len=%zu", len);
    TL_TRY(tl_desc_validate(d));
    tl_strbuf probe = {NULL, 0, 0};
    fn(d, &probe);
    if (needed) *needed = probe.len + 1;
    if (probe.len >= len)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu: the %s needs %zu bytes", len, what, probe.len + 1);
    tl_strbuf sb = {buf, len, 0};
    buf[0] = '\0'; /* an empty text (no vendor hook) writes nothing */
    fn(d, &sb);
    tl_clear_error(); /* a hook may have recorded a failure it turned into text */
    return TL_OK;
}

tl_status tl_desc_to_json(const tl_desc *d, char *buf, size_t len, size_t *needed)
{
    return render(d, tl_desc_json, "JSON text", buf, len, needed);
}

tl_status tl_desc_explain_vendor(const tl_desc *d, char *buf, size_t len, size_t *needed)
{
    return render(d, vendor_explain, "vendor explanation", buf, len, needed);
}
