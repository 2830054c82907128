


/* Tiling shared by the x86 transposes: 64x64-element tiles, a register
 * micro-kernel of MK0 source rows x MK1 columns inside (destination lines
 * staged through L1 when the destination rows alias, below), a smaller
 * MK2 x MK2 one (MK2 1 = none) for the edges, then rest_fn (plain element
 * copies, plain_fn, or a smaller kernel's edges). The including file defines MICRO / MICRO2 (src, ss0, dst, ds1),
 * MICRO_NT with NT_COLS: streaming stores of NT_COLS whole 64-byte
 * destination lines from 64 / E source rows (NT_COLS 0: none), and
 * TL_FN / TL_KERNEL. */
#include <immintrin.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h" /* TL_UNROLL */
#include "kernels/ring_x86.h"

/* A staged group's lines out: `rows` destination rows (ds1 apart) of `run`
 * lines each from an L1 buffer of rows 64 * run bytes apart (runs of lines
 * into rows that share L1 sets). Called with a constant run, so that the
 * offsets are constants too: the same loop with the run a variable kept
 * them in memory and took half the kernel's time (NHWC -> NCHW f32 C = 16,
 * 64 x 64, 256 KiB, Zen 5, alternated: 76-90 -> 110-115 GB/s). */
static inline __attribute__((always_inline)) void tl_t_lines_out(uint8_t *d, ptrdiff_t ds1, const uint8_t *b,
                                                                 size_t rows, size_t run)
{
    for (size_t r = 0; r < rows; r++, d += ds1, b += 64 * run)
        TL_UNROLL
        for (size_t l = 0; l < run; l++) tl_line(d + 64 * l, b + 64 * l, 0);
}

/* One 64-byte line of a source row (any alignment) into an L1 buffer's
 * line (the source staging of rows that share L1 sets). */
static inline void tl_t_line_in(uint8_t *d, const uint8_t *s)
{
#ifdef __AVX2__
    for (int k = 0; k < 64; k += 32) _mm256_store_si256((__m256i *)(d + k), _mm256_loadu_si256((const __m256i *)(s + k)));
#else
    for (int k = 0; k < 64; k += 16) _mm_store_si128((__m128i *)(d + k), _mm_loadu_si128((const __m128i *)(s + k)));
#endif
}

/* `rows` source rows (stride ss0) of n bytes each into an L1 buffer of
 * rows sw apart: whole 64-byte lines when n == sw, the short last chunk of
 * a row by memcpy. Rows that share L1 sets are read this way once, a run of
 * lines per row, before a transpose reads them from the buffer. */
static inline void tl_t_stage(uint8_t *b, size_t sw, const uint8_t *s, ptrdiff_t ss0, size_t rows, size_t n)
{
    for (size_t r = 0; r < rows; r++, s += ss0, b += sw)
        if (n == sw)
            for (size_t l = 0; l < sw; l += 64) tl_t_line_in(b + l, s + l);
        else memcpy(b, s, n);
}

/* Streaming into destination rows far apart (planes) that start off 64-byte
 * lines (H x W not a multiple of 64 / E), through the L1 ring of ring_x86.h:
 * each group of MK1 rows transposes two lines' worth of source rows (2 T0)
 * a step into its rows' rings. Up to 64 rows a pass over the source, so
 * that wide pixels are read once, with the next step's source lines
 * fetched into the L2 (one a line stored) where the pixels hold exactly
 * these rows. The plain stores this replaces read every destination line
 * from DRAM first (AVX2, Zen 5, 1810 x 1810 planes: docs/performance.md).
 * The source rows past the last whole step (n0 % (2 T0)) go to the
 * caller's edges. */
