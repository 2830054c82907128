/* tl_test.h — a tiny header-only test harness for tlayout.
 *
 *   #include "tl_test.h"
 *
 *   TL_TEST(parse_nchw) {
 *       tl_desc d;
 *       REQUIRE_STATUS(tl_desc_parse(&d, "NCHW:f32:1x3x4x5"), TL_OK);
 *       CHECK_EQ_I64(d.size_bytes, 240);
 *   }
 *
 *   TL_TEST(random_roundtrip) {
 *       tl_rng r = tl_test_rng();          // seeded from the run's seed and the test name
 *       int64_t n = tl_rng_range(&r, 1, 40);
 *       ...
 *   }
 *
 *   int main(int argc, char **argv) {
 *       tl_test_init(argc, argv);          // [--seed N] [NAME-SUBSTRING]
 *       TL_RUN(parse_nchw);
 *       TL_RUN(random_roundtrip);
 *       return tl_test_finish();           // prints "2 passed, 0 failed"
 *   }
 *
 * CHECK_* record a failure and go on; REQUIRE_* record it and return from the
 * test. Failures print file:line, the test and the values (CHECK_STATUS also
 * tl_last_error()); a failed test that drew random numbers prints the seed and
 * how to rerun it. The seed is fixed by default (repeatable CI); TL_TEST_SEED=N
 * or --seed N picks another, TL_TEST_SEED=time a fresh one.
 */
#ifndef TL_TEST_H
#define TL_TEST_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tlayout.h"

/* A quantization literal (unused fields zero). */
static inline tl_quant tl_test_quant(int kind, int32_t zp, float scale, int fl, int round)
{
    tl_quant q;
    memset(&q, 0, sizeof q);
    q.kind = (uint8_t)kind;
    q.zp = zp;
    q.scale = scale;
    q.fl = (int8_t)fl;
    q.round = (uint8_t)round;
    return q;
}

#define TL_TEST_DEFAULT_SEED UINT64_C(0x7154c0de2024)
#define TL_TEST_MAX_MESSAGES 20 /* failure lines printed per test */

typedef struct tl_test_state {
    const char *prog;
    const char *filter;
    const char *current;
    uint64_t seed;
    int passed, failed, skipped;
    int cur_failures;  /* checks failed in the current test */
    int cur_rng_used;  /* the current test drew random numbers */
} tl_test_state;

static inline tl_test_state *tl_test_st(void)
{
    static tl_test_state st;
    return &st;
}

/* ---- random numbers: splitmix64 ----------------------------------------- */
typedef struct tl_rng {
    uint64_t s;
} tl_rng;

