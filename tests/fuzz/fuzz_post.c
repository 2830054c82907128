/* Fuzz target: the post-processing scans against a brute-force reference.
 *
 * Input: one spec line, then a control byte, the channel range (two bytes,
 * taken modulo C + 2 so that empty and out-of-range ranges occur), the
 * threshold as the raw bits of a double (NaN and infinities included), a data
 * seed (8 bytes) and raw bytes that start the buffer (the rest comes from the
 * seed). Properties, for descriptors of at most FZ_BRUTE_MAX elements:
 *  - tl_scan returns the status the rules give (range, NaN, dtype) and, on
 *    success, exactly the hits of the reference that reads every element
 *    through tl_desc_offset_bits and compares tl_dequantize_value with t;
 *  - a hit buffer one entry short gives TL_ERR_BUFFER_SMALL, the count, and
 *    stays untouched;
 *  - tl_argmax and tl_topk (k = 1) succeed on every accepted code tensor and
 *    agree with the best-mode scan at t = -inf (best channel, ties lowest).
 */
#include <math.h>

#include "fuzz_common.h"

#define SPEC_CAP 1024

typedef struct post {
    tl_desc d;
    int dn, dc, dh, dw;
    int64_t N, C, H, W;
    uint8_t *buf;
    size_t len;
} post;

static int label_dim(const tl_desc *d, char c)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == c) return i;
    return -1;
}

static double ref_value(const post *p, int64_t n, int64_t c, int64_t h, int64_t w, int64_t *code)
{
    int64_t x[TL_MAX_DIMS] = {0};
    uint64_t bit = 0;
    if (p->dn >= 0) x[p->dn] = n;
    x[p->dc] = c;
    if (p->dh >= 0) x[p->dh] = h;
    if (p->dw >= 0) x[p->dw] = w;
    FZ_ASSERT(tl_desc_offset_bits(&p->d, x, &bit) == TL_OK, "offset of a valid coordinate failed");
    const uint8_t *b = p->buf + bit / 8;
    switch ((tl_dtype)p->d.dtype) {
    case TL_I8: *code = (int8_t)b[0]; break;
    case TL_U8: *code = b[0]; break;
    case TL_I16: *code = (int16_t)(b[0] | b[1] << 8); break;
    case TL_U16: *code = b[0] | b[1] << 8; break;
    case TL_U4: *code = (bit & 4) ? b[0] >> 4 : b[0] & 15; break;
    default: { int v = (bit & 4) ? b[0] >> 4 : b[0] & 15; *code = v > 7 ? v - 16 : v; }
    }
    return tl_dequantize_value(&p->d.quant, *code);
}

/* The reference count of hits; hits[] filled when not NULL. */
static size_t ref_scan(const post *p, int64_t first, int64_t count, double t, int best, tl_hit *hits)
{
    size_t k = 0;
    for (int64_t n = 0; n < p->N; n++)
        for (int64_t h = 0; h < p->H; h++)
            for (int64_t w = 0; w < p->W; w++) {
                int64_t bc = -1, bcode = 0, code;
                double bv = 0;
                for (int64_t c = first; c < first + count; c++) {
                    double v = ref_value(p, n, c, h, w, &code);
                    if (!(v >= t)) continue;
                    if (!best && hits) hits[k] = (tl_hit){n, h, w, (int32_t)c, (int32_t)code, v};
                    if (!best) k++;
                    else if (bc < 0 || v > bv) bc = c, bv = v, bcode = code;
                }
                if (best && bc >= 0) {
                    if (hits) hits[k] = (tl_hit){n, h, w, (int32_t)bc, (int32_t)bcode, bv};
                    k++;
                }
            }
    return k;
}

static int is_code(tl_dtype t)
{
    return t == TL_I8 || t == TL_U8 || t == TL_I16 || t == TL_U16 || t == TL_I4 || t == TL_U4;
}

