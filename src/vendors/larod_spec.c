/* Axis larod's spec-text adapter: larod.nhwc / larod.nchw / larod.unspecified
 * / larod.420sp strings and their options (align pitches pitch height) to and
 * from the model of larod.c, and the larod_* members of describe --json and
 * the sentences of `tlayout explain`. */
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/larod_internal.h"

/* Spec-string words, by layout value. */
static const char *const layout_words[] = {"", "unspecified", "nhwc", "nchw", "420sp"};

/* ---- spec strings: larod.nhwc / larod.nchw / larod.unspecified / larod.420sp ---- */

static int layout_of_word(const char *w)
{
    for (int i = 1; i < (int)(sizeof layout_words / sizeof layout_words[0]); i++)
        if (strcmp(w, layout_words[i]) == 0) return i;
    return 0;
}

/* KEY=v0,v1,... into v (at most MAXLEN values, each >= 0); *n = count. */
static tl_status opt_values(tl_spec_opt *o, int64_t *v, int *n)
{
    TL_TRY(tl_parse_i64_list(o->key, o->value, v, -1, MAXLEN, n));
    for (int i = 0; i < *n; i++)
        if (v[i] < 0)
            return tl_fail(TL_ERR_SPEC_VALUE, "%s[%d]=%lld: must be >= 0 (larod)", o->key, i, (long long)v[i]);
    return TL_OK;
}

static tl_status parse_align(tl_spec_opt *o, const lt *t, int64_t *al)
{
    int n, want = t->layout == TL_LAROD_TENSOR_LAYOUT_420SP ? 2 : t->n;
    TL_TRY(opt_values(o, al, &n));
    if (n == want) return TL_OK;
    return tl_fail(TL_ERR_SPEC_VALUE, "align=%s: larod.%s takes %d values (%s) (larod)", o->value,
                   layout_words[t->layout], want,
                   want == 2 && t->layout == TL_LAROD_TENSOR_LAYOUT_420SP ? "row alignment, Y-plane alignment"
                                                                          : "bytes per dim, 0 = none");
}

static tl_status spec_row_pitch(tl_spec_opt *row, tl_spec_opt *h, lt *t)
{
    int64_t pitch, height = 0;
    TL_TRY(tl_parse_i64("pitch", row->value, &pitch));
    if (h) TL_TRY(tl_parse_i64("height", h->value, &height));
    if (pitch < 1 || height < 0)
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: must be %s (larod)", pitch < 1 ? "pitch" : "height",
                       pitch < 1 ? row->value : h->value, pitch < 1 ? ">= 1" : ">= 0 (0 = the image height)");
    TL_TRY(tl_larod_row_pitches(t, pitch, height, t->pitches));
    t->np = t->n;
    return TL_OK;
}

static tl_status parse(tl_desc *d, tl_spec *sp)
{
    lt t;
    int64_t al[MAXLEN] = {0};
    memset(&t, 0, sizeof t);
    t.layout = layout_of_word(sp->vformat);
    if (!t.layout)
        return tl_fail(TL_ERR_SPEC_LAYOUT, "layout larod%s%s: expected larod.nhwc, larod.nchw, larod.420sp or "
                       "larod.unspecified", *sp->vformat ? "." : "", sp->vformat);
    tl_larod_tensor_data_type ldt;
    TL_TRY(tl_larod_data_type(sp->dtype, &ldt));
    t.dt = sp->dtype;
    if (sp->ndims > MAXLEN)
        return tl_fail(TL_ERR_VENDOR, "dims.len=%d > %d (LAROD_TENSOR_MAX_LEN) (larod)", sp->ndims, MAXLEN);
    t.n = sp->ndims;
    memcpy(t.dims, sp->dims, sizeof t.dims);
    tl_spec_opt *a = tl_spec_take(sp, "align"), *p = tl_spec_take(sp, "pitches");
    tl_spec_opt *row = tl_spec_take(sp, "pitch"), *h = tl_spec_take(sp, "height");
    if ((a != NULL) + (p != NULL) + (row != NULL) > 1)
        return tl_fail(TL_ERR_SPEC_OPTION, "align=, pitches= and pitch= exclude each other (larod)");
    if (h && !row) return tl_fail(TL_ERR_SPEC_OPTION, "height= goes with pitch= (the row pitch) (larod)");
    if (a) TL_TRY(parse_align(a, &t, al));
    if (p) TL_TRY(opt_values(p, t.pitches, &t.np));
    if (row) TL_TRY(spec_row_pitch(row, h, &t));
    return tl_larod_build(d, &t, al);
}

