/* repack: channel padding of packed pixels (RGB to RGB0) by the interleave
 * family's repack kernels, where a SIMD one exists; a conversion runs
 * through L1 (never on the destination: it is only stored to). */
#include "engine/exec/exec.h"

#if defined(__x86_64__) || defined(_M_X64)
void tl_x8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_u8_i8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_i8_u8_repack3_0_1_ukernel__avx512(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_x8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_u8_i8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_i8_u8_repack3_0_1_ukernel__avx2(const uint8_t *src, uint8_t *dst, size_t n, int nt);
/* The re-packs that saturate u8 <-> i8 in the register (interleave/avx512.c,
 * avx2.c): one step, no L1 round trip; by the raw re-pack they stand for. */
static const struct {
    tl_repack_fn base;
    tl_repack_kernel sat[2]; /* u8 -> i8, i8 -> u8 */
} k_saturating[] = {
    {tl_x8_repack3_0_1_ukernel__avx512,
     {{"tl_u8_i8_repack3_0_1_ukernel__avx512", TL_ISA_AVX512, 1, 3, 0, 1, tl_u8_i8_repack3_0_1_ukernel__avx512},
      {"tl_i8_u8_repack3_0_1_ukernel__avx512", TL_ISA_AVX512, 1, 3, 0, 1, tl_i8_u8_repack3_0_1_ukernel__avx512}}},
    {tl_x8_repack3_0_1_ukernel__avx2,
     {{"tl_u8_i8_repack3_0_1_ukernel__avx2", TL_ISA_AVX2, 1, 3, 0, 1, tl_u8_i8_repack3_0_1_ukernel__avx2},
      {"tl_i8_u8_repack3_0_1_ukernel__avx2", TL_ISA_AVX2, 1, 3, 0, 1, tl_i8_u8_repack3_0_1_ukernel__avx2}}},
};
/* The same over an image's rows (tl_px_rows), each row's gap zeroed. */
typedef void (*repack_rows_fn)(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, int nt);
void tl_x8_repack3_0_1_rows_ukernel__avx512(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, int nt);
void tl_u8_i8_repack3_0_1_rows_ukernel__avx512(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, int nt);
void tl_i8_u8_repack3_0_1_rows_ukernel__avx512(const uint8_t *src, uint8_t *dst, const tl_px_rows *g, int nt);
static const struct {
    tl_repack_fn fn;
    repack_rows_fn rows;
    const char *name;
} k_rows[] = {
    {tl_x8_repack3_0_1_ukernel__avx512, tl_x8_repack3_0_1_rows_ukernel__avx512, "tl_x8_repack3_0_1_rows_ukernel__avx512"},
    {tl_u8_i8_repack3_0_1_ukernel__avx512, tl_u8_i8_repack3_0_1_rows_ukernel__avx512,
     "tl_u8_i8_repack3_0_1_rows_ukernel__avx512"},
    {tl_i8_u8_repack3_0_1_ukernel__avx512, tl_i8_u8_repack3_0_1_rows_ukernel__avx512,
     "tl_i8_u8_repack3_0_1_rows_ukernel__avx512"},
};
#endif

#if defined(__ARM_NEON) && !defined(__x86_64__)
void tl_x8_repack3_0_1_ukernel__neon(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_u8_i8_repack3_0_1_ukernel__neon(const uint8_t *src, uint8_t *dst, size_t n, int nt);
void tl_i8_u8_repack3_0_1_ukernel__neon(const uint8_t *src, uint8_t *dst, size_t n, int nt);
/* (interleave/neon.c: the byte minimum or maximum between vld3 and vst4) */
static const struct {
    tl_repack_fn base;
    tl_repack_kernel sat[2];
} k_saturating[] = {
    {tl_x8_repack3_0_1_ukernel__neon,
     {{"tl_u8_i8_repack3_0_1_ukernel__neon", TL_ISA_NEON, 1, 3, 0, 1, tl_u8_i8_repack3_0_1_ukernel__neon},
      {"tl_i8_u8_repack3_0_1_ukernel__neon", TL_ISA_NEON, 1, 3, 0, 1, tl_i8_u8_repack3_0_1_ukernel__neon}}},
};
#endif
#if defined(__ARM_NEON) || defined(__x86_64__) || defined(_M_X64)
#define TL_HAVE_SATURATING 1
#endif

/* The re-pack with its u8 <-> i8 saturation in one kernel, if there is one. */
static const tl_repack_kernel *saturating(const tl_cvt *cv, const tl_repack_kernel *k)
{
#ifdef TL_HAVE_SATURATING
    if (cv->path == TL_EP_INT && cv->es == 1 && cv->ed == 1)
        for (size_t i = 0; i < sizeof k_saturating / sizeof k_saturating[0]; i++)
            if (k->fn == k_saturating[i].base) return &k_saturating[i].sat[cv->sdt == TL_U8 ? 0 : 1];
#endif
    (void)cv;
    return k;
}

/* The kernel does the whole conversion: a raw copy, or a saturating re-pack. */
static bool one_step(const tl_cvt *cv, const tl_repack_kernel *k)
{
#ifdef TL_HAVE_SATURATING
    for (size_t i = 0; i < sizeof k_saturating / sizeof k_saturating[0]; i++)
        if (k == &k_saturating[i].sat[0] || k == &k_saturating[i].sat[1]) return true;
#else
    (void)k;
#endif
    return cv->path == TL_EP_COPY;
}

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    const tl_cvt *cv = &p->cv;
    if (!tl_exec_kernels_apply(p) || !tl_exec_inner_contiguous(p, ps)) return false;
    if (!(ps->head || ps->tail) || ps->nnodes < 2 || !(cv->path == TL_EP_COPY || ps->row)) return false;
    const tl_node *in = &ps->nodes[ps->nnodes - 1], *out = &ps->nodes[ps->nnodes - 2];
    int64_t lanes = ps->head + in->count + ps->tail;
    const tl_repack_kernel *k =
        tl_find_repack(p->isa, cv->ed, (unsigned)in->count, (unsigned)ps->head, (unsigned)ps->tail);
    if (!k || k->isa == TL_ISA_SCALAR || out->ss != in->count * cv->es || out->ds != lanes * cv->ed) return false;
    /* RGB u8 into kDLA_HWC4 f16 on NEON: the pixels executor converts in the
     * register (tl_u8_f16_spread4_rows_ukernel__neon, __neonfp16), one pass
     * instead of a row conversion into an L1 tile and this re-pack */
    if (tl_exec_neon_f16(p) && cv->sdt == TL_U8 && cv->ddt == TL_F16 && cv->fast && in->count == 3 && lanes == 4 &&
        !ps->head)
        return false;
    k = saturating(cv, k);
    if (one_step(cv, k)) ps->row = NULL; /* no row conversion runs (tl_plan_describe) */
    ps->x.repack = k;
    ps->kernel_name = k->name;
    return true;
}

/* Channel re-pack (RGB -> RGB0); with a conversion, pixels are converted
 * into an L1 buffer first (only real channels: the zero lanes stay zero bits). */
static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d,
                       const tl_node *in, const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    const tl_repack_kernel *k = ps->x.repack;
    size_t n = (size_t)out->count;
    _Alignas(64) uint8_t tmp[TL_TILE_BYTES];
    _Alignas(TL_STAGE_ALIGN) uint8_t out_tile[TL_TILE_BYTES]; /* streaming plans */
    if (one_step(cv, k)) {
        /* the AVX-512 and AVX2 re-packs stream their whole steps themselves
         * into a destination that starts on a line (no L1 tile and copy:
         * NHWC u8 -> kDLA_HWC4 i8, 256 MiB, 24 -> 34 GB/s; AVX2, 5 x 3739
         * x 3739, Zen 5, one plan against a streaming copy: 0.59-0.61 -> 0.71-0.73) */
        if (!cv->stream || ((k->isa == TL_ISA_AVX512 || k->isa == TL_ISA_AVX2) && (uintptr_t)d % 64 == 0)) {
            k->fn(s, d, n, cv->stream);
            return;
        }
        tl_stage st = tl_stage_of(p, d, (size_t)out->ds);
        for (size_t b = 0, m; b < n; b += m) {
            m = tl_stage_step(&st, n - b);
            uint8_t *db = d + (ptrdiff_t)b * out->ds;
            k->fn(s + b * (size_t)in->count * cv->es, out_tile, m, 0);
            tl_flush(p, db, out_tile, m * (size_t)out->ds);
        }
        return;
    }
    /* u8 <-> i8 saturation works byte by byte and keeps a zero lane zero, so
     * the re-pack goes first, into L1, and the conversion writes the
     * destination from there: the destination is only ever stored to (an
     * uncached or write-combined dma-buf, where a load is a DRAM round trip).
     * The conversion reloads whole vectors at the addresses the re-pack
     * stored them, which the store buffer forwards; the other order (convert
     * into L1, re-pack from it) reloads 48-byte steps across stored vectors
     * and waits for the store buffer to drain (measured: 0.30x memcpy). */
    if (cv->path == TL_EP_INT && cv->es == 1 && cv->ed == 1) {
        size_t lanes = (size_t)out->ds;
        tl_stage st = tl_stage_of(p, d, lanes);
        for (size_t b = 0, m; b < n; b += m) {
            m = tl_stage_step(&st, n - b);
            uint8_t *db = d + (ptrdiff_t)b * out->ds;
            k->fn(s + b * (size_t)in->count, tmp, m, 0);
            ps->row->fn(tmp, 0, tl_where_to(p, db, out_tile), 0, 1, m * lanes, cv);
            tl_flush(p, db, out_tile, m * lanes);
        }
        return;
    }
    tl_stage st = tl_stage_of(p, d, (size_t)out->ds); /* whole output pixels fit a tile */
    for (size_t b = 0, m; b < n; b += m) {
        m = tl_stage_step(&st, n - b);
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        ps->row->fn(s + b * (size_t)in->count * cv->es, 0, tmp, 0, 1, m * (size_t)in->count, cv);
        k->fn(tmp, tl_where_to(p, db, out_tile), m, 0);
        tl_flush(p, db, out_tile, m * (size_t)out->ds);
    }
}

