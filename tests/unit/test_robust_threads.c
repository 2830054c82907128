/* Concurrency: tl_last_error is per thread, and one plan serves many threads.
 * Run under ThreadSanitizer by the tsan CI stage (any data race fails it);
 * here the checks are on results: each thread's error text survives the other
 * threads' errors, and every thread's output equals the single-threaded
 * reference bit for bit. TL_TEST_QUICK=1 (qemu, valgrind) does fewer rounds. */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tl_test.h"

#define NTHREADS 8

static int rounds(int full)
{
    const char *q = getenv("TL_TEST_QUICK");
    return q && *q && strcmp(q, "0") != 0 ? full / 10 : full;
}

/* Start all threads, wait for all; returns the number that failed. */
static int run_threads(void *(*fn)(void *), void *args, size_t arg_size)
{
    pthread_t th[NTHREADS];
    int started = 0, failed = 0;
    for (int i = 0; i < NTHREADS; i++) {
        if (pthread_create(&th[i], NULL, fn, (char *)args + (size_t)i * arg_size) != 0) break;
        started++;
    }
    for (int i = 0; i < started; i++) {
        void *ret = NULL;
        pthread_join(th[i], &ret);
        if (ret != NULL) failed++;
    }
    if (started != NTHREADS) {
        FAILF("only %d of %d threads started", started, NTHREADS);
        failed++;
    }
    return failed;
}

/* ---- tl_last_error ---------------------------------------------------------- */
typedef struct err_arg {
    int id, n;
    pthread_barrier_t *barrier;
    char first_bad[256]; /* what went wrong, for the report */
} err_arg;

static void *error_worker(void *p)
{
    err_arg *a = p;
    char spec[64], want[48];
    /* a dim unique to this thread: the message names it ("dims[2]=-1003") */
    snprintf(spec, sizeof spec, "NCHW:f32:1x2x-%dx4", 1000 + a->id);
    snprintf(want, sizeof want, "=-%d", 1000 + a->id);
    pthread_barrier_wait(a->barrier);
    for (int r = 0; r < a->n; r++) {
        tl_desc d;
        tl_status s = tl_desc_parse(&d, spec);
        const char *e1 = tl_last_error();
        if (s != TL_ERR_DIM || !strstr(e1, want)) {
            snprintf(a->first_bad, sizeof a->first_bad, "round %d: %s \"%s\"", r, tl_status_str(s), e1);
            return a;
        }
        /* other threads fail meanwhile; our text must not change */
        for (volatile int spin = 0; spin < 50; spin++) {}
        if (!strstr(tl_last_error(), want)) {
            snprintf(a->first_bad, sizeof a->first_bad, "round %d: error became \"%s\"", r, tl_last_error());
            return a;
        }
        /* success clears this thread's detail only */
        if (r % 7 == 0) {
            if (tl_desc_parse(&d, "NCHW:f32:1x2x3x4") != TL_OK || tl_last_error()[0] != '\0') {
                snprintf(a->first_bad, sizeof a->first_bad, "round %d: success left \"%s\"", r, tl_last_error());
                return a;
            }
        }
    }
    return NULL;
}

TL_TEST(last_error_is_per_thread)
{
    pthread_barrier_t barrier;
    err_arg args[NTHREADS];
    REQUIRE(pthread_barrier_init(&barrier, NULL, NTHREADS) == 0);
    for (int i = 0; i < NTHREADS; i++) {
        memset(&args[i], 0, sizeof args[i]);
        args[i].id = i;
        args[i].n = rounds(20000);
        args[i].barrier = &barrier;
    }
    run_threads(error_worker, args, sizeof args[0]);
    for (int i = 0; i < NTHREADS; i++)
        if (args[i].first_bad[0]) FAILF("thread %d: %s", i, args[i].first_bad);
    pthread_barrier_destroy(&barrier);
    /* the main thread's own error is untouched by all of that */
    tl_desc d;
    CHECK_STATUS(tl_desc_parse(&d, "NCHW:f32:1x2x3"), TL_ERR_SPEC_VALUE);
    CHECK_STR_CONTAINS(tl_last_error(), "NCHW");
}

/* ---- one plan, many threads -------------------------------------------------- */
typedef struct plan_job {
    const char *from, *to;
} plan_job;

