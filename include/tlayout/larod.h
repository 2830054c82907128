/* Axis larod section of the tlayout public API (included by tlayout.h).
 *
 * larod describes a tensor with a layout, a data type, dims and byte pitches
 * (larod.h of the ACAP Native SDK). The types below mirror larod's field by field and
 * value by value, so a program can copy larod's structs into them (or cast:
 * the layouts are identical) without larod's header.
 *
 * Pitches (NHWC, NCHW, UNSPECIFIED), n = len, dims in the layout's order:
 *   pitches[0]      total bytes of the tensor, padding included;
 *   pitches[i]      bytes from one index of dims[i-1] to the next (1 <= i < n);
 *   computed right to left, each dim rounded up to its own byte alignment:
 *   pitches[n-1] = rup(dims[n-1]*es, align[n-1]),
 *   pitches[i]   = rup(dims[i]*pitches[i+1], align[i]).
 *   Byte offset of (i0..i(n-1)) = sum(ik * pitches[k+1], k < n-1) + i(n-1)*es.
 * 420SP (semi-planar 4:2:0, NV12), dims (3, H, W):
 *   pitches[2] row bytes (Y and interleaved CbCr rows alike),
 *   pitches[1] bytes of the Y plane with its tail = offset of the CbCr plane,
 *   pitches[0] total bytes >= pitches[1] + ceil(H/2)*pitches[2];
 *   tlayout also requires pitches[2] >= 2*ceil(W/2) (the CbCr row of an odd
 *   width is W+1 bytes).
 *
 * As a tl_desc (tl_larod_desc_init, or the spec strings
 * larod.nhwc / larod.nchw / larod.unspecified / larod.420sp):
 *   - dims and labels in larod's order: NHWC -> N,H,W,C; NCHW -> N,C,H,W;
 *     UNSPECIFIED -> no labels; 420SP -> C,H,W with c 0 = Y, 1 = Cb, 2 = Cr.
 *   - vendor = TL_VENDOR_LAROD, vendor_format = the tl_larod_tensor_layout;
 *     vendor_params[0] = the "row pitch" in bytes (pitches[2] for NHWC and
 *     420SP, pitches[3] for NCHW, 0 for UNSPECIFIED); vendor_params[1] =
 *     pitches[1] for 420SP (the CbCr plane offset), else 0; the rest 0.
 *     They are informative: tl_larod_pitches_from_desc derives every pitch
 *     from the physical map.
 *   - slack of the innermost pitch pitches[n-1] (n >= 2) that is a whole
 *     number of elements (NHWC u8 C=3 with pitches[3]=4: one) becomes padding
 *     of the last dim (pad_hi[n-1]), so conversions zero-fill it. Any other
 *     slack (row or plane alignment of outer dims, pitches[0]'s tail, bytes
 *     that are not whole elements) is only bytes between strides: conversions
 *     never write it.
 *   - a pitch that is not a multiple of the element size is a valid
 *     description (offsets, sizes) but element-wise conversion refuses it
 *     (TL_ERR_UNSUPPORTED).
 * larod carries no quantization: give scale/zero point separately (spec
 * options q= scale= zp=, or d->quant).
 */
#ifndef TLAYOUT_LAROD_H
#define TLAYOUT_LAROD_H
#include <stddef.h>

#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

#define TL_LAROD_TENSOR_MAX_LEN 12 /* LAROD_TENSOR_MAX_LEN */

/* larodTensorLayout */
typedef enum tl_larod_tensor_layout {
    TL_LAROD_TENSOR_LAYOUT_INVALID = 0,
    TL_LAROD_TENSOR_LAYOUT_UNSPECIFIED = 1,
    TL_LAROD_TENSOR_LAYOUT_NHWC = 2,
    TL_LAROD_TENSOR_LAYOUT_NCHW = 3,
    TL_LAROD_TENSOR_LAYOUT_420SP = 4,
    TL_LAROD_TENSOR_LAYOUT_MAX = 5
} tl_larod_tensor_layout;

/* larodTensorDataType. BOOL is stored as one byte (larod says "1-bit
 * boolean" without a word on storage). */
typedef enum tl_larod_tensor_data_type {
    TL_LAROD_TENSOR_DATA_TYPE_INVALID = 0,
    TL_LAROD_TENSOR_DATA_TYPE_UNSPECIFIED = 1,
    TL_LAROD_TENSOR_DATA_TYPE_BOOL = 2,
    TL_LAROD_TENSOR_DATA_TYPE_UINT8 = 3,
    TL_LAROD_TENSOR_DATA_TYPE_INT8 = 4,
    TL_LAROD_TENSOR_DATA_TYPE_UINT16 = 5,
    TL_LAROD_TENSOR_DATA_TYPE_INT16 = 6,
    TL_LAROD_TENSOR_DATA_TYPE_UINT32 = 7,
    TL_LAROD_TENSOR_DATA_TYPE_INT32 = 8,
    TL_LAROD_TENSOR_DATA_TYPE_UINT64 = 9,
    TL_LAROD_TENSOR_DATA_TYPE_INT64 = 10,
    TL_LAROD_TENSOR_DATA_TYPE_FLOAT16 = 11,
    TL_LAROD_TENSOR_DATA_TYPE_FLOAT32 = 12,
    TL_LAROD_TENSOR_DATA_TYPE_FLOAT64 = 13,
    TL_LAROD_TENSOR_DATA_TYPE_MAX = 14
} tl_larod_tensor_data_type;

