/* The move family, AVX2: dup even into rows (dup_even_x86.h, 32 bytes a
 * register). */
#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#include <string.h>

#include "kernels/move/move.h"
#define TL_FN static inline
#include "kernels/convert/affine8_x86.h" /* map8_bytes256 */

#define DE_V __m256i
#define DE_W 32
#define DE_SET1_16 _mm256_set1_epi16
#define DE_LOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define DE_STORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), (v))
#define DE_AND _mm256_and_si256
#define DE_OR _mm256_or_si256
#define DE_SRLI16 _mm256_srli_epi16
#define DE_SLLI16 _mm256_slli_epi16
#include "kernels/ring_x86.h"
#include "kernels/move/dup_even_x86.h"

void tl_x8_dup_even_rows_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds)
{
    dup_even_rows(s, d, n, rows, ds, 1, 0);
}

void tl_x8_dup_even_rows2_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                        ptrdiff_t pd)
{
    dup_even_rows(s, d, n, rows, ds, 2, pd);
}

void tl_x8_dup_even_rows_streamed_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                              int planes, ptrdiff_t pd)
{
    dup_even_rows_streamed(s, d, n, rows, ds, planes, pd);
}
#endif

/* Pixel spreads and gathers, AVX2: one in-lane byte shuffle (pshufb) per 32
 * bytes where the scalar kernels move one pixel per word. Each 16-byte lane
 * is loaded from where its first pixel's bytes start, so the shuffle's
 * indices stay inside the lane: a lane of pixels of w <= 16 bytes needs
 * (16 / w) runs of rd bytes, at most 16 (rd + h <= w). Whole 32-byte steps
 * only; the pixels after the last one go byte by byte. The control vectors
 * are built once, by the plan: a streaming plan calls a spread for 512
 * bytes of destination, and building them per call (divisions by the pixel
 * size) halved NHWC u8 -> NC1HWC2 at 256 MiB. */
#if defined(__x86_64__) || defined(_M_X64)
static inline __m256i lanes2(const uint8_t *lo, const uint8_t *hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)lo)),
                                   _mm_loadu_si128((const __m128i *)(const void *)hi), 1);
}

static inline void st32(uint8_t *d, __m256i v, int nt)
{
    if (nt) _mm256_stream_si256((__m256i *)(void *)d, v);
    else _mm256_storeu_si256((__m256i *)(void *)d, v);
}

void tl_spread_ukernel__avx2(const uint8_t *t, size_t rd, uint8_t *d, size_t m, unsigned w, const uint8_t *mask,
                             const uint8_t *ctl, int stream, uint8_t add)
{
    const __m256i a = _mm256_set1_epi8((char)add); /* before the shuffle: the zero lanes stay zero */
    size_t per = w < 32 ? 32 / w : 1, i = 0; /* pixels per 32-byte step */
    int nt = stream && ((uintptr_t)d & 31) == 0; /* every step then starts on 32 bytes */
    /* both lanes alike for pixels that fit a lane; a wider pixel's second
     * lane is zero (its bytes lie in the first 16) */
    const __m128i c16 = _mm_loadu_si128((const __m128i *)(const void *)ctl);
    const __m256i c = _mm256_inserti128_si256(_mm256_castsi128_si256(c16), w < 32 ? c16 : _mm_set1_epi8(-128), 1);
    if (w < 32) {
        for (; i + per <= m; i += per, d += 32)
            st32(d, _mm256_shuffle_epi8(_mm256_add_epi8(lanes2(t + i * rd, t + (i + per / 2) * rd), a), c), nt);
    } else {
        for (; i < m; i++, d += w) {
            __m256i x = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(t + i * rd)));
            st32(d, _mm256_shuffle_epi8(_mm256_add_epi8(x, a), c), nt);
            if (w == 64) st32(d + 32, _mm256_setzero_si256(), nt);
        }
    }
    if (nt) _mm_sfence();
    for (; i < m; i++, d += w)
        for (unsigned o = 0; o < w; o++) d[o] = mask[o] ? (uint8_t)(t[i * rd + o] + add) : 0;
}

/* How many of m pixels the spread above can take straight from a source
 * with `avail` readable bytes from t (no head): its whole steps read 16
 * bytes from a lane's first run. */
size_t tl_spread_direct__avx2(size_t rd, unsigned w, size_t m, size_t avail)
{
    size_t per = w < 32 ? 32 / w : 1, lead = w < 32 ? per / 2 : 1; /* a step's last lane: pixel i + lead */
    if (avail < 16) return 0;
    size_t n = (avail - 16) / rd + lead;
    return n < m ? n : m;
}

/* pixels of 4 or 8 bytes, whole in the load; of 16 or 32 their first word
 * (RKNN NC1HWC2, kCHW32: 3 of 16 or 32 bytes) */
int tl_gather_fits__avx2(size_t ss, size_t rs)
{
    return ((ss == 4 || ss == 8) && rs <= ss) || ((ss == 16 || ss == 32) && rs <= 4);
}

