/* Running a pass: the outer nodes by an odometer, the innermost one or two by
 * the kernel the registry chose. A part of a run takes a slice of the
 * outermost node, so parts write disjoint destination elements. */
#include <string.h>

#include "engine.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#endif

#define TILE_BYTES 16384

/* n bytes from an L1 buffer to a destination larger than the cache: the
 * whole 64-byte lines inside with non-temporal stores (no read for
 * ownership: two memory transfers per byte instead of three), the partial
 * lines at the ends with plain stores. The caller fences (tl_pass_run). */
static void stream_out(uint8_t *d, const uint8_t *s, size_t n)
{
#if defined(__x86_64__) || defined(_M_X64)
    size_t head = (size_t)(-(uintptr_t)d & 63);
    if (head >= n) {
        memcpy(d, s, n);
        return;
    }
    memcpy(d, s, head);
    size_t i = head;
    for (; i + 64 <= n; i += 64)
        for (int k = 0; k < 64; k += 16)
            _mm_stream_si128((__m128i *)(d + i + k), _mm_loadu_si128((const __m128i *)(s + i + k)));
    memcpy(d + i, s + i, n - i);
#else
    memcpy(d, s, n); /* Arm: no non-temporal store worth the name (stnp is a hint) */
#endif
}

/* Slice [b, e) of the outermost node for part `part` of `nparts`. */
static void part_range(int64_t count, unsigned part, unsigned nparts, int64_t *b, int64_t *e)
{
    /* floor(count * part / nparts) without the product, which can pass 2^64:
     * count = q * nparts + r, and r * part < nparts^2 <= 2^64 */
    uint64_t q = (uint64_t)count / nparts, r = (uint64_t)count % nparts;
    *b = (int64_t)(q * part + r * part / nparts);
    *e = (int64_t)(q * ((uint64_t)part + 1) + r * ((uint64_t)part + 1) / nparts);
}

/* ---- the generic node walker (bit strides, the element rule) --------------------- */
static void walk_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      const tl_node *nodes, int64_t sbit, int64_t dbit)
{
    const tl_elem_op *op = &p->cv.op;
    unsigned db = tl_dtype_bits((tl_dtype)p->dst.dtype);
    bool fill = ps->kind == TL_PASS_FILL;
    int n = ps->nnodes;
    int64_t idx[TL_MAX_NODES] = {0};
    const tl_node *in = &nodes[n - 1];
    for (;;) {
        int64_t d = dbit, s = sbit;
        for (int64_t k = 0; k < ps->head; k++, d += db) tl_store_raw(dst, d, db, 0);
        for (int64_t k = 0; k < in->count; k++, d += in->ds, s += in->ss) {
            if (fill) tl_store_raw(dst, d, db, 0);
            else tl_elem_convert(op, src, s, dst, d);
        }
        if (in->count > 0) d = dbit + ps->head * db + in->count * db;
        for (int64_t k = 0; k < ps->tail; k++, d += db) tl_store_raw(dst, d, db, 0);
        int i = n - 2;
        for (; i >= 0; i--) {
            sbit += nodes[i].ss;
            dbit += nodes[i].ds;
            if (++idx[i] < nodes[i].count) break;
            sbit -= nodes[i].ss * nodes[i].count;
            dbit -= nodes[i].ds * nodes[i].count;
            idx[i] = 0;
        }
        if (i < 0) return;
    }
}

/* ---- the element walk of a region (fallback for irregular blockings) ------------- */
/* Bit offset in plane pl of d for logical coordinate x (plane-local padding). */
static int64_t plane_bits(const tl_desc *d, int plane, const int64_t *x, bool padded)
{
    const tl_plane *pl = &d->planes[plane];
    int64_t bits = pl->offset_bytes * 8;
    for (int a = 0; a < pl->naxes; a++) {
        const tl_axis *ax = &pl->axes[a];
        int i = ax->dim;
        int64_t p = padded ? x[i] : x[i] + d->pad_lo[i];
        if (d->nplanes > 1 && i == d->plane_dim) p -= padded ? 0 : pl->first;
        bits += ((p / ax->block) % ax->extent) * ax->stride_bits;
    }
    return bits;
}

