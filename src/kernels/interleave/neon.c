/* Interleave, de-interleave and RGB -> RGB0, NEON (AArch64 and Armv7): the
 * structure loads and stores (vld2/3/4, vst2/3/4) do the shuffling, for C =
 * 2, 3, 4 channels of 8-, 16- and 32-bit elements; a zero lane (a NULL plane)
 * is a zero register. 4 channels are also block pack/unpack with V = 4.
 * Pixels left over after the last whole vector are copied one by one. */
#if defined(__ARM_NEON)
#include <arm_neon.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/convert/affine8_neon.h"
#include "kernels/interleave/interleave_lut.h" /* tl_rows3 */
#include "kernels/move/move.h"                 /* tl_zero_bytes */

/* the remaining pixels, one by one */
static void ilv_rest(const uint8_t *const *pl, uint8_t *d, size_t i, size_t n, int c, size_t e)
{
    for (; i < n; i++)
        for (int k = 0; k < c; k++) {
            if (pl[k]) memcpy(d + (i * (size_t)c + (size_t)k) * e, pl[k] + i * e, e);
            else memset(d + (i * (size_t)c + (size_t)k) * e, 0, e);
        }
}

/* The tl_t2d_fn form: packed pixels (ds1 == C * E) go to the vector kernel,
 * pixels with padding lanes to plain copies. */
#define TL_NEON_ILV_T2D(t2d_fn, planes_fn, E, C)                                                  \
    void t2d_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,        \
                size_t n1, int stream);                                                           \
    void t2d_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,        \
                size_t n1, int stream)                                                            \
    {                                                                                             \
        (void)stream; \
        const uint8_t *planes[C];                                                                 \
        (void)n0;                                                                                 \
        for (int c = 0; c < C; c++) planes[c] = src + c * ss0;                                    \
        if (ds1 == C * E) {                                                                       \
            planes_fn(planes, dst, n1, stream);                                                   \
            return;                                                                               \
        }                                                                                         \
        for (size_t i = 0; i < n1; i++)                                                           \
            for (int c = 0; c < C; c++) memcpy(dst + (ptrdiff_t)i * ds1 + c * E, planes[c] + i * E, E); \
    }

/* C planes (NULL = zeros) -> packed pixels; L pixels per step. VT is the
 * vector type stem (uint8x16), SFX the intrinsic suffix, T the element type. */
#define TL_NEON_IL(fn, t2d_fn, E, C, L, VT, SFX, T)                                               \
    void fn(const uint8_t *const *pl, uint8_t *d, size_t n, int stream);                          \
    void fn(const uint8_t *const *pl, uint8_t *d, size_t n, int stream)                           \
    {                                                                                             \
        (void)stream; \
        size_t i = 0;                                                                             \
        for (; i + L <= n; i += L) {                                                              \
            VT##x##C##_t v;                                                                       \
            _Pragma("GCC unroll 4") for (int c = 0; c < C; c++)                                   \
                v.val[c] = pl[c] ? vld1q_##SFX((const T *)(pl[c] + E * i)) : vdupq_n_##SFX(0);    \
            vst##C##q_##SFX((T *)(d + C * E * i), v);                                             \
        }                                                                                         \
        ilv_rest(pl, d, i, n, C, E);                                                              \
    }                                                                                             \
    TL_NEON_ILV_T2D(t2d_fn, fn, E, C)

/* packed pixels (source stride ss0 == C * E) -> C planes (stride ds1);
 * other pixel strides by copies */
#define TL_NEON_DL(fn, E, C, L, VT, SFX, T)                                                        \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1, \
            int stream);                                                                          \
    void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1, \
            int stream)                                                                           \
    {                                                                                             \
        (void)stream; \
        size_t i = 0;                                                                             \
        (void)n1;                                                                                 \
        if (ss0 == C * E)                                                                         \
            for (; i + L <= n0; i += L) {                                                         \
                VT##x##C##_t v = vld##C##q_##SFX((const T *)(src + C * E * i));                   \
                _Pragma("GCC unroll 4") for (int c = 0; c < C; c++)                               \
                    vst1q_##SFX((T *)(dst + c * ds1 + E * i), v.val[c]);                          \
            }                                                                                     \
        for (; i < n0; i++)                                                                       \
            for (int c = 0; c < C; c++) memcpy(dst + c * ds1 + (ptrdiff_t)i * E, src + (ptrdiff_t)i * ss0 + c * E, E); \
    }

/* RGB -> RGB0: vld3 + vst4 with a zero register */
#define TL_NEON_RP301(fn, E, L, VT, SFX, T)                                                       \
    void fn(const uint8_t *src, uint8_t *dst, size_t n, int nt);                                  \
    void fn(const uint8_t *src, uint8_t *dst, size_t n, int nt)                                   \
    {                                                                                             \
        (void)nt;                                                                                 \
        size_t i = 0;                                                                             \
        for (; i + L <= n; i += L) {                                                              \
            VT##x3_t v = vld3q_##SFX((const T *)(src + 3 * E * i));                               \
            VT##x4_t o = {{v.val[0], v.val[1], v.val[2], vdupq_n_##SFX(0)}};                      \
            vst4q_##SFX((T *)(dst + 4 * E * i), o);                                               \
        }                                                                                         \
        for (; i < n; i++) {                                                                      \
            memcpy(dst + 4 * E * i, src + 3 * E * i, 3 * E);                                      \
            memset(dst + 4 * E * i + 3 * E, 0, E);                                                \
        }                                                                                         \
    }

