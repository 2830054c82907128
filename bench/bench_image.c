/* bench_image: camera frame to model input, tlayout against OpenCV 4.6 and
 * libyuv (a benchmark program, not a test; docs/image.md, performance.md).
 *
 *   bench_image [--runs N]
 *
 * A synthetic 1920x1080 NV12 frame into a 640x640 letterboxed input, one
 * thread, best of N runs (default 50) after a warm-up:
 *   - memcpy of the 1228800-byte NHWC u8 output (the floor);
 *   - OpenCV's chain: cvtColor + resize INTER_LINEAR + copyMakeBorder;
 *   - libyuv's chain: NV12Scale (bilinear) to 640x360 + NV12ToRAW into the
 *     image rows of a frame whose border was filled with 114 once;
 *   - tl_image_plan_run, exact and fast mode, into NHWC u8, and into RKNN
 *     NC1HWC2 i8, TIDL padded i8, DLA HWC4 f16 and NCHW f32 (ImageNet mean/std).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libyuv.h>
#include <tlayout.h>

#define FW 1920
#define FH 1080
#define SIDE 640
#define NEW_W 640
#define NEW_H 360
#define TOP 140

void tl_bench_opencv_init(void);
void tl_bench_opencv_chain(const uint8_t *nv12, int w, int h, uint8_t *out, int side, int new_w, int new_h,
                           int top, int left);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

typedef struct ctx {
    const uint8_t *nv12;
    uint8_t *out, *small, *copy_src;
    const tl_image_plan *plan;
    size_t out_len;
} ctx;

typedef void (*job_fn)(ctx *c);

static double best_ms(job_fn f, ctx *c, int runs)
{
    f(c); /* warm-up: page faults, caches */
    double best = 1e30;
    for (int r = 0; r < runs; r++) {
        double t = now();
        f(c);
        t = now() - t;
        if (t < best) best = t;
    }
    return best * 1e3;
}

static void job_memcpy(ctx *c) { memcpy(c->out, c->copy_src, c->out_len); }
static void job_opencv(ctx *c) { tl_bench_opencv_chain(c->nv12, FW, FH, c->out, SIDE, NEW_W, NEW_H, TOP, 0); }
static void job_libyuv(ctx *c)
{
    uint8_t *sy = c->small, *suv = c->small + NEW_W * NEW_H;
    NV12Scale(c->nv12, FW, c->nv12 + FW * FH, FW, FW, FH, sy, NEW_W, suv, NEW_W, NEW_W, NEW_H, kFilterBilinear);
    NV12ToRAW(sy, NEW_W, suv, NEW_W, c->out + TOP * SIDE * 3, SIDE * 3, NEW_W, NEW_H);
}
static void job_tlayout(ctx *c) { tl_image_plan_run(c->plan, c->nv12, (size_t)FW * FH * 3 / 2, c->out, c->out_len); }

static int plan_for(const char *spec, int mode, int meanstd, tl_image_plan **plan, size_t *len)
{
    tl_desc s, d;
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    p.fit = TL_IMAGE_LETTERBOX, p.mode = mode;
    if (meanstd) {
        const float mean[3] = {123.675f, 116.28f, 103.53f}, std[3] = {58.395f, 57.12f, 57.375f};
        memcpy(p.mean, mean, sizeof mean), memcpy(p.std, std, sizeof std);
    }
    if (tl_desc_init_yuv420(&s, TL_YUV_NV12, FH, FW, 0, 0) != TL_OK || tl_desc_parse(&d, spec) != TL_OK ||
        tl_image_plan_create(plan, &s, &d, &p) != TL_OK) {
        fprintf(stderr, "bench_image: %s: %s\n", spec, tl_last_error());
        return 1;
    }
    *len = (size_t)d.size_bytes;
    return 0;
}

int main(int argc, char **argv)
{
    int runs = 50;
    if (argc == 3 && strcmp(argv[1], "--runs") == 0) runs = atoi(argv[2]);
    if (runs < 1 || (argc != 1 && argc != 3)) {
        fprintf(stderr, "usage: bench_image [--runs N]\n");
        return 2;
    }
    static const struct { const char *name, *spec; int meanstd; } dsts[] = {
        {"NHWC u8", "NHWC:u8:1x640x640x3", 0},
        {"RKNN NC1HWC2 i8", "rknn.nc1hwc2:i8:1x1x640x640x16:c=3:zp=-128:scale=1", 0},
        {"TIDL padded i8", "tidl:i8:1x3x640x640:pad=1,1,1,1:scale=0.5", 0},
        {"DLA HWC4 f16", "trt.dla_hwc4:f16:1x3x640x640", 0},
        {"NCHW f32 mean/std", "NCHW:f32:1x3x640x640", 1},
    };
    size_t frame_len = (size_t)FW * FH * 3 / 2, big = (size_t)SIDE * SIDE * 16 * 2;
    uint8_t *nv12 = malloc(frame_len);
    ctx c = {nv12, malloc(big), malloc((size_t)NEW_W * NEW_H * 3 / 2), malloc(big), NULL, (size_t)SIDE * SIDE * 3};
    if (!nv12 || !c.out || !c.small || !c.copy_src) return 1;
    for (size_t i = 0; i < frame_len; i++) nv12[i] = (uint8_t)(i < (size_t)FW * FH ? (i % FW) / 8 + (i / FW) / 6 : 96 + i % 64);
    memset(c.copy_src, 7, big);
    tl_bench_opencv_init();

    double t_copy = best_ms(job_memcpy, &c, runs), t_cv = best_ms(job_opencv, &c, runs);
    memset(c.out, 114, c.out_len); /* libyuv: the border filled once */
    double t_yuv = best_ms(job_libyuv, &c, runs);
    printf("bench_image: 1920x1080 NV12 -> 640x640 letterbox, one thread, best of %d runs\n\n", runs);
    printf("%-36s %9s  %s\n", "chain", "ms", "ratio");
    printf("%-36s %9.3f\n", "memcpy of the NHWC u8 output", t_copy);
    printf("%-36s %9.3f  1.00 (OpenCV)\n", "OpenCV 4.6 cvtColor+resize+border", t_cv);
    printf("%-36s %9.3f  %.2f x OpenCV\n", "libyuv NV12Scale+NV12ToRAW", t_yuv, t_yuv / t_cv);
    double own[2] = {0, 0};
    for (size_t k = 0; k < sizeof dsts / sizeof dsts[0]; k++)
        for (int mode = 0; mode < 2; mode++) {
            tl_image_plan *plan;
            if (plan_for(dsts[k].spec, mode, dsts[k].meanstd, &plan, &c.out_len)) return 1;
            c.plan = plan;
            double t = best_ms(job_tlayout, &c, runs);
            tl_image_plan_destroy(plan);
            char name[64];
            snprintf(name, sizeof name, "tlayout %s, %s", mode ? "fast" : "exact", dsts[k].name);
            if (k == 0) {
                own[mode] = t;
                printf("%-36s %9.3f  %.2f x OpenCV, %.2f x libyuv\n", name, t, t / t_cv, t / t_yuv);
            } else {
                printf("%-36s %9.3f  %.2f x its NHWC u8\n", name, t, t / own[mode]);
            }
        }
    free(nv12), free(c.out), free(c.small), free(c.copy_src);
    return 0;
}
