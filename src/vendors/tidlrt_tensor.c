/* TIDL-RT's user tensor, sTIDLRT_Tensor_t (itidl_rt.h, the 6-D form with
 * bufferSize): to and from a TIDL descriptor, and TIDL-RT's test of whether
 * a user tensor is "the same" as the buffer descriptor, which decides
 * between a raw copy and element-by-element conversion. Everything goes
 * through tl_tidl_buf, the one mirror of a buffer's fields (tidl.c). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/internal.h"

/* The documented geometry of a buffer, in elements (tidl.h's header comment). */
typedef struct rt_pitches {
    int64_t line, channel, dim2, dim1, roi, offset;
} rt_pitches;

static bool pitches_of(const tl_tidl_buf *b, rt_pitches *p)
{
    int64_t d1 = b->dim1 > 0 ? b->dim1 : 1, d2 = b->dim2 > 0 ? b->dim2 : 1;
    int64_t c = b->num_channels, h = b->height, w = b->width;
    if (b->layout == TL_TIDL_LT_NHWC) { /* dense NHWC: no pads */
        p->line = w * c;
        p->channel = b->channel_pitch;
        p->offset = 0;
        return tl_mul_ok(h * w, c, &p->dim2) && tl_mul_ok(p->dim2, d2, &p->dim1) && tl_mul_ok(p->dim1, d1, &p->roi);
    }
    p->line = w + b->pad_l + b->pad_r;
    int64_t plane;
    if (!tl_mul_ok(p->line, h + b->pad_t + b->pad_b, &plane)) return false;
    p->channel = b->channel_pitch ? b->channel_pitch : plane;
    p->offset = b->pad_t * p->line + b->pad_l;
    return tl_mul_ok(p->channel, c + b->pad_ch, &p->dim2) && tl_mul_ok(p->dim2, d2, &p->dim1) &&
           tl_mul_ok(p->dim1, d1, &p->roi);
}

static bool fits_i32(int64_t v) { return v >= INT32_MIN && v <= INT32_MAX; }

tl_status tl_tidlrt_tensor_from_desc(const tl_desc *d, tl_tidlrt_tensor *t)
{
    tl_tidl_buf b;
    rt_pitches p;
    if (!t) return tl_fail(TL_ERR_NULL, "tensor is NULL");
    TL_TRY(tl_tidl_from_desc(d, &b));
    int64_t es = tl_dtype_bits((tl_dtype)d->dtype) / 8, size = b.buf_size ? b.buf_size : d->size_bytes / es;
    if (!pitches_of(&b, &p) || !fits_i32(p.roi) || !fits_i32(p.offset) || !fits_i32(size))
        return tl_fail(TL_ERR_VENDOR_EXPORT, "a pitch, the data offset or the buffer size exceeds the int32 fields "
                       "of sTIDLRT_Tensor_t (TIDL)");
    tl_tidlrt_tensor r;
    memset(&r, 0, sizeof r);
    r.element_type = b.element_type;
    r.num_dim = TL_TIDLRT_DIM_MAX;
    const int32_t dims[TL_TIDLRT_DIM_MAX] = {b.num_batches, b.dim1, b.dim2, b.num_channels, b.height, b.width};
    memcpy(r.dim_values, dims, sizeof dims);
    const int32_t pitch[TL_TIDLRT_DIM_MAX - 1] = {(int32_t)p.roi, (int32_t)p.dim1, (int32_t)p.dim2,
                                                  (int32_t)p.channel, (int32_t)p.line};
    memcpy(r.pitch, pitch, sizeof pitch);
    const int32_t pads[4] = {b.pad_l, b.pad_r, b.pad_t, b.pad_b};
    memcpy(r.pad_values, pads, sizeof pads);
    r.data_offset = (int32_t)p.offset;
    r.layout = (uint32_t)b.layout;
    r.zero_point = b.zero_point;
    r.scale = b.tensor_scale;
    r.buffer_size = (int32_t)size;
    *t = r;
    return TL_OK;
}

/* ---- user tensor -> descriptor ------------------------------------------------- */