/* The destination stores this position (subsampled planes keep one per block). */
static bool stored(const tl_desc *d, int plane, const int64_t *x, bool padded)
{
    const tl_plane *pl = &d->planes[plane];
    for (int a = 0; a < pl->naxes; a++) {
        const tl_axis *ax = &pl->axes[a];
        int i = ax->dim;
        int64_t minb = ax->block;
        for (int b = 0; b < pl->naxes; b++)
            if (pl->axes[b].dim == i && pl->axes[b].block < minb) minb = pl->axes[b].block;
        if (minb <= 1) continue;
        int64_t p = padded ? x[i] : x[i] + d->pad_lo[i];
        if (d->nplanes > 1 && i == d->plane_dim && !padded) p -= pl->first;
        if (p % minb) return false;
    }
    return true;
}

static void elements_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                          unsigned part, unsigned nparts)
{
    const tl_desc *sd = &p->src, *dd = &p->dst;
    bool fill = ps->exec == TL_EX_FILL;
    int rank = dd->rank;
    int64_t x[TL_MAX_DIMS], y[TL_MAX_DIMS], lo0, hi0;
    unsigned db = tl_dtype_bits((tl_dtype)dd->dtype);
    if (fill && part != 0) return;
    part_range(ps->hi[0] - ps->lo[0], fill ? 0 : part, fill ? 1 : nparts, &lo0, &hi0);
    if (lo0 >= hi0) return;
    for (int i = 0; i < rank; i++) x[i] = ps->lo[i];
    x[0] = ps->lo[0] + lo0;
    for (;;) {
        if (stored(dd, ps->dp, x, fill)) {
            int64_t dbit = plane_bits(dd, ps->dp, x, fill);
            if (fill) {
                tl_store_raw(dst, dbit, db, 0);
            } else {
                for (int i = 0; i < rank; i++) y[p->map[i]] = x[i];
                tl_elem_convert(&p->cv.op, src, plane_bits(sd, ps->sp, y, false), dst, dbit);
            }
        }
        int i = rank - 1;
        for (; i >= 0; i--) {
            if (++x[i] < (i == 0 ? ps->lo[0] + hi0 : ps->hi[i])) break;
            x[i] = i == 0 ? ps->lo[0] + lo0 : ps->lo[i];
        }
        if (i < 0) return;
    }
}

/* ---- byte-stride executors ------------------------------------------------------------- */
/* A contiguous destination range written in one step: in a streaming plan
 * the step writes an L1 tile instead (where_to), and flush streams the tile
 * out; otherwise the step writes the destination and flush does nothing. */
static uint8_t *where_to(const tl_cvt *cv, uint8_t *d, uint8_t *tile) { return cv->stream ? tile : d; }

static void flush(const tl_cvt *cv, uint8_t *d, const uint8_t *tile, size_t n)
{
    if (cv->stream) stream_out(d, tile, n);
}

/* Copy or convert n contiguous elements with plain stores (into an L1 tile,
 * or a destination that is not streamed). */
static void row_plain(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d, size_t n)
{
    if (cv->path == TL_EP_COPY) memcpy(d, s, n * cv->es);
    else ps->row->fn(s, d, n, cv);
}

/* The same into the destination, streamed when the plan streams. */
static void copy_or_convert_row(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d,
                                size_t n)
{
    /* long rows only: a short row's partial end lines, shared with the next
     * row and its zero padding, mix plain and non-temporal stores on one
     * line (a padded u8 copy with rows of 1214 bytes measured 5-10% slower
     * streamed; 4 KiB segments of dequantized planes faster) */
    if (cv->stream && n * cv->ed >= 4096) {
        if (cv->path == TL_EP_COPY) {
            stream_out(d, s, n * cv->es);
            return;
        }
        _Alignas(64) uint8_t buf[TILE_BYTES];
        size_t chunk = TILE_BYTES / cv->ed;
        for (size_t b = 0; b < n; b += chunk) {
            size_t m = n - b < chunk ? n - b : chunk;
            row_plain(ps, cv, s + b * cv->es, buf, m);
            stream_out(d + b * cv->ed, buf, m * cv->ed);
        }
        return;
    }
    row_plain(ps, cv, s, d, n);
}

