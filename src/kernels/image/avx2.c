/* AVX2 image row kernels: the vertical bilinear step (32 outputs a step) and
 * YUV 4:2:0 -> RGB (16 pixels a step, 32-bit products as the definition,
 * RGB bytes by byte shuffles, or one row per channel). Tails go to the
 * scalar twins. */
#if defined(__x86_64__) && defined(__AVX2__)
#include <immintrin.h>

#include <stdbool.h>

#include "kernels/image/image.h"
#include "kernels/image/yuv_split.h"
#include "kernels/image/x86_rgb.h"

static inline __m256i half_rows(const int32_t *h, __m256i b)
{
    __m256i lo = _mm256_srai_epi32(_mm256_loadu_si256((const __m256i *)h), 4);
    __m256i hi = _mm256_srai_epi32(_mm256_loadu_si256((const __m256i *)(h + 8)), 4);
    return _mm256_mulhi_epi16(_mm256_packs_epi32(lo, hi), b); /* lanes interleaved; fixed at the end */
}

void tl_u8_vlinear_ukernel__avx2(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    const __m256i vb0 = _mm256_set1_epi16((short)b0), vb1 = _mm256_set1_epi16((short)b1), two = _mm256_set1_epi16(2);
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i a = _mm256_add_epi16(half_rows(h0 + i, vb0), half_rows(h1 + i, vb1));
        __m256i c = _mm256_add_epi16(half_rows(h0 + i + 16, vb0), half_rows(h1 + i + 16, vb1));
        a = _mm256_srai_epi16(_mm256_add_epi16(a, two), 2);
        c = _mm256_srai_epi16(_mm256_add_epi16(c, two), 2);
        /* 4-byte groups come out as 0 2 4 6 1 3 5 7 of the 32 outputs: put them back */
        __m256i r = _mm256_permutevar8x32_epi32(_mm256_packus_epi16(a, c), order);
        _mm256_storeu_si256((__m256i *)(out + i), r);
    }
    tl_u8_vlinear_ukernel__scalar(h0 + i, h1 + i, b0, b1, out + i, n - i);
}

/* 8 outputs a step. Where the 8 first samples lie within 16 bytes of the
 * line (shrinking by less than about 2, enlarging), one 16-byte load in both
 * lanes and a byte shuffle whose control is made from the offsets give each
 * output its (byte 0, byte cn) pair; else a 32-bit gather at each offset. The
 * pairs become 16-bit values for one multiply-add with the weights. */
void tl_u8_hlinear_ukernel__avx2(const uint8_t *line, const int32_t *ofs, const int16_t *w, int cn, int32_t *h, size_t n)
{
    const char z = (char)0x80, c = (char)cn; /* per dword: byte 0, zero, byte cn, zero */
    const __m256i pick = _mm256_setr_epi8(0, z, c, z, 4, z, (char)(4 + c), z, 8, z, (char)(8 + c), z, 12, z, (char)(12 + c), z,
                                          0, z, c, z, 4, z, (char)(4 + c), z, 8, z, (char)(8 + c), z, 12, z, (char)(12 + c), z);
    const __m256i second = _mm256_set1_epi32(cn << 16), zeros = _mm256_set1_epi32((int)0x80008000u);
    const __m256i limit = _mm256_set1_epi32(15 - cn); /* both samples inside the 16-byte window */
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256i o = _mm256_loadu_si256((const __m256i *)(ofs + k)), pair;
        int32_t base = ofs[k];
        __m256i rel = _mm256_sub_epi32(o, _mm256_set1_epi32(base)); /* negative: huge unsigned, not in the window */
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(_mm256_min_epu32(rel, limit), rel)) == -1) {
            __m256i ctl = _mm256_or_si256(_mm256_add_epi32(rel, _mm256_add_epi32(_mm256_slli_epi32(rel, 16), second)), zeros);
            __m256i win = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(line + base)));
            pair = _mm256_shuffle_epi8(win, ctl);
        } else {
            pair = _mm256_shuffle_epi8(_mm256_i32gather_epi32((const int *)(const void *)line, o, 1), pick);
        }
        _mm256_storeu_si256((__m256i *)(h + k), _mm256_madd_epi16(pair, _mm256_loadu_si256((const __m256i *)(w + 2 * k))));
    }
    tl_u8_hlinear_ukernel__scalar(line, ofs + k, w + 2 * k, cn, h + k, n - k);
}

