/* The AVX-512 3-channel byte interleave and de-interleave bodies (64 pixels
 * a step) and the helpers they share with the other AVX-512 interleave
 * kernels. Included by avx512.c (F/BW/VL) and avx512vbmi.c, which defines
 * TL_X8_LUT 1: every byte then goes through the plan's 8-bit conversion in
 * the register (bmap below), so a de-interleave with a requantization is
 * one pass, not a table pass over an L1 tile and a move. The includer
 * defines TL_TARGET, TL_FN and TL_KERNEL first. */
#ifndef TL_KERNELS_INTERLEAVE_X86_BYTES3_512_H
#define TL_KERNELS_INTERLEAVE_X86_BYTES3_512_H

#ifndef TL_X8_LUT
#define TL_X8_LUT 0
#endif

#include "kernels/interleave/interleave_lut.h" /* tl_x8_vbmi_map */

/* The 8-bit conversion the kernels apply to each register of codes: a
 * byte map computed in 1 or 2 byte operations per 64 codes, or
 * (TL_MAP8_LUT) the plan's 256-byte table in the register, two vpermi2b
 * and a blend, VBMI only (tl_x8_vbmi_map, interleave_lut.h, chooses). m is
 * a constant in each instantiation, so no step tests it. TIDL padded i8 ->
 * NHWC u8 at 256 KiB (Zen 5): 0.43x memcpy by the table, 0.62x by bytes. */
typedef struct bmap {
    __m512i t[4]; /* TL_MAP8_LUT: the table's four 64-byte quarters */
    __m512i add;  /* TL_MAP8_ADD: its add in every byte */
} bmap;

TL_FN void bmap_init(bmap *b, const tl_cvt *cv, int m)
{
    b->add = _mm512_setzero_si512();
    for (int q = 0; q < 4; q++) b->t[q] = _mm512_setzero_si512();
#if TL_X8_LUT
    if (m == TL_MAP8_LUT)
        for (int q = 0; q < 4; q++) b->t[q] = _mm512_loadu_si512((const void *)(cv->lut + 64 * q));
#endif
    if (m == TL_MAP8(TL_MAP8_ADD, 0, 0)) b->add = _mm512_set1_epi8((char)tl_map8_add(cv));
}

/* Every byte of v through the map m (only those tl_x8_vbmi_map gives).
 * The table: the low and the high half by one vpermi2b each, the index's
 * top bit picks (as tl_x8_lut_ukernel__avx512vbmi). */
TL_FN __m512i bmap_apply(__m512i v, const bmap *b, int m)
{
    if (m == TL_MAP8_LUT) {
#if TL_X8_LUT
        __m512i lo = _mm512_permutex2var_epi8(b->t[0], v, b->t[1]), hi = _mm512_permutex2var_epi8(b->t[2], v, b->t[3]);
        return _mm512_mask_blend_epi8(_mm512_movepi8_mask(v), lo, hi);
#else
        return v;
#endif
    }
    const __m512i zero = _mm512_setzero_si512();
    switch (m) {
    case TL_MAP8(TL_MAP8_SAT, 0, 1): return _mm512_min_epu8(v, _mm512_set1_epi8(0x7f));
    case TL_MAP8(TL_MAP8_SAT, 1, 0): return _mm512_max_epi8(v, zero);
    case TL_MAP8(TL_MAP8_ADD, 0, 0): return _mm512_add_epi8(v, b->add);
    case TL_MAP8(TL_MAP8_DOUBLE, 1, 0): { /* negative to 0 first; then 2v <= 254 */
        const __m512i p = _mm512_max_epi8(v, zero);
        return _mm512_add_epi8(p, p);
    }
    default: return v; /* a move */
    }
}

/* Lane L (1..3) of v straight to memory: the memory form of vextracti32x4
 * is a plain store (compilers emit a shuffle and a store). */