TL_NEON_IL(tl_x8_interleave2_ukernel__neon, tl_x8_interleave2_t2d_ukernel__neon, 1, 2, 16, uint8x16, u8, uint8_t)
TL_NEON_IL(tl_x8_interleave3_ukernel__neon, tl_x8_interleave3_t2d_ukernel__neon, 1, 3, 16, uint8x16, u8, uint8_t)
TL_NEON_IL(tl_x8_interleave4_ukernel__neon, tl_x8_interleave4_t2d_ukernel__neon, 1, 4, 16, uint8x16, u8, uint8_t)
TL_NEON_IL(tl_x16_interleave2_ukernel__neon, tl_x16_interleave2_t2d_ukernel__neon, 2, 2, 8, uint16x8, u16, uint16_t)
TL_NEON_IL(tl_x16_interleave3_ukernel__neon, tl_x16_interleave3_t2d_ukernel__neon, 2, 3, 8, uint16x8, u16, uint16_t)
TL_NEON_IL(tl_x16_interleave4_ukernel__neon, tl_x16_interleave4_t2d_ukernel__neon, 2, 4, 8, uint16x8, u16, uint16_t)
TL_NEON_IL(tl_x32_interleave2_ukernel__neon, tl_x32_interleave2_t2d_ukernel__neon, 4, 2, 4, uint32x4, u32, uint32_t)
TL_NEON_IL(tl_x32_interleave3_ukernel__neon, tl_x32_interleave3_t2d_ukernel__neon, 4, 3, 4, uint32x4, u32, uint32_t)
TL_NEON_IL(tl_x32_interleave4_ukernel__neon, tl_x32_interleave4_t2d_ukernel__neon, 4, 4, 4, uint32x4, u32, uint32_t)

TL_NEON_DL(tl_x8_deinterleave2_ukernel__neon, 1, 2, 16, uint8x16, u8, uint8_t)
TL_NEON_DL(tl_x8_deinterleave3_ukernel__neon, 1, 3, 16, uint8x16, u8, uint8_t)
TL_NEON_DL(tl_x8_deinterleave4_ukernel__neon, 1, 4, 16, uint8x16, u8, uint8_t)
TL_NEON_DL(tl_x16_deinterleave2_ukernel__neon, 2, 2, 8, uint16x8, u16, uint16_t)
TL_NEON_DL(tl_x16_deinterleave3_ukernel__neon, 2, 3, 8, uint16x8, u16, uint16_t)
TL_NEON_DL(tl_x16_deinterleave4_ukernel__neon, 2, 4, 8, uint16x8, u16, uint16_t)
TL_NEON_DL(tl_x32_deinterleave2_ukernel__neon, 4, 2, 4, uint32x4, u32, uint32_t)
TL_NEON_DL(tl_x32_deinterleave3_ukernel__neon, 4, 3, 4, uint32x4, u32, uint32_t)
TL_NEON_DL(tl_x32_deinterleave4_ukernel__neon, 4, 4, 4, uint32x4, u32, uint32_t)

/* RGB -> RGB0 with the u8 <-> i8 saturation of identity quantizations in
 * the register (a byte minimum or maximum between the structure load and
 * store: the tl_map8 SAT code MAP, convert/affine8_neon.h): one step, no L1
 * tile and row conversion after it, the destination only stored to (NHWC
 * u8 -> kDLA_HWC4 i8 on a Jetson). */
#define TL_NEON_RP301_SAT(fn, MAP)                                                                \
    void fn(const uint8_t *src, uint8_t *dst, size_t n, int nt);                                  \
    void fn(const uint8_t *src, uint8_t *dst, size_t n, int nt)                                   \
    {                                                                                             \
        (void)nt;                                                                                 \
        size_t i = 0;                                                                             \
        for (; i + 16 <= n; i += 16) {                                                            \
            uint8x16x3_t v = vld3q_u8(src + 3 * i);                                               \
            uint8x16x4_t o = {{tl_map8_bytes(v.val[0], NULL, MAP), tl_map8_bytes(v.val[1], NULL, MAP), \
                               tl_map8_bytes(v.val[2], NULL, MAP), vdupq_n_u8(0)}};                \
            vst4q_u8(dst + 4 * i, o);                                                             \
        }                                                                                         \
        for (; i < n; i++) {                                                                      \
            for (int c = 0; c < 3; c++) dst[4 * i + c] = tl_map8_code(src[3 * i + c], NULL, MAP); \
            dst[4 * i + 3] = 0;                                                                   \
        }                                                                                         \
    }