/* One channel of 16 pixels: (t + c) >> 20 saturated to bytes. The halves
 * hold pixels 0-3, 8-11 (lo) and 4-7, 12-15 (hi), so the in-lane pack puts
 * them in order. */
static inline __m128i channel(__m256i t_lo, __m256i t_hi, __m256i c_lo, __m256i c_hi)
{
    __m256i lo = _mm256_srai_epi32(_mm256_add_epi32(t_lo, c_lo), 20);
    __m256i hi = _mm256_srai_epi32(_mm256_add_epi32(t_hi, c_hi), 20);
    __m256i w = _mm256_packs_epi32(lo, hi); /* 16 x i16 in order */
    return _mm_packus_epi16(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
}

/* x * c for 16 values x (16-bit, pixel order) as 32-bit products in channel()'s
 * halves, with pmaddwd: c = a 2^s + b (a = c >> s, 0 <= b < 2^s), so
 * x c = (x 2^s) a + x b, every factor a 16-bit value (|x 2^s| <= 2^15,
 * |a| < 2^15, b < 2^s) and the sum exact in 32 bits. */
typedef struct split { __m256i ab; int s; } split;

static inline split split_of(int32_t c, int s) { return (split){_mm256_set1_epi32(tl_yuv_split_word(c, s)), s}; }

static inline void times(__m256i x, split c, __m256i *lo, __m256i *hi)
{
    __m256i xs = _mm256_slli_epi16(x, c.s);
    *lo = _mm256_madd_epi16(_mm256_unpacklo_epi16(xs, x), c.ab);
    *hi = _mm256_madd_epi16(_mm256_unpackhi_epi16(xs, x), c.ab);
}

/* The chroma of 16 pixels from chroma index ci on, as 16-bit values minus
 * 128 in pixel order: 8 samples each doubled (cshift 1) or 16. */
static inline void load_chroma(const tl_yuv_rows *r, int64_t ci, __m256i *u, __m256i *v)
{
    const __m256i c128 = _mm256_set1_epi16(128);
    const int n = r->cshift ? 8 : 16;
    int64_t p = ci * r->cstep;
    __m128i cu, cv;
    if (r->cstep == 2) { /* interleaved: 2n bytes from the lower of u, v; even bytes first */
        const uint8_t *base = r->u < r->v ? r->u : r->v;
        const __m128i lo8 = _mm_set1_epi16(0xFF);
        __m128i b0 = _mm_loadu_si128((const __m128i *)(base + p));
        __m128i b1 = n == 16 ? _mm_loadu_si128((const __m128i *)(base + p + 16)) : b0;
        __m128i even = _mm_packus_epi16(_mm_and_si128(b0, lo8), _mm_and_si128(b1, lo8));
        __m128i odd = _mm_packus_epi16(_mm_srli_epi16(b0, 8), _mm_srli_epi16(b1, 8));
        cu = r->u < r->v ? even : odd, cv = r->u < r->v ? odd : even;
    } else if (n == 16) {
        cu = _mm_loadu_si128((const __m128i *)(r->u + p)), cv = _mm_loadu_si128((const __m128i *)(r->v + p));
    } else {
        cu = _mm_loadl_epi64((const __m128i *)(r->u + p)), cv = _mm_loadl_epi64((const __m128i *)(r->v + p));
    }
    if (r->cshift) cu = _mm_unpacklo_epi8(cu, cu), cv = _mm_unpacklo_epi8(cv, cv); /* a sample per pixel pair */
    *u = _mm256_sub_epi16(_mm256_cvtepu8_epi16(cu), c128);
    *v = _mm256_sub_epi16(_mm256_cvtepu8_epi16(cv), c128);
}

/* R, G, B of 16 pixels as RGB bytes at p[0] + 3 k, or as rows at p[c] + k. */
static inline void store_out(uint8_t *const p[3], int64_t k, bool bytes, __m128i R, __m128i G, __m128i B)
{
    if (bytes) {
        store_rgb(p[0] + 3 * k, R, G, B);
        return;
    }
    _mm_storeu_si128((__m128i *)(p[0] + k), R);
    _mm_storeu_si128((__m128i *)(p[1] + k), G);
    _mm_storeu_si128((__m128i *)(p[2] + k), B);
}

/* 16 pixels a step, all products by pmaddwd (split_of), bit-identical to the
 * 32-bit products of the definition. */
static inline void rgb_loop(const tl_yuv_rows *r, int64_t x, int64_t x1, tl_rgb_out *o, bool bytes)
{
    const int64_t first = x;
    uint8_t *const p[3] = {o->ch[0], o->ch[1], o->ch[2]}; /* locals: the byte stores could alias *o */
    const split cy = split_of(r->cy, 7), cvr = split_of(r->cvr, 8), cvg = split_of(r->cvg, 8);
    const split cug = split_of(r->cug, 8), cub = split_of(r->cub, 8);
    const __m256i half = _mm256_set1_epi32(1 << 19), yoff = _mm256_set1_epi16((short)r->yoff);
    for (; x + 16 <= x1; x += 16) {
        /* max(0, Y - yoff) in 0..255: Y 2^7 fits 16 bits */
        __m256i y16 = _mm256_subs_epu16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(r->y + x))), yoff);
        __m256i t_lo, t_hi, u, v, a_lo, a_hi, b_lo, b_hi;
        times(y16, cy, &t_lo, &t_hi);
        t_lo = _mm256_add_epi32(t_lo, half), t_hi = _mm256_add_epi32(t_hi, half);
        load_chroma(r, r->cshift ? x >> 1 : x, &u, &v);
        times(v, cvr, &a_lo, &a_hi);
        __m128i R = channel(t_lo, t_hi, a_lo, a_hi);
        times(u, cub, &a_lo, &a_hi);
        __m128i B = channel(t_lo, t_hi, a_lo, a_hi);
        times(v, cvg, &a_lo, &a_hi);
        times(u, cug, &b_lo, &b_hi);
        __m128i G = channel(t_lo, t_hi, _mm256_add_epi32(a_lo, b_lo), _mm256_add_epi32(a_hi, b_hi));
        store_out(p, x - first, bytes, R, G, B);
    }
    tl_rgb_skip(o, x - first);
    tl_yuv_rgb_ukernel__scalar(r, x, x1, o);
}

