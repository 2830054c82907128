/* The move family in portable C: fixed-size memcpy per element, so each is
 * one load and one store (a memcpy of a variable size is a libc call). */
#include "kernels/move/move.h"

#define TL_COPY2D(name, E)                                                                            \
    void name(const uint8_t *s, uint8_t *d, size_t n_out, ptrdiff_t ss_out, ptrdiff_t ds_out, size_t n_in, \
              ptrdiff_t ss_in, ptrdiff_t ds_in)                                                       \
    {                                                                                                 \
        for (size_t j = 0; j < n_out; j++, s += ss_out, d += ds_out) {                                \
            const uint8_t *sp = s;                                                                    \
            uint8_t *dp = d;                                                                          \
            for (size_t k = 0; k < n_in; k++, sp += ss_in, dp += ds_in) memcpy(dp, sp, E);            \
        }                                                                                             \
    }
TL_COPY2D(tl_x8_copy2d_ukernel__scalar, 1)
TL_COPY2D(tl_x16_copy2d_ukernel__scalar, 2)
TL_COPY2D(tl_x32_copy2d_ukernel__scalar, 4)
TL_COPY2D(tl_x64_copy2d_ukernel__scalar, 8)

/* One load, two stores, no inner loop (4:2:0 chroma to full resolution). */
#define TL_DUP2D(name, E)                                                             \
    void name(const uint8_t *s, uint8_t *d, size_t n, ptrdiff_t ss, ptrdiff_t ds)     \
    {                                                                                 \
        for (size_t j = 0; j < n; j++, s += ss, d += ds) {                            \
            uint8_t v[E];                                                             \
            memcpy(v, s, E);                                                          \
            memcpy(d, v, E);                                                          \
            memcpy(d + E, v, E);                                                      \
        }                                                                             \
    }
TL_DUP2D(tl_x8_dup2d_ukernel__scalar, 1)
TL_DUP2D(tl_x16_dup2d_ukernel__scalar, 2)
TL_DUP2D(tl_x32_dup2d_ukernel__scalar, 4)
TL_DUP2D(tl_x64_dup2d_ukernel__scalar, 8)

/* 4 samples per 64-bit word: keep the even bytes and copy each into the odd
 * byte above it. Little-endian only (the byte order of the lanes); the last
 * group goes byte by byte, so no read passes the last sample. */
void tl_x8_dup_even_ukernel__scalar(const uint8_t *s, uint8_t *d, size_t n)
{
    size_t j = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; j + 4 < n; j += 4) {
        uint64_t v;
        memcpy(&v, s + 2 * j, 8);
        v &= 0x00FF00FF00FF00FFull;
        v |= v << 8;
        memcpy(d + 2 * j, &v, 8);
    }
#endif
    for (; j < n; j++) d[2 * j] = d[2 * j + 1] = s[2 * j];
}

/* The even bytes of u and v interleaved, 4 pairs per 64-bit word (the same
 * byte order and last group as above). */
void tl_x8_zip_even_ukernel__scalar(const uint8_t *u, const uint8_t *v, uint8_t *d, size_t n)
{
    size_t j = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; j + 4 < n; j += 4) {
        uint64_t a, b;
        memcpy(&a, u + 2 * j, 8);
        memcpy(&b, v + 2 * j, 8);
        a = (a & 0x00FF00FF00FF00FFull) | (b & 0x00FF00FF00FF00FFull) << 8;
        memcpy(d + 2 * j, &a, 8);
    }
#endif
    for (; j < n; j++) d[2 * j] = u[2 * j], d[2 * j + 1] = v[2 * j];
}

/* The same into `rows` rows ds apart (4:2:0 chroma: each chroma row is two
 * image rows), each expanded from the source again: copying the first
 * expanded row would read the destination, which may be an uncached
 * dma-buf (docs/deploy.md, "Never reading the destination"). */
void tl_x8_dup_even_rows_ukernel__scalar(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    for (size_t r = 0; r < rows; r++) tl_x8_dup_even_ukernel__scalar(s, d + (ptrdiff_t)r * ds, n);
}

/* Both planes of an interleaved chroma row (the odd bytes are the second
 * plane's, whose rows start pd after the first's). */
void tl_x8_dup_even_rows2_ukernel__scalar(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                          ptrdiff_t pd)
{
    tl_x8_dup_even_rows_ukernel__scalar(s, d, n, rows, ds);
    tl_x8_dup_even_rows_ukernel__scalar(s + 1, d + pd, n, rows, ds);
}

/* W-byte moves with a constant W: each pixel is one to eight word loads and
 * stores. */
#define TL_SPREAD(name, W)                                                                             \
    void name(const uint8_t *t, size_t rd, uint8_t *d, ptrdiff_t ds, size_t m, const uint8_t *mask)    \
    {                                                                                                  \
        uint64_t mw[(W + 7) / 8];                                                                      \
        memcpy(mw, mask, W);                                                                           \
        for (size_t i = 0; i < m; i++, t += rd, d += ds)                                               \
            for (size_t w = 0; w < W; w += sizeof(uint64_t) < W ? 8 : W) {                             \
                uint64_t v = 0;                                                                        \
                memcpy(&v, t + w, W < 8 ? W : 8);                                                      \
                v &= mw[w / 8];                                                                        \
                memcpy(d + w, &v, W < 8 ? W : 8);                                                      \
            }                                                                                          \
    }
#define TL_GATHER(name, W)                                                                             \
    void name(const uint8_t *s, ptrdiff_t ss, uint8_t *t, size_t rs, size_t m)                         \
    {                                                                                                  \
        for (size_t i = 0; i < m; i++, s += ss, t += rs) memcpy(t, s, W);                              \
    }
TL_SPREAD(tl_spread4_ukernel__scalar, 4)
TL_SPREAD(tl_spread8_ukernel__scalar, 8)
TL_SPREAD(tl_spread16_ukernel__scalar, 16)
TL_SPREAD(tl_spread32_ukernel__scalar, 32)
TL_SPREAD(tl_spread64_ukernel__scalar, 64)
TL_GATHER(tl_gather4_ukernel__scalar, 4)
TL_GATHER(tl_gather8_ukernel__scalar, 8)
TL_GATHER(tl_gather16_ukernel__scalar, 16)
TL_GATHER(tl_gather32_ukernel__scalar, 32)
TL_GATHER(tl_gather64_ukernel__scalar, 64)

/* The shuffle spreads' plan (AVX2 vpshufb, NEON tbl: 16-byte lanes, each
 * loaded where its first pixel's bytes start): whether the pixels fit, and
 * one lane's control, index 0x80 a zero byte. Pixels of w <= 16 bytes are
 * 16 / w to a lane; wider ones hold their bytes in the first 16. */
int tl_spread_fits16(unsigned w, const uint8_t *mask)
{
    if (w != 4 && w != 8 && w != 16 && w != 32 && w != 64) return 0;
    for (unsigned o = 16; o < w; o++)
        if (mask[o]) return 0;
    return 1;
}

void tl_spread_ctl16(uint8_t ctl[16], unsigned w, size_t rd, const uint8_t *mask)
{
    for (unsigned b = 0; b < 16; b++) {
        unsigned o = w < 16 ? b % w : b, q = w < 16 ? b / w : 0;
        ctl[b] = mask[o] ? (uint8_t)(q * rd + o) : 0x80;
    }
}

void tl_stream_copy_ukernel__scalar(uint8_t *d, const uint8_t *s, size_t n) { memcpy(d, s, n); }

#if !defined(__x86_64__) && !defined(_M_X64)
void tl_store_fence(void) {}
#endif
