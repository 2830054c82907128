/* TensorRT internals shared by src/vendors/trt*.c. Not installed. */
#ifndef TL_TRT_INTERNAL_H
#define TL_TRT_INTERNAL_H

#include "core/internal.h"

#define TL_TRT_NVER 3 /* TensorRT header versions whose type rules we know */
#define TL_TRT_DLA_MAX_CHW 8192   /* C, H, W on DLA (§5.2; NvInferRuntime.h) */

enum kind { K_LINEAR, K_MAJOR, K_MINOR, K_DLA_LINEAR, K_DLA_HWC4 };

typedef struct fmt_info {
    const char *spec;      /* spec spelling: trt.<spec> */
    const char *name;      /* enum spelling */
    uint8_t kind;
    uint8_t vlen;          /* scalars per vector (kDLA_HWC4: C', decided by C) */
    uint8_t cpos;          /* C is the cpos-th dim from the end; 0: no C (kLINEAR) */
    uint8_t min_rank;
    uint16_t types[TL_TRT_NVER];  /* DataType bits allowed per version (§5.2) */
} fmt_info;

/* ---- a request: everything a descriptor is built from -------------------- */
typedef struct req {
    int32_t format, type;
    int rank;
    int64_t dims[TL_TRT_MAX_DIMS];
    bool has_strides;
    int64_t strides[TL_TRT_MAX_DIMS]; /* vector units */
    int32_t role, gen;
    bool gen_given;                   /* a spec said gen= (meaningful for DLA only) */
    float scale;                      /* API: 0 or the INT8/INT4 scale */
} req;

/* Where C is and how it is vectorized. */
typedef struct geom {
    int c;       /* the C dim, -1 for kLINEAR */
    int v;       /* vectorized dim, -1 when V = 1 */
    int64_t V;   /* scalars per vector */
    bool minor;  /* C stored innermost */
    int order[TL_TRT_MAX_DIMS]; /* dims in packed memory order, outermost first */
} geom;

/* Indexed by the TensorFormat value. */
extern const fmt_info tl_trt_fmts[TL_TRT_FORMAT_COUNT];
/* The header versions whose type rules are known, and the dla= words. */
extern const char *const tl_trt_ver_names[TL_TRT_NVER];
extern const char *const tl_trt_role_names[4];

void tl_trt_geometry(const fmt_info *f, const int64_t *dims, int rank, geom *g);
/* Versions (bit k = tl_trt_ver_names[k]) whose header allows `type` for f. */
unsigned tl_trt_type_versions(const fmt_info *f, int32_t type);
/* "8.6, 10.x and 11.1" for a version mask. */
void tl_trt_sb_versions(tl_strbuf *sb, unsigned vmask);
/* The strides a packed tensor of this format has, in vector units. */
tl_status tl_trt_packed_strides(const req *r, const geom *g, int64_t *s);
/* How many axes of plane p belong to dim. */
int tl_trt_axes_of_dim(const tl_plane *p, int dim);
/* The one axis of dim (a dim the format does not vectorize). */
const tl_axis *tl_trt_only_axis(const tl_desc *d, int dim);
/* The descriptor of a request, into *out only when every rule holds. */
tl_status tl_trt_build(tl_desc *out, const req *r);

#endif
