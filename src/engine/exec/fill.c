/* fill: the destination padding of a fill box, contiguous runs by the fill
 * family (streaming stores in a streaming plan); fill-strided zeroes one
 * element at a time where the run is not contiguous. */
#include "engine/exec/exec.h"

static bool contiguous(const tl_plan *p, const tl_pass *ps)
{
    const tl_node *in = &ps->nodes[ps->nnodes - 1];
    return in->ds == p->cv.ed || in->count == 1;
}

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    if (!contiguous(p, ps)) return false;
    ps->x.fill = tl_find_fill(p->isa);
    ps->kernel_name = ps->x.fill->name;
    return true;
}

static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
    (void)s;
    (void)out;
    ps->x.fill->fn(d, (size_t)(in->count * p->cv.ed), p->cv.stream);
}

const tl_executor tl_exec_fill = {"fill", 1, applicable, run, false, NULL};

static bool applicable_strided(const tl_plan *p, tl_pass *ps)
{
    (void)p;
    (void)ps;
    return true;
}

static void run_strided(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                        const tl_node *out)
{
    (void)ps;
    (void)s;
    (void)out;
    for (int64_t k = 0; k < in->count; k++) memset(d + k * in->ds, 0, p->cv.ed);
}

const tl_executor tl_exec_fill_strided = {"fill-strided", 1, applicable_strided, run_strided, false, NULL};
