/* Generic YUV 4:2:0 images as spec strings: yuv.nv12 / yuv.nv21 / yuv.i420,
 * dims 3xHxW (c 0 = Y, 1 = U/Cb, 2 = V/Cr), options pitch= (row bytes of Y),
 * uvpitch= (row bytes of the chroma plane(s), when they differ) and chroma=
 * (byte offset of the chroma data). */
#include <string.h>

#include "internal.h"

static const char *const kinds[] = {"", "nv12", "nv21", "i420"};

static tl_status parse(tl_desc *d, tl_spec *sp)
{
    int kind = 0;
    for (int k = 1; k <= 3; k++)
        if (strcmp(sp->vformat, kinds[k]) == 0) kind = k;
    if (!kind) return tl_fail(TL_ERR_SPEC_LAYOUT, "layout yuv.%s: expected yuv.nv12, yuv.nv21 or yuv.i420", sp->vformat);
    if (sp->dtype != TL_U8) return tl_fail(TL_ERR_DTYPE, "yuv.%s: dtype %s, 4:2:0 images are u8", sp->vformat, tl_dtype_name(sp->dtype));
    if (sp->ndims != 3 || sp->dims[0] != 3)
        return tl_fail(TL_ERR_SPEC_VALUE, "yuv.%s: dims must be 3xHxW", sp->vformat);
    int64_t pitch = 0, uvpitch = 0, chroma = 0;
    tl_spec_opt *o;
    if ((o = tl_spec_take(sp, "pitch"))) TL_TRY(tl_parse_i64("pitch", o->value, &pitch));
    if ((o = tl_spec_take(sp, "uvpitch"))) TL_TRY(tl_parse_i64("uvpitch", o->value, &uvpitch));
    if ((o = tl_spec_take(sp, "chroma"))) TL_TRY(tl_parse_i64("chroma", o->value, &chroma));
    if (pitch < 0 || uvpitch < 0 || chroma < 0) return tl_fail(TL_ERR_SPEC_VALUE, "pitch/uvpitch/chroma must be >= 0");
    if (uvpitch && !pitch) pitch = sp->dims[2];
    return tl_desc_init_yuv420_pitches(d, (tl_yuv_kind)kind, sp->dims[1], sp->dims[2], pitch, uvpitch, chroma);
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    int k = d->vendor_format;
    if (k < 1 || k > 3) return tl_fail(TL_ERR_UNSUPPORTED, "yuv descriptor with unknown kind %d", k);
    tl_sb_printf(sb, "yuv.%s:u8:3x%lldx%lld", kinds[k], (long long)d->dims[1], (long long)d->dims[2]);
    if (d->vendor_params[0] != d->dims[2]) tl_sb_printf(sb, ":pitch=%lld", (long long)d->vendor_params[0]);
    int64_t derived_uv = k == TL_YUV_I420 ? (d->vendor_params[0] + 1) / 2 : d->vendor_params[0];
    if (d->vendor_params[2] != derived_uv) tl_sb_printf(sb, ":uvpitch=%lld", (long long)d->vendor_params[2]);
    if (d->vendor_params[1] != d->dims[1] * d->vendor_params[0])
        tl_sb_printf(sb, ":chroma=%lld", (long long)d->vendor_params[1]);
    return TL_OK;
}

const tl_vendor_ops tl_yuv_ops = {"yuv", TL_VENDOR_YUV, parse, format, NULL, NULL};
