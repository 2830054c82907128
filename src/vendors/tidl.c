/* TI TIDL-RT's model: one I/O buffer of sTIDL_IOBufDesc_t as a descriptor
 * (TI's itidl_ti.h and runtime), the input allocation and the input padding
 * helper. Spec strings ("tidl:..."), describe --json and explain:
 * tidl_spec.c; io_1.bin images: tidl_iobin.c.
 *
 * Everything goes through one path: a tl_tidl_buf (from an image, from a
 * spec, or from a caller) -> tidl_geo (checked, 64-bit) -> tl_desc. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numerics/elem.h"
#include "core/internal.h"
#include "vendors/tidl_internal.h"

/* ---- names and element types ------------------------------------------- */

static const char *const elem_names[] = {
    "TIDL_UnsignedChar", "TIDL_SignedChar", "TIDL_UnsignedShort", "TIDL_SignedShort",
    "TIDL_UnsignedWord", "TIDL_SignedWord", "TIDL_SinglePrecFloat", "TIDL_UnsignedDoubleWord",
    "TIDL_SignedDoubleWord",
};
static const tl_dtype elem_dtypes[] = {TL_U8, TL_I8, TL_U16, TL_I16, TL_U32,
                                       TL_I32, TL_F32, TL_U64, TL_I64};
#define NELEM ((int32_t)(sizeof elem_dtypes / sizeof elem_dtypes[0]))

const char *tl_tidl_element_type_name(int32_t element_type)
{
    return element_type >= 0 && element_type < NELEM ? elem_names[element_type] : "?";
}

const char *tl_tidl_layout_name(int32_t layout)
{
    return layout == TL_TIDL_LT_NCHW ? "TIDL_LT_NCHW" : layout == TL_TIDL_LT_NHWC ? "TIDL_LT_NHWC" : "?";
}

tl_status tl_tidl_dtype(int32_t element_type, tl_dtype *out)
{
    if (!out) return tl_fail(TL_ERR_NULL, "out is NULL");
    if (element_type < 0 || element_type >= NELEM)
        return tl_fail(TL_ERR_DTYPE, "element type %d: TIDL element types are 0..8 (TIDL)", (int)element_type);
    *out = elem_dtypes[element_type];
    return TL_OK;
}

tl_status tl_tidl_element_type_of(tl_dtype dtype, int32_t *out)
{
    if (!out) return tl_fail(TL_ERR_NULL, "out is NULL");
    for (int32_t i = 0; i < NELEM; i++)
        if (elem_dtypes[i] == dtype) {
            *out = i;
            return TL_OK;
        }
    return tl_fail(TL_ERR_DTYPE, "dtype %s: TIDL element types are u8 i8 u16 i16 u32 i32 f32 u64 i64 (TIDL)",
                   tl_dtype_name(dtype));
}

/* ---- geometry ---------------------------------------------------------- */

/* TI's field name for messages: "outPadT[2]" for an image slot, "PadT" otherwise. */
static const char *fld(const tl_tidl_buf *b, const char *f, char out[64])
{
    if (b->index >= 0)
        snprintf(out, 64, "%s%s[%d]", b->is_output ? "out" : "in", f, (int)b->index);
    else
        snprintf(out, 64, "%s", f);
    return out;
}

static tl_status check_extent(const tl_tidl_buf *b, const char *f, int32_t v, int32_t min, int64_t *out)
{
    char nb[64];
    if (v < min)
        return tl_fail(TL_ERR_DIM, "%s=%d: must be >= %d (TIDL)", fld(b, f, nb), (int)v, (int)min);
    *out = v < 1 ? 1 : v;
    return TL_OK;
}

