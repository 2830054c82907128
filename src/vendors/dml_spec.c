/* DirectML's spec-text adapter: dml / dml.nchw / dml.nhwc strings and their
 * options (strides, broadcast and the buffer tensor's scalars) to and from
 * the model of dml.c, and the dml_* members of describe --json and the
 * sentences of `tlayout explain`. */
#include <stdio.h>
#include <string.h>

#include "core/internal.h"
#include "vendors/dml_internal.h"

#define SPEC_CAP 1024

/* ======================================================================== */
/* Spec strings: dml / dml.nchw / dml.nhwc                                  */
/* ======================================================================== */

static const char *const k_formats[] = {"dml", "dml.nchw", "dml.nhwc"};

static tl_status spec_format(const tl_spec *sp, int *fmt)
{
    const char *vf = sp->vformat;
    *fmt = !*vf ? TL_DML_FORMAT_STRIDES : strcmp(vf, "nchw") == 0 ? TL_DML_FORMAT_NCHW
         : strcmp(vf, "nhwc") == 0 ? TL_DML_FORMAT_NHWC : -1;
    if (*fmt < 0)
        return tl_fail(TL_ERR_SPEC_LAYOUT, "layout dml.%s: unknown DirectML format, expected dml, dml.nchw "
                       "or dml.nhwc", vf);
    return TL_OK;
}

static tl_status spec_sizes(const tl_spec *sp, uint32_t *sizes)
{
    if (sp->ndims < 1 || sp->ndims > DML_MAX)
        return tl_fail(TL_ERR_RANK, "%d dims given: DimensionCount must be 1..%d (DirectML)", sp->ndims,
                       DML_MAX);
    for (int i = 0; i < sp->ndims; i++) {
        if (sp->dims[i] > (int64_t)UINT32_MAX)
            return tl_fail(TL_ERR_VENDOR, "dims[%d]=%lld: Sizes entries are UINT, at most 4294967295 "
                           "(DirectML)", i, (long long)sp->dims[i]);
        sizes[i] = (uint32_t)sp->dims[i];
    }
    return TL_OK;
}

/* One UINT option value. */
static tl_status spec_u32(const char *key, const char *text, uint32_t *v)
{
    int64_t t;
    TL_TRY(tl_parse_i64(key, text, &t));
    if (t < 0 || t > (int64_t)UINT32_MAX)
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: must be 0..4294967295, a DirectML UINT", key, text);
    *v = (uint32_t)t;
    return TL_OK;
}

/* strides=s0,...: elements, logical order; 0 broadcasts. */
static tl_status spec_explicit_strides(const tl_spec_opt *o, int n, uint32_t *strides)
{
    int64_t v[DML_MAX];
    TL_TRY(tl_parse_i64_list("strides", o->value, v, n, n, NULL));
    for (int i = 0; i < n; i++) {
        if (v[i] < 0)
            return tl_fail(TL_ERR_STRIDE, "strides[%d]=%lld: strides must be >= 0 (DirectML)", i,
                           (long long)v[i]);
        if (v[i] > (int64_t)UINT32_MAX)
            return tl_fail(TL_ERR_SPEC_VALUE, "strides[%d]=%lld: DirectML strides are UINT, at most "
                           "4294967295", i, (long long)v[i]);
        strides[i] = (uint32_t)v[i];
    }
    return TL_OK;
}

/* broadcast=b0,...: one 0/1 per dim -> bit i. */
static tl_status spec_broadcast(const tl_spec_opt *o, int n, uint32_t *mask)
{
    int64_t v[DML_MAX];
    *mask = 0;
    if (!o) return TL_OK;
    TL_TRY(tl_parse_i64_list("broadcast", o->value, v, n, n, NULL));
    for (int i = 0; i < n; i++) {
        if (v[i] != 0 && v[i] != 1)
            return tl_fail(TL_ERR_SPEC_VALUE, "broadcast=%s: item %d is %lld, each must be 0 or 1 "
                           "(DirectML)", o->value, i, (long long)v[i]);
        *mask |= (uint32_t)v[i] << i;
    }
    return TL_OK;
}

