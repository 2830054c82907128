/* Spec strings: LAYOUT:DTYPE:DIMS[:KEY=VALUE...] <-> tl_desc.
 *
 * The core splits the string; a vendor prefix ("larod.", "tidl", ...) hands
 * the pieces to that vendor's parser; otherwise the layout word is generic.
 * Quantization options are common to every layout and applied last. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

#define SPEC_MAX 1024

static tl_status split_fields(char *s, char **f, int max, int *n)
{
    int k = 0;
    for (char *p = s;; p++) {
        if (k == max) return tl_fail(TL_ERR_SPEC_SYNTAX, "spec has more than %d ':' fields", max);
        f[k++] = p;
        p = strchr(p, ':');
        if (!p) break;
        *p = '\0';
    }
    *n = k;
    return TL_OK;
}

static tl_status parse_dims(const char *s, tl_spec *sp)
{
    const char *p = s;
    sp->ndims = 0;
    if (strpbrk(s, ",[]() ")) /* a shape pasted from Python: (1, 3, 224, 224) */
        return tl_fail(TL_ERR_SPEC_SYNTAX, "dims '%s': dims are separated by 'x', e.g. 1x3x224x224", s);
    for (;;) {
        char item[24];
        size_t len = strcspn(p, "x");
        if (len == 0 || len >= sizeof item)
            return tl_fail(TL_ERR_SPEC_SYNTAX, "dims '%s': expected INTxINT..., item %d is empty or too long", s, sp->ndims);
        if (sp->ndims == (int)(sizeof sp->dims / sizeof sp->dims[0]))
            return tl_fail(TL_ERR_RANK, "dims '%s': more than %d dims", s, (int)(sizeof sp->dims / sizeof sp->dims[0]));
        memcpy(item, p, len);
        item[len] = '\0';
        TL_TRY(tl_parse_i64("dims", item, &sp->dims[sp->ndims]));
        if (sp->dims[sp->ndims] < 1)
            return tl_fail(TL_ERR_DIM, "dims[%d]=%lld: a dim must be >= 1", sp->ndims, (long long)sp->dims[sp->ndims]);
        sp->ndims++;
        if (!p[len]) return TL_OK;
        p += len + 1;
    }
}

static tl_status parse_option(char *field, tl_spec *sp)
{
    char *eq = strchr(field, '=');
    if (!eq || eq == field || !eq[1])
        return tl_fail(TL_ERR_SPEC_SYNTAX, "option '%s': expected KEY=VALUE", field);
    *eq = '\0';
    if (strlen(field) >= sizeof sp->opts[0].key)
        return tl_fail(TL_ERR_SPEC_OPTION, "option '%s': unknown key", field);
    for (int i = 0; i < sp->nopts; i++)
        if (strcmp(sp->opts[i].key, field) == 0)
            return tl_fail(TL_ERR_SPEC_OPTION, "option '%s' given twice", field);
    if (sp->nopts == TL_SPEC_MAX_OPTS) return tl_fail(TL_ERR_SPEC_OPTION, "more than %d options", TL_SPEC_MAX_OPTS);
    tl_spec_opt *o = &sp->opts[sp->nopts++];
    strcpy(o->key, field);
    o->value = eq + 1;
    o->used = false;
    return TL_OK;
}

static tl_status split_spec(char *s, tl_spec *sp)
{
    char *f[TL_SPEC_MAX_OPTS + 3];
    int n = 0;
    TL_TRY(split_fields(s, f, TL_SPEC_MAX_OPTS + 3, &n));
    if (n < 3) return tl_fail(TL_ERR_SPEC_SYNTAX, "spec needs LAYOUT:DTYPE:DIMS, got %d field%s", n, n == 1 ? "" : "s");
    memset(sp, 0, sizeof *sp);
    sp->layout = f[0];
    sp->vformat = "";
    char *dot = strchr(f[0], '.');
    if (dot) {
        *dot = '\0';
        sp->vformat = dot + 1;
    }
    sp->dtype = tl_dtype_from_name(f[1]);
    if (sp->dtype == TL_DT_INVALID) {
        const char *near = tl_dtype_closest_name(f[1]);
        tl_fail(TL_ERR_DTYPE, "dtype '%s': expected u8 i8 u16 i16 u32 i32 u64 i64 f16 bf16 f32 f64 bool u4 i4 "
                "(or float32, float16, fp16, half, bfloat16, uint8, int8, ...)", f[1]);
        return near ? tl_fail_append(TL_ERR_DTYPE, "; did you mean %s?", near) : TL_ERR_DTYPE;
    }
    TL_TRY(parse_dims(f[2], sp));
    for (int i = 3; i < n; i++) TL_TRY(parse_option(f[i], sp));
    return TL_OK;
}