/* Each lane's 16-byte store spills past its bytes, onto bytes the next
 * store writes, so the lane that ends a run stores its bytes exactly; the
 * run's last pixels are one step that overlaps the one before, loaded so
 * that it ends at the last pixel's rs-th byte (no step reads further: the
 * last pixel's stride may end past the source). A byte loop there instead
 * had cost ~40 % of a 295-pixel row (kDLA_HWC4 i8 -> RGB, perf). */
void tl_gather_ctl__avx2(uint8_t ctl[16], size_t ss, size_t rs)
{
    if (ss > 8) ss = 4; /* the shuffle sees each pixel's first word (gather_words) */
    size_t lane = 16 / ss * rs; /* bytes per lane */
    for (unsigned b = 0; b < 16; b++) ctl[b] = b < lane ? (uint8_t)(b / rs * ss + b % rs) : 0x80;
}

/* n <= 16 bytes of x at d, nothing past them (through a stack buffer) */
static inline void store_exact(uint8_t *d, __m128i x, size_t n)
{
    _Alignas(16) uint8_t b[16];
    _mm_store_si128((__m128i *)(void *)b, x);
    memcpy(d, b, n);
}

/* map: a tl_map8 code, a move or a saturation (no constants) */
static inline __attribute__((always_inline)) __m256i gather_step(const uint8_t *s, __m256i c, int map)
{
    return map8_bytes256(_mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(const void *)s), c), NULL, map);
}

/* The first words of 8 pixels of ss >= 16 bytes as 8 pixels of 4 bytes
 * (the register gather_step loads for ss = 4): pixels k and k + 4 share a
 * register, two rounds of unpacks put the words in order. Reads 16 bytes
 * of each pixel. */
static inline __attribute__((always_inline)) __m256i gather_words(const uint8_t *s, size_t ss)
{
    __m256i y[4];
    for (int k = 0; k < 4; k++)
        y[k] = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(s + k * ss))),
                                       _mm_loadu_si128((const __m128i *)(const void *)(s + (k + 4) * ss)), 1);
    return _mm256_unpacklo_epi64(_mm256_unpacklo_epi32(y[0], y[1]), _mm256_unpacklo_epi32(y[2], y[3]));
}

static inline __attribute__((always_inline)) void gather(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                                         const uint8_t *ctl, int map)
{
    const int words = ss > 8;
    size_t per = words ? 8 : 32 / ss, lane = per / 2 * rs, i = 0; /* pixels per step, bytes per lane */
    const __m256i c = _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)ctl));
    for (; i + per < m && i * rs + lane + 16 <= m * rs; i += per, t += 2 * lane) {
        __m256i x = words ? map8_bytes256(_mm256_shuffle_epi8(gather_words(s + i * ss, ss), c), NULL, map)
                          : gather_step(s + i * ss, c, map);
        _mm_storeu_si128((__m128i *)(void *)t, _mm256_castsi256_si128(x));
        _mm_storeu_si128((__m128i *)(void *)(t + lane), _mm256_extracti128_si256(x, 1));
    }
    /* wide pixels: the few left byte by byte (their loads would read 16
     * bytes of the last pixel; the callers gather a tile or an image a call) */
    if (m > per && !words) {
        /* the steps left and the overlapping last one, each lane 1 exact
         * (lane 0's spill lands on lane 1's bytes, written after it) */
        size_t o = ss - rs;
        for (; i < m; i += per, t += 2 * lane) {
            __m256i x;
            if (i + per >= m) { /* the last: its load ends at the last pixel's byte rs */
                t -= (i + per - m) * rs, i = m - per;
                x = gather_step(s + i * ss - o, _mm256_add_epi8(c, _mm256_set1_epi8((char)o)), map);
            } else {
                x = gather_step(s + i * ss, c, map);
            }
            if (2 * lane >= 16) _mm_storeu_si128((__m128i *)(void *)t, _mm256_castsi256_si128(x));
            else store_exact(t, _mm256_castsi256_si128(x), lane);
            store_exact(t + lane, _mm256_extracti128_si256(x, 1), lane);
        }
        return;
    }
    for (; i < m; i++, t += rs)
        for (size_t o = 0; o < rs; o++) t[o] = tl_map8_code(s[i * ss + o], NULL, map);
}

/* ss a constant in each instantiation too (the loads differ) */
#define TL_GATHER_SS(S)                                                                                  \
    do {                                                                                                 \
        if (map == TL_MAP8(TL_MAP8_SAT, 0, 1)) gather(s, S, t, rs, m, ctl, TL_MAP8(TL_MAP8_SAT, 0, 1));  \
        else if (map == TL_MAP8(TL_MAP8_SAT, 1, 0)) gather(s, S, t, rs, m, ctl, TL_MAP8(TL_MAP8_SAT, 1, 0)); \
        else gather(s, S, t, rs, m, ctl, TL_MAP8_MOVE);                                                  \
    } while (0)
void tl_gather_ukernel__avx2(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m, const uint8_t *ctl, int map)
{
    switch (ss) {
    case 4: TL_GATHER_SS(4); break;
    case 8: TL_GATHER_SS(8); break;
    case 16: TL_GATHER_SS(16); break;
    default: TL_GATHER_SS(32); break;
    }
}
#undef TL_GATHER_SS
#endif
