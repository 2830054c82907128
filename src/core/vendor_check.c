/* The vendor fields of a descriptor: validation and the round trip of format.
 *
 * A vendor tag (vendor, vendor_format, vendor_params) is read by the vendor's
 * functions: format, explain, JSON, exports. Two rules keep them safe:
 *
 * - Validation: each field lies in its vendor's domain (the enum ranges and
 *   the ranges of the header that documents vendor_params), so no vendor
 *   function meets a format it does not know or a negative size. Arithmetic on
 *   the fields is still overflow-checked where it is done.
 * - Format: a vendor descriptor formats only to text that parses back to the
 *   identical descriptor. A layout changed after it was built (by hand, or by
 *   a builder that is not the vendor's) is still a valid description, but it
 *   no longer is the vendor's, and its vendor spec would describe another
 *   buffer. Layout-changing builders (tl_desc_set_padding) drop the tag. */
#include <stdio.h>
#include <string.h>

#include "internal.h"

/* Domain of one vendor's fields: vendor_format in [fmt_lo, fmt_hi],
 * vendor_params[i] in [lo[i], hi[i]]. */
typedef struct vendor_domain {
    tl_vendor vendor;
    const char *name; /* as messages name the vendor */
    int32_t fmt_lo, fmt_hi;
    int64_t lo[8], hi[8];
} vendor_domain;

#define ANY INT64_MAX
#define U32 INT64_C(0xffffffff)
#define I32 INT64_C(0x7fffffff)
static const vendor_domain domains[] = {
    /* larod.h: row pitch, 420SP CbCr offset */
    {TL_VENDOR_LAROD, "larod", TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED, TL_LAROD_TENSOR_LAYOUT_420SP, {0}, {ANY, ANY}},
    /* tidl.h: PadL, PadT, PadR, PadB, PadCh (int32), channel pitch, BufSize (int32) */
    {TL_VENDOR_TIDL, "TIDL", TL_TIDL_LT_NCHW, TL_TIDL_LT_NHWC, {0}, {I32, I32, I32, I32, I32, ANY, I32}},
    /* dml.h: DataType, Flags, GuaranteedBaseOffsetAlignment (UINT), broadcast mask of 8 dims */
    {TL_VENDOR_DML, "DirectML", TL_DML_FORMAT_STRIDES, TL_DML_FORMAT_NHWC, {0}, {U32, U32, U32, 255}},
    /* rknn.h: C1, C2, w_stride, h_stride, size_with_stride, platform */
    {TL_VENDOR_RKNN, "rknn", TL_RKNN_TENSOR_NCHW, TL_RKNN_TENSOR_FORMAT_MAX - 1, {0},
     {ANY, ANY, ANY, ANY, ANY, TL_RKNN_RK3562}},
    /* trt.h: DLA generation, DLA role */
    {TL_VENDOR_TRT, "TensorRT", 0, TL_TRT_FORMAT_COUNT - 1, {0}, {TL_TRT_DLA_XAVIER, TL_TRT_DLA_ANY}},
    /* tlayout.h: Y row pitch (packed 4:2:2: the row pitch), chroma offset, chroma row pitch */
    {TL_VENDOR_YUV, "yuv", TL_YUV_NV12, TL_YUV_UYVY, {0}, {ANY, ANY, ANY}},
};
#undef ANY
#undef U32
#undef I32

static const vendor_domain *domain_of(int32_t vendor)
{
    for (size_t i = 0; i < sizeof domains / sizeof domains[0]; i++)
        if ((int32_t)domains[i].vendor == vendor) return &domains[i];
    return NULL;
}

tl_status tl_vendor_check(const tl_desc *d)
{
    static const vendor_domain none = {TL_VENDOR_NONE, "no vendor: zero them", 0, 0, {0}, {0}};
    const vendor_domain *v = d->vendor == TL_VENDOR_NONE ? &none : domain_of(d->vendor);
    if (!v) return tl_fail(TL_ERR_VENDOR, "vendor=%d: not a tl_vendor (0..%d)", (int)d->vendor, (int)TL_VENDOR_YUV);
    if (d->vendor_format < v->fmt_lo || d->vendor_format > v->fmt_hi)
        return tl_fail(TL_ERR_VENDOR, "vendor_format=%d: must be %d..%d (%s)", (int)d->vendor_format,
                       (int)v->fmt_lo, (int)v->fmt_hi, v->name);
    for (int i = 0; i < 8; i++)
        if (d->vendor_params[i] < v->lo[i] || d->vendor_params[i] > v->hi[i])
            return tl_fail(TL_ERR_VENDOR, "vendor_params[%d]=%lld: must be %lld..%lld, see the vendor header (%s)", i,
                           (long long)d->vendor_params[i], (long long)v->lo[i], (long long)v->hi[i], v->name);
    return TL_OK;
}

/* The first field in which the rebuilt descriptor differs, for the message. */
static const char *first_difference(const tl_desc *d, const tl_desc *b, char buf[64])
{
#define TL_DIFF(field, name)                                                          \
    if (memcmp(&d->field, &b->field, sizeof d->field) != 0) return name
    TL_DIFF(rank, "rank");
    TL_DIFF(dtype, "dtype");
    TL_DIFF(dims, "dims");
    TL_DIFF(labels, "labels");
    TL_DIFF(quant, "quant");
    TL_DIFF(pad_lo, "pad_lo");
    TL_DIFF(pad_hi, "pad_hi");
    TL_DIFF(size_bytes, "size_bytes");
    TL_DIFF(flags, "flags");
    TL_DIFF(plane_dim, "plane_dim");
    TL_DIFF(nplanes, "nplanes");
    for (int k = 0; k < TL_MAX_PLANES; k++)
        if (memcmp(&d->planes[k], &b->planes[k], sizeof d->planes[k]) != 0) {
            snprintf(buf, 64, "planes[%d]", k);
            return buf;
        }
    TL_DIFF(vendor_format, "vendor_format");
    TL_DIFF(vendor_params, "vendor_params");
#undef TL_DIFF
    return "reserved fields";
}

tl_status tl_desc_check_round_trip(const tl_desc *d, const char *spec)
{
    char why[256], where[64];
    tl_desc back;
    tl_status s = tl_desc_parse(&back, spec);
    if (s == TL_OK && memcmp(&back, d, sizeof back) == 0) return TL_OK;
    snprintf(why, sizeof why, "%s", s == TL_OK ? first_difference(d, &back, where) : tl_last_error());
    return tl_fail(TL_ERR_VENDOR_EXPORT, "'%s' would describe another descriptor (%s%s): %s", spec,
                   s == TL_OK ? "it differs in " : "", why,
                   d->vendor ? "the layout was changed after the vendor built it; set vendor=0 (TL_VENDOR_NONE) "
                               "and zero the vendor fields to format it as a generic layout"
                             : "no spec string expresses this descriptor");
}
