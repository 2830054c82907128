/* Candidate search, NEON (AArch64 and Armv7): 16 codes per compare; a chunk
 * with any lane set is searched byte by byte (the exact scalar rule). */
#if defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/scan/scan.h"

static inline int any_lane(uint8x16_t v)
{
#if defined(__aarch64__)
    return vmaxvq_u8(v) != 0;
#else
    uint8x8_t m = vpmax_u8(vget_low_u8(v), vget_high_u8(v));
    m = vpmax_u8(m, m);
    m = vpmax_u8(m, m);
    m = vpmax_u8(m, m);
    return vget_lane_u8(m, 0) != 0;
#endif
}

size_t tl_scan_next_neon(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                         uint8_t tu)
{
    const uint8x16_t vf = vdupq_n_u8(flip), vt = vdupq_n_u8(tu);
    size_t i = start, m = start % mlen;
    for (; i + 16 <= n; i += 16) {
        uint8x16_t x = vandq_u8(veorq_u8(vld1q_u8(p + i), vf), vld1q_u8(mask + m));
        if (any_lane(vcgeq_u8(x, vt))) return tl_scan_next_tail(p, i, i + 16, mask, m, mlen, flip, tu);
        m += 16;
        if (m >= mlen) m -= mlen;
    }
    return tl_scan_next_tail(p, i, n, mask, m, mlen, flip, tu);
}

void tl_argmax_row_neon(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                        int32_t *label, size_t n)
{
    const int32x4_t vc = vdupq_n_s32(c);
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        int32x4_t s = vmlaq_n_s32(vmulq_n_s32(vld1q_s32(a + i), w0), vld1q_s32(z + i), w1);
        int32x4_t b = vld1q_s32(best + i);
        uint32x4_t gt = vcgtq_s32(s, b);
        vst1q_s32(best + i, vmaxq_s32(s, b));
        vst1q_s32(label + i, vbslq_s32(gt, vc, vld1q_s32(label + i)));
    }
    tl_argmax_row_tail(a, z, w0, w1, c, best, label, i, n);
}
#endif