#define TL_STORE_LANE(p, v, L) __asm__ volatile("vextracti32x4 $" #L ", %1, %0" : "=m"(*(__m128i *)(p)) : "v"(v))

/* Non-temporal stores when the engine allows them (the call writes more than
 * the cache holds) and the 64-byte stores are aligned (whole lines, written in order). */
TL_FN int streams(int stream, uintptr_t d, ptrdiff_t ds1)
{
    return stream && ((d | (uintptr_t)ds1) & 63) == 0;
}

static inline __mmask64 mask_n(size_t n) { return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1; }

TL_FN __m512i bmask(const uint8_t *m) { return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)m)); }

TL_FN __m512i or3(__m512i a, __m512i b, __m512i c) { return _mm512_ternarylogic_epi32(a, b, c, 0xFE); }

/* ---- interleave: 3 planes -> 64 packed pixels per step ----------------------------- */
/* o[q], lane L: output block 3L + q (16 bytes) of the 192. */
TL_FN void ilv3_blocks(__m512i r, __m512i g, __m512i b, const __m512i k[3][3], __m512i o[3])
{
    TL_UNROLL
    for (int q = 0; q < 3; q++)
        o[q] = or3(_mm512_shuffle_epi8(r, k[q][0]), _mm512_shuffle_epi8(g, k[q][1]), _mm512_shuffle_epi8(b, k[q][2]));
}

/* The blocks in memory order as 3 whole registers (for streaming and tails). */
TL_FN void ilv3_whole(const __m512i o[3], __m512i w[3])
{
    __m512i t = _mm512_permutex2var_epi64(o[0], _mm512_setr_epi64(0, 1, 8, 9, 0, 0, 2, 3), o[1]);
    w[0] = _mm512_mask_permutexvar_epi64(t, 0x30, _mm512_setr_epi64(0, 0, 0, 0, 0, 1, 0, 0), o[2]);
    t = _mm512_permutex2var_epi64(o[1], _mm512_setr_epi64(2, 3, 0, 0, 12, 13, 4, 5), o[0]);
    w[1] = _mm512_mask_permutexvar_epi64(t, 0x0C, _mm512_setr_epi64(0, 0, 2, 3, 0, 0, 0, 0), o[2]);
    t = _mm512_permutex2var_epi64(o[2], _mm512_setr_epi64(4, 5, 14, 15, 0, 0, 6, 7), o[0]);
    w[2] = _mm512_mask_permutexvar_epi64(t, 0x30, _mm512_setr_epi64(0, 0, 0, 0, 6, 7, 0, 0), o[1]);
}

/* A plane's bytes through the map; a NULL plane is zero lanes (not mapped). */
TL_FN __m512i ld_plane(const uint8_t *p, size_t i, __mmask64 m, const bmap *b, int map)
{
    return p ? bmap_apply(_mm512_maskz_loadu_epi8(m, p + i), b, map) : _mm512_setzero_si512();
}

#if TL_X8_LUT
/* With VBMI, output register q (bytes 64q .. 64q + 63 of 64 pixels) is one
 * two-source byte permute of the R and G registers and a masked permute of
 * B: 6 shuffles and 3 whole stores a step, where the lane shuffles take 9
 * and 12 lane stores. Byte j of register q is channel (64q + j) % 3 of
 * pixel (64q + j) / 3: its index in R:G, and in B where the mask says. */
