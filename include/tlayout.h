/* tlayout — describe, check, address and convert the native tensor formats of
 * edge-AI accelerators (Axis larod, TI TIDL-RT, DirectML, Rockchip RKNN,
 * NVIDIA TensorRT/DLA) and generic blocked layouts.
 *
 * One header, one entry point. The stable core comes first; each vendor has its
 * own section in include/tlayout/<vendor>.h, included at the end.
 *
 * Model (see docs/concepts.md): a descriptor is a logical view (rank, dims,
 * labels, dtype, quantization) plus a physical map (padding around each dim,
 * planes of physical axes with bit strides, buffer size). Every format the
 * library knows is expressed in that one model.
 */
#ifndef TLAYOUT_H
#define TLAYOUT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TLAYOUT_VERSION_MAJOR 0
#define TLAYOUT_VERSION_MINOR 1
#define TLAYOUT_VERSION_PATCH 0
#define TLAYOUT_VERSION_NUMBER \
    (TLAYOUT_VERSION_MAJOR * 10000 + TLAYOUT_VERSION_MINOR * 100 + TLAYOUT_VERSION_PATCH)
#define TLAYOUT_VERSION_STRING "0.1.0"

#if defined(_WIN32)
#define TL_API
#elif defined(__GNUC__)
#define TL_API __attribute__((visibility("default")))
#else
#define TL_API
#endif

/* Run-time version, TLAYOUT_VERSION_NUMBER of the library actually linked. */
TL_API unsigned tl_version(void);
TL_API const char *tl_version_string(void);

/* ------------------------------------------------------------------------ */
/* Status codes: explicit, grouped numbers. Detail in tl_last_error().       */
/* ------------------------------------------------------------------------ */
typedef enum tl_status {
    TL_OK = 0,

    /* 1xx: a descriptor or argument is invalid */
    TL_ERR_NULL = 100,          /* a required pointer is NULL */
    TL_ERR_RANK = 101,          /* rank 0 or above TL_MAX_DIMS */
    TL_ERR_DIM = 102,           /* a dim is <= 0 */
    TL_ERR_DTYPE = 103,         /* unknown dtype, or dtype not allowed here */
    TL_ERR_PAD = 104,           /* negative padding, or padding not representable */
    TL_ERR_AXIS = 105,          /* a physical axis is malformed (dim, block, extent) */
    TL_ERR_STRIDE = 106,        /* a stride is negative or misaligned for the dtype */
    TL_ERR_ALIAS = 107,         /* two stored elements share bytes (writes) */
    TL_ERR_OVERFLOW = 108,      /* 64-bit size arithmetic overflows */
    TL_ERR_PLANE = 109,         /* planes malformed or overlapping */
    TL_ERR_QUANT = 110,         /* quantization parameters invalid */
    TL_ERR_COORD = 111,         /* a coordinate is out of range */
    TL_ERR_SIZE = 112,          /* declared size smaller than the layout needs */
    TL_ERR_LABEL = 113,         /* duplicate or invalid dim label */

    /* 2xx: a spec string is invalid */
    TL_ERR_SPEC_SYNTAX = 200,   /* not LAYOUT:DTYPE:DIMS[:KEY=VALUE...] */
    TL_ERR_SPEC_LAYOUT = 201,   /* unknown or malformed layout word */
    TL_ERR_SPEC_OPTION = 202,   /* unknown or repeated KEY */
    TL_ERR_SPEC_VALUE = 203,    /* a VALUE is malformed or has the wrong count */

    /* 3xx: a conversion or buffer access is invalid */
    TL_ERR_MISMATCH = 300,      /* source and destination logical dims differ */
    TL_ERR_BUFFER_SMALL = 301,  /* a buffer length is below the descriptor's size */
    TL_ERR_READONLY = 302,      /* destination aliases elements (e.g. broadcast) */
    TL_ERR_UNSUPPORTED = 303,   /* valid, but this operation cannot handle it */
    TL_ERR_NOMEM = 304,         /* allocation failed */

    /* 4xx: a vendor rule is broken (message names the vendor) */
    TL_ERR_VENDOR = 400,        /* vendor metadata breaks a vendor rule */
    TL_ERR_VENDOR_FILE = 401,   /* vendor binary image (io_1.bin, rknn attr) malformed */
    TL_ERR_VENDOR_EXPORT = 402, /* descriptor cannot be expressed in the vendor's format */

    /* 5xx: environment (CLI) */
    TL_ERR_IO = 500
} tl_status;

