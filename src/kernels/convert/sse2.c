/* Contiguous convert, SSE2: 4 lanes of f32 (x86_body.h holds the steps). No
 * half-float instructions: f16 pairs stay scalar (convert.inc). */
#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#include <string.h>

#include "kernels/convert/pipeline.h"

#define W 4
#define TL_X86_HAVE_F16 0
#define TL_X86_HAVE_GROUPS 0 /* (no byte shuffle before SSSE3) */
#define TL_FN static inline
#define TL_KERNEL
typedef __m128 vf;
typedef __m128i vi;

TL_FN vf vf_set1(float x) { return _mm_set1_ps(x); }
TL_FN vi vi_set1(int32_t x) { return _mm_set1_epi32(x); }
TL_FN vf vf_add(vf a, vf b) { return _mm_add_ps(a, b); }
TL_FN vf vf_sub(vf a, vf b) { return _mm_sub_ps(a, b); }
TL_FN vf vf_mul(vf a, vf b) { return _mm_mul_ps(a, b); }
TL_FN vf vf_div(vf a, vf b) { return _mm_div_ps(a, b); }
TL_FN vf vf_min(vf a, vf b) { return _mm_min_ps(a, b); }
TL_FN vf vf_max(vf a, vf b) { return _mm_max_ps(a, b); }
TL_FN vf vf_load(const uint8_t *p) { return _mm_loadu_ps((const float *)p); }
TL_FN void vf_store(uint8_t *p, vf x) { _mm_storeu_ps((float *)p, x); }
TL_FN vi vi_add(vi a, vi b) { return _mm_add_epi32(a, b); }
TL_FN vi vi_sub(vi a, vi b) { return _mm_sub_epi32(a, b); }
TL_FN vi vi_and(vi a, vi b) { return _mm_and_si128(a, b); }
TL_FN vi vi_or(vi a, vi b) { return _mm_or_si128(a, b); }
TL_FN vi vi_sll16(vi a) { return _mm_slli_epi32(a, 16); }
TL_FN vi vi_srl16(vi a) { return _mm_srli_epi32(a, 16); }
TL_FN vf vi_to_f(vi a) { return _mm_cvtepi32_ps(a); }
TL_FN vf vi_as_f(vi a) { return _mm_castsi128_ps(a); }
TL_FN vi vf_as_i(vf a) { return _mm_castps_si128(a); }
TL_FN vi vf_to_i_trunc(vf a) { return _mm_cvttps_epi32(a); }
TL_FN vi vf_to_i_even(vf a) { return _mm_cvtps_epi32(a); }
TL_FN vi vi_select_nan(vf x, vi a, vi b)
{
    vi m = _mm_castps_si128(_mm_cmpunord_ps(x, x));
    return _mm_or_si128(_mm_and_si128(m, a), _mm_andnot_si128(m, b));
}
TL_FN vf vf_nan_to_zero(vf x) { return _mm_and_ps(x, _mm_cmpord_ps(x, x)); }
TL_FN vf vf_quiet(vf x) { return _mm_or_ps(x, _mm_and_ps(_mm_cmpunord_ps(x, x), _mm_castsi128_ps(vi_set1(0x400000)))); }
TL_FN vi vi_away_adjust(vi t, vf f)
{
    vi ge = _mm_castps_si128(_mm_cmpge_ps(f, vf_set1(0.5f)));
    vi le = _mm_castps_si128(_mm_cmple_ps(f, vf_set1(-0.5f)));
    return _mm_add_epi32(_mm_sub_epi32(t, ge), le);
}
TL_FN vi ld32(const uint8_t *p) { int32_t v; memcpy(&v, p, 4); return _mm_cvtsi32_si128(v); }
TL_FN vi ld_u8(const uint8_t *p)
{
    vi z = _mm_setzero_si128();
    return _mm_unpacklo_epi16(_mm_unpacklo_epi8(ld32(p), z), z);
}
TL_FN vi ld_i8(const uint8_t *p)
{
    vi x = ld32(p);
    x = _mm_unpacklo_epi8(x, x);
    return _mm_srai_epi32(_mm_unpacklo_epi16(x, x), 24);
}
TL_FN vi ld_i16(const uint8_t *p)
{
    vi x = _mm_loadl_epi64((const __m128i *)p);
    return _mm_srai_epi32(_mm_unpacklo_epi16(x, x), 16);
}
TL_FN vi ld_u16(const uint8_t *p) { return _mm_unpacklo_epi16(_mm_loadl_epi64((const __m128i *)p), _mm_setzero_si128()); }
TL_FN void st32(uint8_t *p, vi v) { int32_t x = _mm_cvtsi128_si32(v); memcpy(p, &x, 4); }
TL_FN void st_u8(uint8_t *p, vi v) { vi h = _mm_packs_epi32(v, v); st32(p, _mm_packus_epi16(h, h)); }
TL_FN void st_i8(uint8_t *p, vi v) { vi h = _mm_packs_epi32(v, v); st32(p, _mm_packs_epi16(h, h)); }
/* 4 vectors of codes already in range: saturating packs are exact */
TL_FN void st4_8(uint8_t *p, vi a, vi b, vi c, vi d, int sgn)
{
    vi ab = _mm_packs_epi32(a, b), cd = _mm_packs_epi32(c, d);
    _mm_storeu_si128((__m128i *)p, sgn ? _mm_packs_epi16(ab, cd) : _mm_packus_epi16(ab, cd));
}
TL_FN void st_i16(uint8_t *p, vi v) { _mm_storel_epi64((__m128i *)p, _mm_packs_epi32(v, v)); }
/* 0..65535 in 32-bit lanes: sign-extend the low half so a signed pack keeps it */
TL_FN void st_u16(uint8_t *p, vi v)
{
    v = _mm_srai_epi32(_mm_slli_epi32(v, 16), 16);
    _mm_storel_epi64((__m128i *)p, _mm_packs_epi32(v, v));
}

