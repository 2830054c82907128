/* NEON real-value kernel (kernels/image/encode.h): 16 values a step. AArch64
 * has the FMA and DIV forms (vfmaq, vdivq); Armv7 NEON has neither a divide
 * nor (with -mfpu=neon) a fused multiply-add, so only MUL there: a channel
 * whose reciprocal is not exact keeps the plan's table (src/image/encode.c). */
#if defined(__aarch64__) || defined(__arm__)
#include <arm_neon.h>

#include "kernels/image/encode.h"

static inline float32x4_t real4(uint16x4_t v, const tl_img_real *r, size_t k)
{
    float32x4_t a = vsubq_f32(vcvtq_f32_u32(vmovl_u16(v)), vld1q_f32(r->mean + k));
    float32x4_t rcp = vld1q_f32(r->rcp + k);
#if defined(__aarch64__)
    if (r->mode == TL_REAL_FMA) {
        float32x4_t q = vmulq_f32(a, rcp);
        float32x4_t e = vfmsq_f32(a, q, vld1q_f32(r->std + k)); /* a - q * std, fused: exact */
        return vfmaq_f32(q, e, rcp);
    }
    if (r->mode == TL_REAL_DIV) return vdivq_f32(a, vld1q_f32(r->std + k));
#endif
    return vmulq_f32(a, rcp);
}

static inline void real16(const uint8_t *s, float *d, const tl_img_real *r, size_t k)
{
    uint8x16_t b = vld1q_u8(s);
    uint16x8_t lo = vmovl_u8(vget_low_u8(b)), hi = vmovl_u8(vget_high_u8(b));
    vst1q_f32(d, real4(vget_low_u16(lo), r, k));
    vst1q_f32(d + 4, real4(vget_high_u16(lo), r, k + 4));
    vst1q_f32(d + 8, real4(vget_low_u16(hi), r, k + 8));
    vst1q_f32(d + 12, real4(vget_high_u16(hi), r, k + 12));
}

void tl_u8_real_ukernel__neon(const uint8_t *src, float *dst, size_t n, const tl_img_real *r)
{
    tl_real_loop(src, dst, n, r, real16);
}
#endif

/* NEON: 16 output bytes a step by a table lookup in the 16-byte window at
 * the step's first pixel (index 0x80 gives 0). */
#if defined(__aarch64__) || defined(__arm__)
static inline uint8x16_t expand16(const uint8_t *in, uint8x16_t ctl)
{
#if defined(__aarch64__)
    return vqtbl1q_u8(vld1q_u8(in), ctl);
#else
    uint8x16_t w = vld1q_u8(in);
    uint8x8x2_t t = {{vget_low_u8(w), vget_high_u8(w)}};
    return vcombine_u8(vtbl2_u8(t, vget_low_u8(ctl)), vtbl2_u8(t, vget_high_u8(ctl)));
#endif
}

void tl_x8_expand_ukernel__neon(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out)
{
    const uint8x16_t ctl = vld1q_u8(x->ctl), zero = vdupq_n_u8(0);
    const size_t bytes = (size_t)x->bytes, ps = (size_t)x->ps;
    size_t i = 0;
    if (ps >= 16) {
        for (; i < n; i++, in += bytes, out += ps) {
            vst1q_u8(out, expand16(in, ctl));
            for (size_t z = 16; z < ps; z += 16) vst1q_u8(out + z, zero);
        }
        return;
    }
    const size_t per = 16 / ps;
    for (; i + per <= n; i += per, in += per * bytes, out += 16) vst1q_u8(out, expand16(in, ctl));
    tl_x8_expand_ukernel__scalar(in, n - i, x, out);
}
#endif
