/* The throughput benchmark (a program, not a test): per case, GB/s of the
 * source and destination buffers' bytes, the ratio to memcpy of the same bytes
 * between the same buffers timed alternately with the case, a streaming-copy
 * baseline for DRAM-sized cases, and oneDNN's reorder and XNNPACK's operators
 * on the same case when built with them (TL_BENCH_HAVE_DNNL, TL_BENCH_HAVE_XNNPACK).
 *
 * One module (bench.h) linked by bench/tl_bench and `tlayout bench`
 * (cmd_bench.c). One thread unless --threads N is given (tl_plan_run_parallel;
 * memcpy stays on one thread). Public API only. */
#define _DEFAULT_SOURCE
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench.h"
#include "tlayout.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <emmintrin.h>
#define TL_BENCH_STREAM 1
#endif

#ifdef TL_BENCH_HAVE_XNNPACK
#include <xnnpack.h>
#endif
#ifdef TL_BENCH_HAVE_DNNL
#include <oneapi/dnnl/dnnl.h>
void omp_set_num_threads(int n);
#endif

/* Spec templates: %1 = C, H, W in the order the layout word wants them. */
#define NCHW(dt) "NCHW:" dt ":%lldx%lldx%lldx%lld"
#define NHWC(dt) "NHWC:" dt ":%lldx%lldx%lldx%lld"
#define NCHW16(dt) "NCHW16c:" dt ":%lldx%lldx%lldx%lld"

enum { ORD_CHW = 0, ORD_HWC = 1, ORD_YUV = 2 /* C, H, W: one image, no batch dim (the yuv formats) */ };

typedef struct case_def {
    const char *name, *from, *to;
    int from_ord, to_ord, c;
    const char *dnnl_from, *dnnl_to;
} case_def;

