/* Tiled transposes, AVX2: 8x8 of 32-bit in ymm registers (16x8 whole lines
 * when streaming); 16-bit the SSE2 8x8 (VEX-encoded here); 8-bit two 16x16
 * blocks per ymm register, one per lane. */
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
 * 16-byte streams ran at 0.35x memcpy into 16 planes: docs/performance-history.md) */
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
TL_X86_TRANSPOSE(tl_x32_transpose_ukernel__avx2, x32_plain, x32_plain, x32_edges, 4, 8, 8, 4)
#undef NT_COLS
#undef MICRO_NT
#undef MICRO2
#undef MICRO
#define MICRO_NT MICRO /* (none: NT_COLS 0) */
#define NT_COLS 0
#define MICRO tl_micro_x16_8x8
#define MICRO2 tl_micro_x16_4x4
TL_X86_TRANSPOSE(tl_x16_transpose_ukernel__avx2, x16_plain, x16_plain, x16_edges, 2, 8, 8, 4)
#undef MICRO2
#undef MICRO

/* Bytes: two 16x16 transposes at once, one per 128-bit lane (unpacks stay
 * in their lane), so a 256-bit shuffle does the work of two 128-bit ones;
 * the network in halves (TL_X8_ROWS4, TL_X8_COLS4: sse2_micro.h). */
#define X8_ROWS4(a, y) \
    TL_X8_ROWS4(__m256i, a, y, _mm256_unpacklo_epi8, _mm256_unpackhi_epi8, _mm256_unpacklo_epi16, _mm256_unpackhi_epi16)
#define X8_COLS4(y, k, o) \
    TL_X8_COLS4(__m256i, y, k, o, _mm256_unpacklo_epi32, _mm256_unpackhi_epi32, _mm256_unpacklo_epi64, _mm256_unpackhi_epi64)

/* 32 source rows of 16 bytes -> 16 destination rows of 32 (rows i and
 * 16 + i share a register: destination rows come out whole) */
/* The network's first half over 16 registers of rows: rows i and 16 + i of
 * 16-byte rows in one register (pair), or 16 rows of 32 bytes (y[g][r]:
 * register 4g + r) */
static inline __attribute__((always_inline)) void x8_load_rows16(__m256i y[4][4], const uint8_t *s, ptrdiff_t ss0,
                                                                 int pair)
{
    TL_UNROLL
    for (int g = 0; g < 4; g++) {
        const uint8_t *p = s + 4 * g * ss0;
        TL_OPAQUE(p);
        TL_UNROLL
        for (int r = 0; r < 4; r++)
            y[g][r] = pair ? _mm256_inserti128_si256(
                                 _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(p + r * ss0))),
                                 _mm_loadu_si128((const __m128i *)(p + (16 + r) * ss0)), 1)
                           : _mm256_loadu_si256((const __m256i *)(p + r * ss0));
    }
    TL_UNROLL
    for (int g = 0; g < 4; g++) X8_ROWS4(y[g], y[g]);
}

TL_FN void tl_micro_x8_32x16(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m256i y[4][4], o[4];
    x8_load_rows16(y, s, ss0, 1);
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        uint8_t *q = d + 4 * k * ds1;
        TL_OPAQUE(q);
        X8_COLS4(y, k, o);
        TL_UNROLL
        for (int j = 0; j < 4; j++) _mm256_storeu_si256((__m256i *)(q + j * ds1), o[j]);
    }
}

/* 16 source rows of 32 bytes -> 32 destination rows of 16 (source rows
 * loaded whole: the lanes are columns 0-15 and 16-31) */
TL_FN void tl_micro_x8_16x32(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m256i y[4][4], o[4];
    x8_load_rows16(y, s, ss0, 0);
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        uint8_t *q = d + 4 * k * ds1;
        TL_OPAQUE(q);
        X8_COLS4(y, k, o);
        TL_UNROLL
        for (int j = 0; j < 4; j++) {
            _mm_storeu_si128((__m128i *)(q + j * ds1), _mm256_castsi256_si128(o[j]));
            _mm_storeu_si128((__m128i *)(q + (16 + j) * ds1), _mm256_extracti128_si256(o[j], 1));
        }
    }
}

/* Three tilings, static: 16x16 (small sides, and the others' edges below
 * 16), 32 rows x 16 columns, 16 rows x 32 columns. */
#undef TL_KERNEL
#define TL_KERNEL static
#define MICRO tl_micro_x8_16x16
#define MICRO2 tl_micro_x8_8x8
TL_X86_TRANSPOSE(x8_square, x8_plain, x8_plain, x8_edges, 1, 16, 16, 8)
#undef MICRO
#undef MICRO2
#define MICRO2 tl_micro_x8_16x16
#define MICRO tl_micro_x8_32x16
TL_X86_TRANSPOSE(x8_rows32, x8_plain_r, x8_edges, x8_edges_r, 1, 32, 16, 16)
#undef MICRO
#define MICRO tl_micro_x8_16x32
TL_X86_TRANSPOSE(x8_cols32, x8_plain_c, x8_edges, x8_edges_c, 1, 16, 32, 16)
#undef MICRO
#undef MICRO2
#undef TL_KERNEL
#define TL_KERNEL

/* The 32-byte side along the longer one: whole 32-byte destination rows
 * from 32 source rows, else whole 32-byte source rows (16 planes into
 * pixels or a 16-channel block). */
void tl_x8_transpose_ukernel__avx2(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                   size_t n1, int stream);
void tl_x8_transpose_ukernel__avx2(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                   size_t n1, int stream)
{
    if (n0 >= 32 && n1 >= 16) x8_rows32(src, ss0, dst, ds1, n0, n1, stream);
    else if (n0 >= 16 && n1 >= 32) x8_cols32(src, ss0, dst, ds1, n0, n1, stream);
    else x8_square(src, ss0, dst, ds1, n0, n1, stream);
}
#endif
