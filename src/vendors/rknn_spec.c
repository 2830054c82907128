/* RKNN's spec-text adapter: rknn.nc1hwc2 / rknn.nhwc / rknn.nchw /
 * rknn.undefined strings and their options (wstride hstride size platform c
 * c2) to and from the model of rknn.c, and the rknn_* members of describe
 * --json and the sentences of `tlayout explain`. */
#include <stdbool.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/rknn_internal.h"

/* ---- spec strings ------------------------------------------------------------------ */
static tl_status parse_pos(const tl_spec_opt *o, int64_t *v)
{
    TL_TRY(tl_parse_i64(o->key, o->value, v));
    if (*v < 1) return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: must be >= 1 (rknn)", o->key, o->value);
    return TL_OK;
}

static tl_status opt_i64(tl_spec *sp, const char *key, int64_t *v)
{
    tl_spec_opt *o = tl_spec_take(sp, key);
    return o ? parse_pos(o, v) : TL_OK;
}

/* The native dims NxC1xHxWxC2 with c=C (as the runtime reports them), or the
 * logical NxCxHxW with c2=C2 or C2 from platform= (Table 4-6). */
static tl_status parse_nc1hwc2_dims(tl_spec *sp, rk_geom *g)
{
    tl_spec_opt *co = tl_spec_take(sp, "c"), *c2o = tl_spec_take(sp, "c2");
    int64_t c2 = 0;
    if (g->rank == 5) {
        if (c2o) return tl_fail(TL_ERR_SPEC_OPTION, "c2=%s: with 5 dims NxC1xHxWxC2, C2 is dims[4] (rknn)", c2o->value);
        if (!co)
            return tl_fail(TL_ERR_SPEC_OPTION, "rknn.nc1hwc2 needs c=C, the true channel count (from the "
                           "non-native attr; C1*C2 includes padding channels) (rknn)");
        return tl_parse_i64("c", co->value, &g->c);
    }
    if (g->rank != 4)
        return tl_fail(TL_ERR_SPEC_VALUE, "rknn.nc1hwc2 takes the native dims NxC1xHxWxC2 (with c=C) or the logical "
                       "NxCxHxW (with c2=C2), got %d dims (rknn)", g->rank);
    if (co) return tl_fail(TL_ERR_SPEC_OPTION, "c=%s: with 4 logical dims NxCxHxW, C is dims[1] (rknn)", co->value);
    if (c2o) TL_TRY(parse_pos(c2o, &c2));
    else if (g->platform) TL_TRY(tl_rknn_c2((tl_rknn_platform)g->platform, g->dt, &c2));
    else return tl_fail(TL_ERR_SPEC_OPTION, "rknn.nc1hwc2 with 4 logical dims NxCxHxW needs c2=C2 or platform= (rknn)");
    const int64_t native[5] = {g->dims[0], tl_rknn_cdiv_pos(g->dims[1], c2), g->dims[2], g->dims[3], c2};
    g->c = g->dims[1];
    memcpy(g->dims, native, sizeof native);
    g->rank = 5;
    return TL_OK;
}

static tl_status spec_fmt(const char *vformat, int *fmt)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(vformat, tl_rknn_fmt_names[i]) == 0) {
            *fmt = i;
            return TL_OK;
        }
    return tl_fail(TL_ERR_SPEC_LAYOUT, "layout rknn.%s: expected rknn.nc1hwc2, rknn.nhwc, rknn.nchw or "
                   "rknn.undefined (rknn)", vformat);
}

/* Quantized RKNN tensors round ties away from zero (RKNPU User Guide 1.5.2). */
static bool spec_has_quant(const tl_spec *sp)
{
    static const char *const keys[] = {"q", "zp", "scale", "fl"};
    bool any = false, round = false;
    for (int i = 0; i < sp->nopts; i++) {
        for (int k = 0; k < 4; k++) any |= strcmp(sp->opts[i].key, keys[k]) == 0;
        round |= strcmp(sp->opts[i].key, "round") == 0;
    }
    return any && !round;
}

