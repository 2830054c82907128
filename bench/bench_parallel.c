/* Parallel speed-up benchmark (a program, not a test): tl_plan_run against
 * tl_plan_run_parallel with 1..N threads, for memory-bound conversions (byte
 * transposes, a plain copy) and compute-bound ones (f32 -> i8 quantization
 * with ties-away rounding, i8 -> f16 dequantization into a blocked layout),
 * at sizes from "too small to split" to DRAM-sized; then fixed real jobs:
 * image plans in exact mode (a 1080p NV12 frame letterboxed to 640 x 640,
 * into NHWC u8 and into NCHW f32 with mean/std: compute-bound) and a
 * segmentation argmax (21 x 65 x 65 i8 logits upsampled to 513 x 513).
 *
 *   bench/bench_parallel [--threads N] [--size N[K|M],...] [--samples N] [--case SUBSTRING|fixed]
 *
 * --case fixed: the fixed jobs only (image plans and argmax).
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

typedef struct run_ctx run_ctx;
typedef tl_status (*run_fn)(const run_ctx *r);
struct run_ctx {
    run_fn fn;        /* runs job on `threads` threads (1 = the single-thread call) */
    const void *job;  /* the plan, image plan or logits descriptor */
    const void *src;
    size_t sl;
    void *dst;
    size_t dl;
    unsigned threads;
};

static tl_status plan_run(const run_ctx *r)
{
    const tl_plan *p = r->job;
    return r->threads == 1 ? tl_plan_run(p, r->src, r->sl, r->dst, r->dl)
                           : tl_plan_run_parallel(p, r->src, r->sl, r->dst, r->dl, r->threads);
}

static tl_status image_run(const run_ctx *r)
{
    const tl_image_plan *p = r->job;
    return r->threads == 1 ? tl_image_plan_run(p, r->src, r->sl, r->dst, r->dl)
                           : tl_image_plan_run_parallel(p, r->src, r->sl, r->dst, r->dl, r->threads);
}

#define ARGMAX_OUT 513 /* DeepLab's output size */
static tl_status argmax_run(const run_ctx *r)
{
    const tl_desc *d = r->job;
    if (r->threads == 1)
        return tl_argmax(d, r->src, r->sl, TL_RESIZE_BILINEAR, ARGMAX_OUT, ARGMAX_OUT, TL_LABEL_U8, r->dst, r->dl);
    return tl_argmax_parallel(d, r->src, r->sl, TL_RESIZE_BILINEAR, ARGMAX_OUT, ARGMAX_OUT, TL_LABEL_U8, r->dst,
                              r->dl, r->threads);
}

static void run_once(const run_ctx *r)
{
    tl_status s = r->fn(r);
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

/* Best time of `one` at 1..max_threads threads, samples interleaved. */
static void time_threads(run_ctx one, unsigned max_threads, int samples, double *best)
{
    run_ctx r[MAX_T + 1];
    int inner[MAX_T + 1];
    for (unsigned t = 1; t <= max_threads; t++) {
        r[t] = one;
        r[t].threads = t;
        inner[t] = inner_count(&r[t]);
        best[t] = 1e30;
    }
    for (int k = 0; k < samples; k++)
        for (unsigned t = 1; t <= max_threads; t++) {
            double v = sample(&r[t], inner[t]);
            if (v < best[t]) best[t] = v;
        }
}

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
    time_threads((run_ctx){plan_run, plan, src, sl, dst, dl, 1}, max_threads, samples, best);
    best[0] = (double)(sl + dl); /* bytes moved, for GB/s */
    free(src), free(dst);
    tl_plan_destroy(plan);
    return 0;
}

/* ---- fixed jobs: image plans and argmax -------------------------------------------------- */
typedef struct fixed_case {
    const char *name, *from, *to; /* to NULL: the argmax of `from` */
    float mean[3], std[3];
} fixed_case;

static const fixed_case k_fixed[] = {
    {"image exact nv12 1080p -> 640x640 letterbox NHWC u8 (compute)", "yuv.nv12:u8:3x1080x1920",
     "NHWC:u8:1x640x640x3", {0, 0, 0}, {1, 1, 1}},
    {"image exact nv12 1080p -> 640x640 letterbox NCHW f32 mean/std (compute)", "yuv.nv12:u8:3x1080x1920",
     "NCHW:f32:1x3x640x640", {123.675f, 116.28f, 103.53f}, {58.395f, 57.12f, 57.375f}},
    {"argmax i8 21x65x65 -> 513x513 bilinear u8 labels (compute)", "NCHW:i8:1x21x65x65:q=affine:zp=-3:scale=0.125",
     NULL, {0, 0, 0}, {1, 1, 1}},
};

static int bench_fixed(const fixed_case *c, unsigned max_threads, int samples, double *best)
{
    tl_desc s, d;
    tl_image_plan *plan = NULL;
    tl_image_params p;
    tl_image_params_init(&p);
    p.fit = TL_IMAGE_LETTERBOX;
    memcpy(p.mean, c->mean, sizeof c->mean);
    memcpy(p.std, c->std, sizeof c->std);
    if (tl_desc_parse(&s, c->from)) return -1;
    if (c->to && (tl_desc_parse(&d, c->to) || tl_image_plan_create(&plan, &s, &d, &p))) return -1;
    size_t sl = (size_t)s.size_bytes, dl = c->to ? (size_t)d.size_bytes : (size_t)ARGMAX_OUT * ARGMAX_OUT;
    unsigned char *src = malloc(sl), *dst = calloc(dl, 1);
    if (!src || !dst) return -1;
    for (size_t i = 0; i < sl; i++) src[i] = (unsigned char)(i * 37 + i / 1920 + 11);
    run_ctx one = c->to ? (run_ctx){image_run, plan, src, sl, dst, dl, 1} : (run_ctx){argmax_run, &s, src, sl, dst, dl, 1};
    time_threads(one, max_threads, samples, best);
    best[0] = (double)(sl + dl);
    free(src), free(dst);
    tl_image_plan_destroy(plan);
    return 0;
}

static void print_rows(const char *name, const char *size, int compute, unsigned max_threads, const double *best)
{
    for (unsigned t = 1; t <= max_threads; t++) {
        double x = best[1] / best[t];
        const char *fast = t < 2 || !compute ? "-" : x >= 1.6 ? "yes" : "**no**";
        printf("| %s | %s | %u | %.2f | %.2f | %s | %s |\n", name, size, t, best[0] / best[t] * 1e-9, x,
               x >= 0.95 ? "yes" : "**no**", fast);
    }
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
            fprintf(stderr, "usage: %s [--threads N] [--size N[K|M],...] [--samples N] [--case SUBSTRING|fixed]\n",
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
            char size[32];
            snprintf(size, sizeof size, "%zu KiB", sizes[z] >> 10);
            print_rows(k_cases[c].name, size, k_cases[c].compute, max_threads, best);
        }
    for (size_t c = 0; c < sizeof k_fixed / sizeof k_fixed[0]; c++) {
        if (filter && !strstr(k_fixed[c].name, filter) && strcmp(filter, "fixed") != 0) continue;
        double best[MAX_T + 1];
        if (bench_fixed(&k_fixed[c], max_threads, samples, best) != 0) {
            fprintf(stderr, "bench_parallel: %s skipped: %s\n", k_fixed[c].name, tl_last_error());
            continue;
        }
        print_rows(k_fixed[c].name, "fixed", 1, max_threads, best);
    }
    tl_parallel_shutdown();
    return 0;
}
