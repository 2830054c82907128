/* The thread pool (src/parallel/): every parallel result byte-identical to
 * tl_plan_run, every tile run exactly once, errors from any tile reported on
 * the caller's thread with nothing written, how jobs are cut, nested and
 * concurrent calls, pinning, shutdown, and the fast-core detection on fake
 * sysfs trees (RK3588-like capacities, max frequencies only, nothing).
 * Run under ThreadSanitizer by the tsan CI stage. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/internal.h"
#include "parallel/parallel.h"
#include "tl_test.h"

static int quick(void)
{
    const char *q = getenv("TL_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0;
}

/* ---- byte-identical results ----------------------------------------------------- */
/* Pairs that exercise every executor family: transposes, blocked packs with
 * partial blocks, padded vendor layouts with fill passes, quantization,
 * 4-bit (not sliceable: part 0 does all), NV12 planes, element walks. Big
 * enough (1-6 MiB of work) that 2..8 threads really split them. */
static const char *const k_pairs[][2] = {
    {"NCHW:f32:1x3x480x640", "NHWC:f32:1x480x640x3"},
    {"NHWC:u8:1x480x640x3", "NCHW:u8:1x3x480x640"},
    {"NCHW:f32:1x24x96x128", "NCHW16c:f32:1x24x96x128"},
    {"NCHW16c:i8:2x40x64x64", "NCHW:i8:2x40x64x64"},
    {"NCHW:f32:1x3x480x640", "NHWC:i8:1x480x640x3:q=affine:zp=3:scale=0.02"},
    {"NHWC:u8:1x480x640x3", "tidl:u8:1x3x480x640:pad=1,1,1,1"},
    {"NHWC:u8:1x480x640x3", "trt.dla_hwc4:i8:1x3x480x640"},
    {"NCHW:i8:1x16x256x256:q=affine:zp=-5:scale=0.05", "NHWC:f16:1x256x256x16"},
    {"yuv.nv12:u8:3x480x640", "CHW:u8:3x480x640"},
    {"NCHW:u8:1x4x512x512", "NCHW:u4:1x4x512x512"},
    {"NCHW:f32:1x3x300x301", "NCHW:f32:1x3x300x301:pad=0,0,2,3,0,0,1,5"},
};

static void *filled(size_t n, uint64_t seed)
{
    unsigned char *p = malloc(n ? n : 1);
    if (!p) return NULL;
    uint64_t x = seed | 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        p[i] = (unsigned char)(x >> 24);
    }
    return p;
}

/* Floats are kept in [-10, 10] so conversions see ordinary values too. */
static void tame_floats(const tl_desc *d, void *buf)
{
    if (d->dtype != TL_F32) return;
    float *f = buf;
    for (int64_t i = 0; i < d->size_bytes / 4; i++) f[i] = (float)((int)(i * 7919 % 2001) - 1000) * 0.01f;
}

static void check_identical(const char *from, const char *to, unsigned nthreads)
{
    tl_desc s, d;
    tl_plan *plan = NULL;
    REQUIRE_STATUS(tl_desc_parse(&s, from), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, to), TL_OK);
    REQUIRE_STATUS(tl_plan_create(&plan, &s, &d, 0), TL_OK);
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
    void *src = filled(sl, 42), *one = malloc(dl), *many = malloc(dl);
    REQUIRE(src && one && many);
    tame_floats(&s, src);
    memset(one, 0xA5, dl); /* same sentinel in both: bytes no pass writes must match too */
    memset(many, 0xA5, dl);
    CHECK_STATUS(tl_plan_run(plan, src, sl, one, dl), TL_OK);
    CHECK_STATUS(tl_plan_run_parallel(plan, src, sl, many, dl, nthreads), TL_OK);
    if (memcmp(one, many, dl) != 0) FAILF("%s -> %s with %u threads differs from one thread", from, to, nthreads);
    free(src), free(one), free(many);
    tl_plan_destroy(plan);
}

TL_TEST(identical_to_one_thread)
{
    const unsigned counts[] = {0, 2, 3, 8};
    size_t n = sizeof k_pairs / sizeof k_pairs[0];
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            if (quick() && k > 1) break;
            check_identical(k_pairs[i][0], k_pairs[i][1], counts[k]);
        }
}

/* Small random shapes run inline: still the same bytes. */
TL_TEST(identical_small_random)
{
    tl_rng r = tl_test_rng();
    for (int it = 0; it < (quick() ? 10 : 60); it++) {
        char from[96], to[96];
        long long c = tl_rng_range(&r, 1, 20), h = tl_rng_range(&r, 1, 40), w = tl_rng_range(&r, 1, 40);
        snprintf(from, sizeof from, "NCHW:f32:1x%lldx%lldx%lld", c, h, w);
        snprintf(to, sizeof to, "NHWC8c:u8:1x%lldx%lldx%lld:q=affine:zp=7:scale=0.1", h, w, c);
        check_identical(from, to, (unsigned)tl_rng_range(&r, 0, 8));
    }
}

/* Passes with no free outer loop: a de-interleave into planes with N = 1
 * (NHWC C=3 -> NCHW: the kernel takes exactly 3 channels), a transpose whose
 * outer node is 4 channels, the same with N = 2 (too short to balance 8
 * parts). Parts slice the pixel rows instead: every part count gives the
 * one-thread bytes, each byte written by exactly one part (the 0x00/0xFF
 * trick of image_parts_write_each_byte_once), and the second of two parts
 * really has work. Odd sizes, so slices end mid-vector. */
