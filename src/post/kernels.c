/* Which scan and argmax kernels the operations use. The post layer decides
 * from the engine's machine policy (tl_cpu_has: this build and this CPU, TL_CPU
 * and the feature mask applied); kernels are told, never ask. */
#include <stdatomic.h>

#include "engine/engine.h"
#include "kernels/kernels.h"
#include "kernels/scan/scan.h"

/* The engine's ISA of a scan ISA. */
static int cpu_has(int isa)
{
    static const int engine_isa[TL_SCAN_ISA_COUNT] = {TL_ISA_SCALAR, TL_ISA_SSE2, TL_ISA_AVX2, TL_ISA_AVX512,
                                                      TL_ISA_NEON};
    return isa == TL_SCAN_SCALAR || tl_cpu_has(engine_isa[isa]);
}

/* Compiled kernels: an ISA file defines its functions only where its guard
 * held, so the table references them under the same guards. */
typedef struct kernels {
    tl_scan_next_fn next;
    tl_argmax_row_fn argmax_row;
} kernels;

static kernels compiled(int isa)
{
    switch (isa) {
    case TL_SCAN_SCALAR: return (kernels){tl_scan_next_scalar, tl_argmax_row_scalar};
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case TL_SCAN_SSE2: return (kernels){tl_scan_next_sse2, tl_argmax_row_sse2};
    case TL_SCAN_AVX2: return (kernels){tl_scan_next_avx2, tl_argmax_row_avx2};
    case TL_SCAN_AVX512: return (kernels){tl_scan_next_avx512, tl_argmax_row_avx512};
#endif
#if defined(__aarch64__) || defined(__arm__) /* neon.c is built with NEON on both */
    case TL_SCAN_NEON: return (kernels){tl_scan_next_neon, tl_argmax_row_neon};
#endif
    default: return (kernels){NULL, NULL};
    }
}

static kernels available(int isa)
{
    if (isa < 0 || isa >= TL_SCAN_ISA_COUNT || !cpu_has(isa)) return (kernels){NULL, NULL};
    return compiled(isa);
}

tl_scan_next_fn tl_scan_kernel(int isa) { return available(isa).next; }
tl_argmax_row_fn tl_argmax_row_kernel(int isa) { return available(isa).argmax_row; }

static atomic_int g_forced = -1;

int tl_scan_force_isa(int isa)
{
    if (isa >= 0 && !tl_scan_kernel(isa)) return 0;
    atomic_store(&g_forced, isa);
    return 1;
}

static kernels chosen(void)
{
    int f = atomic_load(&g_forced);
    if (f >= 0) return available(f);
    for (int isa = TL_SCAN_ISA_COUNT - 1; isa > TL_SCAN_SCALAR; isa--) {
        kernels k = available(isa);
        if (k.next) return k;
    }
    return compiled(TL_SCAN_SCALAR);
}

tl_scan_next_fn tl_scan_kernel_default(void) { return chosen().next; }
tl_argmax_row_fn tl_argmax_row_kernel_default(void) { return chosen().argmax_row; }

const char *tl_scan_isa_name(int isa)
{
    static const char *const names[TL_SCAN_ISA_COUNT] = {"scalar", "sse2", "avx2", "avx512", "neon"};
    return isa >= 0 && isa < TL_SCAN_ISA_COUNT ? names[isa] : "?";
}
