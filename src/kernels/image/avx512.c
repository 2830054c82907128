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

/* (h b) >> 4 as one multiply-high: (h << 2) (b << 10) >> 16, both factors < 2^16. */
static inline __m512i fast_term(const uint16_t *h, __m512i b)
{
    return _mm512_mulhi_epu16(_mm512_slli_epi16(_mm512_loadu_si512((const void *)h), 2), b);
}

void tl_u8_vlinear_fast_ukernel__avx512(const uint16_t *h0, const uint16_t *h1, int32_t b0, int32_t b1, uint8_t *out, size_t n)
{
    const __m512i vb0 = _mm512_set1_epi16((short)(b0 << 10)), vb1 = _mm512_set1_epi16((short)(b1 << 10));
    const __m512i half = _mm512_set1_epi16(128), order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m512i a = _mm512_add_epi16(_mm512_add_epi16(fast_term(h0 + i, vb0), fast_term(h1 + i, vb1)), half);
        __m512i c = _mm512_add_epi16(_mm512_add_epi16(fast_term(h0 + i + 32, vb0), fast_term(h1 + i + 32, vb1)), half);
        __m512i r = _mm512_packus_epi16(_mm512_srli_epi16(a, 8), _mm512_srli_epi16(c, 8));
        _mm512_storeu_si512((void *)(out + i), _mm512_permutexvar_epi64(order, r));
    }
    tl_u8_vlinear_fast_ukernel__scalar(h0 + i, h1 + i, b0, b1, out + i, n - i);
}

/* 32 pixels of fast mode's YUV -> RGB (tl_yuv_fast) as three rows of 32
 * bytes in pixel order: 16-bit lanes, the luma term one multiply-high of
 * Y * 257, sums saturating (past 32767 is past 255 << 6 either way). */
static inline void rgb32(const tl_yuv_fast *r, size_t x, __m256i *R, __m256i *G, __m256i *B)
{
    const __m512i c32 = _mm512_set1_epi16(32), c128 = _mm512_set1_epi16(128), lo8 = _mm512_set1_epi16(0xFF);
    const __m512i zero = _mm512_setzero_si512();
    __m512i y = _mm512_cvtepu8_epi16(_mm256_subs_epu8(_mm256_loadu_si256((const __m256i *)(r->y + x)),
                                                      _mm256_set1_epi8((char)r->yoff)));
    __m512i t = _mm512_add_epi16(_mm512_mulhi_epu16(_mm512_or_si512(y, _mm512_slli_epi16(y, 8)), _mm512_set1_epi16((short)r->yg)), c32);
    __m512i uv = _mm512_loadu_si512((const void *)(r->uv + 2 * x));
    __m512i even = _mm512_sub_epi16(_mm512_and_si512(uv, lo8), c128), odd = _mm512_sub_epi16(_mm512_srli_epi16(uv, 8), c128);
    __m512i u = r->vfirst ? odd : even, v = r->vfirst ? even : odd;
    __m512i cr = _mm512_mullo_epi16(v, _mm512_set1_epi16((short)r->cvr)), cb = _mm512_mullo_epi16(u, _mm512_set1_epi16((short)r->cub));
    __m512i cg = _mm512_add_epi16(_mm512_mullo_epi16(u, _mm512_set1_epi16((short)r->cug)),
                                  _mm512_mullo_epi16(v, _mm512_set1_epi16((short)r->cvg)));
    /* >> 6, then below 0 -> 0 and the unsigned saturating narrow: sat_u8 */
    *R = _mm512_cvtusepi16_epi8(_mm512_max_epi16(_mm512_srai_epi16(_mm512_adds_epi16(t, cr), 6), zero));
    *G = _mm512_cvtusepi16_epi8(_mm512_max_epi16(_mm512_srai_epi16(_mm512_adds_epi16(t, cg), 6), zero));
    *B = _mm512_cvtusepi16_epi8(_mm512_max_epi16(_mm512_srai_epi16(_mm512_adds_epi16(t, cb), 6), zero));
}

static void yuv_fast_tail(const tl_yuv_fast *r, size_t x, size_t n, uint8_t *rgb)
{
    tl_yuv_fast rest = *r;
    rest.y += x, rest.uv += 2 * x;
    tl_yuv_rgb_fast_ukernel__scalar(&rest, n - x, rgb);
}

void tl_yuv_rgb_fast_ukernel__avx512(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    size_t x = 0;
    for (; x + 32 <= n; x += 32, rgb += 96) {
        __m256i R, G, B;
        rgb32(r, x, &R, &G, &B);
        store_rgb(rgb, _mm256_castsi256_si128(R), _mm256_castsi256_si128(G), _mm256_castsi256_si128(B));
        store_rgb(rgb + 48, _mm256_extracti128_si256(R, 1), _mm256_extracti128_si256(G, 1), _mm256_extracti128_si256(B, 1));
    }
    yuv_fast_tail(r, x, n, rgb);
}

