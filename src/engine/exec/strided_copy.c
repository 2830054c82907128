/* strided copy: raw 1/2/4/8-byte elements at any byte strides, two loop
 * levels per call of the move family; each element twice when the inner
 * node repeats it (4:2:0 chroma to full resolution), and for one plane of
 * an interleaved chroma pair 4 samples per 64-bit word (32 per register with
 * AVX-512, and the same into such a plane). */
#include "engine/exec/exec.h"

static bool applicable(const tl_plan *p, tl_pass *ps)
{
    unsigned es = p->cv.es;
    return p->cv.path == TL_EP_COPY && (es == 1 || es == 2 || es == 4 || es == 8) && ps->nnodes >= 2 &&
           !ps->head && !ps->tail;
}

static void run(const tl_plan *p, const tl_pass *ps, const uint8_t *s, uint8_t *d, const tl_node *in,
                const tl_node *out)
{
    unsigned es = p->cv.es;
    size_t n = (size_t)out->count;
    (void)ps;
#if defined(__x86_64__) || defined(_M_X64)
    bool avx512 = tl_isa_includes(p->isa, TL_ISA_AVX512);
#endif
    if (in->count == 2 && in->ss == 0 && in->ds == es) {
        if (es == 1 && out->ss == 2 && out->ds == 2) {
#if defined(__x86_64__) || defined(_M_X64)
            if (avx512) {
                /* plain stores even in a streaming plan: whole rows through an
                 * L1 tile and streaming stores measured slower at 256 MiB
                 * (Zen 5: 18 against 21 GB/s) */
                tl_x8_dup_even_ukernel__avx512(s, d, n);
                return;
            }
#endif
            tl_x8_dup_even_ukernel__scalar(s, d, n);
            return;
        }
        tl_dup2d_fn dup = es == 1 ? tl_x8_dup2d_ukernel__scalar : es == 2 ? tl_x16_dup2d_ukernel__scalar
                          : es == 4 ? tl_x32_dup2d_ukernel__scalar : tl_x64_dup2d_ukernel__scalar;
        dup(s, d, n, out->ss, out->ds);
        return;
    }
    if (es == 1 && in->count == 2 && in->ds == 1 && out->ss == 2 && out->ds == 2) {
        /* two planes into an interleaved chroma pair (YUV 4:4:4 to NV12: the
         * U and V passes merged, normalise.c), each row written whole once */
#if defined(__x86_64__) || defined(_M_X64)
        if (avx512) {
            tl_x8_zip_even_ukernel__avx512(s, s + in->ss, d, n, p->cv.stream);
            return;
        }
#elif defined(__ARM_NEON)
        if (tl_isa_includes(p->isa, TL_ISA_NEON)) {
            tl_x8_zip_even_ukernel__neon(s, s + in->ss, d, n);
            return;
        }
#endif
        tl_x8_zip_even_ukernel__scalar(s, s + in->ss, d, n);
        return;
    }
#if defined(__x86_64__) || defined(_M_X64)
    if (avx512 && es == 1 && in->ss == 2 && in->ds == 2) { /* a plane into an interleaved chroma pair */
        for (size_t j = 0; j < n; j++) tl_x8_copy_even_ukernel__avx512(s + j * out->ss, d + j * out->ds, (size_t)in->count);
        return;
    }
#endif
    tl_copy2d_fn copy = es == 1 ? tl_x8_copy2d_ukernel__scalar : es == 2 ? tl_x16_copy2d_ukernel__scalar
                        : es == 4 ? tl_x32_copy2d_ukernel__scalar : tl_x64_copy2d_ukernel__scalar;
    copy(s, d, n, out->ss, out->ds, (size_t)in->count, in->ss, in->ds);
}

const tl_executor tl_exec_strided_copy = {"strided copy", 2, applicable, run, false, NULL};