/* Zero n bytes: the padding lanes of one row are short, so they get two to
 * four overlapping stores (no loop: compilers turn zeroing loops into
 * memset, whose start-up costs more than the row); long runs get memset. */
static inline void zero_bytes(uint8_t *d, size_t n)
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

static void zero(const tl_pass *ps, const tl_cvt *cv, uint8_t *d, int64_t n)
{
    (void)ps;
    if (n > 0) zero_bytes(d, (size_t)n * cv->ed);
}

static void run_row(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d, const tl_node *in)
{
    zero(ps, cv, d, ps->head);
    d += ps->head * cv->ed;
    copy_or_convert_row(ps, cv, s, d, (size_t)in->count);
    zero(ps, cv, d + in->count * cv->ed, ps->tail);
}

static void run_strided(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d,
                        const tl_node *in)
{
    zero(ps, cv, d, ps->head);
    uint8_t *d0 = d + ps->head * cv->ed;
    d = d0;
    for (int64_t k = 0; k < in->count; k++, s += in->ss, d += in->ds) {
        if (cv->path == TL_EP_COPY) memcpy(d, s, cv->es);
        else if (ps->row) ps->row->fn(s, d, 1, cv);
        else tl_elem_convert(&cv->op, s, 0, d, 0);
    }
    zero(ps, cv, d0 + in->count * cv->ed, ps->tail);
}

/* Raw elements at byte strides, two nodes per call: a fixed-size move per
 * element (a memcpy of a variable size is a libc call per byte). */
#define TL_COPY2D(E)                                                                            \
    static void copy2d_##E(const uint8_t *s, uint8_t *d, const tl_node *o, const tl_node *in)  \
    {                                                                                           \
        for (int64_t j = 0; j < o->count; j++, s += o->ss, d += o->ds) {                        \
            const uint8_t *sp = s;                                                              \
            uint8_t *dp = d;                                                                    \
            for (int64_t k = 0; k < in->count; k++, sp += in->ss, dp += in->ds) memcpy(dp, sp, E); \
        }                                                                                       \
    }
TL_COPY2D(1)
TL_COPY2D(2)
TL_COPY2D(4)
TL_COPY2D(8)

/* Each source element twice, side by side (4:2:0 chroma to full
 * resolution): one load, two stores, no inner loop. */
#define TL_DUP2D(E)                                                                            \
    static void dup2d_##E(const uint8_t *s, uint8_t *d, const tl_node *o)                      \
    {                                                                                          \
        for (int64_t j = 0; j < o->count; j++, s += o->ss, d += o->ds) {                       \
            uint8_t v[E];                                                                      \
            memcpy(v, s, E);                                                                   \
            memcpy(d, v, E);                                                                   \
            memcpy(d + E, v, E);                                                               \
        }                                                                                      \
    }
TL_DUP2D(1)
TL_DUP2D(2)
TL_DUP2D(4)
TL_DUP2D(8)

/* One chroma plane of an interleaved 4:2:0 pair (every other byte) to
 * full resolution, 4 samples per 64-bit word: keep the even bytes and
 * copy each into the odd byte above it. Little-endian only (the byte
 * order of the lanes); the last group of a row goes byte by byte, so no
 * read passes the row's last sample. */
static void dup_every_other_byte(const uint8_t *s, uint8_t *d, int64_t n)
{
    int64_t j = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; j + 4 < n; j += 4) {
        uint64_t v;
        memcpy(&v, s + 2 * j, 8);
        v &= 0x00FF00FF00FF00FFull;
        v |= v << 8;
        memcpy(d + 2 * j, &v, 8);
    }
#endif
    for (; j < n; j++) d[2 * j] = d[2 * j + 1] = s[2 * j];
}

static void run_copy2d(const tl_cvt *cv, const uint8_t *s, uint8_t *d, const tl_node *in, const tl_node *out)
{
    if (in->count == 2 && in->ss == 0 && in->ds == cv->es) {
        if (cv->es == 1 && out->ss == 2 && out->ds == 2) {
            dup_every_other_byte(s, d, out->count);
            return;
        }
        switch (cv->es) {
        case 1: dup2d_1(s, d, out); break;
        case 2: dup2d_2(s, d, out); break;
        case 4: dup2d_4(s, d, out); break;
        default: dup2d_8(s, d, out); break;
        }
        return;
    }
    switch (cv->es) {
    case 1: copy2d_1(s, d, out, in); break;
    case 2: copy2d_2(s, d, out, in); break;
    case 4: copy2d_4(s, d, out, in); break;
    default: copy2d_8(s, d, out, in); break;
    }
}

