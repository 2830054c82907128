/* AVX-512 image row kernels (F + BW; the *avx512vbmi functions carry a
 * target attribute and are chosen only when the CPU has VBMI): the vertical
 * bilinear steps of both modes (64 outputs a step), fast mode's YUV -> RGB
 * (32 pixels a step), and fast mode's pick and horizontal step, which take
 * their taps from a 128-byte window of the row with one vpermt2b. Tails and
 * blocks whose taps spread wider go to the scalar or AVX2 twins. */
#if defined(__x86_64__) && defined(__AVX512BW__)
#include <immintrin.h>
#include <stdbool.h>

#include "kernels/image/image.h"
#include "kernels/image/x86_rgb.h"

#define TL_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

static inline __m512i half_rows(const int32_t *h, __m512i b)
{
    __m512i lo = _mm512_srai_epi32(_mm512_loadu_si512((const void *)h), 4);
    __m512i hi = _mm512_srai_epi32(_mm512_loadu_si512((const void *)(h + 16)), 4);
    return _mm512_mulhi_epi16(_mm512_packs_epi32(lo, hi), b); /* h >> 4 < 2^15: exact; lanes interleaved */
}

void tl_u8_vlinear_ukernel__avx512(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    const __m512i vb0 = _mm512_set1_epi16((short)b0), vb1 = _mm512_set1_epi16((short)b1), two = _mm512_set1_epi16(2);
    /* after the two in-lane packs, dword 4l + j holds outputs 4 (4j + l) .. +3 */
    const __m512i order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i a = _mm512_add_epi16(half_rows(h0 + i, vb0), half_rows(h1 + i, vb1));
        __m512i c = _mm512_add_epi16(half_rows(h0 + i + 32, vb0), half_rows(h1 + i + 32, vb1));
        a = _mm512_srai_epi16(_mm512_add_epi16(a, two), 2);
        c = _mm512_srai_epi16(_mm512_add_epi16(c, two), 2);
        _mm512_storeu_si512((void *)(out + i), _mm512_permutexvar_epi32(order, _mm512_packus_epi16(a, c)));
    }
    tl_u8_vlinear_ukernel__scalar(h0 + i, h1 + i, b0, b1, out + i, n - i);
}

/* ---- fast mode ---- */

/* (h0 + t + 32) >> 6 for 32 values: t = pmulhrsw(h1 - h0, b1 << 9) = ((h1 - h0) b1 + 32) >> 6. */
static inline __m512i fast_rows(const uint16_t *h0, const uint16_t *h1, __m512i b, __m512i c32)
{
    __m512i a = _mm512_loadu_si512((const void *)h0), d = _mm512_sub_epi16(_mm512_loadu_si512((const void *)h1), a);
    return _mm512_srli_epi16(_mm512_add_epi16(_mm512_add_epi16(a, c32), _mm512_mulhrs_epi16(d, b)), 6);
}

void tl_u8_vlinear_fast_ukernel__avx512(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n)
{
    const __m512i b = _mm512_set1_epi16((short)(b1 << 9)), c32 = _mm512_set1_epi16(32);
    const __m512i order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i r = _mm512_packus_epi16(fast_rows(h0 + i, h1 + i, b, c32), fast_rows(h0 + i + 32, h1 + i + 32, b, c32));
        _mm512_storeu_si512((void *)(out + i), _mm512_permutexvar_epi64(order, r));
    }
    tl_u8_vlinear_fast_ukernel__scalar(h0 + i, h1 + i, b1, out + i, n - i);
}

/* The chroma terms by pmaddubsw: the (U, V) bytes xor 0x80 are U', V' as
 * signed bytes, the coefficients' magnitudes unsigned bytes in the same pair
 * order, so one instruction gives cvr V', cub U' or |cug| U' + |cvg| V' per
 * pixel, exactly (128 (|cug| + |cvg|) < 2^15). Needs the signs of a YUV
 * matrix (madd_ok); other constants go to the scalar twin. */
typedef struct chroma_madd { __m512i r, g, b; } chroma_madd;

static inline __m512i pair_of(int32_t u, int32_t v, int vfirst)
{
    int32_t first = vfirst ? v : u, second = vfirst ? u : v;
    return _mm512_set1_epi16((short)((first & 0xFF) | (second & 0xFF) << 8));
}

