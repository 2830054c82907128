/* CPU features, read once (XNNPACK's config, libyuv's cpu flags), and the
 * TL_CPU override that tests and users set to force a path. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

#if (defined(__x86_64__) || defined(_M_X64)) && defined(__GNUC__)
#include <cpuid.h>
#define TL_X86 1
#endif
#if defined(__arm__) && defined(__linux__)
#include <sys/auxv.h>
#endif

static const char *const k_names[TL_ISA_COUNT] = {"scalar", "sse2", "avx2", "avx512", "neon"};

const char *tl_isa_name(int isa) { return isa >= 0 && isa < TL_ISA_COUNT ? k_names[isa] : "?"; }

int tl_isa_from_name(const char *name)
{
    for (int i = 0; name && i < TL_ISA_COUNT; i++)
        if (strcmp(name, k_names[i]) == 0) return i;
    return TL_ISA_COUNT;
}

#ifdef TL_X86
static uint64_t xgetbv0(void)
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return ((uint64_t)hi << 32) | lo;
}

/* The best x86 path: the instructions and the OS saving their registers. */
static int detect_x86(void)
{
    unsigned a, b, c, d;
    int best = TL_ISA_SSE2; /* part of x86-64 */
    if (!__get_cpuid(1, &a, &b, &c, &d)) return best;
    bool osxsave = (c >> 27) & 1, avx = (c >> 28) & 1, f16c = (c >> 29) & 1;
    if (!osxsave || !avx) return best;
    uint64_t xcr0 = xgetbv0();
    if ((xcr0 & 6) != 6) return best; /* XMM and YMM state */
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return best;
    bool avx2 = (b >> 5) & 1, avx512f = (b >> 16) & 1, avx512bw = (b >> 30) & 1, avx512vl = (b >> 31) & 1;
    if (!avx2 || !f16c) return best;
    best = TL_ISA_AVX2;
    /* VL (the masked 128-bit loads and stores of the byte kernels) comes with
     * BW on every processor that has BW */
    if (avx512f && avx512bw && avx512vl && (xcr0 & 0xE0) == 0xE0) best = TL_ISA_AVX512; /* opmask, ZMM */
    return best;
}

/* AVX-512 VBMI: CPUID leaf 7, ECX bit 1 (the AVX-512 path's OS checks apply). */
static int detect_vbmi(void)
{
    unsigned a, b, c, d;
    if (detect_x86() < TL_ISA_AVX512 || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (int)((c >> 1) & 1);
}
#endif

static int detect(void)
{
#if defined(TL_X86)
    return detect_x86();
#elif defined(__aarch64__)
    return TL_ISA_NEON; /* mandatory in AArch64 */
#elif defined(__arm__) && defined(__linux__)
    return (getauxval(AT_HWCAP) & (1ul << 12)) ? TL_ISA_NEON : TL_ISA_SCALAR; /* HWCAP_ARM_NEON */
#else
    return TL_ISA_SCALAR;
#endif
}

/* Both values are computed once; two threads racing compute the same number
 * (atomics keep that race defined). */
static _Atomic int g_best = -1, g_default = -1;

static int best_isa(void)
{
    int b = atomic_load_explicit(&g_best, memory_order_relaxed);
    if (b < 0) {
        b = detect();
        atomic_store_explicit(&g_best, b, memory_order_relaxed);
    }
    return b;
}

static _Atomic int g_vbmi = -1;

int tl_cpu_avx512vbmi(void)
{
    int v = atomic_load_explicit(&g_vbmi, memory_order_relaxed);
    if (v < 0) {
#if defined(TL_X86)
        v = detect_vbmi();
#else
        v = 0;
#endif
        atomic_store_explicit(&g_vbmi, v, memory_order_relaxed);
    }
    return v;
}

int tl_cpu_has(int isa)
{
    if (isa < 0 || isa >= TL_ISA_COUNT) return 0;
    return tl_isa_includes(best_isa(), isa);
}

int tl_cpu_runs(int isa, unsigned feat)
{
    unsigned have = tl_cpu_avx512vbmi() ? TL_FEAT_VBMI : 0;
    return tl_cpu_has(isa) && (feat & ~have) == 0;
}

int tl_cpu_default_isa(void)
{
    int d = atomic_load_explicit(&g_default, memory_order_relaxed);
    if (d >= 0) return d;
    int isa = best_isa();
    const char *env = getenv("TL_CPU");
    int want = tl_isa_from_name(env);
    if (want < TL_ISA_COUNT) {
        while (want > TL_ISA_SCALAR && !tl_cpu_has(want)) want = want == TL_ISA_NEON ? TL_ISA_SCALAR : want - 1;
        isa = want;
    }
    atomic_store_explicit(&g_default, isa, memory_order_relaxed);
    return isa;
}
