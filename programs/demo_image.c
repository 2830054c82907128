/* tlayout demo, step 0: a synthetic 1920x1080 NV12 camera frame to a 640x640
 * letterboxed model input in each vendor's format, with tl_image_plan (one
 * pass: BT.601 limited colour, bilinear resize, border 114, the format's dtype
 * and layout). Each result is checked against tl_convert of the plan's NHWC u8
 * output into the same format (the element rule and padding), and timed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define FW 1920
#define FH 1080

static const char *const image_formats[] = {
    "NHWC:u8:1x640x640x3",
    "larod.nhwc:u8:1x640x640x3:align=0,0,2048,3",
    "tidl:i8:1x3x640x640:pad=1,1,1,1:scale=0.5",
    "dml:f16:1x3x640x640:strides=1228800,1,1920,3",
    "rknn.nc1hwc2:i8:1x1x640x640x16:c=3:zp=-128:scale=1",
    "trt.chw32:i8:1x3x640x640:scale=2",
    "trt.dla_hwc4:f16:1x3x640x640",
};
#define NIMAGE (int)(sizeof image_formats / sizeof image_formats[0])

static double seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Luma ramps with a bright disc, chroma in bands: colours, edges, flat areas. */
static void make_nv12(unsigned char *f)
{
    for (int y = 0; y < FH; y++)
        for (int x = 0; x < FW; x++) {
            int dx = x - 1200, dy = y - 500, disc = dx * dx + dy * dy < 300 * 300;
            f[y * FW + x] = (unsigned char)(disc ? 220 : 16 + (x / 8 + y / 6) % 200);
        }
    for (int y = 0; y < FH / 2; y++)
        for (int x = 0; x < FW / 2; x++) {
            f[FW * FH + y * FW + 2 * x] = (unsigned char)(64 + (x / 60) * 9);      /* Cb */
            f[FW * FH + y * FW + 2 * x + 1] = (unsigned char)(200 - (y / 40) * 6); /* Cr */
        }
}

/* The plan's output for spec into *out (malloc'd), best time of runs in *ms. */
static tl_status image_into(const tl_desc *src, const unsigned char *frame, const char *spec, int runs,
                            tl_desc *d, unsigned char **out, double *ms)
{
    tl_image_params p = TL_IMAGE_PARAMS_INIT;
    tl_image_plan *plan;
    p.fit = TL_IMAGE_LETTERBOX;
    CLI_TRY(parse_spec(d, "demo image format", spec));
    CLI_TRY(tl_image_plan_create(&plan, src, d, &p));
    *out = calloc(1, (size_t)d->size_bytes);
    tl_status s = *out ? TL_OK : cli_fail(TL_ERR_NOMEM, "demo: out of memory");
    *ms = 1e30;
    for (int r = 0; r < runs && s == TL_OK; r++) {
        double t0 = seconds();
        s = tl_image_plan_run(plan, frame, (size_t)src->size_bytes, *out, (size_t)d->size_bytes);
        double t = (seconds() - t0) * 1e3;
        if (t < *ms) *ms = t;
    }
    tl_image_plan_destroy(plan);
    return s;
}

/* Prints the step; returns the number of formats that failed their check. */
int demo_image_step(int runs, tl_status *status)
{
    size_t n = (size_t)FW * FH * 3 / 2;
    unsigned char *frame = malloc(n), *ref = NULL;
    tl_desc src, ref_d;
    double ms;
    int failed = 0;
    *status = frame ? tl_desc_init_yuv420(&src, TL_YUV_NV12, FH, FW, 0, 0) : cli_fail(TL_ERR_NOMEM, "demo: out of memory");
    if (*status == TL_OK) {
        make_nv12(frame);
        *status = image_into(&src, frame, image_formats[0], runs, &ref_d, &ref, &ms);
    }
    if (*status == TL_OK) {
        printf("step 0: a synthetic %dx%d NV12 camera frame -> 640x640 letterboxed model input\n"
               "(tlayout image: BT.601 limited range, bilinear, border 114, one pass; each\n"
               "format checked against tl_convert of the NHWC u8 input; best of %d runs)\n\n", FW, FH, runs);
        printf("  %-50s %8s %8s  %s\n", "into", "bytes", "ms", "check");
        printf("  %-50s %8lld %8.3f  %s\n", image_formats[0], (long long)ref_d.size_bytes, ms, "the reference");
    }
    for (int k = 1; k < NIMAGE && *status == TL_OK; k++) {
        tl_desc d;
        unsigned char *got = NULL, *want = NULL;
        *status = image_into(&src, frame, image_formats[k], runs, &d, &got, &ms);
        if (*status == TL_OK && !(want = calloc(1, (size_t)d.size_bytes)))
            *status = cli_fail(TL_ERR_NOMEM, "demo: out of memory");
        if (*status == TL_OK)
            *status = tl_convert(&ref_d, ref, (size_t)ref_d.size_bytes, &d, want, (size_t)d.size_bytes);
        if (*status == TL_OK) {
            int same = memcmp(got, want, (size_t)d.size_bytes) == 0;
            failed += !same;
            printf("  %-50s %8lld %8.3f  %s\n", image_formats[k], (long long)d.size_bytes, ms,
                   same ? "same as tl_convert" : "DIFFERS from tl_convert");
        }
        free(got), free(want);
    }
    if (*status == TL_OK) printf("\n");
    free(frame), free(ref);
    return failed;
}