/* larodTensorDims: len 0 = "not specified". */
typedef struct tl_larod_tensor_dims {
    size_t dims[TL_LAROD_TENSOR_MAX_LEN];
    size_t len;
} tl_larod_tensor_dims;

/* larodTensorPitches: len 0 = "not specified" (here: dense). */
typedef struct tl_larod_tensor_pitches {
    size_t pitches[TL_LAROD_TENSOR_MAX_LEN];
    size_t len;
} tl_larod_tensor_pitches;

/* "LAROD_TENSOR_LAYOUT_NHWC", "LAROD_TENSOR_DATA_TYPE_UINT8"; "?" if unknown. */
TL_API const char *tl_larod_layout_name(tl_larod_tensor_layout layout);
TL_API const char *tl_larod_data_type_name(tl_larod_tensor_data_type data_type);

/* Element type of a larod data type (TL_ERR_DTYPE for INVALID, UNSPECIFIED,
 * MAX and unknown values), and back (TL_ERR_DTYPE for bf16, u4, i4). */
TL_API tl_status tl_larod_dtype(tl_larod_tensor_data_type data_type, tl_dtype *out);
TL_API tl_status tl_larod_data_type(tl_dtype dtype, tl_larod_tensor_data_type *out);

/* Pitches from dims, data type and per-dim byte alignment (larod.h), right to
 * left. align: dims->len values, 0 or 1 = none; NULL = dense. For 420SP,
 * align is {row alignment, Y-plane alignment} (larod's Example 3):
 * pitches[2] = rup(2*ceil(W/2), row) (an odd width's CbCr row is W+1 bytes),
 * pitches[1] = rup(H*pitches[2], plane), pitches[0] = pitches[1] +
 * ceil(H/2)*pitches[2]. The result passes every rule of tl_larod_validate.
 * *out is written only on success. */
TL_API tl_status tl_larod_pitches_compute(tl_larod_tensor_layout layout,
                                          tl_larod_tensor_data_type data_type,
                                          const tl_larod_tensor_dims *dims, const size_t *align,
                                          tl_larod_tensor_pitches *out);

/* Pitches from a row pitch, like larodBuildTensorPitches(tensor, layout,
 * pitch, height, ...): row_pitch is the bytes from one image row to the next
 * (a VDO stride, e.g. 2048 for a 1920-byte RGB row of 640 pixels, which no
 * alignment expresses), height the rows of each plane (0 = the image
 * height; more pads every plane at its end). Only the row is padded:
 *   NHWC (N,H,W,C):  (N*height*pitch, height*pitch, pitch, C*es)
 *   NCHW (N,C,H,W):  (N*C*height*pitch, C*height*pitch, height*pitch, pitch)
 *   420SP (3,H,W):   (height*pitch + ceil(height/2)*pitch, height*pitch, pitch)
 * Spec form: larod.nhwc:u8:1x360x640x3:pitch=2048[:height=368]. TL_ERR_VENDOR
 * for UNSPECIFIED or a rank other than 4, a pitch below one row or a height
 * below the image's. *out is written only on success. */
TL_API tl_status tl_larod_pitches_from_row(tl_larod_tensor_layout layout,
                                           tl_larod_tensor_data_type data_type,
                                           const tl_larod_tensor_dims *dims, size_t row_pitch,
                                           size_t height, tl_larod_tensor_pitches *out);

/* Check larod metadata against the rules of larod.h's comments (docs/larod.md,
 * rules 1-7) and the 420SP minimum sizes; TL_OK when a descriptor can be built from it. */
TL_API tl_status tl_larod_validate(tl_larod_tensor_layout layout,
                                   tl_larod_tensor_data_type data_type,
                                   const tl_larod_tensor_dims *dims,
                                   const tl_larod_tensor_pitches *pitches);

/* Build a descriptor from larod metadata. dims->len must be > 0 (a
 * descriptor needs dims); pitches NULL or len 0 = dense. For 420SP the data
 * type must be UINT8 (UNSPECIFIED is read as UINT8). *d is written only on
 * success. */
TL_API tl_status tl_larod_desc_init(tl_desc *d, tl_larod_tensor_layout layout,
                                    tl_larod_tensor_data_type data_type,
                                    const tl_larod_tensor_dims *dims,
                                    const tl_larod_tensor_pitches *pitches);

/* Export: larod metadata for a descriptor larod can express (a larod
 * descriptor; a plain row-major tensor, NHWC/NCHW by its labels else
 * UNSPECIFIED, padded only after each dim; an NV12 image). Otherwise
 * TL_ERR_VENDOR_EXPORT with the reason (blocked layout, padding before a
 * dim, axes not in dims order, innermost stride not the element size, ...).
 * Any output may be NULL; none is written unless the call succeeds. */
TL_API tl_status tl_larod_from_desc(const tl_desc *d, tl_larod_tensor_layout *layout,
                                    tl_larod_tensor_data_type *data_type,
                                    tl_larod_tensor_dims *dims,
                                    tl_larod_tensor_pitches *pitches);
TL_API tl_status tl_larod_pitches_from_desc(const tl_desc *d, tl_larod_tensor_pitches *pitches);

/* Rule 8 of docs/larod.md: a tensor fd of capacity fd_size (0 = unchecked, as in
 * larodSetTensorFdSize) must hold fd_offset + pitches[0] bytes. */
TL_API tl_status tl_larod_check_fd_size(const tl_desc *d, uint64_t fd_offset, uint64_t fd_size);

#ifdef __cplusplus
}
#endif
#endif
