/* The move family: raw bytes moved at byte strides, without a conversion.
 * The small moves the executors do around the other families' kernels: zero
 * lanes, strided element copies, 4:2:0 chroma duplication, pixel spreads and
 * gathers, and whole-line streaming stores from an L1 tile. Not installed. */
#ifndef TL_KERNELS_MOVE_H
#define TL_KERNELS_MOVE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "kernels/kernels.h" /* tl_px_rows */

/* Zero n bytes: the padding lanes of one row are short, so they get two to
 * four overlapping stores (no loop: compilers turn zeroing loops into
 * memset, whose start-up costs more than the row); long runs get memset.
 * Inline: it runs once per destination row. */
static inline void tl_zero_bytes(uint8_t *d, size_t n)
{
    static const uint8_t z[16];
    if (n > 64) {
        memset(d, 0, n);
    } else if (n >= 32) {
        memcpy(d, z, 16);
        memcpy(d + 16, z, 16);
        memcpy(d + n - 32, z, 16);
        memcpy(d + n - 16, z, 16);
    } else if (n >= 16) {
        memcpy(d, z, 16);
        memcpy(d + n - 16, z, 16);
    } else if (n >= 8) {
        memcpy(d, z, 8);
        memcpy(d + n - 8, z, 8);
    } else if (n >= 4) {
        memcpy(d, z, 4);
        memcpy(d + n - 4, z, 4);
    } else {
        if (n > 0) d[0] = 0;
        if (n > 1) d[1] = 0;
        if (n > 2) d[2] = 0;
    }
}

/* Raw E-byte elements at byte strides, two loop levels: n_out rows (ss_out,
 * ds_out apart) of n_in elements (ss_in, ds_in apart). */
typedef void (*tl_copy2d_fn)(const uint8_t *s, uint8_t *d, size_t n_out, ptrdiff_t ss_out, ptrdiff_t ds_out,
                             size_t n_in, ptrdiff_t ss_in, ptrdiff_t ds_in);
void tl_x8_copy2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t, size_t, ptrdiff_t,
                                  ptrdiff_t);
void tl_x16_copy2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t, size_t, ptrdiff_t,
                                   ptrdiff_t);
void tl_x32_copy2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t, size_t, ptrdiff_t,
                                   ptrdiff_t);
void tl_x64_copy2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t, size_t, ptrdiff_t,
                                   ptrdiff_t);

/* Each of n source elements (ss apart) twice, side by side, at ds apart. */
typedef void (*tl_dup2d_fn)(const uint8_t *s, uint8_t *d, size_t n, ptrdiff_t ss, ptrdiff_t ds);
void tl_x8_dup2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t);
void tl_x16_dup2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t);
void tl_x32_dup2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t);
void tl_x64_dup2d_ukernel__scalar(const uint8_t *, uint8_t *, size_t, ptrdiff_t, ptrdiff_t);
/* n even bytes of s (every other byte: one plane of an interleaved chroma
 * pair) each twice into 2n bytes of d. */
