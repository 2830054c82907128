/* RKNN section of the tlayout public API (included by tlayout.h).
 *
 * Rockchip RKNPU2 / RKNN-Toolkit2 runtime tensors (rknn_api.h 2.3.2, docs/rknn.md):
 * - a field-by-field mirror of rknn_tensor_attr (rknn_api.h 2.3.2) and its enums,
 *   readable from and writable to its 376-byte little-endian binary image;
 * - descriptors from a native attr: NC1HWC2 (channel blocks of C2, the true channel
 *   count C given separately), NHWC / NCHW with w_stride / h_stride padding;
 * - the C2 platform table (User Guide 1.5.2 Table 4-6) and the zero-copy width rule;
 * - post-processing helpers: a division-free view of a native output, dequantization,
 *   and an exact threshold in the quantized domain.
 *
 * Spec strings (docs/spec.md):
 *   rknn.nc1hwc2:DT:NxC1xHxWxC2:c=C[:wstride=WS][:size=B][:platform=P]
 *       dims as the native attr reports them; logical dims (and offsets) are N,C,H,W.
 *       Also accepted: the logical NxCxHxW with c2=C2 (or C2 from platform=);
 *       the canonical (formatted) form is the native one.
 *   rknn.nhwc:DT:NxHxWxC[:wstride=WS][:hstride=HS][:size=B][:platform=P]
 *   rknn.nchw:DT:NxCxHxW[:wstride=WS][:hstride=HS][:size=B][:platform=P]
 *       logical dims (and offsets) in the spec's order. Other ranks than 4 are plain
 *       dense row-major, unlabelled (no wstride/hstride).
 *   rknn.undefined:DT:DIMS[:size=B]   (RKNN_TENSOR_UNDEFINED: plain dense row-major)
 *   size= is size_with_stride in bytes (must be >= what the layout spans); platform=
 *   (rk3566 rk3568 rk3588 rv1106 rv1103 rk3562) checks C2 against Table 4-6
 *   (NC1HWC2) or the zero-copy row alignment (NHWC/NCHW). Quantized RKNN specs
 *   quantize with ties away from zero (RKNPU User Guide 1.5.2) unless round= is given.
 *
 * tl_desc fields set by RKNN builders: vendor = TL_VENDOR_RKNN, vendor_format =
 * tl_rknn_tensor_format, and vendor_params[] as TL_RKNN_P_* below.
 */
#ifndef TLAYOUT_RKNN_H
#define TLAYOUT_RKNN_H
#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

/* ---- rknn_api.h constants and enums (values as in the vendor header) ---- */
#define TL_RKNN_MAX_DIMS 16
#define TL_RKNN_MAX_NAME_LEN 256
#define TL_RKNN_MAX_NUM_CHANNEL 15
#define TL_RKNN_ATTR_SIZE 376 /* sizeof(rknn_tensor_attr) on LP64 and ILP32 */

typedef enum tl_rknn_tensor_format {
    TL_RKNN_TENSOR_NCHW = 0,
    TL_RKNN_TENSOR_NHWC = 1,
    TL_RKNN_TENSOR_NC1HWC2 = 2,
    TL_RKNN_TENSOR_UNDEFINED = 3,
    TL_RKNN_TENSOR_FORMAT_MAX = 4
} tl_rknn_tensor_format;

/* TYPE_MAX is 10, 11 or 12 depending on the SDK; every value < 12 is accepted. */
typedef enum tl_rknn_tensor_type {
    TL_RKNN_TENSOR_FLOAT32 = 0,
    TL_RKNN_TENSOR_FLOAT16 = 1,
    TL_RKNN_TENSOR_INT8 = 2,
    TL_RKNN_TENSOR_UINT8 = 3,
    TL_RKNN_TENSOR_INT16 = 4,
    TL_RKNN_TENSOR_UINT16 = 5,
    TL_RKNN_TENSOR_INT32 = 6,
    TL_RKNN_TENSOR_UINT32 = 7,
    TL_RKNN_TENSOR_INT64 = 8,
    TL_RKNN_TENSOR_BOOL = 9,     /* stored as one byte [UNVERIFIED] */
    TL_RKNN_TENSOR_INT4 = 10,    /* newer SDKs; low nibble first [UNVERIFIED] */
    TL_RKNN_TENSOR_BFLOAT16 = 11 /* newer SDKs */
} tl_rknn_tensor_type;
#define TL_RKNN_TENSOR_TYPE_LIMIT 12