static const char *const k_fixed_outer[][2] = {
    {"NHWC:f32:1x301x299x3", "NCHW:f32:1x3x301x299"},
    {"NHWC:u8:1x37x41x3", "NCHW:u8:1x3x37x41"},
    {"NHWC:u8:1x97x203x4", "NCHW:f32:1x4x97x203"},
    {"NHWC:f32:2x61x67x3", "NCHW:f32:2x3x61x67"},
    {"NCHW16c:f32:1x16x37x41", "NCHW:f32:1x16x37x41"},
    {"NHWC:f32:1x1001x1003x3", "NCHW:f32:1x3x1001x1003"}, /* 12 MiB: streamed stores, in parts too */
    /* quantized 4 channels at a time (the 4-row form, AVX2 / AVX-512 / NEON): 17
     * pixels are too few to balance 8 parts, yet the parts must not slice the
     * 64 channels into pieces that are not whole groups of 4 */
    {"NCHW:f32:1x64x1x17", "NHWC:i8:1x1x17x64:scale=0.05"},
};

static void check_parts_once(const tl_plan *plan, const void *src, size_t sl, const unsigned char *ref, size_t dl,
                             unsigned nparts, const char *what)
{
    unsigned char *lo = malloc(dl), *hi = malloc(dl), *all = malloc(dl), *times = calloc(dl, 1);
    REQUIRE(lo && hi && all && times);
    size_t by_last = 0;
    for (unsigned part = 0; part < nparts; part++) {
        memset(lo, 0x00, dl), memset(hi, 0xFF, dl);
        CHECK_STATUS(tl_plan_run_part(plan, part, nparts, src, sl, lo, dl), TL_OK);
        CHECK_STATUS(tl_plan_run_part(plan, part, nparts, src, sl, hi, dl), TL_OK);
        for (size_t b = 0; b < dl; b++)
            if (lo[b] == hi[b]) times[b]++, all[b] = lo[b], by_last += part == nparts - 1;
    }
    size_t bad = 0;
    for (size_t b = 0; b < dl; b++) bad += times[b] != 1 || all[b] != ref[b];
    if (bad) FAILF("%s in %u parts: %zu bytes not written exactly once as one run writes them", what, nparts, bad);
    if (nparts > 1 && by_last == 0) FAILF("%s in %u parts: the last part wrote nothing (not split)", what, nparts);
    free(lo), free(hi), free(all), free(times);
}

TL_TEST(fixed_outer_passes_split)
{
    for (size_t i = 0; i < sizeof k_fixed_outer / sizeof k_fixed_outer[0]; i++) {
        tl_desc s, d;
        tl_plan *plan = NULL;
        REQUIRE_STATUS(tl_desc_parse(&s, k_fixed_outer[i][0]), TL_OK);
        REQUIRE_STATUS(tl_desc_parse(&d, k_fixed_outer[i][1]), TL_OK);
        REQUIRE_STATUS(tl_plan_create(&plan, &s, &d, 0), TL_OK);
        size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
        unsigned char *src = filled(sl, 77 + i), *ref = malloc(dl), *many = malloc(dl);
        REQUIRE(src && ref && many);
        tame_floats(&s, src);
        CHECK_STATUS(tl_plan_run(plan, src, sl, ref, dl), TL_OK);
        char what[200];
        snprintf(what, sizeof what, "%s -> %s", k_fixed_outer[i][0], k_fixed_outer[i][1]);
        bool big = dl > ((size_t)8 << 20);
        for (unsigned nparts = 1; nparts <= (big ? 3u : 8u); nparts++) check_parts_once(plan, src, sl, ref, dl, nparts, what);
        if (!big) check_parts_once(plan, src, sl, ref, dl, 61, what); /* more parts than channels x rows of some */
        for (unsigned t = 1; t <= 8; t++) {
            memset(many, 0x5A, dl);
            CHECK_STATUS(tl_plan_run_parallel(plan, src, sl, many, dl, t), TL_OK);
            if (memcmp(ref, many, dl) != 0) FAILF("%s with %u threads differs from one thread", what, t);
        }
        free(src), free(ref), free(many);
        tl_plan_destroy(plan);
    }
}

/* ---- the generic entry: each tile exactly once ----------------------------------------- */
#define COVER_N 100000
typedef struct cover_job {
    atomic_uint hits[COVER_N];
    atomic_uint calls;
    unsigned nparts_seen;
} cover_job;

static tl_status cover_part(void *ctx, unsigned part, unsigned nparts)
{
    cover_job *j = ctx;
    uint64_t b = (uint64_t)COVER_N * part / nparts, e = (uint64_t)COVER_N * (part + 1) / nparts;
    for (uint64_t i = b; i < e; i++) atomic_fetch_add(&j->hits[i], 1u);
    atomic_fetch_add(&j->calls, 1u);
    return TL_OK;
}

