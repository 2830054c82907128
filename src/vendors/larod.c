/* Axis larod's model: layouts, data types, dims and byte pitches <-> tl_desc
 * (larod.h; the public side is include/tlayout/larod.h). Spec strings
 * (larod.nhwc:...), describe --json and explain: larod_spec.c.
 *
 * Everything is computed in checked int64 on a private copy of the metadata
 * (struct lt); size_t appears only at the public boundary, where a value that
 * does not fit is an error rather than a silent truncation (32-bit cameras). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/larod_internal.h"

/* ---- names and data types ------------------------------------------------ */

static const char *const layout_names[] = {
    "LAROD_TENSOR_LAYOUT_INVALID", "LAROD_TENSOR_LAYOUT_UNSPECIFIED", "LAROD_TENSOR_LAYOUT_NHWC",
    "LAROD_TENSOR_LAYOUT_NCHW", "LAROD_TENSOR_LAYOUT_420SP",
};

static const char *const type_names[] = {
    "LAROD_TENSOR_DATA_TYPE_INVALID", "LAROD_TENSOR_DATA_TYPE_UNSPECIFIED",
    "LAROD_TENSOR_DATA_TYPE_BOOL",    "LAROD_TENSOR_DATA_TYPE_UINT8",
    "LAROD_TENSOR_DATA_TYPE_INT8",    "LAROD_TENSOR_DATA_TYPE_UINT16",
    "LAROD_TENSOR_DATA_TYPE_INT16",   "LAROD_TENSOR_DATA_TYPE_UINT32",
    "LAROD_TENSOR_DATA_TYPE_INT32",   "LAROD_TENSOR_DATA_TYPE_UINT64",
    "LAROD_TENSOR_DATA_TYPE_INT64",   "LAROD_TENSOR_DATA_TYPE_FLOAT16",
    "LAROD_TENSOR_DATA_TYPE_FLOAT32", "LAROD_TENSOR_DATA_TYPE_FLOAT64",
};
/* tl_dtype of each larod data type; BOOL is one byte per element (§1.6). */
static const tl_dtype type_dtypes[] = {
    TL_DT_INVALID, TL_DT_INVALID, TL_BOOL, TL_U8,  TL_I8,  TL_U16, TL_I16,
    TL_U32,        TL_I32,        TL_U64,  TL_I64, TL_F16, TL_F32, TL_F64,
};
#define NLAYOUTS ((int)(sizeof layout_names / sizeof layout_names[0]))
#define NTYPES ((int)(sizeof type_names / sizeof type_names[0]))

const char *tl_larod_layout_name(tl_larod_tensor_layout layout)
{
    return (int)layout >= 0 && (int)layout < NLAYOUTS ? layout_names[layout] : "?";
}

const char *tl_larod_data_type_name(tl_larod_tensor_data_type t)
{
    return (int)t >= 0 && (int)t < NTYPES ? type_names[t] : "?";
}

tl_status tl_larod_dtype(tl_larod_tensor_data_type t, tl_dtype *out)
{
    if (!out) return tl_fail(TL_ERR_NULL, "out is NULL");
    if ((int)t < 0 || (int)t >= NTYPES)
        return tl_fail(TL_ERR_DTYPE, "data_type=%d: not a larodTensorDataType (0..13) (larod)", (int)t);
    if (type_dtypes[t] == TL_DT_INVALID)
        return tl_fail(TL_ERR_DTYPE, "data_type=%d (%s): no element type, so no element size; give "
                       "the model's data type (larod)", (int)t, type_names[t]);
    *out = type_dtypes[t];
    return TL_OK;
}

tl_status tl_larod_data_type(tl_dtype dt, tl_larod_tensor_data_type *out)
{
    if (!out) return tl_fail(TL_ERR_NULL, "out is NULL");
    for (int i = 0; i < NTYPES; i++)
        if (type_dtypes[i] == dt && dt != TL_DT_INVALID) {
            *out = (tl_larod_tensor_data_type)i;
            return TL_OK;
        }
    return tl_fail(TL_ERR_DTYPE, "dtype %s: larod has no such data type (it has bool, u8..i64, "
                   "f16, f32, f64) (larod)", tl_dtype_name(dt));
}

