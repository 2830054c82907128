/* TI TIDL-RT section of the tlayout public API (included by tlayout.h).
 *
 * TIDL-RT describes every input and output buffer of a network in
 * sTIDL_IOBufDesc_t, which the import tool writes byte for byte to io_1.bin
 * (itidl_ti.h / itidl_io.h, docs/tidl.md). The types below mirror its fields and enum
 * values, so no TI header is needed.
 *
 * Geometry of one buffer, all in elements of its element type (as TI's runtime addresses it):
 *   lp   = Width + PadL + PadR                   line pitch
 *   cp   = ChannelPitch (0: lp*(Height+PadT+PadB), the V1 rule)
 *   d2p  = cp * (NumChannels + PadCh)            DIM2 pitch
 *   d1p  = d2p * DIM2                            DIM1 pitch
 *   bp   = d1p * DIM1                            batch pitch
 *   off(b,d1,d2,c,h,w) = PadT*lp + PadL + b*bp + d1*d1p + d2*d2p + c*cp + h*lp + w
 * The first valid element is PadT*lp + PadL. TI's I/O format document starts
 * at PadT + PadL, which is wrong (bug B1, docs/sources.md).
 *
 * As a tl_desc (tl_desc_from_tidl, or the spec string tidl:DT:NxCxHxW /
 * tidl:DT:NxD1xD2xCxHxW with :pad=L,T,R,B :padch=P :cp=ELEMS :bufsize=ELEMS
 * :layout=nchw|nhwc and the common :scale= :zp= :q= :round=):
 *   - dims N,C,H,W (labels 'N','C','H','W'), or N,DIM1,DIM2,C,H,W with the
 *     labels 'N','E','F','C','H','W' ('E' = DIM1, 'F' = DIM2: D is depth).
 *     N is NumBatches (0 read as 1), DIM1/DIM2 of 0 read as 1.
 *   - pad_lo/pad_hi: H = PadT/PadB, W = PadL/PadR, C = 0/PadCh. Every axis
 *     has block 1; strides are es, lp, cp, d2p, d1p, bp elements (in bits);
 *     the plane offset is 0, so the first valid element PadT*lp + PadL comes
 *     from the padding.
 *   - cp below lp*(H+PadT+PadB) makes neighbouring channels share padding
 *     rows. That is accepted with a warning (TI calls the rule
 *     unverified) and the descriptor is read-only (TL_DESC_READONLY); cp so
 *     small that valid elements of two channels meet is an error.
 *   - size: BufSize*es when BufSize is known (V4; it must cover the whole
 *     padded layout, TL_ERR_SIZE otherwise), else NumBatches*bp*es (or the
 *     padded extent, when shared padding rows of the last channel reach
 *     further).
 *   - integer element types: inverse-scale quantization real = (q - zp)/scale,
 *     computed as TIDL-RT does, (q - zp) * (1.0f/scale) in f32 (tl_dequant),
 *     with the buffer's TensorScale (finite, normal, > 0) and ZeroPoint,
 *     rounding toward zero when quantizing (TIDL-RT truncates).
 *     Float32: no quantization, whatever TensorScale/ZeroPoint hold. A spec
 *     without scale= gets scale 1; q=none/affine/dfp override the kind.
 *   - NHWC layout: only without padding (TL_ERR_VENDOR otherwise; TI documents
 *     no padded NHWC geometry); then a dense NHWC tensor, ChannelPitch ignored.
 *   - vendor = TL_VENDOR_TIDL, vendor_format = the layout (TL_TIDL_LT_*),
 *     vendor_params = {PadL, PadT, PadR, PadB, PadCh, cp (effective, 0 for
 *     NHWC), BufSize (0 = none), 0}.
 */
#ifndef TLAYOUT_TIDL_H
#define TLAYOUT_TIDL_H
#include <stddef.h>