/* A 2-D tile through an L1 buffer when the dtypes differ: narrowing converts
 * source rows first and moves the narrow elements; widening moves the narrow
 * source elements first and converts destination rows. One pass over memory. */
static void t2d_tiles(const tl_pass *ps, const tl_cvt *cv, const uint8_t *src, uint8_t *dst,
                      const tl_node *in, const tl_node *out)
{
    const tl_t2d_kernel *k = (const tl_t2d_kernel *)ps->kernel;
    _Alignas(64) uint8_t tmp[TILE_BYTES], out_tile[TILE_BYTES]; /* out_tile: streaming plans */
    size_t n0 = (size_t)in->count, n1 = (size_t)out->count;
    /* the tile holds narrow elements only (the wide side is read or written
     * in place); long rows keep the row kernels' start-up small, and a
     * multiple of 64 elements keeps the move kernels' blocks whole */
    size_t narrow = cv->es < cv->ed ? cv->es : cv->ed, t0, t1;
    if (n0 <= 64) {
        t0 = n0;
        t1 = TILE_BYTES / (t0 * narrow);
        if (t1 > 64) t1 = t1 / 64 * 64;
    } else if (n1 <= 64) {
        t1 = n1;
        t0 = TILE_BYTES / (t1 * narrow);
        if (t0 > 64) t0 = t0 / 64 * 64;
    } else {
        t0 = t1 = 64;
    }
    for (size_t b1 = 0; b1 < n1; b1 += t1) {
        size_t m1 = n1 - b1 < t1 ? n1 - b1 : t1;
        for (size_t b0 = 0; b0 < n0; b0 += t0) {
            size_t m0 = n0 - b0 < t0 ? n0 - b0 : t0;
            const uint8_t *s = src + (ptrdiff_t)b0 * in->ss + b1 * cv->es;
            uint8_t *d = dst + (ptrdiff_t)b1 * out->ds + (b0 + ps->head) * cv->ed;
            /* a tile whose rows are adjacent on the converted side (pixels
             * of an NHWC image: rows of 3) converts in one call, not m rows */
            if (ps->convert_first) {
                if (in->ss == (ptrdiff_t)(m1 * cv->es))
                    ps->row->fn(s, tmp, m0 * m1, cv);
                else
                    for (size_t r = 0; r < m0; r++)
                        ps->row->fn(s + (ptrdiff_t)r * in->ss, tmp + r * m1 * cv->ed, m1, cv);
                if (cv->stream) { /* move into L1, then stream each row out */
                    size_t rb = m0 * cv->ed;
                    k->fn(tmp, (ptrdiff_t)(m1 * cv->ed), out_tile, (ptrdiff_t)rb, m0, m1);
                    if (out->ds == (ptrdiff_t)rb) stream_out(d, out_tile, m1 * rb);
                    else
                        for (size_t r = 0; r < m1; r++) stream_out(d + (ptrdiff_t)r * out->ds, out_tile + r * rb, rb);
                } else {
                    k->fn(tmp, (ptrdiff_t)(m1 * cv->ed), d, out->ds, m0, m1);
                }
            } else {
                k->fn(s, in->ss, tmp, (ptrdiff_t)(m0 * cv->es), m0, m1);
                if (out->ds == (ptrdiff_t)(m0 * cv->ed))
                    copy_or_convert_row(ps, cv, tmp, d, m0 * m1);
                else
                    for (size_t r = 0; r < m1; r++)
                        copy_or_convert_row(ps, cv, tmp + r * m0 * cv->es, d + (ptrdiff_t)r * out->ds, m0);
            }
        }
    }
}

/* De-interleave and unpack kernels take exactly their n1. */
static bool fixed_n1(const tl_t2d_kernel *k)
{
    return k->shape == TL_T2D_DILV || k->shape == TL_T2D_UNPACK;
}

