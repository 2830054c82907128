/* NEON image row kernels (AArch64 and Armv7): the vertical bilinear step (8
 * outputs a step, 32-bit products), the horizontal one (8 outputs a step from
 * a 16-byte window by vtbl) and YUV 4:2:0 -> RGB (16 pixels a step, vld2 for
 * interleaved chroma, vst3 for RGB bytes, vst1 for rows); fast mode's vertical step and colour.
 * Tails go to the scalar twins. */
#if defined(__ARM_NEON) || defined(__ARM_NEON__)
#include <arm_neon.h>
#include <stdbool.h>

#include "kernels/image/image.h"

static inline int32x4_t term(const int32_t *h, int32_t b)
{
    return vshrq_n_s32(vmulq_n_s32(vshrq_n_s32(vld1q_s32(h), 4), b), 16);
}

void tl_u8_vlinear_ukernel__neon(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    const int32x4_t two = vdupq_n_s32(2);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        int32x4_t a = vshrq_n_s32(vaddq_s32(vaddq_s32(term(h0 + i, b0), term(h1 + i, b1)), two), 2);
        int32x4_t c = vshrq_n_s32(vaddq_s32(vaddq_s32(term(h0 + i + 4, b0), term(h1 + i + 4, b1)), two), 2);
        vst1_u8(out + i, vqmovn_u16(vcombine_u16(vqmovun_s32(a), vqmovun_s32(c))));
    }
    tl_u8_vlinear_ukernel__scalar(h0 + i, h1 + i, b0, b1, out + i, n - i);
}

/* 8 pixels of one channel: (t + c) >> 20 saturated. */
static inline uint8x8_t channel(int32x4_t t0, int32x4_t t1, int32x4_t c0, int32x4_t c1)
{
    int16x4_t a = vqmovn_s32(vshrq_n_s32(vaddq_s32(t0, c0), 20)), b = vqmovn_s32(vshrq_n_s32(vaddq_s32(t1, c1), 20));
    return vqmovun_s16(vcombine_s16(a, b));
}

static inline int32x4_t widen_lo(int16x8_t v) { return vmovl_s16(vget_low_s16(v)); }
static inline int32x4_t widen_hi(int16x8_t v) { return vmovl_s16(vget_high_s16(v)); }

/* R, G, B of 16 pixels as RGB bytes at p[0] + 3 k, or as rows at p[c] + k. */
static inline void store_out(uint8_t *const p[3], int64_t k, bool bytes, uint8x16x3_t o)
{
    if (bytes) {
        vst3q_u8(p[0] + 3 * k, o);
        return;
    }
    for (int c = 0; c < 3; c++) vst1q_u8(p[c] + k, o.val[c]);
}

