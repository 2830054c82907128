/* DML: placeholder until its issue lands; the spec prefix reports that. */
#include "core/internal.h"

static tl_status parse(tl_desc *out, tl_spec *spec)
{
    (void)out;
    (void)spec;
    return tl_fail(TL_ERR_UNSUPPORTED, "layout prefix 'dml': DML support is not built yet");
}

static tl_status format(const tl_desc *d, tl_strbuf *sb)
{
    (void)d;
    (void)sb;
    return tl_fail(TL_ERR_UNSUPPORTED, "DML descriptors cannot be formatted yet");
}

const tl_vendor_ops tl_dml_ops = {"dml", TL_VENDOR_DML, parse, format, NULL, NULL};