/* Strides of the spec: given (dml), computed (dml.nchw / dml.nhwc) or none. */
static tl_status spec_strides(tl_spec *sp, int fmt, const uint32_t *sizes, uint32_t *strides, uint32_t *mask,
                              bool *given)
{
    tl_spec_opt *so = tl_spec_take(sp, "strides"), *bo = tl_spec_take(sp, "broadcast");
    *mask = 0;
    *given = so != NULL || fmt != TL_DML_FORMAT_STRIDES;
    if (fmt == TL_DML_FORMAT_STRIDES) {
        if (bo)
            return tl_fail(TL_ERR_SPEC_OPTION, "broadcast= is for dml.nchw and dml.nhwc; with dml give "
                           "strides= with 0 for a broadcast dim (DirectML)");
        return so ? spec_explicit_strides(so, sp->ndims, strides) : TL_OK;
    }
    if (so)
        return tl_fail(TL_ERR_SPEC_OPTION, "strides= is not for %s, whose strides are computed; use "
                       "dml:...:strides= (DirectML)", k_formats[fmt]);
    TL_TRY(spec_broadcast(bo, sp->ndims, mask));
    tl_dml_layout lay = fmt == TL_DML_FORMAT_NHWC ? TL_DML_LAYOUT_NHWC : TL_DML_LAYOUT_NCHW;
    return tl_dml_calc_strides(lay, (uint32_t)sp->ndims, sizes, *mask, strides);
}

/* 0/1 flag options (owned=, readonly=). */
static tl_status spec_flag(tl_spec *sp, const char *key, bool *on)
{
    tl_spec_opt *o = tl_spec_take(sp, key);
    *on = false;
    if (!o) return TL_OK;
    if (strcmp(o->value, "0") != 0 && strcmp(o->value, "1") != 0)
        return tl_fail(TL_ERR_SPEC_VALUE, "%s=%s: must be 0 or 1 (DirectML)", key, o->value);
    *on = o->value[0] == '1';
    return TL_OK;
}

/* total=, base_align=, owned=; the minimum size when total= is absent. */
static tl_status spec_scalars(tl_spec *sp, tl_dml_buffer_tensor_desc *m)
{
    tl_spec_opt *to = tl_spec_take(sp, "total"), *ao = tl_spec_take(sp, "base_align");
    bool owned;
    TL_TRY(spec_flag(sp, "owned", &owned));
    m->Flags = owned ? TL_DML_TENSOR_FLAG_OWNED_BY_DML : 0;
    if (ao) TL_TRY(spec_u32("base_align", ao->value, &m->GuaranteedBaseOffsetAlignment));
    if (!to)
        return tl_dml_buffer_tensor_size(m->DataType, m->DimensionCount, m->Sizes, m->Strides,
                                         &m->TotalTensorSizeInBytes);
    int64_t t;
    TL_TRY(tl_parse_i64("total", to->value, &t));
    if (t < 0) return tl_fail(TL_ERR_SPEC_VALUE, "total=%s: TotalTensorSizeInBytes is >= 0 (DirectML)", to->value);
    m->TotalTensorSizeInBytes = (uint64_t)t;
    return TL_OK;
}

static tl_status spec_data_type(const tl_spec *sp, tl_dml_buffer_tensor_desc *m)
{
    m->DataType = tl_dml_data_type_from_dtype(sp->dtype);
    if (m->DataType == TL_DML_TENSOR_DATA_TYPE_UNKNOWN)
        return tl_fail(TL_ERR_DTYPE, "dtype %s: DirectML has no such DML_TENSOR_DATA_TYPE (it has f32 f16 "
                       "f64 u8..u64 i8..i64 u4 i4)", tl_dtype_name(sp->dtype));
    return TL_OK;
}