/* Output byte o of 32 RGB pixels: R p, G p, B p at 0 + p, 32 + p, 64 + p of (R G | B). */
static const uint8_t rgb_interleave[96] = {
    0, 32, 64, 1, 33, 65, 2, 34, 66, 3, 35, 67, 4, 36, 68, 5, 37, 69, 6, 38, 70, 7, 39, 71, 8, 40, 72, 9, 41, 73, 10, 42,
    74, 11, 43, 75, 12, 44, 76, 13, 45, 77, 14, 46, 78, 15, 47, 79, 16, 48, 80, 17, 49, 81, 18, 50, 82, 19, 51, 83, 20, 52, 84, 21,
    53, 85, 22, 54, 86, 23, 55, 87, 24, 56, 88, 25, 57, 89, 26, 58, 90, 27, 59, 91, 28, 60, 92, 29, 61, 93, 30, 62, 94, 31, 63, 95};

TL_VBMI void tl_yuv_rgb_fast_ukernel__avx512vbmi(const tl_yuv_fast *r, size_t n, uint8_t *rgb)
{
    const __m512i i0 = _mm512_loadu_si512((const void *)rgb_interleave);
    const __m512i i1 = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)(rgb_interleave + 64)));
    size_t x = 0;
    for (; x + 32 <= n; x += 32, rgb += 96) {
        __m256i R, G, B;
        rgb32(r, x, &R, &G, &B);
        __m512i rg = _mm512_inserti64x4(_mm512_castsi256_si512(R), G, 1), b = _mm512_castsi256_si512(B);
        _mm512_storeu_si512((void *)rgb, _mm512_permutex2var_epi8(rg, i0, b));
        _mm256_storeu_si256((__m256i *)(rgb + 64), _mm512_castsi512_si256(_mm512_permutex2var_epi8(rg, i1, b)));
    }
    yuv_fast_tail(r, x, n, rgb);
}

/* 32 taps a step from one 128-byte window. */
TL_VBMI void tl_u8_pick_ukernel__avx512vbmi(const uint8_t *line, const int32_t *ofs, uint8_t *out, size_t n)
{
    const __m512i limit = _mm512_set1_epi32(127); /* in the window; negatives are huge */
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        int32_t base = ofs[k];
        __m512i a = _mm512_sub_epi32(_mm512_loadu_si512((const void *)(ofs + k)), _mm512_set1_epi32(base));
        __m512i b = _mm512_sub_epi32(_mm512_loadu_si512((const void *)(ofs + k + 16)), _mm512_set1_epi32(base));
        if (_mm512_cmpgt_epu32_mask(a, limit) | _mm512_cmpgt_epu32_mask(b, limit)) { /* further apart: gathers */
            tl_u8_pick_ukernel__avx2(line, ofs + k, out + k, 32);
            continue;
        }
        __m512i idx = _mm512_castsi256_si512(_mm256_setr_m128i(_mm512_cvtepi32_epi8(a), _mm512_cvtepi32_epi8(b)));
        __m512i w0 = _mm512_loadu_si512((const void *)(line + base)), w1 = _mm512_loadu_si512((const void *)(line + base + 64));
        _mm256_storeu_si256((__m256i *)(out + k), _mm512_castsi512_si256(_mm512_permutex2var_epi8(w0, idx, w1)));
    }
    tl_u8_pick_ukernel__scalar(line, ofs + k, out + k, n - k);
}

/* 32 values a step: the control word of value j is (tap_j, tap_j + cn)
 * relative to the window, so one vpermt2b makes the 32 sample pairs and one
 * pmaddubsw the 32 sums. */
TL_VBMI void tl_u8_hlinear_fast_ukernel__avx512vbmi(const uint8_t *line, const int32_t *ofs, const int8_t *w, int cn, uint16_t *h,
                                                    size_t n)
{
    const __m512i second = _mm512_set1_epi32(cn << 8);
    size_t k = 0;
    for (; k + 32 <= n; k += 32) {
        int32_t base = ofs[k];
        __m512i a = _mm512_sub_epi32(_mm512_loadu_si512((const void *)(ofs + k)), _mm512_set1_epi32(base));
        __m512i b = _mm512_sub_epi32(_mm512_loadu_si512((const void *)(ofs + k + 16)), _mm512_set1_epi32(base));
        const __m512i limit = _mm512_set1_epi32(127 - cn); /* both samples in the window; negatives are huge */
        if (_mm512_cmpgt_epu32_mask(a, limit) | _mm512_cmpgt_epu32_mask(b, limit)) {
            tl_u8_hlinear_fast_ukernel__avx2(line, ofs + k, w + 2 * k, cn, h + k, 32);
            continue;
        }
        a = _mm512_add_epi32(_mm512_add_epi32(a, second), _mm512_slli_epi32(a, 8)); /* tap | (tap + cn) << 8 */
        b = _mm512_add_epi32(_mm512_add_epi32(b, second), _mm512_slli_epi32(b, 8));
        __m512i ctl = _mm512_inserti64x4(_mm512_castsi256_si512(_mm512_cvtepi32_epi16(a)), _mm512_cvtepi32_epi16(b), 1);
        __m512i w0 = _mm512_loadu_si512((const void *)(line + base)), w1 = _mm512_loadu_si512((const void *)(line + base + 64));
        __m512i pairs = _mm512_permutex2var_epi8(w0, ctl, w1);
        _mm512_storeu_si512((void *)(h + k), _mm512_maddubs_epi16(pairs, _mm512_loadu_si512((const void *)(w + 2 * k))));
    }
    tl_u8_hlinear_fast_ukernel__scalar(line, ofs + k, w + 2 * k, cn, h + k, n - k);
}
#endif
