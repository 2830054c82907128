/* Contiguous convert, scalar C: the reference twin of every vector kernel,
 * one function per (source, destination) dtype pair (convert.inc). */
#include "kernels/convert/pipeline.h"

#include "kernels/convert/convert.inc"

#define TL_SCALAR_ROW(isa, ISA, s, S, d, D)                                                    \
    void tl_##s##_##d##_convert_ukernel__##isa(const void *src, void *dst, size_t n,          \
                                               const tl_cvt *cv);                             \
    void tl_##s##_##d##_convert_ukernel__##isa(const void *src, void *dst, size_t n,          \
                                               const tl_cvt *cv)                              \
    {                                                                                         \
        const uint8_t *sp = (const uint8_t *)src;                                             \
        uint8_t *dp = (uint8_t *)dst;                                                         \
        const size_t es = tl_p_size(S), ed = tl_p_size(D);                    \
        for (size_t i = 0; i < n; i++) tl_p_store(cv, D, dp + i * ed, tl_p_load(cv, S, sp + i * es)); \
    }

TL_CONVERT_SCALAR(TL_SCALAR_ROW)

/* 8-bit -> 8-bit through the plan's table (cv->lut8, engine/cvt.c). In
 * place is fine: each byte is read before it is written. */
void tl_x8_lut_ukernel__scalar(const void *src, void *dst, size_t n, const tl_cvt *cv);
void tl_x8_lut_ukernel__scalar(const void *src, void *dst, size_t n, const tl_cvt *cv)
{
    const uint8_t *s = (const uint8_t *)src;
    uint8_t *d = (uint8_t *)dst;
    for (size_t i = 0; i < n; i++) d[i] = cv->lut[s[i]];
}
