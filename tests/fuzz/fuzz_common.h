/* Shared pieces of the fuzz targets (tests/fuzz/fuzz_*.c).
 *
 * Each target defines LLVMFuzzerTestOneInput and is built two ways: with
 * libFuzzer (clang -fsanitize=fuzzer, -DTL_FUZZ=ON) for fuzzing, and with
 * fuzz_replay.c as an ordinary program that replays the corpora as ctest
 * tests under any compiler. A broken property prints what broke and aborts,
 * so both ways report it as a crash with the input saved or named.
 */
#ifndef TL_FUZZ_COMMON_H
#define TL_FUZZ_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tlayout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FZ_ASSERT(cond, ...)                                                        \
    do {                                                                            \
        if (!(cond)) {                                                              \
            fprintf(stderr, "%s:%d: property failed: %s\n  ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                           \
            fprintf(stderr, "\n  tl_last_error: \"%s\"\n", tl_last_error());       \
            abort();                                                                \
        }                                                                           \
    } while (0)

/* ---- reading the input -------------------------------------------------- */
typedef struct fz_in {
    const uint8_t *p;
    size_t n;
} fz_in;

static inline uint8_t fz_u8(fz_in *in)
{
    if (!in->n) return 0;
    in->n--;
    return *in->p++;
}

static inline uint64_t fz_u64(fz_in *in)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= (uint64_t)fz_u8(in) << (8 * i);
    return v;
}

/* Up to n bytes of the input, the rest zero. */
static inline void fz_bytes(fz_in *in, void *out, size_t n)
{
    size_t k = n < in->n ? n : in->n;
    memcpy(out, in->p, k);
    memset((uint8_t *)out + k, 0, n - k);
    in->p += k;
    in->n -= k;
}

/* A line (up to '\n' or the end) as a NUL-terminated string of at most cap-1
 * characters; a NUL inside the input ends the string early, as C would see it. */
static inline void fz_line(fz_in *in, char *out, size_t cap)
{
    size_t k = 0;
    while (in->n && *in->p != '\n') {
        if (k + 1 < cap) out[k++] = (char)*in->p;
        in->p++;
        in->n--;
    }
    if (in->n) { in->p++; in->n--; }
    out[k] = '\0';
}

/* splitmix64, for data drawn from a seed in the input */
static inline uint64_t fz_mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* ---- properties shared by the targets ------------------------------------ */
#define FZ_BRUTE_MAX 4096        /* elements enumerated one by one */
#define FZ_BUFFER_MAX (1 << 16)  /* bytes of a buffer a target allocates */

static inline int64_t fz_elements(const tl_desc *d)
{
    int64_t n = 1;
    for (int i = 0; i < d->rank; i++) {
        if (d->dims[i] > INT64_MAX / n) return INT64_MAX;
        n *= d->dims[i];
    }
    return n;
}

/* The stored representative of a logical coordinate: along a subsampled dim
 * (every axis of the dim in the plane has block > 1: 4:2:0 chroma) only
 * positions that are multiples of the smallest block own their element. */
static inline int fz_is_representative(const tl_desc *d, const int64_t *x)
{
    int k = 0;
    if (d->nplanes > 1)
        for (k = d->nplanes - 1; k > 0; k--)
            if (x[d->plane_dim] >= d->planes[k].first) break;
    const tl_plane *pl = &d->planes[k];
    for (int i = 0; i < d->rank; i++) {
        int64_t mb = INT64_MAX;
        for (int a = 0; a < pl->naxes; a++)
            if (pl->axes[a].dim == i && pl->axes[a].block < mb) mb = pl->axes[a].block;
        if (mb == INT64_MAX || mb == 1) continue;
        int64_t p = x[i] + d->pad_lo[i];
        if (d->nplanes > 1 && i == d->plane_dim) p = x[i] - pl->first;
        if (p % mb) return 0;
    }
    return 1;
}

/* Offsets agree with the size: the element at x lies inside size_bytes. */
static inline void fz_check_coord(const tl_desc *d, const int64_t *x)
{
    uint64_t bits = 0, bytes = 0;
    unsigned eb = tl_dtype_bits((tl_dtype)d->dtype);
    tl_status s = tl_desc_offset_bits(d, x, &bits);
    FZ_ASSERT(s == TL_OK, "tl_desc_offset_bits of a valid coordinate returned %s", tl_status_str(s));
    s = tl_desc_offset(d, x, &bytes);
    FZ_ASSERT(s == TL_OK && bytes == bits / 8, "tl_desc_offset %llu vs bits %llu",
              (unsigned long long)bytes, (unsigned long long)bits);
    FZ_ASSERT((bits + eb + 7) / 8 <= (uint64_t)d->size_bytes, /* bits < 2^63: no wrap */
              "element at bit %llu (+%u bits) beyond size_bytes=%lld", (unsigned long long)bits, eb,
              (long long)d->size_bytes);
}

