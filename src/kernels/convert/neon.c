/* The NEON convert kernels (AArch64 and Armv7): all 36 pairs of u8 i8 i16
 * f16 bf16 f32 (convert.inc), the 4-row form, 3 f32 planes quantized into
 * packed pixels, 16 into a 16-channel block of 8-bit codes and back and, on
 * AArch64, the kDLA_HWC4 f16 <-> RGB kernels; the code is neon_body.h's. */
#if defined(__ARM_NEON)
#include "kernels/convert/neon_body.h"

TL_NEON_ROW(tl_u8_u8_convert_ukernel__neon, tl_neon_blocks_u8_u8, TL_U8, TL_U8)
TL_NEON_ROW(tl_u8_i8_convert_ukernel__neon, tl_neon_blocks_u8_i8, TL_U8, TL_I8)
TL_NEON_ROW(tl_u8_i16_convert_ukernel__neon, tl_neon_blocks_u8_i16, TL_U8, TL_I16)
TL_NEON_ROW(tl_u8_f16_convert_ukernel__neon, tl_neon_blocks_u8_f16, TL_U8, TL_F16)
TL_NEON_ROW(tl_u8_bf16_convert_ukernel__neon, tl_neon_blocks_u8_bf16, TL_U8, TL_BF16)
TL_NEON_ROW(tl_u8_f32_convert_ukernel__neon, tl_neon_blocks_u8_f32, TL_U8, TL_F32)
TL_NEON_ROW(tl_i8_u8_convert_ukernel__neon, tl_neon_blocks_i8_u8, TL_I8, TL_U8)
TL_NEON_ROW(tl_i8_i8_convert_ukernel__neon, tl_neon_blocks_i8_i8, TL_I8, TL_I8)
TL_NEON_ROW(tl_i8_i16_convert_ukernel__neon, tl_neon_blocks_i8_i16, TL_I8, TL_I16)
TL_NEON_ROW(tl_i8_f16_convert_ukernel__neon, tl_neon_blocks_i8_f16, TL_I8, TL_F16)
TL_NEON_ROW(tl_i8_bf16_convert_ukernel__neon, tl_neon_blocks_i8_bf16, TL_I8, TL_BF16)
TL_NEON_ROW(tl_i8_f32_convert_ukernel__neon, tl_neon_blocks_i8_f32, TL_I8, TL_F32)
TL_NEON_ROW(tl_i16_u8_convert_ukernel__neon, tl_neon_blocks_i16_u8, TL_I16, TL_U8)
TL_NEON_ROW(tl_i16_i8_convert_ukernel__neon, tl_neon_blocks_i16_i8, TL_I16, TL_I8)
TL_NEON_ROW(tl_i16_i16_convert_ukernel__neon, tl_neon_blocks_i16_i16, TL_I16, TL_I16)
TL_NEON_ROW(tl_i16_f16_convert_ukernel__neon, tl_neon_blocks_i16_f16, TL_I16, TL_F16)
TL_NEON_ROW(tl_i16_bf16_convert_ukernel__neon, tl_neon_blocks_i16_bf16, TL_I16, TL_BF16)
TL_NEON_ROW(tl_i16_f32_convert_ukernel__neon, tl_neon_blocks_i16_f32, TL_I16, TL_F32)
TL_NEON_ROW(tl_f16_u8_convert_ukernel__neon, tl_neon_blocks_f16_u8, TL_F16, TL_U8)
TL_NEON_ROW(tl_f16_i8_convert_ukernel__neon, tl_neon_blocks_f16_i8, TL_F16, TL_I8)
TL_NEON_ROW(tl_f16_i16_convert_ukernel__neon, tl_neon_blocks_f16_i16, TL_F16, TL_I16)
TL_NEON_ROW(tl_f16_f16_convert_ukernel__neon, tl_neon_blocks_f16_f16, TL_F16, TL_F16)
TL_NEON_ROW(tl_f16_bf16_convert_ukernel__neon, tl_neon_blocks_f16_bf16, TL_F16, TL_BF16)
TL_NEON_ROW(tl_f16_f32_convert_ukernel__neon, tl_neon_blocks_f16_f32, TL_F16, TL_F32)
TL_NEON_ROW(tl_bf16_u8_convert_ukernel__neon, tl_neon_blocks_bf16_u8, TL_BF16, TL_U8)
TL_NEON_ROW(tl_bf16_i8_convert_ukernel__neon, tl_neon_blocks_bf16_i8, TL_BF16, TL_I8)
TL_NEON_ROW(tl_bf16_i16_convert_ukernel__neon, tl_neon_blocks_bf16_i16, TL_BF16, TL_I16)
TL_NEON_ROW(tl_bf16_f16_convert_ukernel__neon, tl_neon_blocks_bf16_f16, TL_BF16, TL_F16)
TL_NEON_ROW(tl_bf16_bf16_convert_ukernel__neon, tl_neon_blocks_bf16_bf16, TL_BF16, TL_BF16)
TL_NEON_ROW(tl_bf16_f32_convert_ukernel__neon, tl_neon_blocks_bf16_f32, TL_BF16, TL_F32)
TL_NEON_ROW(tl_f32_u8_convert_ukernel__neon, tl_neon_blocks_f32_u8, TL_F32, TL_U8)
TL_NEON_ROW(tl_f32_i8_convert_ukernel__neon, tl_neon_blocks_f32_i8, TL_F32, TL_I8)
TL_NEON_ROW(tl_f32_i16_convert_ukernel__neon, tl_neon_blocks_f32_i16, TL_F32, TL_I16)
TL_NEON_ROW(tl_f32_f16_convert_ukernel__neon, tl_neon_blocks_f32_f16, TL_F32, TL_F16)
TL_NEON_ROW(tl_f32_bf16_convert_ukernel__neon, tl_neon_blocks_f32_bf16, TL_F32, TL_BF16)
TL_NEON_ROW(tl_f32_f32_convert_ukernel__neon, tl_neon_blocks_f32_f32, TL_F32, TL_F32)

