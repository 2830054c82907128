/* Register-block transposes in q registers, NEON (AArch64 and Armv7), for the
 * block pack/unpack kernels (block/neon.c) and the tiled transposes
 * (transpose/neon.c). A micro kernel reads R rows of C elements (source byte
 * stride ss) and writes C rows of R elements (destination stride ds):
 * d[j][i] = s[i][j].
 *
 * The method: with rows held in registers, one stage pairs row i with row
 * i + b and exchanges the off-diagonal b x b blocks (a vtrn at b elements per
 * lane; 64-bit lanes by recombining halves). A stage swaps bit log2(b) of the
 * row index with the same bit of the column index; the stages for b = 1, 2,
 * 4, ... together transpose the block. Only included inside __ARM_NEON guards. */
#ifndef TL_KERNELS_TRANSPOSE_NEON_MICRO_H
#define TL_KERNELS_TRANSPOSE_NEON_MICRO_H

#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define TL_NM static inline __attribute__((always_inline))

TL_NM void tl_nm_trn8(uint8x16_t *a, uint8x16_t *b)
{
    uint8x16x2_t t = vtrnq_u8(*a, *b);
    *a = t.val[0];
    *b = t.val[1];
}

TL_NM void tl_nm_trn16(uint8x16_t *a, uint8x16_t *b)
{
    uint16x8x2_t t = vtrnq_u16(vreinterpretq_u16_u8(*a), vreinterpretq_u16_u8(*b));
    *a = vreinterpretq_u8_u16(t.val[0]);
    *b = vreinterpretq_u8_u16(t.val[1]);
}

TL_NM void tl_nm_trn32(uint8x16_t *a, uint8x16_t *b)
{
    uint32x4x2_t t = vtrnq_u32(vreinterpretq_u32_u8(*a), vreinterpretq_u32_u8(*b));
    *a = vreinterpretq_u8_u32(t.val[0]);
    *b = vreinterpretq_u8_u32(t.val[1]);
}

/* 64-bit lanes: AArch64 has trn1/trn2 .2d; on Armv7 the halves are d
 * registers and the recombination is a register move (vswp). */
TL_NM void tl_nm_trn64(uint8x16_t *a, uint8x16_t *b)
{
#if defined(__aarch64__)
    uint64x2_t x = vreinterpretq_u64_u8(*a), y = vreinterpretq_u64_u8(*b);
    *a = vreinterpretq_u8_u64(vtrn1q_u64(x, y));
    *b = vreinterpretq_u8_u64(vtrn2q_u64(x, y));
#else
    uint8x16_t lo = vcombine_u8(vget_low_u8(*a), vget_low_u8(*b));
    *b = vcombine_u8(vget_high_u8(*a), vget_high_u8(*b));
    *a = lo;
#endif
}

/* One stage over n registers: rows i and i + b for every i with bit b clear. */
#define TL_NM_STAGE(r, n, b, trn)                                \
    _Pragma("GCC unroll 16") for (int i_ = 0; i_ < (n); i_++) \
        if (!(i_ & (b))) trn(&(r)[i_], &(r)[i_ + (b)]);

/* 16 x 16 bytes held in 16 registers, in place (also the NEON dequantization
 * of a 16-channel block, convert/neon_body.h). */
TL_NM void tl_nm_x8_16x16_regs(uint8x16_t r[16])
{
    TL_NM_STAGE(r, 16, 1, tl_nm_trn8)
    TL_NM_STAGE(r, 16, 2, tl_nm_trn16)
    TL_NM_STAGE(r, 16, 4, tl_nm_trn32)
    TL_NM_STAGE(r, 16, 8, tl_nm_trn64)
}

/* 16 x 16 bytes. */
TL_NM void tl_nm_x8_16x16(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds)
{
    uint8x16_t r[16];
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) r[i] = vld1q_u8(s + i * ss);
    tl_nm_x8_16x16_regs(r);
    _Pragma("GCC unroll 16") for (int i = 0; i < 16; i++) vst1q_u8(d + i * ds, r[i]);
}