static const case_def k_cases[] = {
    {"nchw->nhwc f32 C=3", NCHW("f32"), NHWC("f32"), ORD_CHW, ORD_HWC, 3, "nchw", "nhwc"},
    {"nchw->nhwc f32 C=16", NCHW("f32"), NHWC("f32"), ORD_CHW, ORD_HWC, 16, "nchw", "nhwc"},
    {"nchw->nhwc f32 C=64", NCHW("f32"), NHWC("f32"), ORD_CHW, ORD_HWC, 64, "nchw", "nhwc"},
    {"nhwc->nchw f32 C=3", NHWC("f32"), NCHW("f32"), ORD_HWC, ORD_CHW, 3, "nhwc", "nchw"},
    {"nhwc->nchw f32 C=16", NHWC("f32"), NCHW("f32"), ORD_HWC, ORD_CHW, 16, "nhwc", "nchw"},
    {"nhwc->nchw f32 C=64", NHWC("f32"), NCHW("f32"), ORD_HWC, ORD_CHW, 64, "nhwc", "nchw"},
    {"nchw->nhwc u8 C=3", NCHW("u8"), NHWC("u8"), ORD_CHW, ORD_HWC, 3, "nchw", "nhwc"},
    {"nchw->nhwc u8 C=16", NCHW("u8"), NHWC("u8"), ORD_CHW, ORD_HWC, 16, "nchw", "nhwc"},
    {"nchw->nhwc u8 C=64", NCHW("u8"), NHWC("u8"), ORD_CHW, ORD_HWC, 64, "nchw", "nhwc"},
    {"nhwc->nchw u8 C=3", NHWC("u8"), NCHW("u8"), ORD_HWC, ORD_CHW, 3, "nhwc", "nchw"},
    {"nhwc->nchw u8 C=16", NHWC("u8"), NCHW("u8"), ORD_HWC, ORD_CHW, 16, "nhwc", "nchw"},
    {"nhwc->nchw u8 C=64", NHWC("u8"), NCHW("u8"), ORD_HWC, ORD_CHW, 64, "nhwc", "nchw"},
    {"nchw->nchw16c f32 C=24", NCHW("f32"), NCHW16("f32"), ORD_CHW, ORD_CHW, 24, "nchw", "nChw16c"},
    {"nchw->nchw16c f32 C=64", NCHW("f32"), NCHW16("f32"), ORD_CHW, ORD_CHW, 64, "nchw", "nChw16c"},
    {"nchw->nchw16c f32 C=80", NCHW("f32"), NCHW16("f32"), ORD_CHW, ORD_CHW, 80, "nchw", "nChw16c"},
    {"nchw16c->nchw f32 C=24", NCHW16("f32"), NCHW("f32"), ORD_CHW, ORD_CHW, 24, "nChw16c", "nchw"},
    {"nchw16c->nchw f32 C=64", NCHW16("f32"), NCHW("f32"), ORD_CHW, ORD_CHW, 64, "nChw16c", "nchw"},
    {"nchw16c->nchw f32 C=80", NCHW16("f32"), NCHW("f32"), ORD_CHW, ORD_CHW, 80, "nChw16c", "nchw"},
    {"nchw->nchw16c i8 C=24", NCHW("i8"), NCHW16("i8"), ORD_CHW, ORD_CHW, 24, "nchw", "nChw16c"},
    {"nchw->nchw16c i8 C=64", NCHW("i8"), NCHW16("i8"), ORD_CHW, ORD_CHW, 64, "nchw", "nChw16c"},
    {"nchw->nchw16c i8 C=80", NCHW("i8"), NCHW16("i8"), ORD_CHW, ORD_CHW, 80, "nchw", "nChw16c"},
    {"nchw16c->nchw i8 C=24", NCHW16("i8"), NCHW("i8"), ORD_CHW, ORD_CHW, 24, "nChw16c", "nchw"},
    {"nchw16c->nchw i8 C=64", NCHW16("i8"), NCHW("i8"), ORD_CHW, ORD_CHW, 64, "nChw16c", "nchw"},
    {"nchw16c->nchw i8 C=80", NCHW16("i8"), NCHW("i8"), ORD_CHW, ORD_CHW, 80, "nChw16c", "nchw"},
    {"quantize f32 nchw->i8 nhwc C=3", NCHW("f32"), NHWC("i8") ":q=affine:zp=3:scale=0.02", ORD_CHW, ORD_HWC, 3,
     "nchw", "nhwc"},
    /* the quantization alone, no layout change: one row conversion */
    {"quantize f32 nchw->i8 nchw C=3", NCHW("f32"), NCHW("i8") ":q=affine:zp=3:scale=0.02", ORD_CHW, ORD_CHW, 3,
     "nchw", "nchw"},
    /* symmetric quantization (zero point 0: TensorRT's and TIDL's int8) */
    {"quantize f32 nchw->i8 nhwc C=3 zp=0", NCHW("f32"), NHWC("i8") ":q=affine:scale=0.02", ORD_CHW, ORD_HWC, 3,
     "nchw", "nhwc"},
    {"dequantize i8 nchw16c->f32 nchw C=64", NCHW16("i8") ":q=affine:zp=-5:scale=0.05", NCHW("f32"), ORD_CHW,
     ORD_CHW, 64, "nChw16c", "nchw"},
    {"u8 nhwc->trt.dla_hwc4 i8 C=3", NHWC("u8"), "trt.dla_hwc4:i8:%lldx%lldx%lldx%lld", ORD_HWC, ORD_CHW, 3, NULL, NULL},
    {"u8 nhwc->tidl padded C=3", NHWC("u8"), "tidl:u8:%lldx%lldx%lldx%lld:pad=1,1,1,1", ORD_HWC, ORD_CHW, 3, NULL, NULL},
    /* The vendor paths of `tlayout demo` (issue #20), both directions: a 3-plane
     * YUV 4:4:4 image <-> NV12, an NHWC u8 image <-> TIDL padded i8, TensorRT
     * kCHW32 i8, DLA kDLA_HWC4 i8 and f16, DirectML NHWC f16, RKNN NC1HWC2 i8; and the
     * quantizations of the issue. */
    {"u8 yuv444 chw->yuv.nv12", "CHW:u8:%lldx%lldx%lld", "yuv.nv12:u8:%lldx%lldx%lld", ORD_YUV, ORD_YUV, 3, NULL, NULL},
    {"u8 yuv.nv12->yuv444 chw", "yuv.nv12:u8:%lldx%lldx%lld", "CHW:u8:%lldx%lldx%lld", ORD_YUV, ORD_YUV, 3, NULL, NULL},
    {"u8 nhwc->tidl padded i8 C=3", NHWC("u8"), "tidl:i8:%lldx%lldx%lldx%lld:pad=1,1,1,1:scale=0.5", ORD_HWC, ORD_CHW, 3,
     NULL, NULL},
    {"tidl padded i8->u8 nhwc C=3", "tidl:i8:%lldx%lldx%lldx%lld:pad=1,1,1,1:scale=0.5", NHWC("u8"), ORD_CHW, ORD_HWC, 3,
     NULL, NULL},
    {"u8 nhwc->trt.chw32 i8 C=3", NHWC("u8"), "trt.chw32:i8:%lldx%lldx%lldx%lld:scale=2", ORD_HWC, ORD_CHW, 3, NULL, NULL},
    {"trt.chw32 i8->u8 nhwc C=3", "trt.chw32:i8:%lldx%lldx%lldx%lld:scale=2", NHWC("u8"), ORD_CHW, ORD_HWC, 3, NULL, NULL},
    {"trt.dla_hwc4 i8->u8 nhwc C=3", "trt.dla_hwc4:i8:%lldx%lldx%lldx%lld", NHWC("u8"), ORD_CHW, ORD_HWC, 3, NULL, NULL},
    {"u8 nhwc->trt.dla_hwc4 f16 C=3", NHWC("u8"), "trt.dla_hwc4:f16:%lldx%lldx%lldx%lld", ORD_HWC, ORD_CHW, 3, NULL, NULL},
    {"trt.dla_hwc4 f16->u8 nhwc C=3", "trt.dla_hwc4:f16:%lldx%lldx%lldx%lld", NHWC("u8"), ORD_CHW, ORD_HWC, 3, NULL, NULL},
    {"u8 nhwc->dml.nhwc f16 C=3", NHWC("u8"), "dml.nhwc:f16:%lldx%lldx%lldx%lld", ORD_HWC, ORD_CHW, 3, NULL, NULL},
    {"dml.nhwc f16->u8 nhwc C=3", "dml.nhwc:f16:%lldx%lldx%lldx%lld", NHWC("u8"), ORD_CHW, ORD_HWC, 3, NULL, NULL},
    {"u8 nhwc->rknn.nc1hwc2 i8 C=3", NHWC("u8"), "rknn.nc1hwc2:i8:%lldx%lldx%lldx%lld:c2=16:zp=-128:scale=1", ORD_HWC,
     ORD_CHW, 3, NULL, NULL},
    {"rknn.nc1hwc2 i8->u8 nhwc C=3", "rknn.nc1hwc2:i8:%lldx%lldx%lldx%lld:c2=16:zp=-128:scale=1", NHWC("u8"), ORD_CHW,
     ORD_HWC, 3, NULL, NULL},
    {"quantize f32 nchw->i8 nhwc C=64", NCHW("f32"), NHWC("i8") ":q=affine:zp=3:scale=0.02", ORD_CHW, ORD_HWC, 64,
     "nchw", "nhwc"},
    {"quantize f32 nchw->i8 nchw16c C=80", NCHW("f32"), NCHW16("i8") ":q=affine:zp=3:scale=0.02", ORD_CHW, ORD_CHW, 80,
     "nchw", "nChw16c"},
};
#define NCASES (sizeof k_cases / sizeof k_cases[0])

