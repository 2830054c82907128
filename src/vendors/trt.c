/* TRT: placeholder until its issue lands; the spec prefix reports that. */
#include "core/internal.h"

static tl_status parse(tl_desc *out, tl_spec *spec)
{
    (void)out;
    (void)spec;
    return tl_fail(TL_ERR_UNSUPPORTED, "layout prefix 'trt': TRT support is not built yet");
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    (void)d;
    (void)sb;
    return tl_fail(TL_ERR_UNSUPPORTED, "TRT descriptors cannot be formatted yet");
}

const tl_vendor_ops tl_trt_ops = {"trt", TL_VENDOR_TRT, parse, format, NULL, NULL};