/* The tensor has no PadCh field: padding channels show only in the pitch
 * above the channel pitch (DIM2 pitch, or the ROI pitch of the 4-D form),
 * cp * (C + PadCh). A pitch that is not such a multiple is left for
 * check_given to report. */
static void derive_pad_ch(const tl_tidlrt_tensor *t, tl_tidl_buf *b)
{
    int64_t above = t->pitch[t->num_dim == 4 ? TL_TIDLRT_ROI_PITCH : TL_TIDLRT_DIM2_PITCH], cp = b->channel_pitch;
    if (!cp) cp = (int64_t)(b->width + b->pad_l + b->pad_r) * (b->height + b->pad_t + b->pad_b);
    if (above <= 0 || cp <= 0 || above % cp || above / cp < b->num_channels) return;
    if (above / cp - b->num_channels <= INT32_MAX) b->pad_ch = (int32_t)(above / cp - b->num_channels);
}

/* dims, pads and channel pitch of a user tensor as buffer fields. */
static tl_status buf_of_tensor(const tl_tidlrt_tensor *t, tl_tidl_buf *b)
{
    memset(b, 0, sizeof *b);
    b->index = -1;
    const int32_t *v = t->dim_values;
    if (t->num_dim == TL_TIDLRT_DIM_MAX) {
        b->num_batches = v[0], b->dim1 = v[1], b->dim2 = v[2], b->num_channels = v[3], b->height = v[4],
        b->width = v[5];
        b->channel_pitch = t->pitch[TL_TIDLRT_CHANNEL_PITCH];
    } else if (t->num_dim == 4) { /* the older 4-D form: BATCH, NUMCH, HEIGHT, WIDTH; pitch ROI, CHANNEL, LINE */
        b->num_batches = v[0], b->dim1 = b->dim2 = 1, b->num_channels = v[1], b->height = v[2], b->width = v[3];
        b->channel_pitch = t->pitch[1];
    } else {
        return tl_fail(TL_ERR_RANK, "numDim=%d: a TIDL-RT tensor has 6 dims (or 4 in the older header) (TIDL)",
                       (int)t->num_dim);
    }
    if (b->channel_pitch == -1) { /* TIDL-RT's reading of -1 */
        int64_t wh = (int64_t)b->width * b->height;
        if (!fits_i32(wh))
            return tl_fail(TL_ERR_OVERFLOW, "pitch[TIDLRT_CHANNEL_PITCH]=-1 means Width x Height = %lld, beyond "
                           "int32 (TIDL)", (long long)wh);
        b->channel_pitch = (int32_t)wh;
    }
    b->pad_l = t->pad_values[TL_TIDLRT_PAD_L], b->pad_r = t->pad_values[TL_TIDLRT_PAD_R];
    b->pad_t = t->pad_values[TL_TIDLRT_PAD_T], b->pad_b = t->pad_values[TL_TIDLRT_PAD_B];
    if ((int32_t)t->layout == TL_TIDL_LT_NCHW) derive_pad_ch(t, b);
    b->element_type = t->element_type;
    b->layout = (int32_t)t->layout;
    b->buf_size = t->buffer_size;
    if (t->element_type == TL_TIDL_SINGLE_PREC_FLOAT) { /* TIDL-RT forces scale 1, zero point 0 */
        b->tensor_scale = 1.0f;
        return TL_OK;
    }
    if (!(isnormal(t->scale) && t->scale > 0.0f))
        return tl_fail(TL_ERR_QUANT, "scale=%g: an integer TIDL-RT tensor needs a finite, normal scale > 0 "
                       "(TIDL-RT reads it as real = (q - zeroPoint) / scale) (TIDL)", (double)t->scale);
    b->tensor_scale = t->scale;
    b->zero_point = t->zero_point;
    return TL_OK;
}

/* Given pitches (non-zero) and the data offset must be what dims and pads
 * imply (the channel pitch is the buffer's own, already taken). */
