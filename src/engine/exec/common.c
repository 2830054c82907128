/* What several executors share: the plan's row kernel, the preconditions of
 * the kernel executors, and the row steps that stream in a streaming plan. */
#include "engine/exec/exec.h"

const tl_row_kernel *tl_plan_row_kernel(const tl_plan *p)
{
    const tl_row_kernel *k = p->cv.lut8 ? tl_find_lut(p->isa) : NULL;
    return k ? k : tl_find_row(p->isa, (tl_dtype)p->cv.sdt, (tl_dtype)p->cv.ddt);
}

bool tl_exec_kernels_apply(const tl_plan *p)
{
    return p->cv.path == TL_EP_COPY ? p->cv.es <= 8 : p->cv.fast;
}

bool tl_exec_inner_contiguous(const tl_plan *p, const tl_pass *ps)
{
    const tl_node *in = &ps->nodes[ps->nnodes - 1];
    return in->ss == p->cv.es && in->ds == p->cv.ed;
}

void tl_flush(const tl_plan *p, uint8_t *d, const uint8_t *tile, size_t n)
{
    if (p->cv.stream) p->stream_copy(d, tile, n);
}
