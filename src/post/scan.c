/* tl_scan: threshold a channel range in the code domain.
 *
 * Every position is decided by the exact rule (pixel_hits: code >= T, values
 * for the best channel from the code's real value). For 8-bit codes in a
 * separable layout a vector kernel first finds the candidate positions of a
 * row: the channels of the range fall into segments, each a strided run of
 * pixels of P bytes (P = the W step) with the channels at fixed lanes
 * (NC1HWC2 / NCHWxc: one segment per channel block, P = the block; NHWC: one
 * segment, P = the padded C; NCHW: one segment per channel, P = 1). A masked
 * unsigned compare over the run finds the pixels with any lane >= T; only
 * those are looked at channel by channel. Pad lanes are masked, so they can
 * never be reported (they are only read, inside the buffer). */
#include <stdlib.h>

#include "kernels/scan/scan.h"
#include "post/post_internal.h"

/* The running state of one position. */
typedef struct pixel {
    int64_t best_c, best_code;
    double best_value;
} pixel;

/* The exact rule at one position (n, h, w) for channels [c0, c1). */
static void channel_hits(const tl_pview *v, const uint8_t *buf, int64_t n, int64_t h, int64_t w, int64_t c0,
                         int64_t c1, int32_t T, bool best, pixel *px, tl_hitlist *out)
{
    for (int64_t c = c0; c < c1; c++) {
        int64_t code = tl_pview_load(v, buf, tl_pview_bit(v, n, c, h, w));
        if (code < T) continue;
        double value = tl_pview_value(v, code);
        if (!best) tl_hitlist_push(out, n, (int32_t)c, h, w, (int32_t)code, value);
        else if (px->best_c < 0 || value > px->best_value) px->best_c = c, px->best_code = code, px->best_value = value;
    }
}

static void pixel_done(const pixel *px, int64_t n, int64_t h, int64_t w, bool best, tl_hitlist *out)
{
    if (best && px->best_c >= 0)
        tl_hitlist_push(out, n, (int32_t)px->best_c, h, w, (int32_t)px->best_code, px->best_value);
}

/* ---- the row search for 8-bit separable layouts ------------------------------ */
typedef struct seg {
    int64_t key;     /* byte offset of the segment's pixel 0 from the row */
    int64_t c0, c1;  /* its channels, when they are a run [c0, c1) (see `runs`) */
    uint8_t *mask;   /* mlen + 64 bytes */
} seg;

typedef struct fast {
    int64_t P;       /* bytes between pixels */
    size_t mlen;     /* mask period: lcm(64, P) */
    int nseg;
    bool runs;       /* every segment holds a run of channels, runs in channel
                        order, <= 64 segments: a candidate pixel is checked only
                        in the segments where the search found something */
    seg *segs;
    uint64_t *cand;  /* W flags: bit s = segment s found something (zero
                        between rows: only the listed entries are set) */
    int64_t *list;   /* the pixels of a row with a flag, ascending */
    int64_t nlist;
} fast;

static void fast_free(fast *f)
{
    for (int s = 0; s < f->nseg; s++) free(f->segs[s].mask);
    free(f->segs);
    free(f->cand);
    free(f->list);
    memset(f, 0, sizeof *f);
}

static int64_t gcd64(int64_t a, int64_t b) { return b ? gcd64(b, a % b) : a; }

static int64_t max_of(const int64_t *t, int64_t n)
{
    int64_t m = 0;
    for (int64_t i = 0; i < n; i++) m = t[i] > m ? t[i] : m;
    return m;
}

/* Set up the segments, or return false (then every position is decided by the
 * exact rule alone). Conditions: 8-bit codes, separable, W >= 2 pixels a
 * constant P <= 256 bytes apart, every run inside the buffer, and no more than
 * about 4 bytes read per channel and pixel. */
static bool fast_init(fast *f, const tl_pview *v, size_t len, int64_t first, int64_t count)
{
    memset(f, 0, sizeof *f);
    if (v->bits != 8 || !v->separable || v->W < 2) return false;
    int64_t P = v->tw[1] / 8;
    if (P < 1 || P > 256 || v->tw[1] % 8) return false;
    for (int64_t w = 0; w < v->W; w++)
        if (v->tw[w] != w * P * 8) return false;
    f->P = P;
    f->mlen = (size_t)(64 / gcd64(64, P) * P);
    f->segs = calloc((size_t)count, sizeof *f->segs);
    f->cand = calloc((size_t)v->W, sizeof *f->cand);
    f->list = malloc((size_t)v->W * sizeof *f->list);
    f->runs = true;
    if (!f->segs || !f->cand || !f->list) return fast_free(f), false;
    int64_t row_max = (v->base + 0) / 8 + max_of(v->tn, v->N) / 8 + max_of(v->th, v->H) / 8;
    for (int64_t c = first; c < first + count; c++) {
        if (v->tc[c] % 8) return fast_free(f), false;
        int64_t off = v->tc[c] / 8, key = off - off % P, lane = off % P;
        int s = 0;
        while (s < f->nseg && f->segs[s].key != key) s++;
        if (s < f->nseg && f->segs[s].c1 != c) f->runs = false; /* an earlier segment again */
        f->segs[s].c1 = c + 1;
        if (s == f->nseg) {
            if (row_max + key + v->W * P > (int64_t)len) return fast_free(f), false;
            f->segs[s].key = key;
            f->segs[s].c0 = c;
            f->segs[s].mask = calloc(f->mlen + 64, 1);
            f->nseg++;
            if (!f->segs[s].mask) return fast_free(f), false;
        }
        for (size_t i = (size_t)lane; i < f->mlen + 64; i += (size_t)P) f->segs[s].mask[i] = 0xFF;
    }
    if ((int64_t)f->nseg * P > 4 * count + 64) return fast_free(f), false;
    if (f->nseg > 64) f->runs = false;
    return true;
}

