/* The machine policy, decided once (XNNPACK's config, libyuv's cpu flags):
 * the CPU's paths and features, its data caches, and the tuning numbers every
 * plan derives from them. TL_CPU, TL_CPU_DISABLE, TL_CACHES, TL_STREAM_BYTES,
 * TL_TILE_BYTES, TL_STAGE_BYTES, TL_ROW_STAGE_BYTES, TL_STREAM_RUN, TL_READ_STREAMS, TL_ALIAS_ROWS,
 * TL_ALIAS_STORE_ROWS, TL_SPLIT_STORES, TL_SLOW_PERMUTE2, TL_PLAIN_ROWS and TL_NARROW_512
 * override the detection, and tests replace the whole of it (tl_machine_set)
 * to force every path. */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/exec/exec.h" /* TL_TILE_BYTES */

#if (defined(__x86_64__) || defined(_M_X64)) && defined(__GNUC__)
#include <cpuid.h>
#define TL_X86 1
#endif
#if (defined(__arm__) || defined(__aarch64__)) && defined(__linux__)
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

/* CPUID leaf 0's vendor string (EBX, EDX, ECX). */
static int detect_vendor(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(0, &a, &b, &c, &d)) return TL_VENDOR_OTHER;
    if (b == 0x68747541u && d == 0x69746e65u && c == 0x444d4163u) return TL_VENDOR_AMD;   /* "AuthenticAMD" */
    if (b == 0x756e6547u && d == 0x49656e69u && c == 0x6c65746eu) return TL_VENDOR_INTEL; /* "GenuineIntel" */
    return TL_VENDOR_OTHER;
}

/* CPUID leaf 1's family: the base field, plus the extended one when the
 * base is 15 (AMD Zen 4: 15 + 10 = 19h). */
static int detect_family(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    unsigned base = (a >> 8) & 0xF;
    return (int)(base == 0xF ? base + ((a >> 20) & 0xFF) : base);
}