/* Canonical form: pitches= only when they differ from the dense ones. */
static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    lt t;
    int64_t dense[MAXLEN];
    TL_TRY(tl_larod_lt_from_desc(d, &t));
    tl_sb_printf(sb, "larod.%s:%s:", layout_words[t.layout], tl_dtype_name(t.dt));
    tl_sb_i64_list(sb, t.dims, t.n, "x");
    TL_TRY(tl_larod_dense_pitches(&t, NULL, dense));
    if (memcmp(dense, t.pitches, (size_t)t.n * sizeof dense[0]) != 0) {
        tl_sb_printf(sb, ":pitches=");
        tl_sb_i64_list(sb, t.pitches, t.n, ",");
    }
    return TL_OK;
}

static void json_extra(const tl_desc *d, tl_strbuf *sb)
{
    lt t;
    tl_larod_tensor_data_type ldt;
    if (tl_larod_lt_from_desc(d, &t) != TL_OK || tl_larod_data_type(t.dt, &ldt) != TL_OK) {
        tl_sb_printf(sb, ", \"larod_layout\": null, \"larod_pitches\": null");
        return;
    }
    tl_sb_printf(sb, ", \"larod_layout\": \"%s\", \"larod_data_type\": \"%s\", \"larod_dims\": [",
                 tl_larod_layout_name((tl_larod_tensor_layout)t.layout), tl_larod_data_type_name(ldt));
    tl_sb_i64_list(sb, t.dims, t.n, ", ");
    tl_sb_printf(sb, "], \"larod_pitches\": [");
    tl_sb_i64_list(sb, t.pitches, t.n, ", ");
    tl_sb_printf(sb, "], \"larod_row_pitch\": %lld", (long long)d->vendor_params[0]);
}

/* ---- explain ------------------------------------------------------------------------- */

/* An alignment that explains a pitch (larod keeps pitches, not alignments):
 * the smallest power of two a >= from with rup(x, a) == p, or 0. */
static int64_t pow2_alignment(int64_t x, int64_t p, int64_t from)
{
    for (int64_t a = from; a <= p && a <= ((int64_t)1 << 40); a *= 2) {
        int64_t r;
        if (!tl_rup_ok(x, a, &r) || r > p) return 0;
        if (r == p) return a;
    }
    return 0;
}

/* Alignments below 4 bytes are rare: 3 -> 4 reads as "to a multiple of 4". */
static int64_t alignment_of(int64_t x, int64_t p)
{
    int64_t a = pow2_alignment(x, p, 4);
    return a ? a : pow2_alignment(x, p, 2);
}

static const char *plural(int64_t n, const char *one, const char *many) { return n == 1 ? one : many; }

/* What one step of dim k is called, e.g. "row" / "rows". */
static const char *unit(int layout, int k, int64_t count, char *buf, size_t len)
{
    static const char *const nhwc[4][2] = {
        {"image", "images"}, {"row", "rows"}, {"pixel", "pixels"}, {"channel", "channels"}};
    static const char *const nchw[4][2] = {
        {"image", "images"}, {"plane", "planes"}, {"row", "rows"}, {"pixel", "pixels"}};
    int many = count != 1;
    if (layout == TL_LAROD_TENSOR_LAYOUT_NHWC) return nhwc[k][many];
    if (layout == TL_LAROD_TENSOR_LAYOUT_NCHW) return nchw[k][many];
    snprintf(buf, len, "%s of dims[%d]", many ? "steps" : "step", k);
    return buf;
}