/* Short fixed name of a status, e.g. "TL_ERR_STRIDE". Never NULL. */
TL_API const char *tl_status_str(tl_status s);
/* Detail of the last error on this thread: field, value and rule broken,
 * e.g. "pitches[2]=1000 < 1024 required by 32-byte row alignment (larod)".
 * Empty string after success of the call that set it. Never NULL. */
TL_API const char *tl_last_error(void);

/* ------------------------------------------------------------------------ */
/* Element types and quantization                                           */
/* ------------------------------------------------------------------------ */
typedef enum tl_dtype {
    TL_DT_INVALID = 0,
    TL_U8 = 1, TL_I8 = 2, TL_U16 = 3, TL_I16 = 4, TL_U32 = 5, TL_I32 = 6,
    TL_U64 = 7, TL_I64 = 8,
    TL_F16 = 9, TL_BF16 = 10, TL_F32 = 11, TL_F64 = 12,
    TL_BOOL = 13,   /* one byte: 0 or 1 */
    TL_U4 = 14,     /* packed, element 0 in the low nibble */
    TL_I4 = 15,
    TL_DT_COUNT
} tl_dtype;

TL_API unsigned tl_dtype_bits(tl_dtype t);         /* 0 for invalid */
TL_API const char *tl_dtype_name(tl_dtype t);      /* "f32"; "?" for invalid */
TL_API tl_dtype tl_dtype_from_name(const char *s); /* TL_DT_INVALID if unknown */

typedef enum tl_qkind {
    TL_Q_NONE = 0,
    TL_Q_AFFINE = 1,    /* real = (q - zp) * scale          (RKNN, TFLite, DML ops, TRT zp=0) */
    TL_Q_INV = 2,       /* real = (q - zp) * (1.0f / scale) (TIDL: scale maps real to q;
                           TL_DEQ_DIVIDE: (q - zp) / scale) */
    TL_Q_DFP = 3        /* real = q * 2^-fl                 (RKNN dynamic fixed point) */
} tl_qkind;

typedef enum tl_round {
    TL_ROUND_EVEN = 0,  /* nearest, ties to even (default, TensorRT) */
    TL_ROUND_AWAY = 1,  /* nearest, ties away from zero */
    TL_ROUND_ZERO = 2   /* toward zero (TIDL-RT parity) */
} tl_round;

/* How an inverse-scale (TL_Q_INV) code becomes a real value, in f32. The
 * default is TIDL-RT's own output conversion, which multiplies by the f32
 * reciprocal 1.0f / scale rounded once; the exact quotient can differ from
 * it by one ulp when the scale is not a power of two (docs/tidl.md). */
typedef enum tl_dequant {
    TL_DEQ_RECIPROCAL = 0, /* (float)(q - zp) * (1.0f / scale): TIDL-RT, bit for bit */
    TL_DEQ_DIVIDE = 1      /* (float)(q - zp) / scale: the quotient rounded once */
} tl_dequant;

typedef struct tl_quant {
    uint8_t kind;       /* tl_qkind */
    uint8_t round;      /* tl_round: used when a value is quantized into this tensor */
    int8_t fl;          /* DFP fractional length */
    uint8_t dequant;    /* tl_dequant: TL_Q_INV only, 0 for every other kind */
    int32_t zp;         /* zero point (AFFINE, INV) */
    float scale;        /* > 0 (AFFINE, INV) */
} tl_quant;

/* ------------------------------------------------------------------------ */
/* The descriptor                                                           */
/* ------------------------------------------------------------------------ */
#define TL_MAX_DIMS 12   /* larod's LAROD_TENSOR_MAX_LEN; DirectML 8 */
#define TL_MAX_AXES 16   /* physical axes per plane */
#define TL_MAX_PLANES 3  /* I420 */