static inline uint64_t tl_rng_next(tl_rng *r)
{
    uint64_t z = (r->s += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [lo, hi] (inclusive); lo <= hi. */
static inline int64_t tl_rng_range(tl_rng *r, int64_t lo, int64_t hi)
{
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u;
    if (span == 0) return (int64_t)tl_rng_next(r); /* the full 64-bit range */
    return (int64_t)((uint64_t)lo + tl_rng_next(r) % span);
}

/* Uniform in [0, 1). */
static inline double tl_rng_unit(tl_rng *r)
{
    return (double)(tl_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

/* One of n items, e.g. tl_rng_pick(&r, 4) picks an index of a 4-entry table. */
static inline int tl_rng_pick(tl_rng *r, int n) { return (int)tl_rng_range(r, 0, n - 1); }

static inline void tl_rng_bytes(tl_rng *r, void *buf, size_t n)
{
    unsigned char *p = (unsigned char *)buf;
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)(tl_rng_next(r) >> 56);
}

static inline uint64_t tl_test_hash(const char *s)
{
    uint64_t h = UINT64_C(0xcbf29ce484222325); /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * UINT64_C(0x100000001b3);
    return h;
}

/* A generator for the current test: the run's seed mixed with the test name,
 * so one test's draws do not depend on which other tests ran. */
static inline tl_rng tl_test_rng(void)
{
    tl_test_state *st = tl_test_st();
    tl_rng r;
    st->cur_rng_used = 1;
    r.s = st->seed ^ tl_test_hash(st->current ? st->current : "");
    return r;
}

/* ---- failure reporting --------------------------------------------------- */
static inline int tl_test_fail_begin(const char *file, int line)
{
    tl_test_state *st = tl_test_st();
    st->cur_failures++;
    if (st->cur_failures > TL_TEST_MAX_MESSAGES) return 0;
    fprintf(stderr, "%s:%d: %s: ", file, line, st->current ? st->current : "(no test)");
    return 1;
}

static inline int tl_test_check(int ok, const char *file, int line, const char *expr)
{
    if (!ok && tl_test_fail_begin(file, line)) fprintf(stderr, "CHECK(%s) failed\n", expr);
    return ok;
}

static inline int tl_test_eq_i64(int64_t a, int64_t b, const char *file, int line, const char *ea,
                                 const char *eb)
{
    if (a == b) return 1;
    if (tl_test_fail_begin(file, line))
        fprintf(stderr, "%s == %s failed: %" PRId64 " != %" PRId64 "\n", ea, eb, a, b);
    return 0;
}

static inline int tl_test_near(double a, double b, double tol, const char *file, int line,
                               const char *ea, const char *eb)
{
    double d = a > b ? a - b : b - a;
    if (d <= tol) return 1;
    if (tl_test_fail_begin(file, line))
        fprintf(stderr, "%s ~= %s failed: %.17g vs %.17g (|diff| %.3g > %.3g)\n", ea, eb, a, b,
                d, tol);
    return 0;
}

static inline int tl_test_status(tl_status got, tl_status want, const char *file, int line,
                                 const char *expr)
{
    if (got == want) return 1;
    if (tl_test_fail_begin(file, line))
        fprintf(stderr, "%s returned %s (%d), expected %s (%d); tl_last_error: \"%s\"\n", expr,
                tl_status_str(got), (int)got, tl_status_str(want), (int)want, tl_last_error());
    return 0;
}

static inline int tl_test_str_contains(const char *hay, const char *needle, const char *file,
                                       int line, const char *eh)
{
    if (hay && needle && strstr(hay, needle)) return 1;
    if (tl_test_fail_begin(file, line))
        fprintf(stderr, "%s = \"%s\" does not contain \"%s\"\n", eh, hay ? hay : "(null)",
                needle ? needle : "(null)");
    return 0;
}

static inline int tl_test_str_eq(const char *a, const char *b, const char *file, int line,
                                 const char *ea)
{
    if (a && b && strcmp(a, b) == 0) return 1;
    if (tl_test_fail_begin(file, line))
        fprintf(stderr, "%s = \"%s\", expected \"%s\"\n", ea, a ? a : "(null)", b ? b : "(null)");
    return 0;
}

static inline int tl_test_mem_eq(const void *a, const void *b, size_t n, const char *file,
                                 int line, const char *ea, const char *eb)
{
    const unsigned char *pa = (const unsigned char *)a, *pb = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++) {
        if (pa[i] == pb[i]) continue;
        if (tl_test_fail_begin(file, line))
            fprintf(stderr, "%s and %s differ at byte %zu of %zu: 0x%02x != 0x%02x\n", ea, eb, i,
                    n, pa[i], pb[i]);
        return 0;
    }
    return 1;
}

/* ---- the checks ------------------------------------------------------------ */
#define CHECK(cond) ((void)tl_test_check(!!(cond), __FILE__, __LINE__, #cond))
#define CHECK_EQ_I64(a, b) \
    ((void)tl_test_eq_i64((int64_t)(a), (int64_t)(b), __FILE__, __LINE__, #a, #b))
#define CHECK_NEAR(a, b, tol) \
    ((void)tl_test_near((double)(a), (double)(b), (double)(tol), __FILE__, __LINE__, #a, #b))
#define CHECK_STATUS(expr, status) \
    ((void)tl_test_status((expr), (status), __FILE__, __LINE__, #expr))
#define CHECK_STR_CONTAINS(hay, needle) \
    ((void)tl_test_str_contains((hay), (needle), __FILE__, __LINE__, #hay))
#define CHECK_STR_EQ(a, b) ((void)tl_test_str_eq((a), (b), __FILE__, __LINE__, #a))
#define CHECK_MEM_EQ(a, b, n) ((void)tl_test_mem_eq((a), (b), (n), __FILE__, __LINE__, #a, #b))

/* Fatal variants: return from the (void) test function on failure. */
#define REQUIRE(cond) \
    do { if (!tl_test_check(!!(cond), __FILE__, __LINE__, #cond)) return; } while (0)
#define REQUIRE_EQ_I64(a, b) \
    do { if (!tl_test_eq_i64((int64_t)(a), (int64_t)(b), __FILE__, __LINE__, #a, #b)) return; } while (0)
#define REQUIRE_STATUS(expr, status) \
    do { if (!tl_test_status((expr), (status), __FILE__, __LINE__, #expr)) return; } while (0)

/* Record a failure with a printf message: FAILF("element %d: %g", i, v). */
#define FAILF(...) \
    do { if (tl_test_fail_begin(__FILE__, __LINE__)) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } } while (0)

/* Failures so far in the current test (to stop a loop early). */
#define TL_TEST_FAILURES() (tl_test_st()->cur_failures)

/* ---- registration and running --------------------------------------------- */
#define TL_TEST(name) static void tl_test_##name(void)
#define TL_RUN(name) tl_test_run_(#name, tl_test_##name)

static inline void tl_test_init(int argc, char **argv)
{
    tl_test_state *st = tl_test_st();
    const char *env = getenv("TL_TEST_SEED");
    st->prog = argc > 0 ? argv[0] : "test";
    st->seed = TL_TEST_DEFAULT_SEED;
    if (env && strcmp(env, "time") == 0)
        st->seed = (uint64_t)time(NULL) * UINT64_C(0x9e3779b97f4a7c15);
    else if (env && *env)
        st->seed = strtoull(env, NULL, 0);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            st->seed = strtoull(argv[++i], NULL, 0);
        else
            st->filter = argv[i];
    }
}

static inline void tl_test_run_(const char *name, void (*fn)(void))
{
    tl_test_state *st = tl_test_st();
    if (st->filter && !strstr(name, st->filter)) {
        st->skipped++;
        return;
    }
    st->current = name;
    st->cur_failures = 0;
    st->cur_rng_used = 0;
    fn();
    if (st->cur_failures == 0) {
        st->passed++;
        printf("ok   %s\n", name);
    } else {
        st->failed++;
        printf("FAIL %s (%d failed checks)\n", name, st->cur_failures);
        if (st->cur_rng_used)
            printf("     seed %" PRIu64 ": rerun with TL_TEST_SEED=%" PRIu64 " %s %s\n", st->seed,
                   st->seed, st->prog, name);
    }
    fflush(stdout);
    fflush(stderr);
    st->current = NULL;
}

/* Prints the closing line "N passed, N failed"; the exit code of main. A run
 * in which no test ran fails too (a filter that matched nothing). */
static inline int tl_test_finish(void)
{
    tl_test_state *st = tl_test_st();
    printf("%d passed, %d failed\n", st->passed, st->failed);
    if (st->passed + st->failed == 0) {
        fprintf(stderr, "%s: no test ran\n", st->prog);
        return 1;
    }
    return st->failed ? 1 : 0;
}

#endif /* TL_TEST_H */
