/* DirectML section of the tlayout public API (included by tlayout.h).
 *
 * A DirectML buffer tensor (DML_BUFFER_TENSOR_DESC in DirectML.h) is a list
 * of Sizes in DirectML's fixed logical order -- N,C,H,W for 4-D, N,C,D,H,W for
 * 5-D -- plus optional Strides in ELEMENTS. The physical layout (NHWC, row
 * padding, broadcast) is expressed only through the strides; a stride of 0
 * broadcasts that dim. The structs below mirror DirectML.h field by field
 * (same names, same enum values, same field types and order), so no DirectML
 * SDK is needed to build and a value can be copied member by member.
 *
 * In a tl_desc built from a DML desc (tl_dml_import, spec prefix "dml"):
 *   rank = DimensionCount, dims = Sizes, labels N,C,H,W (4-D), N,C,D,H,W (5-D),
 *   N,C,W (3-D, DirectMLX's NCW), none for ranks 1, 2, 6, 7 and 8;
 *   one physical axis per dim in logical order, stride_bits = Strides[i] * bits
 *   (4-bit types: 4 bits per element); size_bytes = TotalTensorSizeInBytes;
 *   TL_DESC_READONLY when a stride is 0 over a size > 1 (broadcast) or the
 *   strides make elements share memory (the core's non-aliasing rule).
 *   vendor = TL_VENDOR_DML, vendor_format = TL_DML_FORMAT_*, and
 *   vendor_params[0] = DataType, [1] = Flags, [2] = GuaranteedBaseOffsetAlignment,
 *   [3] = broadcast mask of dml.nchw / dml.nhwc (bit i = Sizes[i]); the rest 0.
 * See docs/dml.md.
 */
#ifndef TLAYOUT_DML_H
#define TLAYOUT_DML_H
#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

/* DML_TENSOR_DATA_TYPE (DirectML.h; UINT4/INT4 need DML_TARGET_VERSION >= 0x6300). */
typedef enum tl_dml_data_type {
    TL_DML_TENSOR_DATA_TYPE_UNKNOWN = 0,
    TL_DML_TENSOR_DATA_TYPE_FLOAT32 = 1,
    TL_DML_TENSOR_DATA_TYPE_FLOAT16 = 2,
    TL_DML_TENSOR_DATA_TYPE_UINT32 = 3,
    TL_DML_TENSOR_DATA_TYPE_UINT16 = 4,
    TL_DML_TENSOR_DATA_TYPE_UINT8 = 5,
    TL_DML_TENSOR_DATA_TYPE_INT32 = 6,
    TL_DML_TENSOR_DATA_TYPE_INT16 = 7,
    TL_DML_TENSOR_DATA_TYPE_INT8 = 8,
    TL_DML_TENSOR_DATA_TYPE_FLOAT64 = 9,
    TL_DML_TENSOR_DATA_TYPE_UINT64 = 10,
    TL_DML_TENSOR_DATA_TYPE_INT64 = 11,
    TL_DML_TENSOR_DATA_TYPE_UINT4 = 12,
    TL_DML_TENSOR_DATA_TYPE_INT4 = 13
} tl_dml_data_type;

/* DML_TENSOR_FLAGS */
#define TL_DML_TENSOR_FLAG_NONE 0u
#define TL_DML_TENSOR_FLAG_OWNED_BY_DML 1u

/* DML_TENSOR_TYPE */
#define TL_DML_TENSOR_TYPE_INVALID 0u
#define TL_DML_TENSOR_TYPE_BUFFER 1u

/* DirectML.h constants. DimensionCount may be 1..COUNT_MAX1 at descriptor level
 * (an older revision of the DML_BUFFER_TENSOR_DESC page said 4 or 5); operators may allow fewer. */
#define TL_DML_TENSOR_DIMENSION_COUNT_MAX 5
#define TL_DML_TENSOR_DIMENSION_COUNT_MAX1 8
#define TL_DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT 16
#define TL_DML_TEMPORARY_BUFFER_ALIGNMENT 256
#define TL_DML_PERSISTENT_BUFFER_ALIGNMENT 256

/* DML_BUFFER_TENSOR_DESC */
typedef struct tl_dml_buffer_tensor_desc {
    tl_dml_data_type DataType;
    uint32_t Flags;                         /* TL_DML_TENSOR_FLAG_* */
    uint32_t DimensionCount;                /* 1..8 */
    const uint32_t *Sizes;                  /* elements per dim, logical order */
    const uint32_t *Strides;                /* elements per dim, NULL = packed */
    uint64_t TotalTensorSizeInBytes;        /* >= tl_dml_buffer_tensor_size() */
    uint32_t GuaranteedBaseOffsetAlignment; /* 0, or a power of two >= element size */
} tl_dml_buffer_tensor_desc;

/* DML_TENSOR_DESC */
typedef struct tl_dml_tensor_desc {
    uint32_t Type;      /* TL_DML_TENSOR_TYPE_BUFFER */
    const void *Desc;   /* a tl_dml_buffer_tensor_desc */
} tl_dml_tensor_desc;

/* vendor_format of a DirectML tl_desc: which spec prefix describes it. */
#define TL_DML_FORMAT_STRIDES 0  /* "dml":      explicit Strides (or packed) */
#define TL_DML_FORMAT_NCHW 1     /* "dml.nchw": CalculateStrides(NCHW) + broadcast */
#define TL_DML_FORMAT_NHWC 2     /* "dml.nhwc": CalculateStrides(NHWC) / InterleavedChannel */