/* One physical axis. It indexes logical dim `dim`: with p = x[dim] + pad_lo[dim]
 * (x[dim] - plane first when `dim` is the plane dim) its coordinate is
 * (p / block) % extent, and it moves `stride_bits` bits (8 per byte; bits so
 * that packed 4-bit types use the same mechanism). stride 0 = broadcast. */
typedef struct tl_axis {
    int32_t dim;
    int32_t reserved_;
    int64_t block;
    int64_t extent;
    int64_t stride_bits;
} tl_axis;

/* A plane stores the logical elements whose plane-dim coordinate lies in
 * [first, first + count); most descriptors have one plane covering everything.
 * A dim whose axes in this plane all have block > 1 is subsampled: only the
 * positions that are multiples of the smallest block are stored (4:2:0 chroma). */
typedef struct tl_plane {
    int64_t offset_bytes;   /* buffer start -> padded origin of this plane */
    int64_t first, count;   /* range of the plane dim (ignored with one plane) */
    int32_t naxes;          /* outermost first */
    int32_t reserved_;
    tl_axis axes[TL_MAX_AXES];
} tl_plane;

/* Which code built a descriptor, so it can be formatted back and reported in
 * vendor terms. Core code never branches on it. */
typedef enum tl_vendor {
    TL_VENDOR_NONE = 0, TL_VENDOR_LAROD = 1, TL_VENDOR_TIDL = 2, TL_VENDOR_DML = 3,
    TL_VENDOR_RKNN = 4, TL_VENDOR_TRT = 5, TL_VENDOR_YUV = 6
} tl_vendor;

#define TL_DESC_READONLY 1u  /* may be read, never written (e.g. broadcast) */

typedef struct tl_desc {
    /* logical view */
    int32_t rank;
    int32_t dtype;                  /* tl_dtype */
    int64_t dims[TL_MAX_DIMS];
    char labels[TL_MAX_DIMS];       /* 'A'..'Z' (N C D H W are semantic) or 0 */
    tl_quant quant;
    /* physical map */
    int64_t pad_lo[TL_MAX_DIMS];
    int64_t pad_hi[TL_MAX_DIMS];
    int64_t size_bytes;             /* bytes a buffer must hold */
    uint32_t flags;                 /* TL_DESC_* */
    int32_t plane_dim;              /* dim split over planes; -1 with one plane */
    int32_t nplanes;
    int32_t reserved_;
    tl_plane planes[TL_MAX_PLANES];
    /* provenance, for tl_desc_format and vendor reports */
    int32_t vendor;                 /* tl_vendor */
    int32_t vendor_format;          /* vendor's own enum value */
    int64_t vendor_params[8];       /* vendor-defined (see the vendor header) */
} tl_desc;

/* Parse a spec string, LAYOUT:DTYPE:DIMS[:KEY=VALUE...] (docs/spec.md). */
TL_API tl_status tl_desc_parse(tl_desc *out, const char *spec);
/* Format a descriptor as a spec string that parses back to an identical one.
 * TL_ERR_BUFFER_SMALL if len is too short (the message gives the length);
 * TL_ERR_VENDOR_EXPORT (nothing written) when no text would parse back to d,
 * e.g. a vendor descriptor whose layout was changed after it was built. */
TL_API tl_status tl_desc_format(const tl_desc *d, char *buf, size_t len);
/* The descriptor as one line of JSON, the object `tlayout describe --json`
 * prints (members in docs/cli.md): spec, dtype, dims, labels, quant, padding,
 * size, planes and axes, then the vendor's own members.
 * Nothing is written unless the whole text fits: TL_ERR_BUFFER_SMALL if len is
 * too short (the message gives the length). *needed (may be NULL) receives the
 * bytes the text takes including its NUL, on success and on TL_ERR_BUFFER_SMALL,
 * so buf NULL with len 0 asks for the size. TL_ERR_NULL for a NULL d, or a
 * NULL buf with len > 0; the status of tl_desc_validate for an invalid d. */