/* A raw-copy transpose with fused zero lanes, whole destination rows at a
 * time: chunks of source columns go to an L1 tile of head + count + tail
 * rows whose head and tail rows stay zero, and the move kernel transposes
 * the whole tile. One copy of the source in L1 instead of a short row and
 * a zero store per destination row. */
static void run_t2d_lanes(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d, const tl_node *in,
                          const tl_node *out)
{
    _Alignas(64) uint8_t tmp[TILE_BYTES], out_tile[TILE_BYTES]; /* the tile holds lanes x t1 elements */
    size_t es = cv->es, lanes = (size_t)(ps->head + in->count + ps->tail), n1 = (size_t)out->count;
    size_t t1 = TILE_BYTES / (lanes * es) / 64 * 64, rs = t1 * es;
    memset(tmp, 0, (size_t)ps->head * rs);
    memset(tmp + (size_t)(ps->head + in->count) * rs, 0, (size_t)ps->tail * rs);
    for (size_t b1 = 0; b1 < n1; b1 += t1) {
        size_t m1 = n1 - b1 < t1 ? n1 - b1 : t1;
        for (int64_t r = 0; r < in->count; r++)
            memcpy(tmp + (size_t)(ps->head + r) * rs, s + r * in->ss + b1 * es, m1 * es);
        uint8_t *db = d + (ptrdiff_t)b1 * out->ds;
        if (cv->stream && out->ds == (ptrdiff_t)(lanes * es)) { /* whole pixels: one range */
            ps->lanes_kernel->fn(tmp, (ptrdiff_t)rs, out_tile, (ptrdiff_t)(lanes * es), lanes, m1);
            stream_out(db, out_tile, m1 * lanes * es);
        } else {
            ps->lanes_kernel->fn(tmp, (ptrdiff_t)rs, db, out->ds, lanes, m1);
        }
    }
}

static void run_t2d(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d,
                    const tl_node *in, const tl_node *out)
{
    const tl_t2d_kernel *k = (const tl_t2d_kernel *)ps->kernel;
    if (ps->lanes_kernel) { /* (head + count + tail) * es <= 256: a tile of >= 64 columns */
        run_t2d_lanes(ps, cv, s, d, in, out);
        return;
    }
    if (!ps->head && !ps->tail) {
        if (cv->path == TL_EP_COPY) k->fn(s, in->ss, d, out->ds, (size_t)in->count, (size_t)out->count);
        else t2d_tiles(ps, cv, s, d, in, out);
        return;
    }
    /* fused padding: rows in chunks, each chunk's padding written while its
     * lines are still in cache (one pass over the destination, not two) */
    tl_node part = *out;
    int64_t chunk = fixed_n1(k) ? out->count : 64;
    for (int64_t r0 = 0; r0 < out->count; r0 += chunk) {
        part.count = out->count - r0 < chunk ? out->count - r0 : chunk;
        const uint8_t *sr = s + r0 * cv->es;
        uint8_t *dr = d + r0 * out->ds;
        if (cv->path == TL_EP_COPY) k->fn(sr, in->ss, dr + ps->head * cv->ed, out->ds, (size_t)in->count, (size_t)part.count);
        else t2d_tiles(ps, cv, sr, dr, in, &part);
        for (int64_t r = 0; r < part.count; r++) {
            uint8_t *row = dr + r * out->ds;
            zero(ps, cv, row, ps->head);
            zero(ps, cv, row + (ps->head + in->count) * cv->ed, ps->tail);
        }
    }
}

/* Interleave with zero lanes: the fused padding of a channel-last destination. */
static void run_ilv(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d,
                    const tl_node *in, const tl_node *out)
{
    const tl_ilv_kernel *k = (const tl_ilv_kernel *)ps->kernel;
    const uint8_t *planes[4] = {NULL, NULL, NULL, NULL};
    size_t n = (size_t)out->count;
    if (cv->path == TL_EP_COPY) {
        for (int64_t c = 0; c < in->count; c++) planes[ps->head + c] = s + c * in->ss;
        k->fn(planes, d, n);
        return;
    }
    _Alignas(64) uint8_t tmp[TILE_BYTES], out_tile[TILE_BYTES]; /* out_tile: streaming plans */
    size_t chunk = TILE_BYTES / (4 * cv->ed);
    for (size_t b = 0; b < n; b += chunk) {
        size_t m = n - b < chunk ? n - b : chunk;
        for (int64_t c = 0; c < in->count; c++) {
            uint8_t *t = tmp + (size_t)c * chunk * cv->ed;
            ps->row->fn(s + c * in->ss + b * cv->es, t, m, cv);
            planes[ps->head + c] = t;
        }
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        k->fn(planes, where_to(cv, db, out_tile), m); /* out->ds is the pixel: one range */
        flush(cv, db, out_tile, m * (size_t)out->ds);
    }
}