/* ---- timing ------------------------------------------------------------------------ */
static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

typedef void (*work_fn)(void *ctx);

/* Calls of fn repeated until the run lasts >= `run` seconds (at least one). */
static int calls_for(work_fn fn, void *ctx, double run)
{
    fn(ctx); /* warm: page faults, caches, branch predictors */
    double t0 = now();
    fn(ctx);
    double one = now() - t0;
    return one >= run ? 1 : (int)(run / (one > 1e-9 ? one : 1e-9)) + 1;
}

/* Seconds of one call of fn: the minimum over `samples` runs of >= 2 ms. The
 * minimum, not the median: on a shared machine interference only adds time. */
static inline double measure(work_fn fn, void *ctx, int samples) /* inline: unused without oneDNN/XNNPACK */
{
    int inner = calls_for(fn, ctx, 2e-3);
    double best = 1e30;
    for (int s = 0; s < samples; s++) {
        double t0 = now();
        for (int i = 0; i < inner; i++) fn(ctx);
        double v = (now() - t0) / (double)inner;
        if (v < best) best = v;
    }
    return best;
}

/* Seconds of one call of a and of b, measured in short alternating runs (b,
 * a, b, a, ...) on the same warmed buffers, so both see the same cache,
 * clock and neighbour state; each is the minimum over every run. A run is
 * >= 50 us (a timer read costs ~20 ns) and a sample >= 2 ms of runs. Timing a
 * and b in separate long stretches let memcpy's own figure swing 2x between
 * cases of one run; alternating at this grain keeps the ratio steady. */
static void measure_pair(work_fn a, void *actx, work_fn b, void *bctx, int samples, double *ta, double *tb)
{
    int ka = calls_for(a, actx, 50e-6), kb = calls_for(b, bctx, 50e-6);
    double run = 50e-6 * 2.0;
    int rounds = (int)(2e-3 / run) + 1;
    if (ka == 1 || kb == 1) rounds = 1; /* one call already >= 50 us: big buffers */
    *ta = *tb = 1e30;
    for (int s = 0; s < samples * rounds; s++) {
        double t0 = now();
        for (int i = 0; i < kb; i++) b(bctx);
        double t1 = now();
        for (int i = 0; i < ka; i++) a(actx);
        double t2 = now();
        if ((t1 - t0) / kb < *tb) *tb = (t1 - t0) / kb;
        if ((t2 - t1) / ka < *ta) *ta = (t2 - t1) / ka;
    }
}

typedef struct copy_ctx {
    void *dst;
    const void *src;
    size_t n;
} copy_ctx;

static void do_memcpy(void *c)
{
    copy_ctx *k = (copy_ctx *)c;
    memcpy(k->dst, k->src, k->n);
}

#ifdef TL_BENCH_STREAM
/* A copy with non-temporal stores: what a destination bigger than the cache
 * can at best get from the memory system without the read for ownership. */
static void do_stream(void *c)
{
    copy_ctx *k = (copy_ctx *)c;
    const __m128i *s = (const __m128i *)k->src;
    __m128i *d = (__m128i *)k->dst;
    size_t n = k->n / 64;
    for (size_t i = 0; i < n; i++, s += 4, d += 4) {
        __m128i a = _mm_load_si128(s), b = _mm_load_si128(s + 1), e = _mm_load_si128(s + 2), f = _mm_load_si128(s + 3);
        _mm_stream_si128(d, a);
        _mm_stream_si128(d + 1, b);
        _mm_stream_si128(d + 2, e);
        _mm_stream_si128(d + 3, f);
    }
    _mm_sfence();
    memcpy((char *)k->dst + n * 64, (const char *)k->src + n * 64, k->n - n * 64);
}
#endif

typedef struct plan_ctx {
    tl_plan *plan;
    const void *src;
    size_t sl;
    void *dst;
    size_t dl;
    unsigned threads; /* 1: tl_plan_run; else tl_plan_run_parallel (0 = fast cores) */
} plan_ctx;

static void do_plan(void *c)
{
    plan_ctx *k = (plan_ctx *)c;
    if (k->threads == 1) tl_plan_run(k->plan, k->src, k->sl, k->dst, k->dl);
    else tl_plan_run_parallel(k->plan, k->src, k->sl, k->dst, k->dl, k->threads);
}

/* ---- oneDNN ------------------------------------------------------------------------- */
#ifdef TL_BENCH_HAVE_DNNL
typedef struct dnnl_ctx {
    dnnl_engine_t eng;
    dnnl_stream_t st;
    dnnl_primitive_t prim;
    dnnl_memory_t sm, dm;
} dnnl_ctx;

static void do_dnnl(void *c)
{
    dnnl_ctx *k = (dnnl_ctx *)c;
    dnnl_exec_arg_t args[2] = {{DNNL_ARG_FROM, k->sm}, {DNNL_ARG_TO, k->dm}};
    dnnl_primitive_execute(k->prim, k->st, 2, args);
    dnnl_stream_wait(k->st);
}