TL_TEST(every_tile_once)
{
    static cover_job j;
    const uint64_t works[] = {0, 1000, (uint64_t)1 << 20, (uint64_t)64 << 20};
    const unsigned counts[] = {1, 2, 5, 8, TL_PARALLEL_MAX_THREADS};
    for (size_t w = 0; w < 4; w++)
        for (size_t k = 0; k < 5; k++) {
            memset(&j, 0, sizeof j);
            unsigned threads, tiles;
            tl_par_split(works[w], tl_par_threads(counts[k]), &threads, &tiles);
            REQUIRE_STATUS(tl_par_run(cover_part, &j, works[w], counts[k]), TL_OK);
            CHECK_EQ_I64(atomic_load(&j.calls), threads > 1 ? tiles : 1);
            for (int i = 0; i < COVER_N; i++)
                if (atomic_load(&j.hits[i]) != 1) {
                    FAILF("work %llu, %u threads: element %d written %u times", (unsigned long long)works[w],
                          counts[k], i, atomic_load(&j.hits[i]));
                    break;
                }
        }
}

/* All the work in part 0 (a plan pass that cannot be split): still each
 * element once, whether the pool notices (no wake-ups) or not. */
static tl_status part0_only(void *ctx, unsigned part, unsigned nparts)
{
    cover_job *j = ctx;
    if (part == 0) return cover_part(ctx, 0, 1);
    (void)nparts;
    atomic_fetch_add(&j->calls, 1u);
    return TL_OK;
}

TL_TEST(unsplittable_job)
{
    static cover_job j;
    const uint64_t works[] = {(uint64_t)4 << 20, (uint64_t)64 << 20, (uint64_t)1 << 40};
    for (size_t w = 0; w < 3; w++) {
        memset(&j, 0, sizeof j);
        unsigned threads, tiles;
        tl_par_split(works[w], tl_par_threads(4), &threads, &tiles);
        REQUIRE_STATUS(tl_par_run(part0_only, &j, works[w], 4), TL_OK);
        CHECK_EQ_I64(atomic_load(&j.calls), tiles);
        for (int i = 0; i < COVER_N; i++)
            if (atomic_load(&j.hits[i]) != 1) {
                FAILF("work %llu: element %d written %u times", (unsigned long long)works[w], i,
                      atomic_load(&j.hits[i]));
                break;
            }
    }
}

/* Dynamic tiles: a thread that runs slowly (here: every worker tile takes
 * 20 ms, as on a LITTLE core or a busy one) takes few tiles; the caller's
 * thread (2 ms a tile) takes the rest instead of stopping at a fixed half. */
typedef struct speed_job {
    pthread_t caller;
    atomic_uint by_caller, by_workers;
} speed_job;

static tl_status uneven_part(void *ctx, unsigned part, unsigned nparts)
{
    speed_job *j = ctx;
    (void)part, (void)nparts;
    int caller = pthread_equal(pthread_self(), j->caller);
    struct timespec ts = {0, caller ? 2000000 : 20000000};
    nanosleep(&ts, NULL);
    atomic_fetch_add(caller ? &j->by_caller : &j->by_workers, 1u);
    return TL_OK;
}

TL_TEST(slow_thread_takes_fewer_tiles)
{
    speed_job j;
    j.caller = pthread_self();
    atomic_init(&j.by_caller, 0u);
    atomic_init(&j.by_workers, 0u);
    unsigned threads, tiles;
    tl_par_split((uint64_t)1 << 30, tl_par_threads(2), &threads, &tiles);
    REQUIRE_STATUS(tl_par_run(uneven_part, &j, (uint64_t)1 << 30, 2), TL_OK);
    unsigned c = atomic_load(&j.by_caller), w = atomic_load(&j.by_workers);
    CHECK_EQ_I64(c + w, tiles);
    if (c <= tiles / 2) FAILF("the fast thread took %u of %u tiles, the slow one %u", c, tiles, w);
    printf("slow_thread_takes_fewer_tiles: caller %u tiles, slow worker %u\n", c, w);
}

/* A worker made for a job joins that job: the caller's tiles wait (up to 10 s)
 * until some tile runs on another thread. A fresh pool each time. */
typedef struct join_job {
    pthread_t caller;
    atomic_int other_ran;
} join_job;

static tl_status wait_for_other(void *ctx, unsigned part, unsigned nparts)
{
    join_job *j = ctx;
    (void)part, (void)nparts;
    if (!pthread_equal(pthread_self(), j->caller)) {
        atomic_store(&j->other_ran, 1);
        return TL_OK;
    }
    for (int i = 0; i < 10000 && !atomic_load(&j->other_ran); i++) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
    return atomic_load(&j->other_ran) ? TL_OK : tl_fail(TL_ERR_UNSUPPORTED, "no worker joined in 10 s");
}

TL_TEST(new_worker_joins_its_job)
{
    for (int round = 0; round < 3; round++) {
        tl_parallel_shutdown();
        join_job j;
        j.caller = pthread_self();
        atomic_init(&j.other_ran, 0);
        CHECK_STATUS(tl_par_run(wait_for_other, &j, (uint64_t)1 << 30, 2), TL_OK);
    }
}

