/* The move family: raw bytes moved at byte strides, without a conversion.
 * The small moves the executors do around the other families' kernels: zero
 * lanes, strided element copies, 4:2:0 chroma duplication, pixel spreads and
 * gathers, and whole-line streaming stores from an L1 tile. Not installed. */
#ifndef TL_KERNELS_MOVE_H
#define TL_KERNELS_MOVE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

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
#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_dup_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n);
void tl_x8_dup_even_rows_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n, size_t rows, ptrdiff_t ds);
/* n even bytes of s into the even bytes of d, the odd bytes of d neither
 * read nor written (one plane into an interleaved chroma pair). */
void tl_x8_copy_even_ukernel__avx512(const uint8_t *s, uint8_t *d, size_t n);
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

/* The same with one byte permute per 64 bytes (AVX-512 VBMI), for pixels of
 * w = 4 .. 64 bytes (a power of 2) on their strided side, dense on both:
 * spread m runs of rd bytes in t into m pixels of w bytes in d (lanes not
 * in `keep` are zero); gather m pixels of ss bytes in s to their first rs
 * bytes in t. The index tables (64 bytes) come from tl_px_perm_spread and
 * tl_px_perm_gather. */
#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_spread_ukernel__avx512vbmi(const uint8_t *t, size_t rd, uint8_t *d, size_t m, size_t w,
                                      const uint8_t *perm, uint64_t keep, int nt);
void tl_x8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                      const uint8_t *perm);
/* The gather saturating u8 -> i8 or i8 -> u8 in the register, storing only
 * the runs' bytes (into a destination). */
void tl_u8_i8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                         const uint8_t *perm);
void tl_i8_u8_gather_ukernel__avx512vbmi(const uint8_t *s, size_t ss, uint8_t *t, size_t rs, size_t m,
                                         const uint8_t *perm);
/* The spread converting u8 -> f16 in the register (defined with the
 * convert family, kernels/convert/avx512.c): m pixels of k u8 codes, dense
 * (exactly m * k bytes read), into pixels of w bytes whose 2k-byte f16 run
 * the index table places. The spreads' nt: whole 64-byte steps streamed (d
 * on a line; the caller fences). */
struct tl_cvt;
void tl_u8_f16_spread_ukernel__avx512vbmi(const uint8_t *s, size_t k, uint8_t *d, size_t m, size_t w,
                                          const uint8_t *perm, uint64_t keep, const struct tl_cvt *cv, int nt);
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
/* Order the non-temporal stores before returning (x86 sfence; else nothing). */
void tl_store_fence(void);

#endif
