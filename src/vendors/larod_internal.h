/* larod internals shared by src/vendors/larod*.c. Not installed. */
#ifndef TL_LAROD_INTERNAL_H
#define TL_LAROD_INTERNAL_H

#include "core/internal.h"

#define MAXLEN TL_LAROD_TENSOR_MAX_LEN

/* The metadata in checked int64, a private copy of the public structs. */
typedef struct lt {
    int layout;            /* tl_larod_tensor_layout */
    tl_dtype dt;
    int n;                 /* dims.len */
    int np;                /* pitches.len: 0 = not given (dense) */
    int64_t dims[MAXLEN];
    int64_t pitches[MAXLEN];
} lt;

static inline int64_t es_of(const lt *t) { return tl_dtype_bits(t->dt) / 8; }
/* ceil(x/2) for x >= 0, without tl_cdiv's x+1 (dims may reach INT64_MAX). */
static inline int64_t half_up(int64_t x) { return x / 2 + x % 2; }

/* Dense pitches of t, each dim rounded up to align[i] (NULL: none; 420SP:
 * the row and Y-plane alignments). */
tl_status tl_larod_dense_pitches(const lt *t, const int64_t *align, int64_t *p);
/* Pitches from a row pitch in bytes and the rows per plane (0: the image
 * height), larodBuildTensorPitches' shortcut. */
tl_status tl_larod_row_pitches(const lt *t, int64_t pitch, int64_t height, int64_t *p);
/* 3*pitches[1]/2 (0 on overflow): Axis's example size of a 420SP buffer. */
int64_t tl_larod_axis_example_size(const int64_t *p);
/* Full pitches (given, or dense from align), checked; then the descriptor. */
tl_status tl_larod_build(tl_desc *out, const lt *t, const int64_t *align);
/* Descriptor -> lt with full pitches; d is valid. */
tl_status tl_larod_lt_from_desc(const tl_desc *d, lt *t);

#endif
