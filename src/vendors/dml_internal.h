/* DirectML internals shared by src/vendors/dml*.c. Not installed. */
#ifndef TL_DML_INTERNAL_H
#define TL_DML_INTERNAL_H

#include "core/internal.h"

#define DML_MAX TL_DML_TENSOR_DIMENSION_COUNT_MAX1

/* The index of the last element + 1 (strides NULL: packed), checked. */
tl_status tl_dml_element_span(uint32_t n, const uint32_t *sizes, const uint32_t *strides, int64_t *span);
/* DMLCalcBufferTensorSize: the bytes the elements span, rounded up to 4. */
tl_status tl_dml_min_total(uint32_t data_type, uint32_t n, const uint32_t *sizes, const uint32_t *strides,
                          int64_t *bytes);
/* DirectML's dim names for a rank ("NCHW"), "" when it has none. */
const char *tl_dml_labels(int n);

#endif