#define TL_T_RING(MICRO, E, MK0, MK1)                                                          \
    enum { RG = 64 / MK1 * MK1, ST = 2 * T0 };                                                \
    _Alignas(64) uint8_t R[RG * TL_RING_BYTES];                                               \
    const size_t g0 = f0 / ST * ST;                                                           \
    for (size_t c1 = 0; c1 < f1; c1 += RG) {                                                  \
        const size_t m1 = f1 - c1 < RG ? f1 - c1 : RG;                                        \
        const size_t per = m1 == f1 ? tl_fetches_per_store(ST * (size_t)ss0 / 64, 2 * m1) : 0; \
        for (size_t i0 = 0; i0 < g0; i0 += ST) {                                              \
            const uint8_t *ahead = src + (ptrdiff_t)(i0 + ST) * ss0 + c1 * E;                 \
            const size_t fetch = i0 + 2 * ST <= n0 ? 2 * per : 0;                             \
            for (size_t i1 = c1; i1 < c1 + m1; i1 += MK1) {                                  \
                uint8_t *ring = R + (i1 - c1) * TL_RING_BYTES;                                \
                for (size_t l = 0; l < 2; l++)                                                \
                    TL_UNROLL                                                                 \
                    for (size_t k = 0; k < T0; k += MK0)                                      \
                        MICRO(src + (ptrdiff_t)(i0 + l * T0 + k) * ss0 + i1 * E, ss0, ring + 64 * (1 + l) + k * E, \
                              TL_RING_BYTES);                                                 \
                for (size_t r = i1; r < i1 + MK1; r++, ring += TL_RING_BYTES) {              \
                    tl_ring_step(dst + (ptrdiff_t)r * ds1, i0 * E, ring);                     \
                    for (size_t k = 0; k < fetch; k++, ahead += 64) _mm_prefetch((const char *)ahead, _MM_HINT_T1); \
                }                                                                             \
            }                                                                                 \
        }                                                                                     \
        for (size_t r = c1; r < c1 + m1; r++) tl_ring_end(dst + (ptrdiff_t)r * ds1, g0 * E, R + (r - c1) * TL_RING_BYTES); \
    }

/* Streaming into a dense destination (pixels: rows of n0 elements back to
 * back) from rows far apart (planes): each group of MK1 destination rows is
 * one contiguous range, assembled in L1 and streamed out whole; the source
 * rows' lines are fetched into the L2 about AHEAD bytes before they are
 * read, a group's worth of lines a group, row after row: tens of planes
 * read at once are more streams than the hardware prefetchers follow.
 * AVX2 on the Zen 5, 1810 x 1810 planes, one plan against a streaming
 * copy, runs in separate processes (they swing with the pages' physical
 * placement): NCHW -> NHWC u8 C = 64 0.30-0.43 -> 0.71-0.88, C = 16
 * 0.29-0.47 -> 0.62-1.02; 4, 8, 16 and 32 KiB ahead alike within that
 * swing, 2 lines a row (2-8 KiB) 0.33-0.50. A second buffer, so that a
 * group's stores are not read back at once, measured no gain. The f32
 * kernels' whole-line streaming from registers (MICRO_NT) stays where it
 * applies: there this ran at 0.34-0.56 against 0.82-0.91. Not where the
 * planes share L2 sets (TL_T2D_L2_ALIAS: 2048 x 2048 u8, C = 64): their
 * lines evict each other before they are read, 1 to 5 lines ahead alike,
 * and the staged path below was faster (0.30-0.48 against 0.28-0.37). */
#define TL_T_DENSE(MICRO, E, MK0, MK1)                                                         \
    enum { AHEAD = 16384 };                                                                   \
    _Alignas(64) uint8_t D[4096];                                                             \
    const size_t gb = MK1 * n0 * E, q = (gb + 63) / 64;                                       \
    size_t pr = 0, pc = 64 * (AHEAD / (64 * n0) + 1);                                         \
    for (size_t i1 = 0; i1 < f1; i1 += MK1) {                                                 \
        for (size_t i0 = 0; i0 < f0; i0 += MK0) MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, D + i0 * E, ds1); \
        for (size_t k = 0; k < q && pc < f1 * E; k++) {                                       \
            _mm_prefetch((const char *)(src + (ptrdiff_t)pr * ss0 + pc), _MM_HINT_T1);        \
            if (++pr == n0) pr = 0, pc += 64;                                                 \
        }                                                                                     \
        for (size_t l = 0; l < gb; l += 64) tl_line(dst + (ptrdiff_t)i1 * ds1 + l, D + l, 1); \
    }

/* plain_fn walks pointers: with row indices, its loop inlined into the
 * kernel reloaded a bound from the stack per element (NHWC -> NCHW f32 C = 3
 * on SSE2, where the edges do all the work: 27 -> 15 GB/s). That loop's
 * speed also depends on where it lands in the binary (8 to 28 GB/s for the
 * same instructions: the loads at 12-byte steps and the 4-byte stores meet
 * modulo 4 KiB, and the memory dependence prediction goes by address). */
