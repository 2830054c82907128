/* NVIDIA TensorRT and DLA: the 13 TensorFormats, DLA I/O rules, runtime
 * strides in vector units (NvInferRuntime.h, docs/tensorrt.md).
 *
 * Every format is built by one path: (format, type, dims, strides in vector
 * units) -> descriptor. A spec without strides= uses the packed strides of the
 * format, so a descriptor from a spec and one from a running engine's
 * getTensorStrides() are byte-identical when the engine reports packed strides.
 *
 * Vector-major (kCHW2/4/16/32, kCDHW32): C becomes C(block V) outside and
 * C(block 1, extent V) innermost, padded to rup(C,V). Vector-minor (kHWC8/16,
 * kDHWC8, kDLA_HWC4): C moves innermost, padded to rup(C,V). Gaps that the
 * strides leave after a dim (DLA row alignment, padded runtime strides) become
 * pad_hi of that dim, so converters zero them. Spec strings (trt.<format>:...),
 * describe --json and explain: trt_spec.c. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/trt_internal.h"

const char *const tl_trt_ver_names[TL_TRT_NVER] = {"8.6", "10.x", "11.1"};

#define TB(t) (1u << (t))
#define T_F TB(TL_TRT_FLOAT)
#define T_H TB(TL_TRT_HALF)
#define T_I8 TB(TL_TRT_INT8)
#define T_U8 TB(TL_TRT_UINT8)
#define T_BF TB(TL_TRT_BF16)
#define T_I64 TB(TL_TRT_INT64)
#define T_FP8 TB(TL_TRT_FP8)
#define T_ALL 0x0fffu

/* DataTypes each header version has: 8.6 ends at kFP8 = 6. */
static const unsigned ver_types[TL_TRT_NVER] = {0x7fu, T_ALL, T_ALL};

/* Indexed by the TensorFormat value. 10.x: a 2024 TensorRT 10 NvInferRuntime.h
 * (kHWC also FP16/INT64/BF16); it states no type for kCHW32, taken as 11.1's. */
const fmt_info tl_trt_fmts[TL_TRT_FORMAT_COUNT] = {
    {"linear", "kLINEAR", K_LINEAR, 1, 0, 1, {T_ALL, T_ALL, T_ALL}},
    {"chw2", "kCHW2", K_MAJOR, 2, 3, 3, {T_H, T_H, T_H | T_BF}},
    {"hwc8", "kHWC8", K_MINOR, 8, 3, 3, {T_H, T_H | T_BF, T_H | T_BF}},
    {"chw4", "kCHW4", K_MAJOR, 4, 3, 3, {T_I8 | T_H, T_I8 | T_H, T_I8}},
    {"chw16", "kCHW16", K_MAJOR, 16, 3, 3, {T_H, T_H, T_H}},
    {"chw32", "kCHW32", K_MAJOR, 32, 3, 3, {T_I8 | T_F | T_H, T_I8 | T_F | T_H, T_I8 | T_F | T_H}},
    {"dhwc8", "kDHWC8", K_MINOR, 8, 4, 4, {T_H, T_H | T_BF, T_H | T_BF}},
    {"cdhw32", "kCDHW32", K_MAJOR, 32, 4, 4, {T_H | T_I8, T_H | T_I8, T_H | T_I8}},
    {"hwc", "kHWC", K_MINOR, 1, 3, 3, {T_F | T_U8, T_F | T_H | T_U8 | T_I64 | T_BF, T_F | T_U8}},
    {"dla_linear", "kDLA_LINEAR", K_DLA_LINEAR, 1, 3, 3, {T_H | T_I8, T_H | T_I8, T_H | T_I8}},
    {"dla_hwc4", "kDLA_HWC4", K_DLA_HWC4, 4, 3, 3, {T_H | T_I8, T_H | T_I8, T_H | T_I8}},
    {"hwc16", "kHWC16", K_MINOR, 16, 3, 3, {T_H, T_H | T_I8, T_H | T_I8 | T_FP8}},
    {"dhwc", "kDHWC", K_MINOR, 1, 4, 4, {0, T_F, T_F}},
};

static const char *const type_names[TL_TRT_DATATYPE_COUNT] = {
    "kFLOAT", "kHALF", "kINT8", "kINT32", "kBOOL", "kUINT8",
    "kFP8", "kBF16", "kINT64", "kINT4", "kFP4", "kE8M0"};
static const tl_dtype type_dtypes[TL_TRT_DATATYPE_COUNT] = {
    TL_F32, TL_F16, TL_I8, TL_I32, TL_BOOL, TL_U8,
    TL_DT_INVALID, TL_BF16, TL_I64, TL_I4, TL_DT_INVALID, TL_DT_INVALID};
const char *const tl_trt_role_names[4] = {"gpu", "input", "output", "any"};

#define DLA_MAX_BATCH 4096 /* product of the dims before C (DLA layer restrictions) */

