/* Running a pass: the outer nodes by an odometer, the innermost one or two by
 * the pass's executor (exec/). A part of a run takes a slice of one node
 * (the outermost that splits well), so parts write disjoint destination
 * elements. */
#include "engine/exec/exec.h"

static void byte_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      const tl_node *nodes)
{
    int n = ps->nnodes, k = ps->ex->nodes, outer = n - k;
    int64_t idx[TL_MAX_NODES]; /* the odometer's nodes only: zeroing all 48 took a third of a small run */
    for (int i = 0; i < outer; i++) idx[i] = 0;
    const uint8_t *s = src + ps->src_bit;
    uint8_t *d = dst + ps->dst_bit;
    const tl_node *in = &nodes[n - 1], *out = k >= 2 ? &nodes[n - 2] : NULL;
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

/* Node i can be cut into slices that write disjoint bytes, the executor
 * taking any count of it: a node of the odometer; the executor's outer node,
 * unless its kernel is made for that count (de-interleave, unpack, the
 * dequantization of a 16-channel block into 16 planes); the innermost node
 * of a 2d move whose kernel is not made for its count (transposes,
 * de-interleaves, unpacks: the executor tiles those rows itself), unless
 * the pass converts 16 planes into a 16-channel block in one kernel (made
 * for 16) or converts its rows 4 at a time (the 4-row form). Of a 3- or 4-node executor's nodes only the rows of 2d rows
 * and of the rows executors (each row is a kernel row, its gap its own;
 * the chroma executors' pairs and planes are not). Never the innermost
 * node of a pass with fused zeros (its head and tail belong to each whole
 * run). */
static bool sliceable(const tl_pass *ps, int i)
{
    int n = ps->nnodes, outer = n - ps->ex->nodes;
    bool fused = ps->head || ps->tail;
    if (i < outer) return true;
    if (ps->ex->nodes == 1) return !fused;
    if (ps->ex->nodes >= 3) /* the parts slice the rows above, or 2d rows' rows */
        return (ps->ex == &tl_exec_2d_rows || ps->ex->gaps) && i == n - 3;
    int shape = ps->ex == &tl_exec_2d ? ps->x.t2d.k->shape : -1;
    tl_t2d_in_reg in_reg = ps->ex == &tl_exec_2d ? (tl_t2d_in_reg)ps->x.t2d.in_reg : TL_IN_REG_NONE;
    bool unblock16 = in_reg == TL_IN_REG_DEQUANT16_VBMI || in_reg == TL_IN_REG_DEQUANT16_AVX2 ||
                     in_reg == TL_IN_REG_DEQUANT16_NEON;
    if (i == n - 2) return shape != TL_T2D_DILV && shape != TL_T2D_UNPACK && !unblock16;
    /* the 16 planes of one block, the 4 rows of a group: a part takes them all */
    bool whole = in_reg == TL_IN_REG_QUANT16_VBMI || in_reg == TL_IN_REG_QUANT16_AVX2 ||
                 in_reg == TL_IN_REG_QUANT16_NEON || (ps->ex == &tl_exec_2d && ps->x.t2d.group4);
    return shape >= 0 && shape != TL_T2D_ILV && shape != TL_T2D_PACK && !fused && !whole;
}

/* The node the parts of a pass slice, -1 = none (part 0 does the pass): the
 * outermost sliceable node long enough to balance nparts (4 slices a part),
 * else the longest one. Every part finds the same node. */
static int slice_node(const tl_plan *p, const tl_pass *ps, unsigned nparts)
{
    if (!p->byte_granular) return -1; /* elements share bytes (4-bit) */
    int best = -1;
    for (int i = 0; i < ps->nnodes; i++) {
        if (!sliceable(ps, i)) continue;
        if (ps->nodes[i].count >= 4 * (int64_t)nparts) return i;
        if (best < 0 || ps->nodes[i].count > ps->nodes[best].count) best = i;
    }
    return best;
}

void tl_pass_run(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                 unsigned part, unsigned nparts)
{
    if (ps->kind == TL_PASS_ELEMENTS) {
        if (!p->byte_granular && part != 0) return;
        tl_elements_pass(p, ps, src, dst, p->byte_granular ? part : 0, p->byte_granular ? nparts : 1);
        return;
    }
    /* A part takes a slice of one node (slice_node); a pass that has none
     * sliceable is done by part 0. */
    int cut = nparts > 1 ? slice_node(p, ps, nparts) : -1, c = cut < 0 ? 0 : cut;
    if (nparts > 1 && cut < 0 && part != 0) return;
    int64_t b = 0, e = ps->nodes[c].count;
    if (cut >= 0) tl_part_range(ps->nodes[c].count, part, nparts, &b, &e);
    if (b >= e) return;
    tl_node sliced[TL_MAX_NODES]; /* the pass's nodes with the slice's count (a whole run: as they are) */
    const tl_node *nodes = ps->nodes;
    if (cut >= 0) {
        memcpy(sliced, ps->nodes, (size_t)ps->nnodes * sizeof sliced[0]);
        sliced[c].count = e - b;
        nodes = sliced;
    }
    if (ps->ex == &tl_exec_walk) {
        tl_walk_pass(p, ps, src, dst, nodes, ps->src_bit + b * nodes[c].ss, ps->dst_bit + b * nodes[c].ds);
        return;
    }
    byte_pass(p, ps, src + b * nodes[c].ss, dst + b * nodes[c].ds, nodes);
    if (p->cv.stream) tl_store_fence(); /* order the non-temporal stores before returning */
}
