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

#include "kernels/convert/affine8_neon.h"

/* ---- 3-byte pixels <-> pixels of w = 4, 8, 16 or 32 bytes (AArch64 and Armv7) ----
 * An RGB image into the first 3 bytes of each wider pixel, the rest zero
 * (RKNN NC1HWC2, TensorRT kCHW32 and kDLA_HWC4 with 3 channels), and back:
 * 16 pixels a step by structure loads and stores, the plan's byte map in
 * the registers: map is a tl_map8 code (kernels.h; tl_map8_of).
 * Per 16 pixels, qemu-aarch64: a vld3, the map, 4 zips, 4 or 8 vst4 (into
 * NC1HWC2); the tile, a table spread and a convert row cost 0.47
 * instructions per byte before. */
/* 16 pixels of w bytes: their first 3 bytes as 3 planes. Wider than 4:
 * each pixel's first word by de-interleaving loads, then 2 rounds of byte
 * unzips. Reads the 16 pixels whole. */
static inline __attribute__((always_inline)) uint8x16x3_t load_px16(const uint8_t *s, unsigned w, const tl_aff8n *k,
                                                                     int map)
{
    if (w == 4) {
        uint8x16x4_t v = vld4q_u8(s);
        uint8x16x3_t o = {{tl_map8_bytes(v.val[0], k, map), tl_map8_bytes(v.val[1], k, map), tl_map8_bytes(v.val[2], k, map)}};
        return o;
    }
    uint8x16_t q[4];
    for (int j = 0; j < 4; j++) {
        const uint32_t *p = (const uint32_t *)(const void *)(s + 4 * (size_t)j * w);
        uint32x4_t x = w == 8    ? vld2q_u32(p).val[0]
                       : w == 16 ? vld4q_u32(p).val[0]
                                 : vuzpq_u32(vld4q_u32(p).val[0], vld4q_u32(p + 16).val[0]).val[0];
        q[j] = vreinterpretq_u8_u32(x);
    }
    /* the map before the unzips (bytes keep their values): 4 registers, not
     * 3, but the unzips' results go to vst3 as they are (mapped after them,
     * GCC moved them through the stack on Armv7) */
    if (TL_MAP8_OP(map) != TL_MAP8_WIDE)
        for (int j = 0; j < 4; j++) q[j] = tl_map8_bytes(q[j], k, map);
    uint8x16x2_t a = vuzpq_u8(q[0], q[1]), b = vuzpq_u8(q[2], q[3]); /* (c0 c2), (c1 c3) */
    uint8x16x2_t e = vuzpq_u8(a.val[0], b.val[0]), o = vuzpq_u8(a.val[1], b.val[1]);
    uint8x16x3_t v = {{e.val[0], o.val[0], e.val[1]}};
    if (TL_MAP8_OP(map) == TL_MAP8_WIDE)
        for (int c = 0; c < 3; c++) v.val[c] = tl_map8_bytes(v.val[c], k, map);
    return v;
}

/* 3 planes of 16 pixels into pixels of w bytes, the rest of each zero */
static inline __attribute__((always_inline)) void store_px16(uint8_t *d, unsigned w, uint8x16x3_t v)
{
    const uint8x16_t z = vdupq_n_u8(0);
    if (w == 4) {
        uint8x16x4_t o = {{v.val[0], v.val[1], v.val[2], z}};
        vst4q_u8(d, o);
        return;
    }
    uint8x16x2_t rg = vzipq_u8(v.val[0], v.val[1]), bz = vzipq_u8(v.val[2], z);
    uint16x8x2_t lo = vzipq_u16(vreinterpretq_u16_u8(rg.val[0]), vreinterpretq_u16_u8(bz.val[0]));
    uint16x8x2_t hi = vzipq_u16(vreinterpretq_u16_u8(rg.val[1]), vreinterpretq_u16_u8(bz.val[1]));
    const uint32x4_t q[4] = {vreinterpretq_u32_u16(lo.val[0]), vreinterpretq_u32_u16(lo.val[1]),
                             vreinterpretq_u32_u16(hi.val[0]), vreinterpretq_u32_u16(hi.val[1])};
    const uint32x4_t zz = vdupq_n_u32(0);
    for (int j = 0; j < 4; j++) {
        uint32_t *p = (uint32_t *)(void *)(d + 4 * (size_t)j * w);
        if (w == 8) {
            uint32x4x2_t o = {{q[j], zz}};
            vst2q_u32(p, o);
        } else if (w == 16) {
            uint32x4x4_t o = {{q[j], zz, zz, zz}};
            vst4q_u32(p, o);
        } else { /* a word and 7 zero words a pixel: two pixels per vst4 */
            uint32x4x2_t h = vzipq_u32(q[j], zz);
            uint32x4x4_t o0 = {{h.val[0], zz, zz, zz}}, o1 = {{h.val[1], zz, zz, zz}};
            vst4q_u32(p, o0);
            vst4q_u32(p + 16, o1);
        }
    }
}