static inline chroma_madd chroma_madd_of(const tl_yuv_fast *f)
{
    return (chroma_madd){pair_of(0, f->cvr, f->vfirst), pair_of(-f->cug, -f->cvg, f->vfirst), pair_of(f->cub, 0, f->vfirst)};
}

static inline bool madd_ok(const tl_yuv_fast *f)
{
    return f->cvr >= 0 && f->cvr <= 255 && f->cub >= 0 && f->cub <= 255 && f->cug <= 0 && f->cvg <= 0 && -f->cug - f->cvg <= 255;
}

/* 32 pixels of fast mode's YUV -> RGB (tl_yuv_fast) as 16-bit R, G, B before
 * the saturation to bytes, in the order of the words Y * 257 and of the pairs U', V': the luma term one multiply-high of
 * Y * 257, sums saturating (past 32767 is past 255 << 6 either way; below
 * -32768 they never go). */
static inline void rgb32(const tl_yuv_fast *r, const chroma_madd *c, __m512i y257, __m512i uv, __m512i *R, __m512i *G, __m512i *B)
{
    const __m512i c32 = _mm512_set1_epi16(32);
    __m512i t = _mm512_add_epi16(_mm512_mulhi_epu16(y257, _mm512_set1_epi16((short)r->yg)), c32);
    *R = _mm512_srai_epi16(_mm512_adds_epi16(t, _mm512_maddubs_epi16(c->r, uv)), 6);
    *G = _mm512_srai_epi16(_mm512_subs_epi16(t, _mm512_maddubs_epi16(c->g, uv)), 6);
    *B = _mm512_srai_epi16(_mm512_adds_epi16(t, _mm512_maddubs_epi16(c->b, uv)), 6);
}

/* max(0, Y - yoff) of pixels x .. x+31, in the low half. */
static inline __m256i luma32(const tl_yuv_fast *r, size_t x)
{
    return _mm256_subs_epu8(_mm256_loadu_si256((const __m256i *)(r->y + x)), _mm256_set1_epi8((char)r->yoff));
}

/* U', V' of pixels x .. x+31 as signed bytes: the (U, V) bytes xor 0x80. */
static inline __m512i uv64(const tl_yuv_fast *r, size_t x)
{
    return _mm512_xor_si512(_mm512_loadu_si512((const void *)(r->uv + 2 * x)), _mm512_set1_epi8((char)0x80));
}

/* sat_u8 of 32 words, in order: below 0 -> 0, then the unsigned saturating narrow. */
static inline __m256i bytes_of(__m512i v) { return _mm512_cvtusepi16_epi8(_mm512_max_epi16(v, _mm512_setzero_si512())); }

static void yuv_fast_tail(const tl_yuv_fast *r, size_t x, size_t n, uint8_t *rgb)
{
    tl_yuv_fast rest = *r;
    rest.y += x, rest.uv += 2 * x;
    tl_yuv_rgb_fast_ukernel__scalar(&rest, n - x, rgb);
}

void tl_yuv_rgb_fast_ukernel__avx512(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const tl_yuv_fast f = *r; /* a local: the byte stores could alias *r */
    if (!madd_ok(&f)) {
        tl_yuv_rgb_fast_ukernel__scalar(r, n, rgb);
        return;
    }
    const chroma_madd c = chroma_madd_of(&f);
    size_t x = 0;
    for (; x + 32 <= n; x += 32, rgb += 96) {
        __m512i R16, G16, B16;
        __m512i y = _mm512_cvtepu8_epi16(luma32(&f, x));
        rgb32(&f, &c, _mm512_or_si512(y, _mm512_slli_epi16(y, 8)), uv64(&f, x), &R16, &G16, &B16);
        __m256i R = bytes_of(R16), G = bytes_of(G16), B = bytes_of(B16);
        store_rgb(rgb, _mm256_castsi256_si128(R), _mm256_castsi256_si128(G), _mm256_castsi256_si128(B));
        store_rgb(rgb + 48, _mm256_extracti128_si256(R, 1), _mm256_extracti128_si256(G, 1), _mm256_extracti128_si256(B, 1));
    }
    yuv_fast_tail(r, x, n, rgb);
}

/* Output byte o of 32 RGB pixels from packus(R, G) | packus(B, B): pixel p
 * (lane l = p / 8, i = p % 8) has R at 16 l + i, G at 16 l + 8 + i, B at 64 + 16 l + i. */
