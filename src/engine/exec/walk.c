/* walk: the generic walkers, last of every candidate list. A pass whose
 * strides are not whole bytes (4-bit elements) runs its nodes with bit
 * strides and the element rule per element; an element pass (irregular
 * blockings) visits every position of its region through the offset
 * function. Its run works on bits, so tl_pass_run calls it directly. */
#include "engine/exec/exec.h"

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    (void)p;
    (void)ps;
    return true;
}

const tl_executor tl_exec_walk = {"walk", 1, applicable, NULL, false, NULL};

/* Slice [b, e) of the outermost node for part `part` of `nparts`. */
void tl_part_range(int64_t count, unsigned part, unsigned nparts, int64_t *b, int64_t *e)
{
    /* floor(count * part / nparts) without the product, which can pass 2^64:
     * count = q * nparts + r, and r * part < nparts^2 <= 2^64 */
    uint64_t q = (uint64_t)count / nparts, r = (uint64_t)count % nparts;
    *b = (int64_t)(q * part + r * part / nparts);
    *e = (int64_t)(q * ((uint64_t)part + 1) + r * ((uint64_t)part + 1) / nparts);
}

/* ---- the generic node walker (bit strides, the element rule) --------------------- */
void tl_walk_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      const tl_node *nodes, int64_t sbit, int64_t dbit)
{
    const tl_elem_op *op = &p->cv.op;
    unsigned db = tl_dtype_bits((tl_dtype)p->dst.dtype);
    bool fill = ps->kind == TL_PASS_FILL;
    int n = ps->nnodes;
    int64_t idx[TL_MAX_NODES]; /* the nodes above the innermost only (run.c, byte_pass) */
    for (int i = 0; i < n - 1; i++) idx[i] = 0;
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

/* The element walk of a region (fallback for irregular blockings): core's
 * offset function and stored-position predicate per element. */
void tl_elements_pass(const tl_plan *p, const tl_pass *ps, const uint8_t *src, uint8_t *dst,
                      unsigned part, unsigned nparts)
{
    const tl_desc *sd = &p->src, *dd = &p->dst;
    bool fill = ps->ex == &tl_exec_fill;
    int rank = dd->rank;
    int64_t x[TL_MAX_DIMS], y[TL_MAX_DIMS], lo0, hi0;
    unsigned db = tl_dtype_bits((tl_dtype)dd->dtype);
    if (fill && part != 0) return;
    tl_part_range(ps->hi[0] - ps->lo[0], fill ? 0 : part, fill ? 1 : nparts, &lo0, &hi0);
    if (lo0 >= hi0) return;
    for (int i = 0; i < rank; i++) x[i] = ps->lo[i];
    x[0] = ps->lo[0] + lo0;
    for (;;) {
        if (tl_desc_stored(dd, ps->dp, x, fill)) {
            int64_t dbit = tl_desc_plane_bits(dd, ps->dp, x, fill);
            if (fill) {
                tl_store_raw(dst, dbit, db, 0);
            } else {
                for (int i = 0; i < rank; i++) y[p->map[i]] = x[i];
                tl_elem_convert(&p->cv.op, src, tl_desc_plane_bits(sd, ps->sp, y, false), dst, dbit);
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
