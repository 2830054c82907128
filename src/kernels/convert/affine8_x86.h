/* 8-bit tables that are an affine map in 16-bit fixed point (tl_cvt
 * affine8), x86: shared by the convert rows (x86_body.h) and the AVX2
 * de-interleave of rows. The includer defines TL_FN; the 16-byte forms
 * always, the 32-byte ones where AVX2 is compiled in. */
#ifndef TL_KERNELS_CONVERT_AFFINE8_X86_H
#define TL_KERNELS_CONVERT_AFFINE8_X86_H
#include <immintrin.h>
#include <string.h>

#include "kernels/kernels.h" /* tl_cvt */

/* 16 codes widened to 16 bits (sign or zero), times mul plus add, shifted
 * right with the map's rounding ((t + bias + (the kept bit 0 & odd)) >>
 * shift; shift 0: none), packed back with signed or unsigned saturation:
 * SSE2 (every x86 file compiles it). Only the steps the map needs run: no
 * multiply when mul is 1; without the kept bit (odd 0: rounding half up or
 * down) the bias is folded into add, so the rounding is the shift alone
 * (TIDL's v / 2 back: an add and a shift per 8 codes instead of seven
 * operations). */
typedef struct tl_aff8 {
    __m128i mul, add, bias, odd, shift;
    int use_mul, use_odd, use_shift;
} tl_aff8;

TL_FN tl_aff8 aff8_init(const tl_cvt *cv)
{
    int sh = cv->affine8_shift, odd = cv->affine8_odd != 0;
    /* odd 0: t + bias is what is shifted; the plan keeps it inside 16 bits */
    int16_t add = (int16_t)(cv->affine8_add + (odd ? 0 : cv->affine8_bias));
    tl_aff8 k = {_mm_set1_epi16(cv->affine8_mul), _mm_set1_epi16(add), _mm_set1_epi16(cv->affine8_bias),
                 _mm_set1_epi16(cv->affine8_odd), _mm_cvtsi32_si128(sh), cv->affine8_mul != 1, odd, sh != 0};
    return k;
}

TL_FN __m128i aff8_lanes(__m128i t, const tl_aff8 *k)
{
    if (k->use_mul) t = _mm_mullo_epi16(t, k->mul);
    t = _mm_add_epi16(t, k->add);
    if (k->use_odd) {
        __m128i kept = _mm_and_si128(_mm_sra_epi16(t, k->shift), k->odd);
        t = _mm_add_epi16(_mm_add_epi16(t, k->bias), kept);
    }
    return k->use_shift ? _mm_sra_epi16(t, k->shift) : t;
}

TL_FN void affine8_16(const uint8_t *s, uint8_t *d, const tl_aff8 *k, int s_signed, int d_signed)
{
    __m128i x = _mm_loadu_si128((const __m128i *)s);
    __m128i ext = s_signed ? _mm_cmpgt_epi8(_mm_setzero_si128(), x) : _mm_setzero_si128();
    __m128i a = aff8_lanes(_mm_unpacklo_epi8(x, ext), k), b = aff8_lanes(_mm_unpackhi_epi8(x, ext), k);
    _mm_storeu_si128((__m128i *)d, d_signed ? _mm_packs_epi16(a, b) : _mm_packus_epi16(a, b));
}

/* The same 32 codes a step in the 16-bit lanes of two ymm registers, in
 * the files compiled for AVX2 or above: a third fewer operations per byte
 * than two 16-byte steps. */
#ifdef __AVX2__
/* What a map needs, as bits (tl_aff8_256 kind): a loop given a constant
 * kind is compiled without the tests (the AVX2 rows kernels instantiate
 * the kinds of TIDL's maps). */
enum { TL_AFF8_S_SIGNED = 1, TL_AFF8_D_SIGNED = 2, TL_AFF8_MUL = 4, TL_AFF8_ODD = 8, TL_AFF8_SHIFT = 16 };

typedef struct tl_aff8_256 {
    __m256i mul, add, bias, odd, add8; /* add8: the byte map ADD's add (map8_init256) */
    __m128i shift;
    int kind;
} tl_aff8_256;

TL_FN __attribute__((always_inline)) __m256i aff8_lanes256(__m256i t, const tl_aff8_256 *w, int kind)
{
    if (kind & TL_AFF8_MUL) t = _mm256_mullo_epi16(t, w->mul);
    t = _mm256_add_epi16(t, w->add);
    if (kind & TL_AFF8_ODD) {
        __m256i kept = _mm256_and_si256(_mm256_sra_epi16(t, w->shift), w->odd);
        t = _mm256_add_epi16(_mm256_add_epi16(t, w->bias), kept);
    }
    return kind & TL_AFF8_SHIFT ? _mm256_sra_epi16(t, w->shift) : t;
}

/* 32 codes in a register through the map (constants from aff8_wide_init):
 * the rows below, and the AVX2 (de)interleave of rows, which maps each
 * plane's register. */
TL_FN tl_aff8_256 aff8_wide_init(const tl_aff8 *k, int s_signed, int d_signed)
{
    tl_aff8_256 w = {_mm256_broadcastsi128_si256(k->mul), _mm256_broadcastsi128_si256(k->add),
                     _mm256_broadcastsi128_si256(k->bias), _mm256_broadcastsi128_si256(k->odd),
                     _mm256_setzero_si256(), k->shift,
                     (s_signed ? TL_AFF8_S_SIGNED : 0) | (d_signed ? TL_AFF8_D_SIGNED : 0) |
                         (k->use_mul ? TL_AFF8_MUL : 0) | (k->use_odd ? TL_AFF8_ODD : 0) |
                         (k->use_shift ? TL_AFF8_SHIFT : 0)};
    return w;
}