static dnnl_data_type_t dnnl_dt(tl_dtype t)
{
    return t == TL_F32 ? dnnl_f32 : t == TL_I8 ? dnnl_s8 : t == TL_U8 ? dnnl_u8 : dnnl_data_type_undef;
}

static dnnl_format_tag_t dnnl_tag(const char *t)
{
    if (strcmp(t, "nchw") == 0) return dnnl_nchw;
    if (strcmp(t, "nhwc") == 0) return dnnl_nhwc;
    return dnnl_nChw16c;
}

/* oneDNN's reorder of the same tensor, quantization as output scale and zero
 * points (speed comparison only). 0 when it cannot be set up. */
static double dnnl_time(const case_def *cd, const tl_desc *s, const tl_desc *d, void *src, void *dst, int samples)
{
    dnnl_ctx k;
    memset(&k, 0, sizeof k);
    if (!cd->dnnl_from || dnnl_dt((tl_dtype)s->dtype) == dnnl_data_type_undef ||
        dnnl_dt((tl_dtype)d->dtype) == dnnl_data_type_undef)
        return 0.0;
    int64_t C = cd->c, H, W;
    if (cd->from_ord == ORD_CHW) H = s->dims[2], W = s->dims[3];
    else H = s->dims[1], W = s->dims[2];
    dnnl_dims_t dims = {s->dims[0], C, H, W};
    dnnl_memory_desc_t smd, dmd;
    double t = 0.0;
    dnnl_primitive_attr_t attr = NULL;
    dnnl_primitive_desc_t pd = NULL;
    if (dnnl_engine_create(&k.eng, dnnl_cpu, 0) != dnnl_success) return 0.0;
    if (dnnl_stream_create(&k.st, k.eng, dnnl_stream_default_flags) != dnnl_success) goto out;
    if (dnnl_memory_desc_init_by_tag(&smd, 4, dims, dnnl_dt((tl_dtype)s->dtype), dnnl_tag(cd->dnnl_from)) ||
        dnnl_memory_desc_init_by_tag(&dmd, 4, dims, dnnl_dt((tl_dtype)d->dtype), dnnl_tag(cd->dnnl_to)))
        goto out;
    dnnl_primitive_attr_create(&attr);
    float scale = 1.0f;
    if (d->quant.kind == TL_Q_AFFINE) scale = 1.0f / d->quant.scale;
    if (s->quant.kind == TL_Q_AFFINE) scale = s->quant.scale;
    dnnl_primitive_attr_set_output_scales(attr, 1, 0, &scale);
    if (s->quant.zp) dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_FROM, 1, 0, &s->quant.zp);
    if (d->quant.zp) dnnl_primitive_attr_set_zero_points(attr, DNNL_ARG_TO, 1, 0, &d->quant.zp);
    if (dnnl_reorder_primitive_desc_create(&pd, &smd, k.eng, &dmd, k.eng, attr) != dnnl_success) goto out;
    if (dnnl_primitive_create(&k.prim, pd) != dnnl_success) goto out;
    if (dnnl_memory_create(&k.sm, &smd, k.eng, src) || dnnl_memory_create(&k.dm, &dmd, k.eng, dst)) goto out;
    t = measure(do_dnnl, &k, samples);
out:
    if (k.sm) dnnl_memory_destroy(k.sm);
    if (k.dm) dnnl_memory_destroy(k.dm);
    if (k.prim) dnnl_primitive_destroy(k.prim);
    if (pd) dnnl_primitive_desc_destroy(pd);
    if (attr) dnnl_primitive_attr_destroy(attr);
    if (k.st) dnnl_stream_destroy(k.st);
    dnnl_engine_destroy(k.eng);
    return t;
}
#endif

/* The benchmark's buffers: whole 2 MiB pages where the kernel gives them
 * (transparent huge pages on request), so that where the buffers land in
 * the physically indexed L2 is the same in every run. With 4 KiB pages the
 * same binary's 256 KiB ratios moved by up to 30 % from one process to the
 * next (Zen 5, 1 MiB L2); --small-pages keeps malloc's pages. */
static bool g_small_pages;

static void *big_alloc(size_t n)
{
    void *p = NULL;
    size_t huge = (size_t)2 << 20, m = n <= SIZE_MAX - huge ? (n + huge - 1) / huge * huge : 0;
    if (g_small_pages || m == 0 || m / huge > 4096) { /* (none, or more than 8 GiB: no rounding) */
        if (posix_memalign(&p, 64, n ? n : 1) != 0) return NULL;
        return p;
    }
    if (posix_memalign(&p, huge, m) != 0) return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, m, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    return p;
}

/* ---- XNNPACK ------------------------------------------------------------------------ */
#ifdef TL_BENCH_HAVE_XNNPACK
/* Debian's XNNPACK (0.0~git20220216) has no transpose operator; its channel
 * shuffle is one: groups g of gc elements, out[k * g + j] = in[j * gc + k],
 * so NCHW -> NHWC is g = C, gc = H x W per image, and a 16-channel block is
 * g = 16, gc = H x W per block. A quantization is its convert operator plus
 * a shuffle of the 8-bit side: two passes through memory, what a user of
 * XNNPACK would write. */
typedef struct xnn_ctx {
    xnn_operator_t op[2]; /* run in order; op[1] may be NULL */
} xnn_ctx;

static void do_xnn(void *c)
{
    xnn_ctx *k = (xnn_ctx *)c;
    for (int i = 0; i < 2 && k->op[i]; i++) xnn_run_operator(k->op[i], NULL);
}