const tl_executor tl_exec_repack = {"repack", 2, applicable, run, false, &tl_exec_repack_rows};

/* repack rows: a one-step re-pack (AVX-512) of an image's rows in one call,
 * the node above the pixels being the rows, and the row padding after each
 * row's pixels (ps->gap, taken from the fill pass by select.c) zeroed by the
 * same stores. A call per row and a fill pass over the rows' ends cost half
 * the time of NHWC u8 -> kDLA_HWC4 i8 at 296 x 295 (Zen 5). */
#if defined(__x86_64__) || defined(_M_X64)
static int rows_kernel(const tl_repack_kernel *k)
{
    for (int i = 0; i < (int)(sizeof k_rows / sizeof k_rows[0]); i++)
        if (k_rows[i].fn == k->fn) return i;
    return -1;
}
#endif

static bool applicable_rows(const tl_plan *p, tl_pass *ps)
{
#if defined(__x86_64__) || defined(_M_X64)
    tl_pass was = *ps;
    if (ps->nnodes >= 3 && applicable(p, ps) && one_step(&p->cv, ps->x.repack) && rows_kernel(ps->x.repack) >= 0) {
        ps->kernel_name = k_rows[rows_kernel(ps->x.repack)].name;
        return true;
    }
    *ps = was;
#else
    (void)p, (void)ps;
#endif
    return false;
}

static void run_rows(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                     const tl_node *out)
{
    tl_px_rows g;
#if defined(__x86_64__) || defined(_M_X64)
    int k = one_step(&p->cv, ps->x.repack) ? rows_kernel(ps->x.repack) : -1;
    if (tl_rows_geometry(p, ps, s, d, in, out, run, k >= 0, &g)) k_rows[k].rows(s, d, &g, tl_exec_streams_rows(p));
#else
    tl_rows_geometry(p, ps, s, d, in, out, run, false, &g);
#endif
}

const tl_executor tl_exec_repack_rows = {"repack rows", 3, applicable_rows, run_rows, true, NULL};
