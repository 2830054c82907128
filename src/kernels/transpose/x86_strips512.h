/* 32-bit transposes whose 16 destination rows are a multiple of 2 KiB apart:
 * NCHW planes written from NHWC or NCHW16c with H x W a multiple of 512.
 * Such rows share L1 sets (64 sets of 64 bytes: rows 4 KiB apart all map to
 * one set of 12 ways), and a 16x16 block, which writes 16 lines of one set
 * at once, runs at 60 to 75% of its speed on other strides (measured). A
 * 16x8 block writes 8 destination rows of 16 elements (whole lines) from 16
 * source rows of 8; the other 8 columns follow on the same source rows,
 * which stay in L1 (a superblock of 64 rows, at most 16 KiB). 24 shuffles
 * per 512 bytes, against 64 per KiB for the 16x16 block. (The same on the
 * source side, 8 source rows at a time, measured slower than 16x16 blocks:
 * there the aliased lines are read once each, whole.) Included by avx512.c
 * after the tiled kernel (x32_edges). */

/* 4x4 transposes inside the lanes of 4 registers (unpack, then shuffle). */
TL_FN void s512_t4(__m512 *a, __m512 *b, __m512 *c, __m512 *d)
{
    __m512 t0 = _mm512_unpacklo_ps(*a, *b), t1 = _mm512_unpackhi_ps(*a, *b);
    __m512 t2 = _mm512_unpacklo_ps(*c, *d), t3 = _mm512_unpackhi_ps(*c, *d);
    *a = _mm512_shuffle_ps(t0, t2, 0x44);
    *b = _mm512_shuffle_ps(t0, t2, 0xEE);
    *c = _mm512_shuffle_ps(t1, t3, 0x44);
    *d = _mm512_shuffle_ps(t1, t3, 0xEE);
}

/* 16 rows of 8: u[j] is loaded with row j (low half) and row 8 + j (high);
 * after s512_t4, u[k] lanes are columns k, 4 + k of rows 0-3, and the same
 * of rows 8-11 (u[4 + k]: rows 4-7, 12-15). */
static inline __attribute__((always_inline)) void s512_16x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d,
                                                             ptrdiff_t ds1, int nt)
{
    __m512 u[8];
    TL_UNROLL
    for (int j = 0; j < 8; j++)
        u[j] = _mm512_castpd_ps(_mm512_insertf64x4(_mm512_castpd256_pd512(_mm256_loadu_pd((const double *)(s + j * ss0))),
                                                   _mm256_loadu_pd((const double *)(s + (8 + j) * ss0)), 1));
    s512_t4(&u[0], &u[1], &u[2], &u[3]);
    s512_t4(&u[4], &u[5], &u[6], &u[7]);
    const __m512i i0 = _mm512_setr_epi32(0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27);
    const __m512i i1 = _mm512_setr_epi32(4, 5, 6, 7, 20, 21, 22, 23, 12, 13, 14, 15, 28, 29, 30, 31);
    TL_UNROLL
    for (int k = 0; k < 4; k++) {
        tl_store_line(d + k * ds1, _mm512_castps_si512(_mm512_permutex2var_ps(u[k], i0, u[4 + k])), nt);
        tl_store_line(d + (4 + k) * ds1, _mm512_castps_si512(_mm512_permutex2var_ps(u[k], i1, u[4 + k])), nt);
    }
}

TL_FN void s512_micro_16x8(const uint8_t *s, ptrdiff_t ss0, uint8_t *d, ptrdiff_t ds1)
{
    s512_16x8(s, ss0, d, ds1, 0);
}

/* Streaming, the last 8 destination rows of n1 = 16k + 8 (NCHW16c -> NCHW
 * with C = 24 or 40: the last block's 8 planes): whole lines, where the
 * tiled kernel would leave them to its edges and plain stores. */
TL_FN void s512_stream_last8(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1,
                             int stream)
{
    size_t c = n1 - 8, f0 = n0 / 16 * 16;
    if (c) tl_x32_transpose_ukernel__avx512_tiles(src, ss0, dst, ds1, n0, c, stream);
    for (size_t r = 0; r < f0; r += 16)
        s512_16x8(src + (ptrdiff_t)r * ss0 + c * 4, ss0, dst + (ptrdiff_t)c * ds1 + r * 4, ds1, 1);
    _mm_sfence();
    x32_edges(src, ss0, dst, ds1, f0, n0, c, n1);
}

/* Aliased destination rows: strips of 8 destination rows (source columns);
 * a superblock of 64 source rows (up to 16 KiB) stays in L1 for all strips. */
