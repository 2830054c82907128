/* Block pack/unpack for V = 8, 16, 32, NEON (AArch64 and Armv7): NCHW <->
 * NCHWVc of 8-, 16- and 32-bit elements through q-register transposes
 * (transpose/neon_micro.h): 16x16 bytes (8x16 and 16x8 for V = 8), 8x8 of
 * 16-bit, 4x4 of 32-bit. V = 4 is the 4-channel (de)interleave
 * (interleave/neon.c, vst4/vld4), which the registry lists first. A partial
 * block at the end is the whole register block that ends at the last
 * element, over part of the one before it: those bytes are written twice,
 * with the same values, instead of going through a stack tile (7 x 7 maps of
 * 80 channels, NCHW -> NCHW16c i8: docs/performance.md). Only fewer
 * elements than one block take a stack tile (libyuv's ANY). Nothing outside
 * the caller's rows is touched. */
#if defined(__ARM_NEON)
#include "kernels/transpose/neon_micro.h"

/* Pack, the last t (< C) columns: R rows of t elements -> t rows of R. With
 * at least C columns in all (n1), the register block that ends at the last
 * column, over part of the one before it; else through a stack tile. Not
 * inlined: inlined, the kernels' own loops cost up to 9 % more instructions
 * on Armv7 (bench/icount_arm.sh). */
static __attribute__((noinline)) void pack_tail(tl_nm_fn micro, size_t e, size_t R, size_t C, const uint8_t *src,
                                                ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t t, size_t n1)
{
    if (n1 >= C) {
        micro(src - (C - t) * e, ss0, dst - (ptrdiff_t)(C - t) * ds1, ds1);
        return;
    }
    tl_nm_tile(micro, e, R, C, src, ss0, dst, ds1, R, t);
}

/* Unpack, the last t (< R) rows: t rows of C elements -> C rows of t; with
 * at least R rows in all (n0), the block that ends at the last row. */
static __attribute__((noinline)) void unpack_tail(tl_nm_fn micro, size_t e, size_t R, size_t C, const uint8_t *src,
                                                  ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t t, size_t n0)
{
    if (n0 >= R) {
        micro(src - (ptrdiff_t)(R - t) * ss0, ss0, dst - (R - t) * e, ds1);
        return;
    }
    tl_nm_tile(micro, e, R, C, src, ss0, dst, ds1, t, C);
}

/* pack: n0 == V planes of n1 elements -> n1 blocks of V (dst stride ds1).
 * R x C register blocks: V / R blocks down the planes for every C columns. */
#define TL_NEON_PACK(fn, E, V, R, C, MICRO, NM)                                                       \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,     \
            int stream);                                                                              \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,     \
            int stream)                                                                               \
    {                                                                                                 \
        (void)stream;                                                                                   \
        size_t f1 = n1 / C * C;                                                                       \
        (void)n0;                                                                                     \
        for (size_t i1 = 0; i1 < f1; i1 += C)                                                         \
            for (size_t r = 0; r < V; r += R)                                                         \
                NM(src + (ptrdiff_t)r * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + r * E, ds1); \
        if (f1 < n1)                                                                                  \
            for (size_t r = 0; r < V; r += R)                                                         \
                pack_tail(MICRO, E, R, C, src + (ptrdiff_t)r * ss0 + f1 * E, ss0,                     \
                          dst + (ptrdiff_t)f1 * ds1 + r * E, ds1, n1 - f1, n1);                           \
    }

/* unpack: n0 blocks of V elements (src stride ss0) -> V planes of n0 (stride ds1).
 * R x C register blocks: R blocks at a time, V / C blocks across each. */