typedef enum tl_rknn_tensor_qnt_type {
    TL_RKNN_TENSOR_QNT_NONE = 0,
    TL_RKNN_TENSOR_QNT_DFP = 1,
    TL_RKNN_TENSOR_QNT_AFFINE_ASYMMETRIC = 2,
    TL_RKNN_TENSOR_QNT_MAX = 3
} tl_rknn_tensor_qnt_type;

/* rknn_query commands that return a tensor attr. */
typedef enum tl_rknn_query_cmd {
    TL_RKNN_QUERY_INPUT_ATTR = 1,
    TL_RKNN_QUERY_OUTPUT_ATTR = 2,
    TL_RKNN_QUERY_NATIVE_INPUT_ATTR = 8,  /* = NATIVE_NC1HWC2_INPUT_ATTR */
    TL_RKNN_QUERY_NATIVE_OUTPUT_ATTR = 9, /* = NATIVE_NC1HWC2_OUTPUT_ATTR */
    TL_RKNN_QUERY_NATIVE_NHWC_INPUT_ATTR = 10,
    TL_RKNN_QUERY_NATIVE_NHWC_OUTPUT_ATTR = 11,
    TL_RKNN_QUERY_CURRENT_INPUT_ATTR = 14,        /* dynamic-shape models, after rknn_set_input_shapes */
    TL_RKNN_QUERY_CURRENT_OUTPUT_ATTR = 15,
    TL_RKNN_QUERY_CURRENT_NATIVE_INPUT_ATTR = 16, /* the native (zero-copy) attr of the current shape */
    TL_RKNN_QUERY_CURRENT_NATIVE_OUTPUT_ATTR = 17
} tl_rknn_query_cmd;

/* rknn_tensor_attr, field by field (offsets asserted in src/vendors/rknn.c).
 * The enum fields are int-sized in the vendor ABI. */
typedef struct tl_rknn_tensor_attr {
    uint32_t index;                         /* @0   which input/output */
    uint32_t n_dims;                        /* @4   <= 16 */
    uint32_t dims[TL_RKNN_MAX_DIMS];        /* @8 */
    char name[TL_RKNN_MAX_NAME_LEN];        /* @72  NUL-terminated */
    uint32_t n_elems;                       /* @328 */
    uint32_t size;                          /* @332 bytes without stride padding */
    tl_rknn_tensor_format fmt;              /* @336 */
    tl_rknn_tensor_type type;               /* @340 */
    tl_rknn_tensor_qnt_type qnt_type;       /* @344 */
    int8_t fl;                              /* @348 DFP: real = q * 2^-fl */
    int32_t zp;                             /* @352 affine: real = (q - zp) * scale */
    float scale;                            /* @356 */
    uint32_t w_stride;                      /* @360 pixels per stored row; 0 = width */
    uint32_t size_with_stride;              /* @364 bytes including padding */
    uint8_t pass_through;                   /* @368 0 or 1 */
    uint32_t h_stride;                      /* @372 rows per batch image; 0 = height */
} tl_rknn_tensor_attr;

/* Read an attr from its binary image (the first TL_RKNN_ATTR_SIZE bytes of buf,
 * little-endian). TL_ERR_VENDOR_FILE when len is short, n_dims > 16, the name has
 * no NUL, an enum is out of range or pass_through > 1. *out untouched on error. */
TL_API tl_status tl_rknn_attr_read(tl_rknn_tensor_attr *out, const void *buf, size_t len);
/* Write the binary image (padding bytes zero). Same checks (TL_ERR_VENDOR). */
TL_API tl_status tl_rknn_attr_write(const tl_rknn_tensor_attr *attr, void *buf, size_t len);