static tl_status check_given(const tl_tidlrt_tensor *t, const tl_tidl_buf *b)
{
    rt_pitches p;
    if (!pitches_of(b, &p)) return tl_fail(TL_ERR_OVERFLOW, "the tensor's pitches overflow int64 (TIDL)");
    bool six = t->num_dim == TL_TIDLRT_DIM_MAX;
    const struct {
        int slot;
        const char *name;
        int64_t want;
        const char *rule;
    } checks[] = {
        {0, "TIDLRT_ROI_PITCH", p.roi, "the batch pitch, DIM1 pitch x DIM1"},
        {six ? TL_TIDLRT_DIM1_PITCH : -1, "TIDLRT_DIM1_PITCH", p.dim1, "DIM2 pitch x DIM2"},
        {six ? TL_TIDLRT_DIM2_PITCH : -1, "TIDLRT_DIM2_PITCH", p.dim2, "channel pitch x NumChannels"},
        {six ? TL_TIDLRT_LINE_PITCH : 2, "TIDLRT_LINE_PITCH", p.line, "Width + PadL + PadR"},
    };
    for (size_t i = 0; i < sizeof checks / sizeof checks[0]; i++) {
        int k = checks[i].slot;
        if (k < 0 || t->pitch[k] == 0 || t->pitch[k] == checks[i].want) continue;
        return tl_fail(TL_ERR_VENDOR, "pitch[%s]=%d but %s = %lld: a TIDL buffer has no free pitches; give 0 or "
                       "%lld (TIDL)", checks[i].name, (int)t->pitch[k], checks[i].rule, (long long)checks[i].want,
                       (long long)checks[i].want);
    }
    if (t->data_offset != p.offset)
        return tl_fail(TL_ERR_VENDOR, "dataOffset=%d but PadT x lp + PadL = %lld: it must point at the first valid "
                       "element (TIDL)", (int)t->data_offset, (long long)p.offset);
    return TL_OK;
}

tl_status tl_desc_from_tidlrt_tensor(tl_desc *d, const tl_tidlrt_tensor *t)
{
    tl_tidl_buf b;
    tl_desc r;
    if (!d || !t) return tl_fail(TL_ERR_NULL, "descriptor or tensor is NULL");
    TL_TRY(buf_of_tensor(t, &b));
    TL_TRY(tl_desc_from_tidl(&r, &b, 0)); /* 6-D only when DIM1 or DIM2 > 1, as from io_1.bin */
    TL_TRY(check_given(t, &b));
    *d = r;
    return TL_OK;
}

/* ---- the "same" test ---------------------------------------------------------------- */

int tl_tidlrt_tensor_same(const tl_tidlrt_tensor *t, const tl_tidl_buf *b, char *why, size_t len)
{
    char dummy[1];
    if (!why || !len) why = dummy, len = sizeof dummy;
    why[0] = '\0';
    if (!t || !b) {
        snprintf(why, len, "tensor or buffer is NULL");
        return 0;
    }
    const char *io = b->is_output ? "out" : "in";
    int64_t cp = t->pitch[t->num_dim == 4 ? 1 : TL_TIDLRT_CHANNEL_PITCH];
    if (cp == -1) cp = (int64_t)b->width * b->height;
    if (t->element_type != b->element_type)
        snprintf(why, len, "elementType=%d but %sElementType=%d", (int)t->element_type, io, (int)b->element_type);
    else if (cp != b->channel_pitch)
        snprintf(why, len, "pitch[TIDLRT_CHANNEL_PITCH]=%lld but %sChannelPitch=%d", (long long)cp, io,
                 (int)b->channel_pitch);
    else if ((int32_t)t->layout != b->layout)
        snprintf(why, len, "layout=%u but %sLayout=%d", t->layout, io, (int)b->layout);
    else if (t->zero_point != b->zero_point)
        snprintf(why, len, "zeroPoint=%d but %sZeroPoint=%d", (int)t->zero_point, io, (int)b->zero_point);
    else if (t->scale != b->tensor_scale)
        snprintf(why, len, "scale=%.9g but %sTensorScale=%.9g", (double)t->scale, io, (double)b->tensor_scale);
    else if (b->buf_size && t->buffer_size && t->buffer_size != b->buf_size)
        snprintf(why, len, "bufferSize=%d but %sBufSize=%d", (int)t->buffer_size, io, (int)b->buf_size);
    else
        return 1;
    size_t n = strlen(why);
    snprintf(why + n, len - n, ": TIDL-RT converts element by element instead of copying the buffer");
    return 0;
}