static tl_status check_fields(const tl_tidl_buf *b, tidl_geo *g)
{
    char nb[64];
    if (tl_tidl_dtype(b->element_type, &g->dt) != TL_OK)
        return tl_fail(TL_ERR_DTYPE, "%s=%d: TIDL element types are 0..8 (TIDL)", fld(b, "ElementType", nb),
                       (int)b->element_type);
    g->ebits = tl_dtype_bits(g->dt);
    if (b->layout != TL_TIDL_LT_NCHW && b->layout != TL_TIDL_LT_NHWC)
        return tl_fail(TL_ERR_VENDOR, "%s=%d: TIDL layouts are 0 (NCHW) and 1 (NHWC) (TIDL)", fld(b, "Layout", nb),
                       (int)b->layout);
    g->nhwc = b->layout == TL_TIDL_LT_NHWC;
    TL_TRY(check_extent(b, "Width", b->width, 1, &g->w));
    TL_TRY(check_extent(b, "Height", b->height, 1, &g->h));
    TL_TRY(check_extent(b, "NumChannels", b->num_channels, 1, &g->c));
    TL_TRY(check_extent(b, "NumBatches", b->num_batches, 0, &g->n));
    TL_TRY(check_extent(b, "DIM1", b->dim1, 0, &g->d1));
    TL_TRY(check_extent(b, "DIM2", b->dim2, 0, &g->d2));
    const int32_t pads[5] = {b->pad_l, b->pad_t, b->pad_r, b->pad_b, b->pad_ch};
    static const char *const pad_names[5] = {"PadL", "PadT", "PadR", "PadB", "PadCh"};
    for (int i = 0; i < 5; i++) {
        if (pads[i] < 0)
            return tl_fail(TL_ERR_PAD, "%s=%d: TIDL pads must be >= 0 (TIDL)", fld(b, pad_names[i], nb), (int)pads[i]);
        if (pads[i] && g->nhwc)
            return tl_fail(TL_ERR_VENDOR, "%s=%d with layout NHWC: TIDL documents no padded NHWC geometry, "
                           "so an NHWC buffer must have all pads 0 (TIDL)", fld(b, pad_names[i], nb), (int)pads[i]);
        if (i < 4) g->pad[i] = pads[i];
    }
    g->pad_ch = b->pad_ch;
    if (b->buf_size < 0)
        return tl_fail(TL_ERR_SIZE, "%s=%d: must be >= 0 (TIDL)", fld(b, "BufSize", nb), (int)b->buf_size);
    g->buf_size = b->buf_size;
    /* isnormal: a subnormal multiplier is garbage, and would not survive a spec round trip */
    if (!tl_dtype_is_float(g->dt) && !(isnormal(b->tensor_scale) && b->tensor_scale > 0.0f))
        return tl_fail(TL_ERR_QUANT, "%s=%g: an integer TIDL buffer needs a finite, normal scale > 0 "
                       "(q = real * scale) (TIDL)", fld(b, "TensorScale", nb), (double)b->tensor_scale);
    return TL_OK;
}

static bool mul3(int64_t a, int64_t b, int64_t c, int64_t *r)
{
    return tl_mul_ok(a, b, r) && tl_mul_ok(*r, c, r);
}

/* Pitches of §2.4 (NCHW) or dense ones (NHWC). */
static tl_status compute_pitches(const tl_tidl_buf *b, tidl_geo *g)
{
    char nb[64];
    int64_t hp = g->h + g->pad[1] + g->pad[3], cpad = g->c + g->pad_ch, slots;
    g->lp = g->w + g->pad[0] + g->pad[2]; /* int32 sums: no overflow */
    if (!tl_mul_ok(g->lp, hp, &g->plane))
        return tl_fail(TL_ERR_OVERFLOW, "line pitch %lld x padded height %lld overflows int64 (TIDL)", (long long)g->lp,
                       (long long)hp);
    if (b->channel_pitch < 0)
        return tl_fail(TL_ERR_STRIDE, "%s=%d: must be >= 0 (0 = lp*(Height+PadT+PadB)) (TIDL)",
                       fld(b, "ChannelPitch", nb), (int)b->channel_pitch);
    g->cp = g->nhwc ? 0 : b->channel_pitch ? b->channel_pitch : g->plane;
    int64_t cstep = g->nhwc ? g->plane : g->cp; /* elements per channel slot (NHWC: no pads, H*W) */
    if (!mul3(cstep, cpad, g->d2, &g->d1p) || !tl_mul_ok(cstep, cpad, &g->d2p) || !tl_mul_ok(g->d1p, g->d1, &g->bp) ||
        !mul3(g->bp, g->n, g->ebits, &slots))
        return tl_fail(TL_ERR_OVERFLOW, "buffer of %lld x %lld x %lld x %lld channel slots of %lld elements overflows "
                       "int64 (TIDL)", (long long)g->n, (long long)g->d1, (long long)g->d2, (long long)cpad,
                       (long long)cstep);
    if (g->nhwc) return TL_OK;
    bool many = g->c > 1 || g->d2 > 1 || g->d1 > 1 || g->n > 1;
    int64_t min_cp = (g->h - 1) * g->lp + g->w; /* fits: below plane */
    if (many && g->cp < min_cp)
        return tl_fail(TL_ERR_ALIAS, "%s=%lld < (Height-1)*lp + Width = %lld: valid elements of neighbouring "
                       "channels would share memory (TIDL)", fld(b, "ChannelPitch", nb), (long long)g->cp,
                       (long long)min_cp);
    g->shared_rows = g->cp < g->plane && (cpad > 1 || g->d2 > 1 || g->d1 > 1 || g->n > 1);
    return TL_OK;
}