/* Read the attr line every Rockchip demo prints (dump_tensor_attr):
 *   index=0, name=output0, n_dims=5, dims=[1, 6, 80, 80, 16], n_elems=614400,
 *   size=614400, w_stride = 80, size_with_stride=614400, fmt=NC1HWC2, type=INT8,
 *   qnt_type=AFFINE, zp=-128, scale=0.003922
 * Keys in any order, a log prefix before index= ignored; dims=, fmt= and type=
 * are required, the rest default to 0 (qnt_type NONE). Names are those of
 * rknn_api.h's get_format_string / get_type_string / get_qnt_type_string.
 * n_dims comes from the dims list (a printed n_dims is only range-checked);
 * n_elems, when printed, must be their product. The demos print the
 * scale with %f (6 decimals): that is the scale read. TL_ERR_VENDOR_FILE names
 * the key that is missing or malformed; *out is written only on success. */
TL_API tl_status tl_rknn_attr_parse_line(tl_rknn_tensor_attr *out, const char *line);

/* Bytes of the rknn_tensor_mem a zero-copy program creates for a native attr
 * (rknn_create_mem(ctx, size)): size_with_stride (size when it is 0), and at
 * least what the descriptor d spans. Either may be NULL, not both (a
 * descriptor alone: its size). rknn_create_mem takes a uint32: TL_ERR_VENDOR
 * at 4 GiB or more (rknn_create_mem2 takes a uint64). */
TL_API tl_status tl_rknn_mem_size(const tl_rknn_tensor_attr *native, const tl_desc *d, uint32_t *bytes);

/* RKNN type <-> tl_dtype. TL_ERR_VENDOR / TL_ERR_DTYPE when there is no match
 * (tl_dtype u64, f64 and u4 have no RKNN type). */
TL_API tl_status tl_rknn_type_to_dtype(tl_rknn_tensor_type t, tl_dtype *dt);
TL_API tl_status tl_rknn_dtype_to_type(tl_dtype dt, tl_rknn_tensor_type *t);

/* ---- platforms: C2 table and zero-copy width ---------------------------- */
typedef enum tl_rknn_platform {
    TL_RKNN_PLATFORM_NONE = 0,
    TL_RKNN_RK3566_RK3568 = 1,
    TL_RKNN_RK3588 = 2,
    TL_RKNN_RV1106_RV1103 = 3,
    TL_RKNN_RK3562 = 4
} tl_rknn_platform;

/* "rk3566", "rk3568", "rk3588", "rv1106", "rv1103", "rk3562" (any case). */
TL_API tl_status tl_rknn_platform_from_name(const char *name, tl_rknn_platform *p);
TL_API const char *tl_rknn_platform_name(tl_rknn_platform p); /* "RK3588"; "?" */
/* C2 of Table 4-6: 1-byte types (int8 column), f16, i16. TL_ERR_VENDOR otherwise. */
TL_API tl_status tl_rknn_c2(tl_rknn_platform p, tl_dtype dt, int64_t *c2);
/* Zero-copy input width: width rounded up to 8 pixels (RK3566/RK3568) or 16
 * (RK3588, RV1106/RV1103, RK3562). */
TL_API tl_status tl_rknn_zero_copy_width(tl_rknn_platform p, int64_t width, int64_t *aligned);
/* Synthesize the native NC1HWC2 attr the runtime would report for a tensor of
 * n x c x h x w on platform p (offline tools, tests): dims [N, C1, H, W, C2],
 * n_elems, size = size_with_stride, w_stride = w, qnt_type NONE, name "". */
TL_API tl_status tl_rknn_native_attr_synth(tl_rknn_tensor_attr *out, tl_rknn_platform p,
                                           tl_dtype dt, int64_t n, int64_t c, int64_t h,
                                           int64_t w);

/* ---- descriptors ---------------------------------------------------------- */
/* vendor_params[] of an RKNN descriptor. */
enum {
    TL_RKNN_P_C1 = 0,        /* NC1HWC2: C1 (channel blocks); else 0 */
    TL_RKNN_P_C2 = 1,        /* NC1HWC2: C2 (channels per block); else 0 */
    TL_RKNN_P_W_STRIDE = 2,  /* w_stride as given (0 = width) */
    TL_RKNN_P_H_STRIDE = 3,  /* h_stride as given (0 = height) */
    TL_RKNN_P_SIZE = 4,      /* size_with_stride as given (0 = what the layout spans) */
    TL_RKNN_P_PLATFORM = 5   /* tl_rknn_platform checked against, 0 = none */
};

