/* NVIDIA TensorRT and DLA section of the tlayout public API (included by
 * tlayout.h). NvInferRuntime.h (TensorRT 8.6, 11.1); user guide: docs/tensorrt.md.
 *
 * Spec strings: trt.FORMAT:DTYPE:DIMS[:gen=orin|xavier][:dla=input|output|any]
 *                                    [:strides=S0,S1,...]
 *   FORMAT  linear chw2 hwc8 chw4 chw16 chw32 dhwc8 cdhw32 hwc dla_linear dla_hwc4
 *           hwc16 dhwc (or the enum spelling, kCHW32)
 *   DIMS    in TensorRT's order: N,C,H,W (N,C,D,H,W for dhwc8, cdhw32, dhwc); extra
 *           leading dims are batch-like and unlabelled
 *   strides getTensorStrides() as a running engine reports them, in vector units
 *           (default: the packed strides of the format)
 *   dla     this tensor is an input/output of a DLA engine: DLA's I/O rules apply.
 *           kDLA_LINEAR is a DLA tensor by itself (any), kDLA_HWC4 a DLA input.
 *   gen     DLA generation for the kDLA_HWC4 row (64 bytes on Orin, the default;
 *           32 on Xavier) and the deprecated kCHW4 DLA input; DLA tensors only
 *   scale=  INT8/INT4 quantization: real = q * scale (symmetric: zp must be 0,
 *           rounding half to even)
 *
 * A descriptor built here has vendor TL_VENDOR_TRT, vendor_format the
 * TensorFormat value, vendor_params[0] the DLA generation (tl_trt_dla_gen) and
 * vendor_params[1] the DLA role (tl_trt_dla_role, resolved: never 0 for the
 * kDLA_* formats). Other vendor_params are 0.
 */
#ifndef TLAYOUT_TRT_H
#define TLAYOUT_TRT_H
#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

/* nvinfer1::TensorFormat, values as in NvInferRuntime.h (8.6 to 11.1). */
typedef enum tl_trt_format {
    TL_TRT_LINEAR = 0,
    TL_TRT_CHW2 = 1,
    TL_TRT_HWC8 = 2,
    TL_TRT_CHW4 = 3,
    TL_TRT_CHW16 = 4,
    TL_TRT_CHW32 = 5,
    TL_TRT_DHWC8 = 6,
    TL_TRT_CDHW32 = 7,
    TL_TRT_HWC = 8,
    TL_TRT_DLA_LINEAR = 9,
    TL_TRT_DLA_HWC4 = 10,
    TL_TRT_HWC16 = 11,
    TL_TRT_DHWC = 12,
    TL_TRT_FORMAT_COUNT = 13
} tl_trt_format;

/* nvinfer1::DataType, values and element sizes as in NvInferRuntimeBase.h. */
typedef enum tl_trt_datatype {
    TL_TRT_FLOAT = 0,   /* 4 bytes  -> f32 */
    TL_TRT_HALF = 1,    /* 2        -> f16 */
    TL_TRT_INT8 = 2,    /* 1        -> i8 */
    TL_TRT_INT32 = 3,   /* 4        -> i32 */
    TL_TRT_BOOL = 4,    /* 1        -> bool */
    TL_TRT_UINT8 = 5,   /* 1        -> u8 */
    TL_TRT_FP8 = 6,     /* 1        (no tlayout dtype) */
    TL_TRT_BF16 = 7,    /* 2        -> bf16 */
    TL_TRT_INT64 = 8,   /* 8        -> i64 */
    TL_TRT_INT4 = 9,    /* 4 bits   -> i4 (element 0 in the low nibble) */
    TL_TRT_FP4 = 10,    /* 4 bits   (no tlayout dtype) */
    TL_TRT_E8M0 = 11,   /* 1        (no tlayout dtype) */
    TL_TRT_DATATYPE_COUNT = 12
} tl_trt_datatype;

typedef enum tl_trt_dla_gen {
    TL_TRT_DLA_ORIN = 0,    /* kDLA_HWC4 rows rounded up to 64 bytes (default) */
    TL_TRT_DLA_XAVIER = 1   /* 32 bytes (8.x headers) */
} tl_trt_dla_gen;

