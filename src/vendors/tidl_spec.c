/* TI TIDL-RT's spec-text adapter: "tidl:DT:NxCxHxW" (or NxD1xD2xCxHxW) and
 * its options (pad padch cp bufsize layout, and TIDL's own quantization
 * defaults) to and from the model of tidl.c, and the "tidl" member of
 * describe --json and the sentences of `tlayout explain`. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "numerics/elem.h"
#include "core/internal.h"
#include "vendors/tidl_internal.h"

/* ---- spec strings: tidl:DT:NxCxHxW or NxD1xD2xCxHxW ------------------------ */

static tl_status opt_i32(tl_spec *sp, const char *key, int32_t *out)
{
    tl_spec_opt *o = tl_spec_take(sp, key);
    int64_t v;
    if (!o) return TL_OK;
    TL_TRY(tl_parse_i64(key, o->value, &v));
    if (v < INT32_MIN || v > INT32_MAX)
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: must fit the int32 field of sTIDL_IOBufDesc_t (TIDL)", key, o->value);
    *out = (int32_t)v;
    return TL_OK;
}

static tl_status spec_pads(tl_spec *sp, tl_tidl_buf *b)
{
    int64_t v[4];
    tl_spec_opt *o = tl_spec_take(sp, "pad");
    if (!o) return TL_OK;
    TL_TRY(tl_parse_i64_list("pad", o->value, v, 4, 4, NULL));
    for (int i = 0; i < 4; i++)
        if (v[i] < INT32_MIN || v[i] > INT32_MAX)
            return tl_fail(TL_ERR_SPEC_VALUE, "pad=%s: values (L,T,R,B) must fit int32 (TIDL)", o->value);
    b->pad_l = (int32_t)v[0];
    b->pad_t = (int32_t)v[1];
    b->pad_r = (int32_t)v[2];
    b->pad_b = (int32_t)v[3];
    return TL_OK;
}

static tl_status spec_layout(tl_spec *sp, tl_tidl_buf *b)
{
    tl_spec_opt *o = tl_spec_take(sp, "layout");
    if (!o) return TL_OK;
    if (strcmp(o->value, "nchw") == 0) b->layout = TL_TIDL_LT_NCHW;
    else if (strcmp(o->value, "nhwc") == 0) b->layout = TL_TIDL_LT_NHWC;
    else return tl_fail(TL_ERR_SPEC_VALUE, "layout=%s: TIDL layouts are nchw and nhwc (TIDL)", o->value);
    if (b->layout == TL_TIDL_LT_NHWC && b->channel_pitch)
        return tl_fail(TL_ERR_SPEC_OPTION, "cp= with layout=nhwc: an NHWC buffer is dense, it has no channel "
                       "pitch (TIDL)");
    return TL_OK;
}

static tl_status spec_dims(const tl_spec *sp, tl_tidl_buf *b)
{
    int32_t v[6];
    if (sp->ndims != 4 && sp->ndims != 6)
        return tl_fail(TL_ERR_RANK, "tidl spec has %d dims: expected NxCxHxW or NxD1xD2xCxHxW (TIDL)", sp->ndims);
    for (int i = 0; i < sp->ndims; i++) {
        if (sp->dims[i] > INT32_MAX)
            return tl_fail(TL_ERR_DIM, "dims[%d]=%lld: exceeds the int32 fields of sTIDL_IOBufDesc_t (TIDL)", i,
                           (long long)sp->dims[i]);
        v[i] = (int32_t)sp->dims[i];
    }
    int k = sp->ndims - 3;
    b->num_batches = v[0];
    b->dim1 = sp->ndims == 6 ? v[1] : 1;
    b->dim2 = sp->ndims == 6 ? v[2] : 1;
    b->num_channels = v[k];
    b->height = v[k + 1];
    b->width = v[k + 2];
    return TL_OK;
}

/* The core applies scale= after parse(), but with inverse-scale quantization it
 * becomes TensorScale, which must be normal (tl_tidl_geo_from_buf): check it here, or a
 * spec would parse to a descriptor that format() refuses. The core still
 * applies the option (taking it twice is harmless). */