/* ---- generic layouts --------------------------------------------------- */

static tl_status opt_list(tl_spec *sp, const char *key, int64_t *v, int want, bool *present)
{
    tl_spec_opt *o = tl_spec_take(sp, key);
    *present = o != NULL;
    return o ? tl_parse_i64_list(key, o->value, v, want, want, NULL) : TL_OK;
}

static tl_status apply_labels(tl_desc *d, tl_spec *sp)
{
    tl_spec_opt *o = tl_spec_take(sp, "labels");
    if (!o) return TL_OK;
    if ((int)strlen(o->value) != d->rank)
        return tl_fail(TL_ERR_SPEC_VALUE, "labels=%s: expected %d letters (one per dim, '-' for none)", o->value, (int)d->rank);
    for (int i = 0; i < d->rank; i++) {
        char c = o->value[i];
        if (c != '-' && !isupper((unsigned char)c))
            return tl_fail(TL_ERR_SPEC_VALUE, "labels=%s: '%c' is not A-Z or '-'", o->value, c);
        d->labels[i] = c == '-' ? 0 : c;
    }
    return TL_OK;
}

/* pad=lo0,...,lo(r-1),hi0,...,hi(r-1) (ONNX order), in elements. */
static tl_status apply_pad(tl_desc *d, tl_spec *sp)
{
    int64_t v[2 * TL_MAX_DIMS];
    bool has;
    TL_TRY(opt_list(sp, "pad", v, 2 * d->rank, &has));
    return has ? tl_desc_set_padding(d, v, v + d->rank) : TL_OK;
}

static tl_status apply_strides(tl_desc *d, tl_spec *sp)
{
    int64_t v[TL_MAX_AXES], al[TL_MAX_AXES];
    bool has_s, has_a;
    tl_plane *p = &d->planes[0];
    TL_TRY(opt_list(sp, "align", al, p->naxes, &has_a));
    TL_TRY(opt_list(sp, "strides", v, p->naxes, &has_s));
    if (has_a && has_s) return tl_fail(TL_ERR_SPEC_OPTION, "align= and strides= exclude each other");
    int64_t off = 0;
    bool has_off;
    TL_TRY(opt_list(sp, "offset", &off, 1, &has_off));
    if (off < 0) return tl_fail(TL_ERR_SPEC_VALUE, "offset=%lld: must be >= 0", (long long)off);
    p->offset_bytes = off;
    if (has_a) {
        for (int a = 0; a < p->naxes; a++)
            if (al[a] < 0) return tl_fail(TL_ERR_SPEC_VALUE, "align[%d]=%lld: must be >= 0", a, (long long)al[a]);
        return tl_desc_restride(d, al);
    }
    if (!has_s) return tl_desc_restride(d, NULL);
    for (int a = 0; a < p->naxes; a++) {
        if (v[a] < 0) return tl_fail(TL_ERR_STRIDE, "strides[%d]=%lld: strides must be >= 0", a, (long long)v[a]);
        if (!tl_mul_ok(v[a], tl_dtype_bits((tl_dtype)d->dtype), &p->axes[a].stride_bits))
            return tl_fail(TL_ERR_OVERFLOW, "strides[%d]=%lld elements overflows int64 bits", a, (long long)v[a]);
        if (v[a] == 0 && p->axes[a].extent > 1) d->flags |= TL_DESC_READONLY;
    }
    return tl_desc_update_size(d);
}