/* ---- the metadata in int64 ---------------------------------------------------- */

/* Short layout name for messages: "NHWC". */
static const char *lshort(int layout)
{
    static const char *const s[] = {"INVALID", "UNSPECIFIED", "NHWC", "NCHW", "420SP"};
    return layout >= 0 && layout < NLAYOUTS ? s[layout] : "?";
}

static tl_status check_layout(int layout)
{
    if (layout >= TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED && layout <= TL_LAROD_TENSOR_LAYOUT_420SP)
        return TL_OK;
    return tl_fail(TL_ERR_VENDOR, "layout=%d (%s): a tensor needs layout UNSPECIFIED (1), NHWC (2), "
                   "NCHW (3) or 420SP (4) (larod)", layout, tl_larod_layout_name((tl_larod_tensor_layout)layout));
}

/* §1.4 rules 1-3 and the per-layout dims length. */
static tl_status check_lengths(const lt *t)
{
    if (t->n > MAXLEN || t->np > MAXLEN)
        return tl_fail(TL_ERR_VENDOR, "%s.len=%d > %d (LAROD_TENSOR_MAX_LEN) (larod)",
                       t->n > MAXLEN ? "dims" : "pitches", t->n > MAXLEN ? t->n : t->np, MAXLEN);
    if (t->n == 0)
        return tl_fail(TL_ERR_VENDOR, "dims.len=0 (not specified): a descriptor needs the dims (larod)");
    if (t->np != 0 && t->np != t->n)
        return tl_fail(TL_ERR_VENDOR, "dims.len=%d but pitches.len=%d: when both are given they must be "
                       "equal (larod)", t->n, t->np);
    int want = t->layout == TL_LAROD_TENSOR_LAYOUT_420SP ? 3 : 4;
    if (t->layout != TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED && t->n != want)
        return tl_fail(TL_ERR_VENDOR, "dims.len=%d: layout %s needs %d dims (%s) (larod)", t->n,
                       lshort(t->layout), want,
                       want == 3 ? "3, H, W" : t->layout == TL_LAROD_TENSOR_LAYOUT_NHWC ? "N, H, W, C" : "N, C, H, W");
    return TL_OK;
}

static tl_status check_dims(const lt *t)
{
    for (int i = 0; i < t->n; i++)
        if (t->dims[i] < 1)
            return tl_fail(TL_ERR_DIM, "dims[%d]=%lld: a dim must be >= 1 (larod)", i, (long long)t->dims[i]);
    if (t->layout != TL_LAROD_TENSOR_LAYOUT_420SP) return TL_OK;
    if (t->dims[0] != 3)
        return tl_fail(TL_ERR_VENDOR, "dims[0]=%lld: 420SP dims are (3, H, W), dims[0] must be 3 (larod)",
                       (long long)t->dims[0]);
    if (t->dt != TL_U8)
        return tl_fail(TL_ERR_DTYPE, "data type %s: 420SP samples are UINT8 (larod)", tl_dtype_name(t->dt));
    return TL_OK;
}

/* ---- pitches: computation ------------------------------------------------------ */

static tl_status overflow(const char *what) { return tl_fail(TL_ERR_OVERFLOW, "%s overflows int64 (larod)", what); }

/* §1.2: right to left, each dim rounded up to its own alignment. */
static tl_status dense_generic(const lt *t, const int64_t *align, int64_t *p)
{
    int64_t slab = es_of(t);
    for (int i = t->n - 1; i >= 0; i--) {
        if (!tl_mul_ok(t->dims[i], slab, &slab) || !tl_rup_ok(slab, align ? align[i] : 0, &slab))
            return overflow("pitches");
        p[i] = slab;
    }
    return TL_OK;
}

/* Smallest 420SP row: the interleaved CbCr row holds ceil(W/2) pairs, one
 * byte more than W when W is odd (Y and CbCr share the row pitch). For
 * W = INT64_MAX no row fits; the size checks report that as an overflow. */
static int64_t min_row_420sp(int64_t w) { return w == INT64_MAX ? w : w + w % 2; }

/* 3*pitches[1]/2 (0 on overflow): how Axis's object-detection example sizes
 * 420SP buffers, right only for an even height and an unpadded Y plane. */