static inline __attribute__((always_inline)) uint8x16x3_t map_px16(uint8x16x3_t v, const tl_aff8n *k, int map)
{
    for (int c = 0; c < 3; c++) v.val[c] = tl_map8_bytes(v.val[c], k, map);
    return v;
}

/* No step reads the last pixel (its stride may end past the buffer): the
 * steps stop one pixel short, one overlapping step covers the 16 before
 * it, the last pixel goes byte by byte. */
static inline __attribute__((always_inline)) void gather3(const uint8_t *s, unsigned w, uint8_t *d, size_t m,
                                                          const tl_cvt *cv, const tl_aff8n *k, int map)
{
    size_t i = 0;
    if (m > 16) {
        for (; i + 17 <= m; i += 16) vst3q_u8(d + 3 * i, load_px16(s + i * w, w, k, map));
        if (i + 1 < m) /* the 16 before the last again: same values */
            vst3q_u8(d + 3 * (m - 17), load_px16(s + (m - 17) * w, w, k, map));
        i = m - 1;
    }
    for (; i < m; i++)
        for (int c = 0; c < 3; c++) d[3 * i + (size_t)c] = tl_map8_code(s[i * w + (size_t)c], cv, map);
}

static inline __attribute__((always_inline)) void spread3(const uint8_t *s, uint8_t *d, size_t m, unsigned w,
                                                          const tl_cvt *cv, const tl_aff8n *k, int map)
{
    if (m >= 16) {
        size_t i = 0;
        for (; i + 16 <= m; i += 16) store_px16(d + i * w, w, map_px16(vld3q_u8(s + 3 * i), k, map));
        if (i < m) /* the last 16 again: same values */
            store_px16(d + (m - 16) * w, w, map_px16(vld3q_u8(s + 3 * (m - 16)), k, map));
        return;
    }
    for (size_t i = 0; i < m; i++) {
        for (int c = 0; c < 3; c++) d[i * w + (size_t)c] = tl_map8_code(s[3 * i + (size_t)c], cv, map);
        memset(d + i * w + 3, 0, w - 3);
    }
}

/* the map and the pixel width constants in each instantiation: the loops
 * carry no tests */
#define TL_W_SWITCH(w, CALL, M)                                                                   \
    switch (w) {                                                                                  \
    case 4: CALL(M, 4); break;                                                                    \
    case 8: CALL(M, 8); break;                                                                    \
    case 16: CALL(M, 16); break;                                                                  \
    default: CALL(M, 32); break;                                                                  \
    }

void tl_x8_gather3_ukernel__neon(const uint8_t *s, size_t ss, uint8_t *d, size_t m, const tl_cvt *cv, int map)
{
    const tl_aff8n k = tl_map8_init(cv, map);
#define TL_GATHER3(M, W) gather3(s, W, d, m, cv, &k, M)
#define TL_GATHER3_W(M) TL_W_SWITCH(ss, TL_GATHER3, M)
    TL_MAP8_SWITCH(map, TL_GATHER3_W)
#undef TL_GATHER3_W
#undef TL_GATHER3
}

