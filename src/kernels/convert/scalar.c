/* Contiguous convert, scalar C: the reference twin of every vector kernel,
 * one function per (source, destination) dtype pair (convert.inc). */
#include "kernels/convert/pipeline.h"

#define TL_SCALAR_ROW(fn, S, D)                                                                \
    void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n, const tl_cvt *cv); \
    void fn(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n, const tl_cvt *cv)  \
    {                                                                                         \
        const size_t es = tl_p_size(S), ed = tl_p_size(D);                                    \
        for (size_t r = 0; r < rows; r++) {                                                   \
            const uint8_t *sp = (const uint8_t *)src + (ptrdiff_t)r * ss;                     \
            uint8_t *dp = (uint8_t *)dst + (ptrdiff_t)r * ds;                                 \
            for (size_t i = 0; i < n; i++) tl_p_store(cv, D, dp + i * ed, tl_p_load(cv, S, sp + i * es)); \
        }                                                                                     \
    }

TL_SCALAR_ROW(tl_u8_u8_convert_ukernel__scalar, TL_U8, TL_U8)
TL_SCALAR_ROW(tl_u8_i8_convert_ukernel__scalar, TL_U8, TL_I8)
TL_SCALAR_ROW(tl_u8_i16_convert_ukernel__scalar, TL_U8, TL_I16)
TL_SCALAR_ROW(tl_u8_f16_convert_ukernel__scalar, TL_U8, TL_F16)
TL_SCALAR_ROW(tl_u8_bf16_convert_ukernel__scalar, TL_U8, TL_BF16)
TL_SCALAR_ROW(tl_u8_f32_convert_ukernel__scalar, TL_U8, TL_F32)
TL_SCALAR_ROW(tl_i8_u8_convert_ukernel__scalar, TL_I8, TL_U8)
TL_SCALAR_ROW(tl_i8_i8_convert_ukernel__scalar, TL_I8, TL_I8)
TL_SCALAR_ROW(tl_i8_i16_convert_ukernel__scalar, TL_I8, TL_I16)
TL_SCALAR_ROW(tl_i8_f16_convert_ukernel__scalar, TL_I8, TL_F16)
TL_SCALAR_ROW(tl_i8_bf16_convert_ukernel__scalar, TL_I8, TL_BF16)
TL_SCALAR_ROW(tl_i8_f32_convert_ukernel__scalar, TL_I8, TL_F32)
TL_SCALAR_ROW(tl_i16_u8_convert_ukernel__scalar, TL_I16, TL_U8)
TL_SCALAR_ROW(tl_i16_i8_convert_ukernel__scalar, TL_I16, TL_I8)
TL_SCALAR_ROW(tl_i16_i16_convert_ukernel__scalar, TL_I16, TL_I16)
TL_SCALAR_ROW(tl_i16_f16_convert_ukernel__scalar, TL_I16, TL_F16)
TL_SCALAR_ROW(tl_i16_bf16_convert_ukernel__scalar, TL_I16, TL_BF16)
TL_SCALAR_ROW(tl_i16_f32_convert_ukernel__scalar, TL_I16, TL_F32)
TL_SCALAR_ROW(tl_f16_u8_convert_ukernel__scalar, TL_F16, TL_U8)
TL_SCALAR_ROW(tl_f16_i8_convert_ukernel__scalar, TL_F16, TL_I8)
TL_SCALAR_ROW(tl_f16_i16_convert_ukernel__scalar, TL_F16, TL_I16)
TL_SCALAR_ROW(tl_f16_f16_convert_ukernel__scalar, TL_F16, TL_F16)
TL_SCALAR_ROW(tl_f16_bf16_convert_ukernel__scalar, TL_F16, TL_BF16)
TL_SCALAR_ROW(tl_f16_f32_convert_ukernel__scalar, TL_F16, TL_F32)
TL_SCALAR_ROW(tl_bf16_u8_convert_ukernel__scalar, TL_BF16, TL_U8)
TL_SCALAR_ROW(tl_bf16_i8_convert_ukernel__scalar, TL_BF16, TL_I8)
TL_SCALAR_ROW(tl_bf16_i16_convert_ukernel__scalar, TL_BF16, TL_I16)
TL_SCALAR_ROW(tl_bf16_f16_convert_ukernel__scalar, TL_BF16, TL_F16)
TL_SCALAR_ROW(tl_bf16_bf16_convert_ukernel__scalar, TL_BF16, TL_BF16)
TL_SCALAR_ROW(tl_bf16_f32_convert_ukernel__scalar, TL_BF16, TL_F32)
TL_SCALAR_ROW(tl_f32_u8_convert_ukernel__scalar, TL_F32, TL_U8)
TL_SCALAR_ROW(tl_f32_i8_convert_ukernel__scalar, TL_F32, TL_I8)
TL_SCALAR_ROW(tl_f32_i16_convert_ukernel__scalar, TL_F32, TL_I16)
TL_SCALAR_ROW(tl_f32_f16_convert_ukernel__scalar, TL_F32, TL_F16)
TL_SCALAR_ROW(tl_f32_bf16_convert_ukernel__scalar, TL_F32, TL_BF16)
TL_SCALAR_ROW(tl_f32_f32_convert_ukernel__scalar, TL_F32, TL_F32)

/* 8-bit codes through the plan's tables of the rule's 256 answers
 * (engine/cvt.c): one-byte answers (cv->lut8; in place is fine, each byte is
 * read before it is written) or two-byte ones (cv->lut16: low and high
 * bytes), one load per byte against the scalar f32 pipeline's dozen
 * operations (and, into f16, its software conversion). */
void tl_x8_lut_ukernel__scalar(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                               const tl_cvt *cv);
void tl_x8_lut_ukernel__scalar(const void *src, ptrdiff_t ss, void *dst, ptrdiff_t ds, size_t rows, size_t n,
                               const tl_cvt *cv)
{
    for (size_t r = 0; r < rows; r++) {
        const uint8_t *s = (const uint8_t *)src + (ptrdiff_t)r * ss;
        uint8_t *d = (uint8_t *)dst + (ptrdiff_t)r * ds;
        if (!cv->lut16)
            for (size_t i = 0; i < n; i++) d[i] = cv->lut[s[i]];
        else
            for (size_t i = 0; i < n; i++) d[2 * i] = cv->lut[s[i]], d[2 * i + 1] = cv->lut_hi[s[i]];
    }
}