/* Layout argument of tl_dml_calc_strides (the DirectML helper's NCHW / NHWC). */
typedef enum tl_dml_layout { TL_DML_LAYOUT_NCHW = 0, TL_DML_LAYOUT_NHWC = 1 } tl_dml_layout;

/* ---- element types ------------------------------------------------------- */
/* "FLOAT32", ...; "UNKNOWN" for 0 and "?" outside 0..13. Never NULL. */
TL_API const char *tl_dml_data_type_name(uint32_t data_type);
/* Bits per element (4 for UINT4/INT4); 0 for UNKNOWN and values outside 1..13. */
TL_API unsigned tl_dml_data_type_bits(uint32_t data_type);
/* The tl_dtype of a DML data type, TL_DT_INVALID when there is none. */
TL_API tl_dtype tl_dml_data_type_to_dtype(uint32_t data_type);
/* The DML data type of a tl_dtype, TL_DML_TENSOR_DATA_TYPE_UNKNOWN for bf16,
 * bool and invalid values (DirectML has no such buffer element types). */
TL_API tl_dml_data_type tl_dml_data_type_from_dtype(tl_dtype t);

/* ---- DirectML's helper functions, exact ---------------------------------- */
/* DMLCalcBufferTensorSize (Microsoft Learn, DirectML helper functions), the bits-based form of DirectMLX:
 *   last = Σ (Sizes[i]-1) * Strides[i];  bits = (last + 1) * ebits
 *   (Strides NULL: bits = Π Sizes[i] * ebits);  *bytes = rup(cdiv(bits, 8), 4).
 * Computed in checked 64-bit arithmetic, so it is exact above 4 GiB where every
 * published version overflows (docs/sources.md). Rejects Sizes[i] == 0 (TL_ERR_DIM), which
 * the published versions wrap around. Does not apply the 2^32-element limit
 * (that is tl_dml_validate's). *bytes is written only on success. */
TL_API tl_status tl_dml_buffer_tensor_size(uint32_t data_type, uint32_t dimension_count,
                                           const uint32_t *sizes, const uint32_t *strides,
                                           uint64_t *bytes);

/* CalculateStrides (Microsoft Learn, DirectML helper functions) for any DimensionCount: each dim whose bit
 * is set in broadcast_mask (bit i = sizes[i]) counts as size 1 and gets stride 0.
 *   TL_DML_LAYOUT_NCHW: packed row-major in logical order (ranks 1..8).
 *   TL_DML_LAYOUT_NHWC: DirectMLX's InterleavedChannel policy, ranks 1..8:
 *     sN = Π sizes[1..], sC = 1, spatial strides from the last dim inwards
 *     starting at sizes[C] (NCW->NWC, NCHW->NHWC, NCDHW->NDHWC; rank 1 is
 *     {1}, rank 2 {C, 1}; ranks 6..8 interleave dim 1 below dims 7..2).
 * strides[0..dimension_count-1] is written only on success; every stride must
 * fit a UINT (TL_ERR_VENDOR otherwise). */
TL_API tl_status tl_dml_calc_strides(tl_dml_layout layout, uint32_t dimension_count,
                                     const uint32_t *sizes, uint32_t broadcast_mask,
                                     uint32_t *strides);

/* ---- descriptors ---------------------------------------------------------- */
/* Check the rules of the DML_BUFFER_TENSOR_DESC reference: DataType 1..13, Flags only
 * OWNED_BY_DML, DimensionCount 1..8, Sizes[i] >= 1, fewer than 2^32 elements,
 * TotalTensorSizeInBytes >= tl_dml_buffer_tensor_size(), and
 * GuaranteedBaseOffsetAlignment 0 or a power of two >= the element size.
 * Every message names DirectML. */
TL_API tl_status tl_dml_validate(const tl_dml_buffer_tensor_desc *dml);

/* Build a tl_desc from a DML buffer tensor desc (see the mapping at the top of
 * this header). Validates first; *out is written only on success. */
TL_API tl_status tl_dml_import(tl_desc *out, const tl_dml_buffer_tensor_desc *dml);

/* Express a descriptor as a DML buffer tensor desc. sizes[] and strides[]
 * (TL_DML_TENSOR_DIMENSION_COUNT_MAX1 entries each) receive the arrays that
 * out->Sizes / out->Strides point to; Strides is always given explicitly.
 * Works for any single-plane descriptor with one block-1 axis per dim (or
 * none, for a dim of extent 1), no padding before a dim, plane offset 0 and
 * strides in whole elements that fit a UINT. Dims labelled exactly N,C,H,W /
 * N,C,D,H,W / N,C,W in any order are put in DirectML's order (so NHWC:...
 * exports as Sizes N,C,H,W with NHWC strides); other dims keep their order.
 * TotalTensorSizeInBytes = max(d->size_bytes, tl_dml_buffer_tensor_size()).
 * Flags and GuaranteedBaseOffsetAlignment come from a DirectML descriptor's
 * vendor_params, else 0. Quantization is not part of a DML buffer tensor (the
 * (de)quantize operators take it as separate tensors) and is not exported.
 * Anything else: TL_ERR_VENDOR_EXPORT with the reason. Nothing is written on
 * failure. */
TL_API tl_status tl_dml_export(const tl_desc *d, tl_dml_buffer_tensor_desc *out, uint32_t *sizes,
                               uint32_t *strides);

#ifdef __cplusplus
}
#endif
#endif