static tl_status check_spec_scale(tl_spec *sp)
{
    tl_spec_opt *sc = tl_spec_take(sp, "scale");
    float s = 0.0f;
    if (!sc || tl_dtype_is_float(sp->dtype)) return TL_OK; /* float: the core rejects scale= */
    TL_TRY(tl_parse_f32("scale", sc->value, &s));
    if (!(isnormal(s) && s > 0.0f))
        return tl_fail(TL_ERR_QUANT, "scale=%s: an integer TIDL buffer needs a finite, normal scale > 0 "
                       "(TensorScale, q = real * scale; smallest %g) (TIDL)", sc->value, (double)FLT_MIN);
    return TL_OK;
}

static tl_status parse(tl_desc *out, tl_spec *sp)
{
    tl_tidl_buf b;
    if (*sp->vformat)
        return tl_fail(TL_ERR_SPEC_LAYOUT, "layout tidl.%s: TIDL has one spec layout, 'tidl' (use :layout=nhwc) (TIDL)",
                       sp->vformat);
    memset(&b, 0, sizeof b);
    b.index = -1;
    TL_TRY(tl_tidl_element_type_of(sp->dtype, &b.element_type));
    TL_TRY(spec_dims(sp, &b));
    TL_TRY(spec_pads(sp, &b));
    TL_TRY(opt_i32(sp, "padch", &b.pad_ch));
    TL_TRY(opt_i32(sp, "cp", &b.channel_pitch));
    TL_TRY(opt_i32(sp, "bufsize", &b.buf_size));
    TL_TRY(spec_layout(sp, &b));
    /* Scale 1 until the core applies scale= and zp= (TIDL's "no scaling"). */
    b.tensor_scale = 1.0f;
    TL_TRY(tl_desc_from_tidl(out, &b, sp->ndims == 6 ? TL_TIDL_DESC_6D : 0));
    /* Another kind (q=none/affine/dfp) starts from no scale and zero point;
     * the core then applies q= and the other quantization options. */
    tl_spec_opt *q = tl_spec_take(sp, "q");
    if (q && strcmp(q->value, "inv") != 0) {
        out->quant.scale = 0.0f;
        out->quant.zp = 0;
    } else {
        TL_TRY(check_spec_scale(sp));
    }
    return TL_OK;
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    tl_tidl_buf b;
    tidl_geo g;
    TL_TRY(tl_tidl_geo_of_desc(d, &b, &g));
    tl_sb_printf(sb, "tidl:%s:", tl_dtype_name((tl_dtype)d->dtype));
    tl_sb_i64_list(sb, d->dims, d->rank, "x");
    if (b.pad_l || b.pad_t || b.pad_r || b.pad_b)
        tl_sb_printf(sb, ":pad=%d,%d,%d,%d", (int)b.pad_l, (int)b.pad_t, (int)b.pad_r, (int)b.pad_b);
    if (b.pad_ch) tl_sb_printf(sb, ":padch=%d", (int)b.pad_ch);
    if (!g.nhwc && g.cp != g.plane) tl_sb_printf(sb, ":cp=%lld", (long long)g.cp);
    if (b.buf_size) tl_sb_printf(sb, ":bufsize=%d", (int)b.buf_size);
    if (g.nhwc) tl_sb_printf(sb, ":layout=nhwc");
    /* The core prints quantization that differs from its own defaults; these
     * two differ from TIDL's (inverse scale, rounding toward zero). */
    if (!tl_dtype_is_float(g.dt)) {
        if (d->quant.kind == TL_Q_NONE) tl_sb_printf(sb, ":q=none");
        if (d->quant.round == TL_ROUND_EVEN) tl_sb_printf(sb, ":round=even");
    }
    return TL_OK;
}

/* ---- describe --json and explain ------------------------------------------ */

static bool geo_of_desc(const tl_desc *d, tl_tidl_buf *b, tidl_geo *g)
{
    bool ok = tl_tidl_geo_of_desc(d, b, g) == TL_OK;
    if (!ok) tl_clear_error();
    return ok;
}

static int64_t first_valid(const tidl_geo *g)
{
    return g->pad[1] * g->lp + g->pad[0];
}