static inline void rgb_loop(const tl_yuv_rows *r, int64_t x, int64_t x1, tl_rgb_out *ro, bool bytes)
{
    const int64_t first = x;
    uint8_t *const p[3] = {ro->ch[0], ro->ch[1], ro->ch[2]}; /* locals: the byte stores could alias *ro */
    const int16x8_t c128 = vdupq_n_s16(128);
    const uint16x8_t yoff = vdupq_n_u16((uint16_t)r->yoff);
    const int32x4_t half = vdupq_n_s32(1 << 19);
    for (; x + 16 <= x1; x += 16) {
        uint8x16_t y8 = vld1q_u8(r->y + x);
        uint16x8_t ya = vqsubq_u16(vmovl_u8(vget_low_u8(y8)), yoff), yb = vqsubq_u16(vmovl_u8(vget_high_u8(y8)), yoff);
        int32x4_t t[4] = {
            vmlaq_n_s32(half, vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(ya))), r->cy),
            vmlaq_n_s32(half, vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(ya))), r->cy),
            vmlaq_n_s32(half, vreinterpretq_s32_u32(vmovl_u16(vget_low_u16(yb))), r->cy),
            vmlaq_n_s32(half, vreinterpretq_s32_u32(vmovl_u16(vget_high_u16(yb))), r->cy),
        };
        uint8x8_t out[3][2];
        int16x8_t u = vdupq_n_s16(0), v = vdupq_n_s16(0);
        for (int h = 0; h < 2; h++) { /* pixels 8h .. 8h+7 */
            if (h == 0 || !r->cshift) { /* 4:2:0/4:2:2: one load of 8 pairs serves 16 pixels */
                int64_t p = (r->cshift ? x >> 1 : x + 8 * h) * r->cstep;
                uint8x8_t cu, cv;
                if (r->cstep == 2) {
                    uint8x8x2_t uv = vld2_u8(r->u < r->v ? r->u + p : r->v + p);
                    cu = r->u < r->v ? uv.val[0] : uv.val[1], cv = r->u < r->v ? uv.val[1] : uv.val[0];
                } else {
                    cu = vld1_u8(r->u + p), cv = vld1_u8(r->v + p);
                }
                u = vsubq_s16(vreinterpretq_s16_u16(vmovl_u8(cu)), c128);
                v = vsubq_s16(vreinterpretq_s16_u16(vmovl_u8(cv)), c128);
            }
            int32x4_t pr[2], pg[2], pb[2];
            if (r->cshift) { /* pairs 4h .. 4h+3, each to two pixels */
                int32x4_t uu = h ? widen_hi(u) : widen_lo(u), vv = h ? widen_hi(v) : widen_lo(v);
                int32x4_t cr = vmulq_n_s32(vv, r->cvr), cb = vmulq_n_s32(uu, r->cub);
                int32x4_t cg = vaddq_s32(vmulq_n_s32(vv, r->cvg), vmulq_n_s32(uu, r->cug));
                int32x4x2_t zr = vzipq_s32(cr, cr), zg = vzipq_s32(cg, cg), zb = vzipq_s32(cb, cb);
                pr[0] = zr.val[0], pr[1] = zr.val[1], pg[0] = zg.val[0], pg[1] = zg.val[1], pb[0] = zb.val[0], pb[1] = zb.val[1];
            } else {
                for (int q = 0; q < 2; q++) {
                    int32x4_t uu = q ? widen_hi(u) : widen_lo(u), vv = q ? widen_hi(v) : widen_lo(v);
                    pr[q] = vmulq_n_s32(vv, r->cvr), pb[q] = vmulq_n_s32(uu, r->cub);
                    pg[q] = vaddq_s32(vmulq_n_s32(vv, r->cvg), vmulq_n_s32(uu, r->cug));
                }
            }
            out[0][h] = channel(t[2 * h], t[2 * h + 1], pr[0], pr[1]);
            out[1][h] = channel(t[2 * h], t[2 * h + 1], pg[0], pg[1]);
            out[2][h] = channel(t[2 * h], t[2 * h + 1], pb[0], pb[1]);
        }
        uint8x16x3_t o = {{vcombine_u8(out[0][0], out[0][1]), vcombine_u8(out[1][0], out[1][1]),
                           vcombine_u8(out[2][0], out[2][1])}};
        store_out(p, x - first, bytes, o);
    }
    tl_rgb_skip(ro, x - first);
    tl_yuv_rgb_ukernel__scalar(r, x, x1, ro);
}

void tl_yuv_rgb_ukernel__neon(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out)
{
    int64_t x = x0;
    tl_rgb_out o = *out;
    int form = tl_rgb_form(&o);
    if (form == TL_RGB_OTHER) {
        tl_yuv_rgb_ukernel__scalar(r, x, x1, &o);
        return;
    }
    if (r->cshift && (x & 1) && x < x1) { /* start on a chroma pair */
        tl_yuv_rgb_ukernel__scalar(r, x, x + 1, &o);
        x++, tl_rgb_skip(&o, 1);
    }
    if (form == TL_RGB_BYTES) rgb_loop(r, x, x1, &o, true); /* one loop per store form */
    else rgb_loop(r, x, x1, &o, false);
}
/* ---- fast mode ---- */