static tl_status apply_readonly(tl_desc *d, tl_spec *sp)
{
    tl_spec_opt *ro = tl_spec_take(sp, "readonly");
    if (ro) {
        if (strcmp(ro->value, "1") != 0) return tl_fail(TL_ERR_SPEC_VALUE, "readonly=%s: only readonly=1 is meaningful", ro->value);
        d->flags |= TL_DESC_READONLY;
    }
    return TL_OK;
}

/* The map the strides make must be valid on its own (aliasing, overflow):
 * checked here, so that a failure is blamed on these options. size= comes
 * after and is checked by the final validation. */
static tl_status apply_strides_checked(tl_desc *d, tl_spec *sp)
{
    TL_TRY(apply_strides(d, sp));
    return tl_desc_validate(d);
}

static tl_status apply_size(tl_desc *d, tl_spec *sp)
{
    int64_t size;
    bool has;
    TL_TRY(opt_list(sp, "size", &size, 1, &has));
    if (has) d->size_bytes = size;
    return TL_OK;
}

/* Apply one group of options; a failure whose message does not start with
 * the option it comes from gets "KEY=VALUE: " in front, so that every message
 * names the option and the value at fault. */
static tl_status apply_named(tl_desc *d, tl_spec *sp, tl_status (*apply)(tl_desc *, tl_spec *))
{
    bool before[TL_SPEC_MAX_OPTS];
    for (int i = 0; i < sp->nopts; i++) before[i] = sp->opts[i].used;
    tl_status s = apply(d, sp);
    if (s == TL_OK) return s;
    char why[512], names[512];
    tl_strbuf sb = {names, sizeof names, 0};
    snprintf(why, sizeof why, "%s", tl_last_error());
    for (int i = 0; i < sp->nopts; i++) {
        const tl_spec_opt *o = &sp->opts[i];
        if (before[i] || !o->used) continue;
        if (strncmp(why, o->key, strlen(o->key)) == 0) return s; /* already named */
        tl_sb_printf(&sb, "%s%s=%s", sb.len ? ", " : "", o->key, o->value);
    }
    if (sb.len == 0) return s;
    return tl_fail(s, "%s: %s", names, why);
}

static tl_status parse_generic(tl_desc *d, tl_spec *sp)
{
    tl_layout L;
    TL_TRY(tl_layout_parse(sp->layout, &L));
    if (L.rank != sp->ndims) {
        char order[2 * TL_MAX_DIMS + 8] = "";
        for (int i = 0, n = 0; i < L.rank && !L.positional; i++)
            n += snprintf(order + n, sizeof order - (size_t)n, "%s%c", i ? "," : " (", L.labels[i]);
        if (order[0]) strcat(order, ")");
        char with_n[200] = "";
        if (sp->ndims + 1 == L.rank) { /* the batch dim left out, as image shapes often are */
            tl_strbuf sb = {with_n, sizeof with_n, 0};
            tl_sb_printf(&sb, ": dims include %c, e.g. 1x", L.positional ? 'a' : L.labels[0]);
            tl_sb_i64_list(&sb, sp->dims, sp->ndims, "x");
        }
        return tl_fail(TL_ERR_SPEC_VALUE, "layout %s has %d dims%s but %d were given%s", sp->layout, L.rank, order,
                       sp->ndims, with_n);
    }
    TL_TRY(tl_desc_from_layout(d, &L, sp->dtype, sp->dims, sp->ndims));
    TL_TRY(apply_named(d, sp, apply_labels));
    TL_TRY(apply_named(d, sp, apply_readonly));
    TL_TRY(apply_named(d, sp, apply_pad));
    TL_TRY(apply_named(d, sp, apply_strides_checked));
    return apply_named(d, sp, apply_size);
}

/* ---- quantization options (every layout) ------------------------------- */

static tl_status parse_enum(const char *key, const char *v, const char *const *names, int n, int *out)
{
    for (int i = 0; i < n; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return TL_OK;
        }
    return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: not one of the allowed values", key, v);
}

static const char *const qkind_names[] = {"none", "affine", "inv", "dfp"};
static const char *const round_names[] = {"even", "away", "zero"};
static const char *const dequant_names[] = {"recip", "divide"};

