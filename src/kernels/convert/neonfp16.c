/* Armv7 NEON kernels for the pairs with f16, compiled for the VFPv4 FPU
 * (-mfpu=neon-vfpv4 -mfp16-format=ieee, CMakeLists.txt), whose vcvt converts
 * f16: Cortex-A7, A15, A17 (RV1106/RV1126, AM57x). The engine takes them
 * where the kernel reports VFPv4 (HWCAP_VFPv4, TL_FEAT_F16); CPUs without it
 * (Cortex-A8, some A9) keep convert/neon.c's integer f16 code. The code is
 * neon_body.h's, as on AArch64. */
#if defined(__ARM_NEON) && defined(__arm__) && !defined(__aarch64__)
#include "kernels/convert/neon_body.h"

#if !TL_NEON_F16_HW
#error "convert/neonfp16.c needs the f16 conversions: -mfpu=neon-vfpv4 -mfp16-format=ieee (CMakeLists.txt)"
#endif

TL_NEON_ROW(tl_u8_f16_convert_ukernel__neonfp16, tl_neonfp16_blocks_u8_f16, TL_U8, TL_F16)
TL_NEON_ROW(tl_i8_f16_convert_ukernel__neonfp16, tl_neonfp16_blocks_i8_f16, TL_I8, TL_F16)
TL_NEON_ROW(tl_i16_f16_convert_ukernel__neonfp16, tl_neonfp16_blocks_i16_f16, TL_I16, TL_F16)
TL_NEON_ROW(tl_f16_u8_convert_ukernel__neonfp16, tl_neonfp16_blocks_f16_u8, TL_F16, TL_U8)
TL_NEON_ROW(tl_f16_i8_convert_ukernel__neonfp16, tl_neonfp16_blocks_f16_i8, TL_F16, TL_I8)
TL_NEON_ROW(tl_f16_i16_convert_ukernel__neonfp16, tl_neonfp16_blocks_f16_i16, TL_F16, TL_I16)
TL_NEON_ROW(tl_f16_f16_convert_ukernel__neonfp16, tl_neonfp16_blocks_f16_f16, TL_F16, TL_F16)
TL_NEON_ROW(tl_f16_bf16_convert_ukernel__neonfp16, tl_neonfp16_blocks_f16_bf16, TL_F16, TL_BF16)
TL_NEON_ROW(tl_f16_f32_convert_ukernel__neonfp16, tl_neonfp16_blocks_f16_f32, TL_F16, TL_F32)
TL_NEON_ROW(tl_bf16_f16_convert_ukernel__neonfp16, tl_neonfp16_blocks_bf16_f16, TL_BF16, TL_F16)
TL_NEON_ROW(tl_f32_f16_convert_ukernel__neonfp16, tl_neonfp16_blocks_f32_f16, TL_F32, TL_F16)

void tl_u8_f16_spread4_rows_ukernel__neonfp16(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv);
void tl_u8_f16_spread4_rows_ukernel__neonfp16(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    u8_f16_spread4_rows(src, dst, g, cv);
}

void tl_f16_x8_gather4_rows_ukernel__neonfp16(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv);
void tl_f16_x8_gather4_rows_ukernel__neonfp16(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    f16_x8_gather4_rows_of(src, dst, g, cv);
}
#endif