/* ", rounded up to 32 (16 bytes of padding, 4 pixels, zero-filled by conversions)". */
static void explain_slack(tl_strbuf *sb, const lt *t, int k, int64_t need, int64_t p, int64_t s)
{
    char ub[32];
    int64_t slack = p - need, a = alignment_of(need, p);
    if (slack == 0) return;
    if (a) tl_sb_printf(sb, ", rounded up to a multiple of %lld", (long long)a);
    tl_sb_printf(sb, " (%lld %s of padding", (long long)slack, plural(slack, "byte", "bytes"));
    if (k == 0)
        tl_sb_printf(sb, " at the end, not written by conversions)");
    else if (k == t->n - 1 && slack % s == 0)
        tl_sb_printf(sb, ", %lld %s, zero-filled by conversions)", (long long)(slack / s),
                     unit(t->layout, k, slack / s, ub, sizeof ub));
    else
        tl_sb_printf(sb, ", not written by conversions)");
}

static void explain_pitch(tl_strbuf *sb, const lt *t, int k)
{
    char ub[32], ub2[32];
    int n = t->n;
    int64_t s = k < n - 1 ? t->pitches[k + 1] : es_of(t), p = t->pitches[k];
    bool row = (t->layout == TL_LAROD_TENSOR_LAYOUT_NHWC && k == 2) ||
               (t->layout == TL_LAROD_TENSOR_LAYOUT_NCHW && k == 3);
    tl_sb_printf(sb, "%spitches[%d] = %lld bytes ", row ? "Row pitch " : "", k, (long long)p);
    if (k == 0) tl_sb_printf(sb, "in all");
    else tl_sb_printf(sb, "per %s", unit(t->layout, k - 1, 1, ub, sizeof ub));
    tl_sb_printf(sb, " = %lld %s x %lld %s", (long long)t->dims[k], unit(t->layout, k, t->dims[k], ub2, sizeof ub2),
                 (long long)s, plural(s, "byte", "bytes"));
    explain_slack(sb, t, k, t->dims[k] * s, p, s);
    tl_sb_printf(sb, ".\n");
}

static void explain_generic(const lt *t, tl_strbuf *sb)
{
    const char *names = t->layout == TL_LAROD_TENSOR_LAYOUT_NHWC   ? "nhwc"
                        : t->layout == TL_LAROD_TENSOR_LAYOUT_NCHW ? "nchw"
                                                                   : NULL; /* i0, i1, ... */
    for (int k = t->n - 1; k >= 0; k--) explain_pitch(sb, t, k);
    tl_sb_printf(sb, "Byte offset of (");
    for (int k = 0; k < t->n; k++)
        names ? tl_sb_printf(sb, "%s%c", k ? ", " : "", names[k]) : tl_sb_printf(sb, "%si%d", k ? ", " : "", k);
    tl_sb_printf(sb, ") =");
    for (int k = 0; k < t->n; k++) {
        int64_t s = k < t->n - 1 ? t->pitches[k + 1] : es_of(t);
        if (names) tl_sb_printf(sb, "%s %c*%lld", k ? " +" : "", names[k], (long long)s);
        else tl_sb_printf(sb, "%s i%d*%lld", k ? " +" : "", k, (long long)s);
    }
    tl_sb_printf(sb, ".\n");
    for (int k = 1; k < t->n; k++)
        if (t->pitches[k] % es_of(t) != 0) {
            tl_sb_printf(sb, "pitches[%d] = %lld is not a multiple of the %lld-byte element: offsets and sizes are "
                         "exact, but element-wise conversion refuses this layout (byte-granular pitch).\n", k,
                         (long long)t->pitches[k], (long long)es_of(t));
            break;
        }
}

