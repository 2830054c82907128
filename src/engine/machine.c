/* The machine policy, decided once (XNNPACK's config, libyuv's cpu flags):
 * the CPU's paths and features, and the tuning numbers every plan uses.
 * TL_CPU, TL_CPU_DISABLE and TL_STREAM_BYTES override the detection, and
 * tests replace the whole of it (tl_machine_set) to force every path. */
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

/* ---- the machine: built once, then read ------------------------------------------ */
static size_t env_size(const char *name, size_t fallback)
{
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    char *end;
    unsigned long long n = strtoull(v, &end, 10);
    return *end == 0 && n > 0 ? (size_t)n : fallback;
}

/* TL_CPU_DISABLE=vbmi[,...]: features to mask off (libyuv's MaskCpuFlags). */
static unsigned env_disabled(void)
{
    const char *v = getenv("TL_CPU_DISABLE");
    return v && strstr(v, "vbmi") ? TL_FEAT_VBMI : 0;
}

static void build(tl_machine *m)
{
    memset(m, 0, sizeof *m);
    m->best_isa = detect();
#if defined(TL_X86)
    if (detect_vbmi()) m->feat |= TL_FEAT_VBMI;
#endif
    m->feat &= ~env_disabled();
    m->default_isa = m->best_isa;
    int want = tl_isa_from_name(getenv("TL_CPU"));
    if (want < TL_ISA_COUNT) {
        while (want > TL_ISA_SCALAR && !tl_isa_includes(m->best_isa, want))
            want = want == TL_ISA_NEON ? TL_ISA_SCALAR : want - 1;
        m->default_isa = want;
    }
    m->stream_bytes = env_size("TL_STREAM_BYTES", (size_t)8 << 20);
    m->stream_row_bytes = 4096;
}

/* 0 unbuilt, 1 being built, 2 ready: the first caller builds, the others wait
 * for it (a few microseconds, once); afterwards one acquire load per read. */
static _Atomic int g_state;
static tl_machine g_detected;
static tl_machine g_override_copy; /* the test hook's machine, copied */
static const tl_machine *_Atomic g_override;

const tl_machine *tl_machine_get(void)
{
    const tl_machine *o = atomic_load_explicit(&g_override, memory_order_acquire);
    if (o) return o;
    if (atomic_load_explicit(&g_state, memory_order_acquire) != 2) {
        int expect = 0;
        if (atomic_compare_exchange_strong(&g_state, &expect, 1)) {
            build(&g_detected);
            atomic_store_explicit(&g_state, 2, memory_order_release);
        } else {
            while (atomic_load_explicit(&g_state, memory_order_acquire) != 2) {
            }
        }
    }
    return &g_detected;
}

void tl_machine_set(const tl_machine *m)
{
    if (m) g_override_copy = *m; /* the caller's object may go out of scope first */
    atomic_store_explicit(&g_override, m ? &g_override_copy : NULL, memory_order_release);
}

int tl_cpu_avx512vbmi(void) { return (tl_machine_get()->feat & TL_FEAT_VBMI) != 0; }

int tl_cpu_has(int isa)
{
    if (isa < 0 || isa >= TL_ISA_COUNT) return 0;
    return tl_isa_includes(tl_machine_get()->best_isa, isa);
}

int tl_cpu_runs(int isa, unsigned feat)
{
    return tl_cpu_has(isa) && (feat & ~tl_machine_get()->feat) == 0;
}

int tl_cpu_default_isa(void) { return tl_machine_get()->default_isa; }