static tl_status apply_quant(tl_desc *d, tl_spec *sp)
{
    tl_spec_opt *q = tl_spec_take(sp, "q"), *zp = tl_spec_take(sp, "zp"), *sc = tl_spec_take(sp, "scale"),
                *fl = tl_spec_take(sp, "fl"), *rd = tl_spec_take(sp, "round"), *dq = tl_spec_take(sp, "dequant");
    tl_quant *Q = &d->quant;
    int v = 0;
    if (q) {
        TL_TRY(parse_enum("q", q->value, qkind_names, 4, &v));
        Q->kind = (uint8_t)v;
    } else if (Q->kind == TL_Q_NONE && (zp || sc)) {
        Q->kind = TL_Q_AFFINE;
    } else if (Q->kind == TL_Q_NONE && fl) {
        Q->kind = TL_Q_DFP;
    }
    if (rd) {
        TL_TRY(parse_enum("round", rd->value, round_names, 3, &v));
        Q->round = (uint8_t)v;
    }
    if (dq) {
        TL_TRY(parse_enum("dequant", dq->value, dequant_names, 2, &v));
        Q->dequant = (uint8_t)v;
    }
    int64_t t = 0;
    if (zp) {
        TL_TRY(tl_parse_i64("zp", zp->value, &t));
        if (t < INT32_MIN || t > INT32_MAX) return tl_fail(TL_ERR_QUANT, "zp=%s: must fit int32", zp->value);
        Q->zp = (int32_t)t;
    }
    if (fl) {
        TL_TRY(tl_parse_i64("fl", fl->value, &t));
        if (t < -128 || t > 127) return tl_fail(TL_ERR_QUANT, "fl=%s: must fit int8 (-128..127)", fl->value);
        Q->fl = (int8_t)t;
    }
    if (sc) {
        TL_TRY(tl_parse_f32("scale", sc->value, &Q->scale));
        /* "scale=-0" means zero; a -0 would print as nothing and parse back as +0 */
        if (Q->scale == 0.0f) Q->scale = 0.0f;
    }
    if (zp && !sc && !q && (Q->kind == TL_Q_AFFINE || Q->kind == TL_Q_INV) && Q->scale == 0.0f)
        return tl_fail(TL_ERR_QUANT, "zp=%s without scale=: a zero point makes the tensor quantized, which needs a "
                       "finite scale= > 0", zp->value);
    return TL_OK;
}

static void format_quant(const tl_desc *d, tl_strbuf *sb)
{
    const tl_quant *q = &d->quant;
    if (q->kind != TL_Q_NONE && q->kind <= TL_Q_DFP) tl_sb_printf(sb, ":q=%s", qkind_names[q->kind]);
    if (q->scale != 0.0f) {
        tl_sb_printf(sb, ":scale=");
        tl_sb_float(sb, q->scale);
    }
    if (q->zp) tl_sb_printf(sb, ":zp=%d", (int)q->zp);
    if (q->fl) tl_sb_printf(sb, ":fl=%d", (int)q->fl);
    if (q->round != TL_ROUND_EVEN && q->round <= TL_ROUND_ZERO) tl_sb_printf(sb, ":round=%s", round_names[q->round]);
    if (q->dequant == TL_DEQ_DIVIDE) tl_sb_printf(sb, ":dequant=divide");
}

/* ---- public entry points ----------------------------------------------- */

/* A key no parser asked for: the closest valid one, and all of them. */
static tl_status unknown_option(const tl_spec *sp, const char *key)
{
    const char *near = tl_closest_name(key, sp->asked, (size_t)sp->nasked);
    char layout[64];
    snprintf(layout, sizeof layout, "%s%s%s", sp->layout, *sp->vformat ? "." : "", sp->vformat);
    tl_fail(TL_ERR_SPEC_OPTION, "option '%s' is not known for layout %s", key, layout);
    if (near) tl_fail_append(TL_ERR_SPEC_OPTION, " (did you mean '%s'?)", near);
    tl_fail_append(TL_ERR_SPEC_OPTION, "; its keys are");
    for (int i = 0; i < sp->nasked; i++) tl_fail_append(TL_ERR_SPEC_OPTION, " %s", sp->asked[i]);
    return TL_ERR_SPEC_OPTION;
}

