/* RKNN internals shared by src/vendors/rknn*.c. Not installed. */
#ifndef TL_RKNN_INTERNAL_H
#define TL_RKNN_INTERNAL_H

#include "core/internal.h"

/* What every RKNN descriptor is built from: the dims as the runtime reports
 * them plus the extra facts of the attr (or the spec's options). */
typedef struct rk_geom {
    int fmt;                    /* tl_rknn_tensor_format */
    tl_dtype dt;
    int rank;                   /* of dims[] as reported */
    int64_t dims[TL_MAX_DIMS];  /* NC1HWC2: N C1 H W C2; NHWC: N H W C; NCHW: N C H W */
    int64_t c;                  /* NC1HWC2: the true channel count */
    int64_t w_stride, h_stride, size; /* 0 = not given */
    int platform;               /* tl_rknn_platform, 0 = none */
} rk_geom;

/* rknn_tensor_format's names in spec strings and messages, by value. */
extern const char *const tl_rknn_fmt_names[4];
/* cdiv for a >= 1, b >= 1 without overflow. */
static inline int64_t tl_rknn_cdiv_pos(int64_t a, int64_t b) { return (a - 1) / b + 1; }
/* The descriptor of *g (its quantization taken from out->quant), into *out
 * only when everything is valid (rknn.c). */
tl_status tl_rknn_build(tl_desc *out, const rk_geom *g);

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