#define TL_NEON_UNPACK(fn, E, V, R, C, MICRO, NM)                                                     \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,     \
            int stream);                                                                              \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,     \
            int stream)                                                                               \
    {                                                                                                 \
        (void)stream;                                                                                   \
        size_t f0 = n0 / R * R;                                                                       \
        (void)n1;                                                                                     \
        for (size_t i0 = 0; i0 < f0; i0 += R)                                                         \
            for (size_t c = 0; c < V; c += C)                                                         \
                NM(src + (ptrdiff_t)i0 * ss0 + c * E, ss0, dst + (ptrdiff_t)c * ds1 + i0 * E, ds1); \
        if (f0 < n0)                                                                                  \
            for (size_t c = 0; c < V; c += C)                                                         \
                unpack_tail(MICRO, E, R, C, src + (ptrdiff_t)f0 * ss0 + c * E, ss0,                   \
                            dst + (ptrdiff_t)c * ds1 + f0 * E, ds1, n0 - f0, n0);                         \
    }

/* the micro kernels as plain functions (the tails take their address) */
static void x8_8x16(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds) { tl_nm_x8_8x16(s, ss, d, ds); }
static void x8_16x8(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds) { tl_nm_x8_16x8(s, ss, d, ds); }
static void x8_16x16(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds) { tl_nm_x8_16x16(s, ss, d, ds); }
static void x16_8x8(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds) { tl_nm_x16_8x8(s, ss, d, ds); }
static void x32_4x4(const uint8_t *s, ptrdiff_t ss, uint8_t *d, ptrdiff_t ds) { tl_nm_x32_4x4(s, ss, d, ds); }

TL_NEON_PACK(tl_x8_pack8_ukernel__neon, 1, 8, 8, 16, x8_8x16, tl_nm_x8_8x16)
TL_NEON_PACK(tl_x8_pack16_ukernel__neon, 1, 16, 16, 16, x8_16x16, tl_nm_x8_16x16)
TL_NEON_PACK(tl_x8_pack32_ukernel__neon, 1, 32, 16, 16, x8_16x16, tl_nm_x8_16x16)
TL_NEON_UNPACK(tl_x8_unpack8_ukernel__neon, 1, 8, 16, 8, x8_16x8, tl_nm_x8_16x8)
TL_NEON_UNPACK(tl_x8_unpack16_ukernel__neon, 1, 16, 16, 16, x8_16x16, tl_nm_x8_16x16)
TL_NEON_UNPACK(tl_x8_unpack32_ukernel__neon, 1, 32, 16, 16, x8_16x16, tl_nm_x8_16x16)

TL_NEON_PACK(tl_x16_pack8_ukernel__neon, 2, 8, 8, 8, x16_8x8, tl_nm_x16_8x8)
TL_NEON_PACK(tl_x16_pack16_ukernel__neon, 2, 16, 8, 8, x16_8x8, tl_nm_x16_8x8)
TL_NEON_PACK(tl_x16_pack32_ukernel__neon, 2, 32, 8, 8, x16_8x8, tl_nm_x16_8x8)
TL_NEON_UNPACK(tl_x16_unpack8_ukernel__neon, 2, 8, 8, 8, x16_8x8, tl_nm_x16_8x8)
TL_NEON_UNPACK(tl_x16_unpack16_ukernel__neon, 2, 16, 8, 8, x16_8x8, tl_nm_x16_8x8)
TL_NEON_UNPACK(tl_x16_unpack32_ukernel__neon, 2, 32, 8, 8, x16_8x8, tl_nm_x16_8x8)

TL_NEON_PACK(tl_x32_pack8_ukernel__neon, 4, 8, 4, 4, x32_4x4, tl_nm_x32_4x4)
TL_NEON_PACK(tl_x32_pack16_ukernel__neon, 4, 16, 4, 4, x32_4x4, tl_nm_x32_4x4)
TL_NEON_PACK(tl_x32_pack32_ukernel__neon, 4, 32, 4, 4, x32_4x4, tl_nm_x32_4x4)
TL_NEON_UNPACK(tl_x32_unpack8_ukernel__neon, 4, 8, 4, 4, x32_4x4, tl_nm_x32_4x4)
TL_NEON_UNPACK(tl_x32_unpack16_ukernel__neon, 4, 16, 4, 4, x32_4x4, tl_nm_x32_4x4)
TL_NEON_UNPACK(tl_x32_unpack32_ukernel__neon, 4, 32, 4, 4, x32_4x4, tl_nm_x32_4x4)
#endif
