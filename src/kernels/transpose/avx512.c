/* Tiled transpose of 32-bit elements, AVX-512F: 16x16 blocks in zmm
 * registers, so a block pack/unpack of V = 16 reads and writes whole cache
 * lines (16 loads of 64 bytes, 16 stores of 64 bytes); 8x8 AVX2 blocks for
 * the edges; strips of 8 rows or 8 columns when 16 rows would share L1 sets
 * (x86_strips512.h). Bytes: x86_bytes512.h. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>

#define TL_FN static inline

#define TL_KERNEL
#include "kernels/transpose/sse2_micro.h"
#include "kernels/transpose/avx2_micro.h"
#include "kernels/transpose/x86_tile.h"

/* A 16x16 block of 32-bit elements: o[j] is destination row j. */
static inline __attribute__((always_inline)) void x32_16x16_regs(const uint8_t *s, ptrdiff_t ss0, __m512 o[16])
{
    __m512 r[16], t[16];
    TL_UNROLL
    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_ps((const float *)(s + i * ss0));
    TL_UNROLL
    for (int i = 0; i < 8; i++) { /* pairs of rows, per 128-bit lane */
        t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
        t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
    }
    TL_UNROLL
    for (int i = 0; i < 4; i++) { /* r[4i + j], lane k: column 4k + j of rows 4i..4i+3 */
        r[4 * i + 0] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
        r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
        r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
        r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
    }
    TL_UNROLL
    for (int j = 0; j < 4; j++) { /* gather lane k of the four row groups: output row 4k + j */
        __m512 v = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88), w = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
        __m512 v2 = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xDD), w2 = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xDD);
        o[j] = _mm512_shuffle_f32x4(v, w, 0x88);
        o[8 + j] = _mm512_shuffle_f32x4(v, w, 0xDD);
        o[4 + j] = _mm512_shuffle_f32x4(v2, w2, 0x88);
        o[12 + j] = _mm512_shuffle_f32x4(v2, w2, 0xDD);
    }
}

/* nt: non-temporal stores (64-byte aligned d and ds1), a constant once inlined */
static inline __attribute__((always_inline)) void x32_16x16(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1, int nt)
{
    __m512 o[16];
    x32_16x16_regs(s, ss0, o);
    TL_UNROLL
    for (int j = 0; j < 4; j++) { /* the order the network makes them in */
        tl_store_line(d + j * ds1, _mm512_castps_si512(o[j]), nt);
        tl_store_line(d + (8 + j) * ds1, _mm512_castps_si512(o[8 + j]), nt);
        tl_store_line(d + (4 + j) * ds1, _mm512_castps_si512(o[4 + j]), nt);
        tl_store_line(d + (12 + j) * ds1, _mm512_castps_si512(o[12 + j]), nt);
    }
}

TL_FN void tl_micro_x32_16x16(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    x32_16x16(s, ss0, d, ds1, 0);
}

TL_FN void tl_micro_x32_16x16_nt(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    x32_16x16(s, ss0, d, ds1, 1);
}

#define MICRO tl_micro_x32_16x16
#define MICRO_NT tl_micro_x32_16x16_nt /* whole lines: streamed from registers */
#define NT_COLS 16
#define MICRO2 tl_micro_x32_8x8
TL_X86_TRANSPOSE(tl_x32_transpose_ukernel__avx512_tiles, x32_plain, x32_plain, x32_edges, 4, 16, 16, 8)
#undef MICRO2
#undef MICRO_NT
#undef NT_COLS
#undef MICRO

#include "kernels/transpose/x86_strips512.h"

#include "kernels/transpose/x86_bytes512.h"
#endif
