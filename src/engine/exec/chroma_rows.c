/* chroma rows: 4:2:0 chroma back to full resolution, three loop levels per
 * call: each sample twice along the row (the strided copy's dup even) and
 * each expanded row into the `rows` image rows it covers, the node above
 * with source stride 0. One expansion writes both rows, where the strided
 * copy (two loop levels) expanded every chroma row once per image row: an
 * NV12 frame into YUV 4:4:4 planes called a kernel per ~300 bytes twice. */
#include <stdlib.h> /* llabs */
#include <string.h>

#include "engine/exec/exec.h"

/* The nest as this executor runs it: the dup node innermost, the row's
 * samples above it, the repeat node above those, and the outer nodes (the
 * odometer's) by source stride, largest outermost. NV12's chroma back to
 * the U and V planes is one pass with a plane node (source stride 1,
 * normalise.c's merged passes; the byte normalisation brings that node
 * inward, as it is contiguous in the source): outside the chroma rows, both
 * planes' rows are made from each chroma row while it is in the L1, where
 * two passes each read the whole interleaved chroma plane. False, the pass
 * unchanged, when the nest has no such nodes. */
static bool chroma_nest(tl_pass *ps)
{
    int n = ps->nnodes, px = -1, rep = -1;
    const tl_node *dup = &ps->nodes[n - 1];
    if (n < 3 || dup->count != 2 || dup->ss != 0 || dup->ds != 1) return false;
    for (int i = 0; i < n - 1; i++) {
        const tl_node *x = &ps->nodes[i];
        if (x->ss == 2 && x->ds == 2 && px < 0) px = i;
        else if (x->ss == 0 && x->count >= 2 && rep < 0) rep = i; /* repeated rows: disjoint in a valid destination */
    }
    if (px < 0 || rep < 0) return false;
    tl_node nodes[TL_MAX_NODES], d = *dup, r = ps->nodes[rep], s = ps->nodes[px];
    int k = 0;
    for (int i = 0; i < n - 1; i++)
        if (i != px && i != rep) { /* insertion by source stride, largest first */
            int j = k++;
            for (; j > 0 && llabs(nodes[j - 1].ss) < llabs(ps->nodes[i].ss); j--) nodes[j] = nodes[j - 1];
            nodes[j] = ps->nodes[i];
        }
    nodes[k++] = r;
    nodes[k++] = s;
    nodes[k++] = d;
    memcpy(ps->nodes, nodes, (size_t)n * sizeof nodes[0]);
    return true;
}

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    if (p->cv.path != TL_EP_COPY || p->cv.es != 1 || ps->nnodes < 3 || ps->head || ps->tail) return false;
    return chroma_nest(ps);
}

/* The plain (not streamed) kernels of the plan's path: one plane, or both
 * planes of an interleaved row (NV12). */
static tl_dup_even_rows_fn rows_kernel(const tl_plan *p)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (tl_isa_includes(p->isa, TL_ISA_AVX512)) return tl_x8_dup_even_rows_ukernel__avx512;
    if (tl_isa_includes(p->isa, TL_ISA_AVX2)) return tl_x8_dup_even_rows_ukernel__avx2;
    if (tl_isa_includes(p->isa, TL_ISA_SSE2)) return tl_x8_dup_even_rows_ukernel__sse2;
#elif defined(__ARM_NEON)
    if (tl_isa_includes(p->isa, TL_ISA_NEON)) return tl_x8_dup_even_rows_ukernel__neon;
#endif
    (void)p;
    return tl_x8_dup_even_rows_ukernel__scalar;
}

static tl_dup_even_rows2_fn rows2_kernel(const tl_plan *p)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (tl_isa_includes(p->isa, TL_ISA_AVX512)) return tl_x8_dup_even_rows2_ukernel__avx512;
    if (tl_isa_includes(p->isa, TL_ISA_AVX2)) return tl_x8_dup_even_rows2_ukernel__avx2;
    if (tl_isa_includes(p->isa, TL_ISA_SSE2)) return tl_x8_dup_even_rows2_ukernel__sse2;
