/* TIDL: placeholder until its issue lands; the spec prefix reports that. */
#include "core/internal.h"

static tl_status parse(tl_desc *out, tl_spec *spec)
{
    (void)out;
    (void)spec;
    return tl_fail(TL_ERR_UNSUPPORTED, "layout prefix 'tidl': TIDL support is not built yet");
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    (void)d;
    (void)sb;
    return tl_fail(TL_ERR_UNSUPPORTED, "TIDL descriptors cannot be formatted yet");
}

const tl_vendor_ops tl_tidl_ops = {"tidl", TL_VENDOR_TIDL, parse, format, NULL, NULL};