static tl_status parse(tl_desc *out, tl_spec *sp)
{
    rk_geom g;
    memset(&g, 0, sizeof g);
    TL_TRY(spec_fmt(sp->vformat, &g.fmt));
    g.dt = sp->dtype;
    if (sp->ndims > TL_MAX_DIMS) return tl_fail(TL_ERR_RANK, "%d dims: at most %d (rknn)", sp->ndims, TL_MAX_DIMS);
    g.rank = sp->ndims;
    memcpy(g.dims, sp->dims, (size_t)g.rank * sizeof g.dims[0]);
    if (g.fmt != TL_RKNN_TENSOR_UNDEFINED && (g.fmt == TL_RKNN_TENSOR_NC1HWC2 || g.rank == 4)) {
        TL_TRY(opt_i64(sp, "wstride", &g.w_stride));
        if (g.fmt != TL_RKNN_TENSOR_NC1HWC2) TL_TRY(opt_i64(sp, "hstride", &g.h_stride));
        tl_spec_opt *pl = tl_spec_take(sp, "platform");
        tl_rknn_platform p = TL_RKNN_PLATFORM_NONE;
        if (pl) TL_TRY(tl_rknn_platform_from_name(pl->value, &p));
        g.platform = (int)p;
    }
    if (g.fmt == TL_RKNN_TENSOR_NC1HWC2) TL_TRY(parse_nc1hwc2_dims(sp, &g));
    TL_TRY(opt_i64(sp, "size", &g.size));
    tl_desc_clear(out);
    if (spec_has_quant(sp)) out->quant.round = TL_ROUND_AWAY;
    return tl_rknn_build(out, &g);
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    const int64_t *P = d->vendor_params;
    int fmt = d->vendor_format;
    if (fmt < 0 || fmt >= TL_RKNN_TENSOR_FORMAT_MAX)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "vendor_format=%d: not an rknn_tensor_format (rknn)", fmt);
    tl_sb_printf(sb, "rknn.%s:%s:", tl_rknn_fmt_names[fmt], tl_dtype_name((tl_dtype)d->dtype));
    if (fmt == TL_RKNN_TENSOR_NC1HWC2) {
        const int64_t native[5] = {d->dims[0], P[TL_RKNN_P_C1], d->dims[2], d->dims[3], P[TL_RKNN_P_C2]};
        tl_sb_i64_list(sb, native, 5, "x");
        tl_sb_printf(sb, ":c=%lld", (long long)d->dims[1]);
    } else {
        tl_sb_i64_list(sb, d->dims, d->rank, "x");
    }
    if (P[TL_RKNN_P_W_STRIDE]) tl_sb_printf(sb, ":wstride=%lld", (long long)P[TL_RKNN_P_W_STRIDE]);
    if (P[TL_RKNN_P_H_STRIDE]) tl_sb_printf(sb, ":hstride=%lld", (long long)P[TL_RKNN_P_H_STRIDE]);
    if (P[TL_RKNN_P_SIZE]) tl_sb_printf(sb, ":size=%lld", (long long)P[TL_RKNN_P_SIZE]);
    if (P[TL_RKNN_P_PLATFORM])
        tl_sb_printf(sb, ":platform=%s", tl_rknn_platform_spec_name((tl_rknn_platform)P[TL_RKNN_P_PLATFORM]));
    const tl_quant *q = &d->quant; /* the core prints these; the parser then presets round=away */
    bool quant_printed = q->kind != TL_Q_NONE || q->scale != 0.0f || q->zp || q->fl;
    if (quant_printed && q->round == TL_ROUND_EVEN) tl_sb_printf(sb, ":round=even");
    return TL_OK;
}

/* ---- describe --json and explain ------------------------------------------------------ */
static void native_dims(const tl_desc *d, int64_t *out, int *n)
{
    if (d->vendor_format == TL_RKNN_TENSOR_NC1HWC2) {
        const int64_t v[5] = {d->dims[0], d->vendor_params[TL_RKNN_P_C1], d->dims[2], d->dims[3],
                              d->vendor_params[TL_RKNN_P_C2]};
        memcpy(out, v, sizeof v);
        *n = 5;
    } else {
        memcpy(out, d->dims, (size_t)d->rank * sizeof d->dims[0]);
        *n = d->rank;
    }
}

static void json_extra(const tl_desc *d, tl_strbuf *sb)
{
    int64_t nd[TL_MAX_DIMS];
    int n;
    int fmt = d->vendor_format >= 0 && d->vendor_format < 4 ? d->vendor_format : TL_RKNN_TENSOR_UNDEFINED;
    static const char *const upper[] = {"NCHW", "NHWC", "NC1HWC2", "UNDEFINED"};
    native_dims(d, nd, &n);
    tl_sb_printf(sb, ", \"rknn_fmt\": \"%s\", \"rknn_native_dims\": [", upper[fmt]);
    tl_sb_i64_list(sb, nd, n, ", ");
    tl_sb_printf(sb, "], \"rknn_c2\": ");
    if (fmt == TL_RKNN_TENSOR_NC1HWC2) tl_sb_printf(sb, "%lld", (long long)d->vendor_params[TL_RKNN_P_C2]);
    else tl_sb_printf(sb, "null");
    tl_sb_printf(sb, ", \"rknn_w_stride\": %lld, \"rknn_h_stride\": %lld, \"rknn_size_with_stride\": %lld",
                 (long long)d->vendor_params[TL_RKNN_P_W_STRIDE], (long long)d->vendor_params[TL_RKNN_P_H_STRIDE],
                 (long long)d->size_bytes);
    int64_t p = d->vendor_params[TL_RKNN_P_PLATFORM];
    if (p) tl_sb_printf(sb, ", \"rknn_platform\": \"%s\"", tl_rknn_platform_name((tl_rknn_platform)p));
    else tl_sb_printf(sb, ", \"rknn_platform\": null");
}