static const uint8_t k_ilv3_vbmi[3][2][64] __attribute__((aligned(64))) = {
    {{
           0,  64,   0,   1,  65,   0,   2,  66,   0,   3,  67,   0,   4,  68,   0,   5,
          69,   0,   6,  70,   0,   7,  71,   0,   8,  72,   0,   9,  73,   0,  10,  74,
           0,  11,  75,   0,  12,  76,   0,  13,  77,   0,  14,  78,   0,  15,  79,   0,
          16,  80,   0,  17,  81,   0,  18,  82,   0,  19,  83,   0,  20,  84,   0,  21},
     {
           0,   0,   0,   0,   0,   1,   0,   0,   2,   0,   0,   3,   0,   0,   4,   0,
           0,   5,   0,   0,   6,   0,   0,   7,   0,   0,   8,   0,   0,   9,   0,   0,
          10,   0,   0,  11,   0,   0,  12,   0,   0,  13,   0,   0,  14,   0,   0,  15,
           0,   0,  16,   0,   0,  17,   0,   0,  18,   0,   0,  19,   0,   0,  20,   0}},
    {{
          85,   0,  22,  86,   0,  23,  87,   0,  24,  88,   0,  25,  89,   0,  26,  90,
           0,  27,  91,   0,  28,  92,   0,  29,  93,   0,  30,  94,   0,  31,  95,   0,
          32,  96,   0,  33,  97,   0,  34,  98,   0,  35,  99,   0,  36, 100,   0,  37,
         101,   0,  38, 102,   0,  39, 103,   0,  40, 104,   0,  41, 105,   0,  42, 106},
     {
           0,  21,   0,   0,  22,   0,   0,  23,   0,   0,  24,   0,   0,  25,   0,   0,
          26,   0,   0,  27,   0,   0,  28,   0,   0,  29,   0,   0,  30,   0,   0,  31,
           0,   0,  32,   0,   0,  33,   0,   0,  34,   0,   0,  35,   0,   0,  36,   0,
           0,  37,   0,   0,  38,   0,   0,  39,   0,   0,  40,   0,   0,  41,   0,   0}},
    {{
           0,  43, 107,   0,  44, 108,   0,  45, 109,   0,  46, 110,   0,  47, 111,   0,
          48, 112,   0,  49, 113,   0,  50, 114,   0,  51, 115,   0,  52, 116,   0,  53,
         117,   0,  54, 118,   0,  55, 119,   0,  56, 120,   0,  57, 121,   0,  58, 122,
           0,  59, 123,   0,  60, 124,   0,  61, 125,   0,  62, 126,   0,  63, 127,   0},
     {
          42,   0,   0,  43,   0,   0,  44,   0,   0,  45,   0,   0,  46,   0,   0,  47,
           0,   0,  48,   0,   0,  49,   0,   0,  50,   0,   0,  51,   0,   0,  52,   0,
           0,  53,   0,   0,  54,   0,   0,  55,   0,   0,  56,   0,   0,  57,   0,   0,
          58,   0,   0,  59,   0,   0,  60,   0,   0,  61,   0,   0,  62,   0,   0,  63}},
};
static const uint64_t k_ilv3_vbmi_b[3] = {0x4924924924924924ull, 0x2492492492492492ull, 0x9249249249249249ull};

TL_FN void ilv3_regs(__m512i r, __m512i g, __m512i b, const __m512i k[3][3], __m512i w[3])
{
    (void)k;
    TL_UNROLL
    for (int q = 0; q < 3; q++)
        w[q] = _mm512_mask_permutexvar_epi8(
            _mm512_permutex2var_epi8(r, _mm512_load_si512((const void *)k_ilv3_vbmi[q][0]), g), k_ilv3_vbmi_b[q],
            _mm512_load_si512((const void *)k_ilv3_vbmi[q][1]), b);
}
#else
TL_FN void ilv3_regs(__m512i r, __m512i g, __m512i b, const __m512i k[3][3], __m512i w[3])
{
    __m512i o[3];
    ilv3_blocks(r, g, b, k, o);
    ilv3_whole(o, w);
}
#endif