void tl_x8_dup_even_ukernel__scalar(const uint8_t *s, uint8_t *d, size_t n);
/* The same into `rows` rows ds apart (the rows do not overlap). */
typedef void (*tl_dup_even_rows_fn)(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
void tl_x8_dup_even_rows_ukernel__scalar(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
/* Both planes of an interleaved chroma row (NV12's UVUV...: n pairs, 2n
 * bytes read): the even bytes into `rows` rows ds apart, the odd bytes into
 * the rows pd after them. */
typedef void (*tl_dup_even_rows2_fn)(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd);
void tl_x8_dup_even_rows2_ukernel__scalar(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                          ptrdiff_t pd);
/* One plane (planes 1) or both (2, as tl_dup_even_rows2_fn), streamed:
 * every destination row's whole lines non-temporal (x86; the caller needs
 * no fence). */
typedef void (*tl_dup_even_rows_streamed_fn)(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                             int planes, ptrdiff_t pd);
/* The vector dup even kernels' last samples, from sample j on, byte by byte
 * from the source (planes 1 or 2, as tl_dup_even_rows2_fn's pd). */
static inline void tl_dup_even_rows_tail(const uint8_t *s, uint8_t *d, size_t j, size_t n, size_t rows, ptrdiff_t ds,
                                         int planes, ptrdiff_t pd)
{
    for (; j < n; j++)
        for (int c = 0; c < planes; c++)
            for (size_t r = 0; r < rows; r++) {
                uint8_t *o = d + c * pd + (ptrdiff_t)r * ds + 2 * j;
                o[0] = o[1] = s[2 * j + (size_t)c];
            }
}
#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_dup_even_rows_ukernel__sse2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
void tl_x8_dup_even_rows2_ukernel__sse2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd);
void tl_x8_dup_even_rows_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
void tl_x8_dup_even_rows2_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd);
void tl_x8_dup_even_rows_streamed_ukernel__sse2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                                int planes, ptrdiff_t pd);
void tl_x8_dup_even_rows_streamed_ukernel__avx2(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                                int planes, ptrdiff_t pd);
#endif
#if defined(__ARM_NEON) && !defined(__x86_64__)
void tl_x8_dup_even_rows_ukernel__neon(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
void tl_x8_dup_even_rows2_ukernel__neon(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds, ptrdiff_t pd);
#endif
/* The even bytes of two rows u and v (n samples each, 2n - 1 bytes read)
 * interleaved into 2n bytes of d: two planes into an interleaved chroma
 * pair in one pass (the AVX-512 one: nt streams the whole lines of d, the
 * caller fences). */
void tl_x8_zip_even_ukernel__scalar(const uint8_t *u, const uint8_t *v, uint8_t *d, size_t n);
#if defined(__ARM_NEON) && !defined(__x86_64__)
void tl_x8_zip_even_ukernel__neon(const uint8_t *u, const uint8_t *v, uint8_t *d, size_t n);
#endif
#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_dup_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n);
void tl_x8_dup_even_rows_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
void tl_x8_dup_even_rows2_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds,
                                          ptrdiff_t pd);
/* The same with each row's whole lines streamed (the caller fences; VBMI). */
void tl_x8_dup_even_rows_streamed_ukernel__avx512vbmi(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
/* n even bytes of s into the even bytes of d, the odd bytes of d neither
 * read nor written (one plane into an interleaved chroma pair). */
void tl_x8_copy_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n);
void tl_x8_zip_even_ukernel__avx512(const uint8_t *u, const uint8_t *v, uint8_t *d, size_t n, int nt);
#endif

/* Pixels of W bytes (4 .. 64): spread m pixels rd apart in t to ds apart in
 * d, masked by mask[0..W) (the zero lanes come from the mask); gather m
 * pixels ss apart in s to rs apart in t (each move may spill into the next
 * pixel's place, which that pixel overwrites). */
typedef void (*tl_spread_fn)(const uint8_t *t, size_t rd, uint8_t *d, ptrdiff_t ds, size_t m, const uint8_t *mask);
typedef void (*tl_gather_fn)(const uint8_t *s, ptrdiff_t ss, uint8_t *t, size_t rs, size_t m);
void tl_spread4_ukernel__scalar(const uint8_t *, size_t, uint8_t *, ptrdiff_t, size_t, const uint8_t *);
void tl_spread8_ukernel__scalar(const uint8_t *, size_t, uint8_t *, ptrdiff_t, size_t, const uint8_t *);
void tl_spread16_ukernel__scalar(const uint8_t *, size_t, uint8_t *, ptrdiff_t, size_t, const uint8_t *);
void tl_spread32_ukernel__scalar(const uint8_t *, size_t, uint8_t *, ptrdiff_t, size_t, const uint8_t *);
void tl_spread64_ukernel__scalar(const uint8_t *, size_t, uint8_t *, ptrdiff_t, size_t, const uint8_t *);
void tl_gather4_ukernel__scalar(const uint8_t *, ptrdiff_t, uint8_t *, size_t, size_t);
void tl_gather8_ukernel__scalar(const uint8_t *, ptrdiff_t, uint8_t *, size_t, size_t);
void tl_gather16_ukernel__scalar(const uint8_t *, ptrdiff_t, uint8_t *, size_t, size_t);
void tl_gather32_ukernel__scalar(const uint8_t *, ptrdiff_t, uint8_t *, size_t, size_t);
void tl_gather64_ukernel__scalar(const uint8_t *, ptrdiff_t, uint8_t *, size_t, size_t);