int64_t tl_larod_axis_example_size(const int64_t *p)
{
    int64_t t;
    return tl_mul_ok(p[1], 3, &t) ? t / 2 : 0;
}

/* §1.3 with larod's Example 3: row and Y plane aligned, the CbCr rows after. */
static tl_status dense_420sp(const lt *t, const int64_t *align, int64_t *p)
{
    int64_t h = t->dims[1], w = t->dims[2], ch;
    if (!tl_rup_ok(min_row_420sp(w), align ? align[0] : 0, &p[2]) || !tl_mul_ok(h, p[2], &p[1]) ||
        !tl_rup_ok(p[1], align ? align[1] : 0, &p[1]) || !tl_mul_ok(half_up(h), p[2], &ch) ||
        !tl_add_ok(p[1], ch, &p[0]))
        return overflow("420SP pitches");
    return TL_OK;
}

tl_status tl_larod_dense_pitches(const lt *t, const int64_t *align, int64_t *p)
{
    return t->layout == TL_LAROD_TENSOR_LAYOUT_420SP ? dense_420sp(t, align, p) : dense_generic(t, align, p);
}

/* larodBuildTensorPitches' shortcut: pitches from a row pitch in bytes (a
 * VDO stride, e.g. 2048 for a 1920-byte row, which no alignment expresses)
 * and the rows per plane (height 0 = the image height; more rows pad each
 * plane, as VDO buffers whose height is aligned). The row, dims[2] of NHWC,
 * dims[3] of NCHW, the Y/CbCr rows of 420SP, is the only padded pitch. */
tl_status tl_larod_row_pitches(const lt *t, int64_t pitch, int64_t height, int64_t *p)
{
    int nhwc = t->layout == TL_LAROD_TENSOR_LAYOUT_NHWC, yuv = t->layout == TL_LAROD_TENSOR_LAYOUT_420SP;
    if (t->layout == TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED || (!yuv && t->n != 4))
        return tl_fail(TL_ERR_VENDOR, "a row pitch needs an NHWC or NCHW tensor of 4 dims or a 420SP image; "
                       "give pitches= instead (larod)");
    int64_t rows = t->dims[yuv ? 1 : 1 + !nhwc], pix = nhwc ? es_of(t) * t->dims[3] : es_of(t), row, plane, ch;
    if (!height) height = rows;
    if (height < rows)
        return tl_fail(TL_ERR_VENDOR, "height=%lld < %lld rows of the image: height counts the rows of each "
                       "plane, padding rows included (larod)", (long long)height, (long long)rows);
    if (!tl_mul_ok(yuv ? 1 : pix, yuv ? min_row_420sp(t->dims[2]) : t->dims[2 + !nhwc], &row))
        return overflow("row bytes");
    if (pitch < row)
        return tl_fail(TL_ERR_VENDOR, "pitch=%lld < %lld bytes of one row: the row pitch must hold the row "
                       "(larod)", (long long)pitch, (long long)row);
    if (!tl_mul_ok(height, pitch, &plane)) return overflow("height x pitch");
    if (yuv) {
        p[2] = pitch;
        p[1] = plane;
        return tl_mul_ok(half_up(height), pitch, &ch) && tl_add_ok(plane, ch, &p[0]) ? TL_OK
                                                                                    : overflow("420SP size");
    }
    p[3] = nhwc ? pix : pitch;
    p[2] = nhwc ? pitch : plane;
    if (!tl_mul_ok(nhwc ? plane : t->dims[1], nhwc ? 1 : plane, &p[1]) || !tl_mul_ok(t->dims[0], p[1], &p[0]))
        return overflow("pitches");
    return TL_OK;
}

/* ---- pitches: validation ---------------------------------------------------------- */

