/* The table of spec prefixes. A vendor plugs in by defining its ops in
 * src/vendors/<vendor>_spec.c (its spec-text adapter) and being listed here once. */
#include <string.h>

#include "internal.h"

extern const tl_vendor_ops tl_larod_ops, tl_tidl_ops, tl_dml_ops, tl_rknn_ops, tl_trt_ops, tl_yuv_ops;

static const tl_vendor_ops *const vendors[] = {
    &tl_larod_ops, &tl_tidl_ops, &tl_dml_ops, &tl_rknn_ops, &tl_trt_ops, &tl_yuv_ops,
};

const tl_vendor_ops *tl_vendor_find_prefix(const char *layout)
{
    for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
        if (strcmp(layout, vendors[i]->prefix) == 0) return vendors[i];
    return NULL;
}

const tl_vendor_ops *tl_vendor_find(tl_vendor v)
{
    for (size_t i = 0; i < sizeof vendors / sizeof vendors[0]; i++)
        if (vendors[i]->vendor == v) return vendors[i];
    return NULL;
}