/* The shuffle of the case (batch, groups, group_channels), or 0 when the case
 * is not a plain NCHW / NHWC / nChw16c transpose XNNPACK can express. */
static int xnn_shuffle_of(const case_def *cd, const case_shape *sh, size_t *batch, size_t *g, size_t *gc)
{
    if (!cd->dnnl_from || !cd->dnnl_to) return 0;
    size_t hw = (size_t)(sh->h * sh->w), nb = (size_t)sh->nb, c = (size_t)sh->c;
    const char *f = cd->dnnl_from, *t = cd->dnnl_to;
    if (!strcmp(f, "nchw") && !strcmp(t, "nhwc")) *batch = nb, *g = c, *gc = hw;
    else if (!strcmp(f, "nhwc") && !strcmp(t, "nchw")) *batch = nb, *g = hw, *gc = c;
    else if (c % 16 == 0 && !strcmp(f, "nchw") && !strcmp(t, "nChw16c")) *batch = nb * c / 16, *g = 16, *gc = hw;
    else if (c % 16 == 0 && !strcmp(f, "nChw16c") && !strcmp(t, "nchw")) *batch = nb * c / 16, *g = hw, *gc = 16;
    else return 0;
    return 1;
}

static enum xnn_status xnn_shuffle(size_t es, size_t batch, size_t g, size_t gc, const void *in, void *out,
                                   xnn_operator_t *op)
{
    enum xnn_status st = es == 4   ? xnn_create_channel_shuffle_nc_x32(g, gc, g * gc, g * gc, 0, op)
                         : es == 1 ? xnn_create_channel_shuffle_nc_x8(g, gc, g * gc, g * gc, 0, op)
                                   : xnn_status_unsupported_parameter;
    if (st != xnn_status_success) return st;
    return es == 4 ? xnn_setup_channel_shuffle_nc_x32(*op, batch, in, out, NULL)
                   : xnn_setup_channel_shuffle_nc_x8(*op, batch, in, out, NULL);
}

/* f32 -> i8 (affine) or i8 -> f32 over n contiguous elements. */
static enum xnn_status xnn_convert(const tl_desc *s, const tl_desc *d, size_t n, const void *in, void *out,
                                   xnn_operator_t *op)
{
    enum xnn_status st = xnn_status_unsupported_parameter;
    if (s->dtype == TL_F32 && d->dtype == TL_I8 && d->quant.kind == TL_Q_AFFINE) {
        st = xnn_create_convert_nc_f32_qs8(n, n, n, d->quant.scale, (int8_t)d->quant.zp, INT8_MIN, INT8_MAX, 0, op);
        if (st == xnn_status_success) st = xnn_setup_convert_nc_f32_qs8(*op, 1, in, out, NULL);
    } else if (s->dtype == TL_I8 && d->dtype == TL_F32 && s->quant.kind == TL_Q_AFFINE) {
        st = xnn_create_convert_nc_qs8_f32(n, n, n, s->quant.scale, (int8_t)s->quant.zp, 0, op);
        if (st == xnn_status_success) st = xnn_setup_convert_nc_qs8_f32(*op, 1, in, out, NULL);
    }
    return st;
}

/* XNNPACK's time for the case (speed comparison only), or 0 when it has no
 * operator for it. */
static double xnn_time(const case_def *cd, const tl_desc *s, const tl_desc *d, const case_shape *sh, void *src,
                       void *dst, int samples)
{
    static int ready = -1;
    if (ready < 0) ready = xnn_initialize(NULL) == xnn_status_success;
    size_t batch, g, gc;
    if (!ready || !xnn_shuffle_of(cd, sh, &batch, &g, &gc)) return 0.0;
    size_t es = tl_dtype_bits((tl_dtype)s->dtype) / 8, ed = tl_dtype_bits((tl_dtype)d->dtype) / 8;
    size_t n = batch * g * gc;
    xnn_ctx k = {{NULL, NULL}};
    void *tmp = NULL;
    enum xnn_status st;
    if (s->dtype == d->dtype && s->quant.kind == TL_Q_NONE && d->quant.kind == TL_Q_NONE) {
        st = xnn_shuffle(es, batch, g, gc, src, dst, &k.op[0]);
    } else if (es > ed) { /* quantize, then shuffle the bytes */
        if (!(tmp = big_alloc(n * ed))) return 0.0;
        st = xnn_convert(s, d, n, src, tmp, &k.op[0]);
        if (st == xnn_status_success) st = xnn_shuffle(ed, batch, g, gc, tmp, dst, &k.op[1]);
    } else { /* shuffle the bytes, then dequantize */
        if (!(tmp = big_alloc(n * es))) return 0.0;
        st = xnn_shuffle(es, batch, g, gc, src, tmp, &k.op[0]);
        if (st == xnn_status_success) st = xnn_convert(s, d, n, tmp, dst, &k.op[1]);
    }
    double t = st == xnn_status_success ? measure(do_xnn, &k, samples) : 0.0;
    for (int i = 0; i < 2; i++)
        if (k.op[i]) xnn_delete_operator(k.op[i]);
    free(tmp);
    return t;
}
#endif

/* ---- one case ------------------------------------------------------------------------- */
typedef struct result {
    const char *name;
    size_t size;          /* target bytes (the larger dense side) */
    double bytes;         /* dense bytes read + written */
    double gbs, memcpy_gbs, stream_gbs, dnnl_gbs, xnn_gbs;
    double ratio, dnnl_ratio;
    double target;        /* required ratio to the baseline */
    int met;              /* -1 unknown */
    char kernels[160];
} result;