/* widened in each 128-bit lane (unpack with the sign or zero bytes), so the
 * lane-wise pack puts the codes back in order without a lane permute */
TL_FN __attribute__((always_inline)) __m256i aff8_bytes256(__m256i x, const tl_aff8_256 *w, int kind)
{
    __m256i ext = kind & TL_AFF8_S_SIGNED ? _mm256_cmpgt_epi8(_mm256_setzero_si256(), x) : _mm256_setzero_si256();
    __m256i a = aff8_lanes256(_mm256_unpacklo_epi8(x, ext), w, kind);
    __m256i b = aff8_lanes256(_mm256_unpackhi_epi8(x, ext), w, kind);
    return kind & TL_AFF8_D_SIGNED ? _mm256_packs_epi16(a, b) : _mm256_packus_epi16(a, b);
}

/* ---- the byte maps (tl_map8, kernels.h) on 32 codes ------------------------------ */
/* The same answers as the NEON forms (affine8_neon.h) with AVX2's
 * operations: there is no byte shift, so v / 2 is a 16-bit shift with the
 * bit from the next byte masked off, and the signed halvings work on
 * v ^ 0x80 (v + 128 as an unsigned byte). Where a map stays in bytes this
 * is 1 to 4 operations per 32 codes against 7 or more widened. */
TL_FN __attribute__((always_inline)) __m256i map8_halve256(__m256i v, int up, int s_signed, int d_signed)
{
    const __m256i top = _mm256_set1_epi8((char)0x80), zero = _mm256_setzero_si256();
    if (s_signed) {
        const __m256i u = _mm256_xor_si256(v, top);
        /* up: (u + 128 + 1) >> 1 = (v + 1) >> 1 (arithmetic) + 128; down: u >> 1 = (v >> 1) + 64 */
        __m256i r = up ? _mm256_xor_si256(_mm256_avg_epu8(u, top), top)
                       : _mm256_sub_epi8(_mm256_and_si256(_mm256_srli_epi16(u, 1), _mm256_set1_epi8(0x7f)),
                                         _mm256_set1_epi8(64));
        return d_signed ? r : _mm256_max_epi8(r, zero);
    }
    __m256i r = up ? _mm256_avg_epu8(v, zero) : _mm256_and_si256(_mm256_srli_epi16(v, 1), _mm256_set1_epi8(0x7f));
    return d_signed && up ? _mm256_min_epu8(r, _mm256_set1_epi8(127)) : r;
}

TL_FN __attribute__((always_inline)) __m256i map8_double256(__m256i v, int s_signed, int d_signed)
{
    if (s_signed && d_signed) return _mm256_adds_epi8(v, v);
    if (s_signed) { /* negative to 0 first; then 2v <= 254 */
        const __m256i m = _mm256_max_epi8(v, _mm256_setzero_si256());
        return _mm256_add_epi8(m, m);
    }
    const __m256i r = _mm256_adds_epu8(v, v);
    return d_signed ? _mm256_min_epu8(r, _mm256_set1_epi8(127)) : r;
}

/* 32 codes through the byte map m (a tl_map8 code: a constant in each
 * instantiation); w from map8_init256 (the add and the widened map) */
TL_FN __attribute__((always_inline)) __m256i map8_bytes256(__m256i v, const tl_aff8_256 *w, int m)
{
    const int s = TL_MAP8_S(m), d = TL_MAP8_D(m);
    switch (TL_MAP8_OP(m)) {
    case TL_MAP8_SAT:
        return d ? _mm256_min_epu8(v, _mm256_set1_epi8(127)) : _mm256_max_epi8(v, _mm256_setzero_si256());
    case TL_MAP8_ADD: return _mm256_add_epi8(v, w->add8);
    case TL_MAP8_HALVE_DOWN: return map8_halve256(v, 0, s, d);
    case TL_MAP8_HALVE_UP: return map8_halve256(v, 1, s, d);
    case TL_MAP8_DOUBLE: return map8_double256(v, s, d);
    case TL_MAP8_WIDE: return aff8_bytes256(v, w, w->kind);
    default: return v;
    }
}

/* the constants of cv's byte map m (none for a move or a saturation: cv
 * may then be NULL) */
TL_FN tl_aff8_256 map8_init256(const tl_cvt *cv, int m)
{
    tl_aff8_256 w;
    memset(&w, 0, sizeof w);
    if (TL_MAP8_OP(m) < TL_MAP8_ADD) return w;
    const tl_aff8 k = aff8_init(cv);
    w = aff8_wide_init(&k, cv->sdt == TL_I8, cv->ddt == TL_I8);
    w.add8 = _mm256_set1_epi8((char)tl_map8_add(cv));
    return w;
}

TL_FN size_t affine8_wide(const uint8_t *s, uint8_t *d, size_t n, const tl_aff8 *k, int s_signed, int d_signed)
{
    const tl_aff8_256 w = aff8_wide_init(k, s_signed, d_signed);
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        _mm256_storeu_si256((__m256i *)(d + i), aff8_bytes256(_mm256_loadu_si256((const __m256i *)(s + i)), &w, w.kind));
    return i;
}
#else
TL_FN size_t affine8_wide(const uint8_t *s, uint8_t *d, size_t n, const tl_aff8 *k, int s_signed, int d_signed)
{
    (void)s, (void)d, (void)n, (void)k, (void)s_signed, (void)d_signed;
    return 0;
}
#endif

#endif
