/* SSE2 image row kernels: the vertical bilinear steps (16 outputs a step,
 * the definitions' 16-bit multiply-highs), and YUV -> RGB of both modes (8
 * pixels a step; SSE2 has no byte shuffle, so RGB is packed with shifts and
 * masks, store_rgb8). Tails go to the scalar twins. */
#if defined(__x86_64__) || defined(__i386__)
#include <emmintrin.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/image/image.h"
#include "kernels/image/yuv_split.h"

static inline __m128i half_rows(const int32_t *h, __m128i b)
{
    __m128i lo = _mm_srai_epi32(_mm_loadu_si128((const __m128i *)h), 4);
    __m128i hi = _mm_srai_epi32(_mm_loadu_si128((const __m128i *)(h + 4)), 4);
    return _mm_mulhi_epi16(_mm_packs_epi32(lo, hi), b); /* h >> 4 < 2^15: the pack is exact */
}

void tl_u8_vlinear_ukernel__sse2(const int32_t *h0, const int32_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    const __m128i vb0 = _mm_set1_epi16((short)b0), vb1 = _mm_set1_epi16((short)b1), two = _mm_set1_epi16(2);
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i a = _mm_add_epi16(half_rows(h0 + i, vb0), half_rows(h1 + i, vb1));
        __m128i c = _mm_add_epi16(half_rows(h0 + i + 8, vb0), half_rows(h1 + i + 8, vb1));
        a = _mm_srai_epi16(_mm_add_epi16(a, two), 2);
        c = _mm_srai_epi16(_mm_add_epi16(c, two), 2);
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(a, c));
    }
    tl_u8_vlinear_ukernel__scalar(h0 + i, h1 + i, b0, b1, out + i, n - i);
}
/* 8 pixels' R, G, B (bytes 0-7 of each) as 24 bytes: RGB0 dwords, then each
 * pair of dwords squeezed to 6 bytes in its qword, the two qwords joined. */
static inline __m128i squeeze(__m128i p4) /* 4 RGB0 pixels -> 12 bytes */
{
    const __m128i low24 = _mm_set_epi32(0, 0xFFFFFF, 0, 0xFFFFFF), high24 = _mm_set_epi32(0xFFFF, (int)0xFF000000u, 0xFFFF, (int)0xFF000000u);
    __m128i q = _mm_or_si128(_mm_and_si128(p4, low24), _mm_and_si128(_mm_srli_epi64(p4, 8), high24)); /* 6 bytes per qword */
    const __m128i first = _mm_set_epi32(0, 0, 0xFFFF, -1), second = _mm_set_epi32(0, -1, (int)0xFFFF0000u, 0);
    return _mm_or_si128(_mm_and_si128(q, first), _mm_and_si128(_mm_srli_si128(q, 2), second));
}

static inline void store_rgb8(uint8_t *out, __m128i r, __m128i g, __m128i b)
{
    __m128i rg = _mm_unpacklo_epi8(r, g), b0 = _mm_unpacklo_epi8(b, _mm_setzero_si128());
    __m128i lo = squeeze(_mm_unpacklo_epi16(rg, b0)), hi = squeeze(_mm_unpackhi_epi16(rg, b0));
    _mm_storeu_si128((__m128i *)out, _mm_or_si128(lo, _mm_slli_si128(hi, 12)));
    _mm_storel_epi64((__m128i *)(out + 16), _mm_srli_si128(hi, 4));
}

/* ---- exact mode: 32-bit products of the definition by pmaddwd ---- */

/* x * c for 8 16-bit values as two halves of 32-bit products: c = a 2^s + b,
 * x c = (x 2^s) a + x b, all factors 16-bit (as the AVX2 kernel). */
typedef struct split { __m128i ab; int s; } split;

static inline split split_of(int32_t c, int s) { return (split){_mm_set1_epi32(tl_yuv_split_word(c, s)), s}; }

static inline void times(__m128i x, split c, __m128i *lo, __m128i *hi)
{
    __m128i xs = _mm_slli_epi16(x, c.s);
    *lo = _mm_madd_epi16(_mm_unpacklo_epi16(xs, x), c.ab);
    *hi = _mm_madd_epi16(_mm_unpackhi_epi16(xs, x), c.ab);
}