/* ---- names ---------------------------------------------------------------- */

const char *tl_trt_format_name(int32_t format)
{
    return format >= 0 && format < TL_TRT_FORMAT_COUNT ? tl_trt_fmts[format].name : "?";
}

const char *tl_trt_datatype_name(int32_t type)
{
    return type >= 0 && type < TL_TRT_DATATYPE_COUNT ? type_names[type] : "?";
}

tl_dtype tl_trt_dtype_of(int32_t type)
{
    return type >= 0 && type < TL_TRT_DATATYPE_COUNT ? type_dtypes[type] : TL_DT_INVALID;
}

int32_t tl_trt_datatype_of(tl_dtype t)
{
    for (int32_t k = 0; k < TL_TRT_DATATYPE_COUNT; k++)
        if (type_dtypes[k] == t && t != TL_DT_INVALID) return k;
    return -1;
}

/* ---- a request's geometry (the request itself: trt_internal.h) --------- */

void tl_trt_geometry(const fmt_info *f, const int64_t *dims, int rank, geom *g)
{
    g->c = f->cpos ? rank - f->cpos : -1;
    g->minor = f->kind == K_MINOR || f->kind == K_DLA_HWC4;
    g->V = f->kind == K_DLA_HWC4 ? (dims[g->c] == 1 ? 1 : 4) : f->vlen; /* C' */
    g->v = g->V > 1 ? g->c : -1;
    int k = 0;
    for (int i = 0; i < rank; i++)
        if (!g->minor || i != g->c) g->order[k++] = i;
    if (g->minor) g->order[k] = g->c;
}

/* N C H W by role: C, then H W (D H W), N before C; kLINEAR: a suffix of
 * N C H W, or of N C D H W from rank 5. Other leading dims stay unlabelled. */
static void set_labels(char *labels, const fmt_info *f, int rank)
{
    if (!f->cpos) {
        const char *s = rank >= 5 ? "NCDHW" : "NCHW";
        int n = (int)strlen(s);
        for (int i = 0; i < rank; i++) labels[i] = i - (rank - n) >= 0 ? s[i - (rank - n)] : 0;
        return;
    }
    int c = rank - f->cpos;
    const char *after = f->cpos == 4 ? "DHW" : "HW";
    labels[c] = 'C';
    if (c > 0) labels[c - 1] = 'N';
    for (int j = 0; after[j]; j++) labels[c + 1 + j] = after[j];
}

/* Label of dim i for messages ('?' when unlabelled); rank is in range. */
static char label_of(const fmt_info *f, int rank, int i)
{
    char labels[TL_MAX_DIMS] = {0};
    set_labels(labels, f, rank);
    return labels[i] ? labels[i] : '?';
}

/* ---- type rules ------------------------------------------------------------ */

static unsigned allowed_in(const fmt_info *f, int k) { return f->types[k] & ver_types[k]; }

/* Versions (bit k = tl_trt_ver_names[k]) whose header allows `type` for f. */
unsigned tl_trt_type_versions(const fmt_info *f, int32_t type)
{
    unsigned m = 0;
    for (int k = 0; k < TL_TRT_NVER; k++)
        if (allowed_in(f, k) & TB(type)) m |= 1u << k;
    return m;
}

static void sb_types(tl_strbuf *sb, unsigned mask)
{
    const char *sep = "";
    for (int t = 0; t < TL_TRT_DATATYPE_COUNT; t++)
        if (mask & TB(t)) {
            tl_sb_printf(sb, "%s%s", sep, type_names[t]);
            sep = ", ";
        }
}

void tl_trt_sb_versions(tl_strbuf *sb, unsigned vmask)
{
    int n = 0, total = 0;
    for (int k = 0; k < TL_TRT_NVER; k++) total += (vmask >> k) & 1;
    for (int k = 0; k < TL_TRT_NVER; k++)
        if (vmask & (1u << k)) {
            n++;
            tl_sb_printf(sb, "%s%s", n == 1 ? "" : n == total ? " and " : ", ", tl_trt_ver_names[k]);
        }
}

/* "kHALF (8.6), kHALF, kBF16 (10.x and 11.1)": versions grouped by their list. */
static void sb_type_table(tl_strbuf *sb, const fmt_info *f)
{
    unsigned done = 0;
    const char *sep = "";
    for (int k = 0; k < TL_TRT_NVER; k++) {
        if (done & (1u << k) || !allowed_in(f, k)) continue;
        unsigned vm = 0;
        for (int j = k; j < TL_TRT_NVER; j++)
            if (allowed_in(f, j) == allowed_in(f, k)) vm |= 1u << j;
        done |= vm;
        tl_sb_printf(sb, "%s", sep);
        sb_types(sb, allowed_in(f, k));
        tl_sb_printf(sb, " (TensorRT ");
        tl_trt_sb_versions(sb, vm);
        tl_sb_printf(sb, ")");
        sep = "; ";
    }
}