/* blocked, padded, quantized, transposed, sub-byte: different kernels */
static const plan_job jobs[] = {
    {"NCHW:f32:2x19x13x21", "NCHW16c:f16:2x19x13x21"},
    {"NHWC:u8:1x31x17x3", "NCHW:f32:1x3x31x17:pad=0,0,1,2,0,0,1,2"},
    {"NCHW:f32:1x5x8x9", "NHWC8c:i8:1x8x9x5:scale=0.05:zp=3"},
    {"NCHW:u8:1x3x33x65", "NCHW:u4:1x3x33x65"},
    {"nChw16c:f32:1x40x6x7", "nhwc:bf16:1x40x6x7"},
};

typedef struct plan_arg {
    const tl_plan *plan;
    const uint8_t *src;
    size_t slen, dlen;
    const uint8_t *ref;
    unsigned part, nparts; /* nparts 0: whole runs, own buffer */
    uint8_t *shared_dst;
    int n;
    pthread_barrier_t *barrier;
    char first_bad[128];
} plan_arg;

static void *plan_worker(void *p)
{
    plan_arg *a = p;
    uint8_t *dst = a->nparts ? a->shared_dst : malloc(a->dlen);
    if (!dst) {
        snprintf(a->first_bad, sizeof a->first_bad, "out of memory");
        return a;
    }
    pthread_barrier_wait(a->barrier);
    for (int r = 0; r < a->n && !a->first_bad[0]; r++) {
        tl_status s;
        if (a->nparts) {
            s = tl_plan_run_part(a->plan, a->part, a->nparts, a->src, a->slen, dst, a->dlen);
        } else {
            memset(dst, 0xEE, a->dlen);
            s = tl_plan_run(a->plan, a->src, a->slen, dst, a->dlen);
            if (s == TL_OK && memcmp(dst, a->ref, a->dlen) != 0)
                snprintf(a->first_bad, sizeof a->first_bad, "round %d: output differs", r);
        }
        if (s != TL_OK)
            snprintf(a->first_bad, sizeof a->first_bad, "round %d: %s %s", r, tl_status_str(s), tl_last_error());
    }
    if (!a->nparts) free(dst);
    return a->first_bad[0] ? a : NULL;
}

static void run_plan_job(const plan_job *j, tl_rng *rng)
{
    tl_desc s, d;
    REQUIRE_STATUS(tl_desc_parse(&s, j->from), TL_OK);
    REQUIRE_STATUS(tl_desc_parse(&d, j->to), TL_OK);
    size_t slen = (size_t)s.size_bytes, dlen = (size_t)d.size_bytes;
    uint8_t *src = malloc(slen), *ref = malloc(dlen), *shared = malloc(dlen);
    REQUIRE(src && ref && shared);
    tl_rng_bytes(rng, src, slen);
    if (s.dtype == TL_F32) /* finite values: NaN payloads are not the point here */
        for (size_t i = 0; i < slen / 4; i++) {
            float f = (float)(tl_rng_unit(rng) * 200.0 - 100.0);
            memcpy(src + 4 * i, &f, 4);
        }
    memset(ref, 0xEE, dlen);
    CHECK_STATUS(tl_convert_reference(&s, src, slen, &d, ref, dlen, 0), TL_OK);

    tl_plan *plan = NULL;
    REQUIRE_STATUS(tl_plan_create(&plan, &s, &d, 0), TL_OK);
    pthread_barrier_t barrier;
    plan_arg args[NTHREADS];
    REQUIRE(pthread_barrier_init(&barrier, NULL, NTHREADS) == 0);
    /* every thread runs the whole plan into its own buffer, many times */
    for (int i = 0; i < NTHREADS; i++)
        args[i] = (plan_arg){plan, src, slen, dlen, ref, 0, 0, NULL, rounds(200), &barrier, ""};
    run_threads(plan_worker, args, sizeof args[0]);
    for (int i = 0; i < NTHREADS; i++)
        if (args[i].first_bad[0]) FAILF("%s -> %s, thread %d: %s", j->from, j->to, i, args[i].first_bad);
    /* the threads share one destination, each running its part */
    memset(shared, 0xEE, dlen);
    for (int i = 0; i < NTHREADS; i++)
        args[i] = (plan_arg){plan, src, slen, dlen, ref, (unsigned)i, NTHREADS, shared, 1, &barrier, ""};
    run_threads(plan_worker, args, sizeof args[0]);
    for (int i = 0; i < NTHREADS; i++)
        if (args[i].first_bad[0]) FAILF("%s -> %s, part %d: %s", j->from, j->to, i, args[i].first_bad);
    if (memcmp(shared, ref, dlen) != 0) FAILF("%s -> %s: %d parts in parallel differ from the reference", j->from, j->to, NTHREADS);
    pthread_barrier_destroy(&barrier);
    tl_plan_destroy(plan);
    free(src);
    free(ref);
    free(shared);
}