/* 8 rows of 16 bytes -> 16 rows of 8: two 8 x 8 transposes side by side (the
 * low halves hold columns 0-7, the high halves columns 8-15). */
TL_NM void tl_nm_x8_8x16(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds)
{
    uint8x16_t r[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) r[i] = vld1q_u8(s + i * ss);
    TL_NM_STAGE(r, 8, 1, tl_nm_trn8)
    TL_NM_STAGE(r, 8, 2, tl_nm_trn16)
    TL_NM_STAGE(r, 8, 4, tl_nm_trn32)
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) {
        vst1_u8(d + i * ds, vget_low_u8(r[i]));
        vst1_u8(d + (8 + i) * ds, vget_high_u8(r[i]));
    }
}

/* 16 rows of 8 bytes -> 8 rows of 16: rows i and 8 + i share a register. */
TL_NM void tl_nm_x8_16x8(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds)
{
    uint8x16_t r[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) r[i] = vcombine_u8(vld1_u8(s + i * ss), vld1_u8(s + (8 + i) * ss));
    TL_NM_STAGE(r, 8, 1, tl_nm_trn8)
    TL_NM_STAGE(r, 8, 2, tl_nm_trn16)
    TL_NM_STAGE(r, 8, 4, tl_nm_trn32)
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) vst1q_u8(d + i * ds, r[i]);
}

/* 8 x 8 of 16-bit elements. */
TL_NM void tl_nm_x16_8x8(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds)
{
    uint8x16_t r[8];
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) r[i] = vld1q_u8(s + i * ss);
    TL_NM_STAGE(r, 8, 1, tl_nm_trn16)
    TL_NM_STAGE(r, 8, 2, tl_nm_trn32)
    TL_NM_STAGE(r, 8, 4, tl_nm_trn64)
    _Pragma("GCC unroll 8") for (int i = 0; i < 8; i++) vst1q_u8(d + i * ds, r[i]);
}

/* 4 x 4 of 32-bit elements. */
TL_NM void tl_nm_x32_4x4(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds)
{
    uint8x16_t r[4];
    _Pragma("GCC unroll 4") for (int i = 0; i < 4; i++) r[i] = vld1q_u8(s + i * ss);
    TL_NM_STAGE(r, 4, 1, tl_nm_trn32)
    TL_NM_STAGE(r, 4, 2, tl_nm_trn64)
    _Pragma("GCC unroll 4") for (int i = 0; i < 4; i++) vst1q_u8(d + i * ds, r[i]);
}

/* A micro kernel as a function (the partial blocks take its address). */
typedef void (*tl_nm_fn)(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds);

/* A partial block: rows <= R source rows of cols <= C elements (element
 * size e) through the R x C micro kernel in a stack tile (libyuv's ANY), so
 * nothing outside the caller's rows is read or written. The kernels place a
 * side's last block where it ends at the side's last element, so only a
 * side shorter than a block comes here. Inlined into each kernel file's
 * tail functions (transpose/neon.c's edge_block, block/neon.c's pack_tail
 * and unpack_tail), which fold their constant arguments: one shared
 * out-of-line function measured up to 18 % more instructions. */
TL_NM void tl_nm_tile(tl_nm_fn micro, size_t e, size_t R, size_t C, const uint8_t *src, ptrdiff_t ss0,
                      uint8_t *dst, ptrdiff_t ds1, size_t rows, size_t cols)
{
    uint8_t in[256] = {0}, out[256];
    for (size_t r = 0; r < rows; r++) memcpy(in + r * C * e, src + (ptrdiff_t)r * ss0, cols * e);
    micro(in, (ptrdiff_t)(C * e), out, (ptrdiff_t)(R * e));
    for (size_t c = 0; c < cols; c++) memcpy(dst + (ptrdiff_t)c * ds1, out + c * R * e, rows * e);
}
#endif