static tl_status check_type(const req *r)
{
    const fmt_info *f = &tl_trt_fmts[r->format];
    if (r->type < 0 || r->type >= TL_TRT_DATATYPE_COUNT)
        return tl_fail(TL_ERR_DTYPE, "type=%d: not a nvinfer1::DataType (0..%d) (TensorRT)", (int)r->type,
                       TL_TRT_DATATYPE_COUNT - 1);
    if (type_dtypes[r->type] == TL_DT_INVALID)
        return tl_fail(TL_ERR_DTYPE, "type=%s: tlayout has no dtype for it, so its values cannot be described (TensorRT)",
                       type_names[r->type]);
    if (tl_trt_type_versions(f, r->type)) return TL_OK;
    char buf[256];
    tl_strbuf sb = {buf, sizeof buf, 0};
    sb_type_table(&sb, f);
    return tl_fail(TL_ERR_DTYPE, "dtype=%s (%s) with %s: no TensorRT version allows it; %s takes %s (TensorRT)",
                   tl_dtype_name(type_dtypes[r->type]), type_names[r->type], f->name, f->name, buf);
}

/* ---- dims and DLA rules ------------------------------------------------------ */

static tl_status check_dims(const req *r)
{
    const fmt_info *f = &tl_trt_fmts[r->format];
    if (r->rank < f->min_rank || r->rank > TL_TRT_MAX_DIMS)
        return tl_fail(TL_ERR_RANK, "rank=%d: %s needs %d to %d dims%s (TensorRT)", r->rank, f->name,
                       (int)f->min_rank, TL_TRT_MAX_DIMS,
                       f->cpos == 4 ? " (C is fourth to last)" : f->cpos == 3 ? " (C is third to last)" : "");
    for (int i = 0; i < r->rank; i++)
        if (r->dims[i] < 1)
            return tl_fail(TL_ERR_DIM, "dims[%d]=%lld (%c): a dim must be >= 1%s (TensorRT)", i, (long long)r->dims[i],
                           label_of(f, r->rank, i), r->dims[i] == -1 ? "; -1 is an unresolved dynamic dim" : "");
    if (f->kind == K_DLA_HWC4) {
        int64_t c = r->dims[r->rank - 3];
        if (c != 1 && c != 3 && c != 4)
            return tl_fail(TL_ERR_VENDOR, "C=%lld: kDLA_HWC4 takes C = 1, 3 or 4 (stored as C' = 1, 4, 4) (TensorRT DLA)",
                           (long long)c);
    }
    return TL_OK;
}

static tl_status resolve_role(req *r)
{
    if (r->role < TL_TRT_GPU || r->role > TL_TRT_DLA_ANY)
        return tl_fail(TL_ERR_VENDOR, "dla_role=%d: must be 0 (format default), 1 input, 2 output or 3 any (TensorRT)",
                       (int)r->role);
    if (r->gen != TL_TRT_DLA_ORIN && r->gen != TL_TRT_DLA_XAVIER)
        return tl_fail(TL_ERR_VENDOR, "dla_gen=%d: must be 0 (Orin) or 1 (Xavier) (TensorRT DLA)", (int)r->gen);
    if (r->role == TL_TRT_GPU)
        r->role = r->format == TL_TRT_DLA_HWC4 ? TL_TRT_DLA_INPUT
                  : r->format == TL_TRT_DLA_LINEAR ? TL_TRT_DLA_ANY : TL_TRT_GPU;
    if (r->role == TL_TRT_GPU && (r->gen_given || r->gen != TL_TRT_DLA_ORIN))
        return tl_fail(TL_ERR_VENDOR, "gen=%s on a %s GPU tensor: only DLA tensors have a DLA generation; add dla=input or dla=output (TensorRT DLA)",
                       r->gen == TL_TRT_DLA_XAVIER ? "xavier" : "orin", tl_trt_fmts[r->format].name);
    return TL_OK;
}

/* DataTypes a format takes as DLA I/O in a role; 0: not a DLA format there. */
static unsigned dla_types(int32_t format, int32_t role)
{
    switch (format) {
    case TL_TRT_DLA_LINEAR: return T_H | T_I8;
    case TL_TRT_DLA_HWC4: return role == TL_TRT_DLA_OUTPUT ? 0 : T_H | T_I8;
    case TL_TRT_CHW16: return T_H;
    case TL_TRT_CHW32: return T_I8;
    case TL_TRT_CHW4: return role == TL_TRT_DLA_OUTPUT ? 0 : T_I8 | T_H; /* deprecated input */
    default: return 0;
    }
}

