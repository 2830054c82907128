/* NVIDIA TensorRT's spec-text adapter: trt.<format> strings and their
 * options (strides dla gen scale, the quantization TensorRT allows) to and
 * from the model of trt.c, and the trt_* members of describe --json and the
 * sentences of `tlayout explain`. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/trt_internal.h"

/* ---- spec strings ---------------------------------------------------------------- */

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++) {
        char x = *a >= 'A' && *a <= 'Z' ? (char)(*a - 'A' + 'a') : *a;
        char y = *b >= 'A' && *b <= 'Z' ? (char)(*b - 'A' + 'a') : *b;
        if (x != y) return false;
    }
    return *a == *b;
}

static tl_status find_format(const char *name, int32_t *out)
{
    for (int32_t k = 0; k < TL_TRT_FORMAT_COUNT; k++)
        if (same_word(name, tl_trt_fmts[k].spec) || same_word(name, tl_trt_fmts[k].name)) {
            *out = k;
            return TL_OK;
        }
    return tl_fail(TL_ERR_SPEC_LAYOUT, "layout trt.%s: %s; expected trt.FORMAT with FORMAT one of linear chw2 hwc8 chw4 chw16 chw32 dhwc8 cdhw32 hwc dla_linear dla_hwc4 hwc16 dhwc (TensorRT)",
                   name, *name ? "unknown TensorRT format" : "the format is missing");
}

static tl_status pick(const char *key, const char *value, const char *const *names, int n, int32_t *out)
{
    for (int k = 0; k < n; k++)
        if (strcmp(value, names[k]) == 0) {
            *out = k;
            return TL_OK;
        }
    return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: expected %s (TensorRT)", key, value,
                   n == 2 ? "orin or xavier" : "input, output or any");
}

/* TensorRT INT8/INT4 I/O is symmetric: real = q * scale, round half to even
 * (§5.4). The core applies q/scale/zp/round afterwards; here only what
 * TensorRT cannot mean is refused. */
static tl_status check_quant_options(const tl_spec *sp)
{
    bool quantized = false;
    for (int i = 0; i < sp->nopts; i++) {
        const char *k = sp->opts[i].key, *v = sp->opts[i].value;
        int64_t zp;
        if (strcmp(k, "fl") == 0)
            return tl_fail(TL_ERR_QUANT, "fl=%s: TensorRT has no dynamic fixed point; its INT8 is real = q * scale (TensorRT)", v);
        if (strcmp(k, "q") == 0 && strcmp(v, "affine") != 0 && strcmp(v, "none") != 0)
            return tl_fail(TL_ERR_QUANT, "q=%s: TensorRT quantization is symmetric affine, real = q * scale (TensorRT)", v);
        if (strcmp(k, "round") == 0 && strcmp(v, "even") != 0)
            return tl_fail(TL_ERR_QUANT, "round=%s: TensorRT quantizes with round half to even (TensorRT)", v);
        if (strcmp(k, "zp") == 0) {
            TL_TRY(tl_parse_i64("zp", v, &zp));
            if (zp != 0)
                return tl_fail(TL_ERR_QUANT, "zp=%s: TensorRT only supports symmetric quantization, the zero point must be 0 (TensorRT)", v);
        }
        if (strcmp(k, "scale") == 0 || (strcmp(k, "q") == 0 && strcmp(v, "affine") == 0)) quantized = true;
    }
    if (quantized && sp->dtype != TL_I8 && sp->dtype != TL_I4)
        return tl_fail(TL_ERR_QUANT, "dtype=%s with scale=/q=affine: TensorRT quantizes only kINT8 and kINT4 tensors (TensorRT)",
                       tl_dtype_name(sp->dtype));
    return TL_OK;
}