/* The shuffle spreads (AVX2, NEON below): whether the pixels fit a 16-byte
 * lane's shuffle, and the lane's control (move/scalar.c). */
int tl_spread_fits16(unsigned w, const uint8_t *mask);
void tl_spread_ctl16(uint8_t ctl[16], unsigned w, size_t rd, const uint8_t *mask);
/* The same with one in-lane byte shuffle per 32 bytes (AVX2), where
 * tl_spread_fits16 / tl_gather_fits__avx2 say so: spread into dense
 * pixels of w = 4 .. 64 bytes whose bytes lie in their first 16 (mask as
 * above; t is read up to 16 bytes past a run's start: straight from a
 * source, tl_spread_direct__avx2 says for how many pixels), each byte
 * plus `add` (a conversion that is a byte add, tl_cvt_byte_add); gather from dense
 * pixels of ss = 4 or 8 bytes, or the first rs <= 4 of 16 or 32, exactly
 * m * rs bytes written and only the last pixel's run read of it, each byte
 * through `map`, a tl_map8 code: a move or the u8 <-> i8 saturation of
 * identity quantizations in the register (kDLA_HWC4 i8 into RGB u8,
 * straight into the destination). */
#if defined(__x86_64__) || defined(_M_X64)
void tl_spread_ukernel__avx2(const uint8_t *t, size_t rd, uint8_t *d, size_t m, unsigned w, const uint8_t *mask,
                             const uint8_t *ctl, int stream, uint8_t add);
size_t tl_spread_direct__avx2(size_t rd, unsigned w, size_t m, size_t avail);
int tl_gather_fits__avx2(size_t ss, size_t rs);
void tl_gather_ctl__avx2(uint8_t ctl[16], size_t ss, size_t rs);
void tl_gather_ukernel__avx2(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m, const uint8_t *ctl, int map);
#endif

/* The spread with one table lookup per 16 bytes (NEON: vqtbl1q, Armv7 two
 * vtbl2), where tl_spread_fits16 says so: as the AVX2 one. */
#if defined(__ARM_NEON) && !defined(__x86_64__)
/* kDLA_HWC4 f16 <-> RGB on Arm, converted in the register (defined with the
 * convert family: convert/neon.c on AArch64, and convert/neonfp16arith.c for
 * the CPUs with ARMv8.2's FP16 arithmetic; convert/neonfp16.c on Armv7,
 * which runs them where the CPU has VFPv4), as the AVX2 ones: rows of RGB u8
 * pixels into pixels of 4 f16 halves, and back into u8 or i8 codes; each
 * row's gap zeroed. */
struct tl_cvt;
#if defined(__aarch64__)
void tl_u8_f16_spread4_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                          const struct tl_cvt *cv);
void tl_f16_x8_gather4_rows_ukernel__neon(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                          const struct tl_cvt *cv);
void tl_u8_f16_spread4_rows_ukernel__neonfp16arith(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                   const struct tl_cvt *cv);
void tl_f16_x8_gather4_rows_ukernel__neonfp16arith(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                                   const struct tl_cvt *cv);
#else
void tl_u8_f16_spread4_rows_ukernel__neonfp16(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                              const struct tl_cvt *cv);
void tl_f16_x8_gather4_rows_ukernel__neonfp16(const uint8_t *src, uint8_t *dst, const tl_px_rows *g,
                                              const struct tl_cvt *cv);
#endif
#endif
#if defined(__ARM_NEON) && !defined(__x86_64__)
void tl_spread_ukernel__neon(const uint8_t *t, size_t rd, uint8_t *d, size_t m, unsigned w, const uint8_t *mask,
                             const uint8_t *ctl);
#endif

/* The same with one byte permute per 64 bytes (AVX-512 VBMI), for pixels of
 * w = 4 .. 64 bytes (a power of 2) on their strided side, dense on both:
 * spread m runs of rd bytes in t into m pixels of w bytes in d (lanes not
 * in `keep` are zero); gather m pixels of ss bytes in s to their first rs
 * bytes in t. The index tables (64 bytes) come from tl_px_perm_spread and
 * tl_px_perm_gather. The spread adds `add` to every kept byte (a conversion
 * that is a byte add, tl_cvt_byte_add) and reads up to 64 bytes from each
 * step's first run: straight from a source, tl_x8_spread_direct__avx512vbmi
 * says for how many pixels. */