#elif defined(__ARM_NEON)
    if (tl_isa_includes(p->isa, TL_ISA_NEON)) return tl_x8_dup_even_rows2_ukernel__neon;
#endif
    (void)p;
    return tl_x8_dup_even_rows2_ukernel__scalar;
}

/* The streamed kernel of an SSE2 or AVX2 plan, NULL elsewhere (AVX-512
 * VBMI has its own, below; NEON and scalar store plainly). */
static tl_dup_even_rows_streamed_fn streamed_kernel(const tl_plan *p)
{
#if defined(__x86_64__) || defined(_M_X64)
    if (!p->cv.stream || tl_exec_vbmi(p)) return NULL;
    if (tl_isa_includes(p->isa, TL_ISA_AVX2)) return tl_x8_dup_even_rows_streamed_ukernel__avx2;
    if (tl_isa_includes(p->isa, TL_ISA_SSE2)) return tl_x8_dup_even_rows_streamed_ukernel__sse2;
#endif
    (void)p;
    return NULL;
}

/* `out - 1` is the repeat node: a 3-node executor gets its two inner nodes
 * and the one above them in the same array (run.c). */
static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
    const tl_node *rep = out - 1;
    (void)ps, (void)in;
#if defined(__x86_64__) || defined(_M_X64)
    /* a streaming plan streams each row's whole lines, the source read at
     * the row's own phase (256 MiB NV12 -> YUV 4:4:4: the chroma planes
     * written without reading them first) */
    if (p->cv.stream && tl_exec_vbmi(p)) {
        tl_x8_dup_even_rows_streamed_ukernel__avx512vbmi(s, d, (size_t)out->count, (size_t)rep->count, rep->ds);
        return;
    }
#endif
    tl_dup_even_rows_streamed_fn streamed = streamed_kernel(p);
    if (streamed) streamed(s, d, (size_t)out->count, (size_t)rep->count, rep->ds, 1, 0);
    else rows_kernel(p)(s, d, (size_t)out->count, (size_t)rep->count, rep->ds);
}

const tl_executor tl_exec_chroma_rows = {"chroma rows", 3, applicable, run, false, NULL};

/* NV12's two chroma planes together: the plane node (source stride 1, two
 * planes interleaved) just above the nest is the executor's fourth node, so
 * that one call loads each chroma row once for both planes and the rows of
 * a frame take half the calls (NV12 -> YUV 4:4:4, 296 x 294, AVX-512: a
 * fifth of the time went to the calls). Every path has the kernel; a
 * streaming AVX-512 plan streams a plane at a time. */
static bool applicable_planes(const tl_plan *p, tl_pass *ps)
{
    tl_pass was = *ps;
    if (ps->nnodes >= 4 && applicable(p, ps)) {
        const tl_node *pl = &ps->nodes[ps->nnodes - 4];
        if (pl->count == 2 && pl->ss == 1) return true;
    }
    *ps = was;
    return false;
}

static void run_planes(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                       const tl_node *out)
{
    const tl_node *pl = out - 2, *rep = out - 1;
    (void)ps, (void)in;
#if defined(__x86_64__) || defined(_M_X64)
    if (p->cv.stream && tl_exec_vbmi(p)) {
        for (int64_t c = 0; c < pl->count; c++) run(p, ps, s + c * pl->ss, d + c * pl->ds, in, out);
        return;
    }
#endif
    tl_dup_even_rows_streamed_fn streamed = streamed_kernel(p);
    if (streamed) streamed(s, d, (size_t)out->count, (size_t)rep->count, rep->ds, 2, pl->ds);
    else rows2_kernel(p)(s, d, (size_t)out->count, (size_t)rep->count, rep->ds, pl->ds);
}

const tl_executor tl_exec_chroma_planes = {"chroma planes", 4, applicable_planes, run_planes, false, NULL};