static tl_status check_dla_format(const req *r)
{
    const fmt_info *f = &tl_trt_fmts[r->format];
    unsigned ok = dla_types(r->format, r->role);
    if (!ok)
        return tl_fail(TL_ERR_VENDOR, "dla=%s with %s: not a DLA %s format; DLA inputs take kDLA_LINEAR, kDLA_HWC4, kCHW16 (FP16), kCHW32 (INT8) (and the deprecated kCHW4), outputs only kDLA_LINEAR, kCHW16, kCHW32 (TensorRT DLA)",
                       tl_trt_role_names[r->role], f->name, r->role == TL_TRT_DLA_OUTPUT ? "output" : "I/O");
    if (!(ok & TB(r->type)))
        return tl_fail(TL_ERR_VENDOR, "dtype=%s (%s) with %s on DLA: DLA takes %s only as %s (its native %s format) (TensorRT DLA)",
                       tl_dtype_name(type_dtypes[r->type]), type_names[r->type], f->name, f->name,
                       r->format == TL_TRT_CHW32 ? "kINT8" : r->format == TL_TRT_CHW16 ? "kHALF" : "kHALF or kINT8",
                       r->format == TL_TRT_CHW32 ? "INT8 feature" : r->format == TL_TRT_CHW16 ? "FP16 feature" : "I/O");
    return TL_OK;
}

static tl_status check_dla_dims(const req *r)
{
    int c = r->rank - 3;
    for (int i = c; i < r->rank; i++)
        if (r->dims[i] > TL_TRT_DLA_MAX_CHW)
            return tl_fail(TL_ERR_VENDOR, "%c=%lld: DLA limits C, H and W to [1, %d] (TensorRT DLA)", "CHW"[i - c],
                           (long long)r->dims[i], TL_TRT_DLA_MAX_CHW);
    int64_t batch = 1;
    for (int i = 0; i < c; i++)
        if (!tl_mul_ok(batch, r->dims[i], &batch) || batch > DLA_MAX_BATCH)
            return tl_fail(TL_ERR_VENDOR, "batch (product of the dims before C, up to dims[%d]) > %d: DLA supports at most %d (TensorRT DLA)",
                           i, DLA_MAX_BATCH, DLA_MAX_BATCH);
    if (r->format == TL_TRT_CHW4 && r->dims[c] > 4)
        return tl_fail(TL_ERR_VENDOR, "C=%lld: kCHW4 as a DLA input (deprecated) needs C <= 4 (TensorRT DLA)",
                       (long long)r->dims[c]);
    return TL_OK;
}

static tl_status check_request(req *r)
{
    if (r->format < 0 || r->format >= TL_TRT_FORMAT_COUNT)
        return tl_fail(TL_ERR_SPEC_LAYOUT, "format=%d: not a nvinfer1::TensorFormat (0..%d) (TensorRT)", (int)r->format,
                       TL_TRT_FORMAT_COUNT - 1);
    TL_TRY(check_type(r));
    TL_TRY(check_dims(r));
    TL_TRY(resolve_role(r));
    if (r->role == TL_TRT_GPU) return TL_OK;
    TL_TRY(check_dla_format(r));
    return check_dla_dims(r);
}

/* ---- strides in vector units ----------------------------------------------------- */

static int dla_row_align(int32_t gen) { return gen == TL_TRT_DLA_XAVIER ? 32 : 64; }

/* Stored W of kDLA_HWC4: rows of W*C'*es bytes rounded up to 64 (Orin) / 32
 * (Xavier), in whole pixels because 64/(C'*es) is an integer (§5.6 item 1).
 * The DLA limit W <= 8192 is checked first; the arithmetic is checked anyway. */
static tl_status hwc4_width(const req *r, int64_t cp, int64_t *wp)
{
    int64_t es = tl_dtype_bits(type_dtypes[r->type]) / 8, px = cp * es, row;
    if (!tl_mul_ok(r->dims[r->rank - 1], px, &row) || !tl_rup_ok(row, dla_row_align(r->gen), &row))
        return tl_fail(TL_ERR_OVERFLOW, "W=%lld: the kDLA_HWC4 row overflows int64 (TensorRT DLA)",
                       (long long)r->dims[r->rank - 1]);
    *wp = row / px;
    return TL_OK;
}

/* Vectors of the vectorized dim: cdiv(C, V), overflow-checked. */
static tl_status vec_count(int64_t c, int64_t V, int64_t *n)
{
    int64_t r;
    if (!tl_rup_ok(c, V, &r)) return tl_fail(TL_ERR_OVERFLOW, "C=%lld rounded up to %lld overflows int64 (TensorRT)", (long long)c, (long long)V);
    *n = r / V;
    return TL_OK;
}