#include "tlayout.h"
#ifdef __cplusplus
extern "C" {
#endif

#define TL_TIDL_STRING_SIZE 512        /* TIDL_STRING_SIZE */
#define TL_TIDL_IO_MAX_BYTES 378392u   /* the largest known io_1.bin (V4, 4 cores) */

/* eTIDL_ElementType (= TIDLRT_*): the same numbers in every TIDL release. */
typedef enum tl_tidl_element_type {
    TL_TIDL_UNSIGNED_CHAR = 0,        /* u8 */
    TL_TIDL_SIGNED_CHAR = 1,          /* i8 */
    TL_TIDL_UNSIGNED_SHORT = 2,       /* u16 */
    TL_TIDL_SIGNED_SHORT = 3,         /* i16 */
    TL_TIDL_UNSIGNED_WORD = 4,        /* u32 */
    TL_TIDL_SIGNED_WORD = 5,          /* i32 */
    TL_TIDL_SINGLE_PREC_FLOAT = 6,    /* f32 */
    TL_TIDL_UNSIGNED_DOUBLE_WORD = 7, /* u64 */
    TL_TIDL_SIGNED_DOUBLE_WORD = 8    /* i64 */
} tl_tidl_element_type;

/* TIDL_LT_* (= TIDLRT_LT_*). */
typedef enum tl_tidl_layout {
    TL_TIDL_LT_NCHW = 0,
    TL_TIDL_LT_NHWC = 1
} tl_tidl_layout;

/* eTIDL_inDataFormat, eTIDL_inResizeType, eTIDL_inferenceMode. */
enum {
    TL_TIDL_IN_DATA_FORMAT_BGR_PLANAR = 0, TL_TIDL_IN_DATA_FORMAT_RGB_PLANAR = 1,
    TL_TIDL_IN_RESIZE_TYPE_DEFAULT = 0, TL_TIDL_IN_RESIZE_TYPE_KEEP_AR = 1,
    TL_TIDL_INFERENCE_MODE_DEFAULT = 0, TL_TIDL_INFERENCE_MODE_HIGH_THROUGHPUT = 1,
    TL_TIDL_INFERENCE_MODE_LOW_LATENCY = 2
};

/* One input or output buffer of sTIDL_IOBufDesc_t: slot `index` of the in*
 * or out* arrays. Fields a version or a direction lacks read as 0, except
 * DIM1/DIM2, which read as 1 from a V2 image. */
typedef struct tl_tidl_buf {
    int32_t width, height, num_channels;        /* in/outWidth, Height, NumChannels */
    int32_t pad_l, pad_t, pad_r, pad_b, pad_ch; /* in/outPadL..PadCh */
    int32_t channel_pitch;  /* in/outChannelPitch, elements; 0 = lp*(H+PadT+PadB) */
    int32_t num_batches;    /* in/outNumBatches; 0 is read as 1 */
    int32_t dim1, dim2;     /* in/outDIM1, DIM2 (V3+); 0 is read as 1 */
    int32_t element_type;   /* in/outElementType, tl_tidl_element_type */
    int32_t layout;         /* in/outLayout, tl_tidl_layout */
    int32_t zero_point;     /* in/outZeroPoint */
    float tensor_scale;     /* in/outTensorScale: q = real * scale */
    int32_t buf_size;       /* in/outBufSize (V4), elements; 0 = unknown */
    int32_t data_id;        /* in/outDataId */
    /* inputs only */
    int32_t data_format;    /* inDataFormat */
    int32_t resize_type;    /* inResizeType */
    int32_t resize_width, resize_height;
    int32_t raw_element_type; /* rawDataInElementType */
    /* outputs only (V3+) */
    int32_t num_valid_tensor_dims;
    /* where it came from (not part of the file) */
    int32_t is_output;      /* 0 = in* arrays, 1 = out* arrays */
    int32_t index;          /* slot in those arrays; -1 = not from an image */
    char name[TL_TIDL_STRING_SIZE]; /* in/outDataName, NUL-terminated */
} tl_tidl_buf;

/* The header of an io_1.bin image and the variant of the struct. */
typedef struct tl_tidl_io {
    int32_t version;        /* 2 (PSDK 8.6), 3 (9.x/10.x itidl_ti.h), 4 (11.x itidl_io.h) */
    int32_t max_cores;      /* the core count the arrays are sized for: 1 (V2), 1, 2 or 4 */
    int32_t max_inputs;     /* I: 32 * max_cores */
    int32_t max_outputs;    /* O: 32 (V2) or 128 * max_cores */
    int32_t num_input_buf, num_output_buf;
    int32_t num_cores, num_virtual_cores, num_super_batches, inference_mode; /* V3+ */
    int64_t size_bytes;     /* sizeof(sTIDL_IOBufDesc_t) of this variant */
} tl_tidl_io;

/* Flags of tl_desc_from_tidl. */
#define TL_TIDL_DESC_6D 1u  /* always N,DIM1,DIM2,C,H,W (default: 4-D when DIM1 = DIM2 = 1) */

/* "TIDL_SignedShort", "TIDL_LT_NCHW"; "?" if unknown. */
TL_API const char *tl_tidl_element_type_name(int32_t element_type);
TL_API const char *tl_tidl_layout_name(int32_t layout);
/* Element type -> dtype (TL_ERR_DTYPE outside 0..8), and dtype -> element type
 * (TL_ERR_DTYPE for f16, bf16, f64, bool, u4, i4). */
TL_API tl_status tl_tidl_dtype(int32_t element_type, tl_dtype *out);
TL_API tl_status tl_tidl_element_type_of(tl_dtype dtype, int32_t *out);

/* ---- io_1.bin ------------------------------------------------------------ */
/* sizeof(sTIDL_IOBufDesc_t): version 2 (cores 1), 3 or 4 (cores 1, 2 or 4). */
TL_API tl_status tl_tidl_io_size(int version, int cores, size_t *bytes);
/* Byte offset of field[index] in that variant, by TI's field name
 * ("inWidth", "outTensorScale", "numCores", ...; index 0 for header fields). */
TL_API tl_status tl_tidl_io_field_offset(int version, int cores, const char *field, int index,
                                         size_t *offset);
/* An empty header for a variant: counts 0, capacities and size set. */
TL_API tl_status tl_tidl_io_init(tl_tidl_io *io, int version, int cores);

/* Parse an image: the variant from its length (37256 V2; 93976/187928/375832
 * V3; 94616/189208/378392 V4; anything else TL_ERR_VENDOR_FILE listing them;
 * V1 of TIDL 1.x is not read),
 * then the sanity checks TI's runtime makes: 0 <= counts <= capacity, and for
 * every used buffer an element type in 0..8, a layout in {0,1} and a NUL in
 * its name. *io is written only on success. */
TL_API tl_status tl_tidl_io_parse(const void *image, size_t len, tl_tidl_io *io);
/* The same for a reader built for one variant (what TI's readers do): a
 * length other than that variant's size is TL_ERR_VENDOR_FILE. */
TL_API tl_status tl_tidl_io_parse_as(const void *image, size_t len, int version, int cores,
                                     tl_tidl_io *io);
/* Buffer `index` (0 <= index < num_input_buf / num_output_buf) of a parsed image. */
TL_API tl_status tl_tidl_io_get(const void *image, size_t len, const tl_tidl_io *io,
                                int is_output, int index, tl_tidl_buf *buf);
/* Write an image of io->size_bytes (len >= that) from io's header and
 * inputs[0..num_input_buf), outputs[0..num_output_buf); unused slots and
 * string tails are zero, as TI's import tool leaves them. Fields the variant
 * lacks must be 0 (DIM1/DIM2 may be 1), and so must the input-only fields of
 * an output and num_valid_tensor_dims of an input: TL_ERR_VENDOR_EXPORT
 * otherwise, as for a count above the capacity, an element type outside
 * 0..8, a layout outside {0,1} or a name without NUL. The variant comes from
 * io->version and io->max_cores. Nothing is written unless the call succeeds. */
TL_API tl_status tl_tidl_io_write(const tl_tidl_io *io, const tl_tidl_buf *inputs,
                                  const tl_tidl_buf *outputs, void *image, size_t len);
/* Read a whole file into image[0..cap) (cap >= TL_TIDL_IO_MAX_BYTES holds
 * any known variant); *len gets its size. TL_ERR_IO if it cannot be read,
 * TL_ERR_VENDOR_FILE if it is longer than cap. */
TL_API tl_status tl_tidl_io_read_file(const char *path, void *image, size_t cap, size_t *len);

/* ---- buffers as descriptors ------------------------------------------- */
/* Build the descriptor of one buffer (see the top of this header). Every
 * rule broken is named with TI's field, e.g. "outPadT[2]=-1". *d is written
 * only on success. */
TL_API tl_status tl_desc_from_tidl(tl_desc *d, const tl_tidl_buf *buf, unsigned flags);
/* Warnings about a buffer that still yields a descriptor (channel pitch below
 * the padded plane, a zero point TI's own conversion ignores): their count;
 * the text, one line per warning (no final newline), into msg (may be NULL). */
TL_API int tl_tidl_buf_warnings(const tl_tidl_buf *buf, char *msg, size_t len);
/* The geometry, element type, quantization and layout of a TIDL descriptor
 * back as a buffer (name empty, index -1). TL_ERR_VENDOR_EXPORT for a
 * descriptor that tl_desc_from_tidl did not build, or whose quantization TIDL
 * cannot carry. */
TL_API tl_status tl_tidl_from_desc(const tl_desc *d, tl_tidl_buf *buf);

/* Bytes an INPUT buffer of a TIDL descriptor must have. TIDL reads one
 * padded 2-D plane past the last channel of an input, so the allocation can
 * exceed d->size_bytes (what the layout spans, and all an output needs):
 *   - V4 (BufSize known): BufSize * es = d->size_bytes; inBufSize already
 *     counts the extra plane (TI's TIDL-RT C++ wrapper takes one padded plane
 *     off inBufSize to get the valid size);
 *   - V2/V3 (BufSize 0): max(d->size_bytes,
 *     N * DIM1 * DIM2 * (NumChannels + 1) * ChannelPitch * es), the rule of
 *     TI's test bench (tidl_AllocNetInputMem). Example: u8 1x3x224x224 with
 *     pads 1,1,1,1 spans 153228 bytes, an input needs 204304.
 * TL_ERR_VENDOR_EXPORT for a descriptor tl_desc_from_tidl did not build. */
TL_API tl_status tl_tidl_input_alloc_size(const tl_desc *d, uint64_t *bytes);

/* Zero every byte of buf[0..size) that holds no valid element: the padding
 * TI requires the application to clear in input buffers, the channel-pitch
 * slack and the tail up to BufSize. Valid elements are not touched. */
TL_API tl_status tl_tidl_zero_padding(const tl_desc *d, void *buf, size_t len);

/* ---- TIDL-RT's user tensor (sTIDLRT_Tensor_t, itidl_rt.h) ------------------ */
/* The tensor an application passes to TIDLRT_invoke, in its 6-D form (the
 * header with TIDLRT_DIM_MAX 6 and bufferSize). Index meanings of the 6-D
 * form; num_dim 4 keeps the older 4-D meanings in the first slots
 * (dims BATCH, NUMCH, HEIGHT, WIDTH; pitches ROI, CHANNEL, LINE). All counts
 * are elements of element_type. */
enum {
    TL_TIDLRT_DIM_BATCH = 0, TL_TIDLRT_DIM_DIM1 = 1, TL_TIDLRT_DIM_DIM2 = 2,
    TL_TIDLRT_DIM_NUMCH = 3, TL_TIDLRT_DIM_HEIGHT = 4, TL_TIDLRT_DIM_WIDTH = 5,
    TL_TIDLRT_DIM_MAX = 6,
    TL_TIDLRT_ROI_PITCH = 0, TL_TIDLRT_DIM1_PITCH = 1, TL_TIDLRT_DIM2_PITCH = 2,
    TL_TIDLRT_CHANNEL_PITCH = 3, TL_TIDLRT_LINE_PITCH = 4,
    TL_TIDLRT_PAD_L = 0, TL_TIDLRT_PAD_R = 1, TL_TIDLRT_PAD_T = 2, TL_TIDLRT_PAD_B = 3,
    TL_TIDLRT_MEM_USER_SPACE = 0, TL_TIDLRT_MEM_SHARED = 1, TL_TIDLRT_MEM_NATIVE = 2
};

typedef struct tl_tidlrt_tensor {
    char name[TL_TIDL_STRING_SIZE];
    int32_t element_type;                  /* tl_tidl_element_type (TIDLRT_Uint8 ...) */
    int32_t num_dim;                       /* 6 (or 4, the older form) */
    int32_t dim_values[TL_TIDLRT_DIM_MAX]; /* N, DIM1, DIM2, C, H, W */
    int32_t pitch[TL_TIDLRT_DIM_MAX - 1];  /* ROI (batch), DIM1, DIM2, CHANNEL, LINE; 0 = derived,
                                              CHANNEL -1 = Width*Height (TIDL-RT's reading) */
    int32_t pad_values[4];                 /* L, R, T, B (note: not TIDL's L, T, R, B order) */
    void *ptr;                             /* the buffer (not used by tlayout) */
    int32_t data_offset;                   /* first valid element: PadT*lp + PadL */
    uint32_t layout;                       /* tl_tidl_layout */
    int32_t zero_point;
    float scale;                           /* q = real * scale, as TensorScale */
    uint32_t mem_type;                     /* TL_TIDLRT_MEM_*: zero copy needs SHARED */
    int32_t buffer_size;                   /* elements; 0 = not given */
} tl_tidlrt_tensor;

/* The user tensor that matches a TIDL buffer descriptor exactly (so
 * tl_tidlrt_tensor_same holds): element type, 6 dims, the documented pitches
 * (line lp, channel cp, DIM2 cp*(C+PadCh), DIM1, ROI = batch pitch), pads,
 * data offset PadT*lp + PadL, layout, zero point, scale, bufferSize =
 * BufSize or size/es. name empty, ptr NULL, mem_type USER_SPACE (set SHARED
 * after TIDLRT_allocSharedMem). TL_ERR_VENDOR_EXPORT for a descriptor
 * tl_desc_from_tidl did not build, or values beyond int32. */
TL_API tl_status tl_tidlrt_tensor_from_desc(const tl_desc *d, tl_tidlrt_tensor *t);
/* The descriptor of the buffer a user tensor describes, with its own
 * quantization (real = (q - zero_point) / scale, as TIDL-RT reads a user
 * tensor; float tensors none). Pitches that are given must be the ones the
 * dims and pads imply (TIDL has no free line pitch) and data_offset must be
 * PadT*lp + PadL: TL_ERR_VENDOR names the field otherwise, e.g.
 * "pitch[TIDLRT_LINE_PITCH]=230 but Width + PadL + PadR = 226". */
TL_API tl_status tl_desc_from_tidlrt_tensor(tl_desc *d, const tl_tidlrt_tensor *t);
/* TIDL-RT's test of whether a user tensor is "the same" as buffer b: then it
 * copies the buffer as raw bytes (or, in shared memory, not at all), else it
 * converts element by element (dequantize, requantize, re-pad). The test
 * compares the element type, the channel pitch (-1 read as Width*Height, as
 * TIDL-RT does), the layout, the zero point and the scale; tlayout adds
 * bufferSize against BufSize when both are known (TI's condition for zero
 * copy). 1 when the same; 0 otherwise, with the first field that differs,
 * both values and what follows, into why (may be NULL). */
TL_API int tl_tidlrt_tensor_same(const tl_tidlrt_tensor *t, const tl_tidl_buf *b, char *why, size_t len);

#ifdef __cplusplus
}
#endif
#endif