TL_NEON_RP301_SAT(tl_u8_i8_repack3_0_1_ukernel__neon, TL_MAP8(TL_MAP8_SAT, 0, 1))
TL_NEON_RP301_SAT(tl_i8_u8_repack3_0_1_ukernel__neon, TL_MAP8(TL_MAP8_SAT, 1, 0))

TL_NEON_RP301(tl_x8_repack3_0_1_ukernel__neon, 1, 16, uint8x16, u8, uint8_t)
TL_NEON_RP301(tl_x16_repack3_0_1_ukernel__neon, 2, 8, uint16x8, u16, uint16_t)
TL_NEON_RP301(tl_x32_repack3_0_1_ukernel__neon, 4, 4, uint32x4, u32, uint32_t)
/* ---- rows of 3-channel bytes in one call, through an affine byte map ---------------- */
/* map: a tl_map8 code (kernels.h), a constant in each instantiation */
static inline __attribute__((always_inline)) void dilv_rows(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                            const tl_cvt *cv, const tl_aff8n *k, int map)
{
    const size_t n = g->n;
    const ptrdiff_t pl = g->plane;
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->packed_row;
        uint8_t *d = dst + (ptrdiff_t)r * g->plane_row;
        size_t i = 0;
        for (;; i += 16) {
            if (i + 16 > n) {
                if (i == n || n < 16) break;
                i = n - 16; /* the last 16 again: same values */
            }
            uint8x16x3_t v = vld3q_u8(s + 3 * i);
            for (int c = 0; c < 3; c++) vst1q_u8(d + c * pl + (ptrdiff_t)i, tl_map8_bytes(v.val[c], k, map));
            if (i + 16 == n) break;
        }
        if (n < 16)
            for (i = 0; i < n; i++)
                for (int c = 0; c < 3; c++) d[c * pl + (ptrdiff_t)i] = tl_map8_code(s[3 * i + (size_t)c], cv, map);
        for (int c = 0; c < 3; c++) { /* a few bytes each: stores, not memset calls */
            tl_zero_bytes(d + c * pl - (ptrdiff_t)g->head, g->head);
            tl_zero_bytes(d + c * pl + (ptrdiff_t)n, g->tail);
        }
    }
}

static inline __attribute__((always_inline)) void ilv_rows(const uint8_t *src, uint8_t *dst, const tl_rows3 *g,
                                                           const tl_cvt *cv, const tl_aff8n *k, int map)
{
    const size_t n = g->n;
    const ptrdiff_t pl = g->plane;
    for (size_t r = 0; r < g->rows; r++) {
        const uint8_t *s = src + (ptrdiff_t)r * g->plane_row;
        uint8_t *d = dst + (ptrdiff_t)r * g->packed_row;
        size_t i = 0;
        for (;; i += 16) {
            if (i + 16 > n) {
                if (i == n || n < 16) break;
                i = n - 16; /* the last 16 again: same values */
            }
            uint8x16x3_t v = {{tl_map8_bytes(vld1q_u8(s + i), k, map), tl_map8_bytes(vld1q_u8(s + pl + (ptrdiff_t)i), k, map),
                               tl_map8_bytes(vld1q_u8(s + 2 * pl + (ptrdiff_t)i), k, map)}};
            vst3q_u8(d + 3 * i, v);
            if (i + 16 == n) break;
        }
        if (n < 16)
            for (i = 0; i < n; i++)
                for (int c = 0; c < 3; c++) {
                    uint8_t x = s[c * pl + (ptrdiff_t)i];
                    d[3 * i + (size_t)c] = tl_map8_code(x, cv, map);
                }
    }
}

/* Rows of packed 3-byte pixels into 3 planes (tl_rows3: TIDL's padded
 * planes, each planar row's padding zeroed) in one call, the plan's affine
 * byte map (cv; NULL: a plain move) applied to each plane's register: the
 * 2d executor otherwise converted each image row into an L1 tile and
 * de-interleaved it in a second call. A row's last pixels: one overlapping
 * step. */
void tl_x8_deinterleave3_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv)
{
    const int map = cv ? tl_map8_of(cv) : TL_MAP8_MOVE;
    const tl_aff8n k = tl_map8_init(cv, map);
#define TL_DILV(M) dilv_rows(src, dst, g, cv, &k, M)
    TL_MAP8_SWITCH(map, TL_DILV)
#undef TL_DILV
}

/* The way back: 3 planar rows (the padding not read) into rows of packed
 * pixels, the same map in the registers. */
void tl_x8_interleave3_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_rows3 *g, const tl_cvt *cv)
{
    const int map = cv ? tl_map8_of(cv) : TL_MAP8_MOVE;
    const tl_aff8n k = tl_map8_init(cv, map);
#define TL_ILV(M) ilv_rows(src, dst, g, cv, &k, M)
    TL_MAP8_SWITCH(map, TL_ILV)
#undef TL_ILV
}
#endif