static inline __m128i channel(__m128i t_lo, __m128i t_hi, __m128i c_lo, __m128i c_hi)
{
    __m128i w = _mm_packs_epi32(_mm_srai_epi32(_mm_add_epi32(t_lo, c_lo), 20), _mm_srai_epi32(_mm_add_epi32(t_hi, c_hi), 20));
    return _mm_packus_epi16(w, w);
}

static inline __m128i load32(const uint8_t *p)
{
    int32_t v;
    memcpy(&v, p, 4);
    return _mm_cvtsi32_si128(v);
}

/* The chroma of 8 pixels from chroma index ci on, as 16-bit values minus 128. */
static inline void load_chroma(const tl_yuv_rows *r, int64_t ci, __m128i *u, __m128i *v)
{
    const __m128i zero = _mm_setzero_si128(), lo8 = _mm_set1_epi16(0xFF), c128 = _mm_set1_epi16(128);
    int64_t p = ci * r->cstep;
    __m128i cu, cv;
    if (r->cstep == 2) { /* interleaved pairs: even bytes and odd bytes */
        const uint8_t *base = r->u < r->v ? r->u : r->v;
        __m128i b = r->cshift ? _mm_loadl_epi64((const __m128i *)(base + p)) : _mm_loadu_si128((const __m128i *)(base + p));
        __m128i even = _mm_and_si128(b, lo8), odd = _mm_srli_epi16(b, 8);
        cu = r->u < r->v ? even : odd, cv = r->u < r->v ? odd : even;
    } else if (r->cshift) {
        cu = _mm_unpacklo_epi8(load32(r->u + p), zero), cv = _mm_unpacklo_epi8(load32(r->v + p), zero);
    } else {
        cu = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(r->u + p)), zero);
        cv = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(r->v + p)), zero);
    }
    if (r->cshift) cu = _mm_unpacklo_epi16(cu, cu), cv = _mm_unpacklo_epi16(cv, cv); /* a sample per pixel pair */
    *u = _mm_sub_epi16(cu, c128), *v = _mm_sub_epi16(cv, c128);
}

/* R, G, B of 8 pixels (low halves) as RGB bytes at p[0] + 3 k, or as rows at p[c] + k. */
static inline void store_out(uint8_t *const p[3], int64_t k, bool bytes, __m128i R, __m128i G, __m128i B)
{
    if (bytes) {
        store_rgb8(p[0] + 3 * k, R, G, B);
        return;
    }
    _mm_storel_epi64((__m128i *)(p[0] + k), R);
    _mm_storel_epi64((__m128i *)(p[1] + k), G);
    _mm_storel_epi64((__m128i *)(p[2] + k), B);
}

static inline void rgb_loop(const tl_yuv_rows *r, int64_t x, int64_t x1, tl_rgb_out *o, bool bytes)
{
    const int64_t first = x;
    uint8_t *const p[3] = {o->ch[0], o->ch[1], o->ch[2]}; /* locals: the byte stores could alias *o */
    const split cy = split_of(r->cy, 7), cvr = split_of(r->cvr, 8), cvg = split_of(r->cvg, 8);
    const split cug = split_of(r->cug, 8), cub = split_of(r->cub, 8);
    const __m128i half = _mm_set1_epi32(1 << 19), yoff = _mm_set1_epi16((short)r->yoff), zero = _mm_setzero_si128();
    const uint8_t *py = r->y; /* a local: the byte stores could alias *r */
    for (; x + 8 <= x1; x += 8) {
        __m128i y16 = _mm_subs_epu16(_mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(py + x)), zero), yoff);
        __m128i t_lo, t_hi, u, v, a_lo, a_hi, b_lo, b_hi;
        times(y16, cy, &t_lo, &t_hi);
        t_lo = _mm_add_epi32(t_lo, half), t_hi = _mm_add_epi32(t_hi, half);
        load_chroma(r, r->cshift ? x >> 1 : x, &u, &v);
        times(v, cvr, &a_lo, &a_hi);
        __m128i R = channel(t_lo, t_hi, a_lo, a_hi);
        times(u, cub, &a_lo, &a_hi);
        __m128i B = channel(t_lo, t_hi, a_lo, a_hi);
        times(v, cvg, &a_lo, &a_hi);
        times(u, cug, &b_lo, &b_hi);
        __m128i G = channel(t_lo, t_hi, _mm_add_epi32(a_lo, b_lo), _mm_add_epi32(a_hi, b_hi));
        store_out(p, x - first, bytes, R, G, B);
    }
    tl_rgb_skip(o, x - first);
    tl_yuv_rgb_ukernel__scalar(r, x, x1, o);
}