/* u8 <-> i8 without quantization: one saturating byte operation */
TL_FN void sat8(const uint8_t *s, uint8_t *d, int to_i8)
{
    __m128i x = _mm_loadu_si128((const __m128i *)s);
    if (to_i8) x = _mm_min_epu8(x, _mm_set1_epi8(127));               /* u8 -> i8 */
    else x = _mm_andnot_si128(_mm_cmpgt_epi8(_mm_setzero_si128(), x), x); /* i8 -> u8 */
    _mm_storeu_si128((__m128i *)d, x);
}
/* the last bytes one by one: u8 -> i8 caps at 127, i8 -> u8 floors at 0 */
TL_FN void sat8_tail(const uint8_t *s, uint8_t *d, size_t n, int to_i8)
{
    for (size_t k = 0; k < n; k++) d[k] = to_i8 ? (s[k] > 127 ? 127 : s[k]) : (s[k] > 127 ? 0 : s[k]);
}
#define SAT8_BYTES 16

#include "kernels/convert/x86_body.h"

TL_X86_ROW(tl_u8_u8_convert_ukernel__sse2, TL_U8, TL_U8)
TL_X86_ROW(tl_u8_i8_convert_ukernel__sse2, TL_U8, TL_I8)
TL_X86_ROW(tl_u8_i16_convert_ukernel__sse2, TL_U8, TL_I16)
TL_X86_ROW(tl_u8_bf16_convert_ukernel__sse2, TL_U8, TL_BF16)
TL_X86_ROW(tl_u8_f32_convert_ukernel__sse2, TL_U8, TL_F32)
TL_X86_ROW(tl_i8_u8_convert_ukernel__sse2, TL_I8, TL_U8)
TL_X86_ROW(tl_i8_i8_convert_ukernel__sse2, TL_I8, TL_I8)
TL_X86_ROW(tl_i8_i16_convert_ukernel__sse2, TL_I8, TL_I16)
TL_X86_ROW(tl_i8_bf16_convert_ukernel__sse2, TL_I8, TL_BF16)
TL_X86_ROW(tl_i8_f32_convert_ukernel__sse2, TL_I8, TL_F32)
TL_X86_ROW(tl_i16_u8_convert_ukernel__sse2, TL_I16, TL_U8)
TL_X86_ROW(tl_i16_i8_convert_ukernel__sse2, TL_I16, TL_I8)
TL_X86_ROW(tl_i16_i16_convert_ukernel__sse2, TL_I16, TL_I16)
TL_X86_ROW(tl_i16_bf16_convert_ukernel__sse2, TL_I16, TL_BF16)
TL_X86_ROW(tl_i16_f32_convert_ukernel__sse2, TL_I16, TL_F32)
TL_X86_ROW(tl_bf16_u8_convert_ukernel__sse2, TL_BF16, TL_U8)
TL_X86_ROW(tl_bf16_i8_convert_ukernel__sse2, TL_BF16, TL_I8)
TL_X86_ROW(tl_bf16_i16_convert_ukernel__sse2, TL_BF16, TL_I16)
TL_X86_ROW(tl_bf16_bf16_convert_ukernel__sse2, TL_BF16, TL_BF16)
TL_X86_ROW(tl_bf16_f32_convert_ukernel__sse2, TL_BF16, TL_F32)
TL_X86_ROW(tl_f32_u8_convert_ukernel__sse2, TL_F32, TL_U8)
TL_X86_ROW(tl_f32_i8_convert_ukernel__sse2, TL_F32, TL_I8)
TL_X86_ROW(tl_f32_i16_convert_ukernel__sse2, TL_F32, TL_I16)
TL_X86_ROW(tl_f32_bf16_convert_ukernel__sse2, TL_F32, TL_BF16)
TL_X86_ROW(tl_f32_f32_convert_ukernel__sse2, TL_F32, TL_F32)
#endif
