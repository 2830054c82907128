/* RKNN's model: descriptors from native attrs (rknn_api.h 2.3.2, RKNPU User Guide 1.5.2).
 *
 * NC1HWC2 is the generic blocked model: logical N,C,H,W with C padded up to
 * C1*C2 and W up to the stored row length Wr, axes N C(block C2) H W C(inner C2),
 * exactly like NCHW16c. NHWC/NCHW carry w_stride/h_stride as padding of W/H.
 * The attr mirror, types and platform table live in rknn_attr.c, the
 * post-processing helpers in rknn_post.c, the spec text (rknn.FORMAT:...),
 * describe --json and explain in rknn_spec.c. */
#include <float.h>
#include <math.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/rknn_internal.h"

const char *const tl_rknn_fmt_names[4] = {"nchw", "nhwc", "nc1hwc2", "undefined"};

static tl_status check_geom_dims(const rk_geom *g)
{
    if (g->rank < 1 || g->rank > TL_MAX_DIMS)
        return tl_fail(TL_ERR_RANK, "n_dims=%d: tlayout handles 1..%d dims (rknn)", g->rank, TL_MAX_DIMS);
    for (int i = 0; i < g->rank; i++)
        if (g->dims[i] < 1)
            return tl_fail(TL_ERR_DIM, "dims[%d]=%lld: a dim must be >= 1 (rknn)", i, (long long)g->dims[i]);
    if (tl_dtype_bits(g->dt) == 0) return tl_fail(TL_ERR_DTYPE, "dtype=%d: not a tl_dtype (rknn)", (int)g->dt);
    tl_rknn_tensor_type t = TL_RKNN_TENSOR_INT8;
    return tl_rknn_dtype_to_type(g->dt, &t);
}

static void set_axis(tl_plane *p, int dim, int64_t block, int64_t extent)
{
    p->axes[p->naxes++] = (tl_axis){.dim = dim, .block = block, .extent = extent, .stride_bits = 0};
}

/* Dense strides from the extents, then the declared size (size_with_stride). */
static tl_status finish(tl_desc *d, const rk_geom *g)
{
    TL_TRY(tl_desc_restride(d, NULL));
    if (g->size) {
        if (g->size < d->size_bytes)
            return tl_fail(TL_ERR_SIZE, "size_with_stride=%lld < %lld bytes the %s layout spans (rknn)",
                           (long long)g->size, (long long)d->size_bytes, tl_rknn_fmt_names[g->fmt]);
        d->size_bytes = g->size;
    }
    d->vendor = TL_VENDOR_RKNN;
    d->vendor_format = g->fmt;
    d->vendor_params[TL_RKNN_P_W_STRIDE] = g->w_stride;
    d->vendor_params[TL_RKNN_P_H_STRIDE] = g->h_stride;
    d->vendor_params[TL_RKNN_P_SIZE] = g->size;
    d->vendor_params[TL_RKNN_P_PLATFORM] = g->platform;
    return TL_OK;
}

/* Stored row length: w_stride when given, which must hold the row. */
static tl_status stored_len(const char *what, int64_t stride, int64_t valid, int64_t *out)
{
    if (stride != 0 && stride < valid)
        return tl_fail(TL_ERR_VENDOR, "%s=%lld < %lld: the stride counts valid plus padding %s (rknn)", what,
                       (long long)stride, (long long)valid, what[0] == 'w' ? "pixels" : "rows");
    *out = stride ? stride : valid;
    return TL_OK;
}

static tl_status check_c2(const rk_geom *g, int64_t c2)
{
    int64_t want = 0;
    if (!g->platform) return TL_OK;
    TL_TRY(tl_rknn_c2((tl_rknn_platform)g->platform, g->dt, &want));
    if (c2 != want)
        return tl_fail(TL_ERR_VENDOR, "C2=dims[4]=%lld: Table 4-6 gives C2=%lld for %s on %s (rknn)", (long long)c2,
                       (long long)want, tl_dtype_name(g->dt), tl_rknn_platform_name((tl_rknn_platform)g->platform));
    return TL_OK;
}

