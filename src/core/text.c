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
    if (sp->dtype == TL_DT_INVALID)
        return tl_fail(TL_ERR_DTYPE, "dtype '%s': expected u8 i8 u16 i16 u32 i32 u64 i64 f16 bf16 f32 f64 bool u4 i4", f[1]);
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

static tl_status apply_size(tl_desc *d, tl_spec *sp)
{
    int64_t size;
    bool has;
    TL_TRY(opt_list(sp, "size", &size, 1, &has));
    if (has) d->size_bytes = size;
    tl_spec_opt *ro = tl_spec_take(sp, "readonly");
    if (ro) {
        if (strcmp(ro->value, "1") != 0) return tl_fail(TL_ERR_SPEC_VALUE, "readonly=%s: only readonly=1 is meaningful", ro->value);
        d->flags |= TL_DESC_READONLY;
    }
    return TL_OK;
}

static tl_status parse_generic(tl_desc *d, tl_spec *sp)
{
    tl_layout L;
    TL_TRY(tl_layout_parse(sp->layout, &L));
    if (L.rank != sp->ndims)
        return tl_fail(TL_ERR_SPEC_VALUE, "layout %s has %d dims but %d were given", sp->layout, L.rank, sp->ndims);
    TL_TRY(tl_desc_from_layout(d, &L, sp->dtype, sp->dims, sp->ndims));
    TL_TRY(apply_labels(d, sp));
    TL_TRY(apply_pad(d, sp));
    TL_TRY(apply_strides(d, sp));
    return apply_size(d, sp);
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

tl_status tl_desc_parse(tl_desc *out, const char *spec)
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
        TL_TRY(v->parse(&d, &sp));
        d.vendor = v->vendor;
    } else {
        if (*sp.vformat) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout %s.%s: unknown vendor '%s'", sp.layout, sp.vformat, sp.layout);
        TL_TRY(parse_generic(&d, &sp));
    }
    TL_TRY(apply_quant(&d, &sp));
    for (int i = 0; i < sp.nopts; i++)
        if (!sp.opts[i].used)
            return tl_fail(TL_ERR_SPEC_OPTION, "option '%s' is not known for layout %s", sp.opts[i].key, sp.layout);
    TL_TRY(tl_desc_validate(&d));
    *out = d;
    return TL_OK;
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
    if (strides) {
        tl_sb_printf(sb, ":strides=");
        for (int a = 0; a < p->naxes; a++) {
            if (p->axes[a].stride_bits % ebits)
                return tl_fail(TL_ERR_UNSUPPORTED, "axes[%d].stride=%lld bits is not whole elements: no spec string", a,
                               (long long)p->axes[a].stride_bits);
            tl_sb_printf(sb, "%s%lld", a ? "," : "", (long long)(p->axes[a].stride_bits / ebits));
        }
    }
    if (p->offset_bytes) tl_sb_printf(sb, ":offset=%lld", (long long)p->offset_bytes);
    tl_desc tmp = *d;
    TL_TRY(tl_desc_update_size(&tmp));
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

tl_status tl_desc_format(const tl_desc *d, char *buf, size_t len)
{
    if (!buf) return tl_fail(TL_ERR_NULL, "buffer is NULL");
    TL_TRY(tl_desc_validate(d));
    char tmp[SPEC_MAX];
    tl_strbuf sb = {tmp, sizeof tmp, 0};
    const tl_vendor_ops *v = d->vendor != TL_VENDOR_NONE ? tl_vendor_find((tl_vendor)d->vendor) : NULL;
    if (v) TL_TRY(v->format(d, &sb));
    else TL_TRY(format_generic(d, &sb));
    format_quant(d, &sb);
    if (sb.len >= sizeof tmp) return tl_fail(TL_ERR_UNSUPPORTED, "spec string longer than %d characters", SPEC_MAX - 1);
    if (sb.len >= len) return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu: the spec string needs %zu bytes", len, sb.len + 1);
    memcpy(buf, tmp, sb.len + 1);
    return TL_OK;
}