static const uint8_t rgb_interleave[96] = {
    0, 8, 64, 1, 9, 65, 2, 10, 66, 3, 11, 67, 4, 12, 68, 5, 13, 69, 6, 14, 70, 7, 15, 71, 16, 24, 80, 17, 25, 81, 18, 26,
    82, 19, 27, 83, 20, 28, 84, 21, 29, 85, 22, 30, 86, 23, 31, 87, 32, 40, 96, 33, 41, 97, 34, 42, 98, 35, 43, 99, 36, 44, 100, 37,
    45, 101, 38, 46, 102, 39, 47, 103, 48, 56, 112, 49, 57, 113, 50, 58, 114, 51, 59, 115, 52, 60, 116, 53, 61, 117, 54, 62, 118, 55, 63, 119};

/* Byte k of 32 to bytes 2k and 2k + 1: a word of k * 257. */
static const uint8_t each_twice[64] = {0,  0,  1,  1,  2,  2,  3,  3,  4,  4,  5,  5,  6,  6,  7,  7,  8,  8,  9,  9,  10, 10,
                                       11, 11, 12, 12, 13, 13, 14, 14, 15, 15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 20, 21, 21,
                                       22, 22, 23, 23, 24, 24, 25, 25, 26, 26, 27, 27, 28, 28, 29, 29, 30, 30, 31, 31};

/* 32 pixels' R, G, B words to 96 RGB bytes: one in-lane pack, two vpermt2b. */
TL_VBMI static inline void store_rgb96(uint8_t *rgb, __m512i R, __m512i G, __m512i B, __m512i i0, __m512i i1)
{
    __m512i rg = _mm512_packus_epi16(R, G), b = _mm512_packus_epi16(B, B); /* in-lane: rgb_interleave undoes it */
    _mm512_storeu_si512((void *)rgb, _mm512_permutex2var_epi8(rg, i0, b));
    _mm256_storeu_si256((__m256i *)(rgb + 64), _mm512_castsi512_si256(_mm512_permutex2var_epi8(rg, i1, b)));
}

TL_VBMI void tl_yuv_rgb_fast_ukernel__avx512vbmi(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const __m512i i0 = _mm512_loadu_si512((const void *)rgb_interleave);
    const __m512i i1 = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(rgb_interleave + 64)));
    const tl_yuv_fast f = *r; /* a local: the byte stores could alias *r */
    if (!madd_ok(&f)) {
        tl_yuv_rgb_fast_ukernel__scalar(r, n, rgb);
        return;
    }
    const chroma_madd c = chroma_madd_of(&f);
    const __m512i twice = _mm512_loadu_si512((const void *)each_twice);
    size_t x = 0;
    for (; x + 32 <= n; x += 32, rgb += 96) {
        __m512i R, G, B;
        rgb32(&f, &c, _mm512_permutexvar_epi8(twice, _mm512_castsi256_si512(luma32(&f, x))), uv64(&f, x), &R, &G, &B); /* Y * 257 */
        store_rgb96(rgb, R, G, B, i0, i1);
    }
    yuv_fast_tail(r, x, n, rgb);
}

/* 32 taps a step from one 128-byte window, the plan's byte indices (tl_taps). */
TL_VBMI void tl_u8_pick_ukernel__avx512vbmi(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n)
{
    const int32_t *bases = t->base; /* locals: the stores could alias *t */
    const uint8_t *pick = t->pick;
    const int narrow = t->span <= 64;
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        const int32_t base = bases[k / 32];
        if (base < 0) { /* taps further apart: a 32-bit gather each */
            tl_taps block = tl_taps_at(t, k);
            tl_u8_pick_ukernel__avx2(line, &block, out + k, 32);
            continue;
        }
        __m512i idx = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(pick + k)));
        __m512i w0 = _mm512_loadu_si512((const void *)(line + base));
        __m512i got = narrow ? _mm512_permutexvar_epi8(idx, w0)
                             : _mm512_permutex2var_epi8(w0, idx, _mm512_loadu_si512((const void *)(line + base + 64)));
        _mm256_storeu_si256((__m256i *)(out + k), _mm512_castsi512_si256(got));
    }
    tl_taps rest = tl_taps_at(t, k);
    tl_u8_pick_ukernel__scalar(line, &rest, out + k, n - k);
}

/* 32 values a step: one vpermt2b makes the 32 sample pairs from the window,
 * one pmaddubsw the 32 sums. */