static tl_status build_nc1hwc2(tl_desc *d, const rk_geom *g)
{
    if (g->rank != 5)
        return tl_fail(TL_ERR_VENDOR, "NC1HWC2 has n_dims=5 (N,C1,H,W,C2), got %d (rknn)", g->rank);
    int64_t n = g->dims[0], c1 = g->dims[1], h = g->dims[2], w = g->dims[3], c2 = g->dims[4], wr = 0, cp;
    if (g->c < 1)
        return tl_fail(TL_ERR_VENDOR, "c=%lld: NC1HWC2 needs the true channel count C >= 1 from the non-native attr "
                       "(it is not in the native dims) (rknn)", (long long)g->c);
    if (tl_rknn_cdiv_pos(g->c, c2) != c1)
        return tl_fail(TL_ERR_VENDOR, "c=%lld: C1=dims[1]=%lld must be cdiv(C,C2)=cdiv(%lld,%lld)=%lld (rknn)",
                       (long long)g->c, (long long)c1, (long long)g->c, (long long)c2,
                       (long long)tl_rknn_cdiv_pos(g->c, c2));
    if (g->h_stride != 0 && g->h_stride != h)
        return tl_fail(TL_ERR_VENDOR, "h_stride=%lld on NC1HWC2: h_stride pads NHWC/NCHW batch images only (rknn)",
                       (long long)g->h_stride);
    TL_TRY(stored_len("w_stride", g->w_stride, w, &wr));
    TL_TRY(check_c2(g, c2));
    if (!tl_mul_ok(c1, c2, &cp)) return tl_fail(TL_ERR_OVERFLOW, "C1*C2 overflows int64 (rknn)");
    tl_desc_clear(d);
    d->rank = 4;
    d->dtype = g->dt;
    memcpy(d->labels, "NCHW", 4);
    const int64_t logical[4] = {n, g->c, h, w};
    memcpy(d->dims, logical, sizeof logical);
    d->pad_hi[1] = cp - g->c;
    d->pad_hi[3] = wr - w;
    tl_plane *p = &d->planes[0];
    set_axis(p, 0, 1, n);
    set_axis(p, 1, c2, c1); /* one C2 block per C1 step; C2 == 1 is plain C */
    set_axis(p, 2, 1, h);
    set_axis(p, 3, 1, wr);
    if (c2 > 1) set_axis(p, 1, 1, c2);
    else p->axes[1].block = 1;
    d->vendor_params[TL_RKNN_P_C1] = c1;
    d->vendor_params[TL_RKNN_P_C2] = c2;
    return finish(d, g);
}

/* NHWC / NCHW, 4 dims: w_stride pads W, h_stride pads H (rknn_api.h). */
static tl_status build_4d(tl_desc *d, const rk_geom *g)
{
    bool nhwc = g->fmt == TL_RKNN_TENSOR_NHWC;
    const char *order = nhwc ? "NHWC" : "NCHW";
    int hdim = nhwc ? 1 : 2, wdim = nhwc ? 2 : 3;
    int64_t ws = 0, hs = 0;
    TL_TRY(stored_len("w_stride", g->w_stride, g->dims[wdim], &ws));
    TL_TRY(stored_len("h_stride", g->h_stride, g->dims[hdim], &hs));
    int64_t align = tl_rknn_platform_align((tl_rknn_platform)g->platform);
    if (ws % align != 0)
        return tl_fail(TL_ERR_VENDOR, "row of %lld pixels (w_stride or W) on %s: zero-copy input rows are %lld-pixel "
                       "aligned (rknn)", (long long)ws, tl_rknn_platform_name((tl_rknn_platform)g->platform),
                       (long long)align);
    tl_desc_clear(d);
    d->rank = 4;
    d->dtype = g->dt;
    memcpy(d->labels, order, 4);
    memcpy(d->dims, g->dims, 4 * sizeof g->dims[0]);
    d->pad_hi[wdim] = ws - g->dims[wdim];
    d->pad_hi[hdim] = hs - g->dims[hdim];
    for (int i = 0; i < 4; i++) set_axis(&d->planes[0], i, 1, tl_padded_dim(d, i));
    return finish(d, g);
}