/* m < 64 pixels from pixel i: masked loads and stores. */
TL_FN void ilv3_part(const uint8_t *p0, const uint8_t *p1, const uint8_t *p2, uint8_t *d, size_t i, size_t m,
                     const __m512i k[3][3], const bmap *bm, int map)
{
    __m512i w[3];
    __mmask64 lm = mask_n(m);
    ilv3_regs(ld_plane(p0, i, lm, bm, map), ld_plane(p1, i, lm, bm, map), ld_plane(p2, i, lm, bm, map), k, w);
    for (size_t j = 0; j < 3 && 64 * j < 3 * m; j++)
        _mm512_mask_storeu_epi8(d + 3 * i + 64 * j, mask_n(3 * m - 64 * j), w[j]);
}

TL_FN size_t ilv_x8_3(const uint8_t *const *pl, uint8_t *d, size_t n, int stream, const tl_cvt *cv, int map)
{
    __m512i k[3][3], o[3], w[3];
    bmap bm;
    bmap_init(&bm, cv, map);
    TL_UNROLL
    for (int q = 0; q < 3; q++)
        TL_UNROLL
        for (int c = 0; c < 3; c++) k[q][c] = bmask(k_ilv3[q][c]);
    const __m512i zero = _mm512_setzero_si512();
    const uint8_t *p0 = pl[0], *p1 = pl[1], *p2 = pl[2];
    /* streaming: the pixels before the first one whose bytes start a line
     * (3 is odd, so one of the first 64 does) by the masked step, then the
     * steps' whole lines non-temporal. An image of an NHWC batch rarely
     * starts on a line (3862 x 3861 pixels: 42 bytes past), and plain
     * stores there read every line first. */
    size_t i = 0;
    if (stream)
        while (i < 63 && ((uintptr_t)d + 3 * i) % 64) i++;
    if (i > n) i = n;
    if (i) ilv3_part(p0, p1, p2, d, 0, i, k, &bm, map);
    int nt = streams(stream, (uintptr_t)(d + 3 * i), 0);
    for (; i + 64 <= n; i += 64) {
        __m512i r = p0 ? bmap_apply(_mm512_loadu_si512((const void *)(p0 + i)), &bm, map) : zero;
        __m512i g = p1 ? bmap_apply(_mm512_loadu_si512((const void *)(p1 + i)), &bm, map) : zero;
        __m512i b = p2 ? bmap_apply(_mm512_loadu_si512((const void *)(p2 + i)), &bm, map) : zero;
        uint8_t *p = d + 3 * i;
#if TL_X8_LUT /* streamed steps keep the lane shuffles: NCHW -> NHWC u8 C=3 at 256 MiB
                 measured 24.4 against 26.5 GB/s with the permutes (loaded machine) */
        if (!nt) {
            ilv3_regs(r, g, b, k, w);
            TL_UNROLL
            for (int j = 0; j < 3; j++) _mm512_storeu_si512((void *)(p + 64 * j), w[j]);
            continue;
        }
#endif
        ilv3_blocks(r, g, b, k, o);
        if (nt) {
            ilv3_whole(o, w);
            TL_UNROLL
            for (int j = 0; j < 3; j++) _mm512_stream_si512((void *)(p + 64 * j), w[j]);
            continue;
        }
        _mm_storeu_si128((__m128i *)p, _mm512_castsi512_si128(o[0]));
        _mm_storeu_si128((__m128i *)(p + 16), _mm512_castsi512_si128(o[1]));
        _mm_storeu_si128((__m128i *)(p + 32), _mm512_castsi512_si128(o[2]));
        TL_STORE_LANE(p + 48, o[0], 1);
        TL_STORE_LANE(p + 64, o[1], 1);
        TL_STORE_LANE(p + 80, o[2], 1);
        TL_STORE_LANE(p + 96, o[0], 2);
        TL_STORE_LANE(p + 112, o[1], 2);
        TL_STORE_LANE(p + 128, o[2], 2);
        TL_STORE_LANE(p + 144, o[0], 3);
        TL_STORE_LANE(p + 160, o[1], 3);
        TL_STORE_LANE(p + 176, o[2], 3);
    }
    if (nt) _mm_sfence();
    if (i < n && n >= 64) { /* the last 1..63 pixels: the last 64 again (same bytes) */
        i = n - 64;
        ilv3_regs(ld_plane(p0, i, ~(__mmask64)0, &bm, map), ld_plane(p1, i, ~(__mmask64)0, &bm, map),
                  ld_plane(p2, i, ~(__mmask64)0, &bm, map), k, w);
        TL_UNROLL
        for (int j = 0; j < 3; j++) _mm512_storeu_si512((void *)(d + 3 * i + 64 * j), w[j]);
    } else if (i < n) { /* fewer than 64 pixels: masked loads and stores */
        ilv3_part(p0, p1, p2, d, i, n - i, k, &bm, map);
    }
    return n;
}