void tl_yuv_rgb_ukernel__avx2(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out)
{
    int64_t x = x0;
    tl_rgb_out o = *out;
    if (!tl_yuv_rgb_vector_start(r, &x, x1, &o)) return;
    if (tl_rgb_form(&o) == TL_RGB_BYTES) rgb_loop(r, x, x1, &o, true); /* one loop per store form */
    else rgb_loop(r, x, x1, &o, false);
}
/* ---- fast mode ---- */

/* 8 taps a step, each a 32-bit gather whose byte 0 is kept (blocks whose taps
 * spread past a 128-byte window, tails). */
static void pick_gather(const uint8_t *line, const int32_t *ofs, uint8_t *out, size_t n)
{
    const __m256i low = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
                                         0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
    const __m256i join = _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1);
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        __m256i g = _mm256_i32gather_epi32((const int *)(const void *)line, _mm256_loadu_si256((const __m256i *)(ofs + k)), 1);
        g = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(g, low), join);
        _mm_storel_epi64((__m128i *)(out + k), _mm256_castsi256_si128(g));
    }
    tl_taps rest = {.ofs = ofs + k};
    tl_u8_pick_ukernel__scalar(line, &rest, out + k, n - k);
}

/* Bytes idx (0 .. span-1) of the window at w: pshufb reaches 16 bytes, so
 * each 16-byte chunk c answers the indices in [16 c, 16 c + 16): idx - 16 c
 * plus 0x70 keeps those below 0x80 (low nibble intact) and saturates the
 * others to 0x80 and up, which pshufb zeroes. */