void tl_f32_u8_group4_ukernel__neon(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                                    const tl_cvt *cv);
void tl_f32_u8_group4_ukernel__neon(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                                    const tl_cvt *cv)
{
    f32_x8_group_rows(4, TL_U8, (const uint8_t *)src, ss, (uint8_t *)dst, ds, rows, n, cv);
}

void tl_f32_i8_group4_ukernel__neon(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                                    const tl_cvt *cv);
void tl_f32_i8_group4_ukernel__neon(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                                    const tl_cvt *cv)
{
    f32_x8_group_rows(4, TL_I8, (const uint8_t *)src, ss, (uint8_t *)dst, ds, rows, n, cv);
}

void tl_f32_x8_interleave3_ukernel__neon(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                         const tl_cvt *cv);
void tl_f32_x8_interleave3_ukernel__neon(const uint8_t *const *planes, uint8_t *dst, size_t n, int stream,
                                         const tl_cvt *cv)
{
    (void)stream; /* plain stores */
    const ptrdiff_t ss = planes[1] - planes[0];
    if (planes[2] - planes[1] != ss) { /* (every caller's planes are evenly spaced; any others one at a time) */
        _Alignas(16) uint8_t tmp[3][4 * 64];
        for (size_t i = 0; i < n; i += 64) {
            const size_t m = n - i < 64 ? n - i : 64;
            for (int c = 0; c < 3; c++) memcpy(tmp[c], planes[c] + 4 * i, 4 * m);
            tl_f32_x8_interleave3_ukernel__neon((const uint8_t *const[3]){tmp[0], tmp[1], tmp[2]}, dst + 3 * i, m,
                                                stream, cv);
        }
        return;
    }
    if (cv->ddt == TL_I8) f32_x8_group_rows(3, TL_I8, planes[0], ss, dst, 0, 3, n, cv);
    else f32_x8_group_rows(3, TL_U8, planes[0], ss, dst, 0, 3, n, cv);
}

void tl_f32_x8_block16_ukernel__neon(const uint8_t *planes, size_t plane_stride, uint8_t *dst, size_t n, int stream,
                                     const tl_cvt *cv);
void tl_f32_x8_block16_ukernel__neon(const uint8_t *planes, size_t plane_stride, uint8_t *dst, size_t n, int stream,
                                     const tl_cvt *cv)
{
    (void)stream; /* plain stores */
    if (cv->ddt == TL_I8) f32_x8_block16(TL_I8, planes, (ptrdiff_t)plane_stride, dst, n, cv);
    else f32_x8_block16(TL_U8, planes, (ptrdiff_t)plane_stride, dst, n, cv);
}

void tl_x8_f32_unblock16_ukernel__neon(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const tl_cvt *cv);
void tl_x8_f32_unblock16_ukernel__neon(const uint8_t *src, uint8_t *planes, size_t plane_stride, size_t n, int stream,
                                      const tl_cvt *cv)
{
    (void)stream; /* plain stores */
    x8_f32_unblock16_of(src, planes, plane_stride, n, cv);
}

#if TL_NEON_A64 /* Armv7: convert/neonfp16.c, where the CPU converts f16 */
void tl_u8_f16_spread4_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv);
void tl_u8_f16_spread4_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    u8_f16_spread4_rows(src, dst, g, cv);
}

void tl_f16_x8_gather4_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv);
void tl_f16_x8_gather4_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, const tl_cvt *cv)
{
    f16_x8_gather4_rows_of(src, dst, g, cv);
}
#endif
#endif