static tl_status parse_options(req *r, tl_spec *sp)
{
    tl_spec_opt *o;
    if ((o = tl_spec_take(sp, "gen")) != NULL) {
        static const char *const gens[] = {"orin", "xavier"};
        TL_TRY(pick("gen", o->value, gens, 2, &r->gen));
        r->gen_given = true;
    }
    if ((o = tl_spec_take(sp, "dla")) != NULL) {
        TL_TRY(pick("dla", o->value, tl_trt_role_names + 1, 3, &r->role));
        r->role += 1;
    }
    if ((o = tl_spec_take(sp, "strides")) != NULL) {
        TL_TRY(tl_parse_i64_list("strides", o->value, r->strides, r->rank, r->rank, NULL));
        r->has_strides = true;
    }
    return check_quant_options(sp);
}

static tl_status parse(tl_desc *out, tl_spec *sp)
{
    req r;
    memset(&r, 0, sizeof r);
    TL_TRY(find_format(sp->vformat, &r.format));
    r.type = tl_trt_datatype_of(sp->dtype);
    if (r.type < 0)
        return tl_fail(TL_ERR_DTYPE, "dtype=%s: TensorRT has no such DataType; it has f32 f16 i8 i32 bool u8 bf16 i64 i4 (TensorRT)",
                       tl_dtype_name(sp->dtype));
    if (sp->ndims > TL_TRT_MAX_DIMS)
        return tl_fail(TL_ERR_RANK, "rank=%d: TensorRT Dims hold at most %d dims (TensorRT)", sp->ndims, TL_TRT_MAX_DIMS);
    r.rank = sp->ndims;
    memcpy(r.dims, sp->dims, (size_t)r.rank * sizeof r.dims[0]);
    TL_TRY(parse_options(&r, sp));
    return tl_trt_build(out, &r);
}

static int32_t default_role(int32_t format)
{
    return format == TL_TRT_DLA_HWC4 ? TL_TRT_DLA_INPUT : format == TL_TRT_DLA_LINEAR ? TL_TRT_DLA_ANY : TL_TRT_GPU;
}

/* The request that rebuilds d, if d is (still) what this file builds. */
static tl_status request_of(const tl_desc *d, req *r, tl_trt_runtime *rt)
{
    const tl_quant *q = &d->quant;
    if (d->vendor != TL_VENDOR_TRT) return tl_fail(TL_ERR_VENDOR_EXPORT, "not a TensorRT descriptor (TensorRT)");
    TL_TRY(tl_trt_runtime_info(d, rt));
    if (q->kind != TL_Q_NONE && (q->kind != TL_Q_AFFINE || q->zp != 0 || q->round != TL_ROUND_EVEN))
        return tl_fail(TL_ERR_VENDOR_EXPORT, "quantization kind=%d zp=%d round=%d: TensorRT needs symmetric affine, zp 0, round half to even (TensorRT)",
                       (int)q->kind, (int)q->zp, (int)q->round);
    memset(r, 0, sizeof *r);
    r->format = d->vendor_format;
    r->type = tl_trt_datatype_of((tl_dtype)d->dtype);
    r->rank = d->rank;
    memcpy(r->dims, d->dims, (size_t)d->rank * sizeof r->dims[0]);
    r->has_strides = true;
    memcpy(r->strides, rt->strides.d, sizeof r->strides);
    r->gen = (int32_t)d->vendor_params[0];
    r->role = (int32_t)d->vendor_params[1];
    return TL_OK;
}