#define TL_X86_TRANSPOSE(fn, plain_fn, rest_fn, edges_fn, E, MK0, MK1, MK2)                                 \
    TL_FN __attribute__((unused)) void plain_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, \
                             size_t a0, size_t e0, size_t a1, size_t e1)                      \
    {                                                                                         \
        if (a0 >= e0) return;                                                                 \
        for (size_t i1 = a1; i1 < e1; i1++) {                                                 \
            const uint8_t *s = src + (ptrdiff_t)a0 * ss0 + i1 * E;                            \
            uint8_t *d = dst + (ptrdiff_t)i1 * ds1 + a0 * E;                                  \
            for (size_t i0 = a0; i0 < e0; i0++, s += ss0, d += E) memcpy(d, s, E);          \
        }                                                                                     \
    }                                                                                         \
    TL_FN void edges_fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,   \
                             size_t a0, size_t e0, size_t a1, size_t e1)                      \
    {                                                                                         \
        if (a0 >= e0 || a1 >= e1) return; /* (an empty edge would still loop over the other) */ \
        size_t g0 = a0 + (e0 - a0) / MK2 * MK2, g1 = a1 + (e1 - a1) / MK2 * MK2;              \
        if (MK2 > 1)                                                                          \
            for (size_t i1 = a1; i1 < g1; i1 += MK2)                                          \
                for (size_t i0 = a0; i0 < g0; i0 += MK2)                                      \
                    MICRO2(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
        else                                                                                  \
            g0 = a0, g1 = a1;                                                                 \
        rest_fn(src, ss0, dst, ds1, g0, e0, a1, g1);                                          \
        rest_fn(src, ss0, dst, ds1, a0, e0, g1, e1);                                          \
    }                                                                                         \
    TL_KERNEL void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1, size_t n0,       \
            size_t n1, int stream);                                                            \
    TL_KERNEL void fn(const uint8_t *src, ptrdiff_t ss0, uint8_t *dst, ptrdiff_t ds1,          \
                      size_t n0, size_t n1, int stream)                                        \
    {                                                                                         \
        enum { T = 64, T0 = 64 / E };                                                          \
        size_t f0 = n0 / MK0 * MK0, f1 = n1 / MK1 * MK1;                                        \
        /* whole-line streaming needs 64-byte aligned lines: a split line is */         \
        /* two partial write-combining flushes, far slower than plain stores */          \
        int nt = (stream & TL_T2D_STREAM) && ((uintptr_t)dst | (uintptr_t)ds1) % 64 == 0; \
        /* streamed into planes off lines (TL_T_RING), into dense pixels (TL_T_DENSE) */   \
        if ((stream & TL_T2D_STREAM) && !nt && ds1 >= 4096 && f1 && f0 >= 4 * T0 && T0 % MK0 == 0) { \
            TL_T_RING(MICRO, E, MK0, MK1);                                                    \
            _mm_sfence();                                                                     \
            edges_fn(src, ss0, dst, ds1, f0 / (2 * T0) * (2 * T0), n0, 0, f1);                \
            edges_fn(src, ss0, dst, ds1, 0, n0, f1, n1);                                      \
            return;                                                                           \
        }                                                                                     \
        if ((stream & TL_T2D_STREAM) && f0 == n0 && (size_t)ds1 == n0 * E && (uintptr_t)dst % 64 == 0 && \
            MK1 * n0 * E % 64 == 0 && MK1 * n0 * E <= 4096 && (!NT_COLS || !nt) &&        \
            !(stream & TL_T2D_L2_ALIAS)) {                                                    \
            TL_T_DENSE(MICRO, E, MK0, MK1);                                                   \
            _mm_sfence();                                                                     \
            edges_fn(src, ss0, dst, ds1, 0, n0, f1, n1);                                      \
            return;                                                                           \
        }                                                                                     \
        /* streaming to more rows far apart (planes) than one MICRO_NT */                   \
        /* writes, or to exactly as many where the policy's run is more */                  \
        /* than a line (as the AVX-512 byte transpose takes it for 16 rows): */            \
        /* staged below, in runs of lines per row. Lines straight from the */               \
        /* registers, one per plane in turn, ran slower on a Xeon (NHWC -> */              \
        /* NCHW f32 C = 16, 256 MiB: 16.7 GB/s, runs of 2 and 4 20-21) */                  \
        const size_t run = (size_t)1 << ((stream >> TL_T2D_RUN_SHIFT) & 3);                   \
        int far = nt && ds1 >= 4096 && (n1 > NT_COLS || (n1 == NT_COLS && run > 1));          \
        if (NT_COLS && nt && !far) {                                                          \
            /* MICRO_NT writes NT_COLS whole destination lines (T0 source */                  \
            /* rows): streamed from registers, so that at most T0 far rows */                 \
            /* (planes) are read at once and short source rows are read in */                 \
            /* address order (an L1 staging buffer in between measured */                     \
            /* slower from DRAM: NCHW <-> NHWC f32 C = 16, 256 MiB, AVX-512 */                \
            /* 0.57 -> 0.8x, 0.75 -> 0.9x; AVX2, Zen 3: docs/performance-history.md) */       \
            size_t h0 = n0 / T0 * T0, h1 = NT_COLS ? n1 / NT_COLS * NT_COLS : 0;            \
            for (size_t i0 = 0; i0 < h0; i0 += T0)                                            \
                for (size_t i1 = 0; i1 < h1; i1 += NT_COLS)                                   \
                    MICRO_NT(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
            _mm_sfence();                                                                     \
            edges_fn(src, ss0, dst, ds1, h0, n0, 0, h1);                                      \
            edges_fn(src, ss0, dst, ds1, 0, n0, h1, n1);                                      \
            return;                                                                           \
        }                                                                                     \
        if ((ds1 % 512 == 0 || nt || (stream & TL_T2D_DST_ALIAS)) && T0 % MK0 == 0) { /* staged */ \
            /* streaming to rows far apart (planes): runs of `run` (the */                   \
            /* policy's stream_run_lines) consecutive lines per destination */                \
            /* row at a time, so DRAM sees bursts, not 64-byte writes spread */               \
            /* over n1 rows, and the next chunk of source rows is prefetched */               \
            /* into the L2, a line per store, so reads and writes overlap as */               \
            /* in a copy. The best run differs between machines: NHWC -> NCHW */              \
            /* f32 C = 64, 256 MiB, Zen 5 (AVX-512): runs of 2 0.82x memcpy, */              \
            /* of 4 0.72x, of 8 0.69x; Zen 3 (AVX2): 2 0.53x, 4 0.57x, 8 0.75x */              \
            /* (docs/performance-history.md). Rows close together are one stream. */          \
            /* Plain stores to rows whose lines share one L1 set */                           \
            /* (TL_T2D_DST_ALIAS): runs of up to 8, so the stores in flight */               \
            /* spread over 8 sets (x86_bytes512.h, b512_run_b); when more than */            \
            /* one group of MK1 destination rows reads the block's source */                \
            /* rows, bytes take only as many as keep those rows in L1 (16 */                 \
            /* KiB): the other groups read them from there, not from L2 (NHWC */            \
            /* -> NCHW u8 C = 64, 64 x 64, Zen 3: 0.33-0.37x memcpy with runs */            \
            /* of 8, 0.35-0.44x with 4; f32 C = 64 measured no gain) */                      \
            enum { LMAX = 8 };                                                                \
            size_t la = LMAX;                                                                 \
            while (E == 1 && la > 1 && f1 > MK1 && la * T0 * (size_t)ss0 > 16384) la /= 2;   \
            const size_t L = far && f0 >= run * T0 ? run                                      \
                             : !nt && (stream & TL_T2D_DST_ALIAS) && f0 >= la * T0 ? la : 1;  \
            const size_t TL = T0 * L;                                                         \
            _Alignas(64) uint8_t B[MK1 * 64 * LMAX];                                         \
            size_t g0 = f0 / TL * TL;                                                         \
            /* chunks of source rows small enough to stay in L2 while every */                \
            /* group of MK1 destination rows takes its lines from them; when */               \
            /* streaming from source rows in different pages (planes), one */                 \
            /* line's worth (T0 rows) at a time: the L2 streamer follows a */                \
            /* few dozen pages, and 64 concurrent planes defeat it (NCHW -> */               \
            /* NHWC f32 C = 64, 256 MiB: 0.30x -> 0.62x memcpy, measured) */                 \
            const int fit = !nt && (stream & TL_T2D_DST_ALIAS) && la < LMAX; /* (above) */    \
            const size_t CR = (nt && ss0 >= 4096) || fit ? TL : 16 * T0;                      \
            const int fetch = far && (size_t)ss0 < 2 * n1 * E; /* rows mostly dense */       \
            /* streamed lines from source rows that share L1 (and L2) sets */               \
            /* (planes 4 KiB apart, into pixels): the chunk's rows are read */               \
            /* a run of SL whole lines at a time into an L1 buffer first, each */          \
            /* source line once (the blocks read 16 bytes of a line each, and */              \
            /* the other rows' lines had evicted it before the next block: */                 \
            /* NCHW -> NHWC u8 C = 64, 256 MiB, Zen 3: 0.27x -> 0.41x memcpy) */            \
            enum { SL = 4, SW = 64 * SL, SC = SW / E };                                       \
            const int stage = nt && !far && (stream & TL_T2D_SRC_ALIAS) && CR <= 64 && SC % MK1 == 0; \
            _Alignas(64) uint8_t S[64 * SW];                                                  \
            for (size_t c0 = 0; c0 < g0; c0 += CR) {                                          \
                size_t ce = g0 - c0 < CR ? g0 : c0 + CR;                                      \
                const uint8_t *next = src + (ptrdiff_t)ce * ss0;                              \
                size_t left = fetch && ce + CR <= g0 ? CR * (size_t)ss0 / 64 : 0;             \
                const uint8_t *rows = src + (ptrdiff_t)c0 * ss0; /* the micro's rows */      \
                ptrdiff_t rs = ss0, cb = 0;                                                   \
                for (size_t i1 = 0; i1 < f1; i1 += MK1) {                                     \
                    if (stage && i1 % SC == 0) {                                              \
                        tl_t_stage(S, SW, src + (ptrdiff_t)c0 * ss0 + i1 * E, ss0, ce - c0, f1 - i1 < SC ? (f1 - i1) * E : SW); \
                        rows = S, rs = SW, cb = (ptrdiff_t)i1;                                \
                    }                                                                         \
                    for (size_t b0 = c0; b0 < ce; b0 += TL) {                                 \
                        for (size_t l = 0; l < L; l++)                                        \
                            TL_UNROLL                                                         \
                            for (size_t k = 0; k < T0; k += MK0)                              \
                                MICRO(rows + (ptrdiff_t)(b0 - c0 + l * T0 + k) * rs + ((ptrdiff_t)i1 - cb) * E, rs, \
                                      B + l * 64 + k * E, (ptrdiff_t)(64 * L));               \
                        if (!nt && L == LMAX) /* in cache: the run a constant */             \
                            tl_t_lines_out(dst + (ptrdiff_t)i1 * ds1 + b0 * E, ds1, B, MK1, LMAX); \
                        else                                                                  \
                            for (size_t r = 0; r < MK1; r++)                                  \
                                for (size_t l = 0; l < L; l++) {                              \
                                    uint8_t *o = dst + (ptrdiff_t)(i1 + r) * ds1 + (b0 + l * T0) * E; \
                                    tl_line(o, B + (r * L + l) * 64, nt);                     \
                                    if (left) _mm_prefetch((const char *)next, _MM_HINT_T1), next += 64, left--; \
                                }                                                             \
                    }                                                                         \
                }                                                                             \
            }                                                                                 \
            for (size_t i1 = 0; i1 < f1; i1 += MK1)                                           \
                for (size_t i0 = g0; i0 < f0; i0 += MK0)                                      \
                    MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
            if (nt) _mm_sfence();                                                             \
            edges_fn(src, ss0, dst, ds1, f0, n0, 0, f1);                                      \
            edges_fn(src, ss0, dst, ds1, 0, n0, f1, n1);                                      \
            return;                                                                           \
        }                                                                                     \
        if (MK0 >= 16 && !nt && (stream & TL_T2D_SRC_ALIAS) && T0 % MK1 == 0) {                \
            /* source rows sharing L1 sets (planes a multiple of 4 KiB apart, */              \
            /* into pixels): 16 rows of a block are more lines of one set than */            \
            /* the L1 has ways, so each was evicted before the next block used */            \
            /* it. Each group of MK0 rows' next SL lines is copied whole into */              \
            /* an L1 buffer whose rows share no set, and transposed from there: */            \
            /* every source line read once, SL in a row (one line per row at a */            \
            /* time left the loads waiting on L2 in turn: NCHW -> NHWC u8 */                  \
            /* C = 16, 128 x 128, AVX2, Zen 3 8-way L1, 28 GB/s with SL = 1, */               \
            /* 32 with 2, 43 with 4 and 8; docs/performance-history.md) */                    \
            /* Dense destination rows (a block pack, into pixels of <= 16 */                 \
            /* bytes) allowed to stream: a chunk's SC rows are assembled in */                \
            /* a second L1 buffer and leave as whole lines, no read for */                    \
            /* ownership (NCHW -> nChw16c i8, 256 MiB, Zen 3: docs/performance-history.md) */ \
            enum { SL = 8, SW = 64 * SL, SC = T0 * SL };                                      \
            _Alignas(64) uint8_t S[MK0 * SW], D[MK0 * SW];                                    \
            const int dense = (stream & TL_T2D_STREAM) && f0 == n0 && (size_t)ds1 == n0 * E &&  \
                              (size_t)ds1 * SC <= sizeof D && (uintptr_t)dst % 64 == 0;       \
            for (size_t b1 = 0; b1 < f1; b1 += SC) {                                          \
                size_t e1 = f1 - b1 < SC ? f1 : b1 + SC;                                      \
                uint8_t *out = dense ? D : dst + (ptrdiff_t)b1 * ds1;                         \
                for (size_t i0 = 0; i0 < f0; i0 += MK0) {                                     \
                    tl_t_stage(S, SW, src + (ptrdiff_t)i0 * ss0 + b1 * E, ss0, MK0, (e1 - b1) * E); \
                    for (size_t i1 = b1; i1 < e1; i1 += MK1)                                  \
                        MICRO(S + (i1 - b1) * E, SW, out + (ptrdiff_t)(i1 - b1) * ds1 + i0 * E, ds1); \
                }                                                                             \
                if (dense) /* (MK1 rows of >= 16 bytes: whole lines) */                       \
                    for (size_t l = 0; l < (e1 - b1) * (size_t)ds1; l += 64)                  \
                        tl_line(dst + (ptrdiff_t)b1 * ds1 + l, D + l, 1);                   \
            }                                                                                 \
            if (dense) _mm_sfence();                                                          \
            edges_fn(src, ss0, dst, ds1, f0, n0, 0, f1);                                      \
            edges_fn(src, ss0, dst, ds1, 0, n0, f1, n1);                                      \
            return;                                                                           \
        }                                                                                     \
        for (size_t b1 = 0; b1 < f1; b1 += T) {                                               \
            size_t e1 = f1 - b1 < T ? f1 : b1 + T;                                            \
            for (size_t b0 = 0; b0 < f0; b0 += T) {                                          \
                size_t e0 = f0 - b0 < T ? f0 : b0 + T;                                        \
                /* short destination rows (block pack): whole lines; not when */               \
                /* the source rows share L1 sets: the rows of the next register */               \
                /* block evicted the lines this one was still reading (NCHW -> */              \
                /* NHWC f32 C = 16, 64 x 64, AVX2, Zen 3: 0.40 -> 0.66x memcpy) */               \
                if (f0 * E <= 128 && !(stream & TL_T2D_SRC_ALIAS)) {                          \
                    for (size_t i1 = b1; i1 < e1; i1 += MK1)                                  \
                        for (size_t i0 = b0; i0 < e0; i0 += MK0)                              \
                            MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
                    continue;                                                                 \
                }                                                                             \
                /* consecutive blocks read on along the same source lines */                  \
                for (size_t i0 = b0; i0 < e0; i0 += MK0)                                      \
                    for (size_t i1 = b1; i1 < e1; i1 += MK1)                                  \
                        MICRO(src + (ptrdiff_t)i0 * ss0 + i1 * E, ss0, dst + (ptrdiff_t)i1 * ds1 + i0 * E, ds1); \
            }                                                                                 \
        }                                                                                     \
        edges_fn(src, ss0, dst, ds1, f0, n0, 0, f1); /* right columns */                      \
        edges_fn(src, ss0, dst, ds1, 0, n0, f1, n1); /* bottom rows */                        \
    }
