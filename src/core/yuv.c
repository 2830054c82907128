/* Generic YUV images as spec strings: 4:2:0 yuv.nv12 / yuv.nv21 / yuv.i420
 * and packed 4:2:2 yuv.yuyv / yuv.uyvy, dims 3xHxW (c 0 = Y, 1 = U/Cb,
 * 2 = V/Cr), options pitch= (row bytes of Y) and, for 4:2:0, uvpitch= (row
 * bytes of the chroma plane(s), when they differ) and chroma= (byte offset of
 * the chroma data). */
#include <string.h>

#include "internal.h"

static const char *const kinds[] = {"", "nv12", "nv21", "i420", "yuyv", "uyvy"};
#define NKINDS 5

/* Bytes of a packed 4:2:2 row: 4 per pixel pair, an odd last pixel in a whole pair. */
static int64_t packed_pitch(int64_t w) { return 4 * ((w + 1) / 2); }

/* Three planes over C over the same bytes: Y every 2 bytes, U and V every 4
 * (one per pixel pair), starting at 0, 1, 3 (YUYV) or 1, 0, 2 (UYVY). */
tl_status tl_desc_init_yuv422(tl_desc *d, tl_yuv_kind kind, int64_t h, int64_t w, int64_t pitch)
{
    if (!d) return tl_fail(TL_ERR_NULL, "descriptor is NULL");
    if (kind != TL_YUV_YUYV && kind != TL_YUV_UYVY)
        return tl_fail(TL_ERR_SPEC_LAYOUT, "yuv kind=%d: 4:2:2 images are TL_YUV_YUYV or TL_YUV_UYVY", (int)kind);
    if (h < 1 || w < 1) return tl_fail(TL_ERR_DIM, "4:2:2 image H=%lld W=%lld: dims must be >= 1", (long long)h, (long long)w);
    if (h > INT64_MAX / 64 || w > INT64_MAX / 64 || pitch > INT64_MAX / 64)
        return tl_fail(TL_ERR_OVERFLOW, "4:2:2 image H=%lld W=%lld pitch=%lld: over 2^57, bit offsets overflow int64", (long long)h, (long long)w, (long long)pitch);
    if (pitch == 0) pitch = packed_pitch(w);
    if (pitch < packed_pitch(w) || pitch % 2)
        return tl_fail(TL_ERR_STRIDE, "row pitch=%lld: a 4:2:2 row of W=%lld needs an even pitch >= %lld (4 bytes a pixel pair)",
                       (long long)pitch, (long long)w, (long long)packed_pitch(w));
    const int64_t first[3] = {kind == TL_YUV_YUYV ? 0 : 1, kind == TL_YUV_YUYV ? 1 : 0, kind == TL_YUV_YUYV ? 3 : 2};
    tl_desc_clear(d);
    d->rank = 3, d->dtype = TL_U8;
    d->dims[0] = 3, d->dims[1] = h, d->dims[2] = w;
    d->labels[0] = 'C', d->labels[1] = 'H', d->labels[2] = 'W';
    d->vendor = TL_VENDOR_YUV, d->vendor_format = kind;
    d->plane_dim = 0, d->nplanes = 3;
    for (int c = 0; c < 3; c++) {
        tl_plane *p = &d->planes[c];
        int64_t sub = c ? 2 : 1;
        p->first = c, p->count = 1, p->offset_bytes = first[c], p->naxes = 2;
        p->axes[0] = (tl_axis){.dim = 1, .block = 1, .extent = h, .stride_bits = pitch * 8};
        p->axes[1] = (tl_axis){.dim = 2, .block = sub, .extent = (w + sub - 1) / sub, .stride_bits = 16 * sub};
    }
    d->vendor_params[0] = pitch;
    TL_TRY(tl_desc_update_size(d));
    return tl_desc_validate(d);
}

