/* chroma rows: 4:2:0 chroma back to full resolution, three loop levels per
 * call: each sample twice along the row (the strided copy's dup even) and
 * each expanded row into the `rows` image rows it covers, the node above
 * with source stride 0. One expansion writes both rows, where the strided
 * copy (two loop levels) expanded every chroma row once per image row: an
 * NV12 frame into YUV 4:4:4 planes called a kernel per ~300 bytes twice. */
#include "engine/exec/exec.h"

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    if (p->cv.path != TL_EP_COPY || p->cv.es != 1 || ps->nnodes < 3 || ps->head || ps->tail) return false;
    const tl_node *in = &ps->nodes[ps->nnodes - 1], *out = in - 1, *rep = in - 2;
    /* the repeated rows are disjoint: a valid destination never overlaps */
    return in->count == 2 && in->ss == 0 && in->ds == 1 && out->ss == 2 && out->ds == 2 && rep->ss == 0 &&
           rep->count >= 2;
}

/* `out - 1` is the repeat node: a 3-node executor gets its two inner nodes
 * and the one above them in the same array (run.c). */
static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
    const tl_node *rep = out - 1;
    (void)ps, (void)in;
#if defined(__x86_64__) || defined(_M_X64)
    if (tl_isa_includes(p->isa, TL_ISA_AVX512)) {
        /* a streaming plan streams each row's whole lines, the source read
         * at the row's own phase (256 MiB NV12 -> YUV 4:4:4: the chroma
         * planes written without reading them first) */
        if (p->cv.stream && tl_cpu_runs(TL_ISA_AVX512, TL_FEAT_VBMI))
            tl_x8_dup_even_rows_streamed_ukernel__avx512vbmi(s, d, (size_t)out->count, (size_t)rep->count, rep->ds);
        else
            tl_x8_dup_even_rows_ukernel__avx512(s, d, (size_t)out->count, (size_t)rep->count, rep->ds);
        return;
    }
#endif
    (void)p;
    tl_x8_dup_even_rows_ukernel__scalar(s, d, (size_t)out->count, (size_t)rep->count, rep->ds);
}

const tl_executor tl_exec_chroma_rows = {"chroma rows", 3, applicable, run};