TL_TEST(one_plan_many_threads)
{
    tl_rng rng = tl_test_rng();
    for (size_t k = 0; k < sizeof jobs / sizeof jobs[0]; k++) run_plan_job(&jobs[k], &rng);
}

/* ---- everything at once: create, run, destroy, convert, fail ------------------ */
typedef struct mix_arg {
    int id, n;
    pthread_barrier_t *barrier;
    char first_bad[160];
} mix_arg;

static void *mix_worker(void *p)
{
    mix_arg *a = p;
    const plan_job *j = &jobs[(size_t)a->id % (sizeof jobs / sizeof jobs[0])];
    tl_desc s, d;
    if (tl_desc_parse(&s, j->from) != TL_OK || tl_desc_parse(&d, j->to) != TL_OK) {
        snprintf(a->first_bad, sizeof a->first_bad, "parse: %s", tl_last_error());
        return a;
    }
    size_t slen = (size_t)s.size_bytes, dlen = (size_t)d.size_bytes;
    uint8_t *src = calloc(slen, 1), *x = malloc(dlen), *y = malloc(dlen);
    pthread_barrier_wait(a->barrier);
    for (int r = 0; r < a->n && src && x && y && !a->first_bad[0]; r++) {
        tl_plan *plan = NULL;
        src[(size_t)r % slen] = (uint8_t)r;
        tl_status s1 = tl_plan_create(&plan, &s, &d, r % 2 ? TL_KEEP_PADDING : 0u);
        memset(x, 0, dlen);
        memset(y, 0, dlen);
        tl_status s2 = s1 == TL_OK ? tl_plan_run(plan, src, slen, x, dlen) : s1;
        tl_status s3 = tl_convert_ex(&s, src, slen, &d, y, dlen, r % 2 ? TL_KEEP_PADDING : 0u);
        tl_plan_destroy(plan);
        if (s1 != TL_OK || s2 != TL_OK || s3 != TL_OK || memcmp(x, y, dlen) != 0)
            snprintf(a->first_bad, sizeof a->first_bad, "round %d: %s/%s/%s or outputs differ", r,
                     tl_status_str(s1), tl_status_str(s2), tl_status_str(s3));
        /* a failing call in between: its message is this thread's alone */
        if (tl_convert(&s, src, slen - 1, &d, y, dlen) != TL_ERR_BUFFER_SMALL || !strstr(tl_last_error(), "src_len"))
            snprintf(a->first_bad, sizeof a->first_bad, "round %d: short source: \"%s\"", r, tl_last_error());
    }
    if (!src || !x || !y) snprintf(a->first_bad, sizeof a->first_bad, "out of memory");
    free(src);
    free(x);
    free(y);
    return a->first_bad[0] ? a : NULL;
}

TL_TEST(create_run_destroy_concurrently)
{
    pthread_barrier_t barrier;
    mix_arg args[NTHREADS];
    REQUIRE(pthread_barrier_init(&barrier, NULL, NTHREADS) == 0);
    for (int i = 0; i < NTHREADS; i++)
        args[i] = (mix_arg){i, rounds(100), &barrier, ""};
    run_threads(mix_worker, args, sizeof args[0]);
    for (int i = 0; i < NTHREADS; i++)
        if (args[i].first_bad[0]) FAILF("thread %d: %s", i, args[i].first_bad);
    pthread_barrier_destroy(&barrier);
}

int main(int argc, char **argv)
{
    tl_test_init(argc, argv);
    /* first, so the library's first-use initialisations (CPU features, kernel
     * tables) happen in racing threads, where ThreadSanitizer can see them */
    TL_RUN(create_run_destroy_concurrently);
    TL_RUN(last_error_is_per_thread);
    TL_RUN(one_plan_many_threads);
    return tl_test_finish();
}