/* The strides a packed tensor of this format has (§5.2 arrays, §5.3). */
tl_status tl_trt_packed_strides(const req *r, const geom *g, int64_t *s)
{
    int64_t ext[TL_TRT_MAX_DIMS];
    const fmt_info *f = &tl_trt_fmts[r->format];
    int w = r->rank - 1;
    memcpy(ext, r->dims, sizeof ext);
    if (g->v >= 0) TL_TRY(vec_count(r->dims[g->v], g->V, &ext[g->v]));
    if (f->kind == K_DLA_LINEAR) { /* W padded to a 64-byte row */
        int64_t es = tl_dtype_bits(type_dtypes[r->type]) / 8;
        if (!tl_rup_ok(r->dims[w], 64 / es, &ext[w]))
            return tl_fail(TL_ERR_OVERFLOW, "W=%lld: the kDLA_LINEAR row overflows int64 (TensorRT DLA)", (long long)r->dims[w]);
    }
    if (f->kind == K_DLA_HWC4) TL_TRY(hwc4_width(r, g->V, &ext[w]));
    int64_t acc = 1;
    for (int k = r->rank - 1; k >= 0; k--) {
        int i = g->order[k];
        s[i] = acc;
        if (!tl_mul_ok(acc, ext[i], &acc))
            return tl_fail(TL_ERR_OVERFLOW, "%s tensor size overflows int64 at dims[%d]=%lld (TensorRT)", f->name, i,
                           (long long)r->dims[i]);
    }
    return TL_OK;
}

static tl_status check_strides(const req *r)
{
    const fmt_info *f = &tl_trt_fmts[r->format];
    for (int i = 0; i < r->rank; i++) {
        if (r->strides[i] < 0)
            return tl_fail(TL_ERR_STRIDE, "strides[%d]=%lld (%c): a stride must be >= 0 (TensorRT)", i,
                           (long long)r->strides[i], label_of(f, r->rank, i));
        if (r->strides[i] == 0 && r->dims[i] > 1)
            return tl_fail(TL_ERR_STRIDE, "strides[%d]=0 (%c) with dims[%d]=%lld: TensorRT I/O strides are >= 1 (no broadcast) (TensorRT)",
                           i, label_of(f, r->rank, i), i, (long long)r->dims[i]);
    }
    return TL_OK;
}

/* ---- the physical map -------------------------------------------------------- */

/* At most TL_TRT_MAX_DIMS + 1 axes: always room. */
static void push_axis(tl_plane *p, int dim, int64_t block, int64_t extent, int64_t stride_bits)
{
    p->axes[p->naxes++] = (tl_axis){.dim = dim, .block = block, .extent = extent, .stride_bits = stride_bits};
}

/* Axes in packed order; the vectorized dim gets C(block V) + C(block 1, extent
 * V), or one C(extent rup(C,V)) axis when vector-minor with stride 1. */
static tl_status build_axes(tl_desc *d, const req *r, const geom *g, const int64_t *s)
{
    tl_plane *p = &d->planes[0];
    int64_t eb = tl_dtype_bits((tl_dtype)d->dtype), vb = g->V * eb, nvec = 1;
    bool split = g->v >= 0 && (!g->minor || s[g->v] != 1);
    if (g->v >= 0) TL_TRY(vec_count(r->dims[g->v], g->V, &nvec));
    for (int k = 0; k < r->rank; k++) {
        int i = g->order[k];
        int64_t st;
        if (!tl_mul_ok(s[i], vb, &st))
            return tl_fail(TL_ERR_OVERFLOW, "strides[%d]=%lld vectors overflows int64 bits (TensorRT)", i, (long long)s[i]);
        if (i == g->v && split) push_axis(p, i, g->V, nvec, st);
        else if (i == g->v) push_axis(p, i, 1, nvec * g->V, eb);
        else push_axis(p, i, 1, r->dims[i], st);
    }
    if (split) push_axis(p, g->v, 1, g->V, eb);
    if (g->v >= 0) d->pad_hi[g->v] = nvec * g->V - r->dims[g->v];
    return TL_OK;
}

/* Outermost first: stable by decreasing stride, so permuted runtime strides
 * give the true memory order and packed ones keep the format's order. */
static void sort_axes(tl_plane *p)
{
    for (int s = 1; s < p->naxes; s++)
        for (int t = s; t > 0 && p->axes[t].stride_bits > p->axes[t - 1].stride_bits; t--) {
            tl_axis tmp = p->axes[t];
            p->axes[t] = p->axes[t - 1];
            p->axes[t - 1] = tmp;
        }
}

int tl_trt_axes_of_dim(const tl_plane *p, int dim)
{
    int n = 0;
    for (int a = 0; a < p->naxes; a++) n += p->axes[a].dim == dim;
    return n;
}

/* The furthest element, or TensorRT's volume stride*extent of an outer axis
 * (§5.3: strides[0]*dims[0]*V scalars) when that is larger. */