void tl_yuv_rgb_ukernel__sse2(const tl_yuv_rows *r, int64_t x0, int64_t x1, const tl_rgb_out *out)
{
    int64_t x = x0;
    tl_rgb_out o = *out;
    if (!tl_yuv_rgb_vector_start(r, &x, x1, &o)) return;
    if (tl_rgb_form(&o) == TL_RGB_BYTES) rgb_loop(r, x, x1, &o, true); /* one loop per store form */
    else rgb_loop(r, x, x1, &o, false);
}

/* ---- fast mode ---- */

/* (h0 + t + 32) >> 6 for 8 values, t = ((h1 - h0) b1 + 32) >> 6 as one
 * pmaddwd of (h1 - h0, 1) with (b1, 32) (SSE2 has no pmulhrsw). */
static inline __m128i fast_rows(const uint16_t *h0, const uint16_t *h1, __m128i b, __m128i c32)
{
    const __m128i one = _mm_set1_epi16(1);
    __m128i a = _mm_loadu_si128((const __m128i *)h0), d = _mm_sub_epi16(_mm_loadu_si128((const __m128i *)h1), a);
    __m128i lo = _mm_srai_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(d, one), b), 6);
    __m128i hi = _mm_srai_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(d, one), b), 6);
    return _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(a, c32), _mm_packs_epi32(lo, hi)), 6);
}

void tl_u8_vlinear_fast_ukernel__sse2(const uint16_t *h0, const uint16_t *h1, int32_t b1, uint8_t *out, size_t n)
{
    const __m128i b = _mm_set1_epi32((32 << 16) | b1), c32 = _mm_set1_epi16(32); /* pairs (b1, 32) */
    size_t i = 0;
    for (; i + 16 <= n; i += 16)
        _mm_storeu_si128((__m128i *)(out + i), _mm_packus_epi16(fast_rows(h0 + i, h1 + i, b, c32), fast_rows(h0 + i + 8, h1 + i + 8, b, c32)));
    tl_u8_vlinear_fast_ukernel__scalar(h0 + i, h1 + i, b1, out + i, n - i);
}

void tl_yuv_rgb_fast_ukernel__sse2(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const tl_yuv_fast f = *r; /* a local: the byte stores could alias *r */
    const __m128i yoff = _mm_set1_epi8((char)f.yoff), yg = _mm_set1_epi16((short)f.yg), c32 = _mm_set1_epi16(32);
    const __m128i c128 = _mm_set1_epi16(128), lo8 = _mm_set1_epi16(0xFF);
    const __m128i cvr = _mm_set1_epi16((short)f.cvr), cvg = _mm_set1_epi16((short)f.cvg);
    const __m128i cug = _mm_set1_epi16((short)f.cug), cub = _mm_set1_epi16((short)f.cub);
    size_t x = 0;
    for (; x + 8 <= n; x += 8, rgb += 24) {
        __m128i y = _mm_subs_epu8(_mm_loadl_epi64((const __m128i *)(f.y + x)), yoff);
        __m128i t = _mm_add_epi16(_mm_mulhi_epu16(_mm_unpacklo_epi8(y, y), yg), c32); /* (y, y) = y * 257 */
        __m128i uv = _mm_loadu_si128((const __m128i *)(f.uv + 2 * x));
        __m128i even = _mm_sub_epi16(_mm_and_si128(uv, lo8), c128), odd = _mm_sub_epi16(_mm_srli_epi16(uv, 8), c128);
        __m128i u = f.vfirst ? odd : even, v = f.vfirst ? even : odd;
        __m128i R = _mm_srai_epi16(_mm_adds_epi16(t, _mm_mullo_epi16(v, cvr)), 6);
        __m128i G = _mm_srai_epi16(_mm_adds_epi16(t, _mm_add_epi16(_mm_mullo_epi16(u, cug), _mm_mullo_epi16(v, cvg))), 6);
        __m128i B = _mm_srai_epi16(_mm_adds_epi16(t, _mm_mullo_epi16(u, cub)), 6);
        store_rgb8(rgb, _mm_packus_epi16(R, R), _mm_packus_epi16(G, G), _mm_packus_epi16(B, B));
    }
    tl_yuv_fast rest = f;
    rest.y += x, rest.uv += 2 * x;
    tl_yuv_rgb_fast_ukernel__scalar(&rest, n - x, rgb);
}
#endif
