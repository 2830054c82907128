/* Byte transpose, AVX-512 F/BW/VL: blocks of 16 rows x 64 bytes (A) and
 * 64 rows x 16 bytes (B), 1 KiB each, with masked loads and stores for
 * partial blocks, so the whole problem runs through one of the two.
 *
 * A byte's index in a block is a row r and a column c. In a register it
 * sits at a position made of three 2-bit fields, the 128-bit lane, the dword
 * in the lane and the byte in the dword; the rest of the index is the
 * register number. A transpose moves fields between those places, with four
 * steps (each 1 shuffle per register, on the one 512-bit shuffle port):
 *   t4d  4x4 dword transpose inside every lane, over 4 registers
 *        (register field <-> dword field; 8 unpacks per 4 registers)
 *   t4l  4x4 lane transpose over 4 registers (register <-> lane; 8 shuffles)
 *   S    dword <-> byte inside each lane (vpshufb)
 *   P    lane <-> dword (vpermd)
 * 96 shuffles per KiB, against 256 for the SSE2 16x16 unpack ladder; the
 * loads and stores are whole 64-byte lines on the strided side (the larger
 * stride is read or written with full lines, the other side is contiguous
 * or staged in L1). Where a block's 16-byte pieces come from rows far
 * apart (64 rows of 16 bytes, or 64 rows of 64), masked broadcasts from
 * memory put them into lanes and an unpack ladder inside the lanes does the
 * rest: 64 shuffles per KiB (b512_lane_ladder). Included by avx512.c after
 * the 32-bit kernel. */
#ifndef TL_B512_VBMI
#define TL_B512_VBMI 0
#endif
#if TL_B512_VBMI /* avx512vbmi.c: S and P are one vpermb */
#define TL_B512 __attribute__((target("avx512f,avx512bw,avx512vl,avx512vbmi")))
#define TL_B512_KERNEL tl_x8_transpose_ukernel__avx512vbmi
#else
#define TL_B512 __attribute__((target("avx512f,avx512bw,avx512vl")))
#define TL_B512_KERNEL tl_x8_transpose_ukernel__avx512
#endif
#define TL_B512_FN static inline TL_B512

void tl_x8_transpose_ukernel__avx2(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                   size_t n1, int stream);
void tl_x8_transpose_ukernel__avx512(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                     size_t n1, int stream);
#if TL_B512_VBMI
void tl_x8_transpose_ukernel__avx512vbmi(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                         size_t n1, int stream);
#endif

TL_B512_FN void b512_t4d(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
    __m512i t0 = _mm512_unpacklo_epi32(*a, *b), t1 = _mm512_unpackhi_epi32(*a, *b);
    __m512i t2 = _mm512_unpacklo_epi32(*c, *d), t3 = _mm512_unpackhi_epi32(*c, *d);
    *a = _mm512_unpacklo_epi64(t0, t2);
    *b = _mm512_unpackhi_epi64(t0, t2);
    *c = _mm512_unpacklo_epi64(t1, t3);
    *d = _mm512_unpackhi_epi64(t1, t3);
}

TL_B512_FN void b512_t4l(__m512i *a, __m512i *b, __m512i *c, __m512i *d)
{
    __m512i y0 = _mm512_shuffle_i32x4(*a, *b, 0x88), y1 = _mm512_shuffle_i32x4(*a, *b, 0xDD);
    __m512i y2 = _mm512_shuffle_i32x4(*c, *d, 0x88), y3 = _mm512_shuffle_i32x4(*c, *d, 0xDD);
    *a = _mm512_shuffle_i32x4(y0, y2, 0x88);
    *b = _mm512_shuffle_i32x4(y1, y3, 0x88);
    *c = _mm512_shuffle_i32x4(y0, y2, 0xDD);
    *d = _mm512_shuffle_i32x4(y1, y3, 0xDD);
}

/* S then P: position 4x + y takes 4y + x, for bytes in a lane and for dwords.
 * With VBMI the two are one byte permute: byte 16a + 4b + c of S(P(v)) is
 * byte 16b + 4c + a of v, and of P(S(v)) byte 16c + 4a + b. */
#if TL_B512_VBMI
static _Alignas(64) const uint8_t k_b512_iota[64] = {
    0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
    22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
    44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63};
static _Alignas(64) const uint8_t k_b512_sp[64] = {
    0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60,
    1, 5, 9, 13, 17, 21, 25, 29, 33, 37, 41, 45, 49, 53, 57, 61,
    2, 6, 10, 14, 18, 22, 26, 30, 34, 38, 42, 46, 50, 54, 58, 62,
    3, 7, 11, 15, 19, 23, 27, 31, 35, 39, 43, 47, 51, 55, 59, 63,
};
static _Alignas(64) const uint8_t k_b512_ps[64] = {
    0, 16, 32, 48, 1, 17, 33, 49, 2, 18, 34, 50, 3, 19, 35, 51,
    4, 20, 36, 52, 5, 21, 37, 53, 6, 22, 38, 54, 7, 23, 39, 55,
    8, 24, 40, 56, 9, 25, 41, 57, 10, 26, 42, 58, 11, 27, 43, 59,
    12, 28, 44, 60, 13, 29, 45, 61, 14, 30, 46, 62, 15, 31, 47, 63,
};
TL_B512_FN __m512i b512_sp(__m512i v) { return _mm512_permutexvar_epi8(_mm512_load_si512((const void *)k_b512_sp), v); }
TL_B512_FN __m512i b512_ps(__m512i v) { return _mm512_permutexvar_epi8(_mm512_load_si512((const void *)k_b512_ps), v); }
#else
TL_B512_FN __m512i b512_sp(__m512i v)
{
    const __m512i s = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    const __m512i p = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_permutexvar_epi32(p, _mm512_shuffle_epi8(v, s));
}
TL_B512_FN __m512i b512_ps(__m512i v)
{
    const __m512i s = _mm512_broadcast_i32x4(_mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15));
    const __m512i p = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    return _mm512_shuffle_epi8(_mm512_permutexvar_epi32(p, v), s);
}
#endif

/* Lane L (1..3) of v straight to memory. The memory form of vextracti32x4
 * is a plain store; compilers emit the register form and a separate store,
 * one more uop on the 512-bit shuffle port (48 per KiB, a third of the
 * transpose's own). */
#define B512_STORE_LANE(p, v, L) __asm__ volatile("vextracti32x4 $" #L ", %1, %0" : "=m"(*(__m128i *)(p)) : "v"(v))

static inline __mmask64 b512_mask(size_t n) { return n >= 64 ? ~(__mmask64)0 : ((__mmask64)1 << n) - 1; }

/* Block A: m0 <= 16 source rows of m1 <= 64 bytes -> m1 destination rows of
 * m0 bytes. Missing rows are zeros; missing columns are neither read nor
 * written. Fields: row r = (r3r2 r1r0) is the register, column c = (c5c4
 * lane, c3c2 dword, c1c0 byte); t4d then t4l make the register c5..c2 and
 * the position (r3r2, r1r0, c1c0); S and P make it (c1c0, r3r2, r1r0):
 * lane L of register q is destination row 4q + L. */