static tl_status set_size(tl_desc *d)
{
    const tl_plane *p = &d->planes[0];
    TL_TRY(tl_desc_update_size(d));
    for (int a = 0; a < p->naxes; a++) {
        int64_t bits;
        if (!tl_mul_ok(p->axes[a].stride_bits, p->axes[a].extent, &bits))
            return tl_fail(TL_ERR_OVERFLOW, "axes[%d]: stride x extent overflows int64 (TensorRT)", a);
        int64_t bytes = bits / 8 + (bits % 8 != 0);
        if (bytes > d->size_bytes) d->size_bytes = bytes;
    }
    return TL_OK;
}

/* ---- DLA stride rules (they need the built map) ------------------------------ */

const tl_axis *tl_trt_only_axis(const tl_desc *d, int dim)
{
    const tl_plane *p = &d->planes[0];
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == dim) return &p->axes[a];
    return NULL;
}

static tl_status check_dla_rows(const tl_desc *d, const req *r, const geom *g)
{
    int h = r->rank - 2, w = r->rank - 1;
    int64_t row = tl_trt_only_axis(d, h)->stride_bits / 8, eb = tl_dtype_bits((tl_dtype)d->dtype);
    int align = r->format == TL_TRT_DLA_LINEAR ? 64 : dla_row_align(r->gen);
    const char *gen = r->format == TL_TRT_DLA_LINEAR ? "" : r->gen == TL_TRT_DLA_XAVIER ? " on Xavier" : " on Orin";
    if (r->format == TL_TRT_DLA_HWC4 && tl_trt_only_axis(d, w)->stride_bits != g->V * eb)
        return tl_fail(TL_ERR_VENDOR, "strides[%d]=%lld (W): a kDLA_HWC4 pixel is C'=%lld lanes, so the W stride is 1 vector (TensorRT DLA)",
                       w, (long long)(tl_trt_only_axis(d, w)->stride_bits / (g->V * eb)), (long long)g->V);
    if (row % align == 0) return TL_OK;
    return tl_fail(TL_ERR_VENDOR, "H stride %lld bytes: %s%s rows must be a multiple of %d bytes%s (TensorRT DLA)",
                   (long long)row, tl_trt_fmts[r->format].name, r->format == TL_TRT_CHW4 ? " DLA input" : "", align, gen);
}

/* ---- the one builder ------------------------------------------------------------ */

/* A stride that leaves room after the next inner dim (a DLA row, a padded
 * runtime stride) pads that dim when it is the dim's only axis: then the gap
 * is padding that converters zero, not unknown bytes. The partner is the axis
 * just before in stride order. A padding that would make a valid stride set
 * invalid (a tight outer stride, odd strides of size-1 dims) is not made. */
static tl_status map_gaps(tl_desc *d)
{
    tl_plane *p = &d->planes[0];
    TL_TRY(set_size(d));
    for (int k = 1; k < p->naxes; k++) {
        const tl_axis *A = &p->axes[k - 1];
        tl_axis *B = &p->axes[k];
        if (B->block != 1 || B->stride_bits <= 0 || tl_trt_axes_of_dim(p, B->dim) != 1) continue;
        if (A->stride_bits % B->stride_bits || A->stride_bits / B->stride_bits <= B->extent) continue;
        tl_desc before = *d;
        int64_t q = A->stride_bits / B->stride_bits;
        d->pad_hi[B->dim] += q - B->extent;
        B->extent = q;
        if (set_size(d) != TL_OK || tl_desc_validate(d) != TL_OK) *d = before;
    }
    return TL_OK;
}

/* The core's rules with the strides that broke them, named for TensorRT. */
static tl_status validate_built(const tl_desc *d, const req *r)
{
    tl_status s = tl_desc_validate(d);
    if (s == TL_OK) return TL_OK;
    char why[256], list[160];
    tl_strbuf sb = {list, sizeof list, 0};
    snprintf(why, sizeof why, "%s", tl_last_error());
    tl_sb_i64_list(&sb, r->strides, r->rank, ",");
    return tl_fail(s, "%s strides=%s: %s (TensorRT)", tl_trt_fmts[r->format].name, r->has_strides ? list : "(packed)", why);
}

static tl_status set_quant(tl_desc *d, const req *r)
{
    if (r->scale == 0.0f) return TL_OK;
    if (!(r->scale > 0.0f) || !isfinite(r->scale))
        return tl_fail(TL_ERR_QUANT, "scale=%g: must be a finite number > 0, or 0 for none (TensorRT)", (double)r->scale);
    if (r->type != TL_TRT_INT8 && r->type != TL_TRT_INT4)
        return tl_fail(TL_ERR_QUANT, "scale=%g with %s: TensorRT quantizes only kINT8 and kINT4 tensors (TensorRT)",
                       (double)r->scale, type_names[r->type]);
    d->quant = (tl_quant){.kind = TL_Q_AFFINE, .round = TL_ROUND_EVEN, .zp = 0, .scale = r->scale};
    return TL_OK;
}

