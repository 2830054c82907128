/* Parallel speed-up benchmark (a program, not a test): tl_plan_run against
 * tl_plan_run_parallel with 1..N threads, for memory-bound conversions (byte
 * transposes, a plain copy) and compute-bound ones (f32 -> i8 quantization
 * with ties-away rounding, i8 -> f16 dequantization into a blocked layout),
 * at sizes from "too small to split" to DRAM-sized.
 *
 *   bench/bench_parallel [--threads N] [--size N[K|M],...] [--samples N] [--case SUBSTRING]
 *
 * Reports GB/s (dense bytes read + written) and the speed-up over one thread
 * for each thread count; "ok" when it is >= 0.95 (never slower than one
 * thread, the pool's promise), and for 2+ threads on a compute-bound case
 * whether it reaches 1.6x. TL_CPU=scalar makes every case compute-bound.
 * Each timing is the best of interleaved samples (on a shared machine,
 * interference only adds time). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tlayout.h"

typedef struct bcase {
    const char *name, *from, *to; /* specs with %lld for H and W */
    int compute;                  /* 1: compute-bound (the 1.6x target applies) */
} bcase;

static const bcase k_cases[] = {
    {"copy u8 NCHW (memory)", "NCHW:u8:1x3x%lldx%lld", "NCHW:u8:1x3x%lldx%lld:pad=0,0,0,0,0,0,0,0", 0},
    {"nchw->nhwc u8 C=3 (memory)", "NCHW:u8:1x3x%lldx%lld", "NHWC:u8:1x%lldx%lldx3", 0},
    {"nhwc->nchw f32 C=3 (memory)", "NHWC:f32:1x%lldx%lldx3", "NCHW:f32:1x3x%lldx%lld", 0},
    {"quantize f32 nchw->i8 nhwc round=away (compute)", "NCHW:f32:1x3x%lldx%lld",
     "NHWC:i8:1x%lldx%lldx3:q=affine:zp=3:scale=0.02:round=away", 1},
    {"dequantize i8 nhwc->f16 nchw16c (compute)", "NHWC:i8:1x%lldx%lldx16:q=affine:zp=-5:scale=0.05",
     "NCHW16c:f16:1x16x%lldx%lld", 1},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef struct run_ctx {
    tl_plan *plan;
    const void *src;
    size_t sl;
    void *dst;
    size_t dl;
    unsigned threads; /* 1 = tl_plan_run */
} run_ctx;

static void run_once(const run_ctx *r)
{
    tl_status s = r->threads == 1 ? tl_plan_run(r->plan, r->src, r->sl, r->dst, r->dl)
                                  : tl_plan_run_parallel(r->plan, r->src, r->sl, r->dst, r->dl, r->threads);
    if (s != TL_OK) {
        fprintf(stderr, "bench_parallel: run failed: %s: %s\n", tl_status_str(s), tl_last_error());
        exit(1);
    }
}

/* Repeats per sample so that one sample takes >= 5 ms. */
static int inner_count(const run_ctx *r)
{
    run_once(r); /* warm: page faults, the pool's threads */
    double t0 = now();
    run_once(r);
    double one = now() - t0;
    return one > 5e-3 ? 1 : (int)(5e-3 / (one > 1e-9 ? one : 1e-9)) + 1;
}

static double sample(const run_ctx *r, int inner)
{
    double t0 = now();
    for (int i = 0; i < inner; i++) run_once(r);
    return (now() - t0) / inner;
}

#define MAX_T 16

/* One case at one size: best time per thread count, samples interleaved. */
static int bench_case(const bcase *c, size_t bytes, unsigned max_threads, int samples, double *best)
{
    char fs[160], ts[160];
    tl_desc s, d;
    long long side = 8;
    snprintf(fs, sizeof fs, c->from, side, side);
    snprintf(ts, sizeof ts, c->to, side, side);
    if (tl_desc_parse(&s, fs) || tl_desc_parse(&d, ts)) return -1;
    /* H = W chosen so that the larger side has about `bytes` bytes */
    double per_px = (double)(s.size_bytes > d.size_bytes ? s.size_bytes : d.size_bytes) / (double)(side * side);
    long long hw = (long long)((double)bytes / per_px);
    side = 8;
    while ((side + 8) * (side + 8) <= hw) side += 8;
    snprintf(fs, sizeof fs, c->from, side, side);
    snprintf(ts, sizeof ts, c->to, side, side);
    tl_plan *plan = NULL;
    if (tl_desc_parse(&s, fs) || tl_desc_parse(&d, ts) || tl_plan_create(&plan, &s, &d, 0)) return -1;
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes;
    unsigned char *src = malloc(sl), *dst = calloc(dl, 1);
    if (!src || !dst) return -1;
    for (size_t i = 0; i < sl; i++) src[i] = (unsigned char)(i * 37 + 11);
    if (s.dtype == TL_F32)
        for (size_t i = 0; i < sl / 4; i++) ((float *)(void *)src)[i] = (float)((int)(i % 2001) - 1000) * 0.01f;
    run_ctx r[MAX_T + 1];
    int inner[MAX_T + 1];
    for (unsigned t = 1; t <= max_threads; t++) {
        r[t] = (run_ctx){plan, src, sl, dst, dl, t};
        inner[t] = inner_count(&r[t]);
        best[t] = 1e30;
    }
    for (int k = 0; k < samples; k++)
        for (unsigned t = 1; t <= max_threads; t++) {
            double v = sample(&r[t], inner[t]);
            if (v < best[t]) best[t] = v;
        }
    best[0] = (double)(sl + dl); /* bytes moved, for GB/s */
    free(src), free(dst);
    tl_plan_destroy(plan);
    return 0;
}

static size_t parse_size(const char *t)
{
    char *end;
    double v = strtod(t, &end);
    if (end == t || v <= 0) return 0;
    if (*end == 'K' || *end == 'k') v *= 1024, end++;
    else if (*end == 'M' || *end == 'm') v *= 1048576, end++;
    return *end ? 0 : (size_t)v;
}

int main(int argc, char **argv)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned max_threads = online > 1 ? (unsigned)online : 2;
    size_t sizes[8] = {(size_t)64 << 10, (size_t)2 << 20, (size_t)64 << 20};
    int nsizes = 3, samples = 7;
    const char *filter = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) max_threads = (unsigned)atoi(argv[++i]);
        else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) samples = atoi(argv[++i]);
        else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) {
            nsizes = 0;
            for (char *t = strtok(argv[++i], ","); t && nsizes < 8; t = strtok(NULL, ","))
                if ((sizes[nsizes++] = parse_size(t)) == 0) {
                    fprintf(stderr, "bench_parallel: --size %s: a number with an optional K or M\n", t);
                    return 2;
                }
        } else {
            fprintf(stderr, "usage: %s [--threads N] [--size N[K|M],...] [--samples N] [--case SUBSTRING]\n",
                    argv[0]);
            return 2;
        }
    }
    if (max_threads < 1 || max_threads > MAX_T || samples < 1) {
        fprintf(stderr, "bench_parallel: --threads 1..%d, --samples >= 1\n", MAX_T);
        return 2;
    }
    const char *cpu = getenv("TL_CPU");
    printf("tl_parallel_default_threads() = %u on this machine; TL_CPU=%s\n\n", tl_parallel_default_threads(),
           cpu ? cpu : "(default)");
    printf("| case | size | threads | GB/s | x one thread | >= 0.95x | >= 1.6x (compute, 2+) |\n");
    printf("|---|---|---:|---:|---:|---|---|\n");
    for (int z = 0; z < nsizes; z++)
        for (size_t c = 0; c < NCASES; c++) {
            if (filter && !strstr(k_cases[c].name, filter)) continue;
            double best[MAX_T + 1];
            if (bench_case(&k_cases[c], sizes[z], max_threads, samples, best) != 0) {
                fprintf(stderr, "bench_parallel: %s skipped: %s\n", k_cases[c].name, tl_last_error());
                continue;
            }
            for (unsigned t = 1; t <= max_threads; t++) {
                double x = best[1] / best[t];
                const char *fast = t < 2 || !k_cases[c].compute ? "-" : x >= 1.6 ? "yes" : "**no**";
                printf("| %s | %zu KiB | %u | %.2f | %.2f | %s | %s |\n", k_cases[c].name, sizes[z] >> 10, t,
                       best[0] / best[t] * 1e-9, x, x >= 0.95 ? "yes" : "**no**", fast);
            }
        }
    tl_parallel_shutdown();
    return 0;
}