/* §1.4 rule 5: each pitch holds its dim; the innermost holds dims[n-1] elements. */
static tl_status check_generic(const lt *t, const int64_t *p)
{
    int n = t->n;
    for (int i = n - 1; i >= 0; i--) {
        int64_t inner = i == n - 1 ? es_of(t) : p[i + 1], need;
        if (!tl_mul_ok(t->dims[i], inner, &need)) return overflow("dims x pitch");
        if (p[i] >= need) continue;
        if (i == n - 1)
            return tl_fail(TL_ERR_VENDOR, "pitches[%d]=%lld < %lld = dims[%d] %lld x %lld-byte %s elements: "
                           "each pitch must hold its dim (rule 5) (larod)", i, (long long)p[i], (long long)need,
                           i, (long long)t->dims[i], (long long)inner, tl_dtype_name(t->dt));
        return tl_fail(TL_ERR_VENDOR, "pitches[%d]=%lld < %lld = dims[%d] %lld x pitches[%d] %lld: each pitch "
                       "must hold its dim (rule 5) (larod)", i, (long long)p[i], (long long)need, i,
                       (long long)t->dims[i], i + 1, (long long)inner);
    }
    return TL_OK;
}

/* §1.3 minimum sizes, with the odd-width row and the odd-height total. */
static tl_status check_420sp(const lt *t, const int64_t *p)
{
    int64_t h = t->dims[1], w = t->dims[2], y, need;
    if (p[2] < min_row_420sp(w))
        return tl_fail(TL_ERR_VENDOR, "pitches[2]=%lld < %lld: a 420SP row holds dims[2]=%lld pixels and "
                       "%lld interleaved CbCr pairs (larod)", (long long)p[2], (long long)min_row_420sp(w),
                       (long long)w, (long long)half_up(w));
    if (!tl_mul_ok(h, p[2], &y)) return overflow("dims[1] x pitches[2]");
    if (p[1] < y)
        return tl_fail(TL_ERR_VENDOR, "pitches[1]=%lld < %lld = dims[1] %lld rows x pitches[2] %lld: the Y "
                       "plane must hold every row (larod)", (long long)p[1], (long long)y, (long long)h,
                       (long long)p[2]);
    if (!tl_mul_ok(half_up(h), p[2], &need) || !tl_add_ok(need, p[1], &need)) return overflow("420SP size");
    if (p[0] >= need) return TL_OK;
    return tl_fail(TL_ERR_VENDOR, "pitches[0]=%lld < %lld = pitches[1] %lld + ceil(%lld/2)=%lld CbCr rows x "
                   "pitches[2] %lld: the buffer must hold every interleaved CbCr row%s (larod)",
                   (long long)p[0], (long long)need, (long long)p[1], (long long)h, (long long)half_up(h),
                   (long long)p[2],
                   p[0] == tl_larod_axis_example_size(p) ? " (3*pitches[1]/2, as in Axis's object-detection example, "
                                          "under-sizes odd heights and padded Y planes)" : "");
}

static tl_status check_pitches(const lt *t, const int64_t *p)
{
    return t->layout == TL_LAROD_TENSOR_LAYOUT_420SP ? check_420sp(t, p) : check_generic(t, p);
}

/* ---- metadata -> tl_desc ------------------------------------------------------------- */

static void set_vendor(tl_desc *d, const lt *t, const int64_t *p)
{
    d->vendor = TL_VENDOR_LAROD;
    d->vendor_format = t->layout;
    memset(d->vendor_params, 0, sizeof d->vendor_params);
    if (t->layout == TL_LAROD_TENSOR_LAYOUT_NHWC || t->layout == TL_LAROD_TENSOR_LAYOUT_420SP)
        d->vendor_params[0] = p[2];
    else if (t->layout == TL_LAROD_TENSOR_LAYOUT_NCHW)
        d->vendor_params[0] = p[3];
    if (t->layout == TL_LAROD_TENSOR_LAYOUT_420SP) d->vendor_params[1] = p[1];
}

static void set_labels(tl_desc *d, int layout)
{
    const char *l = layout == TL_LAROD_TENSOR_LAYOUT_NHWC   ? "NHWC"
                    : layout == TL_LAROD_TENSOR_LAYOUT_NCHW ? "NCHW"
                                                            : "";
    for (int i = 0; l[i]; i++) d->labels[i] = l[i];
}

/* One plain axis per dim in dims order; stride of dim k = pitches[k+1]
 * (the element size for the last). Slack of the innermost pitch that is whole
 * elements (NHWC u8 C=3 in 4 bytes) becomes pad_hi of the last dim, so
 * conversions zero it; any other slack is bytes between strides only. */