/* Realistic values: f32 in [-10, 10] (no denormals, which cost a microcode
 * assist per element in any x86 kernel), integers over their whole range. */
static void fill_pattern(void *buf, size_t n, tl_dtype t, uint64_t seed)
{
    uint8_t *b = (uint8_t *)buf;
    uint64_t x = seed | 1;
    for (size_t i = 0; i + 4 <= n; i += 4) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint32_t v = (uint32_t)(x >> 16);
        if (t == TL_F32) {
            float f = (float)((int)(v % 2001u) - 1000) * 0.01f;
            memcpy(&v, &f, 4);
        }
        memcpy(b + i, &v, 4);
    }
    for (size_t i = n / 4 * 4; i < n; i++) b[i] = (uint8_t)i;
}

static void spec_of(char *out, size_t n, const char *tmpl, int ord, int64_t b, int64_t c, int64_t h, int64_t w)
{
    if (ord == ORD_YUV) snprintf(out, n, tmpl, (long long)c, (long long)h, (long long)w);
    else if (ord == ORD_CHW) snprintf(out, n, tmpl, (long long)b, (long long)c, (long long)h, (long long)w);
    else snprintf(out, n, tmpl, (long long)b, (long long)h, (long long)w, (long long)c);
}

/* First kernel names of the plan description, for the table. */
void tl_bench_plan_kernels(const tl_plan *p, char *out, size_t n)
{
    const char *t = tl_plan_describe(p);
    out[0] = 0;
    size_t len = 0;
    for (const char *q = strstr(t, "tl_"); q && len + 2 < n; q = strstr(q + 1, "tl_")) {
        size_t k = strcspn(q, " (\n,");
        if (strstr(out, "tl_") && strncmp(q, "tl_zero_fill", 12) == 0) continue;
        if (len) out[len++] = ' ';
        if (len + k >= n) break;
        memcpy(out + len, q, k);
        len += k;
        out[len] = 0;
        q += k - 1;
    }
}

/* The case's tensors for `size` bytes of its larger dense side: nb images
 * of C x h x w, h x w near square, at most 4096 x 4096 each. 0, or -1 (the
 * library's message in tl_last_error). */
static int case_tensors(const case_def *cd, size_t size, tl_desc *s, tl_desc *d, case_shape *sh)
{
    char fs[256], ts[256];
    /* element sizes first, from a small instance */
    spec_of(fs, sizeof fs, cd->from, cd->from_ord, 1, cd->c, 4, 4);
    spec_of(ts, sizeof ts, cd->to, cd->to_ord, 1, cd->c, 4, 4);
    if (tl_desc_parse(s, fs) != TL_OK || tl_desc_parse(d, ts) != TL_OK) return -1;
    size_t es = tl_dtype_bits((tl_dtype)s->dtype) / 8, ed = tl_dtype_bits((tl_dtype)d->dtype) / 8;
    size_t elems = size / (es > ed ? es : ed), hw = elems / (size_t)cd->c;
    /* images of at most 4096 x 4096; the yuv formats have no batch dim */
    sh->nb = cd->from_ord == ORD_YUV ? 1 : 1 + (int64_t)(hw / ((size_t)4096 * 4096));
    hw /= (size_t)sh->nb;
    sh->c = cd->c;
    sh->w = (int64_t)sqrt((double)hw);
    sh->h = (int64_t)hw / (sh->w ? sh->w : 1);
    if (cd->from_ord == ORD_YUV) sh->w &= ~(int64_t)1, sh->h &= ~(int64_t)1; /* 4:2:0: even sizes */
    spec_of(fs, sizeof fs, cd->from, cd->from_ord, sh->nb, cd->c, sh->h, sh->w);
    spec_of(ts, sizeof ts, cd->to, cd->to_ord, sh->nb, cd->c, sh->h, sh->w);
    if (tl_desc_parse(s, fs) != TL_OK || tl_desc_parse(d, ts) != TL_OK) return -1;
    /* the buffers' bytes: a padded or subsampled side (kCHW32, NV12) moves what it stores */
    sh->bytes = (double)s->size_bytes + (double)d->size_bytes;
    return 0;
}

size_t tl_bench_case_count(void)
{
    return NCASES;
}

const char *tl_bench_case_name(size_t i)
{
    return i < NCASES ? k_cases[i].name : NULL;
}

int tl_bench_case_tensors(size_t i, size_t size, tl_desc *s, tl_desc *d, case_shape *sh)
{
    return i < NCASES ? case_tensors(&k_cases[i], size, s, d, sh) : -1;
}

