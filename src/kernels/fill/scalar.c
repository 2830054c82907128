/* Padding fill, scalar C: memset (libc picks its own best stores). */
#include <string.h>

#include "kernels/kernels.h"

void tl_zero_fill_ukernel__scalar(void *dst, size_t bytes, int stream);
void tl_zero_fill_ukernel__scalar(void *dst, size_t bytes, int stream)
{
    (void)stream;
    memset(dst, 0, bytes);
}
