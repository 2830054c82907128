/* Tiled transposes, SSE2: 4x4 of 32-bit, 8x8 of 16-bit, 16x16 of 8-bit. */
#if defined(__x86_64__) || defined(_M_X64)
#include <stddef.h>
#include <stdint.h>

#define TL_FN static inline
#define TL_KERNEL
#include "kernels/transpose/sse2_micro.h"
#include "kernels/transpose/x86_tile.h"

#define MICRO_NT MICRO /* (none: NT_COLS 0) */
#define NT_COLS 0
#define MICRO tl_micro_x32_4x4
#define MICRO2 tl_micro_x32_4x4
TL_X86_TRANSPOSE(tl_x32_transpose_ukernel__sse2, x32_plain, x32_plain, x32_edges, 4, 4, 4, 1)
#undef MICRO2
#undef MICRO
#define MICRO tl_micro_x16_8x8
#define MICRO2 tl_micro_x16_4x4
TL_X86_TRANSPOSE(tl_x16_transpose_ukernel__sse2, x16_plain, x16_plain, x16_edges, 2, 8, 8, 4)
#undef MICRO2
#undef MICRO
#define MICRO tl_micro_x8_16x16
#define MICRO2 tl_micro_x8_8x8
TL_X86_TRANSPOSE(tl_x8_transpose_ukernel__sse2, x8_plain, x8_plain, x8_edges, 1, 16, 16, 8)
#undef MICRO2
#undef MICRO
#endif