static tl_status parse(tl_desc *out, tl_spec *sp)
{
    tl_dml_buffer_tensor_desc m = {0};
    uint32_t sizes[DML_MAX], strides[DML_MAX], mask;
    int fmt;
    bool given, ro;
    TL_TRY(spec_format(sp, &fmt));
    TL_TRY(spec_data_type(sp, &m));
    TL_TRY(spec_sizes(sp, sizes));
    m.DimensionCount = (uint32_t)sp->ndims;
    m.Sizes = sizes;
    TL_TRY(spec_strides(sp, fmt, sizes, strides, &mask, &given));
    m.Strides = given ? strides : NULL;
    TL_TRY(spec_scalars(sp, &m));
    TL_TRY(spec_flag(sp, "readonly", &ro));
    TL_TRY(tl_dml_import(out, &m));
    out->vendor_format = fmt;
    out->vendor_params[3] = mask;
    if (ro) out->flags |= TL_DESC_READONLY;
    return TL_OK;
}

/* ---- format ------------------------------------------------------------ */

static void sb_u32_list(tl_strbuf *sb, const uint32_t *v, uint32_t n, const char *sep)
{
    for (uint32_t i = 0; i < n; i++) tl_sb_printf(sb, "%s%lu", i ? sep : "", (unsigned long)v[i]);
}

static bool strides_packed(const tl_dml_buffer_tensor_desc *m)
{
    uint32_t packed[DML_MAX];
    if (tl_dml_calc_strides(TL_DML_LAYOUT_NCHW, m->DimensionCount, m->Sizes, 0, packed) != TL_OK) return false;
    return memcmp(packed, m->Strides, sizeof(uint32_t) * m->DimensionCount) == 0;
}

/* The options that differ from what the prefix implies. */
static tl_status spec_options(const tl_desc *d, const tl_dml_buffer_tensor_desc *m, tl_strbuf *sb)
{
    int64_t min, mask = d->vendor_params[3];
    tl_desc plain;
    if (d->vendor_format == TL_DML_FORMAT_STRIDES && !strides_packed(m)) {
        tl_sb_printf(sb, ":strides=");
        sb_u32_list(sb, m->Strides, m->DimensionCount, ",");
    }
    if (d->vendor_format != TL_DML_FORMAT_STRIDES && mask != 0) {
        tl_sb_printf(sb, ":broadcast=");
        for (int i = 0; i < d->rank; i++) tl_sb_printf(sb, "%s%d", i ? "," : "", (int)(mask >> i & 1));
    }
    TL_TRY(tl_dml_min_total(m->DataType, m->DimensionCount, m->Sizes, m->Strides, &min));
    if (m->TotalTensorSizeInBytes != (uint64_t)min)
        tl_sb_printf(sb, ":total=%llu", (unsigned long long)m->TotalTensorSizeInBytes);
    if (m->GuaranteedBaseOffsetAlignment) tl_sb_printf(sb, ":base_align=%lu", (unsigned long)m->GuaranteedBaseOffsetAlignment);
    if (m->Flags & TL_DML_TENSOR_FLAG_OWNED_BY_DML) tl_sb_printf(sb, ":owned=1");
    TL_TRY(tl_dml_import(&plain, m));
    if ((d->flags & TL_DESC_READONLY) && !(plain.flags & TL_DESC_READONLY)) tl_sb_printf(sb, ":readonly=1");
    return TL_OK;
}

/* The spec must describe d exactly; a DirectML descriptor edited after it was
 * built (labels, padding, axes, flags) has no spec string. */
static tl_status check_round_trip(const tl_desc *d, const char *spec)
{
    tl_desc back;
    if (tl_desc_parse(&back, spec) == TL_OK) {
        back.quant = d->quant; /* the core appends the quant options */
        if (memcmp(&back, d, sizeof back) == 0) return TL_OK;
    }
    return tl_fail(TL_ERR_UNSUPPORTED, "descriptor differs from what '%s' describes (changed after it was "
                   "built?): no spec string (DirectML)", spec);
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    tl_dml_buffer_tensor_desc m;
    uint32_t sizes[DML_MAX], strides[DML_MAX];
    char buf[SPEC_CAP];
    tl_strbuf loc = {buf, sizeof buf, 0};
    if (d->vendor_format < TL_DML_FORMAT_STRIDES || d->vendor_format > TL_DML_FORMAT_NHWC)
        return tl_fail(TL_ERR_UNSUPPORTED, "vendor_format=%d: not a TL_DML_FORMAT_* value (DirectML)",
                       (int)d->vendor_format);
    TL_TRY(tl_dml_export(d, &m, sizes, strides));
    tl_sb_printf(&loc, "%s:%s:", k_formats[d->vendor_format], tl_dtype_name((tl_dtype)d->dtype));
    sb_u32_list(&loc, sizes, m.DimensionCount, "x");
    TL_TRY(spec_options(d, &m, &loc));
    if (loc.len >= sizeof buf) return tl_fail(TL_ERR_UNSUPPORTED, "DirectML spec longer than %d characters", SPEC_CAP - 1);
    TL_TRY(check_round_trip(d, buf));
    tl_sb_printf(sb, "%s", buf);
    return TL_OK;
}