/* Any other rank, or UNDEFINED: dense row-major, unlabelled. */
static tl_status build_plain(tl_desc *d, const rk_geom *g)
{
    if (g->w_stride || g->h_stride)
        return tl_fail(TL_ERR_VENDOR, "w_stride=%lld h_stride=%lld on a %d-dim %s tensor: strides need 4 dims (rknn)",
                       (long long)g->w_stride, (long long)g->h_stride, g->rank, tl_rknn_fmt_names[g->fmt]);
    tl_desc_clear(d);
    d->rank = g->rank;
    d->dtype = g->dt;
    memcpy(d->dims, g->dims, (size_t)g->rank * sizeof g->dims[0]);
    for (int i = 0; i < g->rank; i++) set_axis(&d->planes[0], i, 1, g->dims[i]);
    return finish(d, g);
}

/* Strides equal to the dims they pad say nothing: 0, so that an attr (or a
 * spec) with w_stride == W gives the same descriptor as one without. */
static void normalise_strides(rk_geom *g)
{
    int wdim = -1, hdim = -1;
    if (g->fmt == TL_RKNN_TENSOR_NC1HWC2 && g->rank == 5) wdim = 3, hdim = 2;
    else if (g->fmt == TL_RKNN_TENSOR_NHWC && g->rank == 4) wdim = 2, hdim = 1;
    else if (g->fmt == TL_RKNN_TENSOR_NCHW && g->rank == 4) wdim = 3, hdim = 2;
    else if (g->rank >= 1) wdim = g->rank - 1, hdim = g->rank - 2;
    if (wdim >= 0 && g->w_stride == g->dims[wdim]) g->w_stride = 0;
    if (hdim >= 0 && g->h_stride == g->dims[hdim]) g->h_stride = 0;
}

/* Build into *out only when everything is valid. */
tl_status tl_rknn_build(tl_desc *out, const rk_geom *given)
{
    tl_desc d;
    rk_geom norm = *given, *g = &norm;
    normalise_strides(g);
    TL_TRY(check_geom_dims(g));
    if (g->platform && g->fmt == TL_RKNN_TENSOR_UNDEFINED)
        return tl_fail(TL_ERR_VENDOR, "platform= checks NC1HWC2 or NHWC/NCHW tensors, not UNDEFINED (rknn)");
    if (g->fmt == TL_RKNN_TENSOR_NC1HWC2) TL_TRY(build_nc1hwc2(&d, g));
    else if (g->fmt != TL_RKNN_TENSOR_UNDEFINED && g->rank == 4) TL_TRY(build_4d(&d, g));
    else TL_TRY(build_plain(&d, g));
    d.quant = out->quant;
    TL_TRY(tl_desc_validate(&d));
    *out = d;
    return TL_OK;
}

/* ---- from attrs ----------------------------------------------------------------- */
static tl_status quant_from_attr(const tl_rknn_tensor_attr *a, tl_dtype dt, tl_quant *q)
{
    memset(q, 0, sizeof *q);
    bool is_float = dt == TL_F32 || dt == TL_F16 || dt == TL_BF16;
    if (a->qnt_type == TL_RKNN_TENSOR_QNT_NONE || is_float) return TL_OK; /* fp tensors report scale 1 */
    q->round = TL_ROUND_AWAY;
    if (a->qnt_type == TL_RKNN_TENSOR_QNT_DFP) {
        q->kind = TL_Q_DFP;
        q->fl = a->fl;
        return TL_OK;
    }
    if (!(a->scale > 0.0f) || !isfinite(a->scale))
        return tl_fail(TL_ERR_QUANT, "scale=%g: AFFINE_ASYMMETRIC needs a finite scale > 0 (rknn)", (double)a->scale);
    if (a->scale < FLT_MIN) /* no model has one, and spec strings cannot carry it */
        return tl_fail(TL_ERR_QUANT, "scale=%g: subnormal; AFFINE_ASYMMETRIC needs a normal f32 scale (rknn)",
                       (double)a->scale);
    q->kind = TL_Q_AFFINE;
    q->zp = a->zp;
    q->scale = a->scale;
    return TL_OK;
}