static tl_status rebuild_matches(const tl_desc *d, req *r)
{
    tl_desc again;
    tl_status s = tl_trt_build(&again, r);
    if (s == TL_OK) {
        again.quant = d->quant;
        if (memcmp(&again, d, sizeof again) == 0) return TL_OK;
    }
    return tl_fail(TL_ERR_VENDOR_EXPORT, "descriptor says %s but its map is not what TensorRT %s has (changed after it was built?) (TensorRT)",
                   tl_trt_format_name(d->vendor_format), tl_trt_format_name(d->vendor_format));
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    req r;
    tl_trt_runtime rt;
    int64_t packed[TL_TRT_MAX_DIMS];
    geom g;
    TL_TRY(request_of(d, &r, &rt));
    TL_TRY(rebuild_matches(d, &r));
    const fmt_info *f = &tl_trt_fmts[r.format];
    tl_sb_printf(sb, "trt.%s:%s:", f->spec, tl_dtype_name((tl_dtype)d->dtype));
    tl_sb_i64_list(sb, d->dims, d->rank, "x");
    if (r.gen == TL_TRT_DLA_XAVIER) tl_sb_printf(sb, ":gen=xavier");
    if (r.role != default_role(r.format)) tl_sb_printf(sb, ":dla=%s", tl_trt_role_names[r.role]);
    tl_trt_geometry(f, r.dims, r.rank, &g);
    TL_TRY(tl_trt_packed_strides(&r, &g, packed));
    if (memcmp(packed, r.strides, (size_t)r.rank * sizeof packed[0]) != 0) {
        tl_sb_printf(sb, ":strides=");
        tl_sb_i64_list(sb, r.strides, r.rank, ",");
    }
    return TL_OK;
}

/* ---- describe --json and explain --------------------------------------------------- */

static void json_extra(const tl_desc *d, tl_strbuf *sb)
{
    tl_trt_runtime rt;
    int32_t type = tl_trt_datatype_of((tl_dtype)d->dtype), role = (int32_t)d->vendor_params[1];
    bool known = d->vendor_format >= 0 && d->vendor_format < TL_TRT_FORMAT_COUNT;
    tl_sb_printf(sb, ", \"trt_format\": \"%s\", \"trt_format_value\": %d, \"trt_datatype\": \"%s\"",
                 tl_trt_format_name(d->vendor_format), (int)d->vendor_format, tl_trt_datatype_name(type));
    if (tl_trt_runtime_info(d, &rt) == TL_OK) {
        tl_sb_printf(sb, ", \"trt_strides\": [");
        tl_sb_i64_list(sb, rt.strides.d, rt.strides.nbDims, ", ");
        tl_sb_printf(sb, "], \"trt_vectorized_dim\": %d, \"trt_components_per_element\": %d, \"trt_bytes_per_component\": %d",
                     (int)rt.vectorized_dim, (int)rt.components_per_element, (int)rt.bytes_per_component);
    } else {
        tl_sb_printf(sb, ", \"trt_strides\": null, \"trt_vectorized_dim\": null, \"trt_components_per_element\": null, \"trt_bytes_per_component\": null");
    }
    if (role > TL_TRT_GPU && role <= TL_TRT_DLA_ANY)
        tl_sb_printf(sb, ", \"trt_dla\": \"%s\", \"trt_dla_gen\": \"%s\"", tl_trt_role_names[role],
                     d->vendor_params[0] == TL_TRT_DLA_XAVIER ? "xavier" : "orin");
    else
        tl_sb_printf(sb, ", \"trt_dla\": null, \"trt_dla_gen\": null");
    tl_sb_printf(sb, ", \"trt_type_versions\": [");
    unsigned vm = known && type >= 0 ? tl_trt_type_versions(&tl_trt_fmts[d->vendor_format], type) : 0;
    for (int k = 0, n = 0; k < TL_TRT_NVER; k++)
        if (vm & (1u << k)) tl_sb_printf(sb, "%s\"%s\"", n++ ? ", " : "", tl_trt_ver_names[k]);
    tl_sb_printf(sb, "]");
}

/* "[N:1][C/32:2][H:3][W:5][C%32:32]": the physical axes with their extents. */
static void sb_memory(tl_strbuf *sb, const tl_desc *d)
{
    const tl_plane *p = &d->planes[0];
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        char l = d->labels[x->dim] ? d->labels[x->dim] : '?';
        if (x->block > 1) tl_sb_printf(sb, "[%c/%lld:%lld]", l, (long long)x->block, (long long)x->extent);
        else if (tl_trt_axes_of_dim(p, x->dim) > 1) tl_sb_printf(sb, "[%c%%%lld:%lld]", l, (long long)x->extent, (long long)x->extent);
        else tl_sb_printf(sb, "[%c:%lld]", l, (long long)x->extent);
    }
}