TL_B512_FN void b512_net_a(__m512i *r)
{
    TL_UNROLL
    for (int g = 0; g < 4; g++) b512_t4d(&r[4 * g], &r[4 * g + 1], &r[4 * g + 2], &r[4 * g + 3]);
    TL_UNROLL
    for (int k = 0; k < 4; k++) b512_t4l(&r[k], &r[4 + k], &r[8 + k], &r[12 + k]);
    TL_UNROLL
    for (int q = 0; q < 16; q++) r[q] = b512_sp(r[q]);
}

/* The lanes of v to 4 destination rows of 16 bytes at stride ds1. */
TL_B512_FN void b512_store_lanes(uint8_t *o, ptrdiff_t ds1, __m512i v)
{
    _mm_storeu_si128((__m128i *)o, _mm512_castsi512_si128(v));
    B512_STORE_LANE(o + ds1, v, 1);
    B512_STORE_LANE(o + 2 * ds1, v, 2);
    B512_STORE_LANE(o + 3 * ds1, v, 3);
}

/* Whole blocks. ROWS: destination rows of 16 bytes at stride ds1, stored by
 * lane; DENSE: ds1 == 16, registers stored whole; DENSE_NT: the same with
 * non-temporal stores (64-byte aligned d). */
enum { B512_ROWS = 0, B512_DENSE = 1, B512_DENSE_NT = 2 };

TL_B512_FN void b512_full_a(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1, int how)
{
    __m512i r[16];
    TL_UNROLL
    for (int i = 0; i < 16; i++) r[i] = _mm512_loadu_si512((const void *)(s + (ptrdiff_t)i * ss0));
    b512_net_a(r);
    TL_UNROLL
    for (int q = 0; q < 16; q++) {
        if (how == B512_DENSE_NT) {
            _mm512_stream_si512((void *)(d + 64 * q), r[q]);
        } else if (how == B512_DENSE) {
            _mm512_storeu_si512((void *)(d + 64 * q), r[q]);
        } else {
            b512_store_lanes(d + (ptrdiff_t)(4 * q) * ds1, ds1, r[q]);
        }
    }
}

/* Partial blocks (edges): masked loads and masked 16-byte stores. */
TL_B512_FN void b512_part_a(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1, size_t m0, size_t m1)
{
    __m512i r[16];
    __mmask64 lm = b512_mask(m1);
    TL_UNROLL
    for (size_t i = 0; i < 16; i++)
        r[i] = i >= m0   ? _mm512_setzero_si512()
               : m1 >= 64 ? _mm512_loadu_si512((const void *)(s + (ptrdiff_t)i * ss0))
                          : _mm512_maskz_loadu_epi8(lm, s + (ptrdiff_t)i * ss0);
    b512_net_a(r);
    __mmask16 sm = (__mmask16)b512_mask(m0);
    TL_UNROLL
    for (size_t q = 0; q < 16; q++) {
        __m128i v[4] = {_mm512_castsi512_si128(r[q]), _mm512_extracti32x4_epi32(r[q], 1),
                        _mm512_extracti32x4_epi32(r[q], 2), _mm512_extracti32x4_epi32(r[q], 3)};
        for (size_t l = 0; l < 4 && 4 * q + l < m1; l++)
            _mm_mask_storeu_epi8(d + (ptrdiff_t)(4 * q + l) * ds1, sm, v[l]);
    }
}

/* Four source rows of up to 16 bytes as the lanes of one register. */
TL_B512_FN __m512i b512_rows4(const uint8_t *s, ptrdiff_t ss0, size_t rows, __mmask16 m)
{
    __m128i x[4];
    for (size_t l = 0; l < 4; l++)
        x[l] = l < rows ? _mm_maskz_loadu_epi8(m, s + (ptrdiff_t)l * ss0) : _mm_setzero_si128();
    __m512i v = _mm512_castsi128_si512(x[0]);
    v = _mm512_inserti32x4(v, x[1], 1);
    v = _mm512_inserti32x4(v, x[2], 2);
    return _mm512_inserti32x4(v, x[3], 3);
}

/* 16 bytes of a row: read whole (whole: the bytes past the mask are
 * readable), or by a masked load. On this Zen 5 masked loads from DRAM ran
 * at less than half the speed of plain ones (the 8-row blocks of NCHW ->
 * NCHW16c i8 with C = 24, 3344 x 3344: 11.9 -> 28.8 GB/s), so the masks
 * stay where memory ends. */
TL_B512_FN __m128i b512_row16(const uint8_t *p, __mmask16 m, int whole)
{
    return whole ? _mm_loadu_si128((const __m128i *)p) : _mm_maskz_loadu_epi8(m, p);
}

/* Block B: m0 <= 64 source rows of m1 <= 16 bytes -> m1 destination rows of
 * m0 bytes (whole lines when m0 == 64). Register R holds rows 4R..4R+3 in
 * its lanes: row r = (r5..r2 register, r1r0 lane), column c = (c3c2 dword,
 * c1c0 byte). P and S make the position (c3c2, r1r0, c1c0 -> lane c3c2,
 * dword c1c0, byte r1r0); t4l swaps r5r4 into the lane, t4d r3r2 into the
 * dword: register c holds destination row c. */
/* Partial blocks (fewer than 64 rows or 16 columns; whole ones are
 * b512_full_b16 / b512_full_bs) keep their own function (not inlined):
 * inlined into the loops, they left the whole-block path short of registers
 * (spills, measured 30% slower). */