static tl_status parse_spec(tl_desc *out, const char *spec, bool hint);

tl_status tl_desc_parse(tl_desc *out, const char *spec)
{
    return parse_spec(out, spec, true);
}

tl_status tl_desc_parse_unhinted(tl_desc *out, const char *spec)
{
    return parse_spec(out, spec, false);
}

static tl_status parse_spec(tl_desc *out, const char *spec, bool hint)
{
    char buf[SPEC_MAX];
    tl_spec sp;
    tl_desc d;
    if (!out || !spec) return tl_fail(TL_ERR_NULL, "descriptor or spec is NULL");
    if (strlen(spec) >= sizeof buf) return tl_fail(TL_ERR_SPEC_SYNTAX, "spec longer than %d characters", SPEC_MAX - 1);
    strcpy(buf, spec);
    TL_TRY(split_spec(buf, &sp));
    const tl_vendor_ops *v = tl_vendor_find_prefix(sp.layout);
    if (v) {
        tl_desc_clear(&d);
        tl_status st = v->parse(&d, &sp);
        if (st != TL_OK) return hint ? tl_hint_vendor_dims(st, spec, sp.dims, sp.ndims) : st;
        d.vendor = v->vendor;
    } else {
        if (*sp.vformat) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s.%s: unknown vendor '%s'", sp.layout, sp.vformat, sp.layout);
        TL_TRY(parse_generic(&d, &sp));
    }
    TL_TRY(apply_quant(&d, &sp));
    for (int i = 0; i < sp.nopts; i++)
        if (!sp.opts[i].used) return unknown_option(&sp, sp.opts[i].key);
    TL_TRY(tl_desc_validate(&d));
    *out = d;
    return TL_OK;
}

/* Byte alignments (align=) that re-derive d's strides from ref (its layout
 * word and padding): each axis's span rounded up to the stride of the axis
 * outside it. The only spelling of strides that are not whole elements
 * (HW:f64:2x87:align=0,10 has rows of 700 bytes). */
static bool strides_as_align(const tl_desc *d, const tl_desc *ref, int64_t *al)
{
    const tl_plane *p = &d->planes[0];
    tl_desc t = *ref;
    bool whole = true;
    for (int a = 0; a < p->naxes; a++) whole &= p->axes[a].stride_bits % tl_dtype_bits((tl_dtype)d->dtype) == 0;
    if (whole) return false; /* strides= says it in elements */
    al[0] = 0;
    for (int a = 1; a < p->naxes; a++) {
        if (p->axes[a - 1].stride_bits % 8) return false;
        al[a] = p->axes[a - 1].stride_bits / 8;
    }
    if (tl_desc_restride(&t, al) != TL_OK) {
        tl_clear_error();
        return false;
    }
    for (int a = 0; a < p->naxes; a++)
        if (t.planes[0].axes[a].stride_bits != p->axes[a].stride_bits) return false;
    return true;
}

