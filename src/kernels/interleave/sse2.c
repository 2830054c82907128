/* Interleave and de-interleave, SSE2: unpack ladders for 2 and 4 channels. */
#if defined(__x86_64__) || defined(_M_X64)
#include <stddef.h>
#include <stdint.h>

#define TL_FN static inline
#define TL_KERNEL
#include "kernels/interleave/sse2_body.h"
#include "kernels/interleave/x86_wrap.h"

TL_ILV_PLANES(sse2, 1, x8, 2, ilv_x8_2)
TL_ILV_T2D(sse2, 1, x8, 2)
TL_ILV_PLANES(sse2, 1, x8, 4, ilv_x8_4)
TL_ILV_T2D(sse2, 1, x8, 4)
TL_ILV_PLANES(sse2, 2, x16, 2, ilv_x16_2)
TL_ILV_T2D(sse2, 2, x16, 2)
TL_ILV_PLANES(sse2, 4, x32, 2, ilv_x32_2)
TL_ILV_T2D(sse2, 4, x32, 2)
TL_ILV_PLANES(sse2, 4, x32, 4, ilv_x32_4)
TL_ILV_T2D(sse2, 4, x32, 4)
TL_DILV_T2D(sse2, 1, x8, 2, dilv_x8_2)
TL_DILV_T2D(sse2, 4, x32, 4, dilv_x32_4)
#endif