TL_API tl_status tl_desc_to_json(const tl_desc *d, char *buf, size_t len, size_t *needed);
/* The vendor's own account of a vendor descriptor, in sentences, paragraphs
 * ending in '\n' (larod pitches, TIDL line and channel pitch, DirectML sizes
 * and strides, RKNN native dims, TensorRT strides and DLA rules): what
 * `tlayout explain` prints under "As <vendor> describes it". "" for a
 * descriptor without a vendor. Buffer rules and statuses as tl_desc_to_json. */
TL_API tl_status tl_desc_explain_vendor(const tl_desc *d, char *buf, size_t len, size_t *needed);

/* Check every rule of the model; computes nothing. The vendor fields must lie
 * in their vendor's domain (TL_ERR_VENDOR; all zero without a vendor). */
TL_API tl_status tl_desc_validate(const tl_desc *d);
/* Bytes a buffer must hold (d->size_bytes, after validation). */
TL_API tl_status tl_desc_size(const tl_desc *d, uint64_t *bytes);
/* Byte offset of the logical coordinate coords[0..rank-1]; for 4-bit types
 * *nibble (may be NULL) receives 0 (low) or 1 (high). */
TL_API tl_status tl_desc_offset(const tl_desc *d, const int64_t *coords, uint64_t *byte_offset);
TL_API tl_status tl_desc_offset_bits(const tl_desc *d, const int64_t *coords, uint64_t *bit_offset);
/* Write `value` (its low byte, or 0/1 nibble-wise for 4-bit types: value & 15)
 * into every padding element of buf. Nothing else is touched. */
TL_API tl_status tl_fill_padding(const tl_desc *d, void *buf, size_t len, uint8_t value);
/* Non-zero when the descriptor may be a conversion destination. */
TL_API int tl_desc_writable(const tl_desc *d);

/* ---- Builders ---------------------------------------------------------- */
/* A builder that fails leaves *d exactly as it was. */
/* Dense or blocked layout from a layout word such as "NCHW", "NHWC8c",
 * "nChw16c", "aBcd16b"; dims in the order of the word's dims (docs/spec.md).
 * Strides are dense; the size is the dense padded size. */
TL_API tl_status tl_desc_init(tl_desc *d, const char *layout, tl_dtype dt,
                              const int64_t *dims, int rank);
/* Plain strided tensor: strides_elems[i] is the stride of logical dim i in
 * elements (0 = broadcast; the descriptor becomes read-only). */
TL_API tl_status tl_desc_init_strided(tl_desc *d, tl_dtype dt, const int64_t *dims,
                                      const int64_t *strides_elems, int rank);
/* Set dims' padding and re-derive dense strides of a tl_desc_init layout.
 * The result is a generic descriptor: vendor fields are cleared, since dense
 * strides are no vendor's layout. */
TL_API tl_status tl_desc_set_padding(tl_desc *d, const int64_t *pad_lo, const int64_t *pad_hi);
/* Recompute size_bytes as the end of the furthest stored element. */
TL_API tl_status tl_desc_update_size(tl_desc *d);

/* YUV 4:2:0 images, logical (C=3, H, W): c 0 = Y, 1 = Cb/U, 2 = Cr/V.
 * Chroma extents round up for odd H/W. row_pitch 0 = W; plane offsets 0 = packed. */
typedef enum tl_yuv_kind {
    TL_YUV_NV12 = 1, TL_YUV_NV21 = 2, TL_YUV_I420 = 3,
    TL_YUV_YUYV = 4, TL_YUV_UYVY = 5   /* packed 4:2:2: Y0 U Y1 V / U Y0 V Y1 per pixel pair */
} tl_yuv_kind;
TL_API tl_status tl_desc_init_yuv420(tl_desc *d, tl_yuv_kind kind, int64_t height, int64_t width,
                                     int64_t row_pitch, int64_t chroma_offset);