#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_spread_ukernel__avx512vbmi(const uint8_t *t, size_t rd, uint8_t *d, size_t m, size_t w,
                                      const uint8_t *perm, uint64_t keep, int nt, uint8_t add);
size_t tl_x8_spread_direct__avx512vbmi(size_t rd, size_t w, size_t m, size_t avail);
void tl_x8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                      const uint8_t *perm);
/* The gather saturating u8 -> i8 or i8 -> u8 in the register, storing only
 * the runs' bytes (into a destination). */
void tl_u8_i8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                         const uint8_t *perm);
void tl_i8_u8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                         const uint8_t *perm);
/* The spread converting u8 -> f16 by the plan's tables of the rule's 256
 * answers (lo: their low bytes, hi: their high bytes): m pixels of k u8 codes,
 * dense (exactly m * k bytes read), into pixels of w bytes whose 2k-byte f16
 * run the index table places. The spreads' nt: whole 64-byte steps streamed
 * (d on a line; the caller fences). */
void tl_u8_f16_spread_ukernel__avx512vbmi(const uint8_t *s, size_t k, uint8_t *d, size_t m, size_t w,
                                          const uint8_t *perm, uint64_t keep, const uint8_t *lo, const uint8_t *hi,
                                          int nt);
/* AVX2 + F16C: m pixels of k <= 4 u8 codes (dense) into pixels of 4 f16
 * halves (8 bytes), the rule's source stage in the register (the plan's
 * f32 pipeline: cv), halves past k zero. nt: whole steps streamed when d
 * is 32-byte aligned (fenced by the kernel). Defined with the convert
 * family (convert/avx2.c). */
struct tl_cvt;
void tl_u8_f16_spread4_ukernel__avx2(const uint8_t *s, size_t k, uint8_t *d, size_t m, const struct tl_cvt *cv,
                                     int nt);
void tl_u8_f16_spread4_rows_ukernel__avx2(const uint8_t *s, size_t k, uint8_t *d, const tl_px_rows *g,
                                          const struct tl_cvt *cv, int nt);
/* The way back: rows of pixels of 4 f16 halves -> rows of 3 u8 or i8 codes a
 * pixel and each row's gap of zero bytes (nothing else written; plain
 * stores), the first three halves converted by cv in the register. */
void tl_f16_x8_gather4_rows_ukernel__avx2(const uint8_t *s, uint8_t *d, const tl_px_rows *g,
                                          const struct tl_cvt *cv);
/* The same for u8 codes under the plain rule only (nearest even, 0..255,
 * NaN 0: cv's d_mul 1, d_add 0), with AVX-512 VBMI (convert/avx512.c). */
void tl_f16_u8_gather4_rows_ukernel__avx512vbmi(const uint8_t *s, uint8_t *d, const tl_px_rows *g);
/* The same over rows of pixels (tl_px_rows), each row's gap zeroed. */
void tl_u8_f16_spread_rows_ukernel__avx512vbmi(const uint8_t *s, size_t k, uint8_t *d, const tl_px_rows *g,
                                               size_t w, const uint8_t *perm, uint64_t keep, const uint8_t *lo,
                                               const uint8_t *hi, int nt);
#endif
/* Byte j of a 64-byte step of w-byte pixels whose run of rd bytes starts h
 * bytes in: from byte (j / w) * rd + (j % w - h) of the dense runs, and kept
 * (a bit of the returned mask) only inside the run. */
static inline uint64_t tl_px_perm_spread(uint8_t perm[64], unsigned w, unsigned rd, unsigned h)
{
    uint64_t keep = 0;
    for (unsigned j = 0; j < 64; j++) {
        unsigned lane = j % w;
        int in = lane >= h && lane < h + rd;
        perm[j] = (uint8_t)(in ? (j / w) * rd + lane - h : 0);
        keep |= (uint64_t)in << j;
    }
    return keep;
}
/* Byte j of the dense runs of rs bytes from ss-byte pixels: byte
 * (j / rs) * ss + j % rs of the step (j < (64 / ss) * rs; the rest unused). */