static tl_status parse(tl_desc *d, tl_spec *sp)
{
    int kind = 0;
    for (int k = 1; k <= NKINDS; k++)
        if (strcmp(sp->vformat, kinds[k]) == 0) kind = k;
    if (!kind) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout yuv.%s: expected yuv.nv12, yuv.nv21, yuv.i420, yuv.yuyv or yuv.uyvy", sp->vformat);
    if (sp->dtype != TL_U8) return tl_fail(TL_ERR_DTYPE, "yuv.%s: dtype %s, YUV images are u8", sp->vformat, tl_dtype_name(sp->dtype));
    if (sp->ndims != 3 || sp->dims[0] != 3)
        return tl_fail(TL_ERR_SPEC_VALUE, "yuv.%s: dims must be 3xHxW", sp->vformat);
    int64_t pitch = 0, uvpitch = 0, chroma = 0;
    tl_spec_opt *o;
    if ((o = tl_spec_take(sp, "pitch"))) TL_TRY(tl_parse_i64("pitch", o->value, &pitch));
    if (kind <= TL_YUV_I420 && (o = tl_spec_take(sp, "uvpitch"))) TL_TRY(tl_parse_i64("uvpitch", o->value, &uvpitch));
    if (kind <= TL_YUV_I420 && (o = tl_spec_take(sp, "chroma"))) TL_TRY(tl_parse_i64("chroma", o->value, &chroma));
    if (pitch < 0) return tl_fail(TL_ERR_SPEC_VALUE, "pitch=%lld: must be >= 0 (0 = the width)", (long long)pitch);
    if (uvpitch < 0)
        return tl_fail(TL_ERR_SPEC_VALUE, "uvpitch=%lld: must be >= 0 (0 = derived from pitch)", (long long)uvpitch);
    if (chroma < 0)
        return tl_fail(TL_ERR_SPEC_VALUE, "chroma=%lld: must be >= 0 (0 = right after the Y plane)", (long long)chroma);
    if (kind >= TL_YUV_YUYV) return tl_desc_init_yuv422(d, (tl_yuv_kind)kind, sp->dims[1], sp->dims[2], pitch);
    if (uvpitch && !pitch) pitch = sp->dims[2];
    return tl_desc_init_yuv420_pitches(d, (tl_yuv_kind)kind, sp->dims[1], sp->dims[2], pitch, uvpitch, chroma);
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    int k = d->vendor_format;
    if (k < 1 || k > NKINDS) return tl_fail(TL_ERR_UNSUPPORTED, "yuv descriptor with unknown kind %d", k);
    tl_sb_printf(sb, "yuv.%s:u8:3x%lldx%lld", kinds[k], (long long)d->dims[1], (long long)d->dims[2]);
    /* Only the map is valid, not the yuv fields: dims[2] may lie past the rank
     * (any value) or past the builder's 1..2^57, and vendor_params anywhere in
     * 0..INT64_MAX. Such text fails the round trip; its arithmetic must not
     * overflow first. */
    if (k >= TL_YUV_YUYV) {
        if (d->dims[2] < 1 || d->dims[2] > INT64_MAX / 64 || d->vendor_params[0] != packed_pitch(d->dims[2]))
            tl_sb_printf(sb, ":pitch=%lld", (long long)d->vendor_params[0]);
        return TL_OK;
    }
    if (d->vendor_params[0] != d->dims[2]) tl_sb_printf(sb, ":pitch=%lld", (long long)d->vendor_params[0]);
    /* ceil(pitch/2) without pitch + 1 */
    int64_t derived_uv = k == TL_YUV_I420 ? d->vendor_params[0] / 2 + d->vendor_params[0] % 2 : d->vendor_params[0];
    if (d->vendor_params[2] != derived_uv) tl_sb_printf(sb, ":uvpitch=%lld", (long long)d->vendor_params[2]);
    int64_t packed; /* the chroma offset of a packed image (0 in the spec) */
    if (!tl_mul_ok(d->dims[1], d->vendor_params[0], &packed) || d->vendor_params[1] != packed)
        tl_sb_printf(sb, ":chroma=%lld", (long long)d->vendor_params[1]);
    return TL_OK;
}

const tl_vendor_ops tl_yuv_ops = {"yuv", TL_VENDOR_YUV, parse, format, NULL, NULL};