/* Channel re-pack (RGB -> RGB0); with a conversion, pixels are converted
 * into an L1 buffer first (only real channels: the zero lanes stay zero bits). */
static void run_repack(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d,
                       const tl_node *in, const tl_node *out)
{
    const tl_repack_kernel *k = (const tl_repack_kernel *)ps->kernel;
    size_t n = (size_t)out->count;
    if (cv->path == TL_EP_COPY) {
        k->fn(s, d, n);
        return;
    }
    /* u8 <-> i8 saturation: re-pack straight into the destination, then
     * convert it in place (a row kernel of equal element sizes may, and a
     * zero lane stays zero). Through the L1 buffer, the re-pack's unaligned
     * loads of bytes just stored by the conversion cannot be forwarded from
     * the store buffer and wait for it to drain (measured: 0.30x memcpy). */
    if (cv->path == TL_EP_INT && cv->es == 1 && cv->ed == 1) {
        /* in chunks that stay in L1 between the two steps (an image at once
         * would take the destination through DRAM three times) */
        size_t lanes = (size_t)(ps->head + in->count + ps->tail), chunk = TILE_BYTES / lanes;
        _Alignas(64) uint8_t tmp[TILE_BYTES];
        for (size_t b = 0; b < n; b += chunk) {
            size_t m = n - b < chunk ? n - b : chunk;
            uint8_t *db = d + (ptrdiff_t)b * out->ds, *t = where_to(cv, db, tmp);
            k->fn(s + b * (size_t)in->count, t, m);
            ps->row->fn(t, t, m * lanes, cv);
            flush(cv, db, t, m * lanes);
        }
        return;
    }
    _Alignas(64) uint8_t tmp[TILE_BYTES], out_tile[TILE_BYTES]; /* out_tile: streaming plans */
    size_t chunk = TILE_BYTES / (size_t)out->ds; /* whole output pixels fit a tile */
    for (size_t b = 0; b < n; b += chunk) {
        size_t m = n - b < chunk ? n - b : chunk;
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        ps->row->fn(s + b * (size_t)in->count * cv->es, tmp, m * (size_t)in->count, cv);
        k->fn(tmp, where_to(cv, db, out_tile), m);
        flush(cv, db, out_tile, m * (size_t)out->ds);
    }
}

/* ---- short runs at a pixel stride (TL_EX_SPREAD) ------------------------------------ */
/* W-byte moves with a constant W, so each pixel is one to eight word loads
 * and stores. Spreading masks the words (the zero lanes come from the mask,
 * not from extra stores); gathering lets each move spill into the next
 * pixel's place, which that pixel overwrites. */
#define TL_PX_MOVES(W)                                                                                \
    static void spread_##W(const uint8_t *t, size_t rd, uint8_t *d, ptrdiff_t ds, size_t m,            \
                           const uint8_t *mask)                                                       \
    {                                                                                                 \
        uint64_t mw[(W + 7) / 8];                                                                     \
        memcpy(mw, mask, W);                                                                          \
        for (size_t i = 0; i < m; i++, t += rd, d += ds)                                              \
            for (size_t w = 0; w < W; w += sizeof(uint64_t) < W ? 8 : W) {                            \
                uint64_t v = 0;                                                                       \
                memcpy(&v, t + w, W < 8 ? W : 8);                                                     \
                v &= mw[w / 8];                                                                       \
                memcpy(d + w, &v, W < 8 ? W : 8);                                                     \
            }                                                                                         \
    }                                                                                                 \
    static void gather_##W(const uint8_t *s, ptrdiff_t ss, uint8_t *t, size_t rs, size_t m)          \
    {                                                                                                 \
        for (size_t i = 0; i < m; i++, s += ss, t += rs) memcpy(t, s, W);                             \
    }