static __attribute__((noinline)) TL_B512 void b512_block_b(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1,
                                                          size_t m0, size_t m1, int nt)
{
    __m512i r[16];
    __mmask16 lm = (__mmask16)b512_mask(m1);
    if (ss0 == 16) {
        /* contiguous rows: 64-byte loads up to the last row's last column,
         * masked only there (a masked load costs more than a plain one; a
         * block unpack of a small map, 49 rows: one load per 4 rows instead
         * of a masked load and an insert per row) */
        size_t left = (m0 - 1) * 16 + m1;
        TL_UNROLL
        for (size_t i = 0; i < 16; i++)
            r[i] = left >= 64 * i + 64 ? _mm512_loadu_si512((const void *)(s + 64 * i))
                   : left > 64 * i     ? _mm512_maskz_loadu_epi8(b512_mask(left - 64 * i), s + 64 * i)
                                       : _mm512_setzero_si512();
    } else if (m0 == 64) {
        /* 16 bytes from row k are read whole when they end inside the
         * block's last row (the bytes between rows are the source's) */
        ptrdiff_t end = ss0 > 0 ? 63 * ss0 + (ptrdiff_t)m1 : 0;
#define B512_ROW(k) b512_row16(s + (ptrdiff_t)(k) * ss0, lm, (ptrdiff_t)(k) * ss0 + 16 <= end)
        TL_UNROLL
        for (int i = 0; i < 16; i++) {
            __m512i v = _mm512_castsi128_si512(B512_ROW(4 * i));
            v = _mm512_inserti32x4(v, B512_ROW(4 * i + 1), 1);
            v = _mm512_inserti32x4(v, B512_ROW(4 * i + 2), 2);
            r[i] = _mm512_inserti32x4(v, B512_ROW(4 * i + 3), 3);
        }
#undef B512_ROW
    } else {
        for (size_t i = 0; i < 16; i++) {
            size_t have = m0 > 4 * i ? m0 - 4 * i : 0;
            r[i] = have ? b512_rows4(s + (ptrdiff_t)(4 * i) * ss0, ss0, have, lm) : _mm512_setzero_si512();
        }
    }
    TL_UNROLL
    for (int i = 0; i < 16; i++) r[i] = b512_ps(r[i]);
    TL_UNROLL
    for (int k = 0; k < 4; k++) b512_t4l(&r[k], &r[4 + k], &r[8 + k], &r[12 + k]);
    TL_UNROLL
    for (int m = 0; m < 4; m++) b512_t4d(&r[4 * m], &r[4 * m + 1], &r[4 * m + 2], &r[4 * m + 3]);
    __mmask64 sm = b512_mask(m0);
    TL_UNROLL
    for (size_t c = 0; c < 16; c++) {
        if (c >= m1) continue;
        if (m0 < 64) _mm512_mask_storeu_epi8(d + (ptrdiff_t)c * ds1, sm, r[c]);
        else if (nt) _mm512_stream_si512((void *)(d + (ptrdiff_t)c * ds1), r[c]);
        else _mm512_storeu_si512((void *)(d + (ptrdiff_t)c * ds1), r[c]);
    }
}

/* The 16x16 byte transpose inside every 128-bit lane of 16 registers, by
 * the unpack ladder (bytes, words, dwords, qwords; register i pairs with i
 * + 1, 2, 4, 8): byte c of lane k of register i goes to byte i of lane k
 * of register c. 64 in-lane shuffles per 16 registers. */
static inline __attribute__((always_inline)) TL_B512 void b512_lane_ladder(__m512i x[16])
{
    static const uint8_t bitrev4[16] = {0, 8, 4, 12, 2, 10, 6, 14, 1, 9, 5, 13, 3, 11, 7, 15};
    __m512i y[16];
    TL_UNROLL
    for (int i = 0; i < 16; i += 2) {
        __m512i a = x[i], b = x[i + 1];
        x[i] = _mm512_unpacklo_epi8(a, b), x[i + 1] = _mm512_unpackhi_epi8(a, b);
    }
    TL_UNROLL
    for (int i = 0; i < 16; i++) {
        if (i & 2) continue;
        __m512i a = x[i], b = x[i + 2];
        x[i] = _mm512_unpacklo_epi16(a, b), x[i + 2] = _mm512_unpackhi_epi16(a, b);
    }
    TL_UNROLL
    for (int i = 0; i < 16; i++) {
        if (i & 4) continue;
        __m512i a = x[i], b = x[i + 4];
        x[i] = _mm512_unpacklo_epi32(a, b), x[i + 4] = _mm512_unpackhi_epi32(a, b);
    }
    TL_UNROLL
    for (int i = 0; i < 8; i++) {
        __m512i a = x[i], b = x[i + 8];
        x[i] = _mm512_unpacklo_epi64(a, b), x[i + 8] = _mm512_unpackhi_epi64(a, b);
    }
    TL_UNROLL
    for (int c = 0; c < 16; c++) y[c] = x[bitrev4[c]]; /* the ladder leaves column c in register bitrev4(c) */
    TL_UNROLL
    for (int c = 0; c < 16; c++) x[c] = y[c];
}

/* Four 16-byte pieces as the lanes of one register: a load and three
 * masked broadcasts from memory (loads and blends, no shuffle). */
static inline __attribute__((always_inline)) TL_B512 __m512i b512_lanes4(const uint8_t *p0, const uint8_t *p1,
                                                                          const uint8_t *p2, const uint8_t *p3)
{
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)p0));
    v = _mm512_mask_broadcast_i32x4(v, 0x00F0, _mm_loadu_si128((const __m128i *)p1));
    v = _mm512_mask_broadcast_i32x4(v, 0x0F00, _mm_loadu_si128((const __m128i *)p2));
    return _mm512_mask_broadcast_i32x4(v, 0xF000, _mm_loadu_si128((const __m128i *)p3));
}

/* Strided whole blocks by lanes: register i gets source rows i, 16 + i,
 * 32 + i and 48 + i as its lanes, so every lane holds a 16x16 byte tile,
 * one row per register, and the lane ladder makes each destination row:
 * 64 shuffles per KiB against 128 for the insert-and-permute form below;
 * shuffles are what bound this block (Zen 5: a 512-bit shuffle costs two
 * integer adds). */
static inline __attribute__((always_inline)) TL_B512 void b512_regs_b_lanes(const uint8_t *s, ptrdiff_t ss0,
                                                                           __m512i r[16])
{
    TL_UNROLL
    for (int i = 0; i < 16; i++) {
        const uint8_t *p = s + (ptrdiff_t)i * ss0;
        r[i] = b512_lanes4(p, p + 16 * ss0, p + 32 * ss0, p + 48 * ss0);
    }
    b512_lane_ladder(r);
}

/* Block A of 64 whole rows: 64 source rows of 64 bytes -> 64 destination
 * rows of 64 bytes (NCHW -> NHWC with C = 64: a pixel's every channel).
 * Each group of 16 rows goes through the lane ladder (lane k of register c
 * is then destination row 16k + c's 16 bytes of the group) into an L1
 * buffer, and each destination row is made of its 4 groups' lanes by
 * b512_lanes4 and stored whole: 64 shuffles per KiB and 64-byte stores,
 * against 80 shuffles and 16-byte lane stores (4 per line) for 16-row
 * blocks. */
TL_B512_FN void b512_a64(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1, int nt)
{
    _Alignas(64) uint8_t buf[4][16][64];
    TL_UNROLL
    for (int g = 0; g < 4; g++) {
        __m512i x[16];
        TL_UNROLL
        for (int i = 0; i < 16; i++) x[i] = _mm512_loadu_si512((const void *)(s + (ptrdiff_t)(16 * g + i) * ss0));
        b512_lane_ladder(x);
        TL_UNROLL
        for (int c = 0; c < 16; c++) _mm512_store_si512((void *)buf[g][c], x[c]);
    }
    for (int k = 0; k < 4; k++)
        TL_UNROLL
        for (int c = 0; c < 16; c++) {
            __m512i v = b512_lanes4(buf[0][c] + 16 * k, buf[1][c] + 16 * k, buf[2][c] + 16 * k, buf[3][c] + 16 * k);
            tl_store_line(d + (ptrdiff_t)(16 * k + c) * ds1, v, nt);
        }
}