static inline void tl_px_perm_gather(uint8_t perm[64], unsigned ss, unsigned rs)
{
    for (unsigned j = 0; j < 64; j++) perm[j] = (uint8_t)(j < (64 / ss) * rs ? (j / rs) * ss + j % rs : 0);
}

/* The line gather (AVX-512 VBMI): 64 pixels a step, their first rs bytes
 * (2 .. 4) stored as rs whole 64-byte lines, which can be streamed. The
 * pixels are read 16 at a time into a "group" register: straight (4-byte
 * pixels), merged from ss / 4 loads by masked byte permutes (8 to 32-byte
 * pixels; merge[j] places load j's pixels, each rs bytes at p * rs), or
 * converted from f16 (kDLA_HWC4 f16: 16 pixels of 4 halves, packed to
 * bytes in the saturating packs' lane order). Line j of a step then comes
 * from groups 64j / rs / 16 and the next by one two-source permute. */
typedef struct tl_px_lines {
    uint8_t merge[8][64];
    uint64_t merge_keep[8];
    uint8_t line[4][64];
} tl_px_lines;

/* Where byte c of pixel p (< 16) of a group sits: `pix` bytes a pixel, or,
 * for f16 packed to bytes (pix 0), element e = 4p + c at 16 * (e / 4 % 4) +
 * 4 * (e / 16) + e % 4 (packs_epi32 then packs_epi16 of vectors e / 16 =
 * 0..3 interleave them per 128-bit lane). */
static inline unsigned tl_px_lines_pos(unsigned pix, unsigned p, unsigned c)
{
    if (pix) return p * pix + c;
    unsigned e = 4 * p + c;
    return 16 * (e / 4 % 4) + 4 * (e / 16) + e % 4;
}

/* Tables for pixels of ss bytes (4, 8, 16, 32; f16: 8) to rs bytes (2 .. 4). */
static inline void tl_px_lines_init(tl_px_lines *L, unsigned ss, unsigned rs, int f16)
{
    unsigned pix = f16 ? 0 : ss == 4 ? 4 : rs, per = 64 / ss;
    memset(L, 0, sizeof *L);
    for (unsigned j = 0; !f16 && ss > 4 && j < ss / 4; j++)
        for (unsigned q = 0; q < per; q++)
            for (unsigned c = 0; c < rs; c++) {
                unsigned at = tl_px_lines_pos(pix, j * per + q, c);
                L->merge[j][at] = (uint8_t)(q * ss + c);
                L->merge_keep[j] |= 1ull << at;
            }
    for (unsigned j = 0; j < rs; j++) {
        unsigned first = 64 * j / rs / 16;
        for (unsigned b = 0; b < 64; b++) {
            unsigned o = 64 * j + b, p = o / rs;
            L->line[j][b] = (uint8_t)((p / 16 - first) * 64 + tl_px_lines_pos(pix, p % 16, o % rs));
        }
    }
}
/* The line gathers' drivers (in the AVX-512 kernels), by STEP(src, dst,
 * nt), one whole step of 64 pixels of pxs bytes (their first srs read) into
 * rs bytes each, and PART(src, dst, bytes read, bytes written), the same
 * step with masked loads and plain masked stores.
 *
 * TL_PX_LINES_BANDS: nb (<= TL_PX_BANDS) runs of m pixels, run j at s + j
 * * sstep and d + j * dstep, their whole steps taken one of each run in
 * turn: nb streams of reads, where one leaves DRAM idle between the
 * prefetches. With nt, the pixels before a run's first line start go
 * through PART and its whole steps are streamed, each asking for its
 * pixels a page on (tl_prefetch_ahead, inside the run); a run where no
 * pixel starts a line is stored plainly. The last <= 64 pixels of a run
 * always go through PART (the last pixel's stride may end the source). */
