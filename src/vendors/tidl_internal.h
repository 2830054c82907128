/* TIDL internals shared by src/vendors/tidl*.c. Not installed. */
#ifndef TL_TIDL_INTERNAL_H
#define TL_TIDL_INTERNAL_H

#include "core/internal.h"

/* Everything §2.4 derives from one buffer, in elements, overflow-checked. */
typedef struct tidl_geo {
    tl_dtype dt;
    int64_t ebits;
    bool nhwc;
    int64_t n, d1, d2, c, h, w;  /* logical extents, 0 read as 1 */
    int64_t pad[4], pad_ch;      /* PadL, PadT, PadR, PadB; PadCh */
    int64_t lp, plane, cp;       /* line pitch, lp*(H+PadT+PadB), channel pitch */
    int64_t d2p, d1p, bp;        /* DIM2, DIM1 and batch pitches */
    int64_t buf_size;            /* BufSize, 0 = unknown */
    bool shared_rows;            /* cp < plane with more than one channel slot */
} tidl_geo;

/* The checked geometry of a buffer's fields. */
tl_status tl_tidl_geo_from_buf(const tl_tidl_buf *b, tidl_geo *g);
/* The buffer fields and geometry of a TIDL descriptor (refused when the
 * descriptor is not exactly what its fields describe). */
tl_status tl_tidl_geo_of_desc(const tl_desc *d, tl_tidl_buf *b, tidl_geo *g);
/* The bytes an input buffer of this geometry needs (TIDL reads one padded
 * plane past the last channel); size_bytes is the descriptor's size. */
tl_status tl_tidl_input_alloc(const tidl_geo *g, int64_t size_bytes, int64_t *bytes);

#endif