/* Options that make a generic descriptor differ from its layout word's default. */
static tl_status format_generic_options(const tl_desc *d, const tl_layout *L, tl_strbuf *sb)
{
    tl_desc ref;
    TL_TRY(tl_desc_from_layout(&ref, L, (tl_dtype)d->dtype, d->dims, d->rank));
    bool pad = false, strides = false;
    for (int i = 0; i < d->rank; i++) pad |= d->pad_lo[i] != ref.pad_lo[i] || d->pad_hi[i] != ref.pad_hi[i];
    if (pad) {
        tl_sb_printf(sb, ":pad=");
        tl_sb_i64_list(sb, d->pad_lo, d->rank, ",");
        tl_sb_printf(sb, ",");
        tl_sb_i64_list(sb, d->pad_hi, d->rank, ",");
        TL_TRY(tl_desc_set_padding(&ref, d->pad_lo, d->pad_hi));
    }
    const tl_plane *p = &d->planes[0];
    int64_t ebits = tl_dtype_bits((tl_dtype)d->dtype);
    for (int a = 0; a < p->naxes; a++) strides |= p->axes[a].stride_bits != ref.planes[0].axes[a].stride_bits;
    int64_t al[TL_MAX_AXES];
    tl_desc tmp = *d;
    TL_TRY(tl_desc_update_size(&tmp)); /* the size strides= gives */
    if (strides && strides_as_align(d, &ref, al)) {
        tmp = ref;
        tmp.planes[0].offset_bytes = p->offset_bytes;
        TL_TRY(tl_desc_restride(&tmp, al)); /* the size align= gives */
        tl_sb_printf(sb, ":align=");
        tl_sb_i64_list(sb, al, p->naxes, ",");
    } else if (strides) {
        tl_sb_printf(sb, ":strides=");
        for (int a = 0; a < p->naxes; a++) {
            if (p->axes[a].stride_bits % ebits)
                return tl_fail(TL_ERR_UNSUPPORTED, "axes[%d].stride=%lld bits is not whole elements: no spec string", a,
                               (long long)p->axes[a].stride_bits);
            tl_sb_printf(sb, "%s%lld", a ? "," : "", (long long)(p->axes[a].stride_bits / ebits));
        }
    }
    if (p->offset_bytes) tl_sb_printf(sb, ":offset=%lld", (long long)p->offset_bytes);
    if (d->size_bytes != tmp.size_bytes) tl_sb_printf(sb, ":size=%lld", (long long)d->size_bytes);
    bool zero_stride = false;
    for (int a = 0; a < p->naxes; a++) zero_stride |= p->axes[a].stride_bits == 0 && p->axes[a].extent > 1;
    if ((d->flags & TL_DESC_READONLY) && !zero_stride) tl_sb_printf(sb, ":readonly=1");
    return TL_OK;
}

static tl_status format_generic(const tl_desc *d, tl_strbuf *sb)
{
    char word[4 * TL_MAX_AXES + 1];
    bool positional;
    tl_layout L;
    TL_TRY(tl_layout_word(d, word, sizeof word, &positional));
    TL_TRY(tl_layout_parse(word, &L));
    tl_sb_printf(sb, "%s:%s:", word, tl_dtype_name((tl_dtype)d->dtype));
    tl_sb_i64_list(sb, d->dims, d->rank, "x");
    bool labelled = false;
    for (int i = 0; i < d->rank; i++) labelled |= d->labels[i] != 0;
    if (positional && labelled) {
        tl_sb_printf(sb, ":labels=");
        for (int i = 0; i < d->rank; i++) tl_sb_printf(sb, "%c", d->labels[i] ? d->labels[i] : '-');
        memcpy(L.labels, d->labels, sizeof L.labels);
    }
    return format_generic_options(d, &L, sb);
}

tl_status tl_desc_format_unchecked(const tl_desc *d, char *buf, size_t len)
{
    tl_strbuf sb = {buf, len, 0};
    const tl_vendor_ops *v = d->vendor != TL_VENDOR_NONE ? tl_vendor_find((tl_vendor)d->vendor) : NULL;
    if (v) TL_TRY(v->format(d, &sb));
    else TL_TRY(format_generic(d, &sb));
    format_quant(d, &sb);
    if (sb.len >= len) return tl_fail(TL_ERR_UNSUPPORTED, "spec string longer than %zu characters", len - 1);
    return TL_OK;
}

tl_status tl_desc_format(const tl_desc *d, char *buf, size_t len)
{
    if (!buf) return tl_fail(TL_ERR_NULL, "buffer is NULL");
    TL_TRY(tl_desc_validate(d));
    char tmp[SPEC_MAX];
    TL_TRY(tl_desc_format_unchecked(d, tmp, sizeof tmp));
    TL_TRY(tl_desc_check_round_trip(d, tmp));
    size_t n = strlen(tmp);
    if (n >= len) return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu: the spec string needs %zu bytes", len, n + 1);
    memcpy(buf, tmp, n + 1);
    return TL_OK;
}