enum { TL_PX_BANDS = 4 };
#define TL_PX_LINES_BANDS(s, pxs, srs, sstep, d, rs, dstep, nb, m, nt, STEP, PART)                   \
    do {                                                                                           \
        size_t i_[TL_PX_BANDS], whole_ = (m) > 64 ? (m) - 64 : 0; /* steps start below whole_ */   \
        int nt_[TL_PX_BANDS], more_ = 1;                                                           \
        for (size_t j_ = 0; j_ < (nb); j_++) {                                                     \
            uint8_t *dj_ = (d) + (ptrdiff_t)j_ * (dstep);                                                     \
            size_t h_ = 0;                                                                         \
            while ((nt) && h_ < 64 && ((uintptr_t)dj_ + h_ * (rs)) % 64) h_++;                     \
            nt_[j_] = (nt) && h_ < 64;                                                             \
            i_[j_] = !nt_[j_] ? 0 : h_ < (m) ? h_ : (m);                                 \
            if (i_[j_]) PART((s) + (ptrdiff_t)j_ * (sstep), dj_, (i_[j_] - 1) * (pxs) + (srs), i_[j_] * (rs)); \
        }                                                                                          \
        while (more_) {                                                                            \
            more_ = 0;                                                                             \
            for (size_t j_ = 0; j_ < (nb); j_++) {                                                 \
                if (i_[j_] >= whole_) continue;                                                    \
                const uint8_t *at_ = (s) + (ptrdiff_t)j_ * (sstep) + i_[j_] * (pxs);                           \
                if (nt_[j_]) tl_prefetch_ahead(at_, 64 * (pxs), ((m) - 1 - i_[j_]) * (pxs) + (srs));  \
                STEP(at_, (d) + (ptrdiff_t)j_ * (dstep) + i_[j_] * (rs), nt_[j_]);                            \
                i_[j_] += 64, more_ = 1;                                                           \
            }                                                                                      \
        }                                                                                          \
        for (size_t j_ = 0; j_ < (nb); j_++)                                                       \
            if (i_[j_] < (m))                                                                      \
                PART((s) + (ptrdiff_t)j_ * (sstep) + i_[j_] * (pxs), (d) + (ptrdiff_t)j_ * (dstep) + i_[j_] * (rs),        \
                     ((m) - 1 - i_[j_]) * (pxs) + (srs), ((m) - i_[j_]) * (rs));                    \
    } while (0)
/* TL_PX_LINES_ROWS: the rows of g (tl_px_rows), each row's g->gap bytes
 * after its pixels zeroed. Streamed (nt) with slices > 1, the rows are
 * read as that many bands, a step of each band's row in turn (kDLA_HWC4
 * f16 -> RGB u8 at 256 MiB, Xeon: rows of 2500 pixels one by one 12.6 GB/s,
 * 2496-pixel rows as one run read in 3 slices 18.6-19.7); fewer rows than
 * slices are each cut into that many slices of whole steps (d on a line),
 * the rest of the row after them. */
#define TL_PX_LINES_ROWS(s, pxs, srs, d, rs, g, nt, slices, STEP, PART)                               \
    do {                                                                                            \
        size_t nb_ = (nt) && (slices) > 1 ? (slices) < TL_PX_BANDS ? (slices) : TL_PX_BANDS : 1;     \
        size_t per_ = (g)->rows / nb_, n_ = (g)->n;                                                 \
        for (size_t r_ = 0; r_ < per_; r_++)                                                        \
            TL_PX_LINES_BANDS((s) + (ptrdiff_t)r_ * (g)->ss, pxs, srs, (ptrdiff_t)per_ * (g)->ss,        \
                              (d) + (ptrdiff_t)r_ * (g)->ds, rs, (ptrdiff_t)per_ * (g)->ds, nb_, n_, nt, STEP, PART);                             \
        for (size_t r_ = nb_ * per_; r_ < (g)->rows; r_++) {                                         \
            const uint8_t *sr_ = (s) + (ptrdiff_t)r_ * (g)->ss;                                                 \
            uint8_t *dr_ = (d) + (ptrdiff_t)r_ * (g)->ds;                                                       \
            size_t sl_ = n_ && (uintptr_t)dr_ % 64 == 0 ? (n_ - 1) / nb_ / 64 * 64 : 0;              \
            if (sl_)                                                                                \
                TL_PX_LINES_BANDS(sr_, pxs, pxs, sl_ * (pxs), dr_, rs, sl_ * (rs), nb_, sl_, nt, STEP, PART); \
            TL_PX_LINES_BANDS(sr_ + nb_ * sl_ * (pxs), pxs, srs, 0, dr_ + nb_ * sl_ * (rs), rs, 0, 1,   \
                              n_ - nb_ * sl_, nt, STEP, PART);                                       \
        }                                                                                           \
        for (size_t r_ = 0; (g)->gap && r_ < (g)->rows; r_++)                                       \
            memset((d) + (ptrdiff_t)r_ * (g)->ds + n_ * (rs), 0, (g)->gap);                                   \
    } while (0)
