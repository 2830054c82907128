/* What several executors share: the plan's row kernel, the preconditions of
 * the kernel executors, and the row steps that stream in a streaming plan. */
#include "engine/exec/exec.h"

const tl_row_kernel *tl_plan_row_kernel(const tl_plan *p)
{
    const tl_row_kernel *k = tl_find_table_row(p->isa, &p->cv);
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

bool tl_rows_geometry(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                      const tl_node *out, tl_exec_run_fn run, int kernel, tl_px_rows *g)
{
    const tl_node *rows = out - 1;
    *g = (tl_px_rows){(size_t)out->count, (size_t)rows->count, rows->ss, rows->ds, (size_t)ps->gap};
    if (kernel == TL_ROWS_ANY ||
        (kernel == TL_ROWS_ON_LINES && (!p->cv.stream || ((uintptr_t)d % 64 == 0 && rows->ds % 64 == 0))))
        return true;
    for (int64_t r = 0; r < rows->count; r++) {
        run(p, ps, s + r * rows->ss, d + r * rows->ds, in, out);
        memset(d + r * rows->ds + out->count * out->ds, 0, (size_t)ps->gap);
    }
    return false;
}