static void explain_kind(const tl_desc *d, const fmt_info *f, const tl_trt_runtime *rt, tl_strbuf *sb)
{
    int v = rt->vectorized_dim;
    int64_t V = rt->components_per_element;
    switch (f->kind) {
    case K_MAJOR:
        tl_sb_printf(sb, " Vector-major: C is split into %lld vector%s of %lld scalars, the scalars innermost",
                     (long long)((d->dims[v] + d->pad_hi[v]) / V), d->dims[v] + d->pad_hi[v] == V ? "" : "s", (long long)V);
        break;
    case K_MINOR:
    case K_DLA_HWC4:
        tl_sb_printf(sb, " %s: C is stored innermost", V > 1 ? "Vector-minor" : "Channel-last, unvectorized");
        break;
    default:
        tl_sb_printf(sb, " Row-major like a C array, W innermost");
    }
    int c = f->cpos ? d->rank - f->cpos : -1;
    if (c >= 0 && d->pad_hi[c])
        tl_sb_printf(sb, ", padded from C=%lld to %lld (%lld padding lane%s, zero-filled by converters)", (long long)d->dims[c],
                     (long long)(d->dims[c] + d->pad_hi[c]), (long long)d->pad_hi[c], d->pad_hi[c] == 1 ? "" : "s");
    tl_sb_printf(sb, ". Memory, outermost first: ");
    sb_memory(sb, d);
    tl_sb_printf(sb, ".");
}

static void explain_strides(const tl_desc *d, const tl_trt_runtime *rt, tl_strbuf *sb)
{
    int v = rt->vectorized_dim;
    tl_sb_printf(sb, " getTensorStrides reports [");
    tl_sb_i64_list(sb, rt->strides.d, rt->strides.nbDims, ", ");
    if (v < 0) {
        tl_sb_printf(sb, "] in elements (vectorized dim -1, components per element -1); scalar offset = sum of coordinate x stride.");
        return;
    }
    long long V = rt->components_per_element;
    tl_sb_printf(sb, "] in vectors of %lld scalars (vectorized dim %d = %c, %lld components per element); scalar offset = %lld x (sum over the other dims of coordinate x stride) + (%c/%lld) x %lld x %lld + %c%%%lld.",
                 V, v, d->labels[v], V, V, d->labels[v], V, (long long)rt->strides.d[v], V, d->labels[v], V);
}

/* Row bytes of kDLA_HWC4 under the developer guide's misreading (W rounded
 * to a multiple of align/elementSize, dropping /C'): N15, 4x too big for C'=4.
 * es >= 1; false when a product overflows int64. */
static bool hwc4_misread_row(int64_t w, int64_t px, int64_t es, int align, int64_t *row)
{
    return tl_rup_ok(w, align / es, row) && tl_mul_ok(*row, px, row);
}

static void explain_hwc4(const tl_desc *d, bool xavier, tl_strbuf *sb)
{
    int align = xavier ? 32 : 64;
    int64_t w = d->dims[d->rank - 1], c = d->dims[d->rank - 3], cp = c == 1 ? 1 : 4;
    int64_t es = tl_dtype_bits((tl_dtype)d->dtype) / 8, row = tl_trt_only_axis(d, d->rank - 2)->stride_bits / 8;
    /* Explain checks only the map (no rebuild), so a kDLA_HWC4 tag may sit on
     * a 4-bit type (es = 0, the DLA takes kHALF and kINT8) or on a W the map
     * bounds but the DLA's 8192 does not: each printed product is checked. */
    int64_t px = cp * es, bytes, misread; /* cp <= 4, es <= 8 */
    if (es == 0) {
        tl_sb_printf(sb, " The %s element has no whole byte size, so the kDLA_HWC4 row rules (in elementSize bytes) do "
                     "not apply; no runtime reports such a tensor (DLA takes kHALF or kINT8).",
                     tl_dtype_name((tl_dtype)d->dtype));
        return;
    }
    if (!tl_mul_ok(w, px, &bytes) || !hwc4_misread_row(w, px, es, align, &misread)) {
        tl_sb_printf(sb, " With W=%lld, W*C'*elementSize (or the row rounded up from it) overflows int64, not a tensor "
                     "the runtime reports (DLA limits W to %d).", (long long)w, TL_TRT_DLA_MAX_CHW);
        return;
    }
    tl_sb_printf(sb, " C=%lld is stored as C'=%lld lane%s per pixel; a row of W=%lld pixels (%lld bytes) takes %lld bytes: the header's roundUp(W, %d/C'/elementSize) pixels, i.e. the row rounded up to %d bytes.",
                 (long long)c, (long long)cp, cp == 1 ? "" : "s", (long long)w, (long long)bytes, (long long)row, align,
                 align);
    tl_sb_printf(sb, " The developer guide's \"multiple of %d/elementSize\" reading would give %lld-byte rows; tlayout follows the header.",
                 align, (long long)misread);
}

