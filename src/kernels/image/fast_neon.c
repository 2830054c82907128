/* AArch64 NEON kernels of fast mode's pick and horizontal step (image.h):
 * 32 values a step from the block's window of the plan's byte indices
 * (tl_taps), by table lookups of 64 bytes (vqtbl4q; a second vqtbx4q for the
 * window's upper 64 bytes when the block spans more). Armv7 has 32-byte
 * lookups of 8 bytes only and keeps the scalar twins. Blocks whose taps
 * spread wider, and the tail, go to the scalar twins. */
#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>

#include "kernels/image/image.h"

/* Bytes win[idx] for 16 indices < 128: the first 64 bytes by one lookup
 * (indices past them give 0), the rest by a lookup that keeps what it
 * cannot index (idx - 64 wraps past 64 for the first ones). */
static inline uint8x16_t lookup(const uint8x16x4_t lo, const uint8x16x4_t hi, int wide, uint8x16_t idx)
{
    uint8x16_t got = vqtbl4q_u8(lo, idx);
    return wide ? vqtbx4q_u8(got, hi, vsubq_u8(idx, vdupq_n_u8(64))) : got;
}

/* The window of block b: 64 bytes, and the next 64 when the blocks span more. */
static inline void window(const uint8_t *at, int wide, uint8x16x4_t *lo, uint8x16x4_t *hi)
{
    *lo = vld1q_u8_x4(at);
    if (wide) *hi = vld1q_u8_x4(at + 64);
}

void tl_u8_pick_ukernel__neon(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n)
{
    const int32_t *bases = t->base; /* locals: the stores could alias *t */
    const uint8_t *pick = t->pick;
    const int wide = t->span > 64;
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        if (bases[k / 32] < 0) {
            tl_taps block = tl_taps_at(t, k);
            tl_u8_pick_ukernel__scalar(line, &block, out + k, 32);
            continue;
        }
        uint8x16x4_t lo, hi = {{vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)}};
        window(line + bases[k / 32], wide, &lo, &hi);
        vst1q_u8(out + k, lookup(lo, hi, wide, vld1q_u8(pick + k)));
        vst1q_u8(out + k + 16, lookup(lo, hi, wide, vld1q_u8(pick + k + 16)));
    }
    tl_taps rest = tl_taps_at(t, k);
    tl_u8_pick_ukernel__scalar(line, &rest, out + k, n - k);
}

/* h = a w0 + b w1 for 32 values a step: the (first, second) sample indices
 * and the weights de-interleaved by vld2, the samples looked up, one
 * widening multiply and one multiply-accumulate per 8 values (<= 16320). */
void tl_u8_hlinear_fast_ukernel__neon(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n)
{
    const int32_t *bases = t->base;
    const uint8_t *pair = t->pair;
    const uint8_t *w = (const uint8_t *)t->w; /* 0..64 */
    const int wide = t->span > 64;
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        if (bases[k / 32] < 0) {
            tl_taps block = tl_taps_at(t, k);
            tl_u8_hlinear_fast_ukernel__scalar(line, &block, h + k, 32);
            continue;
        }
        uint8x16x4_t lo, hi = {{vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0), vdupq_n_u8(0)}};
        window(line + bases[k / 32], wide, &lo, &hi);
        for (size_t j = 0; j < 32; j += 16) {
            uint8x16x2_t idx = vld2q_u8(pair + 2 * (k + j)), wt = vld2q_u8(w + 2 * (k + j));
            uint8x16_t a = lookup(lo, hi, wide, idx.val[0]), b = lookup(lo, hi, wide, idx.val[1]);
            uint16x8_t h0 = vmlal_u8(vmull_u8(vget_low_u8(a), vget_low_u8(wt.val[0])), vget_low_u8(b), vget_low_u8(wt.val[1]));
            uint16x8_t h1 = vmlal_high_u8(vmull_high_u8(a, wt.val[0]), b, wt.val[1]);
            vst1q_u16(h + k + j, h0);
            vst1q_u16(h + k + j + 8, h1);
        }
    }
    tl_taps rest = tl_taps_at(t, k);
    tl_u8_hlinear_fast_ukernel__scalar(line, &rest, h + k, n - k);
}
#endif