/* Whole blocks: 64 rows of 16 bytes, 4 rows per load when they are
 * contiguous (ss0 == 16: NHWC with C = 16, NCHW16c unpacks), else by lanes
 * (above). */
static inline __attribute__((always_inline)) TL_B512 void b512_regs_b(const uint8_t *s, ptrdiff_t ss0, __m512i r[16])
{
    if (ss0 != 16) {
        b512_regs_b_lanes(s, ss0, r);
        return;
    }
    TL_UNROLL
    for (int i = 0; i < 16; i++) r[i] = b512_ps(_mm512_loadu_si512((const void *)(s + (ptrdiff_t)(4 * i) * ss0)));
    TL_UNROLL
    for (int k = 0; k < 4; k++) b512_t4l(&r[k], &r[4 + k], &r[8 + k], &r[12 + k]);
    TL_UNROLL
    for (int m = 0; m < 4; m++) b512_t4d(&r[4 * m], &r[4 * m + 1], &r[4 * m + 2], &r[4 * m + 3]);
}

static inline __attribute__((always_inline)) TL_B512 void b512_full_b(const uint8_t *s, ptrdiff_t ss0, uint8_t *d,
                                                                     ptrdiff_t ds1, int nt)
{
    __m512i r[16];
    b512_regs_b(s, ss0, r);
    TL_UNROLL
    for (int c = 0; c < 16; c++) tl_store_line(d + (ptrdiff_t)c * ds1, r[c], nt);
}

/* The two whole-block forms as functions of their own: one loop holding
 * both inlined measured a third slower (register allocation across them). */
static __attribute__((noinline)) TL_B512 void b512_full_b16(const uint8_t *s, uint8_t *d, ptrdiff_t ds1, int nt)
{
    b512_full_b(s, 16, d, ds1, nt);
}
static __attribute__((noinline)) TL_B512 void b512_full_bs(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1,
                                                          int nt)
{
    b512_full_b(s, ss0, d, ds1, nt);
}

#if TL_B512_VBMI
/* Quads (VBMI), for block A with 16-byte destination rows: a 16x16 byte
 * tile in 4 registers, each holding 4 rows of 16 bytes as its lanes (row r =
 * r3r2 register, r1r0 lane; column c = c3c2 dword, c1c0 byte). t4d swaps the
 * register and the dword (register c3c2, dword r3r2), and one vpermb swaps
 * the lane and the byte: lane c1c0 of register c3c2 is destination row c,
 * its 16 bytes source rows 0..15. 48 shuffles per KiB instead of 80: the
 * lane moves of t4l are done by the loads (vinserti32x4 from memory, port 0)
 * and the lane stores. Measured +7% on NCHW -> NHWC u8 C=64 at 256 KiB; not
 * used for block B or for dense stores, where it measured 0 to 15% slower
 * (64 loads and 64 stores of 16 bytes per KiB; at 256 KiB the shuffles are
 * not what limits these blocks, the L2 traffic is). */
static _Alignas(64) const uint8_t k_b512_lb[64] = {
    0, 16, 32, 48, 4, 20, 36, 52, 8, 24, 40, 56, 12, 28, 44, 60,
    1, 17, 33, 49, 5, 21, 37, 53, 9, 25, 41, 57, 13, 29, 45, 61,
    2, 18, 34, 50, 6, 22, 38, 54, 10, 26, 42, 58, 14, 30, 46, 62,
    3, 19, 35, 51, 7, 23, 39, 55, 11, 27, 43, 59, 15, 31, 47, 63,
};

TL_B512_FN __m512i b512_ld4(const uint8_t *p, ptrdiff_t ss, ptrdiff_t ss3)
{
    __m512i v = _mm512_castsi128_si512(_mm_loadu_si128((const __m128i *)p));
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(p + ss)), 1);
    v = _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(p + 2 * ss)), 2);
    return _mm512_inserti32x4(v, _mm_loadu_si128((const __m128i *)(p + ss3)), 3);
}

/* The lanes of v to 4 rows of 16 bytes at stride ds. */
TL_B512_FN void b512_st4(uint8_t *p, ptrdiff_t ds, ptrdiff_t ds3, __m512i v)
{
    _mm_storeu_si128((__m128i *)p, _mm512_castsi512_si128(v));
    B512_STORE_LANE(p + ds, v, 1);
    B512_STORE_LANE(p + 2 * ds, v, 2);
    B512_STORE_LANE(p + ds3, v, 3);
}

TL_B512_FN void b512_net_q(__m512i *r)
{
    const __m512i t = _mm512_load_si512((const void *)k_b512_lb);
    TL_UNROLL
    for (int g = 0; g < 4; g++) b512_t4d(&r[4 * g], &r[4 * g + 1], &r[4 * g + 2], &r[4 * g + 3]);
    TL_UNROLL
    for (int q = 0; q < 16; q++) r[q] = _mm512_permutexvar_epi8(t, r[q]);
}

/* Block A by quads: 16 source rows of 64 bytes (quad g: columns 16g..) to 64
 * destination rows of 16 bytes (b512_full_a's B512_ROWS). */
TL_B512_FN void b512_qa(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    __m512i r[16];
    ptrdiff_t ss3 = 3 * ss0, ds3 = 3 * ds1;
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        TL_UNROLL
        for (int g = 0; g < 4; g++) r[4 * g + k] = b512_ld4(s + 16 * g, ss0, ss3);
        s += 4 * ss0;
        TL_OPAQUE(s);
    }
    b512_net_q(r);
    TL_UNROLL
    for (int q = 0; q < 16; q++) {
        b512_st4(d, ds1, ds3, r[q]);
        d += 4 * ds1;
        TL_OPAQUE(d);
    }
}

#define B512_AROWS(s, ss0, d, ds1) b512_qa(s, ss0, d, ds1)
#else
#define B512_AROWS(s, ss0, d, ds1) b512_full_a(s, ss0, d, ds1, B512_ROWS)
#endif

/* Block A over nb >= 1 consecutive blocks of 64 columns of the same 16
 * source rows (destination rows of 16 bytes at ds1; ds1 == 16: registers
 * stored whole), with rows 0..7 of each block loaded one block ahead and
 * kept in registers. Planes a multiple of 4 KiB apart put all 16 lines of a
 * block into one L1 set, and the loads in flight then span more lines of a
 * set than it has ways: lines are evicted before they are used. Loaded
 * early, the lines in flight are 8 of one set and 8 of the next (kernel
 * alone, u8, 16 planes 4096 B apart: 72 -> 92 GB/s; 4160 B apart: 107 ->
 * 114, measured on a loaded machine). */