static void explain_dla(const tl_desc *d, const fmt_info *f, tl_strbuf *sb)
{
    int32_t role = (int32_t)d->vendor_params[1];
    bool xavier = d->vendor_params[0] == TL_TRT_DLA_XAVIER;
    if (role <= TL_TRT_GPU || role > TL_TRT_DLA_ANY) return;
    bool gen = f->kind == K_DLA_HWC4 || d->vendor_format == TL_TRT_CHW4; /* the only row rules that differ */
    tl_sb_printf(sb, " DLA %s tensor%s: C, H and W must lie in [1, %d], and padding must be zero.",
                 role == TL_TRT_DLA_ANY ? "I/O" : tl_trt_role_names[role], !gen ? "" : xavier ? " (Xavier)" : " (Orin)", TL_TRT_DLA_MAX_CHW);
    if (f->kind == K_DLA_LINEAR)
        tl_sb_printf(sb, " Each row of W=%lld elements is padded to %lld bytes (a multiple of 64).",
                     (long long)d->dims[d->rank - 1], (long long)(tl_trt_only_axis(d, d->rank - 2)->stride_bits / 8));
    if (f->kind == K_DLA_HWC4) explain_hwc4(d, xavier, sb);
}

static void explain(const tl_desc *d, tl_strbuf *sb)
{
    tl_trt_runtime rt;
    if (d->vendor_format < 0 || d->vendor_format >= TL_TRT_FORMAT_COUNT || tl_trt_runtime_info(d, &rt) != TL_OK) {
        tl_sb_printf(sb, "Not a valid TensorRT descriptor.");
        return;
    }
    const fmt_info *f = &tl_trt_fmts[d->vendor_format];
    int32_t type = tl_trt_datatype_of((tl_dtype)d->dtype);
    unsigned vm = type >= 0 ? tl_trt_type_versions(f, type) : 0;
    tl_sb_printf(sb, "TensorRT %s (TensorFormat %d) with %s (DataType %d), allowed for %s by TensorRT ", f->name,
                 (int)d->vendor_format, tl_trt_datatype_name(type), (int)type, f->name);
    tl_trt_sb_versions(sb, vm);
    if (vm != 7u) tl_sb_printf(sb, " only");
    tl_sb_printf(sb, ".");
    explain_kind(d, f, &rt, sb);
    explain_strides(d, &rt, sb);
    explain_dla(d, f, sb);
    if (d->quant.kind == TL_Q_AFFINE) {
        tl_sb_printf(sb, " Quantized symmetrically: real = q x ");
        tl_sb_float(sb, d->quant.scale);
        tl_sb_printf(sb, ", quantizing rounds half to even and saturates.");
    }
    tl_sb_printf(sb, " Buffer: %lld bytes.", (long long)d->size_bytes);
}

const tl_vendor_ops tl_trt_ops = {"trt", TL_VENDOR_TRT, parse, format, json_extra, explain};