TL_TEST(split_policy)
{
    unsigned t, n;
    tl_par_split(0, 8, &t, &n); /* nothing to do: inline */
    CHECK(t == 1 && n == 1);
    tl_par_split(TL_PAR_MIN_THREAD_BYTES * 2 - 1, 8, &t, &n); /* not worth a second thread */
    CHECK(t == 1 && n == 1);
    tl_par_split(TL_PAR_MIN_THREAD_BYTES * 2, 8, &t, &n); /* exactly two threads' worth */
    CHECK_EQ_I64(t, 2);
    uint64_t by_size = TL_PAR_MIN_THREAD_BYTES * 2 / TL_PAR_MIN_TILE_BYTES; /* tiles of at least the minimum */
    CHECK_EQ_I64(n, by_size < 2 * TL_PAR_TILES_PER_THREAD ? by_size : 2 * TL_PAR_TILES_PER_THREAD);
    tl_par_split(TL_PAR_MIN_TILE_BYTES * 3, 1000, &t, &n); /* 3 tiles' worth, many threads asked: one */
    CHECK(t == 1 && n == 1);
    tl_par_split((uint64_t)256 << 20, 2, &t, &n); /* big: the threads asked, 8 tiles each */
    CHECK(t == 2 && n == 2 * TL_PAR_TILES_PER_THREAD);
    tl_par_split((uint64_t)256 << 20, 1, &t, &n);
    CHECK(t == 1 && n == 1);
    tl_par_split(UINT64_MAX, TL_PARALLEL_MAX_THREADS, &t, &n);
    CHECK(t == TL_PARALLEL_MAX_THREADS && n == TL_PARALLEL_MAX_THREADS * TL_PAR_TILES_PER_THREAD);
    tl_par_split_tiles((uint64_t)256 << 20, 2, 8, &t, &n); /* a job that wants fewer, larger tiles */
    CHECK(t == 2 && n == 16);
    /* threads: never more than the cores the process may run on */
    tl_cpuset allowed;
    tl_par_allowed_cpus(&allowed);
    unsigned cores = tl_cpuset_count(&allowed);
    CHECK_EQ_I64(tl_par_threads(1), 1);
    CHECK_EQ_I64(tl_par_threads(1000), cores);
    CHECK_EQ_I64(tl_par_threads(2), cores < 2 ? cores : 2);
    CHECK(tl_par_threads(0) >= 1 && tl_par_threads(0) <= cores);
}

/* ---- errors --------------------------------------------------------------------------- */
static unsigned g_fail_first; /* 1: tile 0 fails (the one the caller runs first) */

static tl_status fail_part(void *ctx, unsigned part, unsigned nparts)
{
    atomic_uint *ran = ctx;
    atomic_fetch_add(ran, 1u);
    if (part == (g_fail_first ? 0 : nparts / 2))
        return tl_fail(TL_ERR_VENDOR, "tile %u of %u broke a rule (test)", part, nparts);
    return TL_OK;
}

TL_TEST(tile_error_reaches_caller)
{
    unsigned threads, tiles;
    tl_par_split((uint64_t)64 << 20, tl_par_threads(4), &threads, &tiles);
    for (g_fail_first = 0; g_fail_first < 2; g_fail_first++) {
        atomic_uint ran;
        atomic_init(&ran, 0u);
        tl_status s = tl_par_run(fail_part, &ran, (uint64_t)64 << 20, 4);
        CHECK_STATUS(s, TL_ERR_VENDOR);
        CHECK_STR_CONTAINS(tl_last_error(), "broke a rule (test)");
        CHECK_EQ_I64(atomic_load(&ran), threads > 1 ? tiles : 1); /* every tile still ran */
    }
    /* the next successful call clears the message */
    static cover_job j;
    memset(&j, 0, sizeof j);
    CHECK_STATUS(tl_par_run(cover_part, &j, (uint64_t)64 << 20, 4), TL_OK);
    CHECK_STR_EQ(tl_last_error(), "");
}

TL_TEST(bad_calls_write_nothing)
{
    tl_desc s, d;
    tl_plan *plan = NULL;
    REQUIRE_STATUS(tl_desc_parse(&s, "NCHW:f32:1x3x480x640"), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, "NHWC:f32:1x480x640x3"), TL_OK);
    REQUIRE_STATUS(tl_plan_create(&plan, &s, &d, 0), TL_OK);
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
    unsigned char *src = filled(sl, 1), *dst = malloc(dl), *ref = malloc(dl);
    REQUIRE(src && dst && ref);
    memset(dst, 0x5A, dl);
    memcpy(ref, dst, dl);
    for (unsigned nt = 0; nt <= 4; nt += 2) {
        /* one byte short, on the parallel path (the work is large) */
        CHECK_STATUS(tl_plan_run_parallel(plan, src, sl, dst, dl - 1, nt), TL_ERR_BUFFER_SMALL);
        CHECK_STR_CONTAINS(tl_last_error(), "dst_len=");
        CHECK_STATUS(tl_plan_run_parallel(plan, src, sl - 1, dst, dl, nt), TL_ERR_BUFFER_SMALL);
        CHECK_STR_CONTAINS(tl_last_error(), "src_len=");
        CHECK_STATUS(tl_plan_run_parallel(plan, NULL, sl, dst, dl, nt), TL_ERR_NULL);
        CHECK_STATUS(tl_plan_run_parallel(NULL, src, sl, dst, dl, nt), TL_ERR_NULL);
        CHECK_STR_CONTAINS(tl_last_error(), "plan is NULL");
        CHECK_MEM_EQ(dst, ref, dl);
    }
    CHECK_STATUS(tl_plan_run_parallel(plan, src, sl, dst, dl, TL_PARALLEL_MAX_THREADS + 1), TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "nthreads=65 > 64");
    CHECK_MEM_EQ(dst, ref, dl);
    CHECK_STATUS(tl_parallel_set_flags(2), TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "unknown bits 0x2");
    free(src), free(dst), free(ref);
    tl_plan_destroy(plan);
}

