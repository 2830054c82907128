/* The AVX-512 3-channel byte interleave and de-interleave with an 8-bit
 * table in the register (AVX-512 VBMI): each byte of a register goes through
 * the plan's 256-byte table (cv->lut, the element rule's answer for every
 * code) by two vpermi2b and a blend, between the shuffles and the stores.
 * An NHWC u8 image into TIDL's padded i8 planes (and back) is then one pass
 * over memory; the kernels without the table needed a table pass over an L1
 * tile and a move from it. The same bodies as avx512.c
 * (x86_bytes3_512.h); compiled without ISA flags (the name is not an ISA's):
 * the functions carry target attributes, and the 2d executor calls them only
 * on a CPU with VBMI. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/interleave/interleave_lut.h"
#include "kernels/kernels.h" /* TL_UNROLL */

#define TL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define TL_FN static inline TL_TARGET
#define TL_KERNEL TL_TARGET
#define TL_X8_LUT 1
#include "kernels/interleave/x86_tables.h"
#include "kernels/interleave/x86_bytes3_512.h"
#include "kernels/interleave/x86_wrap.h"

TL_KERNEL void tl_x8_lut_deinterleave3_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, ptrdiff_t ds1,
                                                           size_t n, int stream, const uint8_t *lut)
{
    dilv_x8_3(src, dst, ds1, n, stream, lut);
}

/* Without a table: the VBMI de-interleave's 6 shuffles a step, a registry
 * row (interleave.inc) listed before the F/BW/VL kernel; the same for the
 * interleave. */
TL_FN size_t dilv_x8_3_copy(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream)
{
    return dilv_x8_3(s, d, ds1, n, stream, NULL);
}
TL_DILV_T2D(tl_x8_deinterleave3_ukernel__avx512vbmi, 1, 3, dilv_x8_3_copy)

/* The same for the interleave: whole output registers by byte permutes. */
TL_FN size_t ilv_x8_3_copy(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)
{
    return ilv_x8_3(pl, d, n, stream, NULL);
}
TL_ILV_PLANES(tl_x8_interleave3_ukernel__avx512vbmi, 1, 3, ilv_x8_3_copy)
TL_ILV_T2D(tl_x8_interleave3_t2d_ukernel__avx512vbmi, tl_x8_interleave3_ukernel__avx512vbmi, 1, 3)

TL_KERNEL void tl_x8_lut_interleave3_ukernel__avx512vbmi(const uint8_t *const *planes, uint8_t *dst, size_t n,
                                                         int stream, const uint8_t *lut)
{
    ilv_x8_3(planes, dst, n, stream, lut);
}
#endif
