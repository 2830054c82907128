/* The real value of an image element, the first step of the vector encode
 * (src/image/encode.c): x = ((float)v - mean[c]) / std[c] in f32 for u8
 * values v of a row of interleaved channels, as numpy's
 * (img.astype(np.float32) - mean) / std. The element rule (dtype,
 * quantization) is the engine's convert kernels' job afterwards.
 *
 * Constants are per lane with a period of 48 values (a multiple of 1, 3 and
 * 4 channels and of every vector width): value i of a call uses lane i % 48,
 * so a call starts on a pixel's first channel and lane k holds channel
 * k % dc. Three forms of the division, each the same f32 quotient when the
 * plan picks it (the plan checks every u8 value of every channel against the
 * scalar division and falls back to the next form, src/image/encode.c):
 *   MUL  a * (1 / std)   (exact for std = 1, powers of two, some others)
 *   FMA  q = a * r; q += fma(-q, std, a) * r, both fused (Markstein's
 *        correction of the reciprocal's quotient)
 *   DIV  a / std         (IEEE division, exact by definition)
 * Not installed. */
#ifndef TL_KERNELS_IMAGE_ENCODE_H
#define TL_KERNELS_IMAGE_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#define TL_REAL_PERIOD 48

enum { TL_REAL_MUL = 1, TL_REAL_FMA = 2, TL_REAL_DIV = 4 };

typedef struct tl_img_real {
    int mode;                       /* one of TL_REAL_* */
    float mean[TL_REAL_PERIOD];     /* lane k: mean of channel k % dc */
    float std[TL_REAL_PERIOD];
    float rcp[TL_REAL_PERIOD];      /* 1.0f / std, rounded once */
} tl_img_real;

/* dst[i] = ((float)src[i] - mean[i % 48]) / std[i % 48] by r->mode. */
typedef void (*tl_img_real_fn)(const uint8_t *src, float *dst, size_t n, const tl_img_real *r);

typedef struct tl_img_real_kernel {
    const char *name;
    int isa;                        /* TL_ISA_* */
    int modes;                      /* TL_REAL_* forms it has */
    tl_img_real_fn fn;
} tl_img_real_kernel;

void tl_u8_real_ukernel__scalar(const uint8_t *src, float *dst, size_t n, const tl_img_real *r);
void tl_u8_real_ukernel__sse2(const uint8_t *src, float *dst, size_t n, const tl_img_real *r);
void tl_u8_real_ukernel__avx2(const uint8_t *src, float *dst, size_t n, const tl_img_real *r);
void tl_u8_real_ukernel__avx512(const uint8_t *src, float *dst, size_t n, const tl_img_real *r);
void tl_u8_real_ukernel__neon(const uint8_t *src, float *dst, size_t n, const tl_img_real *r);

/* The loop every vector form shares: 16 values a step by `step16` at its
 * place k in the period, the tail through the same step from and to a
 * stack buffer (nothing past n is read or written). Inlined into each
 * kernel, so the step is a direct call compiled for the kernel's ISA. */
typedef void (*tl_real16_fn)(const uint8_t *s, float *d, const tl_img_real *r, size_t k);
static inline void tl_real_loop(const uint8_t *src, float *dst, size_t n, const tl_img_real *r, tl_real16_fn step16)
{
    size_t i = 0, k = 0;
    for (; i + 16 <= n; i += 16, k = k + 16 == TL_REAL_PERIOD ? 0 : k + 16) step16(src + i, dst + i, r, k);
    if (i == n) return;
    uint8_t s[16] = {0};
    float d[16];
    for (size_t j = 0; j < n - i; j++) s[j] = src[i + j];
    step16(s, d, r, k);
    for (size_t j = 0; j < n - i; j++) dst[i + j] = d[j];
}

/* ---- expanding packed elements into padded pixels --------------------- */
/* n pixels of `bytes` packed bytes (in, with 64 bytes of slack after the
 * last pixel: kernels load whole vectors) to pixels of ps bytes whose bytes
 * [at, at + bytes) are the packed ones and the rest zero: RGB elements into
 * NC1HWC2's 16-byte pixel, HWC4's pad channel. The vector kernels take
 * at = 0, bytes <= 16 and ps in {4, 8, 16, 32, 64} (tl_img_expand_vector);
 * ctl and idx are their byte shuffles, made by tl_img_expand_init. */
typedef struct tl_img_expand {
    int bytes, ps, at;
    uint8_t ctl[16];                /* 16-byte steps: output byte t <- window byte ctl[t] (0x80: zero) */
    uint8_t idx[64];                /* 64-byte steps: output byte j <- window byte idx[j] ... */
    uint64_t keep;                  /* ... where bit j is set, else zero */
} tl_img_expand;

typedef void (*tl_img_expand_fn)(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out);

static inline int tl_img_expand_vector(const tl_img_expand *x)
{
    return x->at == 0 && x->bytes <= 16 && x->bytes < x->ps &&
           (x->ps == 4 || x->ps == 8 || x->ps == 16 || x->ps == 32 || x->ps == 64);
}

static inline void tl_img_expand_init(tl_img_expand *x, int bytes, int ps, int at)
{
    x->bytes = bytes, x->ps = ps, x->at = at, x->keep = 0;
    for (int t = 0; t < 16; t++) { /* ps <= 16: 16 / ps pixels a step; ps > 16: the pixel's first 16 bytes */
        int p = ps < 16 ? t / ps : 0, o = ps < 16 ? t % ps : t;
        x->ctl[t] = o < bytes ? (uint8_t)(p * bytes + o) : 0x80;
    }
    for (int j = 0; j < 64; j++) {
        int p = j / ps, o = j % ps;
        x->idx[j] = o < bytes ? (uint8_t)(p * bytes + o) : 0;
        if (o < bytes) x->keep |= (uint64_t)1 << j;
    }
}

