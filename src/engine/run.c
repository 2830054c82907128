/* Running a pass: the outer nodes by an odometer, the innermost one or two by
 * the pass's executor (exec/). A part of a run takes a slice of the
 * outermost node, so parts write disjoint destination elements. */
#include "engine/exec/exec.h"

static void byte_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      const tl_node *nodes)
{
    int n = ps->nnodes, k = ps->ex->nodes, outer = n - k;
    int64_t idx[TL_MAX_NODES] = {0};
    const uint8_t *s = src + ps->src_bit;
    uint8_t *d = dst + ps->dst_bit;
    const tl_node *in = &nodes[n - 1], *out = k == 2 ? &nodes[n - 2] : NULL;
    for (;;) {
        ps->ex->run(p, ps, s, d, in, out);
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
    if (ps->ex != &tl_exec_2d) return false;
    int shape = ps->x.t2d.k->shape;
    return shape == TL_T2D_DILV || shape == TL_T2D_UNPACK;
}

void tl_pass_run(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                 unsigned part, unsigned nparts)
{
    if (ps->kind == TL_PASS_ELEMENTS) {
        if (!p->byte_granular && part != 0) return;
        tl_elements_pass(p, ps, src, dst, p->byte_granular ? part : 0, p->byte_granular ? nparts : 1);
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
        if (sliceable) tl_part_range(nodes[0].count, part, nparts, &b, &e);
        else if (part != 0) return;
    }
    if (b >= e) return;
    nodes[0].count = e - b;
    if (ps->ex == &tl_exec_walk) {
        tl_walk_pass(p, ps, src, dst, nodes, ps->src_bit + b * nodes[0].ss, ps->dst_bit + b * nodes[0].ds);
        return;
    }
    byte_pass(p, ps, src + b * nodes[0].ss, dst + b * nodes[0].ds, nodes);
    if (p->cv.stream) tl_store_fence(); /* order the non-temporal stores before returning */
}