TL_FN void s512_dst_strips(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1)
{
    size_t f0 = n0 / 16 * 16, f1 = n1 / 8 * 8, rb = 64;
    for (size_t r0 = 0; r0 < f0; r0 += rb) {
        size_t re = f0 - r0 < rb ? f0 : r0 + rb;
        for (size_t c = 0; c < f1; c += 8)
            for (size_t r = r0; r < re; r += 16)
                s512_micro_16x8(src + (ptrdiff_t)r * ss0 + c * 4, ss0, dst + (ptrdiff_t)c * ds1 + r * 4, ds1);
    }
    x32_edges(src, ss0, dst, ds1, f0, n0, 0, f1);
    if (f1 < n1) x32_edges(src, ss0, dst, ds1, 0, n0, f1, n1);
}

/* Long destination rows (planes) that are off line boundaries (H x W not a
 * multiple of 16: NCHW16c -> NCHW f32 with 915 x 916 or 28 x 29): row j's
 * whole lines start sh[j] elements in, so each is the last 16 - sh[j]
 * elements of one block and the first sh[j] of the next, one two-source
 * permute, and stored aligned (streamed when nt); each row's partial first
 * and last lines are masked plain stores. Streaming, the tiled kernel
 * could only store these rows plainly, which reads every destination line
 * from DRAM first; in cache its stores would each write two lines.
 * Streamed, up to 64 rows (4 groups of 16) a pass over the source, with the
 * next block's source lines prefetched where the pixels hold exactly these
 * rows; a pass per group of 16, unfetched, had read a 64-channel pixel's
 * lines in 4 strided passes (tl_bench, Zen 5 VM, x the faster copy: NHWC
 * -> NCHW f32 C = 64 at 200 MiB 0.72 -> 1.05, C = 16 0.59 -> 0.87,
 * NCHW16c -> NCHW f32 C = 80 at 256 MiB, 915 x 916 planes, 0.63 -> 0.89).
 * A partial channel block (8 of 16) too: NCHW16c -> NCHW f32 1810 x 1810,
 * one plan against a streaming copy, C = 8 0.73-0.74 -> 0.84-0.87, C = 24
 * 0.59-0.66 -> 0.80-0.81 (the tiled kernel had stored it plainly). */
enum { S512_SHIFT_ROWS = 64 };
TL_FN void s512_shifted(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0, size_t n1, int nt)
{
    /* streamed, a last group of fewer than 16 rows reads its pixels' 16
     * floats whole where they lie within the pixel (NCHW16c's partial
     * block, 8 channels of 16), and the last pixel is left to the edges */
    const int part = nt && n1 % 16 && (size_t)ss0 >= 4 * (n1 / 16 * 16 + 16);
    size_t f0 = (part ? n0 - 1 : n0) / 16 * 16, f1 = part ? n1 : n1 / 16 * 16;
    const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
    __m512 prev[S512_SHIFT_ROWS];
    __m512i idx[S512_SHIFT_ROWS];
    unsigned sh[S512_SHIFT_ROWS];
    const size_t pass = nt ? S512_SHIFT_ROWS : 16; /* in cache, as measured before (16 rows a pass) */
    for (size_t c1 = 0; c1 < f1; c1 += pass) {
        size_t m1 = f1 - c1 < pass ? f1 - c1 : pass;
        for (size_t g = 0; g < m1; g += 16) {
            x32_16x16_regs(src + (c1 + g) * 4, ss0, prev + g);
            for (size_t j = g; j < g + 16 && j < m1; j++) {
                uint8_t *row = dst + (ptrdiff_t)(c1 + j) * ds1;
                sh[j] = (unsigned)(-(uintptr_t)row & 63) / 4;
                idx[j] = _mm512_add_epi32(lanes, _mm512_set1_epi32((int)sh[j]));
                _mm512_mask_storeu_ps((float *)row, (__mmask16)((1u << sh[j]) - 1), prev[j]);
            }
        }
        /* pixels of exactly these rows (NHWC with C <= 64, NCHW16c blocks):
         * the next block's lines into the L2, one a store */
        /* (a block is 16 pixels: ss0 / 4 lines) */
        const size_t per = nt && f1 == m1 ? tl_fetches_per_store((size_t)ss0 / 4, m1) : 0;
        for (size_t i0 = 16; i0 < f0; i0 += 16) {
            const uint8_t *ahead = src + (ptrdiff_t)(i0 + 16) * ss0 + c1 * 4;
            size_t fetch = i0 + 32 <= n0 ? per : 0;
            for (size_t g = 0; g < m1; g += 16) {
                __m512 cur[16];
                x32_16x16_regs(src + (ptrdiff_t)i0 * ss0 + (c1 + g) * 4, ss0, cur);
                TL_UNROLL
                for (size_t j = 0; j < 16; j++) {
                    if (g + j >= m1) break;
                    uint8_t *line = dst + (ptrdiff_t)(c1 + g + j) * ds1 + (i0 - 16 + sh[g + j]) * 4;
                    __m512 v = _mm512_permutex2var_ps(prev[g + j], idx[g + j], cur[j]);
                    for (size_t k = 0; k < fetch; k++)
                        _mm_prefetch((const char *)(ahead + 64 * (ptrdiff_t)(fetch * (g + j) + k)), _MM_HINT_T1);
                    if (nt) _mm512_stream_ps((float *)line, v);
                    else _mm512_store_ps((float *)line, v);
                    prev[g + j] = cur[j];
                }
            }
        }
        for (size_t j = 0; j < m1; j++)
            _mm512_mask_storeu_ps((float *)(dst + (ptrdiff_t)(c1 + j) * ds1 + (f0 - 16) * 4),
                                  (__mmask16)(0xFFFFu << sh[j]), prev[j]);
    }
    if (nt) _mm_sfence();
    x32_edges(src, ss0, dst, ds1, f0, n0, 0, f1);
    x32_edges(src, ss0, dst, ds1, 0, n0, f1, n1);
}