TL_PX_MOVES(4)
TL_PX_MOVES(8)
TL_PX_MOVES(16)
TL_PX_MOVES(32)
TL_PX_MOVES(64)

static void spread_px(unsigned w, const uint8_t *t, size_t rd, uint8_t *d, ptrdiff_t ds, size_t m,
                      const uint8_t *mask)
{
    switch (w) {
    case 4: spread_4(t, rd, d, ds, m, mask); break;
    case 8: spread_8(t, rd, d, ds, m, mask); break;
    case 16: spread_16(t, rd, d, ds, m, mask); break;
    case 32: spread_32(t, rd, d, ds, m, mask); break;
    default: spread_64(t, rd, d, ds, m, mask); break;
    }
}

static void gather_px(unsigned w, const uint8_t *s, ptrdiff_t ss, uint8_t *t, size_t rs, size_t m)
{
    switch (w) {
    case 4: gather_4(s, ss, t, rs, m); break;
    case 8: gather_8(s, ss, t, rs, m); break;
    case 16: gather_16(s, ss, t, rs, m); break;
    case 32: gather_32(s, ss, t, rs, m); break;
    default: gather_64(s, ss, t, rs, m); break;
    }
}

/* Dense source pixels of k elements -> destination pixels of px_bytes at
 * stride out->ds: head zeros, the k converted elements, tail zeros. The
 * tile is read px_bytes at a time from `head` bytes before each pixel's
 * run, so it has a zeroed margin of 64 bytes on both sides. */
static void run_spread(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d, const tl_node *in,
                       const tl_node *out)
{
    _Alignas(64) uint8_t buf[64 + TILE_BYTES + 64], mask[64];
    uint8_t *t = buf + 64;
    _Alignas(64) uint8_t out_tile[TILE_BYTES]; /* streaming plans */
    size_t k = (size_t)in->count, rd = k * cv->ed, h = (size_t)ps->head * cv->ed, n = (size_t)out->count;
    size_t chunk = TILE_BYTES / (cv->stream ? (size_t)out->ds : rd);
    memset(buf, 0, 64);
    memset(mask, 0, sizeof mask);
    memset(mask + h, 0xFF, rd);
    for (size_t b = 0; b < n; b += chunk) {
        size_t m = n - b < chunk ? n - b : chunk;
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        row_plain(ps, cv, s + b * k * cv->es, t, m * k);
        memset(t + m * rd, 0, 64);
        spread_px(ps->px_bytes, t - h, rd, where_to(cv, db, out_tile), out->ds, m, mask);
        flush(cv, db, out_tile, m * (size_t)out->ds);
    }
}

/* Source pixels at stride out->ss -> a dense destination: runs gathered
 * into the tile px_bytes at a time (within the pixel's stride), the last
 * pixel exactly (its stride may end past the buffer), then one row step. */
static void run_gather(const tl_pass *ps, const tl_cvt *cv, const uint8_t *s, uint8_t *d, const tl_node *in,
                       const tl_node *out)
{
    _Alignas(64) uint8_t t[TILE_BYTES + 64];
    size_t k = (size_t)in->count, rs = k * cv->es, n = (size_t)out->count;
    size_t chunk = TILE_BYTES / (rs > k * cv->ed ? rs : k * cv->ed); /* (the last step may stream) */
    for (size_t b = 0; b < n; b += chunk) {
        size_t m = n - b < chunk ? n - b : chunk;
        const uint8_t *sb = s + (ptrdiff_t)b * out->ss;
        size_t fast = b + m == n ? m - 1 : m;
        gather_px(ps->px_bytes, sb, out->ss, t, rs, fast);
        if (fast < m) memcpy(t + fast * rs, sb + (ptrdiff_t)fast * out->ss, rs);
        copy_or_convert_row(ps, cv, t, d + b * k * cv->ed, m * k);
    }
}

