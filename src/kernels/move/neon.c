/* The move family on NEON: the gather of 4-byte pixels to their first 3
 * (AArch64 and Armv7), and the streaming copy (AArch64; move.h): whole 64-byte
 * destination lines with STNP, the non-temporal store pair, the partial
 * lines at the ends with memcpy. Armv7 has no non-temporal store: it keeps
 * the scalar entry (memcpy). No fence is needed after STNP on AArch64
 * (tl_store_fence stays empty there). */
#if defined(__aarch64__)
#include <arm_neon.h>

#include "kernels/move/move.h"

void tl_stream_copy_ukernel__neon(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t i = tl_stream_head(d, s, n);
    for (; i + 64 <= n; i += 64) {
        uint8x16_t a = vld1q_u8(s + i), b = vld1q_u8(s + i + 16), c = vld1q_u8(s + i + 32), e = vld1q_u8(s + i + 48);
        __asm__ volatile("stnp %q1, %q2, [%0]\n\tstnp %q3, %q4, [%0, #32]"
                         :
                         : "r"(d + i), "w"(a), "w"(b), "w"(c), "w"(e)
                         : "memory");
    }
    memcpy(d + i, s + i, n - i);
}
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
#include <arm_neon.h>

#include "kernels/move/move.h"

/* m pixels of 4 bytes, dense in s, to their first 3 bytes, dense in d
 * (kDLA_HWC4 i8 into an RGB image): one vld4 and one vst3 per 16 pixels,
 * the u8 <-> i8 saturation of identity quantizations between them (sat: 1
 * to i8, 2 to u8, 0 none). The last pixel is copied on its own: its stride
 * may end past the buffer. */
static inline uint8x16_t gather_sat(uint8x16_t x, int sat)
{
    if (sat == 1) return vminq_u8(x, vdupq_n_u8(127));
    if (sat == 2) return vreinterpretq_u8_s8(vmaxq_s8(vreinterpretq_s8_u8(x), vdupq_n_s8(0)));
    return x;
}

static inline __attribute__((always_inline)) void gather4_3(const uint8_t *s, uint8_t *d, size_t m, int sat)
{
    size_t i = 0;
    for (; i + 16 < m; i += 16) {
        uint8x16x4_t v = vld4q_u8(s + 4 * i);
        uint8x16x3_t o = {{gather_sat(v.val[0], sat), gather_sat(v.val[1], sat), gather_sat(v.val[2], sat)}};
        vst3q_u8(d + 3 * i, o);
    }
    for (; i < m; i++)
        for (int c = 0; c < 3; c++) {
            uint8_t x = s[4 * i + (size_t)c];
            d[3 * i + (size_t)c] = sat == 1 ? (x > 127 ? 127 : x) : sat == 2 ? (x > 127 ? 0 : x) : x;
        }
}

void tl_x8_gather4_3_ukernel__neon(const uint8_t *s, uint8_t *d, size_t m, int sat)
{
    if (sat == 1) gather4_3(s, d, m, 1);
    else if (sat == 2) gather4_3(s, d, m, 2);
    else gather4_3(s, d, m, 0);
}
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
/* dup even into rows (AArch64 and Armv7): vld2 splits 16 pairs of an
 * interleaved chroma row into its even and odd bytes, vst2 writes one of
 * them twice (each sample doubled), into every image row it covers. Only
 * the readable bytes are read (one plane: up to its last sample); the last
 * samples of a row go byte by byte. The destination is only stored to. */
static inline __attribute__((always_inline)) void dup_even_rows(const uint8_t *s, uint8_t *d, size_t n, size_t rows,
                                                                ptrdiff_t ds, int planes, ptrdiff_t pd)
{
    size_t got = n ? 2 * n - (planes == 1) : 0, j = 0;
    for (; 2 * j + 32 <= got; j += 16) {
        uint8x16x2_t x = vld2q_u8(s + 2 * j);
        for (int c = 0; c < planes; c++) {
            uint8x16x2_t v = {{x.val[c], x.val[c]}};
            for (size_t r = 0; r < rows; r++) vst2q_u8(d + c * pd + (ptrdiff_t)r * ds + 2 * j, v);
        }
    }
    tl_dup_even_rows_tail(s, d, j, n, rows, ds, planes, pd);
}

void tl_x8_dup_even_rows_ukernel__neon(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds, 1, 0);
}

void tl_x8_dup_even_rows2_ukernel__neon(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd)
{
    dup_even_rows(s, d, n, rows, ds, 2, pd);
}
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
/* Pixel spreads by a table lookup per 16 bytes (the AVX2 spread's scheme,
 * move/avx2.c): pixels of w <= 16 bytes, 16 / w of them a register, loaded
 * from where the first one's bytes start and placed by one tbl (AArch64
 * vqtbl1q, Armv7 two vtbl2); wider pixels hold their bytes in the first 16,
 * the rest zero. Index 0x80 is out of the table: a zero lane. */
static inline uint8x16_t spread_lookup(const uint8_t *t, uint8x16_t c)
{
#if defined(__aarch64__)
    return vqtbl1q_u8(vld1q_u8(t), c);
#else
    uint8x16_t x = vld1q_u8(t);
    uint8x8x2_t tab = {{vget_low_u8(x), vget_high_u8(x)}};
    return vcombine_u8(vtbl2_u8(tab, vget_low_u8(c)), vtbl2_u8(tab, vget_high_u8(c)));
#endif
}

/* w is a constant once inlined: the loop keeps no multiply or inner loop */
static inline __attribute__((always_inline)) void spread_w(const uint8_t *t, size_t rd, uint8_t *d, size_t m,
                                                           const unsigned w, const uint8_t *mask, uint8x16_t c)
{
    const uint8x16_t z = vdupq_n_u8(0);
    const size_t per = w < 16 ? 16 / w : 1; /* pixels per 16-byte step */
    size_t i = 0;
    for (; i + per <= m; i += per, t += per * rd, d += per * w) {
        vst1q_u8(d, spread_lookup(t, c));
        if (w >= 32) vst1q_u8(d + 16, z);
        if (w == 64) vst1q_u8(d + 32, z), vst1q_u8(d + 48, z);
    }
    for (; i < m; i++, t += rd, d += w)
        for (unsigned o = 0; o < w; o++) d[o] = mask[o] ? t[o] : 0;
}

void tl_spread_ukernel__neon(const uint8_t *t, size_t rd, uint8_t *d, size_t m, unsigned w, const uint8_t *mask,
                             const uint8_t *ctl)
{
    const uint8x16_t c = vld1q_u8(ctl);
    switch (w) {
    case 4: spread_w(t, rd, d, m, 4, mask, c); break;
    case 8: spread_w(t, rd, d, m, 8, mask, c); break;
    case 16: spread_w(t, rd, d, m, 16, mask, c); break;
    case 32: spread_w(t, rd, d, m, 32, mask, c); break;
    default: spread_w(t, rd, d, m, 64, mask, c); break;
    }
}
#endif