/* ---- nesting, concurrency, pinning, shutdown ---------------------------------------------- */
static tl_status nested_part(void *ctx, unsigned part, unsigned nparts)
{
    (void)part, (void)nparts;
    static cover_job inner[64]; /* one per tile: tiles run concurrently */
    cover_job *j = &inner[part % 64];
    memset(j, 0, sizeof *j);
    tl_status s = tl_par_run(cover_part, j, (uint64_t)64 << 20, 4); /* the pool is busy: inline */
    if (s == TL_OK && atomic_load(&j->calls) != 1) s = tl_fail(TL_ERR_UNSUPPORTED, "nested call was not inline");
    atomic_fetch_add((atomic_uint *)ctx, 1u);
    return s;
}

TL_TEST(nested_call_runs_inline)
{
    atomic_uint n;
    atomic_init(&n, 0u);
    CHECK_STATUS(tl_par_run(nested_part, &n, (uint64_t)4 << 20, 2), TL_OK); /* 8 tiles of 512 KiB */
    CHECK(atomic_load(&n) >= 2);
}

typedef struct caller_arg {
    int id;
    int bad;
} caller_arg;

static void *caller_main(void *p)
{
    caller_arg *a = p;
    tl_desc s, d;
    tl_plan *plan = NULL;
    a->bad = 1;
    if (tl_desc_parse(&s, "NHWC:u8:1x240x320x3") || tl_desc_parse(&d, "NCHW16c:u8:1x3x240x320") ||
        tl_plan_create(&plan, &s, &d, 0))
        return NULL;
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
    unsigned char *src = filled(sl, (uint64_t)a->id + 9), *one = calloc(dl, 1), *many = calloc(dl, 1);
    if (src && one && many && tl_plan_run(plan, src, sl, one, dl) == TL_OK) {
        a->bad = 0;
        for (int r = 0; r < (quick() ? 2 : 10) && !a->bad; r++)
            a->bad = tl_plan_run_parallel(plan, src, sl, many, dl, 2) != TL_OK || memcmp(one, many, dl) != 0;
    }
    free(src), free(one), free(many);
    tl_plan_destroy(plan);
    return NULL;
}

TL_TEST(concurrent_callers)
{
    enum { N = 4 };
    pthread_t th[N];
    caller_arg a[N];
    int started = 0;
    for (int i = 0; i < N; i++) {
        a[i].id = i;
        if (pthread_create(&th[i], NULL, caller_main, &a[i]) != 0) break;
        started++;
    }
    for (int i = 0; i < started; i++) pthread_join(th[i], NULL);
    CHECK_EQ_I64(started, N);
    for (int i = 0; i < started; i++)
        if (a[i].bad) FAILF("caller %d: a parallel run failed or differed", i);
}

TL_TEST(pinning_and_shutdown)
{
    CHECK(tl_parallel_default_threads() >= 1);
    CHECK(tl_parallel_default_threads() <= TL_PARALLEL_MAX_THREADS);
    REQUIRE_STATUS(tl_parallel_set_flags(TL_PARALLEL_PIN), TL_OK);
    check_identical(k_pairs[0][0], k_pairs[0][1], 2);
    REQUIRE_STATUS(tl_parallel_set_flags(0), TL_OK);
    check_identical(k_pairs[1][0], k_pairs[1][1], 2);
    tl_parallel_shutdown();
    tl_parallel_shutdown(); /* twice is harmless */
    check_identical(k_pairs[2][0], k_pairs[2][1], 2); /* a new pool */
}

/* ThreadSanitizer kills a child that starts threads after a multi-threaded fork. */
#if defined(__SANITIZE_THREAD__)
#define TL_UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TL_UNDER_TSAN 1
#endif
#endif

/* A forked child has no workers: it makes its own pool, and the results hold. */
TL_TEST(after_fork)
{
#if defined(TL_UNDER_TSAN)
    printf("after_fork: skipped under ThreadSanitizer (no threads after a multi-threaded fork)\n");
    return;
#endif
    check_identical(k_pairs[0][0], k_pairs[0][1], 2); /* the parent's pool exists */
    fflush(NULL);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        check_identical(k_pairs[1][0], k_pairs[1][1], 2);
        tl_parallel_shutdown(); /* the child's own pool */
        _exit(TL_TEST_FAILURES() ? 1 : 0);
    }
    int st = 0;
    REQUIRE(waitpid(pid, &st, 0) == pid);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    check_identical(k_pairs[2][0], k_pairs[2][1], 2); /* the parent's pool still works */
}

/* ---- fast cores from (fake) sysfs ------------------------------------------------------- */
static void put(const char *root, unsigned cpu, const char *leaf, unsigned long v)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cpu%u", root, cpu);
    mkdir(path, 0700);
    if (strchr(leaf, '/')) {
        snprintf(path, sizeof path, "%s/cpu%u/cpufreq", root, cpu);
        mkdir(path, 0700);
    }
    snprintf(path, sizeof path, "%s/cpu%u/%s", root, cpu, leaf);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%lu\n", v);
        fclose(f);
    }
}

static tl_cpuset cpus_of(unsigned lo, unsigned hi)
{
    tl_cpuset s;
    memset(&s, 0, sizeof s);
    for (unsigned c = lo; c <= hi; c++) tl_cpuset_add(&s, c);
    return s;
}