tl_status tl_trt_build(tl_desc *out, const req *r0)
{
    req r = *r0;
    geom g;
    tl_desc d;
    TL_TRY(check_request(&r));
    const fmt_info *f = &tl_trt_fmts[r.format];
    tl_trt_geometry(f, r.dims, r.rank, &g);
    if (r.has_strides) TL_TRY(check_strides(&r));
    else TL_TRY(tl_trt_packed_strides(&r, &g, r.strides));
    tl_desc_clear(&d);
    d.rank = r.rank;
    d.dtype = type_dtypes[r.type];
    memcpy(d.dims, r.dims, sizeof r.dims);
    set_labels(d.labels, f, r.rank);
    TL_TRY(build_axes(&d, &r, &g, r.strides));
    sort_axes(&d.planes[0]);
    TL_TRY(map_gaps(&d));
    d.vendor = TL_VENDOR_TRT;
    d.vendor_format = r.format;
    d.vendor_params[0] = r.gen;
    d.vendor_params[1] = r.role;
    TL_TRY(set_quant(&d, &r));
    TL_TRY(validate_built(&d, &r));
    bool rows = r.format == TL_TRT_DLA_LINEAR || r.format == TL_TRT_DLA_HWC4 ||
                (r.format == TL_TRT_CHW4 && r.role != TL_TRT_GPU);
    if (rows) TL_TRY(check_dla_rows(&d, &r, &g));
    *out = d;
    return TL_OK;
}

/* ---- public builders ----------------------------------------------------------- */

static tl_status req_dims(req *r, const tl_trt_dims *dims, const tl_trt_dims *strides)
{
    if (!dims) return tl_fail(TL_ERR_NULL, "dims is NULL (TensorRT)");
    if (dims->nbDims < 1 || dims->nbDims > TL_TRT_MAX_DIMS)
        return tl_fail(TL_ERR_RANK, "dims.nbDims=%d: must be 1..%d%s (TensorRT)", (int)dims->nbDims, TL_TRT_MAX_DIMS,
                       dims->nbDims == -1 ? "; -1 means an unknown tensor name or unresolved shape" : "");
    r->rank = dims->nbDims;
    memcpy(r->dims, dims->d, sizeof r->dims);
    if (!strides || strides->nbDims == 0) return TL_OK;
    if (strides->nbDims != dims->nbDims)
        return tl_fail(TL_ERR_STRIDE, "strides.nbDims=%d: must equal dims.nbDims=%d%s (TensorRT)", (int)strides->nbDims,
                       (int)dims->nbDims, strides->nbDims == -1 ? "; -1 means getTensorStrides could not resolve the tensor" : "");
    r->has_strides = true;
    memcpy(r->strides, strides->d, sizeof r->strides);
    return TL_OK;
}

tl_status tl_trt_desc_init(tl_desc *d, const tl_trt_tensor *t)
{
    req r;
    if (!d || !t) return tl_fail(TL_ERR_NULL, "descriptor or tensor is NULL (TensorRT)");
    memset(&r, 0, sizeof r);
    r.format = t->format;
    r.type = t->type;
    r.role = t->dla_role;
    r.gen = t->dla_gen;
    r.scale = t->scale;
    TL_TRY(req_dims(&r, &t->dims, &t->strides));
    return tl_trt_build(d, &r);
}

tl_status tl_trt_desc_from_runtime(tl_desc *d, int32_t format, int32_t type, const tl_trt_dims *dims,
                                   const tl_trt_dims *strides)
{
    tl_trt_tensor t;
    if (!d || !dims) return tl_fail(TL_ERR_NULL, "descriptor or dims is NULL (TensorRT)");
    memset(&t, 0, sizeof t);
    t.format = format;
    t.type = type;
    t.dims = *dims;
    if (strides) t.strides = *strides;
    return tl_trt_desc_init(d, &t);
}

/* ---- runtime view of a descriptor ------------------------------------------------ */

static tl_status export_fail(const char *why, int dim)
{
    return tl_fail(TL_ERR_VENDOR_EXPORT, "dims[%d]: %s, which TensorRT strides cannot express (TensorRT)", dim, why);
}

/* Vectorized dim and V of a descriptor not built as TensorRT: the one dim
 * stored as C(block V) + C(block 1, extent V, stride 1 element), if any. */
static tl_status infer_vector(const tl_desc *d, int *v, int64_t *V)
{
    const tl_plane *p = &d->planes[0];
    int64_t eb = tl_dtype_bits((tl_dtype)d->dtype);
    *v = -1;
    *V = 1;
    for (int a = 0; a < p->naxes; a++) {
        const tl_axis *x = &p->axes[a];
        if (x->block == 1 || tl_trt_axes_of_dim(p, x->dim) != 2) continue;
        for (int b = 0; b < p->naxes; b++) {
            const tl_axis *y = &p->axes[b];
            if (b == a || y->dim != x->dim) continue;
            if (y->block != 1 || y->extent != x->block || y->stride_bits != eb || *v >= 0)
                return export_fail("more than one blocked dim, or an inner block that is not contiguous", x->dim);
            if (x->block > INT32_MAX) /* getComponentsPerElement() is an int32_t */
                return export_fail("a block of more than 2147483647 elements (componentsPerElement is an int32)",
                                   x->dim);
            *v = x->dim;
            *V = x->block;
        }
    }
    return TL_OK;
}