tl_status tl_tidl_geo_from_buf(const tl_tidl_buf *b, tidl_geo *g)
{
    if (!b) return tl_fail(TL_ERR_NULL, "TIDL buffer is NULL");
    memset(g, 0, sizeof *g);
    TL_TRY(check_fields(b, g));
    return compute_pitches(b, g);
}

/* ---- the descriptor ---------------------------------------------------- */

static tl_status put_axis(tl_plane *p, int dim, int64_t extent, int64_t stride_elems, int64_t ebits)
{
    tl_axis *a = &p->axes[p->naxes++];
    a->dim = dim;
    a->block = 1;
    a->extent = extent;
    if (!tl_mul_ok(stride_elems, ebits, &a->stride_bits))
        return tl_fail(TL_ERR_OVERFLOW, "stride %lld elements overflows int64 bits (TIDL)", (long long)stride_elems);
    return TL_OK;
}

/* Axes outermost first: N [E F] C H W (NCHW) or N [E F] H W C (dense NHWC). */
static tl_status put_axes(const tidl_geo *g, tl_desc *d, bool six)
{
    tl_plane *p = &d->planes[0];
    int iC = d->rank - 3, iH = d->rank - 2, iW = d->rank - 1;
    int64_t e = g->ebits;
    TL_TRY(put_axis(p, 0, g->n, g->bp, e));
    if (six) {
        TL_TRY(put_axis(p, 1, g->d1, g->d1p, e));
        TL_TRY(put_axis(p, 2, g->d2, g->d2p, e));
    }
    if (g->nhwc) {
        TL_TRY(put_axis(p, iH, g->h, g->w * g->c, e));
        TL_TRY(put_axis(p, iW, g->w, g->c, e));
        return put_axis(p, iC, g->c, 1, e);
    }
    TL_TRY(put_axis(p, iC, g->c + g->pad_ch, g->cp, e));
    TL_TRY(put_axis(p, iH, g->h + g->pad[1] + g->pad[3], g->lp, e));
    return put_axis(p, iW, g->w + g->pad[0] + g->pad[2], 1, e);
}

static void set_quant(const tidl_geo *g, const tl_tidl_buf *b, tl_desc *d)
{
    if (tl_dtype_is_float(g->dt)) return; /* TIDL-RT forces scale 1, zp 0 for float32 */
    d->quant.kind = TL_Q_INV;
    d->quant.round = TL_ROUND_ZERO; /* TIDL-RT truncates after clamping (§2.6) */
    d->quant.scale = b->tensor_scale;
    d->quant.zp = b->zero_point;
}

/* BufSize*es when known (it must hold the whole padded layout), else
 * NumBatches*bp*es (never less than the layout spans). */