TL_TEST(fast_cores_from_sysfs)
{
    char root[] = "/tmp/tl_par_sysfs_XXXXXX";
    REQUIRE(mkdtemp(root) != NULL);
    tl_cpuset all = cpus_of(0, 7), fast;
    int src = -1;
    /* nothing there: every allowed core */
    CHECK_EQ_I64(tl_par_fast_cpus(root, &all, &fast, &src), 8);
    CHECK_EQ_I64(src, TL_PAR_SRC_ALL);
    /* only max frequencies (A55 1.8 GHz, A76 2.4/2.256 GHz): the A76s */
    for (unsigned c = 0; c < 8; c++)
        put(root, c, "cpufreq/cpuinfo_max_freq", c < 4 ? 1800000ul : c < 6 ? 2400000ul : 2256000ul);
    CHECK_EQ_I64(tl_par_fast_cpus(root, &all, &fast, &src), 4);
    CHECK_EQ_I64(src, TL_PAR_SRC_MAXFREQ);
    CHECK(tl_cpuset_has(&fast, 4) && tl_cpuset_has(&fast, 7) && !tl_cpuset_has(&fast, 3));
    /* RK3588 capacities: A55 414, A76 1024 and 962 (two bins): capacity wins */
    for (unsigned c = 0; c < 8; c++) put(root, c, "cpu_capacity", c < 4 ? 414ul : c < 6 ? 1024ul : 962ul);
    CHECK_EQ_I64(tl_par_fast_cpus(root, &all, &fast, &src), 4);
    CHECK_EQ_I64(src, TL_PAR_SRC_CAPACITY);
    CHECK(!tl_cpuset_has(&fast, 0) && tl_cpuset_has(&fast, 5) && tl_cpuset_has(&fast, 6));
    /* an affinity mask without cpu4-5 (taskset): the other two big cores */
    tl_cpuset some = cpus_of(0, 3);
    tl_cpuset_add(&some, 6);
    tl_cpuset_add(&some, 7);
    CHECK_EQ_I64(tl_par_fast_cpus(root, &some, &fast, &src), 2);
    CHECK(tl_cpuset_has(&fast, 6) && tl_cpuset_has(&fast, 7) && !tl_cpuset_has(&fast, 4));
    /* only LITTLE cores allowed: they are the fastest there are */
    tl_cpuset little = cpus_of(0, 3);
    CHECK_EQ_I64(tl_par_fast_cpus(root, &little, &fast, &src), 4);
    /* a core without cpu_capacity: the table is partial, fall back to frequencies */
    tl_cpuset nine = cpus_of(0, 8);
    put(root, 8, "cpufreq/cpuinfo_max_freq", 2400000ul);
    CHECK_EQ_I64(tl_par_fast_cpus(root, &nine, &fast, &src), 5);
    CHECK_EQ_I64(src, TL_PAR_SRC_MAXFREQ);
    /* an empty mask */
    tl_cpuset none;
    memset(&none, 0, sizeof none);
    CHECK_EQ_I64(tl_par_fast_cpus(root, &none, &fast, &src), 0);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    CHECK(system(cmd) == 0);
}

TL_TEST(allowed_cores)
{
    tl_cpuset a;
    tl_par_allowed_cpus(&a);
    CHECK(tl_cpuset_count(&a) >= 1);
    unsigned n;
    const tl_cpuset *fast = tl_par_machine_fast(&n);
    CHECK(n >= 1 && n == tl_cpuset_count(fast));
    for (unsigned c = 0; c < TL_PAR_MAX_CPUS; c++)
        if (tl_cpuset_has(fast, c) && !tl_cpuset_has(&a, c)) FAILF("fast core %u is not allowed", c);
}

/* ---- image plans and argmax on the pool ------------------------------------------------- */
/* A 1080p NV12 frame into model inputs of several kinds: 4-12 MiB of work,
 * so 2..8 threads really cut it into bands of rows. */
typedef struct image_case {
    const char *to;
    int fit, mode, order;
    float mean, std;
} image_case;
static const image_case k_images[] = {
    {"NHWC:u8:1x640x640x3", TL_IMAGE_LETTERBOX, TL_IMAGE_EXACT, TL_IMAGE_RGB, 0.f, 1.f},
    {"NCHW:f32:1x3x640x640", TL_IMAGE_LETTERBOX, TL_IMAGE_EXACT, TL_IMAGE_BGR, 123.5f, 58.25f},
    {"rknn.nc1hwc2:i8:1x1x416x416x16:c=3:zp=-128:scale=1", TL_IMAGE_LETTERBOX, TL_IMAGE_EXACT, TL_IMAGE_RGB, 0.f, 1.f},
    {"tidl:u8:1x3x480x480:pad=1,1,1,1", TL_IMAGE_STRETCH, TL_IMAGE_EXACT, TL_IMAGE_RGB, 0.f, 1.f},
    {"NHWC:u8:1x640x640x3", TL_IMAGE_LETTERBOX, TL_IMAGE_FAST, TL_IMAGE_RGB, 0.f, 1.f},
    /* padding on N too: a dim the row bands do not cover */
    {"NCHW:u8:1x3x640x640:pad=0,1,0,0,2,2,0,8", TL_IMAGE_LETTERBOX, TL_IMAGE_EXACT, TL_IMAGE_RGB, 0.f, 1.f},
};