tl_status tl_rknn_desc_from_attr(tl_desc *d, const tl_rknn_tensor_attr *a, int64_t channels)
{
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    TL_TRY(tl_rknn_attr_check(a, TL_ERR_VENDOR));
    rk_geom g;
    memset(&g, 0, sizeof g);
    g.fmt = (int)a->fmt;
    TL_TRY(tl_rknn_type_to_dtype(a->type, &g.dt));
    g.rank = (int)a->n_dims;
    if (g.rank > TL_MAX_DIMS || g.rank < 1)
        return tl_fail(TL_ERR_RANK, "n_dims=%d: tlayout handles 1..%d dims (rknn)", g.rank, TL_MAX_DIMS);
    for (int i = 0; i < g.rank; i++) g.dims[i] = a->dims[i];
    g.c = channels;
    g.w_stride = a->w_stride;
    g.h_stride = a->h_stride;
    g.size = a->size_with_stride;
    bool plain = g.fmt == TL_RKNN_TENSOR_UNDEFINED || (g.fmt != TL_RKNN_TENSOR_NC1HWC2 && g.rank != 4);
    if (g.fmt != TL_RKNN_TENSOR_NC1HWC2 && channels != 0 &&
        (plain || g.dims[g.fmt == TL_RKNN_TENSOR_NHWC ? 3 : 1] != channels))
        return tl_fail(TL_ERR_VENDOR, "channels=%lld does not match the C of the %d-dim %s attr (rknn)",
                       (long long)channels, g.rank, tl_rknn_fmt_names[g.fmt]);
    tl_desc tmp;
    TL_TRY(quant_from_attr(a, g.dt, &tmp.quant));
    TL_TRY(tl_rknn_build(&tmp, &g));
    *d = tmp;
    return TL_OK;
}

tl_status tl_rknn_attr_channels(const tl_rknn_tensor_attr *a, int64_t *channels)
{
    if (!channels) return tl_fail(TL_ERR_NULL, "channels is NULL");
    TL_TRY(tl_rknn_attr_check(a, TL_ERR_VENDOR));
    if ((a->fmt != TL_RKNN_TENSOR_NCHW && a->fmt != TL_RKNN_TENSOR_NHWC) || a->n_dims != 4)
        return tl_fail(TL_ERR_VENDOR, "the channel count comes from a 4-dim NCHW/NHWC (non-native) attr, got fmt=%s "
                       "n_dims=%u (rknn)", tl_rknn_fmt_names[a->fmt], a->n_dims);
    uint32_t c = a->dims[a->fmt == TL_RKNN_TENSOR_NHWC ? 3 : 1];
    if (c < 1) return tl_fail(TL_ERR_DIM, "C=%u: a dim must be >= 1 (rknn)", c);
    *channels = c;
    return TL_OK;
}

tl_status tl_rknn_desc_from_attrs(tl_desc *d, const tl_rknn_tensor_attr *native, const tl_rknn_tensor_attr *plain)
{
    int64_t c = 0;
    if (!native) return tl_fail(TL_ERR_NULL, "native attr is NULL");
    if (plain) TL_TRY(tl_rknn_attr_channels(plain, &c));
    else if (native->fmt == TL_RKNN_TENSOR_NC1HWC2)
        return tl_fail(TL_ERR_NULL, "plain attr is NULL: NC1HWC2 needs the non-native attr for C (rknn)");
    return tl_rknn_desc_from_attr(d, native, native->fmt == TL_RKNN_TENSOR_NC1HWC2 ? c : 0);
}