static void explain_nc1hwc2(const tl_desc *d, tl_strbuf *sb)
{
    long long n = d->dims[0], c = d->dims[1], h = d->dims[2], w = d->dims[3];
    long long c1 = d->vendor_params[TL_RKNN_P_C1], c2 = d->vendor_params[TL_RKNN_P_C2];
    /* every product printed below, each checked (a zero factor makes the
     * whole product fit while a partial one overflows) */
    int64_t wr, row, blk, bat, chans;
    if (!tl_add_ok(w, d->pad_hi[3], &wr) || !tl_mul_ok(wr, c2, &row) || !tl_mul_ok(h, row, &blk) ||
        !tl_mul_ok(c1, blk, &bat) || !tl_mul_ok(c1, c2, &chans)) { /* no valid RKNN tensor */
        tl_sb_printf(sb, "RKNN NC1HWC2 with C1=%lld, C2=%lld: C1*H*w_stride*C2 (or a part of it) overflows int64, "
                     "not a tensor the runtime reports. ", c1, c2);
        return;
    }
    tl_sb_printf(sb, "RKNN NC1HWC2, the NPU's native layout (User Guide 1.5.2 §4.4.5.3): the runtime reports dims "
                 "[%lld, %lld, %lld, %lld, %lld] = [N, C1, H, W, C2]. ", n, c1, h, w, c2);
    tl_sb_printf(sb, "The %lld true channels (from the non-native attr) are stored in C1=%lld blocks of C2=%lld", c, c1,
                 c2);
    if (chans > c) tl_sb_printf(sb, "; channels %lld..%lld are padding", c, (long long)chans - 1);
    tl_sb_printf(sb, ". Memory order, fastest first: C2, W, H, C1, N. ");
    if (wr > w) tl_sb_printf(sb, "Rows hold w_stride=%lld pixels, %lld of them valid. ", (long long)wr, w);
    tl_sb_printf(sb, "Element (n,c,h,w) is at (((n*%lld + c/%lld)*%lld + h)*%lld + w)*%lld + c%%%lld elements: "
                 "pixels are %lld elements apart, rows %lld, channel blocks %lld, batches %lld. ", c1, c2, h,
                 (long long)wr, c2, c2, c2, (long long)row, (long long)blk, (long long)bat);
    tl_sb_printf(sb, "Per-channel offsets precomputed once (tl_rknn_view) keep divisions out of a post-processing "
                 "loop; the pixel stride is C2, not W*C2. ");
}

static void explain(const tl_desc *d, tl_strbuf *sb)
{
    const int64_t *P = d->vendor_params;
    if (d->vendor_format == TL_RKNN_TENSOR_NC1HWC2) {
        explain_nc1hwc2(d, sb);
    } else if (d->rank == 4 && d->vendor_format != TL_RKNN_TENSOR_UNDEFINED) {
        bool nhwc = d->vendor_format == TL_RKNN_TENSOR_NHWC;
        int hd = nhwc ? 1 : 2, wd = nhwc ? 2 : 3;
        tl_sb_printf(sb, "RKNN %s tensor. Rows hold %lld pixels (w_stride; %lld valid) and each batch image %lld rows "
                     "(h_stride; %lld valid); the padding is part of the buffer. ", nhwc ? "NHWC" : "NCHW",
                     (long long)(d->dims[wd] + d->pad_hi[wd]), (long long)d->dims[wd],
                     (long long)(d->dims[hd] + d->pad_hi[hd]), (long long)d->dims[hd]);
    } else {
        tl_sb_printf(sb, "RKNN tensor stored dense, row-major. ");
    }
    tl_sb_printf(sb, "Allocate size_with_stride = %lld bytes", (long long)d->size_bytes);
    if (P[TL_RKNN_P_SIZE]) tl_sb_printf(sb, " (as the attr reports)");
    tl_sb_printf(sb, ".");
    if (P[TL_RKNN_P_PLATFORM])
        tl_sb_printf(sb, " Checked against %s.", tl_rknn_platform_name((tl_rknn_platform)P[TL_RKNN_P_PLATFORM]));
    if (d->quant.kind == TL_Q_AFFINE)
        tl_sb_printf(sb, " Quantized AFFINE_ASYMMETRIC: real = (q - zp) * scale; `tlayout threshold` gives the code "
                     "a confidence threshold maps to.");
    else if (d->quant.kind == TL_Q_DFP)
        tl_sb_printf(sb, " Quantized DFP: real = q * 2^-fl (not q * 2^fl).");
}

const tl_vendor_ops tl_rknn_ops = {"rknn", TL_VENDOR_RKNN, parse, format, json_extra, explain};
