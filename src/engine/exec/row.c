/* row: the innermost node is contiguous on both sides; one call of the
 * convert family per run (a raw copy is memcpy), with its fused zeros. */
#include "engine/exec/exec.h"

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    return tl_exec_kernels_apply(p) && tl_exec_inner_contiguous(p, ps);
}

static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    (void)out;
    tl_zero_elems(cv, d, ps->head);
    d += ps->head * cv->ed;
    tl_copy_or_convert_row(p, ps, s, d, (size_t)in->count);
    tl_zero_elems(cv, d + in->count * cv->ed, ps->tail);
}

const tl_executor tl_exec_row = {"row", 1, applicable, run, false, NULL};