static tl_status build_generic(tl_desc *d, const lt *t, const int64_t *p)
{
    int n = t->n;
    tl_desc_clear(d);
    d->rank = n;
    d->dtype = t->dt;
    set_labels(d, t->layout);
    tl_plane *pl = &d->planes[0];
    pl->naxes = n;
    for (int k = 0; k < n; k++) {
        int64_t s = k < n - 1 ? p[k + 1] : es_of(t), bits;
        d->dims[k] = t->dims[k];
        int64_t slack = k > 0 && k == n - 1 ? p[k] - t->dims[k] * s : 0; /* fits: check_generic passed */
        if (slack % s == 0) d->pad_hi[k] = slack / s;
        if (!tl_mul_ok(s, 8, &bits)) return overflow("pitch in bits");
        pl->axes[k] = (tl_axis){.dim = k, .block = 1, .extent = t->dims[k] + d->pad_hi[k], .stride_bits = bits};
    }
    d->size_bytes = p[0];
    set_vendor(d, t, p);
    return tl_desc_validate(d);
}

/* larod's two planes (Y; Cb,Cr interleaved) are the descriptor's three planes
 * of yuv.nv12: Y, then Cb and Cr one byte apart with 2x2-subsampled axes. */
static tl_status build_420sp(tl_desc *d, const lt *t, const int64_t *p)
{
    TL_TRY(tl_desc_init_yuv420(d, TL_YUV_NV12, t->dims[1], t->dims[2], p[2], p[1]));
    d->size_bytes = p[0];
    set_vendor(d, t, p);
    return tl_desc_validate(d);
}

/* Full pitches (given, or dense from align), checked; then the descriptor. */
tl_status tl_larod_build(tl_desc *out, const lt *t, const int64_t *align)
{
    int64_t p[MAXLEN];
    tl_desc d;
    TL_TRY(check_layout(t->layout));
    TL_TRY(check_lengths(t));
    TL_TRY(check_dims(t));
    if (t->np) memcpy(p, t->pitches, sizeof p);
    else TL_TRY(tl_larod_dense_pitches(t, align, p));
    TL_TRY(check_pitches(t, p));
    if (t->layout == TL_LAROD_TENSOR_LAYOUT_420SP) TL_TRY(build_420sp(&d, t, p));
    else TL_TRY(build_generic(&d, t, p));
    *out = d;
    return TL_OK;
}

/* ---- the public metadata -> lt ---------------------------------------------------- */

static tl_status size_to_i64(size_t v, const char *what, int i, int64_t *out)
{
#if SIZE_MAX > INT64_MAX /* only where size_t is wider than int64's range */
    if (v > (size_t)INT64_MAX)
        return tl_fail(TL_ERR_OVERFLOW, "%s[%d]=%llu does not fit int64 (larod)", what, i, (unsigned long long)v);
#else
    (void)what;
    (void)i;
#endif
    *out = (int64_t)v;
    return TL_OK;
}

static tl_status lt_from_public(lt *t, int layout, int data_type, const tl_larod_tensor_dims *dims,
                                const tl_larod_tensor_pitches *pitches)
{
    memset(t, 0, sizeof *t);
    if (!dims) return tl_fail(TL_ERR_NULL, "dims is NULL (larod)");
    TL_TRY(check_layout(layout));
    t->layout = layout;
    if (layout == TL_LAROD_TENSOR_LAYOUT_420SP && data_type == TL_LAROD_TENSOR_DATA_TYPE_UNSPECIFIED)
        t->dt = TL_U8; /* 420SP samples are bytes whatever the tensor says */
    else
        TL_TRY(tl_larod_dtype((tl_larod_tensor_data_type)data_type, &t->dt));
    size_t n = dims->len, np = pitches ? pitches->len : 0;
    if (n > MAXLEN || np > MAXLEN)
        return tl_fail(TL_ERR_VENDOR, "%s.len=%zu > %d (LAROD_TENSOR_MAX_LEN) (larod)", n > MAXLEN ? "dims" : "pitches",
                       n > MAXLEN ? n : np, MAXLEN);
    t->n = (int)n;
    t->np = (int)np;
    for (int i = 0; i < t->n; i++) TL_TRY(size_to_i64(dims->dims[i], "dims", i, &t->dims[i]));
    for (int i = 0; i < t->np; i++) TL_TRY(size_to_i64(pitches->pitches[i], "pitches", i, &t->pitches[i]));
    return TL_OK;
}