TL_B512_FN void b512_rows_ahead(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t nb)
{
    __m512i nxt[8];
    TL_UNROLL
    for (int i = 0; i < 8; i++) nxt[i] = _mm512_loadu_si512((const void *)(src + (ptrdiff_t)i * ss0));
    for (size_t b = 0; b < nb; b++) {
        __m512i r[16];
        size_t n = b + 1 < nb ? b + 1 : b;
        TL_UNROLL
        for (int i = 0; i < 8; i++) r[i] = nxt[i];
        TL_UNROLL
        for (int i = 8; i < 16; i++) r[i] = _mm512_loadu_si512((const void *)(src + (ptrdiff_t)i * ss0 + 64 * b));
        TL_UNROLL
        for (int i = 0; i < 8; i++) nxt[i] = _mm512_loadu_si512((const void *)(src + (ptrdiff_t)i * ss0 + 64 * n));
        b512_net_a(r);
        uint8_t *d = dst + (ptrdiff_t)(64 * b) * ds1;
        TL_UNROLL
        for (int q = 0; q < 16; q++) {
            if (ds1 == 16) _mm512_storeu_si512((void *)(d + 64 * q), r[q]);
            else b512_store_lanes(d + (ptrdiff_t)(4 * q) * ds1, ds1, r[q]);
        }
    }
}

TL_B512_FN void b512_run_a(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,
                           int nt, int alias);

/* 64-row blocks (b512_a64) over the whole ones, the rest by b512_run_a.
 * Plain stores from rows that do not share L1 sets: NCHW -> NHWC u8 C =
 * 64, 80 x 80, Zen 5: 48 -> 66 GB/s (60 x 70: 52 -> 62). Planes 4 KiB
 * apart keep the 16-row blocks with their loads ahead (43 against 37 GB/s
 * at 64 x 64), and so does streaming (level at 2048 x 2048, where those
 * blocks prefetch). */
static __attribute__((noinline)) TL_B512 void b512_run_a64(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                                                          ptrdiff_t ds1, size_t n0, size_t n1)
{
    size_t f0 = n0 / 64 * 64, f1 = n1 / 64 * 64;
    for (size_t i1 = 0; i1 < f1; i1 += 64)
        for (size_t i0 = 0; i0 < f0; i0 += 64)
            b512_a64(src + (ptrdiff_t)i0 * ss0 + i1, ss0, dst + (ptrdiff_t)i1 * ds1 + i0, ds1, 0);
    if (f1 < n1) b512_run_a(src + f1, ss0, dst + (ptrdiff_t)f1 * ds1, ds1, f0, n1 - f1, 0, 0);
    if (f0 < n0) b512_run_a(src + (ptrdiff_t)f0 * ss0, ss0, dst + f0, ds1, n0 - f0, n1, 0, 0);
}

/* 64-row blocks from source rows that share L1 sets (planes a multiple of
 * 4 KiB apart, or a few bytes off one), through an L1 copy whose rows do
 * not: each row's next B512_SW bytes are copied whole to rows B512_SP
 * bytes apart (5 lines: 64 rows over 64 sets), then transposed from there.
 * A block read straight from the planes has 16 lines of one set in flight;
 * the copy's 4 lines a row spread them over 4 sets (NCHW -> NHWC u8 C = 64,
 * Zen 5: 64 x 64 67 -> 79 GB/s, 63 x 65 59 -> 69, C = 128 48 -> 73; 2
 * lines a row 66, 6 or 8 lines level with 4). */
enum { B512_SW = 256, B512_SP = B512_SW + 64 };
static __attribute__((noinline)) TL_B512 void b512_run_a64_staged(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                                                                 ptrdiff_t ds1, size_t n0, size_t n1)
{
    _Alignas(64) uint8_t st[64 * B512_SP];
    size_t f0 = n0 / 64 * 64, fw = n1 / B512_SW * B512_SW;
    for (size_t i0 = 0; i0 < f0; i0 += 64)
        for (size_t c = 0; c < fw; c += B512_SW) {
            for (size_t r = 0; r < 64; r++)
                TL_UNROLL
                for (size_t k = 0; k < B512_SW; k += 64)
                    _mm512_store_si512((void *)(st + r * B512_SP + k),
                                       _mm512_loadu_si512((const void *)(src + (ptrdiff_t)(i0 + r) * ss0 + c + k)));
            for (size_t k = 0; k < B512_SW; k += 64)
                b512_a64(st + k, B512_SP, dst + (ptrdiff_t)(c + k) * ds1 + i0, ds1, 0);
        }
    if (fw < n1) b512_run_a(src + fw, ss0, dst + (ptrdiff_t)fw * ds1, ds1, f0, n1 - fw, 0, TL_T2D_SRC_ALIAS);
    if (f0 < n0) b512_run_a(src + (ptrdiff_t)f0 * ss0, ss0, dst + f0, ds1, n0 - f0, n1, 0, TL_T2D_SRC_ALIAS);
}

/* Whole 64 x 64 blocks streamed from one band of 64 far source rows
 * (planes: NCHW -> NHWC u8 with C = 64, each block one line of each plane
 * into 64 consecutive pixels), software pipelined: block k's four quarters
 * are shuffled into one L1 buffer while block k - 1's 64 lines stream out
 * of the other, 16 lines a quarter, each store paired with a prefetch into
 * the L2 of its row's line `ahead` blocks past the one loading: 4, or 2
 * where the 64 rows share L2 sets past its ways (TL_T2D_L2_ALIAS: lines
 * fetched further ahead are evicted before they are read). A whole block
 * loaded before its stores left the stores waiting on the loads. tl_bench
 * --size S --case "nchw->nhwc u8 C=64", Zen 5 VM, x the faster copy, three
 * runs each way: 1810 x 1810 planes (200M) 0.48-0.50 -> 0.85-0.92, 2023 x
 * 2024 (250M) 0.44-0.47 -> 0.86-0.94, 2216 x 2217 (300M) 0.51-0.54 ->
 * 0.92-0.96; planes sharing L2 sets, 2 ahead: 1280 x 1280 (100M)
 * 0.57-0.61 -> 0.53-0.69, 2048 x 2048 (256M) 0.57-0.65 -> 0.58-0.72 (4 or
 * 5 ahead there: 0.56-0.61; 2 ahead at 200M: 0.60-0.66). */
static __attribute__((noinline)) TL_B512 void b512_stream_band_a(const uint8_t *s, ptrdiff_t ss0, uint8_t *d,
                                                                ptrdiff_t ds1, size_t blocks, size_t ahead)
{
    _Alignas(64) uint8_t buf[2][64 * 64];
    for (size_t k = 0; k <= blocks; k++) {
        uint8_t *cur = buf[k & 1];
        const uint8_t *prev = buf[(k + 1) & 1];
        const uint8_t *fetch = k + ahead < blocks ? s + 64 * (k + ahead) : NULL;
        uint8_t *out = k ? d + (ptrdiff_t)(64 * (k - 1)) * ds1 : d; /* block k - 1's lines */
        for (int q = 0; q < 4; q++) {
            if (k < blocks) b512_full_a(s + 64 * k + (ptrdiff_t)(16 * q) * ss0, ss0, cur + 16 * q, 64, B512_ROWS);
            if (!k) continue;
            for (int r = 16 * q; r < 16 * q + 16; r++) {
                __m512i v = _mm512_load_si512((const void *)(prev + 64 * r));
                _mm512_stream_si512((void *)(out + (ptrdiff_t)r * ds1), v);
                if (fetch) _mm_prefetch((const char *)(fetch + (ptrdiff_t)r * ss0), _MM_HINT_T1);
            }
        }
    }
}

