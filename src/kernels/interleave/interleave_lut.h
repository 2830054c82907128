/* 3-channel byte (de)interleaves that convert every byte on the way (the
 * plan's 8-bit conversion: a byte map computed in the register, or its
 * 256-byte table tl_cvt.lut), in one pass, and rows of them in one call
 * (AVX-512 VBMI, AVX2, NEON). Called directly by the 2d executor (not
 * registry rows: they take the plan's conversion). Not installed. */
#ifndef TL_KERNELS_INTERLEAVE_LUT_H
#define TL_KERNELS_INTERLEAVE_LUT_H

#include <stddef.h>
#include <stdint.h>

#include "kernels/kernels.h" /* tl_cvt, tl_map8_of */

/* The byte maps (tl_map8) that the AVX-512 VBMI (de)interleaves compute in
 * the register, with one copy of the kernels each (about 21 KB of code for
 * the four kernels): a move, u8 <-> i8 saturation (identity quantizations,
 * which have no table), an add (RKNN's zero point -128) and i8 -> u8
 * doubled (TIDL's scale 0.5 back to an image). Any other 8-bit conversion
 * is looked up in cv->lut (TL_MAP8_LUT). TIDL's halving into i8 stays on
 * the table: the de-interleave measured no faster without it (Zen 5).
 * The set is written once, here: the engine (tl_x8_vbmi_map) and the
 * kernels' instantiations (TL_X8_VBMI_MAP_SWITCH) cannot disagree on it. */
#define TL_MAP8_LUT (-1)
/* CALL(m) with m a constant: cv's map where it is in the set, else the table */
#define TL_X8_VBMI_MAP_SWITCH(m, CALL)                                                            \
    switch (m) {                                                                                  \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_MOVE, 0, 0))                                           \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_SAT, 0, 1))                                            \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_SAT, 1, 0))                                            \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_ADD, 0, 0))                                            \
        TL_MAP8_CASE(CALL, TL_MAP8(TL_MAP8_DOUBLE, 1, 0))                                         \
    default: CALL(TL_MAP8_LUT); break;                                                            \
    }

/* The map the kernels run for cv (NULL: a move), as TL_X8_VBMI_MAP_SWITCH
 * dispatches it. */
static inline int tl_x8_vbmi_map(const tl_cvt *cv)
{
    const int m = cv ? tl_map8_of(cv) : TL_MAP8(TL_MAP8_MOVE, 0, 0);
    int run = TL_MAP8_LUT;
#define TL_X8_RUNS(M) run = (M)
    TL_X8_VBMI_MAP_SWITCH(m, TL_X8_RUNS)
#undef TL_X8_RUNS
    return run;
}

/* Rows of 3-channel pixels in one call: `rows` rows of n pixels, the packed
 * rows packed_row bytes apart, the planar rows plane_row bytes apart and
 * the 3 planes plane bytes apart. De-interleaving, each planar row also
 * gets `head` zero bytes before it and `tail` after (TIDL's padded rows);
 * interleaving, head + tail is the run of bytes between planar rows that
 * the one-stream form skips (plane_row - n: the padding is not read). 
 * One call for an image instead of one per row: at TIDL's 296-pixel rows
 * the per-call work (the executor's, the tables' loads) was a quarter of
 * the run. cv NULL: a plain move. `stream`: TL_T2D_STREAM (whole lines
 * non-temporal), and de-interleaving TL_T2D_SPLIT (planar rows off a line
 * stored as they are, not realigned). */
typedef struct tl_rows3 {
    size_t n, rows;
    ptrdiff_t packed_row, plane_row, plane;
    size_t head, tail;
} tl_rows3;

#if defined(__x86_64__) || defined(_M_X64)
/* n packed 3-byte pixels at src -> 3 planes ds1 bytes apart at dst, each
 * byte through cv's 8-bit conversion (NULL: a move): computed in the
 * register where tl_x8_vbmi_map says, else by the 256-byte table cv->lut.
 * Writes exactly the 3 rows of n bytes; `stream`: TL_T2D_STREAM, the caller
 * allows non-temporal stores (used for whole aligned lines), and
 * TL_T2D_SPLIT (rows off a line stored as they are). */
void tl_x8_lut_deinterleave3_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, ptrdiff_t ds1, size_t n,
                                                 int stream, const struct tl_cvt *cv);
/* n bytes of each of 3 planes -> n packed 3-byte pixels at dst, each byte
 * through cv as above; a NULL plane gives zero lanes (not converted). */
void tl_x8_lut_interleave3_ukernel__avx512vbmi(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                               const struct tl_cvt *cv);
void tl_x8_lut_deinterleave3_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                      int stream, const struct tl_cvt *cv);
/* The (de)interleave of rows on AVX2: a plain move (cv NULL), or through a
 * table that is an affine map (tl_cvt affine8), mapped in the registers. */
void tl_x8_deinterleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                            const struct tl_cvt *cv);
void tl_x8_interleave3_rows_ukernel__avx2(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, int stream,
                                          const struct tl_cvt *cv);
void tl_x8_lut_interleave3_rows_ukernel__avx512vbmi(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                    int stream, const struct tl_cvt *cv);
/* n floats of each of 3 f32 planes -> n packed 3-byte pixels of 8-bit codes
 * by the conversion cv (the f32 row kernel's steps, in the register;
 * defined with the convert family, convert/avx512.c). `stream`: whole
 * lines non-temporal (the caller fences). */
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
/* The same on AVX2, 32 pixels a step (streaming plans; through L1 rings
 * where the planes do not share their phase), the quantization the other
 * way, 8 pixels a step, and the 3-plane quantization into pixels, 32. */
void tl_f32_x8_interleave3_ukernel__avx2(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                         const struct tl_cvt *cv);
void tl_f32_x8_block16_ukernel__avx2(const uint8_t *planes, size_t plane_stride, uint8_t *dst, size_t n, int stream,
                                     const struct tl_cvt *cv);
void tl_x8_f32_unblock16_ukernel__avx2(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const struct tl_cvt *cv);
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
/* n 16-byte pixels of 8-bit codes (one NCHW16c channel block) -> n floats
 * of each of 16 f32 planes, as the x86 kernels above (convert/neon.c; plain
 * stores, stream ignored). */
void tl_x8_f32_unblock16_ukernel__neon(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const struct tl_cvt *cv);
/* n floats of each of 3 f32 planes -> n packed 3-byte pixels of 8-bit codes,
 * and of 16 planes -> n 16-byte pixels of a channel block, as the x86
 * kernels above (convert/neon.c: 16 pixels a step; plain stores, stream
 * ignored). */
void tl_f32_x8_interleave3_ukernel__neon(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                         const struct tl_cvt *cv);
void tl_f32_x8_block16_ukernel__neon(const uint8_t *planes, size_t plane_stride, uint8_t *dst, size_t n, int stream,
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
