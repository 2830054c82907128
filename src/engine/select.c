/* Choosing each pass's executor: normalise the pass for the byte executors,
 * then take the first applicable row of an ordered candidate list (oneDNN's
 * reorder implementation lists). Each list ends in an executor that always
 * applies, and a pass whose strides are not whole bytes goes to the generic
 * walker, so planning never fails for lack of a fast path. */
#include "engine/exec/exec.h"

/* Convert passes, fastest first. Specialised shapes before the general ones:
 * a rows executor's one call per image beats a call per row (and takes the
 * rows' padding from the fill pass, fuse_row_gaps); a SIMD repack beats a
 * word move per pixel; pixels beat a row call per pixel; 2d (a raw copy
 * folded into wider elements) beats rows of 2-8 bytes; interleave (fused
 * zero lanes) before 2d. */
static const tl_executor *const k_convert[] = {
    &tl_exec_repack_rows,   &tl_exec_repack,      &tl_exec_pixels_rows, &tl_exec_pixels, &tl_exec_interleave,
    &tl_exec_chroma_planes, &tl_exec_chroma_rows, &tl_exec_2d_rows,     &tl_exec_2d,     &tl_exec_row,
    &tl_exec_strided_copy,  &tl_exec_strided,
};

static const tl_executor *const k_fill[] = {&tl_exec_fill, &tl_exec_fill_strided};

static const tl_executor *first_applicable(const tl_executor *const *list, size_t n, const tl_plan *p,
                                           tl_pass *ps)
{
    for (size_t i = 0; i < n; i++)
        if (list[i]->applicable(p, ps)) return list[i];
    return &tl_exec_walk; /* not reached: each list ends in one that always applies */
}

/* The normalisation the byte executors rely on: byte strides, a lone
 * element called contiguous, and for the kernels' 2d shapes a source-
 * contiguous node just above the innermost one. */
static bool normalise_for_bytes(const tl_plan *p, tl_pass *ps, bool convert)
{
    int64_t es = tl_dtype_bits((tl_dtype)p->src.dtype) / 8, ed = tl_dtype_bits((tl_dtype)p->dst.dtype) / 8;
    if (ed == 0 || (convert && es == 0) || !tl_pass_to_bytes(ps, convert)) return false;
    tl_node *in = &ps->nodes[ps->nnodes - 1];
    if (in->count == 1) { /* a lone element: call it contiguous */
        in->ss = es;
        in->ds = ed;
    }
    if (convert && tl_exec_kernels_apply(p) && !tl_exec_inner_contiguous(p, ps) && in->ds == ed)
        tl_pass_bring_src_contiguous(ps, es);
    return true;
}

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The fill pass f zeroes exactly the bytes right after each row of the
 * rows executor's pass c (the row padding: kDLA_HWC4's rows to 32 bytes):
 * the same rows, one contiguous run each, starting where the row's run
 * (out->count * out->ds bytes) ends. */
static bool fills_row_gaps(const tl_plan *p, const tl_pass *c, const tl_pass *f)
{
    int n = c->nnodes;
    if (f->kind != TL_PASS_FILL || f->ex != &tl_exec_fill || f->nnodes != n - 1) return false;
    for (int i = 0; i < n - 2; i++)
        if (f->nodes[i].count != c->nodes[i].count || f->nodes[i].ds != c->nodes[i].ds) return false;
    const tl_node *out = &c->nodes[n - 2], *run = &f->nodes[n - 2];
    return run->ds == p->cv.ed && out->ds > 0 && f->dst_bit == c->dst_bit + out->count * out->ds &&
           run->count * run->ds <= c->nodes[n - 3].ds - out->count * out->ds;
}

/* A rows executor (tl_executor.gaps) writes its rows' padding itself when a
 * fill pass zeroes exactly that: each row's last line is then written once,
 * in one sweep, where the fill pass came back to it (from DRAM, in a
 * streaming plan). The fill pass goes; a 2-node executor with a rows form
 * (tl_executor.rows) is replaced by it, which runs its rows one at a time
 * where it has no kernel for them all (every ISA gets the one sweep). */
static void fuse_row_gaps(tl_plan *p)
{
    for (int i = 0; i < p->npasses; i++) {
        tl_pass *c = &p->passes[i];
        const tl_executor *ex = c->ex->gaps ? c->ex : c->nnodes >= 3 ? c->ex->rows : NULL;
        if (c->kind != TL_PASS_CONVERT || !ex) continue;
        for (int j = i + 1; j < p->npasses; j++) {
            if (!fills_row_gaps(p, c, &p->passes[j])) continue;
            const tl_node *run = &p->passes[j].nodes[c->nnodes - 2];
            c->ex = ex;
            c->gap = run->count * run->ds;
            memmove(&p->passes[j], &p->passes[j + 1], (size_t)(p->npasses - j - 1) * sizeof p->passes[0]);
            p->npasses--;
            break;
        }
    }
}

void tl_plan_choose_kernels(tl_plan *p)
{
    p->byte_granular = tl_dtype_bits((tl_dtype)p->dst.dtype) >= 8;
    for (int i = 0; i < p->npasses; i++) {
        tl_pass *ps = &p->passes[i];
        if (ps->kind == TL_PASS_ELEMENTS) continue; /* normalise.c chose the walker */
        bool convert = ps->kind == TL_PASS_CONVERT;
        if (!normalise_for_bytes(p, ps, convert)) {
            ps->ex = &tl_exec_walk;
            continue;
        }
        if (!convert) {
            ps->ex = first_applicable(k_fill, COUNT(k_fill), p, ps);
            continue;
        }
        if (tl_exec_kernels_apply(p) && p->cv.path != TL_EP_COPY) ps->row = tl_plan_row_kernel(p);
        ps->ex = first_applicable(k_convert, COUNT(k_convert), p, ps);
    }
    fuse_row_gaps(p);
}