void tl_x8_expand_ukernel__scalar(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out);
void tl_x8_expand_ukernel__avx2(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out);
void tl_x8_expand_ukernel__avx512vbmi(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out);
void tl_x8_expand_ukernel__neon(const uint8_t *in, size_t n, const tl_img_expand *x, uint8_t *out);

/* ---- 8-bit codes straight into padded pixels ------------------------------
 * n pixels of dc u8 values (packed, px) to pixels of ps bytes whose bytes
 * [at, at + dc) are the channels' codes code[c][v] and the rest zero: RGB
 * into NC1HWC2's 16-byte pixel, RGB0 HWC4 int8. One step makes 16 pixels:
 * a load of their 16 dc bytes, the codes by byte-table lookups in registers,
 * ps / 4 output vectors by one byte permute each (pad bytes zeroed by its
 * mask). The tables are the plan's codes, the element rule itself, so the
 * kernel is exact by construction; made by tl_img_pix8_init. */
typedef struct tl_img_pix8 {
    int dc, ps, at;
    int tables;                     /* 0: the codes are the values; 1: one table for every channel; dc: one each */
    uint8_t code[4][256];           /* code[c][v] */
    uint8_t idx[16][64];            /* output vector o of a step: byte j <- code byte idx[o][j] of the step ... */
    uint64_t keep;                  /* ... where bit j is set, else zero */
    uint64_t chan[4];               /* bytes of a step's 16 packed pixels that hold channel c */
} tl_img_pix8;

typedef void (*tl_img_pix8_fn)(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out);

/* The shapes the vector kernels take: whole pixels in a 64-byte vector. */
static inline int tl_img_pix8_vector(int dc, int ps, int at)
{
    return dc >= 1 && dc <= 4 && at >= 0 && at + dc <= ps && (ps == 4 || ps == 8 || ps == 16 || ps == 32 || ps == 64);
}

static inline void tl_img_pix8_init(tl_img_pix8 *k, int dc, int ps, int at, const uint8_t code[][256])
{
    k->dc = dc, k->ps = ps, k->at = at, k->keep = 0;
    int same = 1, ident = 1;
    for (int c = 0; c < dc; c++)
        for (int v = 0; v < 256; v++) {
            k->code[c][v] = code[c][v];
            same &= code[c][v] == code[0][v], ident &= code[c][v] == v;
        }
    k->tables = ident ? 0 : same ? 1 : dc;
    for (int c = 0; c < 4; c++) {
        k->chan[c] = 0;
        for (int j = 0; j < 16 * dc && c < dc; j++)
            if (j % dc == c) k->chan[c] |= (uint64_t)1 << j;
    }
    for (int o = 0; o < 16; o++)
        for (int j = 0; j < 64; j++) {
            int b = o * 64 + j, p = b / ps, l = b % ps - at;
            int real = p < 16 && l >= 0 && l < dc;
            k->idx[o][j] = real ? (uint8_t)(p * dc + l) : 0;
            if (o == 0 && real) k->keep |= (uint64_t)1 << j;
        }
}

void tl_x8_code_pixels_ukernel__scalar(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out);
void tl_x8_code_pixels_ukernel__avx512vbmi(const uint8_t *px, size_t n, const tl_img_pix8 *k, uint8_t *out);

/* ---- real values straight into plane rows -----------------------------------
 * out[c][x] (f32, at any byte) = ((float)px[x * dc + c] - mean) / std for n
 * pixels of dc (1, 3 or 4) u8 values and every channel c, by the division
 * form chan[c].mode (the same for every channel) with chan[c]'s lane-0
 * constants (the plan's per-channel tl_img_real). One step: 16 pixels'
 * bytes, per channel its 16 values picked and widened by one byte permute,
 * the form, one store; stores aligned after a masked head. */
typedef void (*tl_img_real_planes_fn)(const uint8_t *px, size_t n, int dc, const tl_img_real *chan, uint8_t *const *out);

void tl_u8_real_planes_ukernel__scalar(const uint8_t *px, size_t n, int dc, const tl_img_real *chan, uint8_t *const *out);
void tl_u8_real_planes_ukernel__avx512vbmi(const uint8_t *px, size_t n, int dc, const tl_img_real *chan,
                                           uint8_t *const *out);

/* ---- periodic rows (letterbox border rows) --------------------------------
 * dst[i] = pat[i % period] for i < n, period a divisor of 64, pat holding
 * 128 bytes of the pattern (AVX2: a divisor of 32, n >= 32): a border row of the destination is one pad pixel
 * (or one pad element per plane) repeated, so it is written by 64-byte
 * stores of one vector instead of copied from an encoded row. */
typedef void (*tl_img_fill_fn)(uint8_t *dst, size_t n, const uint8_t *pat, size_t period);

void tl_x8_fill_period_ukernel__scalar(uint8_t *dst, size_t n, const uint8_t *pat, size_t period);
void tl_x8_fill_period_ukernel__avx2(uint8_t *dst, size_t n, const uint8_t *pat, size_t period); /* period | 32, n >= 32 */
void tl_x8_fill_period_ukernel__avx512(uint8_t *dst, size_t n, const uint8_t *pat, size_t period);

/* The forms the NEON kernel has in this build: FMA and DIV need AArch64. */
#if defined(__aarch64__)
#define TL_REAL_NEON_MODES (TL_REAL_MUL | TL_REAL_FMA | TL_REAL_DIV)
#else
#define TL_REAL_NEON_MODES TL_REAL_MUL
#endif

#endif