static tl_status set_size(const tidl_geo *g, const tl_tidl_buf *b, tl_desc *d)
{
    char nb[64];
    int64_t need, bytes;
    TL_TRY(tl_desc_update_size(d));
    need = d->size_bytes;
    if (!g->buf_size) {
        bytes = g->n * g->bp * g->ebits / 8; /* checked in compute_pitches */
        d->size_bytes = bytes > need ? bytes : need;
        return TL_OK;
    }
    if (!tl_mul_ok(g->buf_size, g->ebits / 8, &bytes))
        return tl_fail(TL_ERR_OVERFLOW, "BufSize overflows int64 bytes (TIDL)");
    if (bytes < need) {
        int64_t last[TL_MAX_DIMS];
        for (int i = 0; i < d->rank; i++) last[i] = d->dims[i] - 1;
        int64_t end = tl_desc_bit_offset_unchecked(d, last) / 8 + g->ebits / 8;
        return tl_fail(TL_ERR_SIZE, "%s=%d elements (%lld bytes) < %lld bytes the padded layout spans (the last "
                       "valid element ends at byte %lld; tlayout keeps all padding inside the buffer) (TIDL)",
                       fld(b, "BufSize", nb), (int)b->buf_size, (long long)bytes, (long long)need, (long long)end);
    }
    d->size_bytes = bytes;
    return TL_OK;
}

static tl_status build_desc(const tidl_geo *g, const tl_tidl_buf *b, unsigned flags, tl_desc *d)
{
    static const char labels4[] = "NCHW", labels6[] = "NEFCHW";
    bool six = (flags & TL_TIDL_DESC_6D) || g->d1 > 1 || g->d2 > 1;
    const int64_t dims6[6] = {g->n, g->d1, g->d2, g->c, g->h, g->w};
    tl_desc_clear(d);
    d->rank = six ? 6 : 4;
    d->dtype = g->dt;
    for (int i = 0; i < d->rank; i++) {
        d->dims[i] = six ? dims6[i] : dims6[i ? i + 2 : 0];
        d->labels[i] = six ? labels6[i] : labels4[i];
    }
    int iC = d->rank - 3, iH = d->rank - 2, iW = d->rank - 1;
    d->pad_lo[iW] = g->pad[0];
    d->pad_lo[iH] = g->pad[1];
    d->pad_hi[iW] = g->pad[2];
    d->pad_hi[iH] = g->pad[3];
    d->pad_hi[iC] = g->pad_ch;
    TL_TRY(put_axes(g, d, six));
    set_quant(g, b, d);
    if (g->shared_rows) d->flags |= TL_DESC_READONLY; /* padding rows of two channels coincide */
    d->vendor = TL_VENDOR_TIDL;
    d->vendor_format = b->layout;
    const int64_t params[8] = {g->pad[0], g->pad[1], g->pad[2], g->pad[3], g->pad_ch, g->cp, g->buf_size, 0};
    memcpy(d->vendor_params, params, sizeof params);
    TL_TRY(set_size(g, b, d));
    return tl_desc_validate(d);
}

tl_status tl_desc_from_tidl(tl_desc *d, const tl_tidl_buf *buf, unsigned flags)
{
    tidl_geo g;
    tl_desc tmp;
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    if (flags & ~TL_TIDL_DESC_6D)
        return tl_fail(TL_ERR_UNSUPPORTED, "flags=0x%x: only TL_TIDL_DESC_6D is defined (TIDL)", flags);
    TL_TRY(tl_tidl_geo_from_buf(buf, &g));
    TL_TRY(build_desc(&g, buf, flags, &tmp));
    *d = tmp;
    return TL_OK;
}

/* ---- the allocation an input buffer needs ------------------------------ */

/* TIDL reads one padded 2-D plane past the last channel of an input. V4's
 * inBufSize counts it (TI's TIDL-RT C++ wrapper subtracts one padded plane
 * from inBufSize to get the valid size), so the descriptor size is the
 * allocation. V2/V3 descriptors have no size field: TI's test bench
 * allocates N x DIM1 x DIM2 x (NumChannels + 1) channel pitches, so that is
 * the allocation, or the layout's own extent when PadCh makes it larger. */