void tl_x32_transpose_ukernel__avx2(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                    size_t n1, int stream);
void tl_x32_transpose_ukernel__avx512(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,
                                      size_t n1, int stream);
TL_KERNEL void tl_x32_transpose_ukernel__avx512(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,
                                                size_t n0, size_t n1, int stream)
{
    /* Plain stores: strips for rows 2 KiB apart, unless their 16 lines
     * share one set (TL_T2D_DST_ALIAS), where the tiled kernel's runs of 8
     * lines per row are faster (64 -> 71 GB/s for NHWC -> NCHW f32 C = 16 at
     * 256 KiB, 49 -> 59 with C = 64, kernel alone, loaded machine; strips
     * stay faster with 8 lines per set). Streamed: a last block of 8 rows as
     * 16x8 blocks, long rows off a line assembled across blocks, and the
     * rest by the tiled kernel, whole lines from its registers. Source
     * rows sharing L1 sets in cache (planes into pixels or a channel
     * block): the AVX2 8x8 blocks, whose 8 loads a block keep fewer lines
     * of one set in flight (NCHW -> NHWC f32 C = 16 64 x 64: 105 -> 133-148
     * GB/s, NCHW -> NCHW16c C = 64 32 x 32: 101 -> 135-146, Zen 5; streamed,
     * the 16x16 blocks stay faster: 48 against 20-31). In cache with rows
     * off line boundaries (a stride or a start not a multiple of 64 bytes:
     * planes of 28 x 29), the AVX2 blocks too where 512-bit operations
     * run in halves (TL_T2D_NARROW512): their 32-byte loads and stores
     * split a line half as often as 64-byte ones (NCHW -> NCHW16c f32 C =
     * 80, 256 KiB, Zen 4, median of 4: 0.84 -> 0.92x memcpy, the reverse
     * 0.72 -> 0.91; oneDNN's reorder had been 8-17 % faster). On the Xeon
     * of session 31 the AVX-512 tiles are the faster (into 0.69 -> 0.85).
     * In cache, where stores across lines cost (not TL_T2D_SPLIT), long
     * destination rows off lines are assembled across blocks as when
     * streaming (NCHW16c -> NCHW f32 C = 80, 28 x 29, 256 KiB, Xeon: 0.45-
     * 0.46 -> 0.69-0.75x memcpy; docs/engine.md §3). */
    const uintptr_t rows = (uintptr_t)dst | (uintptr_t)ds1; /* the destination rows' alignment */
    int nt = (stream & TL_T2D_STREAM) && rows % 64 == 0;
    int off_lines = (rows | (uintptr_t)src | (uintptr_t)ss0) % 64 != 0;
    int shifts = rows % 4 == 0 && n0 >= 64 && n1 >= 16; /* rows whole elements off their lines */
    int shift_in_cache = !(stream & (TL_T2D_STREAM | TL_T2D_SPLIT | TL_T2D_DST_ALIAS)) && rows % 64 != 0;
    if (!(stream & (TL_T2D_STREAM | TL_T2D_DST_ALIAS)) && ds1 % 2048 == 0 && n1 >= 8 && n0 >= 16 && n1 * 4 <= 256) s512_dst_strips(src, ss0, dst, ds1, n0, n1);
    else if (nt && n1 % 16 == 8 && n0 >= 16) s512_stream_last8(src, ss0, dst, ds1, n0, n1, stream);
    else if ((stream & TL_T2D_STREAM) && !nt && ds1 >= 4096 &&
             (shifts || (rows % 4 == 0 && n0 >= 64 && n1 >= 4 && ss0 >= 64))) /* (16 floats a pixel) */
        s512_shifted(src, ss0, dst, ds1, n0, n1, 1);
    else if (!(stream & TL_T2D_STREAM) && ((stream & TL_T2D_SRC_ALIAS) || (off_lines && (stream & TL_T2D_NARROW512))))
        tl_x32_transpose_ukernel__avx2(src, ss0, dst, ds1, n0, n1, stream);
    else if (shift_in_cache && shifts) s512_shifted(src, ss0, dst, ds1, n0, n1, 0);
    else tl_x32_transpose_ukernel__avx512_tiles(src, ss0, dst, ds1, n0, n1, stream);
}
