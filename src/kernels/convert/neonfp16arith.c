/* AArch64 NEON kernels for the CPUs with ARMv8.2's half-precision arithmetic
 * (FEAT_FP16: Cortex-A55, A76, A78AE; RK3588, Jetson Orin), compiled with
 * -march=armv8.2-a+fp16 (CMakeLists.txt): the pairs between f16 and 8- or
 * 16-bit codes, and the kDLA_HWC4 f16 <-> RGB pixel kernels. Where the rule
 * is the conversion itself (plain codes, an unquantized source) one FP16
 * conversion replaces the trip through f32 (neon_body.h, fp16_direct); the
 * other rows run neon_body.h's f32 steps, as convert/neon.c does. The engine
 * takes them where the kernel reports the feature (HWCAP_ASIMDHP,
 * TL_FEAT_F16). */
#if defined(__aarch64__)
#include "kernels/convert/neon_body.h"

#if !TL_NEON_FP16_ARITH
#error "convert/neonfp16arith.c needs ARMv8.2's FP16 arithmetic: -march=armv8.2-a+fp16 (CMakeLists.txt)"
#endif

TL_NEON_ROW(tl_u8_f16_convert_ukernel__neonfp16arith, tl_neonfp16arith_blocks_u8_f16, TL_U8, TL_F16)
TL_NEON_ROW(tl_i8_f16_convert_ukernel__neonfp16arith, tl_neonfp16arith_blocks_i8_f16, TL_I8, TL_F16)
TL_NEON_ROW(tl_i16_f16_convert_ukernel__neonfp16arith, tl_neonfp16arith_blocks_i16_f16, TL_I16, TL_F16)
TL_NEON_ROW(tl_f16_u8_convert_ukernel__neonfp16arith, tl_neonfp16arith_blocks_f16_u8, TL_F16, TL_U8)
TL_NEON_ROW(tl_f16_i8_convert_ukernel__neonfp16arith, tl_neonfp16arith_blocks_f16_i8, TL_F16, TL_I8)
TL_NEON_ROW(tl_f16_i16_convert_ukernel__neonfp16arith, tl_neonfp16arith_blocks_f16_i16, TL_F16, TL_I16)

void tl_u8_f16_spread4_rows_ukernel__neonfp16arith(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                   const tl_cvt *cv);
void tl_u8_f16_spread4_rows_ukernel__neonfp16arith(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                   const tl_cvt *cv)
{
    u8_f16_spread4_rows(src, dst, g, cv);
}

void tl_f16_x8_gather4_rows_ukernel__neonfp16arith(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                   const tl_cvt *cv);
void tl_f16_x8_gather4_rows_ukernel__neonfp16arith(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                   const tl_cvt *cv)
{
    f16_x8_gather4_rows_of(src, dst, g, cv);
}
#endif