typedef enum tl_trt_dla_role {
    TL_TRT_GPU = 0,          /* not a DLA I/O tensor (as an argument: the format's default) */
    TL_TRT_DLA_INPUT = 1,    /* DLA input: kDLA_LINEAR, kDLA_HWC4, kCHW16 FP16, kCHW32 INT8 */
    TL_TRT_DLA_OUTPUT = 2,   /* DLA output: kDLA_LINEAR, kCHW16 FP16, kCHW32 INT8 */
    TL_TRT_DLA_ANY = 3       /* a DLA tensor, direction not stated */
} tl_trt_dla_role;

/* nvinfer1::Dims (Dims64 since TensorRT 10: int32 nbDims, int64 d[8]). For the
 * 32-bit Dims of TensorRT 8.x copy d[] element by element. nbDims -1 is what
 * TensorRT returns for an unknown tensor or an unresolved shape. */
#define TL_TRT_MAX_DIMS 8
typedef struct tl_trt_dims {
    int32_t nbDims;
    int64_t d[TL_TRT_MAX_DIMS];
} tl_trt_dims;

/* One TensorRT I/O tensor as an application knows it. */
typedef struct tl_trt_tensor {
    int32_t format;         /* tl_trt_format (getTensorFormat) */
    int32_t type;           /* tl_trt_datatype (getTensorDataType) */
    tl_trt_dims dims;       /* getTensorShape, TensorRT order */
    tl_trt_dims strides;    /* getTensorStrides, vector units; nbDims 0 = packed */
    int32_t dla_role;       /* tl_trt_dla_role; 0 = the format's default */
    int32_t dla_gen;        /* tl_trt_dla_gen */
    float scale;            /* 0 = not quantized; > 0: INT8/INT4, real = q * scale */
} tl_trt_tensor;

/* What the runtime queries report for a tensor (getTensorStrides and friends): strides in vector units
 * (getTensorStrides), getTensorVectorizedDim (-1 when one scalar per vector),
 * getTensorComponentsPerElement and getTensorBytesPerComponent (-1 when not
 * vectorized). A scalar at coordinates x sits this many scalars from the start:
 *   sum_{i != v} x[i]*strides[i]*V + (v >= 0 ? (x[v]/V)*strides[v]*V + x[v]%V : 0)
 * with V = components per element (1 when v = -1). */
typedef struct tl_trt_runtime {
    tl_trt_dims strides;
    int32_t vectorized_dim;
    int32_t components_per_element;
    int32_t bytes_per_component;
    int32_t format;         /* tl_trt_format, or -1 for a descriptor not built as TensorRT */
} tl_trt_runtime;

/* "kCHW32", "kINT8"; "?" for values outside the enums. */
TL_API const char *tl_trt_format_name(int32_t format);
TL_API const char *tl_trt_datatype_name(int32_t type);
/* DataType -> tl_dtype; TL_DT_INVALID for kFP8, kFP4, kE8M0 and unknown values. */
TL_API tl_dtype tl_trt_dtype_of(int32_t type);
/* tl_dtype -> DataType; -1 when TensorRT has none (u16 i16 u32 u64 f64 u4). */
TL_API int32_t tl_trt_datatype_of(tl_dtype t);

/* Build a descriptor of a TensorRT tensor: format, type, dims, and the runtime
 * strides when the engine reports padded ones. Every TensorRT and DLA rule is
 * checked; nothing is written to *d on failure. */
TL_API tl_status tl_trt_desc_init(tl_desc *d, const tl_trt_tensor *t);
/* The common case: (format, type, dims, strides) as getTensorFormat,
 * getTensorDataType, getTensorShape and getTensorStrides return them on a
 * running engine. strides NULL = the packed strides of the format. */
TL_API tl_status tl_trt_desc_from_runtime(tl_desc *d, int32_t format, int32_t type,
                                          const tl_trt_dims *dims, const tl_trt_dims *strides);

/* The runtime view of a descriptor: what getTensorStrides and friends report.
 * Works for TensorRT descriptors and for any single-plane descriptor whose
 * layout TensorRT strides can express (v = -1, or one vector-major dim);
 * TL_ERR_VENDOR_EXPORT otherwise. */
TL_API tl_status tl_trt_runtime_info(const tl_desc *d, tl_trt_runtime *out);
/* Only the strides (vector units) of tl_trt_runtime_info. */
TL_API tl_status tl_trt_runtime_strides(const tl_desc *d, tl_trt_dims *strides);

#ifdef __cplusplus
}
#endif
#endif