static inline __m256i window_bytes(const uint8_t *w, __m256i idx, int span)
{
    const __m256i sixteen = _mm256_set1_epi8(16), bias = _mm256_set1_epi8(0x70);
    __m256i acc = _mm256_setzero_si256();
    for (int c = 0; c * 16 < span; c++, idx = _mm256_sub_epi8(idx, sixteen)) {
        __m256i chunk = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(w + 16 * c)));
        acc = _mm256_or_si256(acc, _mm256_shuffle_epi8(chunk, _mm256_adds_epu8(idx, bias)));
    }
    return acc;
}

/* 32 taps a step from the plan's window indices (tl_taps). */
void tl_u8_pick_ukernel__avx2(const uint8_t *line, const tl_taps *t, uint8_t *out, size_t n)
{
    const int32_t *bases = t->base, *ofs = t->ofs; /* locals: the stores could alias *t */
    const uint8_t *pick = t->pick;
    const int span = t->span;
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        if (bases[k / 32] < 0) {
            pick_gather(line, ofs + k, out + k, 32);
            continue;
        }
        __m256i idx = _mm256_loadu_si256((const __m256i *)(pick + k));
        _mm256_storeu_si256((__m256i *)(out + k), window_bytes(line + bases[k / 32], idx, span));
    }
    pick_gather(line, ofs + k, out + k, n - k);
}

/* 16 values from gathers: a 32-bit gather at each tap, its bytes 0 and cn
 * moved to the low half of the dword (the high half zero), one pmaddubsw with
 * the weights widened the same way, the dwords packed to words. */
static inline __m256i hlinear_gather16(const uint8_t *line, const int32_t *ofs, const int8_t *w, __m256i pair)
{
    const int *base = (const int *)(const void *)line;
    __m256i a = _mm256_shuffle_epi8(_mm256_i32gather_epi32(base, _mm256_loadu_si256((const __m256i *)ofs), 1), pair);
    __m256i b = _mm256_shuffle_epi8(_mm256_i32gather_epi32(base, _mm256_loadu_si256((const __m256i *)(ofs + 8)), 1), pair);
    __m256i wa = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)w));
    __m256i wb = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(w + 16)));
    __m256i r = _mm256_packus_epi32(_mm256_maddubs_epi16(a, wa), _mm256_maddubs_epi16(b, wb));
    return _mm256_permute4x64_epi64(r, 0xD8);
}

/* 32 values a step: the sample pairs by window_bytes from the plan's pair
 * indices, one pmaddubsw per 16; blocks spread wider by gathers. */
void tl_u8_hlinear_fast_ukernel__avx2(const uint8_t *line, const tl_taps *t, uint16_t *h, size_t n)
{
    const int32_t *bases = t->base, *ofs = t->ofs; /* locals: the stores could alias *t */
    const int8_t *w = t->w;
    const uint8_t *pairs = t->pair;
    const int span = t->span;
    const char z = -1, c = (char)t->cn;
    const __m256i pair = _mm256_setr_epi8(0, c, z, z, 4, (char)(4 + c), z, z, 8, (char)(8 + c), z, z, 12, (char)(12 + c), z, z,
                                          0, c, z, z, 4, (char)(4 + c), z, z, 8, (char)(8 + c), z, z, 12, (char)(12 + c), z, z);
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        const int32_t base = bases[k / 32];
        for (int half = 0; half < 2; half++) {
            size_t j = k + 16 * (size_t)half;
            __m256i r = base < 0 ? hlinear_gather16(line, ofs + j, w + 2 * j, pair)
                                 : _mm256_maddubs_epi16(window_bytes(line + base, _mm256_loadu_si256((const __m256i *)(pairs + 2 * j)), span),
                                                        _mm256_loadu_si256((const __m256i *)(w + 2 * j)));
            _mm256_storeu_si256((__m256i *)(h + j), r);
        }
    }
    for (; k + 16 <= n; k += 16) _mm256_storeu_si256((__m256i *)(h + k), hlinear_gather16(line, ofs + k, w + 2 * k, pair));
    tl_taps rest = *t;
    rest.ofs += k, rest.w += 2 * k;
    tl_u8_hlinear_fast_ukernel__scalar(line, &rest, h + k, n - k);
}