/* Descriptor of the buffer a native attr describes. `channels` is the true C
 * for NC1HWC2 (from the non-native attr: tl_rknn_attr_channels); for other
 * formats pass 0 (or C, which is then checked). Quantization: AFFINE -> affine
 * (zp, scale; a normal f32 scale > 0), DFP -> dfp (fl), ignored for float types;
 * quantized descriptors round ties away from zero. Strides equal to the dims
 * they pad (w_stride == W, h_stride == H, for every format, NC1HWC2 included)
 * are normalised to 0: they say nothing, and equivalent attrs give identical
 * descriptors and spec strings. *d untouched on error. */
TL_API tl_status tl_rknn_desc_from_attr(tl_desc *d, const tl_rknn_tensor_attr *native,
                                        int64_t channels);
/* The channel count of a non-native 4-D NCHW/NHWC attr. */
TL_API tl_status tl_rknn_attr_channels(const tl_rknn_tensor_attr *plain, int64_t *channels);
/* tl_rknn_desc_from_attr with C taken from `plain` (may be NULL unless NC1HWC2). */
TL_API tl_status tl_rknn_desc_from_attrs(tl_desc *d, const tl_rknn_tensor_attr *native,
                                         const tl_rknn_tensor_attr *plain);

/* ---- post-processing ------------------------------------------------------ */
/* A division-free view of a 4-D tensor labelled N, C, H, W (any order) whose
 * N, H and W are plain axes: NC1HWC2, rknn.nhwc/nchw, NCHW16c, ... With the
 * per-channel offsets from tl_rknn_channel_offsets, the element (n,c,h,w) is
 *   base[choff[c] + n*batch_stride + h*row_stride + w*pixel_stride]
 * in elements of the dtype (int8_t for i8). For NC1HWC2: pixel_stride = C2,
 * row_stride = Wr*C2, batch_stride = C1*H*Wr*C2 (not the vendor sample's formulas: docs/sources.md). */
typedef struct tl_rknn_view {
    int64_t n, c, h, w;         /* logical dims */
    int64_t pixel_stride;       /* elements between (.., w) and (.., w+1) */
    int64_t row_stride;         /* elements between rows */
    int64_t batch_stride;       /* elements between batch images */
    int64_t size_bytes;         /* buffer size of the descriptor */
    int32_t dtype;              /* tl_dtype, whole bytes only */
    int32_t reserved_;
    tl_quant quant;
} tl_rknn_view;

TL_API tl_status tl_rknn_view_init(tl_rknn_view *v, const tl_desc *d);
/* out[i] = element offset of channel first+i at n = h = w = 0 (precompute once;
 * the same conditions on d as tl_rknn_view_init). */
TL_API tl_status tl_rknn_channel_offsets(const tl_desc *d, int64_t first, int64_t count,
                                         int64_t *out);
/* Real value of a code, exactly as tl_dequantize_value / tl_convert (f32). */
TL_API float tl_rknn_dequant(const tl_rknn_view *v, int32_t code);

/* The quantized threshold: the int32 T such that for EVERY code q of dtype dt
 *   tl_dequantize_value(q, code q) >= t   <=>   q >= T.
 * T = qmin when every code passes, qmax + 1 when none does (so T may not fit dt:
 * compare in int32). t = NaN: none passes. dt: i8 u8 i16 u16 i4 u4. Kinds: none,
 * affine (scale >= 0; scale 0 makes every code 0.0), inv (scale > 0), dfp. A
 * negative or non-finite scale reverses or breaks the order: TL_ERR_QUANT. */
TL_API tl_status tl_rknn_quant_threshold(const tl_quant *q, tl_dtype dt, double t,
                                         int32_t *threshold);
/* Same with the dtype and quantization of a descriptor. */
TL_API tl_status tl_rknn_threshold(const tl_desc *d, double t, int32_t *threshold);

#ifdef __cplusplus
}
#endif
#endif