static int run_case(const case_def *cd, size_t size, int samples, unsigned threads, result *r)
{
    memset(r, 0, sizeof *r);
    r->name = cd->name;
    r->size = size;
    r->met = -1;
    tl_desc s, d;
    case_shape sh;
    if (case_tensors(cd, size, &s, &d, &sh) != 0) return -1;
    tl_plan *plan = NULL;
    if (tl_plan_create(&plan, &s, &d, 0) != TL_OK) return -1;
    tl_bench_plan_kernels(plan, r->kernels, sizeof r->kernels);
    r->bytes = sh.bytes;
    /* memcpy's baseline copies half the dense bytes from src to dst: the
     * same buffers as the conversion, big enough for either */
    size_t sl = (size_t)s.size_bytes, dl = (size_t)d.size_bytes, half = (size_t)(r->bytes / 2);
    void *src = big_alloc(sl > half ? sl : half), *dst = big_alloc(dl > half ? dl : half);
    if (!src || !dst) {
        free(src), free(dst);
        tl_plan_destroy(plan);
        return -1;
    }
    fill_pattern(src, sl > half ? sl : half, (tl_dtype)s.dtype, 0x9E3779B97F4A7C15ull);
    memset(dst, 0, dl > half ? dl : half);
    plan_ctx pc = {plan, src, sl, dst, dl, threads};
    copy_ctx cc = {dst, src, half};
    double t_plan, t_copy;
    measure_pair(do_plan, &pc, do_memcpy, &cc, samples, &t_plan, &t_copy);
    r->gbs = r->bytes / t_plan * 1e-9;
    r->memcpy_gbs = r->bytes / t_copy * 1e-9;
    r->ratio = t_copy / t_plan;
    double base = r->memcpy_gbs;
#ifdef TL_BENCH_STREAM
    if (size > ((size_t)64 << 20)) {
        double t_stream = measure(do_stream, &cc, samples);
        r->stream_gbs = r->bytes / t_stream * 1e-9;
        if (r->stream_gbs > base) base = r->stream_gbs;
    }
#endif
    bool big = size > ((size_t)64 << 20);
    r->target = big ? 0.8 : 0.5;
    r->met = r->gbs >= r->target * base;
    if (big) r->ratio = r->gbs / base; /* against the faster baseline */
#ifdef TL_BENCH_HAVE_DNNL
    double t_d = dnnl_time(cd, &s, &d, src, dst, samples);
    if (t_d > 0) {
        r->dnnl_gbs = r->bytes / t_d * 1e-9;
        r->dnnl_ratio = r->dnnl_gbs / r->memcpy_gbs;
        if (r->gbs < r->dnnl_gbs) r->met = 0;
    }
#endif
#ifdef TL_BENCH_HAVE_XNNPACK
    double t_x = xnn_time(cd, &s, &d, &sh, src, dst, samples);
    if (t_x > 0) {
        r->xnn_gbs = r->bytes / t_x * 1e-9;
        if (r->gbs < r->xnn_gbs) r->met = 0;
    }
#endif
    free(src), free(dst);
    tl_plan_destroy(plan);
    return 0;
}

/* ---- output ------------------------------------------------------------------------------ */
static const char *size_name(size_t s, char *buf, size_t n)
{
    if (s >= ((size_t)1 << 20)) snprintf(buf, n, "%zu MiB", s >> 20);
    else snprintf(buf, n, "%zu KiB", s >> 10);
    return buf;
}

static void print_table(const result *r, int n)
{
    printf("| case | size | tlayout GB/s | x memcpy | memcpy GB/s | stream GB/s | oneDNN GB/s | oneDNN x memcpy "
           "| XNNPACK GB/s (quantize: 2 passes) | target | met | kernels |\n");
    printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|---|\n");
    for (int i = 0; i < n; i++) {
        char sz[32], st[32] = "-", dn[32] = "-", dr[32] = "-", xn[32] = "-";
        if (r[i].xnn_gbs > 0) snprintf(xn, sizeof xn, "%.1f", r[i].xnn_gbs);
        if (r[i].stream_gbs > 0) snprintf(st, sizeof st, "%.1f", r[i].stream_gbs);
        if (r[i].dnnl_gbs > 0) {
            snprintf(dn, sizeof dn, "%.1f", r[i].dnnl_gbs);
            snprintf(dr, sizeof dr, "%.2f", r[i].dnnl_ratio);
        }
        printf("| %s | %s | %.1f | %.2f | %.1f | %s | %s | %s | %s | >= %.1fx %s | %s | %s |\n", r[i].name,
               size_name(r[i].size, sz, sizeof sz), r[i].gbs, r[i].ratio, r[i].memcpy_gbs, st, dn, dr, xn, r[i].target,
               r[i].stream_gbs > 0 ? "max(memcpy, stream)" : "memcpy", r[i].met ? "yes" : "**no**", r[i].kernels);
    }
}

static void print_json(const result *r, int n)
{
    printf("[\n");
    for (int i = 0; i < n; i++)
        printf("  {\"case\":\"%s\",\"size\":%zu,\"bytes\":%.0f,\"gbs\":%.3f,\"ratio\":%.3f,\"memcpy_gbs\":%.3f,"
               "\"stream_gbs\":%.3f,\"onednn_gbs\":%.3f,\"onednn_ratio\":%.3f,\"xnnpack_gbs\":%.3f,"
               "\"target\":%.1f,\"met\":%s,\"kernels\":\"%s\"}%s\n",
               r[i].name, r[i].size, r[i].bytes, r[i].gbs, r[i].ratio, r[i].memcpy_gbs, r[i].stream_gbs,
               r[i].dnnl_gbs, r[i].dnnl_ratio, r[i].xnn_gbs, r[i].target, r[i].met ? "true" : "false", r[i].kernels,
               i + 1 < n ? "," : "");
    printf("]\n");
}

/* ---- argument validation --------------------------------------------------------------- */
#define BENCH_MAX_SIZES 8
#define BENCH_MAX_SAMPLES 1000
/* 1 KiB: below it most cases have no whole image; 64 GiB (or a quarter of the
 * address space): the case allocates about four buffers of the size. */
#define BENCH_MIN_SIZE 1024.0
#define BENCH_MAX_SIZE ((double)(SIZE_MAX / 4) < 68719476736.0 ? (double)(SIZE_MAX / 4) : 68719476736.0)