static void check(post *p, int64_t first, int64_t count, double t, int best)
{
    size_t cap = (size_t)(p->N * p->H * p->W * (count > 0 ? count : 1)), n = 0;
    tl_hit *got = malloc(cap * sizeof *got), *want = malloc(cap * sizeof *want);
    FZ_ASSERT(got && want, "out of memory");
    tl_status s = tl_scan(&p->d, p->buf, p->len, first, count, t, best ? TL_SCAN_BEST : 0, got, cap, &n);
    int range_ok = count >= 1 && first >= 0 && first < p->C && count <= p->C - first;
    if (!is_code((tl_dtype)p->d.dtype)) {
        FZ_ASSERT(s != TL_OK, "tl_scan accepted dtype %s", tl_dtype_name((tl_dtype)p->d.dtype));
    } else if (!range_ok) {
        FZ_ASSERT(s == TL_ERR_COORD, "range [%lld,+%lld) of C=%lld gave %s", (long long)first, (long long)count,
                  (long long)p->C, tl_status_str(s));
    } else if (isnan(t)) {
        FZ_ASSERT(s == TL_ERR_QUANT, "a NaN threshold gave %s", tl_status_str(s));
    } else if (s == TL_OK) {
        size_t k = ref_scan(p, first, count, t, best, want);
        FZ_ASSERT(n == k, "%zu hits, the reference %zu", n, k);
        for (size_t i = 0; i < k; i++)
            FZ_ASSERT(got[i].n == want[i].n && got[i].h == want[i].h && got[i].w == want[i].w &&
                          got[i].c == want[i].c && got[i].code == want[i].code && got[i].value == want[i].value,
                      "hit %zu differs from the reference", i);
        if (k > 0) {
            tl_hit sentinel = {-7, -7, -7, -7, -7, -7.0};
            for (size_t i = 0; i < k; i++) got[i] = sentinel;
            size_t m = 0;
            s = tl_scan(&p->d, p->buf, p->len, first, count, t, best ? TL_SCAN_BEST : 0, got, k - 1, &m);
            FZ_ASSERT(s == TL_ERR_BUFFER_SMALL && m == k, "one short: %s, count %zu of %zu", tl_status_str(s), m, k);
            for (size_t i = 0; i < k; i++) FZ_ASSERT(got[i].n == -7, "a rejected scan wrote hit %zu", i);
        }
    } else {
        FZ_ASSERT(s == TL_ERR_QUANT || s == TL_ERR_LABEL || s == TL_ERR_RANK, "tl_scan: unexpected %s: %s",
                  tl_status_str(s), tl_last_error());
    }
    free(got), free(want);
}

/* argmax and top-1 are the best-mode scan at -inf over every channel. */
static void check_argmax(post *p)
{
    size_t cells = (size_t)(p->N * p->H * p->W), n = 0;
    int32_t *lab = malloc(cells * 4);
    tl_hit *best = malloc(cells * sizeof *best), *top = malloc(cells * sizeof *top);
    FZ_ASSERT(lab && best && top, "out of memory");
    tl_status s = tl_scan(&p->d, p->buf, p->len, 0, p->C, -INFINITY, TL_SCAN_BEST, best, cells, &n);
    if (s == TL_OK) {
        FZ_ASSERT(n == cells, "best-mode scan at -inf: %zu of %zu positions", n, cells);
        s = tl_argmax(&p->d, p->buf, p->len, TL_RESIZE_NONE, 0, 0, TL_LABEL_I32, lab, cells * 4);
        FZ_ASSERT(s == TL_OK, "tl_argmax: %s: %s", tl_status_str(s), tl_last_error());
        s = tl_topk(&p->d, p->buf, p->len, 1, 0, top, cells, &n);
        FZ_ASSERT(s == TL_OK && n == cells, "tl_topk k=1: %s", tl_status_str(s));
        for (size_t i = 0; i < cells; i++)
            FZ_ASSERT(lab[i] == best[i].c && top[i].c == best[i].c, "position %zu: argmax %d, top-1 %d, best %d", i,
                      (int)lab[i], (int)top[i].c, (int)best[i].c);
    }
    free(lab), free(best), free(top);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    char spec[SPEC_CAP];
    post p;
    fz_line(&in, spec, sizeof spec);
    if (tl_desc_parse(&p.d, spec) != TL_OK) return 0;
    if (p.d.size_bytes > FZ_BUFFER_MAX || fz_elements(&p.d) > FZ_BRUTE_MAX) return 0;
    p.dn = label_dim(&p.d, 'N'), p.dc = label_dim(&p.d, 'C'), p.dh = label_dim(&p.d, 'H'), p.dw = label_dim(&p.d, 'W');
    if (p.dc < 0) return 0; /* the reference reads labelled tensors only */
    for (int i = 0; i < p.d.rank; i++)
        if (i != p.dn && i != p.dc && i != p.dh && i != p.dw && p.d.dims[i] != 1) return 0;
    p.N = p.dn >= 0 ? p.d.dims[p.dn] : 1, p.C = p.d.dims[p.dc];
    p.H = p.dh >= 0 ? p.d.dims[p.dh] : 1, p.W = p.dw >= 0 ? p.d.dims[p.dw] : 1;
    uint8_t ctl = fz_u8(&in);
    int64_t first = (int64_t)fz_u8(&in) % (p.C + 2) - 1, count = (int64_t)fz_u8(&in) % (p.C + 2);
    uint64_t tb = fz_u64(&in), seed = fz_u64(&in);
    double t;
    memcpy(&t, &tb, sizeof t);
    if (ctl & 2) t = tl_dequantize_value(&p.d.quant, (int64_t)(tb % 256) - 128); /* on a code's value */
    p.len = (size_t)p.d.size_bytes;
    p.buf = malloc(p.len ? p.len : 1);
    FZ_ASSERT(p.buf, "out of memory");
    size_t k = in.n < p.len ? in.n : p.len;
    memcpy(p.buf, in.p, k);
    for (size_t i = k; i < p.len; i++) p.buf[i] = (uint8_t)fz_mix(&seed);
    check(&p, first, count, t, ctl & 1);
    if (is_code((tl_dtype)p.d.dtype)) check_argmax(&p);
    free(p.buf);
    return 0;
}
