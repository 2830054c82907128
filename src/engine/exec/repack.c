/* repack: channel padding of packed pixels (RGB to RGB0) by the interleave
 * family's repack kernels, where a SIMD one exists; a conversion runs in
 * place (u8 <-> i8) or through L1. */
#include "engine/exec/exec.h"

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
        size_t lanes = (size_t)(ps->head + in->count + ps->tail), chunk = TL_TILE_BYTES / lanes;
        _Alignas(64) uint8_t tmp[TL_TILE_BYTES];
        for (size_t b = 0; b < n; b += chunk) {
            size_t m = n - b < chunk ? n - b : chunk;
            uint8_t *db = d + (ptrdiff_t)b * out->ds, *t = tl_where_to(p, db, tmp);
            k->fn(s + b * (size_t)in->count, t, m);
            ps->row->fn(t, t, m * lanes, cv);
            tl_flush(p, db, t, m * lanes);
        }
        return;
    }
    _Alignas(64) uint8_t tmp[TL_TILE_BYTES], out_tile[TL_TILE_BYTES]; /* out_tile: streaming plans */
    size_t chunk = TL_TILE_BYTES / (size_t)out->ds; /* whole output pixels fit a tile */
    for (size_t b = 0; b < n; b += chunk) {
        size_t m = n - b < chunk ? n - b : chunk;
        uint8_t *db = d + (ptrdiff_t)b * out->ds;
        ps->row->fn(s + b * (size_t)in->count * cv->es, tmp, m * (size_t)in->count, cv);
        k->fn(tmp, tl_where_to(p, db, out_tile), m);
        tl_flush(p, db, out_tile, m * (size_t)out->ds);
    }
}

const tl_executor tl_exec_repack = {"repack", 2, applicable, run};