static void json_extra(const tl_desc *d, tl_strbuf *sb)
{
    tl_tidl_buf b;
    tidl_geo g;
    int64_t alloc = 0;
    if (!geo_of_desc(d, &b, &g)) return;
    if (tl_tidl_input_alloc(&g, d->size_bytes, &alloc) != TL_OK) {
        tl_clear_error();
        alloc = -1; /* printed as null */
    }
    /* NHWC (dense): the element steps of H and C, and one image */
    int64_t lp = g.nhwc ? g.w * g.c : g.lp, cp = g.nhwc ? 1 : g.cp, plane = g.nhwc ? g.d2p : g.plane;
    tl_sb_printf(sb, ", \"tidl\": {\"layout\": \"%s\", \"element_type\": %d, \"element_type_name\": \"%s\", "
                 "\"pitch_unit\": \"elements\", \"line_pitch\": %lld, \"channel_pitch\": %lld, "
                 "\"padded_plane\": %lld, \"dim2_pitch\": %lld, \"dim1_pitch\": %lld, \"batch_pitch\": %lld, ",
                 g.nhwc ? "NHWC" : "NCHW", (int)b.element_type, tl_tidl_element_type_name(b.element_type),
                 (long long)lp, (long long)cp, (long long)plane, (long long)g.d2p, (long long)g.d1p, (long long)g.bp);
    tl_sb_printf(sb, "\"pad\": [%lld, %lld, %lld, %lld], \"pad_ch\": %lld, \"buf_size\": %lld, "
                 "\"first_valid_element\": %lld, \"first_valid_byte\": %lld, \"shared_padding_rows\": %s, ",
                 (long long)g.pad[0], (long long)g.pad[1], (long long)g.pad[2], (long long)g.pad[3],
                 (long long)g.pad_ch, (long long)g.buf_size, (long long)first_valid(&g),
                 (long long)(first_valid(&g) * g.ebits / 8), g.shared_rows ? "true" : "false");
    if (alloc < 0) tl_sb_printf(sb, "\"input_alloc_bytes\": null}");
    else tl_sb_printf(sb, "\"input_alloc_bytes\": %lld}", (long long)alloc);
}

/* Sentences start with a space (explain() opens without one). */
static void explain_pitches(const tidl_geo *g, tl_strbuf *sb)
{
    int64_t es = g->ebits / 8, hp = g->h + g->pad[1] + g->pad[3], base = first_valid(g);
    bool six = g->d1 > 1 || g->d2 > 1;
    tl_sb_printf(sb, " Line pitch lp = Width + PadL + PadR = %lld + %lld + %lld = %lld elements (%lld bytes).",
                 (long long)g->w, (long long)g->pad[0], (long long)g->pad[2], (long long)g->lp,
                 (long long)(g->lp * es));
    tl_sb_printf(sb, " Channel pitch cp = %lld elements (%lld bytes)", (long long)g->cp, (long long)(g->cp * es));
    if (g->cp == g->plane)
        tl_sb_printf(sb, ", exactly the padded plane lp x (Height + PadT + PadB) = %lld x %lld.", (long long)g->lp,
                     (long long)hp);
    else if (g->cp > g->plane)
        tl_sb_printf(sb, "; the padded plane lp x (Height + PadT + PadB) is %lld, so %lld elements of slack follow "
                     "each channel.", (long long)g->plane, (long long)(g->cp - g->plane));
    else
        tl_sb_printf(sb, ", below the padded plane %lld: neighbouring channels share padding rows, so the "
                     "descriptor is read-only.", (long long)g->plane);
    tl_sb_printf(sb, " The first valid element is at PadT x lp + PadL = %lld x %lld + %lld = %lld elements "
                 "(byte %lld).",
                 (long long)g->pad[1], (long long)g->lp, (long long)g->pad[0], (long long)base, (long long)(base * es));
    if (base != g->pad[1] + g->pad[0])
        tl_sb_printf(sb, " TI's I/O tensor document starts at PadT + PadL = %lld instead, which is wrong "
                     "(bug B1 in docs/sources.md).", (long long)(g->pad[1] + g->pad[0]));
    tl_sb_printf(sb, " Element (n,%sc,h,w) is at %lld + n x %lld", six ? "d1,d2," : "", (long long)base,
                 (long long)g->bp);
    if (six) tl_sb_printf(sb, " + d1 x %lld + d2 x %lld", (long long)g->d1p, (long long)g->d2p);
    tl_sb_printf(sb, " + c x %lld + h x %lld + w elements.", (long long)g->cp, (long long)g->lp);
}