/* Walks every coordinate of a small descriptor: each in bounds; for writable
 * descriptors no two stored elements share a bit; tl_fill_padding keeps
 * every element's bytes (byte-sized dtypes). */
static inline void fz_check_brute(const tl_desc *d)
{
    int64_t n = fz_elements(d);
    unsigned eb = tl_dtype_bits((tl_dtype)d->dtype);
    if (n > FZ_BRUTE_MAX || d->size_bytes > FZ_BUFFER_MAX) return;
    size_t size = (size_t)d->size_bytes;
    uint8_t *owner = calloc(size * 8 + 1, 1); /* one flag per bit */
    uint8_t *buf = malloc(size ? size : 1);   /* exact size: ASan sees overruns */
    FZ_ASSERT(owner && buf, "out of memory");
    memset(buf, 0, size);
    int writable = !(d->flags & TL_DESC_READONLY);
    int64_t x[TL_MAX_DIMS] = {0};
    for (int64_t e = 0; e < n; e++) {
        fz_check_coord(d, x);
        if (writable && fz_is_representative(d, x)) {
            uint64_t bits = 0;
            tl_desc_offset_bits(d, x, &bits);
            for (unsigned b = 0; b < eb; b++) {
                FZ_ASSERT(!owner[bits + b], "two elements share bit %llu of a writable descriptor",
                          (unsigned long long)(bits + b));
                owner[bits + b] = 1;
            }
            if (eb >= 8) memset(buf + bits / 8, 0xA7, eb / 8);
        }
        for (int i = d->rank - 1; i >= 0; i--) {
            if (++x[i] < d->dims[i]) break;
            x[i] = 0;
        }
    }
    if (writable && eb >= 8) {
        tl_status s = tl_fill_padding(d, buf, size, 0x00);
        FZ_ASSERT(s == TL_OK, "tl_fill_padding on a valid writable descriptor: %s", tl_status_str(s));
        for (size_t b = 0; b < size; b++)
            FZ_ASSERT(!owner[b * 8] || buf[b] == 0xA7, "tl_fill_padding overwrote element byte %zu", b);
    }
    free(owner);
    free(buf);
}

/* Every property of a valid descriptor that needs no other descriptor. */
static inline void fz_check_valid_desc(const tl_desc *d, fz_in *coords)
{
    uint64_t size = 0;
    tl_status s = tl_desc_size(d, &size);
    FZ_ASSERT(s == TL_OK && size == (uint64_t)d->size_bytes, "tl_desc_size %s %llu vs %lld",
              tl_status_str(s), (unsigned long long)size, (long long)d->size_bytes);
    FZ_ASSERT(tl_last_error()[0] == '\0', "tl_last_error not empty after success");
    int64_t x[TL_MAX_DIMS];
    for (int i = 0; i < d->rank; i++) x[i] = 0;
    fz_check_coord(d, x);
    for (int i = 0; i < d->rank; i++) x[i] = d->dims[i] - 1;
    fz_check_coord(d, x);
    /* coordinates from the input, folded into range */
    for (int k = 0; k < 8 && coords && coords->n; k++) {
        for (int i = 0; i < d->rank; i++) x[i] = (int64_t)(fz_u64(coords) % (uint64_t)d->dims[i]);
        fz_check_coord(d, x);
    }
    /* one past the end along each dim, and negative: TL_ERR_COORD, nothing written */
    for (int i = 0; i < d->rank; i++) {
        uint64_t out = 12345;
        int64_t keep = x[i];
        x[i] = d->dims[i];
        s = tl_desc_offset(d, x, &out);
        FZ_ASSERT(s == TL_ERR_COORD && out == 12345, "coordinate dims[%d]=%lld accepted (%s)", i,
                  (long long)d->dims[i], tl_status_str(s));
        x[i] = -1;
        s = tl_desc_offset(d, x, &out);
        FZ_ASSERT(s == TL_ERR_COORD && out == 12345, "coordinate -1 accepted (%s)", tl_status_str(s));
        x[i] = keep;
    }
    fz_check_brute(d);
}

#endif /* TL_FUZZ_COMMON_H */