/* (h0 + t + 32) >> 6, 8 values a step: t = vqrdmulh(h1 - h0, b1 << 9) = ((h1 - h0) b1 + 32) >> 6. */
void tl_u8_vlinear_fast_ukernel__neon(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n)
{
    const int16x8_t c32 = vdupq_n_s16(32);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        int16x8_t a = vreinterpretq_s16_u16(vld1q_u16(h0 + i)), d = vsubq_s16(vreinterpretq_s16_u16(vld1q_u16(h1 + i)), a);
        int16x8_t sum = vaddq_s16(vaddq_s16(a, c32), vqrdmulhq_n_s16(d, (int16_t)(b1 << 9)));
        vst1_u8(out + i, vqmovun_s16(vshrq_n_s16(sum, 6)));
    }
    tl_u8_vlinear_fast_ukernel__scalar(h0 + i, h1 + i, b1, out + i, n - i);
}

/* 8 pixels of one channel: sat_u8((t + chroma) >> 6), the sum saturating
 * (past 32767 is past 255 << 6 either way). */
static inline uint8x8_t fast_channel(int16x8_t t, int16x8_t c) { return vqmovun_s16(vshrq_n_s16(vqaddq_s16(t, c), 6)); }

/* 16 pixels a step: vld2 splits the (U, V) pairs, the luma term is
 * (Y * 257 * yg) >> 16 by a widening multiply and a narrowing shift. */
void tl_yuv_rgb_fast_ukernel__neon(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const tl_yuv_fast f = *r; /* a local: the byte stores could alias *r */
    const uint8x16_t yoff = vdupq_n_u8((uint8_t)f.yoff);
    const uint8x8_t c128 = vdup_n_u8(128);
    const uint16x4_t yg = vdup_n_u16((uint16_t)f.yg);
    const int16x8_t c32 = vdupq_n_s16(32);
    size_t x = 0;
    for (; x + 16 <= n; x += 16, rgb += 48) {
        uint8x16_t y = vqsubq_u8(vld1q_u8(f.y + x), yoff);
        uint8x16x2_t yy = vzipq_u8(y, y); /* Y * 257 as 16-bit values, pixels 0-7 and 8-15 */
        uint8x16x2_t uv = vld2q_u8(f.uv + 2 * x);
        uint8x16_t cu = f.vfirst ? uv.val[1] : uv.val[0], cv = f.vfirst ? uv.val[0] : uv.val[1];
        uint8x16x3_t o;
        uint8x8_t ch[3][2];
        for (int h = 0; h < 2; h++) {
            uint16x8_t y257 = vreinterpretq_u16_u8(yy.val[h]);
            uint16x8_t tu = vcombine_u16(vshrn_n_u32(vmull_u16(vget_low_u16(y257), yg), 16), vshrn_n_u32(vmull_u16(vget_high_u16(y257), yg), 16));
            int16x8_t t = vaddq_s16(vreinterpretq_s16_u16(tu), c32);
            int16x8_t u = vreinterpretq_s16_u16(vsubl_u8(h ? vget_high_u8(cu) : vget_low_u8(cu), c128));
            int16x8_t v = vreinterpretq_s16_u16(vsubl_u8(h ? vget_high_u8(cv) : vget_low_u8(cv), c128));
            ch[0][h] = fast_channel(t, vmulq_n_s16(v, (int16_t)f.cvr));
            ch[1][h] = fast_channel(t, vaddq_s16(vmulq_n_s16(u, (int16_t)f.cug), vmulq_n_s16(v, (int16_t)f.cvg)));
            ch[2][h] = fast_channel(t, vmulq_n_s16(u, (int16_t)f.cub));
        }
        for (int c = 0; c < 3; c++) o.val[c] = vcombine_u8(ch[c][0], ch[c][1]);
        vst3q_u8(rgb, o);
    }
    tl_yuv_fast rest = f;
    rest.y += x, rest.uv += 2 * x;
    tl_yuv_rgb_fast_ukernel__scalar(&rest, n - x, rgb);
}
#endif