static void explain_input_alloc(const tidl_geo *g, int64_t size_bytes, tl_strbuf *sb)
{
    int64_t alloc = 0;
    if (tl_tidl_input_alloc(g, size_bytes, &alloc) != TL_OK) {
        tl_clear_error();
        return;
    }
    if (g->buf_size)
        tl_sb_printf(sb, " An input buffer needs exactly BufSize: TIDL reads one padded plane past the last channel, "
                     "and BufSize already counts it.");
    else if (alloc > size_bytes)
        tl_sb_printf(sb, " An input buffer needs %lld bytes, not %lld: TIDL reads one padded plane past the last "
                     "channel, so allocate N x DIM1 x DIM2 x (NumChannels + 1) channel pitches, as TI's test bench "
                     "does (tl_tidl_input_alloc_size); outputs need %lld.", (long long)alloc, (long long)size_bytes,
                     (long long)size_bytes);
}

static void explain_quant(const tl_quant *q, tl_strbuf *sb)
{
    if (q->kind != TL_Q_INV) return;
    bool trunc = q->round == TL_ROUND_ZERO;
    tl_sb_printf(sb, " TensorScale maps real values to codes: q = %s(real x ", trunc ? "trunc" : "round");
    tl_sb_float(sb, q->scale);
    if (q->zp) tl_sb_printf(sb, " + %d", (int)q->zp);
    bool divide = q->dequant == TL_DEQ_DIVIDE;
    tl_sb_printf(sb, "), saturated%s; and real = %s", trunc ? " (TIDL-RT truncates toward zero)" : "",
                 q->zp ? "(q - zp)" : "q");
    tl_sb_printf(sb, divide ? " / " : " x (1.0f / ");
    tl_sb_float(sb, q->scale);
    tl_sb_printf(sb, divide ? " (dequant=divide: the quotient rounded once)." : "), the f32 reciprocal rounded once "
                 "and multiplied, bit for bit as TIDL-RT's output conversion.");
    if (q->zp) tl_sb_printf(sb, " TI's own conversion ignores the descriptor's zero point (%d).", (int)q->zp);
}

static void explain(const tl_desc *d, tl_strbuf *sb)
{
    tl_tidl_buf b;
    tidl_geo g;
    if (!geo_of_desc(d, &b, &g)) return;
    tl_sb_printf(sb, "TI TIDL-RT buffer, element type %s (%d), layout %s.", tl_tidl_element_type_name(b.element_type),
                 (int)b.element_type, tl_tidl_layout_name(b.layout));
    if (g.nhwc)
        tl_sb_printf(sb, " NHWC buffers are dense: TI documents no padded NHWC geometry, so tlayout accepts NHWC "
                     "only without padding.");
    else
        explain_pitches(&g, sb);
    if (g.buf_size)
        tl_sb_printf(sb, " Size: BufSize %lld elements x %lld bytes = %lld bytes.", (long long)g.buf_size,
                     (long long)(g.ebits / 8), (long long)d->size_bytes);
    else if (d->size_bytes == g.n * g.bp * g.ebits / 8)
        tl_sb_printf(sb, " Size: NumBatches x batch pitch x es = %lld x %lld x %lld = %lld bytes.", (long long)g.n,
                     (long long)g.bp, (long long)(g.ebits / 8), (long long)d->size_bytes);
    else
        tl_sb_printf(sb, " Size: %lld bytes, more than NumBatches x batch pitch x es = %lld, because the last "
                     "channel's padding rows reach past it.", (long long)d->size_bytes,
                     (long long)(g.n * g.bp * g.ebits / 8));
    explain_input_alloc(&g, d->size_bytes, sb);
    explain_quant(&d->quant, sb);
    if (!g.nhwc)
        tl_sb_printf(sb, " TI requires the application to zero the padding of input buffers once "
                     "(tl_tidl_zero_padding).");
}

const tl_vendor_ops tl_tidl_ops = {"tidl", TL_VENDOR_TIDL, parse, format, json_extra, explain};