TL_VBMI void tl_u8_hlinear_fast_ukernel__avx512vbmi(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n)
{
    const int32_t *bases = t->base; /* locals: the stores could alias *t */
    const uint8_t *pair = t->pair;
    const int8_t *w = t->w;
    const int narrow = t->span <= 64;
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        const int32_t base = bases[k / 32];
        if (base < 0) {
            tl_taps block = tl_taps_at(t, k);
            tl_u8_hlinear_fast_ukernel__avx2(line, &block, h + k, 32);
            continue;
        }
        __m512i ctl = _mm512_loadu_si512((const void *)(pair + 2 * k)), w0 = _mm512_loadu_si512((const void *)(line + base));
        __m512i pairs = narrow ? _mm512_permutexvar_epi8(ctl, w0) /* a third faster where the block spans 64 bytes */
                               : _mm512_permutex2var_epi8(w0, ctl, _mm512_loadu_si512((const void *)(line + base + 64)));
        _mm512_storeu_si512((void *)(h + k), _mm512_maddubs_epi16(pairs, _mm512_loadu_si512((const void *)(w + 2 * k))));
    }
    tl_taps rest = tl_taps_at(t, k);
    tl_u8_hlinear_fast_ukernel__scalar(line, &rest, h + k, n - k);
}
/* The fused kernel keeps its 32 pixels in the order the vertical chroma step
 * leaves them (packs of two registers of 16 pixels: word j of lane l is pixel
 * 4 l + j for j < 4, 16 + 4 l + j - 4 above), so no permute puts the chroma
 * back in pixel order: Y * 257 is made in that order (picked so by
 * tl_taps.pick_words) and the final interleave undoes it. */
static const uint8_t fused_twice[64] = { /* byte 2 w and 2 w + 1: Y of the pixel in word w */
    0,  0,  1,  1,  2,  2,  3,  3,  16, 16, 17, 17, 18, 18, 19, 19, 4,  4,  5,  5,  6,  6,
    7,  7,  20, 20, 21, 21, 22, 22, 23, 23, 8,  8,  9,  9,  10, 10, 11, 11, 24, 24, 25, 25,
    26, 26, 27, 27, 12, 12, 13, 13, 14, 14, 15, 15, 28, 28, 29, 29, 30, 30, 31, 31};
/* max(0, Y - yoff) * 257 of pixels x .. x+31 in that order: picked from the
 * frame row by one vpermb/vpermt2b from the block's window (pick_words: each
 * byte twice), or the given row's bytes permuted so. */
TL_VBMI static inline __m512i luma_words(const tl_yuv_fast *f, const tl_taps *t, size_t x, __m512i twice, __m512i yoff)
{
    __m512i y;
    if (!f->y_taps) {
        y = _mm512_permutexvar_epi8(twice, _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(f->y + x))));
    } else if (t->base[x / 32] < 0) { /* taps further apart: AVX2's gathers */
        uint8_t got[32];
        tl_taps block = tl_taps_at(t, x);
        tl_u8_pick_ukernel__avx2(f->y_line, &block, got, 32);
        y = _mm512_permutexvar_epi8(twice, _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)got)));
    } else {
        const uint8_t *w0 = f->y_line + t->base[x / 32];
        __m512i idx = _mm512_loadu_si512((const void *)(t->pick_words + 2 * x));
        y = t->span <= 64 ? _mm512_permutexvar_epi8(idx, _mm512_loadu_si512((const void *)w0))
                          : _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)w0), idx, _mm512_loadu_si512((const void *)(w0 + 64)));
    }
    return _mm512_subs_epu8(y, yoff);
}

static const uint8_t fused_interleave[96] = { /* rgb_interleave for that order */
    0,  8,  64,  1,  9,  65,  2,  10, 66,  3,  11, 67,  16, 24, 80,  17, 25, 81,  18, 26, 82,  19, 27, 83,
    32, 40, 96,  33, 41, 97,  34, 42, 98,  35, 43, 99,  48, 56, 112, 49, 57, 113, 50, 58, 114, 51, 59, 115,
    4,  12, 68,  5,  13, 69,  6,  14, 70,  7,  15, 71,  20, 28, 84,  21, 29, 85,  22, 30, 86,  23, 31, 87,
    36, 44, 100, 37, 45, 101, 38, 46, 102, 39, 47, 103, 52, 60, 116, 53, 61, 117, 54, 62, 118, 55, 63, 119};

