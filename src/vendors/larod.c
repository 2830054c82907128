/* LAROD: placeholder until its issue lands; the spec prefix reports that. */
#include "core/internal.h"

static tl_status parse(tl_desc *out, tl_spec *spec)
{
    (void)out;
    (void)spec;
    return tl_fail(TL_ERR_UNSUPPORTED, "layout prefix 'larod': LAROD support is not built yet");
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    (void)d;
    (void)sb;
    return tl_fail(TL_ERR_UNSUPPORTED, "LAROD descriptors cannot be formatted yet");
}

const tl_vendor_ops tl_larod_ops = {"larod", TL_VENDOR_LAROD, parse, format, NULL, NULL};