static void run_inner(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d,
                      const tl_node *nodes, int n)
{
    const tl_cvt *cv = &p->cv;
    const tl_node *in = &nodes[n - 1], *out = n >= 2 ? &nodes[n - 2] : NULL;
    switch ((tl_exec)ps->exec) {
    case TL_EX_ROW: run_row(ps, cv, s, d, in); break;
    case TL_EX_T2D: run_t2d(ps, cv, s, d, in, out); break;
    case TL_EX_ILV: run_ilv(ps, cv, s, d, in, out); break;
    case TL_EX_REPACK: run_repack(ps, cv, s, d, in, out); break;
    case TL_EX_COPY2D: run_copy2d(cv, s, d, in, out); break;
    case TL_EX_SPREAD:
        if (ps->px_gather) run_gather(ps, cv, s, d, in, out);
        else run_spread(ps, cv, s, d, in, out);
        break;
    case TL_EX_FILL:
        ((const tl_fill_kernel *)ps->kernel)->fn(d, (size_t)(in->count * cv->ed), cv->stream);
        break;
    case TL_EX_FILL_STRIDED:
        for (int64_t k = 0; k < in->count; k++) memset(d + k * in->ds, 0, cv->ed);
        break;
    default: run_strided(ps, cv, s, d, in); break;
    }
}

static int kernel_nodes(const tl_pass *ps)
{
    switch ((tl_exec)ps->exec) {
    case TL_EX_T2D:
    case TL_EX_ILV:
    case TL_EX_REPACK:
    case TL_EX_COPY2D:
    case TL_EX_SPREAD: return 2;
    default: return 1;
    }
}

static void byte_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      const tl_node *nodes)
{
    int n = ps->nnodes, k = kernel_nodes(ps), outer = n - k;
    int64_t idx[TL_MAX_NODES] = {0};
    const uint8_t *s = src + ps->src_bit;
    uint8_t *d = dst + ps->dst_bit;
    for (;;) {
        run_inner(p, ps, s, d, nodes + outer, k);
        int i = outer - 1;
        for (; i >= 0; i--) {
            s += nodes[i].ss;
            d += nodes[i].ds;
            if (++idx[i] < nodes[i].count) break;
            s -= nodes[i].ss * nodes[i].count;
            d -= nodes[i].ds * nodes[i].count;
            idx[i] = 0;
        }
        if (i < 0) return;
    }
}

/* The kernel's shape fixes its outer count (de-interleave, unpack): slicing
 * the outermost node would hand it a count it was not chosen for. */
static bool fixed_outer(const tl_pass *ps)
{
    if (ps->exec != TL_EX_T2D || !ps->kernel) return false;
    int shape = ((const tl_t2d_kernel *)ps->kernel)->shape;
    return shape == TL_T2D_DILV || shape == TL_T2D_UNPACK;
}

void tl_pass_run(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                 unsigned part, unsigned nparts)
{
    if (ps->kind == TL_PASS_ELEMENTS) {
        if (!p->byte_granular && part != 0) return;
        elements_pass(p, ps, src, dst, p->byte_granular ? part : 0, p->byte_granular ? nparts : 1);
        return;
    }
    /* The outermost node is sliced, unless it carries a fused fill (its
     * head belongs to the whole run) or elements share bytes (4-bit). */
    tl_node nodes[TL_MAX_NODES];
    memcpy(nodes, ps->nodes, (size_t)ps->nnodes * sizeof nodes[0]);
    int64_t b = 0, e = nodes[0].count;
    bool sliceable = p->byte_granular && !(ps->nnodes == 1 && (ps->head || ps->tail)) &&
                     !(ps->nnodes == 2 && fixed_outer(ps));
    if (nparts > 1) {
        if (sliceable) part_range(nodes[0].count, part, nparts, &b, &e);
        else if (part != 0) return;
    }
    if (b >= e) return;
    nodes[0].count = e - b;
    if (ps->exec == TL_EX_WALK) {
        walk_pass(p, ps, src, dst, nodes, ps->src_bit + b * nodes[0].ss, ps->dst_bit + b * nodes[0].ds);
        return;
    }
    byte_pass(p, ps, src + b * nodes[0].ss, dst + b * nodes[0].ds, nodes);
#if defined(__x86_64__) || defined(_M_X64)
    if (p->cv.stream) _mm_sfence(); /* order the non-temporal stores before returning */
#endif
}
