/* Candidate search, scalar (the reference of the vector kernels), and the
 * choice of kernel. */
#include <stdatomic.h>

#include "kernels/scan/scan.h"

#if defined(__aarch64__) || defined(__arm__)
#if defined(__linux__)
#include <sys/auxv.h>
#endif
#endif

size_t tl_scan_next_scalar(const uint8_t *p, size_t start, size_t n, const uint8_t *mask, size_t mlen, uint8_t flip,
                           uint8_t tu)
{
    return tl_scan_next_tail(p, start, n, mask, start % mlen, mlen, flip, tu);
}

void tl_argmax_row_scalar(const int32_t *a, const int32_t *z, int32_t w0, int32_t w1, int32_t c, int32_t *best,
                          int32_t *label, size_t n)
{
    tl_argmax_row_tail(a, z, w0, w1, c, best, label, 0, n);
}

/* The CPU's support, from the compiler's own cpuid reader (x86) or the auxv
 * (32-bit ARM); AArch64 always has NEON. */
static int cpu_has(int isa)
{
    switch (isa) {
    case TL_SCAN_SCALAR: return 1;
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    case TL_SCAN_SSE2: return 1;
    case TL_SCAN_AVX2: __builtin_cpu_init(); return __builtin_cpu_supports("avx2");
    case TL_SCAN_AVX512:
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw");
#endif
#if defined(__aarch64__)
    case TL_SCAN_NEON: return 1;
#elif defined(__arm__) && defined(__linux__)
    case TL_SCAN_NEON: return (getauxval(AT_HWCAP) & (1ul << 12)) != 0; /* HWCAP_ARM_NEON */
#endif
    default: return 0;
    }
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