/* AVX-512 VBMI: CPUID leaf 7, ECX bit 1 (the AVX-512 path's OS checks apply). */
static int detect_vbmi(void)
{
    unsigned a, b, c, d;
    if (detect_x86() < TL_ISA_AVX512 || !__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (int)((c >> 1) & 1);
}
#endif

/* The f16 instructions beyond the baseline, one feature on either Arm:
 * Armv7's VFPv4 FPU, whose vcvt converts f16 (HWCAP_VFPv4; the neonfp16
 * kernels), and AArch64's half-precision arithmetic of ARMv8.2 (HWCAP_FPHP
 * and HWCAP_ASIMDHP; the neonfp16arith kernels), which converts between
 * halves and 16-bit integers. */
static unsigned detect_arm_f16(void)
{
#if defined(__arm__) && !defined(__aarch64__) && defined(__linux__)
    return (getauxval(AT_HWCAP) & (1ul << 16)) ? TL_FEAT_F16 : 0; /* HWCAP_VFPv4 */
#elif defined(__aarch64__) && defined(__linux__)
    const unsigned long both = (1ul << 9) | (1ul << 10); /* HWCAP_FPHP, HWCAP_ASIMDHP */
    return (getauxval(AT_HWCAP) & both) == both ? TL_FEAT_F16 : 0;
#else
    return 0;
#endif
}

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

/* ---- the data caches ------------------------------------------------------------- */
/* "32K", "1024K", "32M", "48" (bytes): 0 when malformed. */
static size_t parse_bytes(const char *t, const char **end)
{
    char *e;
    if (end) *end = t;
    if (*t < '0' || *t > '9') return 0;
    unsigned long long n = strtoull(t, &e, 10);
    unsigned shift = *e == 'K' || *e == 'k' ? 10 : *e == 'M' || *e == 'm' ? 20 : *e == 'G' || *e == 'g' ? 30 : 0;
    if (shift) e++;
    if (end) *end = e;
    if (n > (SIZE_MAX >> shift)) return 0;
    return (size_t)n << shift;
}

static bool read_line(const char *dir, int index, const char *name, char *buf, size_t cap)
{
    char path[512];
    snprintf(path, sizeof path, "%s/index%d/%s", dir, index, name);
    FILE *f = fopen(path, "r");
    if (!f) return false;
    bool ok = fgets(buf, (int)cap, f) != NULL;
    fclose(f);
    buf[strcspn(buf, "\n")] = 0;
    return ok;
}

/* The highest level seen becomes the LLC; L1 is its data (or unified) cache. */
static void put_level(tl_caches *c, int *llc_level, int level, size_t bytes, unsigned ways)
{
    tl_cache_level v = {bytes, ways};
    if (level == 1) c->l1d = v;
    if (level == 2) c->l2 = v;
    if (level >= 2 && level >= *llc_level) {
        c->llc = v;
        *llc_level = level;
    }
}

bool tl_caches_from_sysfs(const char *dir, tl_caches *c)
{
    tl_caches r = {{0, 0}, {0, 0}, {0, 0}, "sysfs"};
    int llc_level = 0;
    for (int i = 0; i < 16; i++) {
        char level[32], type[32], size[32], ways[32];
        if (!read_line(dir, i, "level", level, sizeof level) || !read_line(dir, i, "type", type, sizeof type) ||
            !read_line(dir, i, "size", size, sizeof size))
            continue;
        if (strcmp(type, "Data") != 0 && strcmp(type, "Unified") != 0) continue;
        /* 0 ways: fully associative or not reported; the policy then assumes 8 */
        unsigned w = read_line(dir, i, "ways_of_associativity", ways, sizeof ways) ? (unsigned)atoi(ways) : 0;
        put_level(&r, &llc_level, atoi(level), parse_bytes(size, NULL), w);
    }
    if (!r.l1d.bytes) return false;
    *c = r;
    return true;
}

bool tl_caches_from_amd_leaves(uint32_t ecx5, uint32_t ecx6, tl_caches *c)
{
    /* L2 ways by the 4-bit code (the lower end of each range); 0: unknown
     * (9: "see leaf 0x8000001D") or fully associative */
    static const unsigned short l2_ways[16] = {0, 1, 2, 3, 4, 6, 8, 0, 16, 0, 32, 48, 64, 128, 0, 0};
    unsigned l1_ways = (ecx5 >> 16) & 255;
    tl_caches r = {{(size_t)(ecx5 >> 24) << 10, l1_ways == 255 ? 0 : l1_ways},
                   {(size_t)(ecx6 >> 16) << 10, l2_ways[(ecx6 >> 12) & 15]},
                   {0, 0},
                   "cpuid"};
    if (!r.l1d.bytes) return false;
    *c = r;
    return true;
}

#ifdef TL_X86
static bool caches_from_older_amd_leaves(tl_caches *c)
{
    unsigned a, b, c5 = 0, c6 = 0, d;
    if (!__get_cpuid(0x80000000, &a, &b, &c5, &d) || a < 0x80000006) return false;
    __get_cpuid(0x80000005, &a, &b, &c5, &d);
    __get_cpuid(0x80000006, &a, &b, &c6, &d);
    return tl_caches_from_amd_leaves(c5, c6, c);
}

/* CPUID leaf 4 (Intel) or 0x8000001D (AMD): one subleaf per cache; size =
 * ways x partitions x line x sets. An AMD CPU where the latter is missing
 * or empty (a VM may hide it, and sysfs too) falls back to the older
 * leaves. */
static bool caches_from_cpuid(tl_caches *c)
{
    unsigned a, b, cx, d, leaf = 4;
    if (!__get_cpuid(0, &a, &b, &cx, &d)) return false;
    bool amd = b == 0x68747541; /* "Auth"enticAMD */
    if (amd) {
        if (!__get_cpuid(0x80000001, &a, &b, &cx, &d) || !((cx >> 22) & 1)) /* no TopologyExtensions */
            return caches_from_older_amd_leaves(c);
        leaf = 0x8000001D;
    } else if (a < 4) {
        return false;
    }
    tl_caches r = {{0, 0}, {0, 0}, {0, 0}, "cpuid"};
    int llc_level = 0;
    for (unsigned i = 0; i < 16; i++) {
        if (!__get_cpuid_count(leaf, i, &a, &b, &cx, &d)) break;
        unsigned type = a & 31, level = (a >> 5) & 7;
        if (type == 0) break;
        if (type == 2) continue; /* instructions */
        unsigned ways = (b >> 22) + 1, parts = ((b >> 12) & 1023) + 1, line = (b & 4095) + 1;
        size_t bytes = (size_t)ways * parts * line * ((size_t)cx + 1);
        put_level(&r, &llc_level, (int)level, bytes, (a >> 9) & 1 ? 0 : ways);
    }
    if (!r.l1d.bytes) return amd && caches_from_older_amd_leaves(c);
    *c = r;
    return true;
}
#endif

bool tl_caches_parse(const char *text, tl_caches *c)
{
    tl_caches r = *c;
    const char *t = text;
    while (*t) {
        tl_cache_level *lv = strncmp(t, "l1d=", 4) == 0 ? &r.l1d
                             : strncmp(t, "l2=", 3) == 0 ? &r.l2
                             : strncmp(t, "llc=", 4) == 0 ? &r.llc
                                                          : NULL;
        if (!lv) return false;
        t = strchr(t, '=') + 1;
        const char *e;
        size_t bytes = parse_bytes(t, &e);
        if (!bytes) return false;
        unsigned ways = lv->ways;
        if (*e == '/') {
            char *we;
            ways = (unsigned)strtoul(e + 1, &we, 10);
            if (we == e + 1 || ways == 0) return false;
            e = we;
        }
        *lv = (tl_cache_level){bytes, ways};
        if (*e != 0 && *e != ',') return false;
        t = *e ? e + 1 : e;
    }
    r.source = "TL_CACHES";
    *c = r;
    return true;
}

static void detect_caches(tl_caches *c)
{
    *c = (tl_caches){{(size_t)32 << 10, 8}, {(size_t)256 << 10, 8}, {0, 0}, "defaults"};
    if (!tl_caches_from_sysfs("/sys/devices/system/cpu/cpu0/cache", c)) {
#ifdef TL_X86
        caches_from_cpuid(c);
#endif
    }
    const char *v = getenv("TL_CACHES");
    if (v && *v) tl_caches_parse(v, c);
}

/* ---- the tuning numbers ------------------------------------------------------------ */
/* NAME=N (decimal, K/M/G) if set and valid, else the fallback; zero_ok: 0 counts. */
static size_t env_size(const char *name, size_t fallback, bool zero_ok)
{
    const char *v = getenv(name);
    if (!v || !*v) return fallback;
    const char *end;
    size_t n = parse_bytes(v, &end);
    bool zero = v[0] == '0' && v[1] == 0;
    return *end == 0 && (n > 0 || (zero && zero_ok)) ? (zero ? 0 : n) : fallback;
}

/* NAME=0|1 sets a verdict; anything else leaves it. */
static void env_flag(const char *name, bool *flag)
{
    size_t a = env_size(name, *flag, true);
    if (a <= 1) *flag = a == 1;
}

static size_t pow2_floor(size_t n)
{
    size_t p = 1;
    while (p <= n / 2) p *= 2;
    return p;
}

void tl_machine_derive(tl_machine *m)
{
    const tl_caches *c = &m->cache;
    size_t l1 = c->l1d.bytes ? c->l1d.bytes : (size_t)32 << 10;
    unsigned ways = c->l1d.ways ? c->l1d.ways : 8;
    m->stream_bytes = c->llc.bytes ? c->llc.bytes / 4 : (size_t)8 << 20;
    m->stream_row_bytes = 4096;
    size_t tile = pow2_floor(l1 / 2);
    m->tile_bytes = tile < 4096 ? 4096 : tile > TL_TILE_BYTES ? TL_TILE_BYTES : tile;
    m->stage_bytes = 512;
    m->way_bytes = l1 / ways;
    m->alias_store_rows = ways;
    /* the costs that follow the CPU's maker more than its caches
     * (docs/engine.md §3, "What the maker changes") */
    m->split_stores = m->vendor == TL_VENDOR_AMD;
    m->slow_permute2 = m->vendor == TL_VENDOR_INTEL;
    m->narrow_512 = m->vendor == TL_VENDOR_AMD && m->family == 0x19;
    /* off for every CPU: two VMs of one Zen 5 model disagreed (RGB u8 ->
     * DirectML f16 at 256 MiB, x the faster copy: plain 0.94-1.01 against
     * streamed 0.67-0.73 on one, 0.71-0.85 against 0.87-1.04 on the
     * other), so the store is the host's, not the CPU's, and a VM that
     * writes faster plainly can say so (TL_PLAIN_ROWS=1, docs/engine.md) */
    m->plain_rows = false;
    /* loads from rows of one set: half the ways, the rest for the other
     * side and the stack; on Intel a block's 16 rows load as fast as rows
     * apart (NCHW -> NHWC u8 C = 64 at 64 x 64, Xeon: 36 GB/s loaded ahead
     * through TL_T2D_SRC_ALIAS, 45-50 without; f32 35 against 41-45) */
    m->alias_rows = m->vendor == TL_VENDOR_INTEL ? 16 : ways / 2 ? ways / 2 : 1;
    /* runs of lines per plane, a machine number: 8 (Zen 3, AVX2); with
     * AVX-512 2 (Zen 5), 4 on Intel (Xeon, NHWC -> NCHW f32 C = 64 at 256
     * MiB: 0.74-0.75x the faster copy with 2, 0.78-0.83 with 4) */
    m->stream_run_lines = m->best_isa != TL_ISA_AVX512 ? 8 : m->vendor == TL_VENDOR_INTEL ? 4 : 2;
    /* a streamed row conversion's step, a machine number: 2048 destination
     * bytes (Zen 4), 512 on Intel (Xeon, 256 MiB, DirectML NHWC f16 <-> RGB
     * u8: into f16 0.77-0.78x the faster copy with 2048, 0.88-0.89 with
     * 512; back 0.62-0.63 and 0.75-0.77, its source read as 3 slices; the
     * steps that read more now take stage_bytes, 512 too: exec.h) */
    m->row_stage_bytes = m->vendor == TL_VENDOR_INTEL ? 512 : 2048;
    /* streams a streamed read-heavy step reads in turn: 3 where one core
     * reads at half its write rate (Xeon: 12.5 against 23.5 GB/s; kCHW32
     * and NC1HWC2 into RGB 0.61-0.68 -> 0.72-0.77x the faster copy), 1 on
     * AMD, whose one stream reads at the copy's rate and whose slices run
     * at 17 to 51 GB/s by their distance in DRAM (Zen 5, 256 MiB, six
     * alternated runs: NC1HWC2 -> RGB 0.55-0.76 -> 0.76-0.85x, kCHW32
     * 0.56-0.74 -> 0.62-0.85, kDLA_HWC4 f16 0.75-0.79 -> 0.82-0.86) */
    m->read_streams = m->vendor == TL_VENDOR_AMD ? 1 : 3;
    /* the overrides (docs/engine.md §3): out-of-range values leave the default */
    m->stream_bytes = env_size("TL_STREAM_BYTES", m->stream_bytes, true);
    size_t t = env_size("TL_TILE_BYTES", m->tile_bytes, false);
    if (t >= 4096 && t <= TL_TILE_BYTES) m->tile_bytes = pow2_floor(t);
    t = env_size("TL_STAGE_BYTES", m->stage_bytes, false);
    if (t >= 64 && t <= TL_STAGE_ALIGN) m->stage_bytes = t;
    t = env_size("TL_ROW_STAGE_BYTES", m->row_stage_bytes, false);
    if (t >= 64 && t <= TL_STAGE_ALIGN) m->row_stage_bytes = t;
    size_t a = env_size("TL_ALIAS_ROWS", m->alias_rows, false);
    if (a <= 1024) m->alias_rows = (unsigned)a;
    a = env_size("TL_ALIAS_STORE_ROWS", m->alias_store_rows, false);
    if (a <= 1024) m->alias_store_rows = (unsigned)a;
    a = env_size("TL_STREAM_RUN", m->stream_run_lines, false);
    if (a <= 8 && (a & (a - 1)) == 0) m->stream_run_lines = (unsigned)a;
    a = env_size("TL_READ_STREAMS", m->read_streams, false);
    if (a <= 16) m->read_streams = (unsigned)a;
    env_flag("TL_SPLIT_STORES", &m->split_stores);
    env_flag("TL_SLOW_PERMUTE2", &m->slow_permute2);
    env_flag("TL_PLAIN_ROWS", &m->plain_rows);
    env_flag("TL_NARROW_512", &m->narrow_512);
}

bool tl_machine_streams(const tl_machine *m, uint64_t src, uint64_t dst)
{
    uint64_t t = m->stream_bytes;
    return dst > t || src / 2 + dst / 2 > t; /* (halves: no overflow) */
}

bool tl_machine_in_l2(const tl_machine *m, uint64_t src, uint64_t dst)
{
    uint64_t l2 = m->cache.l2.bytes;
    return l2 && src <= l2 && dst <= l2 - src;
}

/* The most rows whose first lines fall in one set of a cache whose ways
 * hold `way` bytes, counted row by row: rows a few bytes short of (or past)
 * a multiple of the way share a set too, which a period by the stride's
 * common divisor with the way misses (16380-byte planes, a 63 x 65 f32
 * image: 16 destination rows in one or two L1 sets, NHWC -> NCHW C = 16 at
 * 43 GB/s against 170 for 60 x 60, Zen 5). */
static size_t rows_per_set(size_t way, int64_t stride, size_t rows)
{
    enum { MAX_SETS = 4096 }; /* an L2 of 2 MiB, 8 ways */
    if (way < 64 || rows == 0) return rows ? 1 : 0;
    size_t sets = way / 64 < MAX_SETS ? way / 64 : MAX_SETS;
    size_t s = (size_t)(stride < 0 ? -stride : stride) % way, at = 0, most = 0;
    uint32_t count[MAX_SETS] = {0};
    for (size_t r = 0; r < rows; r++, at = (at + s) % way) {
        size_t n = ++count[at / 64 % sets];
        most = n > most ? n : most;
    }
    return most;
}

size_t tl_machine_rows_per_set(const tl_machine *m, int64_t stride, size_t rows)
{
    return rows_per_set(m->way_bytes, stride, rows);
}

bool tl_machine_rows_share_l2(const tl_machine *m, int64_t stride, size_t rows)
{
    const tl_cache_level *l2 = &m->cache.l2;
    return l2->bytes && l2->ways && rows_per_set(l2->bytes / l2->ways, stride, rows) > l2->ways;
}

bool tl_machine_rows_alias(const tl_machine *m, int64_t stride, size_t rows)
{
    return tl_machine_rows_per_set(m, stride, rows) > m->alias_rows;
}

/* ---- the machine: built once, then read ------------------------------------------ */
/* TL_CPU_DISABLE=vbmi,f16: features to mask off (libyuv's MaskCpuFlags). */
static unsigned env_disabled(void)
{
    const char *v = getenv("TL_CPU_DISABLE");
    if (!v) return 0;
    return (strstr(v, "vbmi") ? TL_FEAT_VBMI : 0u) | (strstr(v, "f16") ? TL_FEAT_F16 : 0u);
}

static void build(tl_machine *m)
{
    memset(m, 0, sizeof *m);
    m->best_isa = detect();
#if defined(TL_X86)
    if (detect_vbmi()) m->feat |= TL_FEAT_VBMI;
    m->vendor = detect_vendor();
    m->family = detect_family();
#endif
    m->feat |= detect_arm_f16();
    m->feat &= ~env_disabled();
    m->default_isa = m->best_isa;
    int want = tl_isa_from_name(getenv("TL_CPU"));
    if (want < TL_ISA_COUNT) {
        while (want > TL_ISA_SCALAR && !tl_isa_includes(m->best_isa, want))
            want = want == TL_ISA_NEON ? TL_ISA_SCALAR : want - 1;
        m->default_isa = want;
    }
    detect_caches(&m->cache);
    tl_machine_derive(m);
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