static void explain_420sp(const lt *t, tl_strbuf *sb)
{
    const int64_t h = t->dims[1], w = t->dims[2], *p = t->pitches, ch = half_up(h);
    const int64_t axis = tl_larod_axis_example_size(p);
    tl_sb_printf(sb, "Semi-planar 4:2:0 (NV12): a Y plane of %lld rows, then %lld rows of interleaved Cb,Cr pairs "
                 "(one pair per 2x2 pixels, %lld pairs per row); c = 0 Y, 1 Cb, 2 Cr.\n", (long long)h,
                 (long long)ch, (long long)half_up(w));
    tl_sb_printf(sb, "Row pitch pitches[2] = %lld bytes = %lld pixels x 1 byte", (long long)p[2], (long long)w);
    if (p[2] != w) {
        int64_t a = alignment_of(w, p[2]);
        if (a) tl_sb_printf(sb, ", rounded up to a multiple of %lld", (long long)a);
        tl_sb_printf(sb, " (%lld bytes of padding, not written by conversions)", (long long)(p[2] - w));
    }
    tl_sb_printf(sb, "; Y rows and CbCr rows use it alike.\n");
    tl_sb_printf(sb, "pitches[1] = %lld bytes = the Y plane, %lld rows x %lld bytes", (long long)p[1], (long long)h,
                 (long long)p[2]);
    if (p[1] != h * p[2]) tl_sb_printf(sb, " + %lld bytes of padding", (long long)(p[1] - h * p[2]));
    tl_sb_printf(sb, "; the CbCr plane starts there.\n");
    tl_sb_printf(sb, "pitches[0] = %lld bytes = %lld + ceil(%lld/2) = %lld CbCr rows x %lld bytes", (long long)p[0],
                 (long long)p[1], (long long)h, (long long)ch, (long long)p[2]);
    if (p[0] != p[1] + ch * p[2]) tl_sb_printf(sb, " + %lld bytes at the end", (long long)(p[0] - p[1] - ch * p[2]));
    tl_sb_printf(sb, ".\nY(h, w) = h*%lld + w; Cb(h, w) = %lld + (h/2)*%lld + (w/2)*2; Cr = Cb + 1.\n",
                 (long long)p[2], (long long)p[1], (long long)p[2]);
    if (h % 2 && axis > 0 && axis < p[1] + ch * p[2])
        tl_sb_printf(sb, "The height is odd: 3*pitches[1]/2 (as Axis's object-detection example sizes 420SP buffers) "
                     "would give %lld bytes, %lld short of the last CbCr row.\n", (long long)axis,
                     (long long)(p[1] + ch * p[2] - axis));
}

static void explain(const tl_desc *d, tl_strbuf *sb)
{
    lt t;
    tl_larod_tensor_data_type ldt;
    if (tl_larod_lt_from_desc(d, &t) != TL_OK || tl_larod_data_type(t.dt, &ldt) != TL_OK) {
        tl_sb_printf(sb, "Not expressible as larod metadata: %s.\n", tl_last_error());
        return;
    }
    tl_sb_printf(sb, "Axis larod tensor: %s, %s (%lld %s per element), dims (",
                 tl_larod_layout_name((tl_larod_tensor_layout)t.layout), tl_larod_data_type_name(ldt),
                 (long long)es_of(&t), plural(es_of(&t), "byte", "bytes"));
    tl_sb_i64_list(sb, t.dims, t.n, ", ");
    tl_sb_printf(sb, "), pitches (");
    tl_sb_i64_list(sb, t.pitches, t.n, ", ");
    tl_sb_printf(sb, ") in bytes.\n");
    if (t.layout == TL_LAROD_TENSOR_LAYOUT_420SP) explain_420sp(&t, sb);
    else explain_generic(&t, sb);
    tl_sb_printf(sb, "larod carries no quantization: scale and zero point come from the model.\n");
}

const tl_vendor_ops tl_larod_ops = {"larod", TL_VENDOR_LAROD, parse, format, json_extra, explain};