static tl_image_plan *image_plan(const image_case *c, tl_desc *s, tl_desc *d)
{
    tl_image_params p;
    tl_image_params_init(&p);
    p.fit = c->fit, p.mode = c->mode, p.order = c->order;
    for (int k = 0; k < 3; k++) p.mean[k] = c->mean, p.std[k] = c->std;
    tl_image_plan *plan = NULL;
    if (tl_desc_parse(s, "yuv.nv12:u8:3x1080x1920") != TL_OK || tl_desc_parse(d, c->to) != TL_OK ||
        tl_image_plan_create(&plan, s, d, &p) != TL_OK)
        FAILF("image plan for %s: %s", c->to, tl_last_error());
    return plan;
}

TL_TEST(image_identical_to_one_thread)
{
    const unsigned counts[] = {0, 2, 3, 8};
    for (size_t i = 0; i < sizeof k_images / sizeof k_images[0]; i++) {
        tl_desc s, d;
        tl_image_plan *plan = image_plan(&k_images[i], &s, &d);
        REQUIRE(plan);
        size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
        unsigned char *src = filled(sl, 7 + i), *one = malloc(dl), *many = malloc(dl);
        REQUIRE(src && one && many);
        memset(one, 0xA5, dl);
        CHECK_STATUS(tl_image_plan_run(plan, src, sl, one, dl), TL_OK);
        for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
            if (quick() && k > 1) break;
            memset(many, 0x5A, dl); /* a different sentinel: every byte must be written */
            CHECK_STATUS(tl_image_plan_run_parallel(plan, src, sl, many, dl, counts[k]), TL_OK);
            if (memcmp(one, many, dl) != 0)
                FAILF("image -> %s with %u threads differs from one thread", k_images[i].to, counts[k]);
        }
        free(src), free(one), free(many);
        tl_image_plan_destroy(plan);
    }
}

/* tl_image_plan_run_part's promise to callers with their own threads: the
 * parts write every destination byte exactly once. A byte a part writes ends
 * the same in a 0x00 and a 0xFF buffer; one it leaves differs. */
TL_TEST(image_parts_write_each_byte_once)
{
    const unsigned nparts = 3;
    for (size_t i = 0; i < sizeof k_images / sizeof k_images[0]; i++) {
        tl_desc s, d;
        tl_image_plan *plan = image_plan(&k_images[i], &s, &d);
        REQUIRE(plan);
        size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
        unsigned char *src = filled(sl, 21 + i), *lo = malloc(dl), *hi = malloc(dl), *all = malloc(dl),
                      *ref = malloc(dl), *times = calloc(dl, 1);
        REQUIRE(src && lo && hi && all && ref && times);
        CHECK_STATUS(tl_image_plan_run(plan, src, sl, ref, dl), TL_OK);
        for (unsigned part = 0; part < nparts; part++) {
            memset(lo, 0x00, dl), memset(hi, 0xFF, dl);
            CHECK_STATUS(tl_image_plan_run_part(plan, part, nparts, src, sl, lo, dl), TL_OK);
            CHECK_STATUS(tl_image_plan_run_part(plan, part, nparts, src, sl, hi, dl), TL_OK);
            for (size_t b = 0; b < dl; b++)
                if (lo[b] == hi[b]) times[b]++, all[b] = lo[b];
        }
        size_t bad = 0;
        for (size_t b = 0; b < dl; b++) bad += times[b] != 1 || all[b] != ref[b];
        if (bad) FAILF("image -> %s in %u parts: %zu bytes not written exactly once as one run writes them",
                       k_images[i].to, nparts, bad);
        free(src), free(lo), free(hi), free(all), free(ref), free(times);
        tl_image_plan_destroy(plan);
    }
}

TL_TEST(image_bad_calls_write_nothing)
{
    tl_desc s, d;
    tl_image_plan *plan = image_plan(&k_images[1], &s, &d);
    REQUIRE(plan);
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
    unsigned char *src = filled(sl, 3), *dst = malloc(dl), *ref = malloc(dl);
    REQUIRE(src && dst && ref);
    memset(dst, 0x5A, dl);
    memcpy(ref, dst, dl);
    for (unsigned nt = 0; nt <= 4; nt += 2) {
        CHECK_STATUS(tl_image_plan_run_parallel(plan, src, sl, dst, dl - 1, nt), TL_ERR_BUFFER_SMALL);
        CHECK_STR_CONTAINS(tl_last_error(), "destination buffer of");
        CHECK_STATUS(tl_image_plan_run_parallel(plan, src, sl - 1, dst, dl, nt), TL_ERR_BUFFER_SMALL);
        CHECK_STR_CONTAINS(tl_last_error(), "source buffer of");
        CHECK_STATUS(tl_image_plan_run_parallel(plan, NULL, sl, dst, dl, nt), TL_ERR_NULL);
        CHECK_STATUS(tl_image_plan_run_parallel(NULL, src, sl, dst, dl, nt), TL_ERR_NULL);
        CHECK_MEM_EQ(dst, ref, dl);
    }
    CHECK_STATUS(tl_image_plan_run_parallel(plan, src, sl, dst, dl, TL_PARALLEL_MAX_THREADS + 1), TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "nthreads=65 > 64");
    CHECK_MEM_EQ(dst, ref, dl);
    free(src), free(dst), free(ref);
    tl_image_plan_destroy(plan);
}