tl_status tl_tidl_input_alloc(const tidl_geo *g, int64_t size_bytes, int64_t *bytes)
{
    int64_t cstep = g->nhwc ? g->plane : g->cp, slots, b;
    if (g->buf_size) {
        *bytes = size_bytes;
        return TL_OK;
    }
    if (!mul3(g->n, g->d1, g->d2, &slots) || !tl_mul_ok(slots, g->c + 1, &slots) || !tl_mul_ok(slots, cstep, &b) ||
        !tl_mul_ok(b, g->ebits / 8, &b))
        return tl_fail(TL_ERR_OVERFLOW, "input allocation N x DIM1 x DIM2 x (NumChannels + 1) x channel pitch "
                       "overflows int64 bytes (TIDL)");
    *bytes = b > size_bytes ? b : size_bytes;
    return TL_OK;
}

/* ---- back from a descriptor -------------------------------------------- */

static tl_status export_fail(const char *why)
{
    return tl_fail(TL_ERR_VENDOR_EXPORT, "%s (TIDL)", why);
}

/* The effective cp of vendor_params[5] as the int32 field: the default
 * lp*(H+PadT+PadB) may not fit int32 (W = 2e9, H = 4); it is then 0, which
 * means the same. */
static tl_status channel_pitch_of(const tl_desc *d, int32_t *out)
{
    int64_t cp = d->vendor_params[5], r = d->rank, plane;
    if (cp >= INT32_MIN && cp <= INT32_MAX) {
        *out = (int32_t)cp;
        return TL_OK;
    }
    int64_t lp = d->dims[r - 1] + d->vendor_params[0] + d->vendor_params[2];
    int64_t hp = d->dims[r - 2] + d->vendor_params[1] + d->vendor_params[3];
    if (!tl_mul_ok(lp, hp, &plane) || plane != cp)
        return export_fail("the channel pitch exceeds the int32 field of sTIDL_IOBufDesc_t");
    *out = 0;
    return TL_OK;
}

/* The buffer a TIDL descriptor's dims and vendor_params describe (no checks
 * that they match its physical map: see check_same). */
static tl_status buf_of_desc(const tl_desc *d, tl_tidl_buf *b)
{
    if (!d || !b) return tl_fail(TL_ERR_NULL, "descriptor or buffer is NULL");
    if (d->vendor != TL_VENDOR_TIDL)
        return export_fail("not a TIDL descriptor: build it with tl_desc_from_tidl or a tidl: spec");
    if (d->rank != 4 && d->rank != 6) return export_fail("a TIDL descriptor has 4 or 6 dims");
    for (int i = 0; i < d->rank; i++)
        if (d->dims[i] > INT32_MAX) return export_fail("a dim exceeds the int32 fields of sTIDL_IOBufDesc_t");
    for (int i = 0; i < 7; i++)
        if (i != 5 && (d->vendor_params[i] < INT32_MIN || d->vendor_params[i] > INT32_MAX))
            return export_fail("a vendor_params value exceeds the int32 fields of sTIDL_IOBufDesc_t");
    memset(b, 0, sizeof *b);
    b->index = -1;
    if (tl_tidl_element_type_of((tl_dtype)d->dtype, &b->element_type) != TL_OK)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "dtype %s is not a TIDL element type (TIDL)",
                       tl_dtype_name((tl_dtype)d->dtype));
    int r = d->rank;
    b->num_batches = (int32_t)d->dims[0];
    b->dim1 = r == 6 ? (int32_t)d->dims[1] : 1;
    b->dim2 = r == 6 ? (int32_t)d->dims[2] : 1;
    b->num_channels = (int32_t)d->dims[r - 3];
    b->height = (int32_t)d->dims[r - 2];
    b->width = (int32_t)d->dims[r - 1];
    b->pad_l = (int32_t)d->vendor_params[0];
    b->pad_t = (int32_t)d->vendor_params[1];
    b->pad_r = (int32_t)d->vendor_params[2];
    b->pad_b = (int32_t)d->vendor_params[3];
    b->pad_ch = (int32_t)d->vendor_params[4];
    TL_TRY(channel_pitch_of(d, &b->channel_pitch));
    b->buf_size = (int32_t)d->vendor_params[6];
    b->layout = d->vendor_format;
    bool inv = d->quant.kind == TL_Q_INV;
    b->tensor_scale = inv ? d->quant.scale : 1.0f;
    b->zero_point = inv ? d->quant.zp : 0;
    return TL_OK;
}