/* A over the whole problem: superblocks of 64 source rows, so each
 * destination row gets a whole 64-byte line from 4 consecutive blocks; the
 * line goes through an L1 staging buffer when destination rows alias in L1
 * (ds1 a multiple of 512) or stream (non-temporal, whole lines). With 16
 * source rows and ds1 == 16 (NCHW -> NHWC with C = 16, NCHW16c packs) the
 * destination is contiguous and registers are stored whole. */
TL_B512_FN void b512_run_a(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,
                           int nt, int alias)
{
    const int src_alias = alias & TL_T2D_SRC_ALIAS;
    int dense = ds1 == 16 && n0 == 16;
    if (!nt && src_alias && n0 >= 64 && n1 >= B512_SW && ds1 >= 64) {
        b512_run_a64_staged(src, ss0, dst, ds1, n0, n1);
        return;
    }
    if (!nt && !src_alias && n0 >= 64 && n1 >= 64 && ds1 >= 64) {
        b512_run_a64(src, ss0, dst, ds1, n0, n1);
        return;
    }
    int stage = (ds1 % 512 == 0 || nt) && !dense;
    size_t f1 = n1 / 64 * 64;
    _Alignas(64) uint8_t buf[64 * 64];
    if (dense && !nt && f1) {
        b512_rows_ahead(src, ss0, dst, 16, f1 / 64);
    } else if (dense) {
        for (size_t i1 = 0; i1 < f1; i1 += 64) {
            if (nt) b512_full_a(src + i1, ss0, dst + (ptrdiff_t)i1 * 16, 16, B512_DENSE_NT);
            else b512_full_a(src + i1, ss0, dst + (ptrdiff_t)i1 * 16, 16, B512_DENSE);
        }
    }
    if (dense) {
        if (f1 < n1) b512_part_a(src + f1, ss0, dst + (ptrdiff_t)f1 * 16, 16, 16, n1 - f1);
        return;
    }
    size_t a1 = 0; /* columns done by b512_rows_ahead */
    if (!stage && src_alias && n0 % 16 == 0 && f1) {
        /* planes sharing L1 sets: chunks of B512_CHUNK blocks per 16 rows */
        enum { B512_CHUNK = 8 };
        for (size_t c1 = 0; c1 < f1; c1 += 64 * B512_CHUNK) {
            size_t nb = (f1 - c1) / 64 < B512_CHUNK ? (f1 - c1) / 64 : B512_CHUNK;
            for (size_t i0 = 0; i0 < n0; i0 += 16)
                b512_rows_ahead(src + (ptrdiff_t)i0 * ss0 + c1, ss0, dst + (ptrdiff_t)c1 * ds1 + i0, ds1, nb);
        }
        a1 = f1;
    }
    for (size_t b0 = 0; b0 < n0; b0 += 64) {
        size_t e0 = n0 - b0 < 64 ? n0 : b0 + 64;
        for (size_t i1 = a1; i1 < n1; i1 += 64) {
            size_t m1 = n1 - i1 < 64 ? n1 - i1 : 64;
            const uint8_t *s = src + (ptrdiff_t)b0 * ss0 + i1;
            uint8_t *d = dst + (ptrdiff_t)i1 * ds1 + b0;
            if (nt && e0 - b0 == 64 && m1 == 64) { /* the rest of the band's whole blocks */
                size_t blocks = (n1 - i1) / 64;
                b512_stream_band_a(s, ss0, d, ds1, blocks, alias & TL_T2D_L2_ALIAS ? 2 : 4);
                i1 += 64 * blocks - 64; /* (the loop adds the last 64) */
                continue;
            }
            if (stage && e0 - b0 == 64 && m1 == 64) { /* rows sharing L1 sets, through buf */
                TL_UNROLL
                for (int k = 0; k < 4; k++) b512_full_a(s + (ptrdiff_t)(16 * k) * ss0, ss0, buf + 16 * k, 64, B512_ROWS);
                for (int r = 0; r < 64; r++) {
                    __m512i v = _mm512_load_si512((const void *)(buf + 64 * r));
                    _mm512_storeu_si512((void *)(d + (ptrdiff_t)r * ds1), v);
                }
                continue;
            }
            for (size_t i0 = b0; i0 < e0; i0 += 16) {
                size_t m0 = e0 - i0 < 16 ? e0 - i0 : 16;
                const uint8_t *si = src + (ptrdiff_t)i0 * ss0 + i1;
                uint8_t *di = dst + (ptrdiff_t)i1 * ds1 + i0;
                if (m0 == 16 && m1 == 64) B512_AROWS(si, ss0, di, ds1);
                else b512_part_a(si, ss0, di, ds1, m0, m1);
            }
        }
    }
}

/* B over the whole problem: blocks of 64 source rows, each writing one line
 * of up to 16 destination rows. Destination rows that share L1 sets
 * (dst_alias, the machine policy's verdict: NCHW planes of a 64x64 image;
 * in cache the kernel's entry sends them to the AVX2 kernel, so they come
 * here from streams whose rows are off line boundaries) and streaming to
 * 16 or more far rows go through an L1 buffer instead, so that each
 * destination row gets a run of consecutive lines (below). `run`: the
 * policy's lines per far row when streaming (tl_machine.stream_run_lines),
 * taken for exactly 16 rows. */