/* 32 chroma values of two source rows: their horizontal steps (the
 * horizontal kernel's, one vpermb or vpermt2b each from the block's window),
 * then the vertical step minus 128 (U', V'):
 * (h0 + t + 32) >> 6 - 128 = (h0 + t + 32 - 8192) >> 6, arithmetic, in -128..127. */
TL_VBMI static inline __m512i chroma32(const tl_yuv_fast *f, const tl_taps *t, size_t k, __m512i b, __m512i bias)
{
    const int32_t base = t->base[k / 32];
    __m512i h0, h1;
    if (base < 0) { /* taps further apart: AVX2's gathers */
        uint16_t got[2][32];
        tl_taps block = tl_taps_at(t, k);
        tl_u8_hlinear_fast_ukernel__avx2(f->uv_line0, &block, got[0], 32);
        tl_u8_hlinear_fast_ukernel__avx2(f->uv_line1, &block, got[1], 32);
        h0 = _mm512_loadu_si512((const void *)got[0]), h1 = _mm512_loadu_si512((const void *)got[1]);
    } else {
        const uint8_t *l0 = f->uv_line0 + base, *l1 = f->uv_line1 + base;
        __m512i ctl = _mm512_loadu_si512((const void *)(t->pair + 2 * k)), w = _mm512_loadu_si512((const void *)(t->w + 2 * k));
        __m512i p0, p1;
        if (t->span <= 64) {
            p0 = _mm512_permutexvar_epi8(ctl, _mm512_loadu_si512((const void *)l0));
            p1 = _mm512_permutexvar_epi8(ctl, _mm512_loadu_si512((const void *)l1));
        } else {
            p0 = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)l0), ctl, _mm512_loadu_si512((const void *)(l0 + 64)));
            p1 = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)l1), ctl, _mm512_loadu_si512((const void *)(l1 + 64)));
        }
        h0 = _mm512_maddubs_epi16(p0, w), h1 = _mm512_maddubs_epi16(p1, w);
    }
    __m512i d = _mm512_sub_epi16(h1, h0);
    return _mm512_srai_epi16(_mm512_add_epi16(_mm512_add_epi16(h0, bias), _mm512_mulhrs_epi16(d, b)), 6);
}

/* A destination row from its sources (tl_yuv_rgb_fused_fn), 32 pixels a step:
 * Y picked (or loaded), the 64 chroma values made from the two chroma rows
 * (chroma32), then the colour step above, all in registers. */
TL_VBMI void tl_yuv_rgb_fused_ukernel__avx512vbmi(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const tl_yuv_fast f = *r; /* locals: the byte stores could alias *r and the taps */
    if (!madd_ok(&f)) {
        tl_yuv_rgb_fused_ukernel__scalar(r, n, rgb);
        return;
    }
    const tl_taps yt = f.y_taps ? *f.y_taps : (tl_taps){0}, ct = *f.uv_taps;
    const chroma_madd c = chroma_madd_of(&f);
    const __m512i i0 = _mm512_loadu_si512((const void *)fused_interleave);
    const __m512i i1 = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(fused_interleave + 64)));
    const __m512i twice = _mm512_loadu_si512((const void *)fused_twice);
    const __m512i b = _mm512_set1_epi16((short)(f.b1 << 9)), bias = _mm512_set1_epi16(32 - 8192);
    const __m512i yoff = _mm512_set1_epi8((char)f.yoff);
    size_t x = 0;
    for (; x + 32 <= n; x += 32, rgb += 96) {
        __m512i uv = _mm512_packs_epi16(chroma32(&f, &ct, 2 * x, b, bias), chroma32(&f, &ct, 2 * x + 32, b, bias));
        __m512i R, G, B;
        rgb32(&f, &c, luma_words(&f, &yt, x, twice, yoff), uv, &R, &G, &B);
        store_rgb96(rgb, R, G, B, i0, i1);
    }
    tl_yuv_fast rest = f;
    tl_taps yrest, crest = tl_taps_at(&ct, 2 * x);
    if (f.y_taps) yrest = tl_taps_at(&yt, x), rest.y_taps = &yrest;
    else rest.y += x;
    rest.uv_taps = &crest;
    tl_yuv_rgb_fused_ukernel__scalar(&rest, n - x, rgb);
}
#endif
