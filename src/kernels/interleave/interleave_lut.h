/* 3-channel byte (de)interleaves that map every byte through a 256-byte
 * table on the way (the plan's 8-bit conversion table, tl_cvt.lut), in one
 * pass, and rows of them in one call (AVX-512 VBMI, AVX2, NEON). Called
 * directly by the 2d executor (not registry rows: they take the table or the
 * plan's conversion). Not installed. */
#ifndef TL_KERNELS_INTERLEAVE_LUT_H
#define TL_KERNELS_INTERLEAVE_LUT_H

#include <stddef.h>
#include <stdint.h>

/* Rows of 3-channel pixels in one call: `rows` rows of n pixels, the packed
 * rows packed_row bytes apart, the planar rows plane_row bytes apart and
 * the 3 planes plane bytes apart. De-interleaving, each planar row also
 * gets `head` zero bytes before it and `tail` after (TIDL's padded rows);
 * interleaving, head + tail is the run of bytes between planar rows that
 * the one-stream form skips (plane_row - n: the padding is not read). 
 * One call for an image instead of one per row: at TIDL's 296-pixel rows
 * the per-call work (the executor's, the tables' loads) was a quarter of
 * the run. lut NULL: a plain move. `stream`: TL_T2D_STREAM (whole lines
 * non-temporal), and de-interleaving TL_T2D_SPLIT (planar rows off a line
 * stored as they are, not realigned). */
typedef struct tl_rows3 {
    size_t n, rows;
    ptrdiff_t packed_row, plane_row, plane;
    size_t head, tail;
} tl_rows3;

#if defined(__x86_64__) || defined(_M_X64)
/* n packed 3-byte pixels at src -> 3 planes ds1 bytes apart at dst, each
 * byte as lut[byte]. Writes exactly the 3 rows of n bytes; `stream`:
 * TL_T2D_STREAM, the caller allows non-temporal stores (used for whole
 * aligned lines), and TL_T2D_SPLIT (rows off a line stored as they are). */
void tl_x8_lut_deinterleave3_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, ptrdiff_t ds1, size_t n,
                                                 int stream, const uint8_t *lut);
/* n bytes of each of 3 planes -> n packed 3-byte pixels at dst, each byte as
 * lut[byte]; a NULL plane gives zero lanes (not looked up). */
void tl_x8_lut_interleave3_ukernel__avx512vbmi(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                               const uint8_t *lut);
void tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                      int stream, const uint8_t *lut);
/* The (de)interleave of rows on AVX2: a plain move (cv NULL), or through a
 * table that is an affine map (tl_cvt affine8), mapped in the registers. */
struct tl_cvt;
void tl_x8_deinterleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                            const struct tl_cvt *cv);
void tl_x8_interleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                          const struct tl_cvt *cv);
void tl_x8_lut_interleave3_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                    int stream, const uint8_t *lut);
/* n floats of each of 3 f32 planes -> n packed 3-byte pixels of 8-bit codes
 * by the conversion cv (the f32 row kernel's steps, in the register;
 * defined with the convert family, convert/avx512.c). `stream`: whole
 * lines non-temporal (the caller fences). */
struct tl_cvt;
void tl_f32_x8_interleave3_ukernel__avx512vbmi(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                               const struct tl_cvt *cv);
/* n floats of each of 16 f32 planes (plane_stride bytes apart) -> n 16-byte
 * pixels of 8-bit codes (one NCHW16c channel block), the same way. */
void tl_f32_x8_block16_ukernel__avx512vbmi(const uint8_t *planes, size_t plane_stride, uint8_t *dst, size_t n,
                                           int stream, const struct tl_cvt *cv);
/* n 16-byte pixels of 8-bit codes (one NCHW16c channel block, dense at src)
 * -> n floats of each of 16 f32 planes (plane_stride bytes apart) by the
 * conversion cv's source stage, the reverse. `stream`: whole lines
 * non-temporal when the planes share their phase (the caller fences). */
void tl_x8_f32_unblock16_ukernel__avx512vbmi(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n,
                                             int stream, const struct tl_cvt *cv);
/* The same on AVX2, 32 pixels a step (streaming plans). */
void tl_x8_f32_unblock16_ukernel__avx2(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const struct tl_cvt *cv);
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
struct tl_cvt;
/* n 16-byte pixels of 8-bit codes (one NCHW16c channel block) -> n floats
 * of each of 16 f32 planes, as the x86 kernels above (convert/neon.c; plain
 * stores, stream ignored). */
void tl_x8_f32_unblock16_ukernel__neon(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const struct tl_cvt *cv);
/* The rows (de)interleave on NEON (vld3 / vst3): a plain move (cv NULL),
 * or through a table that is an affine map (tl_cvt affine8), mapped in the
 * registers (TIDL's padded planes from and into an RGB image, i8 or u8). */
void tl_x8_deinterleave3_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                            const struct tl_cvt *cv);
void tl_x8_interleave3_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                          const struct tl_cvt *cv);
#endif

#endif