/* ---- de-interleave: 64 packed pixels -> 3 planes per step ---------------------------- */
/* a[q], lane L: input block 3L + q, loaded by inserts (no shuffle port). */
TL_FN void dlv3_load(const uint8_t *p, __m512i a[3])
{
    TL_UNROLL
    for (int q = 0; q < 3; q++) {
        const uint8_t *s = p + 16 * q;
        __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)s));
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(s + 48)), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(s + 96)), 2);
        a[q] = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(s + 144)), 3);
    }
}

/* A destination row that starts off a 64-byte line would take a split store
 * per register, which costs as much as the whole shuffle work here. Such a
 * row is written with aligned stores: each one takes the row's bytes from
 * the previous and the current register (two dword permutes and a shift,
 * no store splits). */
typedef struct aligner {
    __m512i lo_idx, hi_idx, rsh, lsh;
    unsigned a; /* bytes from the row start to its first line boundary, 0..63 */
} aligner;

TL_FN void aligner_init(aligner *al, const uint8_t *row)
{
    unsigned a = (unsigned)(-(uintptr_t)row & 63), q = a / 4, r = a % 4;
    al->a = a;
    al->lo_idx = _mm512_add_epi32(_mm512_set1_epi32((int)q), _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    al->hi_idx = _mm512_add_epi32(al->lo_idx, _mm512_set1_epi32(1));
    al->rsh = _mm512_set1_epi32((int)(8 * r));
    al->lsh = _mm512_set1_epi32((int)(32 - 8 * r)); /* 32: a zero shift-in when r == 0 */
}

/* A whole aligned line, non-temporal when the call streams. */
TL_FN void store_line(uint8_t *p, __m512i v, int nt)
{
    if (nt) _mm512_stream_si512((void *)p, v);
    else _mm512_store_si512((void *)p, v);
}

/* Bytes a .. a + 63 of prev:cur (prev the lower addresses). */
TL_FN __m512i aligner_cat(const aligner *al, __m512i prev, __m512i cur)
{
    __m512i x = _mm512_permutex2var_epi32(prev, al->lo_idx, cur), y = _mm512_permutex2var_epi32(prev, al->hi_idx, cur);
    return _mm512_or_si512(_mm512_srlv_epi32(x, al->rsh), _mm512_sllv_epi32(y, al->lsh));
}

/* The same for the last 1..63 pixels: masked loads of their `bytes` (a copy
 * to a buffer would be reloaded before the store buffer can forward it). */
TL_FN void dlv3_load_n(const uint8_t *p, __m512i a[3], size_t bytes)
{
    TL_UNROLL
    for (int q = 0; q < 3; q++) {
        __m128i x[4];
        TL_UNROLL
        for (int l = 0; l < 4; l++) {
            size_t off = (size_t)(48 * l + 16 * q), k = bytes > off ? bytes - off : 0;
            x[l] = _mm_maskz_loadu_epi8((__mmask16)mask_n(k > 16 ? 16 : k), p + off);
        }
        __m512i v = _mm512_castsi128_si512(x[0]);
        v = _mm512_inserti32x4(v, x[1], 1);
        v = _mm512_inserti32x4(v, x[2], 2);
        a[q] = _mm512_inserti32x4(v, x[3], 3);
    }
}

#if TL_X8_LUT
/* With VBMI the step loads 3 whole registers and takes channel c by one
 * two-source byte permute of the first 128 bytes (byte 3j + c) and a
 * masked permute of the last 64 (where 3j + c >= 128): 6 shuffles a step
 * instead of 9, which leaves room for the table's 9. The tables: byte
 * 3j + c's index in the first 128 bytes, and in the last 64 where
 * 3j + c >= 128 (the mask's bits); constants, as the step is called per
 * row (a TIDL row is 296 pixels). */
static const uint8_t k_dlv3_vbmi[3][2][64] __attribute__((aligned(64))) = {
    {{
           0,   3,   6,   9,  12,  15,  18,  21,  24,  27,  30,  33,  36,  39,  42,  45,
          48,  51,  54,  57,  60,  63,  66,  69,  72,  75,  78,  81,  84,  87,  90,  93,
          96,  99, 102, 105, 108, 111, 114, 117, 120, 123, 126,   1,   4,   7,  10,  13,
          16,  19,  22,  25,  28,  31,  34,  37,  40,  43,  46,  49,  52,  55,  58,  61},
     {
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   1,   4,   7,  10,  13,
          16,  19,  22,  25,  28,  31,  34,  37,  40,  43,  46,  49,  52,  55,  58,  61}},
    {{
           1,   4,   7,  10,  13,  16,  19,  22,  25,  28,  31,  34,  37,  40,  43,  46,
          49,  52,  55,  58,  61,  64,  67,  70,  73,  76,  79,  82,  85,  88,  91,  94,
          97, 100, 103, 106, 109, 112, 115, 118, 121, 124, 127,   2,   5,   8,  11,  14,
          17,  20,  23,  26,  29,  32,  35,  38,  41,  44,  47,  50,  53,  56,  59,  62},
     {
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   2,   5,   8,  11,  14,
          17,  20,  23,  26,  29,  32,  35,  38,  41,  44,  47,  50,  53,  56,  59,  62}},
    {{
           2,   5,   8,  11,  14,  17,  20,  23,  26,  29,  32,  35,  38,  41,  44,  47,
          50,  53,  56,  59,  62,  65,  68,  71,  74,  77,  80,  83,  86,  89,  92,  95,
          98, 101, 104, 107, 110, 113, 116, 119, 122, 125,   0,   3,   6,   9,  12,  15,
          18,  21,  24,  27,  30,  33,  36,  39,  42,  45,  48,  51,  54,  57,  60,  63},
     {
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   3,   6,   9,  12,  15,
          18,  21,  24,  27,  30,  33,  36,  39,  42,  45,  48,  51,  54,  57,  60,  63}},
};
static const uint64_t k_dlv3_vbmi_hi[3] = {0xfffff80000000000ull, 0xfffff80000000000ull, 0xfffffc0000000000ull};

TL_FN void dlv3_tables(__m512i k[3][3])
{
    TL_UNROLL
    for (int c = 0; c < 3; c++) {
        k[c][0] = _mm512_load_si512((const void *)k_dlv3_vbmi[c][0]);
        k[c][1] = _mm512_load_si512((const void *)k_dlv3_vbmi[c][1]);
        k[c][2] = _mm512_setzero_si512(); /* (unused: the mask is k_dlv3_vbmi_hi[c]) */
    }
}

TL_FN void dlv3_load_whole(const uint8_t *p, __m512i a[3])
{
    TL_UNROLL
    for (int q = 0; q < 3; q++) a[q] = _mm512_loadu_si512((const void *)(p + 64 * q));
}

TL_FN void dlv3_load_part(const uint8_t *p, __m512i a[3], size_t bytes)
{
    TL_UNROLL
    for (int q = 0; q < 3; q++) {
        size_t k = bytes > (size_t)(64 * q) ? bytes - (size_t)(64 * q) : 0;
        a[q] = _mm512_maskz_loadu_epi8(mask_n(k), p + 64 * q);
    }
}

TL_FN __m512i dlv3_channel(const __m512i a[3], const __m512i k[3][3], int c)
{
    return _mm512_mask_permutexvar_epi8(_mm512_permutex2var_epi8(a[0], k[c][0], a[1]), k_dlv3_vbmi_hi[c], k[c][1],
                                        a[2]);
}
#define TL_DLV3_LOAD dlv3_load_whole
#define TL_DLV3_LOAD_N dlv3_load_part
#else
TL_FN void dlv3_tables(__m512i k[3][3])
{
    TL_UNROLL
    for (int c = 0; c < 3; c++)
        TL_UNROLL
        for (int b = 0; b < 3; b++) k[c][b] = bmask(k_dlv3[c][b]);
}

TL_FN __m512i dlv3_channel(const __m512i a[3], const __m512i k[3][3], int c)
{
    return or3(_mm512_shuffle_epi8(a[0], k[c][0]), _mm512_shuffle_epi8(a[1], k[c][1]), _mm512_shuffle_epi8(a[2], k[c][2]));
}
#define TL_DLV3_LOAD dlv3_load
#define TL_DLV3_LOAD_N dlv3_load_n
#endif

TL_FN size_t dilv_x8_3(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, size_t n, int stream, const tl_cvt *cv, int map)
{
    __m512i k[3][3], a[3], prev[3] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512()};
    bmap bm;
    bmap_init(&bm, cv, map);
    dlv3_tables(k);
    aligner al[3];
    TL_UNROLL
    for (int c = 0; c < 3; c++) aligner_init(&al[c], d + c * ds1);
    /* every full store below is aligned, but for rows stored as they are
       (TL_T2D_SPLIT: the machine's stores across lines are cheap) */
    int nt = streams(stream & TL_T2D_STREAM, 0, 0), split = !nt && (stream & TL_T2D_SPLIT);
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        TL_DLV3_LOAD(s + 3 * i, a);
        if (nt) tl_prefetch_ahead(s + 3 * i, 192, 3 * (n - i)); /* (kernels.h) */
        TL_UNROLL
        for (int c = 0; c < 3; c++) {
            __m512i v = bmap_apply(dlv3_channel(a, k, c), &bm, map);
            uint8_t *row = d + c * ds1;
            if (split) _mm512_storeu_si512((void *)(row + i), v);
            else if (al[c].a == 0) store_line(row + i, v, nt);
            else if (i == 0) _mm512_mask_storeu_epi8(row, mask_n(al[c].a), v); /* the head */
            else store_line(row + i - 64 + al[c].a, aligner_cat(&al[c], prev[c], v), nt);
            prev[c] = v;
        }
    }
    if (nt) _mm_sfence();
    if (i > 0 && !split) /* the rest of the last whole register */
        TL_UNROLL
        for (int c = 0; c < 3; c++)
            if (al[c].a) _mm512_mask_storeu_epi8(d + c * ds1 + i - 64, ~mask_n(al[c].a), prev[c]);
    if (i < n) { /* the last 1..63 pixels: the last 64 again (same bytes), or masked */
        size_t m = n - i, j = n >= 64 ? n - 64 : i;
        if (n >= 64) TL_DLV3_LOAD(s + 3 * j, a);
        else TL_DLV3_LOAD_N(s + 3 * i, a, 3 * m);
        TL_UNROLL
        for (int c = 0; c < 3; c++) {
            __m512i v = bmap_apply(dlv3_channel(a, k, c), &bm, map);
            if (n >= 64) _mm512_storeu_si512((void *)(d + c * ds1 + j), v);
            else _mm512_mask_storeu_epi8(d + c * ds1 + i, mask_n(m), v);
        }
    }
    return n;
}

#endif