/* Segmentation logits (DeepLab: 21 classes at 65 x 65) upsampled to label maps,
 * every resize and label type, batch 2 so bands cross items. */
TL_TEST(argmax_identical_to_one_thread)
{
    static const char *const logits[] = {
        "NCHW:i8:2x21x65x65:q=affine:zp=-3:scale=0.125",     /* linear codes: the integer blend */
        "NHWC:u8:2x65x65x21:q=affine:zp=128:scale=0.1",      /* not exactly linear: double blend */
        "NCHW:i16:2x21x65x65:q=affine:zp=0:scale=0.001",  /* 16-bit codes, not the byte path */
    };
    static const tl_resize resizes[] = {TL_RESIZE_BILINEAR, TL_RESIZE_NEAREST, TL_RESIZE_NONE};
    const unsigned counts[] = {0, 2, 3, 8};
    for (size_t i = 0; i < sizeof logits / sizeof logits[0]; i++) {
        tl_desc d;
        REQUIRE_STATUS(tl_desc_parse(&d, logits[i]), TL_OK);
        size_t len = (size_t)d.size_bytes;
        void *buf = filled(len, 11 + i);
        REQUIRE(buf);
        tame_floats(&d, buf);
        for (size_t r = 0; r < 3; r++)
            for (int type = TL_LABEL_I32; type <= TL_LABEL_U8; type++) {
                int64_t oh = resizes[r] == TL_RESIZE_NONE ? 0 : 513, ow = oh;
                size_t ll = (size_t)2 * 513 * 513 * (type == TL_LABEL_I32 ? 4 : 1);
                unsigned char *one = malloc(ll), *many = malloc(ll);
                REQUIRE(one && many);
                memset(one, 0xA5, ll);
                CHECK_STATUS(tl_argmax(&d, buf, len, resizes[r], oh, ow, (tl_label_type)type, one, ll), TL_OK);
                for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
                    if (quick() && k > 1) break;
                    memset(many, 0xA5, ll);
                    CHECK_STATUS(tl_argmax_parallel(&d, buf, len, resizes[r], oh, ow, (tl_label_type)type, many, ll,
                                                    counts[k]),
                                 TL_OK);
                    if (memcmp(one, many, ll) != 0)
                        FAILF("argmax %s resize %d type %d with %u threads differs", logits[i], (int)resizes[r],
                              type, counts[k]);
                }
                free(one), free(many);
            }
        free(buf);
    }
}

TL_TEST(argmax_bad_calls_write_nothing)
{
    tl_desc d;
    REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:i8:1x21x65x65:q=affine:zp=0:scale=0.5"), TL_OK);
    size_t len = (size_t)d.size_bytes, ll = (size_t)513 * 513 * 4;
    void *buf = filled(len, 5);
    unsigned char *labels = malloc(ll), *ref = malloc(ll);
    REQUIRE(buf && labels && ref);
    memset(labels, 0x5A, ll);
    memcpy(ref, labels, ll);
    CHECK_STATUS(tl_argmax_parallel(&d, buf, len, TL_RESIZE_BILINEAR, 513, 513, TL_LABEL_I32, labels, ll - 1, 2),
                 TL_ERR_BUFFER_SMALL);
    CHECK_STR_CONTAINS(tl_last_error(), "len_labels=");
    CHECK_STATUS(tl_argmax_parallel(&d, buf, len, TL_RESIZE_BILINEAR, 513, 513, TL_LABEL_I32, labels, ll,
                                    TL_PARALLEL_MAX_THREADS + 1),
                 TL_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(tl_last_error(), "nthreads=65");
    CHECK_STATUS(tl_argmax_parallel(&d, buf, len - 1, TL_RESIZE_BILINEAR, 513, 513, TL_LABEL_I32, labels, ll, 2),
                 TL_ERR_BUFFER_SMALL);
    CHECK_STATUS(tl_argmax_parallel(&d, NULL, len, TL_RESIZE_BILINEAR, 513, 513, TL_LABEL_I32, labels, ll, 2),
                 TL_ERR_NULL);
    CHECK_MEM_EQ(labels, ref, ll);
    free(buf), free(labels), free(ref);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    TL_RUN(identical_to_one_thread);
    TL_RUN(identical_small_random);
    TL_RUN(fixed_outer_passes_split);
    TL_RUN(every_tile_once);
    TL_RUN(unsplittable_job);
    TL_RUN(slow_thread_takes_fewer_tiles);
    TL_RUN(new_worker_joins_its_job);
    TL_RUN(split_policy);
    TL_RUN(tile_error_reaches_caller);
    TL_RUN(bad_calls_write_nothing);
    TL_RUN(nested_call_runs_inline);
    TL_RUN(concurrent_callers);
    TL_RUN(pinning_and_shutdown);
    TL_RUN(after_fork);
    TL_RUN(fast_cores_from_sysfs);
    TL_RUN(allowed_cores);
    TL_RUN(image_identical_to_one_thread);
    TL_RUN(image_parts_write_each_byte_once);
    TL_RUN(image_bad_calls_write_nothing);
    TL_RUN(argmax_identical_to_one_thread);
    TL_RUN(argmax_bad_calls_write_nothing);
    int rc = tl_test_finish();
    tl_parallel_shutdown(); /* leak checkers see no live workers */
    return rc;
}