/* The same with a separate chroma row pitch (bytes per row of the CbCr plane
 * for NV12/NV21, of each of U and V for I420), as libyuv and FFmpeg lay out an
 * odd width W: Y rows of W bytes, CbCr rows of W + 1. uv_pitch 0 = derived
 * from row_pitch (row_pitch itself, or half of it for I420), which is then at
 * least the chroma row; with uv_pitch > 0, row_pitch 0 = W.
 * vendor_params of a YUV descriptor: {row_pitch, chroma_offset, uv_pitch}. */
TL_API tl_status tl_desc_init_yuv420_pitches(tl_desc *d, tl_yuv_kind kind, int64_t height, int64_t width,
                                             int64_t row_pitch, int64_t uv_pitch, int64_t chroma_offset);
/* YUV 4:2:2 packed images (YUYV, UYVY), logical (C=3, H, W) as above: 2 bytes
 * a pixel, one U and one V per pixel pair. row_pitch 0 = 2 * ceil(W/2) * 2 / 2
 * rounded to pairs; it must be even and hold the row's pairs. */
TL_API tl_status tl_desc_init_yuv422(tl_desc *d, tl_yuv_kind kind, int64_t height, int64_t width,
                                     int64_t row_pitch);

/* ------------------------------------------------------------------------ */
/* Conversion                                                               */
/* ------------------------------------------------------------------------ */
/* Flags for tl_convert_ex / tl_plan_create. 0 = defaults. */
#define TL_KEEP_PADDING 1u   /* do not write destination padding elements */

typedef struct tl_plan tl_plan; /* opaque; immutable after creation */

/* One-shot conversion: every logical element of src to dst (dims matched by
 * label when both are fully labelled with the same letters, else by position),
 * dtype converted, (de)quantized, destination padding zeroed. Nothing is
 * written unless the whole call is valid. */
TL_API tl_status tl_convert(const tl_desc *src_d, const void *src, size_t src_len,
                            const tl_desc *dst_d, void *dst, size_t dst_len);
TL_API tl_status tl_convert_ex(const tl_desc *src_d, const void *src, size_t src_len,
                               const tl_desc *dst_d, void *dst, size_t dst_len, unsigned flags);
/* The scalar reference converter: element by element through the offset
 * function. Slow, simple, the oracle for every test of the engine. */
TL_API tl_status tl_convert_reference(const tl_desc *src_d, const void *src, size_t src_len,
                                      const tl_desc *dst_d, void *dst, size_t dst_len,
                                      unsigned flags);

TL_API tl_status tl_plan_create(tl_plan **plan, const tl_desc *src_d, const tl_desc *dst_d,
                                unsigned flags);
TL_API tl_status tl_plan_run(const tl_plan *plan, const void *src, size_t src_len, void *dst,
                             size_t dst_len);
/* Run part `part` of `nparts` (caller-driven threading); parts are disjoint in
 * the destination and together do the whole run. */
TL_API tl_status tl_plan_run_part(const tl_plan *plan, unsigned part, unsigned nparts,
                                  const void *src, size_t src_len, void *dst, size_t dst_len);
/* Human-readable loop nest and kernel choice (valid while the plan lives). */
TL_API const char *tl_plan_describe(const tl_plan *plan);
TL_API void tl_plan_destroy(tl_plan *plan);

/* ---- Scalar element semantics (shared by reference and kernels) ------- */
/* Value of one element as double after dequantization (quantized tensors) or
 * as is. Exposed for post-processing and tests. */
TL_API double tl_dequantize_value(const tl_quant *q, int64_t code);
/* Quantize a real value to dtype t with q's rounding and saturation.
 * Arithmetic in f32 (as every code path does). NaN -> zp (0 when not quantized). */
TL_API int64_t tl_quantize_value(const tl_quant *q, tl_dtype t, float real);

#ifdef __cplusplus
}
#endif

#include "tlayout/vendors.h"
#include "tlayout/post.h"
#include "tlayout/image.h"
#include "tlayout/parallel.h"
#include "tlayout/dmabuf.h"
#include "tlayout/names.h"

#endif /* TLAYOUT_H */