/* ======================================================================== */
/* describe --json and explain                                              */
/* ======================================================================== */

static void json_extra(const tl_desc *d, tl_strbuf *sb)
{
    tl_dml_buffer_tensor_desc m;
    uint32_t sizes[DML_MAX], strides[DML_MAX];
    int64_t min = 0; /* set by tl_dml_min_total; gcc -O3 on armv7 cannot see that and warns */
    if (tl_dml_export(d, &m, sizes, strides) != TL_OK) return;
    if (tl_dml_min_total(m.DataType, m.DimensionCount, sizes, strides, &min) != TL_OK) return;
    tl_sb_printf(sb, ", \"dml_data_type\": \"%s\", \"dml_sizes\": [", tl_dml_data_type_name(m.DataType));
    sb_u32_list(sb, sizes, m.DimensionCount, ", ");
    tl_sb_printf(sb, "], \"dml_strides\": [");
    sb_u32_list(sb, strides, m.DimensionCount, ", ");
    tl_sb_printf(sb, "], \"dml_total_bytes\": %llu, \"dml_min_total_bytes\": %lld, \"dml_base_align\": %lu, "
                 "\"dml_flags\": %lu", (unsigned long long)m.TotalTensorSizeInBytes, (long long)min,
                 (unsigned long)m.GuaranteedBaseOffsetAlignment, (unsigned long)m.Flags);
}

static void explain_order(const tl_desc *d, const tl_dml_buffer_tensor_desc *m, tl_strbuf *sb)
{
    const char *lab = tl_dml_labels(d->rank);
    tl_sb_printf(sb, "DirectML buffer tensor (DML_BUFFER_TENSOR_DESC): DataType %s, DimensionCount %lu, Sizes {",
                 tl_dml_data_type_name(m->DataType), (unsigned long)m->DimensionCount);
    sb_u32_list(sb, m->Sizes, m->DimensionCount, ",");
    if (*lab)
        tl_sb_printf(sb, "} in DirectML's fixed logical order %s%s. ", lab,
                     d->rank == 3 ? " (DirectMLX's NCW)" : "");
    else
        tl_sb_printf(sb, "}; DirectML names the dims only for ranks 3 to 5, here the operator decides what "
                     "each one means. ");
}

static void explain_strides(const tl_desc *d, const tl_dml_buffer_tensor_desc *m, tl_strbuf *sb)
{
    static const char *const nhwc_order[] = {"", "", "", "N,W,C", "N,H,W,C", "N,D,H,W,C"};
    tl_sb_printf(sb, "Strides {");
    sb_u32_list(sb, m->Strides, m->DimensionCount, ",");
    tl_sb_printf(sb, "} count elements, not bytes");
    if (d->vendor_format == TL_DML_FORMAT_NCHW)
        tl_sb_printf(sb, ", computed like CalculateStrides(NCHW): packed row-major");
    else if (d->vendor_format == TL_DML_FORMAT_NHWC && d->rank >= 3 && d->rank <= 5)
        tl_sb_printf(sb, ", computed like CalculateStrides(NHWC) (DirectMLX InterleavedChannel): channels "
                     "innermost, memory order %s", nhwc_order[d->rank]);
    else if (d->vendor_format == TL_DML_FORMAT_NHWC)
        tl_sb_printf(sb, ", computed as DirectMLX's InterleavedChannel policy does for %d dims: dim 1 "
                     "innermost, then dims %d down to 2, dim 0 outermost%s", (int)d->rank, (int)d->rank - 1,
                     d->rank <= 2 ? " (for 1 or 2 dims that is packed row-major)" : "");
    else if (strides_packed(m))
        tl_sb_printf(sb, "; they are packed row-major, the same as Strides = NULL");
    if (tl_dtype_bits((tl_dtype)d->dtype) < 8)
        tl_sb_printf(sb, ". Each element is 4 bits; element 0 sits in the low nibble (DirectML does not "
                     "document the nibble order)");
    tl_sb_printf(sb, ". ");
}