/* (h0 + t + 32) >> 6 for 16 values: t = pmulhrsw(h1 - h0, b1 << 9) = ((h1 - h0) b1 + 32) >> 6. */
static inline __m256i fast_rows(const uint16_t *h0, const uint16_t *h1, __m256i b, __m256i c32)
{
    __m256i a = _mm256_loadu_si256((const __m256i *)h0), d = _mm256_sub_epi16(_mm256_loadu_si256((const __m256i *)h1), a);
    return _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(a, c32), _mm256_mulhrs_epi16(d, b)), 6);
}

void tl_u8_vlinear_fast_ukernel__avx2(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n)
{
    const __m256i b = _mm256_set1_epi16((short)(b1 << 9)), c32 = _mm256_set1_epi16(32);
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m256i r = _mm256_packus_epi16(fast_rows(h0 + i, h1 + i, b, c32), fast_rows(h0 + i + 16, h1 + i + 16, b, c32));
        _mm256_storeu_si256((__m256i *)(out + i), _mm256_permute4x64_epi64(r, 0xD8));
    }
    tl_u8_vlinear_fast_ukernel__scalar(h0 + i, h1 + i, b1, out + i, n - i);
}

/* 16 pixels a step in 16-bit lanes: the luma term by one multiply-high of
 * Y * 257 (the byte twice), the chroma ones by pmullw, the sums saturating
 * (a sum past 32767 is past 255 << 6 either way), RGB by byte shuffles. */
void tl_yuv_rgb_fast_ukernel__avx2(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const __m128i yoff = _mm_set1_epi8((char)r->yoff);
    const __m256i yg = _mm256_set1_epi16((short)r->yg), c32 = _mm256_set1_epi16(32), c128 = _mm256_set1_epi16(128);
    const __m256i lo8 = _mm256_set1_epi16(0xFF);
    const __m256i cvr = _mm256_set1_epi16((short)r->cvr), cvg = _mm256_set1_epi16((short)r->cvg);
    const __m256i cug = _mm256_set1_epi16((short)r->cug), cub = _mm256_set1_epi16((short)r->cub);
    const uint8_t *py = r->y, *puv = r->uv; /* locals: the byte stores could alias *r */
    const int vfirst = r->vfirst;
    size_t x = 0;
    for (; x + 16 <= n; x += 16, rgb += 48) {
        __m256i y = _mm256_cvtepu8_epi16(_mm_subs_epu8(_mm_loadu_si128((const __m128i *)(py + x)), yoff));
        __m256i t = _mm256_add_epi16(_mm256_mulhi_epu16(_mm256_or_si256(y, _mm256_slli_epi16(y, 8)), yg), c32);
        __m256i uv = _mm256_loadu_si256((const __m256i *)(puv + 2 * x));
        __m256i even = _mm256_sub_epi16(_mm256_and_si256(uv, lo8), c128), odd = _mm256_sub_epi16(_mm256_srli_epi16(uv, 8), c128);
        __m256i u = vfirst ? odd : even, v = vfirst ? even : odd;
        __m256i R = _mm256_srai_epi16(_mm256_adds_epi16(t, _mm256_mullo_epi16(v, cvr)), 6);
        __m256i G = _mm256_srai_epi16(_mm256_adds_epi16(t, _mm256_add_epi16(_mm256_mullo_epi16(u, cug), _mm256_mullo_epi16(v, cvg))), 6);
        __m256i B = _mm256_srai_epi16(_mm256_adds_epi16(t, _mm256_mullo_epi16(u, cub)), 6);
        __m256i rg = _mm256_permute4x64_epi64(_mm256_packus_epi16(R, G), 0xD8); /* R 0-15 | G 0-15 */
        __m256i bb = _mm256_permute4x64_epi64(_mm256_packus_epi16(B, B), 0xD8);
        store_rgb(rgb, _mm256_castsi256_si128(rg), _mm256_extracti128_si256(rg, 1), _mm256_castsi256_si128(bb));
    }
    tl_yuv_fast rest = *r;
    rest.y += x, rest.uv += 2 * x;
    tl_yuv_rgb_fast_ukernel__scalar(&rest, n - x, rgb);
}
#endif
