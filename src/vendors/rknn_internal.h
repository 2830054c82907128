/* RKNN internals shared by src/vendors/rknn*.c. Not installed. */
#ifndef TL_RKNN_INTERNAL_H
#define TL_RKNN_INTERNAL_H

#include "core/internal.h"

/* Enum ranges, n_dims and the name's NUL of an in-memory attr; `st` is the
 * status reported (TL_ERR_VENDOR for structs, TL_ERR_VENDOR_FILE for images). */
tl_status tl_rknn_attr_check(const tl_rknn_tensor_attr *a, tl_status st);
/* "INT8" for a rknn_tensor_type value; "?" when out of range. */
const char *tl_rknn_type_name(uint32_t t);
/* Lowercase name used in spec strings ("rk3566"); "?" for none. */
const char *tl_rknn_platform_spec_name(tl_rknn_platform p);
/* Zero-copy row alignment in pixels of a platform (1 for none). */
int64_t tl_rknn_platform_align(tl_rknn_platform p);

#endif
