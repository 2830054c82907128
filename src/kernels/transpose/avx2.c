/* Tiled transposes, AVX2: 8x8 of 32-bit in ymm registers; 16- and 8-bit use
 * the SSE2 register transposes (VEX-encoded here). */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define TL_FN static inline
#define TL_KERNEL
#include "kernels/transpose/sse2_micro.h"
#include "kernels/transpose/x86_tile.h"

#include "kernels/transpose/avx2_micro.h"

/* 16 source rows of 8 elements into 8 whole destination lines, streamed:
 * two 8x8 blocks, each line's halves stored back to back so that its
 * write-combining buffer leaves full (from DRAM, the staged 8x8 blocks'
 * 16-byte streams ran at 0.35x memcpy into 16 planes: docs/performance.md) */
TL_FN void tl_micro_x32_16x8_nt(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m256 a[8], b[8];
    tl_x32_8x8_regs(s, ss0, a);
    tl_x32_8x8_regs(s + 8 * ss0, ss0, b);
    TL_UNROLL
    for (int j = 0; j < 8; j++) {
        _mm256_stream_ps((float *)(d + j * ds1), a[j]);
        _mm256_stream_ps((float *)(d + j * ds1 + 32), b[j]);
    }
}

#define MICRO tl_micro_x32_8x8
#define MICRO2 tl_micro_x32_4x4
#define MICRO_NT tl_micro_x32_16x8_nt
#define NT_COLS 8
TL_X86_TRANSPOSE(tl_x32_transpose_ukernel__avx2, x32_plain, x32_edges, 4, 8, 4)
#undef NT_COLS
#undef MICRO_NT
#undef MICRO2
#undef MICRO
#define MICRO_NT MICRO /* (none: NT_COLS 0) */
#define NT_COLS 0
#define MICRO tl_micro_x16_8x8
#define MICRO2 tl_micro_x16_4x4
TL_X86_TRANSPOSE(tl_x16_transpose_ukernel__avx2, x16_plain, x16_edges, 2, 8, 4)
#undef MICRO2
#undef MICRO
#define MICRO tl_micro_x8_16x16
#define MICRO2 tl_micro_x8_8x8
TL_X86_TRANSPOSE(tl_x8_transpose_ukernel__avx2, x8_plain, x8_edges, 1, 16, 8)
#undef MICRO2
#undef MICRO
#endif