static void explain_access(const tl_desc *d, const tl_dml_buffer_tensor_desc *m, tl_strbuf *sb)
{
    bool bc = false;
    for (uint32_t i = 0; i < m->DimensionCount; i++) {
        if (m->Strides[i] != 0 || m->Sizes[i] < 2) continue;
        tl_sb_printf(sb, bc ? ", %lu" : "Broadcast (stride 0) Sizes index %lu", (unsigned long)i);
        bc = true;
    }
    if (bc)
        tl_sb_printf(sb, ": every position along them reads the same stored element, so the tensor can be "
                     "a conversion source but never a destination. ");
    else if (d->flags & TL_DESC_READONLY)
        tl_sb_printf(sb, "The strides make different elements share memory (overlapping windows): the "
                     "tensor can be read, never written. ");
}

static void explain_size(const tl_dml_buffer_tensor_desc *m, tl_strbuf *sb)
{
    int64_t span, min;
    if (tl_dml_element_span(m->DimensionCount, m->Sizes, m->Strides, &span) != TL_OK ||
        tl_dml_min_total(m->DataType, m->DimensionCount, m->Sizes, m->Strides, &min) != TL_OK)
        return;
    unsigned ebits = tl_dml_data_type_bits(m->DataType);
    tl_sb_printf(sb, "DMLCalcBufferTensorSize: the last element has index sum((Sizes-1)*Strides) = %lld, so "
                 "(%lld + 1) x %u bits = %lld bits, %lld bytes rounded up to a multiple of 4 = %lld. "
                 "TotalTensorSizeInBytes is %llu", (long long)span - 1, (long long)span - 1, ebits,
                 (long long)(span * ebits), (long long)((span * ebits + 7) / 8), (long long)min,
                 (unsigned long long)m->TotalTensorSizeInBytes);
    if (m->TotalTensorSizeInBytes > (uint64_t)min)
        tl_sb_printf(sb, ", above the minimum, which DirectML allows (for outputs it may write anywhere in "
                     "it, so bytes between elements are not preserved)");
    tl_sb_printf(sb, ". ");
}

static void explain(const tl_desc *d, tl_strbuf *sb)
{
    tl_dml_buffer_tensor_desc m;
    uint32_t sizes[DML_MAX], strides[DML_MAX];
    if (tl_dml_export(d, &m, sizes, strides) != TL_OK) return;
    explain_order(d, &m, sb);
    explain_strides(d, &m, sb);
    explain_access(d, &m, sb);
    explain_size(&m, sb);
    if (m.GuaranteedBaseOffsetAlignment)
        tl_sb_printf(sb, "GuaranteedBaseOffsetAlignment %lu: the buffer is bound at offsets that are "
                     "multiples of %lu bytes. ", (unsigned long)m.GuaranteedBaseOffsetAlignment,
                     (unsigned long)m.GuaranteedBaseOffsetAlignment);
    else
        tl_sb_printf(sb, "GuaranteedBaseOffsetAlignment 0: nothing is promised beyond DirectML's 16-byte "
                     "minimum for buffer tensors. ");
    if (m.Flags & TL_DML_TENSOR_FLAG_OWNED_BY_DML)
        tl_sb_printf(sb, "Flags OWNED_BY_DML: the data is bound once at operator initialization and "
                     "DirectML owns it from then on. ");
}

const tl_vendor_ops tl_dml_ops = {"dml", TL_VENDOR_DML, parse, format, json_extra, explain};
