/* strided: anything else with byte strides, one element at a time (a row
 * kernel call of one element, or the element rule); the last candidate of
 * the byte executors. */
#include "engine/exec/exec.h"

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    (void)p;
    (void)ps;
    return true;
}

static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
    const tl_cvt *cv = &p->cv;
    (void)out;
    tl_zero_elems(cv, d, ps->head);
    uint8_t *d0 = d + ps->head * cv->ed;
    d = d0;
    if (cv->path != TL_EP_COPY && ps->row) /* rows of one element */
        ps->row->fn(s, in->ss, d, in->ds, (size_t)in->count, 1, cv);
    else
        for (int64_t k = 0; k < in->count; k++, s += in->ss, d += in->ds) {
            if (cv->path == TL_EP_COPY) memcpy(d, s, cv->es);
            else tl_elem_convert(&cv->op, s, 0, d, 0);
        }
    tl_zero_elems(cv, d0 + in->count * cv->ed, ps->tail);
}

const tl_executor tl_exec_strided = {"strided", 1, applicable, run, false, NULL};