/* Stride of dim i in vectors of V scalars: its one axis, or the outer
 * C(block V) axis of a vector-major dim; a vector-minor dim (one axis of
 * stride one scalar) has stride 1. */
static tl_status dim_stride(const tl_desc *d, int i, int v, int64_t V, int64_t *s)
{
    const tl_plane *p = &d->planes[0];
    int64_t eb = tl_dtype_bits((tl_dtype)d->dtype), vb = V * eb;
    const tl_axis *ax[2] = {NULL, NULL};
    int n = 0;
    for (int a = 0; a < p->naxes; a++)
        if (p->axes[a].dim == i && n++ < 2) ax[n - 1] = &p->axes[a];
    if (n == 0) return export_fail("no physical axis", i);
    if (n > 2 || (n == 2 && i != v)) return export_fail("a dim split into blocks", i);
    const tl_axis *outer = ax[0];
    if (i == v && n == 1) {
        if (outer->block != 1 || outer->stride_bits != eb)
            return export_fail("the vectorized dim is not innermost with a one-scalar stride", i);
        *s = 1;
        return TL_OK;
    }
    if (n == 2) {
        const tl_axis *in = ax[0]->block > 1 ? ax[1] : ax[0];
        outer = ax[0]->block > 1 ? ax[0] : ax[1];
        if (outer->block != V || in->block != 1 || in->extent != V || in->stride_bits != eb)
            return export_fail("the vectorized dim is not C(block V) outside C(V contiguous lanes)", i);
    } else if (outer->block != 1) {
        return export_fail("a subsampled dim (its only axis has a block > 1)", i);
    }
    if (outer->stride_bits % vb) return export_fail("a stride that is not a whole number of vectors", i);
    *s = outer->stride_bits / vb;
    return TL_OK;
}

static tl_status runtime_geometry(const tl_desc *d, int *v, int64_t *V, int32_t *format)
{
    *format = -1;
    if (d->vendor != TL_VENDOR_TRT) return infer_vector(d, v, V);
    if (d->vendor_format < 0 || d->vendor_format >= TL_TRT_FORMAT_COUNT || d->rank < tl_trt_fmts[d->vendor_format].min_rank)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "vendor_format=%d with rank %d: not a TensorRT format this rank allows (TensorRT)",
                       (int)d->vendor_format, (int)d->rank);
    geom g;
    tl_trt_geometry(&tl_trt_fmts[d->vendor_format], d->dims, d->rank, &g);
    *v = g.v;
    *V = g.V;
    *format = d->vendor_format;
    return TL_OK;
}

tl_status tl_trt_runtime_info(const tl_desc *d, tl_trt_runtime *out)
{
    tl_trt_runtime rt;
    int v = -1;
    int64_t V = 1;
    if (!out) return tl_fail(TL_ERR_NULL, "result is NULL (TensorRT)");
    TL_TRY(tl_desc_validate(d));
    if (d->rank > TL_TRT_MAX_DIMS)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "rank=%d: TensorRT Dims hold at most %d (TensorRT)", (int)d->rank, TL_TRT_MAX_DIMS);
    if (d->nplanes != 1 || d->planes[0].offset_bytes != 0)
        return tl_fail(TL_ERR_VENDOR_EXPORT, "a multi-plane descriptor or one with a plane offset has no TensorRT strides (TensorRT)");
    for (int i = 0; i < d->rank; i++)
        if (d->pad_lo[i]) return export_fail("padding before the first element", i);
    memset(&rt, 0, sizeof rt);
    TL_TRY(runtime_geometry(d, &v, &V, &rt.format));
    rt.strides.nbDims = d->rank;
    for (int i = 0; i < d->rank; i++) TL_TRY(dim_stride(d, i, v, V, &rt.strides.d[i]));
    unsigned eb = tl_dtype_bits((tl_dtype)d->dtype);
    rt.vectorized_dim = v;
    rt.components_per_element = v >= 0 ? (int32_t)V : -1;
    rt.bytes_per_component = v >= 0 && eb >= 8 ? (int32_t)(eb / 8) : -1;
    *out = rt;
    return TL_OK;
}

tl_status tl_trt_runtime_strides(const tl_desc *d, tl_trt_dims *strides)
{
    tl_trt_runtime rt;
    if (!strides) return tl_fail(TL_ERR_NULL, "strides is NULL (TensorRT)");
    TL_TRY(tl_trt_runtime_info(d, &rt));
    *strides = rt.strides;
    return TL_OK;
}
