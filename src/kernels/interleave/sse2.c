/* Interleave and de-interleave, SSE2: unpack ladders for 2 and 4 channels. */
#if defined(__x86_64__) || defined(_M_X64)
#include <stddef.h>
#include <stdint.h>

#define TL_FN static inline
#define TL_KERNEL
#include "kernels/interleave/sse2_body.h"
#include "kernels/interleave/x86_wrap.h"

TL_ILV_PLANES(tl_x8_interleave2_ukernel__sse2, 1, 2, ilv_x8_2)
TL_ILV_T2D(tl_x8_interleave2_t2d_ukernel__sse2, tl_x8_interleave2_ukernel__sse2, 1, 2)
TL_ILV_PLANES(tl_x8_interleave4_ukernel__sse2, 1, 4, ilv_x8_4)
TL_ILV_T2D(tl_x8_interleave4_t2d_ukernel__sse2, tl_x8_interleave4_ukernel__sse2, 1, 4)
TL_ILV_PLANES(tl_x16_interleave2_ukernel__sse2, 2, 2, ilv_x16_2)
TL_ILV_T2D(tl_x16_interleave2_t2d_ukernel__sse2, tl_x16_interleave2_ukernel__sse2, 2, 2)
TL_ILV_PLANES(tl_x16_interleave4_ukernel__sse2, 2, 4, ilv_x16_4)
TL_ILV_T2D(tl_x16_interleave4_t2d_ukernel__sse2, tl_x16_interleave4_ukernel__sse2, 2, 4)
TL_ILV_PLANES(tl_x32_interleave2_ukernel__sse2, 4, 2, ilv_x32_2)
TL_ILV_T2D(tl_x32_interleave2_t2d_ukernel__sse2, tl_x32_interleave2_ukernel__sse2, 4, 2)
TL_ILV_PLANES(tl_x32_interleave4_ukernel__sse2, 4, 4, ilv_x32_4)
TL_ILV_T2D(tl_x32_interleave4_t2d_ukernel__sse2, tl_x32_interleave4_ukernel__sse2, 4, 4)
TL_DILV_T2D(tl_x8_deinterleave2_ukernel__sse2, 1, 2, dilv_x8_2, 16)
TL_DILV_T2D(tl_x32_deinterleave4_ukernel__sse2, 4, 4, dilv_x32_4, 4)
#endif