/* Flag the pixels of row (n, h) where some channel of the range may pass and
 * list them in ascending order (segments find them in their own order). */
static void row_candidates(fast *f, tl_scan_next_fn next, const tl_pview *v, const uint8_t *row, uint8_t flip,
                           uint8_t tu)
{
    size_t nbytes = (size_t)(v->W * f->P), P = (size_t)f->P;
    f->nlist = 0;
    for (int s = 0; s < f->nseg; s++) {
        const uint8_t *p = row + f->segs[s].key;
        for (size_t j = next(p, 0, nbytes, f->segs[s].mask, f->mlen, flip, tu); j < nbytes;
             j = next(p, j, nbytes, f->segs[s].mask, f->mlen, flip, tu)) {
            size_t w = j / P;
            if (!f->cand[w]) f->list[f->nlist++] = (int64_t)w;
            f->cand[w] |= (uint64_t)1 << (s & 63);
            j = (w + 1) * P;
            if (j >= nbytes) break;
        }
    }
    for (int64_t i = 1; i < f->nlist; i++) { /* insertion sort: few, mostly sorted */
        int64_t x = f->list[i], k = i;
        while (k > 0 && f->list[k - 1] > x) f->list[k] = f->list[k - 1], k--;
        f->list[k] = x;
    }
}

/* The exact rule at one candidate pixel: in its flagged segments only when the
 * segments are channel runs, else over the whole range. */
static void candidate_hits(const fast *f, const tl_pview *v, const uint8_t *buf, int64_t n, int64_t h, int64_t w,
                           int64_t first, int64_t count, int32_t T, bool best, tl_hitlist *out)
{
    pixel px = {-1, 0, 0.0};
    if (!f->runs) channel_hits(v, buf, n, h, w, first, first + count, T, best, &px, out);
    else
        for (uint64_t m = f->cand[w]; m; m &= m - 1) {
            const seg *sg = &f->segs[__builtin_ctzll(m)];
            channel_hits(v, buf, n, h, w, sg->c0, sg->c1, T, best, &px, out);
        }
    pixel_done(&px, n, h, w, best, out);
}

tl_status tl_scan_list(const tl_pview *v, const uint8_t *buf, int64_t first, int64_t count, double t, unsigned flags,
                       tl_hitlist *out)
{
    int32_t T = 0;
    TL_TRY(tl_post_check_range(v, first, count));
    TL_TRY(tl_post_threshold(v, t, &T));
    if (T > v->hi) return TL_OK; /* no code passes */
    bool best = (flags & TL_SCAN_BEST) != 0;
    fast f;
    bool use_fast = T > v->lo && fast_init(&f, v, (size_t)v->d->size_bytes, first, count);
    tl_scan_next_fn next = tl_scan_kernel_default();
    uint8_t flip = v->is_signed ? 0x80 : 0, tu = (uint8_t)(T - v->lo); /* T > lo: tu >= 1 */
    for (int64_t n = 0; n < v->N; n++)
        for (int64_t h = 0; h < v->H; h++) {
            if (!use_fast) {
                for (int64_t w = 0; w < v->W; w++) {
                    pixel px = {-1, 0, 0.0};
                    channel_hits(v, buf, n, h, w, first, first + count, T, best, &px, out);
                    pixel_done(&px, n, h, w, best, out);
                }
                continue;
            }
            row_candidates(&f, next, v, buf + (v->base + v->tn[n] + v->th[h]) / 8, flip, tu);
            for (int64_t i = 0; i < f.nlist; i++) {
                candidate_hits(&f, v, buf, n, h, f.list[i], first, count, T, best, out);
                f.cand[f.list[i]] = 0;
            }
        }
    if (use_fast) fast_free(&f);
    return TL_OK;
}

tl_status tl_scan(const tl_desc *d, const void *buf, size_t len, int64_t first, int64_t count, double t,
                  unsigned flags, tl_hit *hits, size_t cap, size_t *nhits)
{
    tl_pview v;
    tl_hitlist list = {0};
    if (!buf || !nhits || (!hits && cap > 0)) return tl_fail(TL_ERR_NULL, "buf, nhits or hits (with cap > 0) is NULL");
    if (flags & ~TL_SCAN_BEST) return tl_fail(TL_ERR_UNSUPPORTED, "flags=0x%x: only TL_SCAN_BEST is defined", flags);
    TL_TRY(tl_pview_init(&v, d, len, true));
    tl_status s = tl_scan_list(&v, buf, first, count, t, flags, &list);
    tl_pview_free(&v);
    if (s != TL_OK) {
        free(list.items);
        return s;
    }
    return tl_hitlist_finish(&list, hits, cap, nhits);
}