tl_status tl_larod_desc_init(tl_desc *d, tl_larod_tensor_layout layout, tl_larod_tensor_data_type data_type,
                             const tl_larod_tensor_dims *dims, const tl_larod_tensor_pitches *pitches)
{
    lt t;
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    TL_TRY(lt_from_public(&t, (int)layout, (int)data_type, dims, pitches));
    return tl_larod_build(d, &t, NULL);
}

tl_status tl_larod_validate(tl_larod_tensor_layout layout, tl_larod_tensor_data_type data_type,
                            const tl_larod_tensor_dims *dims, const tl_larod_tensor_pitches *pitches)
{
    tl_desc d;
    return tl_larod_desc_init(&d, layout, data_type, dims, pitches);
}

/* int64 values to a larod size_t array (32-bit size_t on armv7 cameras). */
static tl_status to_size(const int64_t *v, int n, size_t *out, const char *what)
{
    for (int i = 0; i < n; i++) {
#if SIZE_MAX < INT64_MAX /* 32-bit size_t */
        if (v[i] > (int64_t)SIZE_MAX)
            return tl_fail(TL_ERR_OVERFLOW, "%s[%d]=%lld does not fit this platform's size_t (larod)", what, i,
                           (long long)v[i]);
#else
        (void)what;
#endif
        out[i] = (size_t)v[i];
    }
    return TL_OK;
}

static tl_status pitches_to_public(const int64_t *p, int n, tl_larod_tensor_pitches *out)
{
    tl_larod_tensor_pitches r;
    memset(&r, 0, sizeof r);
    TL_TRY(to_size(p, n, r.pitches, "pitches"));
    r.len = (size_t)n;
    *out = r;
    return TL_OK;
}

tl_status tl_larod_pitches_compute(tl_larod_tensor_layout layout, tl_larod_tensor_data_type data_type,
                                   const tl_larod_tensor_dims *dims, const size_t *align,
                                   tl_larod_tensor_pitches *out)
{
    lt t;
    int64_t al[MAXLEN] = {0}, p[MAXLEN];
    tl_desc d;
    if (!out) return tl_fail(TL_ERR_NULL, "out is NULL");
    TL_TRY(lt_from_public(&t, (int)layout, (int)data_type, dims, NULL));
    int nal = t.layout == TL_LAROD_TENSOR_LAYOUT_420SP ? 2 : t.n;
    for (int i = 0; align && i < nal; i++) TL_TRY(size_to_i64(align[i], "align", i, &al[i]));
    TL_TRY(tl_larod_build(&d, &t, al)); /* every rule, on the pitches it computes */
    TL_TRY(tl_larod_dense_pitches(&t, al, p));
    return pitches_to_public(p, t.n, out);
}

tl_status tl_larod_pitches_from_row(tl_larod_tensor_layout layout, tl_larod_tensor_data_type data_type,
                                    const tl_larod_tensor_dims *dims, size_t row_pitch, size_t height,
                                    tl_larod_tensor_pitches *out)
{
    lt t;
    int64_t pitch = 0, rows = 0; /* set by size_to_i64; gcc cannot see it through the #if */
    tl_desc d;
    if (!out) return tl_fail(TL_ERR_NULL, "out is NULL");
    TL_TRY(lt_from_public(&t, (int)layout, (int)data_type, dims, NULL));
    TL_TRY(size_to_i64(row_pitch, "row_pitch", 0, &pitch));
    TL_TRY(size_to_i64(height, "height", 0, &rows));
    TL_TRY(tl_larod_row_pitches(&t, pitch, rows, t.pitches));
    t.np = t.n;
    TL_TRY(tl_larod_build(&d, &t, NULL)); /* every rule, on the pitches it computed */
    return pitches_to_public(t.pitches, t.n, out);
}

/* ---- tl_desc -> metadata (export) --------------------------------------------------- */

static tl_status export_fail(const char *why)
{
    return tl_fail(TL_ERR_VENDOR_EXPORT, "%s (larod)", why);
}