/* N[K|M|G] -> bytes; 0 (after a message) unless finite and in range. */
static size_t parse_size(const char *prog, const char *s)
{
    char *end;
    double v = strtod(s, &end), unit = 1.0;
    static const char units[] = "KkMmGg";
    const char *u = end != s && *end ? strchr(units, *end) : NULL;
    if (u) {
        unit = ldexp(1.0, 10 * (1 + (int)(u - units) / 2)); /* 2^10, 2^20, 2^30 */
        end++;
    }
    double bytes = v * unit;
    if (end == s || *end || !isfinite(bytes) || bytes < BENCH_MIN_SIZE || bytes > BENCH_MAX_SIZE) {
        fprintf(stderr, "%s: --size %s: a size must be a number with an optional K, M or G suffix, from 1K to %.0fG\n",
                prog, s, BENCH_MAX_SIZE / 1073741824.0);
        return 0;
    }
    return (size_t)bytes;
}

/* --size N[K|M|G],...: 0 if every item is valid, else 2 (after a message). */
static int parse_sizes(const char *prog, char *list, size_t *sizes, int *nsizes)
{
    *nsizes = 0;
    for (char *t = strtok(list, ","); t; t = strtok(NULL, ",")) {
        if (*nsizes == BENCH_MAX_SIZES) {
            fprintf(stderr, "%s: --size: at most %d sizes\n", prog, BENCH_MAX_SIZES);
            return 2;
        }
        if ((sizes[*nsizes] = parse_size(prog, t)) == 0) return 2;
        (*nsizes)++;
    }
    if (*nsizes == 0) {
        fprintf(stderr, "%s: --size '%s': a size must be a number with an optional K, M or G suffix\n", prog, list);
        return 2;
    }
    return 0;
}

/* --samples N: 0 if N is a whole number from 1 to BENCH_MAX_SAMPLES, else 2 (after a message). */
static int parse_samples(const char *prog, const char *s, int *samples)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < 1 || v > BENCH_MAX_SAMPLES) {
        fprintf(stderr, "%s: --samples %s: must be a whole number from 1 to %d\n", prog, s, BENCH_MAX_SAMPLES);
        return 2;
    }
    *samples = (int)v;
    return 0;
}

/* --threads N: 0 if N is a whole number from 0 to TL_PARALLEL_MAX_THREADS, else 2 (after a message). */
static int parse_threads_opt(const char *prog, const char *s, int *threads)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end || v < 0 || v > (long)TL_PARALLEL_MAX_THREADS) {
        fprintf(stderr, "%s: --threads %s: must be a whole number from 0 to %u\n", prog, s, TL_PARALLEL_MAX_THREADS);
        return 2;
    }
    *threads = (int)v;
    return 0;
}

static const char bench_usage[] =
    "usage: %s [--json] [--quick] [--size N[K|M|G],...] [--case SUBSTRING] [--samples N]\n"
    "       [--threads N] [--small-pages]\n\n"
    "Measure conversion throughput (one thread; --threads N: up to N, 0 = the\n"
    "fast cores): GB/s of dense bytes read +\n"
    "written, the ratio to memcpy of the same bytes in the same run, a\n"
    "streaming-copy baseline above 64 MiB, and oneDNN's reorder and XNNPACK's\n"
    "operators when built with them. Default sizes 256K,256M; --quick = 256K only, fewer samples.\n"
    "Buffers are 2 MiB pages where the kernel grants them (the same cache placement\n"
    "every run); --small-pages uses malloc's 4 KiB pages.\n"
    "TL_CPU=scalar|sse2|avx2|avx512|neon forces a kernel path.\n";

int tl_bench_main(int argc, char **argv, const char *prog)
{
    int json = 0, samples = 9, threads = 1;
    size_t sizes[BENCH_MAX_SIZES] = {(size_t)256 << 10, (size_t)256 << 20};
    int nsizes = 2, bad = 0;
    const char *filter = NULL;
    /* Every option is checked here, before anything is timed. */
    for (int i = 1; i < argc && !bad; i++) {
        if (strcmp(argv[i], "--json") == 0) json = 1;
        else if (strcmp(argv[i], "--quick") == 0) nsizes = 1, samples = 5;
        else if (strcmp(argv[i], "--small-pages") == 0) g_small_pages = true;
        else if (strcmp(argv[i], "--size") == 0 && i + 1 < argc) bad = parse_sizes(prog, argv[++i], sizes, &nsizes);
        else if (strcmp(argv[i], "--case") == 0 && i + 1 < argc) filter = argv[++i];
        else if (strcmp(argv[i], "--samples") == 0 && i + 1 < argc) bad = parse_samples(prog, argv[++i], &samples);
        else if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) bad = parse_threads_opt(prog, argv[++i], &threads);
        else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
            printf(bench_usage, prog);
            return 0;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", prog, argv[i]);
            fprintf(stderr, bench_usage, prog);
            return 2;
        }
    }
    if (bad) return bad;
#ifdef TL_BENCH_HAVE_DNNL
    omp_set_num_threads(1); /* single thread, like tlayout */
#endif
    result *res = calloc(NCASES * 8, sizeof *res);
    int n = 0;
    if (!res) return 1;
    for (int z = 0; z < nsizes; z++)
        for (size_t c = 0; c < NCASES; c++) {
            if (filter && !strstr(k_cases[c].name, filter)) continue;
            if (run_case(&k_cases[c], sizes[z], samples, (unsigned)threads, &res[n]) == 0) n++;
            else if (!json) fprintf(stderr, "%s: case '%s' skipped: %s\n", prog, k_cases[c].name, tl_last_error());
        }
    if (json) print_json(res, n);
    else print_table(res, n);
    free(res);
    return 0;
}