void tl_x8_spread3_ukernel__neon(const uint8_t *s, uint8_t *d, size_t m, size_t ds, const tl_cvt *cv, int map)
{
    const tl_aff8n k = tl_map8_init(cv, map);
#define TL_SPREAD3(M, W) spread3(s, d, m, W, cv, &k, M)
#define TL_SPREAD3_W(M) TL_W_SWITCH(ds, TL_SPREAD3, M)
    TL_MAP8_SWITCH(map, TL_SPREAD3_W)
#undef TL_SPREAD3_W
#undef TL_SPREAD3
}
#undef TL_W_SWITCH
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
/* dup even into rows (AArch64 and Armv7): vld2 splits 16 pairs of an
 * interleaved chroma row into its even and odd bytes, vst2 writes one of
 * them twice (each sample doubled), into every image row it covers. Only
 * the readable bytes are read (one plane: up to its last sample). Where the
 * row holds a step, its end is one more step ending at its last readable
 * byte (over the one before it: the same bytes again), as on x86
 * (dup_even_x86.h); what is left (one plane: its last sample) goes byte by
 * byte. The destination is only stored to. */
static inline __attribute__((always_inline)) void dup_even_step(const uint8_t *s, uint8_t *d, size_t j, size_t rows,
                                                                ptrdiff_t ds, int planes, ptrdiff_t pd)
{
    uint8x16x2_t x = vld2q_u8(s + 2 * j);
    for (int c = 0; c < planes; c++) {
        uint8x16x2_t v = {{x.val[c], x.val[c]}};
        for (size_t r = 0; r < rows; r++) vst2q_u8(d + c * pd + (ptrdiff_t)r * ds + 2 * j, v);
    }
}

static inline __attribute__((always_inline)) void dup_even_rows_n(const uint8_t *s, uint8_t *d, size_t n, size_t rows,
                                                                  ptrdiff_t ds, int planes, ptrdiff_t pd)
{
    size_t got = n ? 2 * n - (planes == 1) : 0, j = 0;
    for (; 2 * j + 32 <= got; j += 16) dup_even_step(s, d, j, rows, ds, planes, pd);
    if (j < n && j > 0) {
        j = (got - 32) / 2;
        dup_even_step(s, d, j, rows, ds, planes, pd);
        j += 16;
    }
    tl_dup_even_rows_tail(s, d, j, n, rows, ds, planes, pd);
}

/* Two image rows a chroma row (4:2:0) as a constant: a step's stores
 * unrolled instead of a loop over the rows (NV12 -> YUV 4:4:4 CHW at 296 x
 * 296, instructions a run on AArch64: 91543 -> 52027; with the end step
 * above, from 114649) */
static inline __attribute__((always_inline)) void dup_even_rows(const uint8_t *s, uint8_t *d, size_t n, size_t rows,
                                                                ptrdiff_t ds, int planes, ptrdiff_t pd)
{
    if (rows == 2) dup_even_rows_n(s, d, n, 2, ds, planes, pd);
    else dup_even_rows_n(s, d, n, rows, ds, planes, pd);
}

void tl_x8_dup_even_rows_ukernel__neon(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds, 1, 0);
}

void tl_x8_dup_even_rows2_ukernel__neon(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd)
{
    dup_even_rows(s, d, n, rows, ds, 2, pd);
}

/* zip even (two planes into an interleaved chroma pair, YUV 4:4:4 -> NV12):
 * vld2 keeps each row's 16 even bytes, vst2 interleaves the two. Whole steps
 * while a step's 32 bytes are readable (2n - 1 of each row), then one step
 * ending at the last readable byte, then the last sample. */
static inline __attribute__((always_inline)) void zip_even_step(const uint8_t *u, const uint8_t *v, uint8_t *d,
                                                                size_t j)
{
    uint8x16x2_t o = {{vld2q_u8(u + 2 * j).val[0], vld2q_u8(v + 2 * j).val[0]}};
    vst2q_u8(d + 2 * j, o);
}

void tl_x8_zip_even_ukernel__neon(const uint8_t *u, const uint8_t *v, uint8_t *d, size_t n)
{
    size_t got = n ? 2 * n - 1 : 0, j = 0;
    for (; 2 * j + 32 <= got; j += 16) zip_even_step(u, v, d, j);
    if (j < n && j > 0) {
        j = (got - 32) / 2;
        zip_even_step(u, v, d, j);
        j += 16;
    }
    for (; j < n; j++) d[2 * j] = u[2 * j], d[2 * j + 1] = v[2 * j];
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