/* The descriptor must be exactly what its TIDL fields build (quantization aside). */
static tl_status check_same(const tl_desc *d, const tl_tidl_buf *b)
{
    tidl_geo g;
    tl_desc ref;
    if (tl_tidl_geo_from_buf(b, &g) != TL_OK || build_desc(&g, b, d->rank == 6 ? TL_TIDL_DESC_6D : 0, &ref) != TL_OK)
        return export_fail("its TIDL fields (dims, vendor_params) do not form a valid TIDL buffer");
    bool same = d->vendor_params[7] == 0 && ref.rank == d->rank && ref.dtype == d->dtype && ref.flags == d->flags &&
                ref.size_bytes == d->size_bytes && ref.nplanes == d->nplanes &&
                memcmp(ref.dims, d->dims, sizeof ref.dims) == 0 &&
                memcmp(ref.labels, d->labels, sizeof ref.labels) == 0 &&
                memcmp(ref.pad_lo, d->pad_lo, sizeof ref.pad_lo) == 0 &&
                memcmp(ref.pad_hi, d->pad_hi, sizeof ref.pad_hi) == 0 &&
                memcmp(&ref.planes[0], &d->planes[0], sizeof ref.planes[0]) == 0;
    return same ? TL_OK : export_fail("the descriptor was changed after it was built: its physical map no longer "
                                      "matches its TIDL fields");
}

tl_status tl_tidl_from_desc(const tl_desc *d, tl_tidl_buf *buf)
{
    tl_tidl_buf b;
    TL_TRY(buf_of_desc(d, &b));
    TL_TRY(check_same(d, &b));
    if (d->quant.kind != TL_Q_INV && d->quant.kind != TL_Q_NONE && !tl_dtype_is_float((tl_dtype)d->dtype))
        return tl_fail(TL_ERR_VENDOR_EXPORT, "quantization kind %d: TIDL carries only inverse-scale quantization "
                       "(real = (q - zp) / scale) (TIDL)", (int)d->quant.kind);
    if (!buf) return tl_fail(TL_ERR_NULL, "buffer is NULL");
    *buf = b;
    return TL_OK;
}

tl_status tl_tidl_geo_of_desc(const tl_desc *d, tl_tidl_buf *b, tidl_geo *g)
{
    TL_TRY(buf_of_desc(d, b));
    TL_TRY(check_same(d, b));
    return tl_tidl_geo_from_buf(b, g);
}

tl_status tl_tidl_input_alloc_size(const tl_desc *d, uint64_t *bytes)
{
    tl_tidl_buf b;
    tidl_geo g;
    int64_t n = 0;
    if (!d || !bytes) return tl_fail(TL_ERR_NULL, "descriptor or bytes is NULL");
    TL_TRY(tl_desc_validate(d));
    TL_TRY(tl_tidl_geo_of_desc(d, &b, &g));
    TL_TRY(tl_tidl_input_alloc(&g, d->size_bytes, &n));
    *bytes = (uint64_t)n;
    return TL_OK;
}

/* ---- warnings -------------------------------------------------------------- */

