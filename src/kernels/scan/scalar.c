/* Candidate search, scalar (the reference of the vector kernels). The choice
 * of kernel is the post layer's (src/post/kernels.c). */
#include "kernels/scan/scan.h"

size_t tl_scan_next_scalar(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                           uint8_t tu)
{
    return tl_scan_next_tail(p, start, n, mask, start % mlen, mlen, flip, tu);
}

void tl_argmax_row_scalar(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                          int32_t *label, size_t n)
{
    tl_argmax_row_tail(a, z, w0, w1, c, best, label, 0, n);
}