/* The first n (may be <= 0 or >= 64) bits set: a masked load's or store's bytes. */
static inline uint64_t tl_first_bits(ptrdiff_t n) { return n <= 0 ? 0 : n >= 64 ? ~0ull : ~0ull >> (64 - n); }
#if defined(__x86_64__) || defined(_M_X64)
/* The line gather of the rows g of 8-bit pixels (ss 4 .. 32) through an
 * optional 256-byte table (lut, NULL: none) or saturated u8 <-> i8 (sat: 1
 * to i8, 2 to u8, 0 none; one byte operation), and of f16 pixels of 4 halves
 * (ss 8) quantized to 8 bits by cv (kernels/convert/avx512.c). Exactly the
 * pixels' runs are read and their rs bytes written, and each row's gap
 * zeroed; nt streams the whole lines (the caller fences). slices > 1: read
 * as that many streams in turn (TL_PX_LINES_ROWS). */
void tl_x8_gather_lines_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *d, size_t rs, const tl_px_rows *g,
                                            const tl_px_lines *L, const uint8_t *lut, int sat, int nt,
                                            size_t slices);
struct tl_cvt;
void tl_f16_x8_gather_lines_ukernel__avx512vbmi(const uint8_t *s, uint8_t *d, size_t rs, const tl_px_rows *g,
                                                const tl_px_lines *L, const struct tl_cvt *cv, int nt, size_t slices);
#endif

/* n bytes from an L1 tile to a destination larger than the cache: whole
 * 64-byte lines with non-temporal stores (no read for ownership), the
 * partial lines at the ends with plain stores. The caller fences
 * (tl_store_fence) after its last streaming call. */
typedef void (*tl_stream_fn)(uint8_t *d, const uint8_t *s, size_t n);
/* The streaming copies' start: the bytes before d's next line boundary
 * with plain stores; their count, or n when no whole line follows. */
static inline size_t tl_stream_head(uint8_t *d, const uint8_t *s, size_t n)
{
    size_t head = (size_t)(-(uintptr_t)d & 63);
    if (head > n) head = n;
    memcpy(d, s, head);
    return head;
}
void tl_stream_copy_ukernel__scalar(uint8_t *d, const uint8_t *s, size_t n); /* memcpy: Arm has no
                                                                                 store worth the name */
#if defined(__x86_64__) || defined(_M_X64)
void tl_stream_copy_ukernel__sse2(uint8_t *d, const uint8_t *s, size_t n);
void tl_stream_copy_ukernel__avx512(uint8_t *d, const uint8_t *s, size_t n); /* 64-byte stores */
#endif
#if defined(__aarch64__)
void tl_stream_copy_ukernel__neon(uint8_t *d, const uint8_t *s, size_t n); /* STNP (move/neon.c) */
#endif
#if defined(__ARM_NEON) && !defined(__x86_64__)
/* m dense 3-byte pixels <-> pixels of 4, 8, 16 or 32 bytes holding them
 * first, the rest zero (spread3 writes the zeros; gather3 never reads the
 * last pixel past its 3 bytes), through the byte map `map` (tl_map8_of(cv),
 * kernels.h; the pixels stepped byte by byte through cv's table).
 * move/neon.c, AArch64 and Armv7. */
void tl_x8_gather3_ukernel__neon(const uint8_t *s, size_t ss, uint8_t *d, size_t m, const struct tl_cvt *cv, int map);
void tl_x8_spread3_ukernel__neon(const uint8_t *s, uint8_t *d, size_t m, size_t ds, const struct tl_cvt *cv, int map);
#endif
/* Order the non-temporal stores before returning (x86 sfence; else nothing). */
void tl_store_fence(void);

#endif