int tl_tidl_buf_warnings(const tl_tidl_buf *b, char *msg, size_t len)
{
    char dummy[1], nb[64];
    tl_strbuf sb = {msg ? msg : dummy, msg ? len : 0, 0};
    tidl_geo g;
    int n = 0;
    if (msg && len) msg[0] = '\0';
    if (!b || tl_tidl_geo_from_buf(b, &g) != TL_OK) {
        tl_clear_error();
        return 0; /* an error, not a warning: tl_desc_from_tidl reports it */
    }
    if (g.shared_rows)
        tl_sb_printf(&sb, "%s%s=%lld < lp*(Height+PadT+PadB)=%lld: neighbouring channels share padding rows, so "
                     "the descriptor is read-only (TI does not state cp >= the padded plane as a rule)",
                     n++ ? "\n" : "", fld(b, "ChannelPitch", nb), (long long)g.cp, (long long)g.plane);
    if (!tl_dtype_is_float(g.dt) && b->zero_point != 0)
        tl_sb_printf(&sb, "%s%s=%d: TI's own conversion ignores the descriptor's zero point; tlayout applies "
                     "real = (q - zp) / scale", n++ ? "\n" : "", fld(b, "ZeroPoint", nb), (int)b->zero_point);
    if (g.nhwc && b->channel_pitch != 0 && b->channel_pitch != g.h * g.w)
        tl_sb_printf(&sb, "%s%s=%d is ignored: an NHWC buffer is dense", n++ ? "\n" : "",
                     fld(b, "ChannelPitch", nb), (int)b->channel_pitch);
    return n;
}

/* ---- zeroing the padding --------------------------------------------------- */

/* Valid elements lie in runs along the innermost axis (W for NCHW, C for
 * NHWC). Visiting the runs in axis order gives increasing offsets for every
 * descriptor tl_desc_from_tidl builds; each gap before a run, and the tail,
 * is zeroed. `write` 0 only checks the order. */
static tl_status zero_gaps(const tl_desc *d, uint8_t *buf, bool write)
{
    const tl_plane *p = &d->planes[0];
    const tl_axis *in = &p->axes[p->naxes - 1];
    int64_t x[TL_MAX_DIMS] = {0}, cursor = 0;
    int64_t run = d->dims[in->dim] * (int64_t)tl_dtype_bits((tl_dtype)d->dtype) / 8;
    if (in->stride_bits != (int64_t)tl_dtype_bits((tl_dtype)d->dtype))
        return tl_fail(TL_ERR_UNSUPPORTED, "innermost axis is not contiguous: not a TIDL buffer layout (TIDL)");
    for (;;) {
        int64_t start = tl_desc_bit_offset_unchecked(d, x) / 8;
        if (start < cursor)
            return tl_fail(TL_ERR_UNSUPPORTED, "valid rows are not in increasing order: not a TIDL buffer "
                           "layout (TIDL)");
        if (write) memset(buf + cursor, 0, (size_t)(start - cursor));
        cursor = start + run;
        int a = p->naxes - 2;
        for (; a >= 0; a--) {
            int dim = p->axes[a].dim;
            if (++x[dim] < d->dims[dim]) break;
            x[dim] = 0;
        }
        if (a < 0) break;
    }
    if (write) memset(buf + cursor, 0, (size_t)(d->size_bytes - cursor));
    return TL_OK;
}

tl_status tl_tidl_zero_padding(const tl_desc *d, void *buf, size_t len)
{
    if (!d || !buf) return tl_fail(TL_ERR_NULL, "descriptor or buffer is NULL");
    if (d->vendor != TL_VENDOR_TIDL)
        return tl_fail(TL_ERR_VENDOR, "vendor=%d: not a TIDL descriptor; use tl_fill_padding for others (TIDL)",
                       (int)d->vendor);
    TL_TRY(tl_desc_validate(d));
    tl_tidl_buf b; /* zero_gaps walks TIDL's rows: only TIDL's own layout has them */
    TL_TRY(buf_of_desc(d, &b));
    TL_TRY(check_same(d, &b));
    if (d->nplanes != 1)
        return tl_fail(TL_ERR_UNSUPPORTED, "nplanes=%d: a TIDL buffer has one plane (TIDL)", (int)d->nplanes);
    if ((uint64_t)len < (uint64_t)d->size_bytes)
        return tl_fail(TL_ERR_BUFFER_SMALL, "len=%zu < %lld bytes of the TIDL buffer (BufSize*es, or "
                       "NumBatches*bp*es) (TIDL)", len, (long long)d->size_bytes);
    TL_TRY(zero_gaps(d, buf, false));
    return zero_gaps(d, buf, true);
}