TL_B512_FN void b512_run_b(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,
                           int nt, int dst_alias, size_t run)
{
    size_t i0 = 0;
    /* Lines per destination row and run.
     * Streaming: runs, so DRAM sees bursts, not 64-byte writes spread over
     * n1 rows, and the source prefetch below comes with them. More than 16
     * rows: 4 (NHWC -> NCHW u8 with C = 64: +20 % on a Zen 5; on a Zen 4,
     * EPYC 9004, direct stores 25 GB/s, runs of 2 31, 4 34, 8 23-26).
     * Exactly 16 rows: the policy's run (tl_machine.stream_run_lines, 2 on
     * AVX-512; 1: each block's lines straight from the registers), where
     * machines differ: on a Zen 5 runs of 4 took NCHW16c -> NCHW i8 from 33
     * to 44 GB/s (16 planes of 2048 x 2048, against direct stores without
     * the prefetch); on the Zen 4 the L1 buffer costs more than it brings
     * (NHWC -> NCHW u8 C = 16 direct 38-40 GB/s, runs of 2 40, 4 33-37, 8
     * 28-32; NCHW16c -> NCHW i8 C = 64 38 / 37 / 32 / 28-31).
     * Rows sharing a set, in cache: 8. A block's 16 stores all go to one set
     * there, and the L1 commits stores to one set slowly (measured, 64-byte
     * stores alone to 16 rows 4096 B apart: 16 lines of one set among the
     * stores in flight 35 GB/s, 4: 53, 2: 92, 1: 102); a run of 8 lines per
     * row puts 2 per set into 16 stores (u8, 16 rows 4096 B apart, kernel
     * alone: 51 -> 62 GB/s; 64 rows 36 -> 40). With the lanes block, more
     * than 16 rows take runs of 4 (NHWC -> NCHW u8 C = 64, 64 x 64, Zen 5:
     * 40 -> 44 GB/s, 16 lines 33); 16 rows keep 8 (C = 16, 128 x 128: 55-57
     * GB/s, 51-53 with 4). */
    size_t stream_runs = n1 > 16 ? 4 : run > 1 ? run : 0;
    size_t runs = nt && n1 >= 16 && ds1 >= 4096 ? stream_runs : !nt && dst_alias && n1 >= 16 ? (n1 > 16 ? 4 : 8) : 0;
    if (runs) {
        _Alignas(64) uint8_t buf[16 * 64 * 8];
        size_t gl = 64 * runs, g0 = n0 / gl * gl, f1 = n1 / 16 * 16;
        /* Streaming, while this group's lines are stored, a line per store,
         * the group after next of source rows is fetched into the L2 and
         * the next one into the L1: reads and writes overlap, as in a
         * streaming copy. Left to the hardware, the block's strided 16-byte
         * loads reach DRAM only after the stores (NHWC -> NCHW u8 C = 64,
         * 2048 x 2048, Zen 5: 12.9 -> 23.6 GB/s with the next group into the
         * L2; into the L1 instead, 19.3). That next group was in time only
         * while the hardware's prefetcher, which follows loads by their
         * place in the code, helped: a change elsewhere in the library moved
         * this code and cost 20 % (NHWC -> NCHW u8 C = 16, 256 MiB, Zen 4,
         * median of 3: 0.84 -> 0.67x). With both fetches: 0.74-0.80, C = 64
         * 0.78 -> 0.87, NCHW16c -> NCHW i8 C = 64 0.69 -> 0.82 (0.84 before
         * the move). Rows mostly dense only (the range is fetched whole). */
        size_t fetch = nt && (size_t)ss0 < 2 * n1 ? gl * (size_t)ss0 / 64 : 0, per = (fetch + f1 / 16 - 1) / (f1 / 16);
        for (; i0 < g0; i0 += gl) {
            const uint8_t *next = src + (ptrdiff_t)(i0 + 2 * gl) * ss0;
            size_t left = i0 + 3 * gl <= n0 ? fetch : 0;
            const uint8_t *near = src + (ptrdiff_t)(i0 + gl) * ss0;
            size_t nleft = i0 + 2 * gl <= n0 ? fetch : 0;
            for (size_t i1 = 0; i1 < f1; i1 += 16) {
                for (size_t k = 0; k < runs; k++) {
                    const uint8_t *s = src + (ptrdiff_t)(i0 + 64 * k) * ss0 + i1;
                    if (ss0 == 16) b512_full_b16(s, buf + 64 * k, (ptrdiff_t)gl, 0);
                    else b512_full_bs(s, ss0, buf + 64 * k, (ptrdiff_t)gl, 0);
                }
                size_t mine = left < per ? left : per;
                for (size_t c = 0; c < 16; c++)
                    for (size_t k = 0; k < runs; k++) {
                        uint8_t *o = dst + (ptrdiff_t)(i1 + c) * ds1 + i0 + 64 * k;
                        __m512i v = _mm512_load_si512((const void *)(buf + gl * c + 64 * k));
                        if (nt) _mm512_stream_si512((void *)o, v);
                        else _mm512_storeu_si512((void *)o, v);
                        if (mine) _mm_prefetch((const char *)next, _MM_HINT_T1), next += 64, mine--, left--;
                        if (nleft) _mm_prefetch((const char *)near, _MM_HINT_T0), near += 64, nleft--;
                    }
                for (; mine; mine--, left--, next += 64) _mm_prefetch((const char *)next, _MM_HINT_T1);
            }
        }
        if (f1 < n1) /* the last planes, directly */
            for (size_t r = 0; r < g0; r += 64)
                b512_block_b(src + (ptrdiff_t)r * ss0 + f1, ss0, dst + (ptrdiff_t)f1 * ds1 + r, ds1, 64, n1 - f1, nt);
    }
    for (; i0 < n0; i0 += 64) {
        size_t m0 = n0 - i0 < 64 ? n0 - i0 : 64;
        for (size_t i1 = 0; i1 < n1; i1 += 16) {
            size_t m1 = n1 - i1 < 16 ? n1 - i1 : 16;
            const uint8_t *s = src + (ptrdiff_t)i0 * ss0 + i1;
            uint8_t *d = dst + (ptrdiff_t)i1 * ds1 + i0;
            if (m0 == 64 && m1 == 16 && ss0 == 16) b512_full_b16(s, d, ds1, nt);
            else if (m0 == 64 && m1 == 16) b512_full_bs(s, ss0, d, ds1, nt);
            else b512_block_b(s, ss0, d, ds1, m0, m1, nt);
        }
    }
}

#if TL_B512_VBMI
/* B streamed into long destination rows (planes) off line boundaries
 * (NCHW16c -> NCHW i8 with H x W not a multiple of 64): row c's whole lines
 * start sh[c] bytes in, each the end of one block's line and the start of
 * the next one's, one two-source byte permute; the partial end lines are
 * masked stores (the same as the f32 form, x86_strips512.h). Up to 64 rows
 * (4 groups of 16) per pass over the source, their last lines kept in L1:
 * a pass per group read every source line once per group, 4 times for
 * NHWC -> NCHW u8 with C = 64 (1810 x 1810 planes, Zen 5: 0.22x the faster
 * copy). Fewer than 16 rows take it too, on line boundaries or not, where
 * their pixels hold 16 bytes: NCHW16c -> NCHW i8's partial block (C = 8 of
 * 16, 1810 x 1810: 0.36 -> 0.83x; C = 24 0.48 -> 0.80, at 2048 x 2048
 * 0.70 -> 0.94, /tmp timing of one plan against a streaming copy and
 * tl_bench), which run_b had stored 8 bytes a row a block. */