static int layout_of_desc(const tl_desc *d)
{
    if (d->vendor == TL_VENDOR_LAROD) return d->vendor_format;
    if (d->nplanes > 1) return TL_LAROD_TENSOR_LAYOUT_420SP;
    if (d->rank == 4 && memcmp(d->labels, "NHWC", 4) == 0) return TL_LAROD_TENSOR_LAYOUT_NHWC;
    if (d->rank == 4 && memcmp(d->labels, "NCHW", 4) == 0) return TL_LAROD_TENSOR_LAYOUT_NCHW;
    return TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED;
}

/* Per dim, the one plain axis (dim k at position k) larod pitches can express. */
static tl_status export_axes(const tl_desc *d)
{
    const tl_plane *pl = &d->planes[0];
    char why[256];
    if (d->nplanes != 1) return export_fail("several planes but not an NV12 image: larod cannot express them");
    if (pl->offset_bytes != 0) {
        snprintf(why, sizeof why, "planes[0].offset=%lld: larod pitches start at the buffer start (give the "
                 "offset as the tensor's fd offset instead)", (long long)pl->offset_bytes);
        return export_fail(why);
    }
    for (int k = 0; k < d->rank; k++)
        if (d->pad_lo[k]) {
            snprintf(why, sizeof why, "pad_lo[%d]=%lld: larod pitches can pad only after a dim, not before",
                     k, (long long)d->pad_lo[k]);
            return export_fail(why);
        }
    for (int i = 0; i < d->rank; i++) {
        int count = 0, blocked = 0;
        for (int a = 0; a < pl->naxes; a++) {
            count += pl->axes[a].dim == i;
            blocked |= pl->axes[a].dim == i && pl->axes[a].block != 1;
        }
        if (count == 1 && !blocked) continue;
        if (count == 0)
            snprintf(why, sizeof why, "dim %d has no axis: larod pitches need one axis per dim", i);
        else
            snprintf(why, sizeof why, "dim %d is split over several axes (blocked layout, %d axes for %d dims): "
                     "larod pitches have one axis per dim", i, (int)pl->naxes, (int)d->rank);
        return export_fail(why);
    }
    for (int a = 0; a < pl->naxes; a++)
        if (pl->axes[a].dim != a) {
            snprintf(why, sizeof why, "axis %d stores dim %d: larod pitches are row-major in the order of the "
                     "dims (non-row-major order)", a, (int)pl->axes[a].dim);
            return export_fail(why);
        }
    return TL_OK;
}

static tl_status export_generic(const tl_desc *d, lt *t)
{
    const tl_plane *pl = &d->planes[0];
    int n = d->rank;
    char why[256];
    TL_TRY(export_axes(d));
    for (int k = 0; k < n; k++) {
        int64_t sb = pl->axes[k].stride_bits;
        bool bad = sb % 8 != 0 || (k == n - 1 && sb != es_of(t) * 8);
        if (bad) {
            snprintf(why, sizeof why, "axis %d has a stride of %lld bits: larod steps the last dim by the "
                     "%lld-byte element and the others by whole bytes", k, (long long)sb, (long long)es_of(t));
            return export_fail(why);
        }
        if (k > 0) t->pitches[k] = pl->axes[k - 1].stride_bits / 8;
    }
    t->pitches[0] = d->size_bytes;
    if (check_generic(t, t->pitches) == TL_OK) return TL_OK;
    snprintf(why, sizeof why, "strides are not row-major in dims order: %s", tl_last_error());
    return tl_fail(TL_ERR_VENDOR_EXPORT, "%s", why);
}

