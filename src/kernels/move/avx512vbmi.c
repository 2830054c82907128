/* The move family's pixel spread and gather, AVX-512 VBMI: one byte permute
 * (vpermb) per 64 bytes moves every pixel of a register at once, where the
 * scalar kernels take a word move per pixel (a 3-byte RGB pixel into a
 * 16-byte RKNN NC1HWC2 pixel: 4 pixels a step; 6-byte f16 RGB into an 8-byte
 * DLA HWC4 pixel: 8 a step). Pixels are a power-of-two size up to 64 bytes
 * on their strided side; the permute's index table and its zeroing mask are
 * made once by the plan (tl_px_perm_spread / tl_px_perm_gather, move.h).
 * Compiled without ISA flags (the name is not an ISA's): the functions carry
 * target attributes, and the pixels executor calls them only on a CPU with
 * VBMI. */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>

#include "kernels/kernels.h" /* tl_store_line */
#include "kernels/move/move.h"

#define TL_VBMI __attribute__((target("avx512f,avx512bw,avx512vbmi")))

/* m runs of rd bytes, dense in t, into m pixels of w bytes, dense in d. The
 * last step loads up to 64 bytes past its runs: the caller's tile has them.
 * nt: whole steps stored non-temporally (d on a line; the caller fences). */
TL_VBMI void tl_x8_spread_ukernel__avx512vbmi(const uint8_t *t, size_t rd, uint8_t *d, size_t m, size_t w,
                                              const uint8_t *perm, uint64_t keep, int nt)
{
    const __m512i idx = _mm512_loadu_si512((const void *)perm);
    const size_t per = 64 / w;
    size_t i = 0;
    for (; i + per <= m; i += per, t += per * rd, d += 64)
        tl_store_line(d, _mm512_maskz_permutexvar_epi8(keep, idx, _mm512_loadu_si512((const void *)t)), nt);
    if (i < m) {
        __mmask64 st = ~0ull >> (64 - (m - i) * w);
        _mm512_mask_storeu_epi8(d, st, _mm512_maskz_permutexvar_epi8(keep, idx, _mm512_loadu_si512((const void *)t)));
    }
}

/* m pixels of ss bytes, dense in s, to their first rs bytes, dense in t.
 * Reads nothing past the last pixel's rs bytes. `sat` saturates u8 <-> i8
 * in the register (0 none, 1 to i8, 2 to u8); `exact` stores only the runs'
 * bytes (a destination), else up to 64 bytes past them (an L1 tile with
 * room for them: one plain store per step). */
enum { SAT_NONE = 0, SAT_TO_I8 = 1, SAT_TO_U8 = 2 };
TL_VBMI static inline __m512i gather_step(__m512i idx, __m512i v, int sat)
{
    v = _mm512_permutexvar_epi8(idx, v);
    if (sat == SAT_TO_I8) v = _mm512_min_epu8(v, _mm512_set1_epi8(127));
    if (sat == SAT_TO_U8) v = _mm512_max_epi8(v, _mm512_setzero_si512());
    return v;
}

TL_VBMI static inline void gather(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m, const uint8_t *perm,
                                  int sat, int exact)
{
    const __m512i idx = _mm512_loadu_si512((const void *)perm);
    const size_t per = 64 / ss;
    const __mmask64 step = ~0ull >> (64 - per * rs);
    size_t i = 0;
    for (; i + per < m; i += per, s += 64, t += per * rs) { /* the last pixel's stride may end past s */
        __m512i v = gather_step(idx, _mm512_loadu_si512((const void *)s), sat);
        if (exact) _mm512_mask_storeu_epi8(t, step, v);
        else _mm512_storeu_si512((void *)t, v);
    }
    if (i < m) {
        __mmask64 ld = ~0ull >> (64 - ((m - i - 1) * ss + rs)), st = ~0ull >> (64 - (m - i) * rs);
        _mm512_mask_storeu_epi8(t, st, gather_step(idx, _mm512_maskz_loadu_epi8(ld, s), sat));
    }
}

TL_VBMI void tl_x8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                              const uint8_t *perm)
{
    gather(s, ss, t, rs, m, perm, SAT_NONE, 0);
}

/* The same saturating u8 -> i8 and i8 -> u8 (identity quantizations), with
 * exact stores: straight into a destination, which is only stored to. */
TL_VBMI void tl_u8_i8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                                 const uint8_t *perm)
{
    gather(s, ss, t, rs, m, perm, SAT_TO_I8, 1);
}

TL_VBMI void tl_i8_u8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                                 const uint8_t *perm)
{
    gather(s, ss, t, rs, m, perm, SAT_TO_U8, 1);
}
#endif