enum { B512_SHIFT_ROWS = 64 };
static __attribute__((noinline)) TL_B512 void b512_stream_shifted(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst,
                                                                  ptrdiff_t ds1, size_t n0, size_t n1)
{
    /* a last group of fewer than 16 rows reads its pixels' 16 bytes whole
     * where they lie within the pixel (ss0 >= 16: NCHW16c's partial block,
     * 8 channels of 16), and the last pixel is left to run_b */
    const int part = n1 % 16 && (size_t)ss0 >= n1 / 16 * 16 + 16;
    size_t f0 = (part ? n0 - 1 : n0) / 64 * 64, f1 = part ? n1 : n1 / 16 * 16;
    const __m512i lanes = _mm512_load_si512((const void *)k_b512_iota);
    __m512i prev[B512_SHIFT_ROWS], idx[B512_SHIFT_ROWS];
    unsigned sh[B512_SHIFT_ROWS];
    for (size_t c1 = 0; c1 < f1; c1 += B512_SHIFT_ROWS) {
        size_t m1 = f1 - c1 < B512_SHIFT_ROWS ? f1 - c1 : B512_SHIFT_ROWS;
        for (size_t g = 0; g < m1; g += 16) {
            b512_regs_b(src + c1 + g, ss0, prev + g);
            for (size_t c = g; c < g + 16 && c < m1; c++) {
                uint8_t *row = dst + (ptrdiff_t)(c1 + c) * ds1;
                sh[c] = (unsigned)(-(uintptr_t)row & 63);
                idx[c] = _mm512_add_epi8(lanes, _mm512_set1_epi8((char)sh[c]));
                _mm512_mask_storeu_epi8(row, ((__mmask64)1 << sh[c]) - 1, prev[c]);
            }
        }
        /* the next block's source lines (ss0 of them) are fetched into the
         * L2, one or two a store, where the pixels hold little else, so
         * reads overlap the streamed writes (NCHW16c -> NCHW i8 C = 80, 1831
         * x 1832, Zen 5: 27 -> 38 GB/s; two or more blocks ahead, less) */
        const size_t per = f1 == m1 ? tl_fetches_per_store((size_t)ss0, m1) : 0; /* 64 pixels: ss0 lines */
        for (size_t i0 = 64; i0 < f0; i0 += 64) {
            const uint8_t *ahead = src + (ptrdiff_t)(i0 + 64) * ss0;
            size_t fetch = i0 + 128 <= n0 ? per : 0;
            for (size_t g = 0; g < m1; g += 16) {
                __m512i cur[16];
                b512_regs_b(src + (ptrdiff_t)i0 * ss0 + c1 + g, ss0, cur);
                TL_UNROLL
                for (size_t c = 0; c < 16; c++) {
                    size_t r = g + c;
                    if (r >= m1) break;
                    uint8_t *line = dst + (ptrdiff_t)(c1 + r) * ds1 + i0 - 64 + sh[r];
                    for (size_t k = 0; k < fetch; k++)
                        _mm_prefetch((const char *)(ahead + 64 * (ptrdiff_t)(fetch * r + k)), _MM_HINT_T1);
                    _mm512_stream_si512((void *)line, _mm512_permutex2var_epi8(prev[r], idx[r], cur[c]));
                    prev[r] = cur[c];
                }
            }
        }
        for (size_t c = 0; c < m1; c++)
            _mm512_mask_storeu_epi8(dst + (ptrdiff_t)(c1 + c) * ds1 + f0 - 64, ~(__mmask64)0 << sh[c], prev[c]);
    }
    _mm_sfence();
    b512_run_b(src + (ptrdiff_t)f0 * ss0, ss0, dst + f0, ds1, n0 - f0, f1, 0, 0, 1); /* the last columns */
    if (f1 < n1) b512_run_b(src + f1, ss0, dst + (ptrdiff_t)f1 * ds1, ds1, n0, n1 - f1, 0, 0, 1); /* the last rows */
}
#endif

/* A reads whole lines of 16 source rows and suits long source rows with the
 * larger stride on the source side (planes -> pixels, block pack); B writes
 * whole lines of 16 destination rows (pixels -> planes, block unpack).
 * 16 source rows at most take A: B would run them as partial blocks of 64
 * rows, where A's one masked block of 16 rows fits (a block pack of a small
 * map, NCHW -> NCHW16c i8 C = 80 at 7 x 7, 16 rows of 49 bytes: 0.06 ->
 * 0.19x memcpy, tl_bench --size 4K, Zen 4). */
TL_B512 void TL_B512_KERNEL(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,
                            int stream)
{
    int by_a = n1 >= 16 && (n0 <= 16 || (n1 >= 64 && (n0 < 64 || ss0 >= ds1)));
    /* up to 8 planes into pixels: the AVX2 8x8 blocks store 8 bytes a row
     * where block A would store 16-byte lanes under a mask (NCHW -> NHWC u8
     * C = 8, 4096 x 4096, Zen 5: 15 -> 24 GB/s; C = 4 in cache 64 -> 100) */
    /* In cache (no streaming), rows sharing L1 sets go there too: into
     * such destination rows (TL_T2D_DST_ALIAS: NCHW planes of a 64 x 64
     * image) its short runs of lines per row keep a block's source rows in
     * L1, where B's runs of 4 or 8 lines left 16 rows' lines in one set;
     * from more than 16 such source rows (TL_T2D_SRC_ALIAS: 64 planes into
     * pixels) its copy of each group's lines into an L1 buffer whose rows
     * share no set beats A's chunks of blocks, which stay for 16 rows
     * (C = 16: 0.76 against 0.58). tl_bench 256 KiB, Zen 4, median of 6:
     * NHWC -> NCHW u8 C = 64 0.41 -> 0.46x memcpy, C = 16 0.57 -> 0.61;
     * NCHW -> NHWC u8 C = 64 0.45 -> 0.50. That is the Zen 4's 512-bit
     * shuffles at half rate (TL_T2D_NARROW512); on the Xeon of session 31
     * the AVX-512 runs win (NHWC -> NCHW u8 C = 64 0.43 -> 0.51x, NCHW ->
     * NHWC 0.44 -> 0.51). */
    int narrow_in_cache = !(stream & TL_T2D_STREAM) && (stream & TL_T2D_NARROW512);
    int alias_rows = by_a ? n0 > 16 && (stream & TL_T2D_SRC_ALIAS) : (stream & TL_T2D_DST_ALIAS);
    if ((n0 < 16 && n1 < 16) || (by_a && n0 <= 8) || (narrow_in_cache && alias_rows)) {
        tl_x8_transpose_ukernel__avx2(src, ss0, dst, ds1, n0, n1, stream);
        return;
    }
    /* streaming writes whole aligned lines: rows of 64-byte multiples, or
     * (A) 16 rows of 16 bytes, the destination one dense range */
    int whole = ds1 % 64 == 0 || (by_a && ds1 == 16 && n0 == 16);
    int nt = (stream & TL_T2D_STREAM) && (uintptr_t)dst % 64 == 0 && whole;
#if TL_B512_VBMI
    if (!by_a && (stream & TL_T2D_STREAM) && (!nt || n1 < 16) && ds1 >= 4096 && n0 >= 128 &&
        (n1 >= 16 || (n1 >= 4 && ss0 >= 16))) {
        b512_stream_shifted(src, ss0, dst, ds1, n0, n1);
        return;
    }
#endif
    if (by_a)
        b512_run_a(src, ss0, dst, ds1, n0, n1, nt, stream & (TL_T2D_SRC_ALIAS | TL_T2D_L2_ALIAS));
    else b512_run_b(src, ss0, dst, ds1, n0, n1, nt, stream & TL_T2D_DST_ALIAS,
                    (size_t)1 << ((stream >> TL_T2D_RUN_SHIFT) & 3));
    if (nt) _mm_sfence();
}