/* An NV12 image: exactly what the 420SP builder makes from its pitches. */
static tl_status export_420sp(const tl_desc *d, lt *t)
{
    tl_desc ref;
    if (d->rank != 3 || d->nplanes != 3 || d->planes[0].naxes != 2 || d->dims[0] != 3)
        return export_fail("not an NV12 image (3 planes over c of dims (3, H, W)): no 420SP pitches");
    int64_t row = d->planes[0].axes[0].stride_bits / 8, co = d->planes[1].offset_bytes;
    t->pitches[2] = row;
    t->pitches[1] = co;
    t->pitches[0] = d->size_bytes;
    bool same = tl_desc_init_yuv420(&ref, TL_YUV_NV12, d->dims[1], d->dims[2], row, co) == TL_OK &&
                memcmp(ref.planes, d->planes, sizeof ref.planes) == 0 &&
                memcmp(ref.pad_lo, d->pad_lo, sizeof ref.pad_lo) == 0 &&
                memcmp(ref.pad_hi, d->pad_hi, sizeof ref.pad_hi) == 0 && d->dtype == TL_U8;
    if (!same)
        return export_fail("planes are not NV12 (a Y plane, then Cb,Cr interleaved with the same row pitch): "
                           "larod 420SP cannot express them");
    if (check_420sp(t, t->pitches) == TL_OK) return TL_OK;
    char why[320];
    snprintf(why, sizeof why, "size or row pitch too small for larod 420SP: %s", tl_last_error());
    return tl_fail(TL_ERR_VENDOR_EXPORT, "%s", why);
}

/* Descriptor -> lt with full pitches; d is valid. */
tl_status tl_larod_lt_from_desc(const tl_desc *d, lt *t)
{
    memset(t, 0, sizeof *t);
    t->layout = layout_of_desc(d);
    if (check_layout(t->layout) != TL_OK) return export_fail("vendor_format is not a larod layout");
    tl_larod_tensor_data_type ldt;
    if (tl_larod_data_type((tl_dtype)d->dtype, &ldt) != TL_OK) {
        char why[128];
        snprintf(why, sizeof why, "dtype %s: larod has no such data type", tl_dtype_name((tl_dtype)d->dtype));
        return export_fail(why);
    }
    t->dt = (tl_dtype)d->dtype;
    t->n = t->np = d->rank;
    for (int i = 0; i < d->rank; i++) t->dims[i] = d->dims[i];
    if (t->layout == TL_LAROD_TENSOR_LAYOUT_420SP) return export_420sp(d, t);
    if (check_lengths(t) != TL_OK) {
        char why[256];
        snprintf(why, sizeof why, "%s", tl_last_error());
        return tl_fail(TL_ERR_VENDOR_EXPORT, "%s", why);
    }
    return export_generic(d, t);
}

tl_status tl_larod_from_desc(const tl_desc *d, tl_larod_tensor_layout *layout,
                             tl_larod_tensor_data_type *data_type, tl_larod_tensor_dims *dims,
                             tl_larod_tensor_pitches *pitches)
{
    lt t;
    tl_larod_tensor_pitches p;
    tl_larod_tensor_dims dd;
    tl_larod_tensor_data_type ldt;
    TL_TRY(tl_desc_validate(d));
    TL_TRY(tl_larod_lt_from_desc(d, &t));
    TL_TRY(pitches_to_public(t.pitches, t.n, &p));
    memset(&dd, 0, sizeof dd);
    TL_TRY(to_size(t.dims, t.n, dd.dims, "dims"));
    dd.len = (size_t)t.n;
    TL_TRY(tl_larod_data_type(t.dt, &ldt));
    if (layout) *layout = (tl_larod_tensor_layout)t.layout;
    if (data_type) *data_type = ldt;
    if (dims) *dims = dd;
    if (pitches) *pitches = p;
    return TL_OK;
}

tl_status tl_larod_pitches_from_desc(const tl_desc *d, tl_larod_tensor_pitches *pitches)
{
    if (!pitches) return tl_fail(TL_ERR_NULL, "pitches is NULL");
    return tl_larod_from_desc(d, NULL, NULL, NULL, pitches);
}

tl_status tl_larod_check_fd_size(const tl_desc *d, uint64_t fd_offset, uint64_t fd_size)
{
    TL_TRY(tl_desc_validate(d));
    uint64_t need = fd_offset + (uint64_t)d->size_bytes;
    if (need < fd_offset)
        return tl_fail(TL_ERR_OVERFLOW, "fd offset %llu + size overflows (larod)", (unsigned long long)fd_offset);
    if (fd_size == 0 || fd_size >= need) return TL_OK;
    return tl_fail(TL_ERR_BUFFER_SMALL, "fd size=%llu < %llu = fd offset %llu + pitches[0] %lld: the tensor's fd "
                   "must hold the whole tensor (rule 8) (larod)", (unsigned long long)fd_size,
                   (unsigned long long)need, (unsigned long long)fd_offset, (long long)d->size_bytes);
}
