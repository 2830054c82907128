/* rknn_decode — scan an RKNN NC1HWC2 detection output for class scores above a
 * confidence threshold, two ways, and check they find the same detections:
 *
 *   A. threshold in the quantized domain: compare raw int8 codes in the native
 *      layout against tl_rknn_threshold() and dequantize only the codes that pass;
 *   B. dequantize everything (tl_convert to NCHW f32), then scan the floats.
 *
 * The output is synthetic: a YOLOv8-style head of 84 channels (4 box + 80 class
 * scores) on an 80x80 grid, int8 affine (zp -128, scale 1/256), as an RK3588
 * reports it natively: dims [1, 6, 80, 80, 16] (C1 = 6 blocks of C2 = 16).
 *
 *   usage: rknn_decode [THRESHOLD] [REPEATS]      (defaults 0.5 and 20)
 *
 * Exit status 0 when both ways agree (every detection, bit for bit), 1 if not.
 * Timings are printed for information only (docs/rknn.md discusses them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tlayout.h"

#define NCLASS 80
#define FIRST_CLASS 4 /* channels 0..3 are the box */
#define MAX_DET 100000

typedef struct det {
    int32_t h, w, cls;
    float score;
} det;

static const char k_spec[] = "rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.00390625";

static double now_seconds(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint32_t rng_next(uint32_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 17, *s ^= *s << 5; /* xorshift32 */
    return *s;
}

/* Background scores 0..0.1, a few hundred objects 0.3..1.0 and codes right at
 * the threshold; padding channels 84..95 hold junk the scan must never read. */
static void synthesize(int8_t *buf, size_t len, const tl_rknn_view *v, const int64_t *off)
{
    uint32_t s = 12345u;
    for (size_t i = 0; i < len; i++) buf[i] = (int8_t)(-128 + (int)(rng_next(&s) % 26));
    for (int k = 0; k < 600; k++) {
        int64_t h = rng_next(&s) % v->h, w = rng_next(&s) % v->w, cls = rng_next(&s) % NCLASS;
        int code = k < 40 ? -1 + k % 2 : -51 + (int)(rng_next(&s) % 179); /* -1, 0 sit on 0.5 */
        buf[off[FIRST_CLASS + cls] + h * v->row_stride + w * v->pixel_stride] = (int8_t)code;
    }
}

/* A: compare codes, dequantize only the ones that pass. No division inside. */
static int scan_quantized(const int8_t *buf, const tl_rknn_view *v, const int64_t *off, int32_t T, det *out)
{
    int n = 0;
    for (int64_t h = 0; h < v->h; h++)
        for (int64_t w = 0; w < v->w; w++) {
            const int8_t *pix = buf + h * v->row_stride + w * v->pixel_stride;
            for (int k = 0; k < NCLASS; k++) {
                int32_t q = pix[off[FIRST_CLASS + k]];
                if (q < T || n == MAX_DET) continue;
                out[n++] = (det){(int32_t)h, (int32_t)w, k, tl_rknn_dequant(v, q)};
            }
        }
    return n;
}

/* B: dequantize the whole tensor to NCHW f32, then compare floats. */
static tl_status scan_float(const int8_t *buf, const tl_desc *src, const tl_desc *dst, float *f, double t, det *out,
                            int *count)
{
    tl_status s = tl_convert(src, buf, (size_t)src->size_bytes, dst, f, (size_t)dst->size_bytes);
    if (s != TL_OK) return s;
    int64_t H = dst->dims[2], W = dst->dims[3];
    int n = 0;
    for (int64_t h = 0; h < H; h++)
        for (int64_t w = 0; w < W; w++)
            for (int k = 0; k < NCLASS; k++) {
                float score = f[((FIRST_CLASS + k) * H + h) * W + w];
                if (score < t || n == MAX_DET) continue;
                out[n++] = (det){(int32_t)h, (int32_t)w, k, score};
            }
    *count = n;
    return TL_OK;
}

static int fail(const char *what, tl_status s)
{
    fprintf(stderr, "rknn_decode: %s: %s: %s\n", what, tl_status_str(s), tl_last_error());
    return 1;
}

#define TRY(what, call)                         \
    do {                                        \
        tl_status s_ = (call);                  \
        if (s_ != TL_OK) return fail(what, s_); \
    } while (0)

int main(int argc, char **argv)
{
    double t = argc > 1 ? atof(argv[1]) : 0.5;
    int repeats = argc > 2 ? atoi(argv[2]) : 20;
    if (repeats < 1) repeats = 1;
    tl_desc nat, nchw;
    tl_rknn_view v;
    int64_t off[84];
    int32_t T;
    TRY("parse", tl_desc_parse(&nat, k_spec));
    TRY("parse NCHW", tl_desc_parse(&nchw, "NCHW:f32:1x84x80x80"));
    TRY("view", tl_rknn_view_init(&v, &nat));
    TRY("channel offsets", tl_rknn_channel_offsets(&nat, 0, 84, off));
    TRY("threshold", tl_rknn_threshold(&nat, t, &T));

    int8_t *buf = malloc((size_t)nat.size_bytes);
    float *f = malloc((size_t)nchw.size_bytes);
    det *a = malloc(MAX_DET * sizeof *a), *b = malloc(MAX_DET * sizeof *b);
    if (!buf || !f || !a || !b) return fail("malloc", TL_ERR_NOMEM);
    synthesize(buf, (size_t)nat.size_bytes, &v, off);

    int na = 0, nb = 0;
    double t0 = now_seconds();
    for (int r = 0; r < repeats; r++) na = scan_quantized(buf, &v, off, T, a);
    double t1 = now_seconds();
    for (int r = 0; r < repeats; r++) TRY("convert", scan_float(buf, &nat, &nchw, f, t, b, &nb));
    double t2 = now_seconds();

    int same = na == nb;
    for (int i = 0; same && i < na; i++)
        same = a[i].h == b[i].h && a[i].w == b[i].w && a[i].cls == b[i].cls &&
               memcmp(&a[i].score, &b[i].score, sizeof a[i].score) == 0;
    printf("spec       %s\n", k_spec);
    printf("threshold  %g -> quantized threshold %d (codes >= %d pass)\n", t, (int)T, (int)T);
    printf("A quantized scan, dequantize passing: %d detections, %.1f us/frame\n", na, (t1 - t0) * 1e6 / repeats);
    printf("B dequantize all (tl_convert), scan:  %d detections, %.1f us/frame\n", nb, (t2 - t1) * 1e6 / repeats);
    for (int i = 0; i < na && i < 3; i++)
        printf("  e.g. class %2d at (h=%2d, w=%2d) score %.8g\n", (int)a[i].cls, (int)a[i].h, (int)a[i].w,
               (double)a[i].score);
    printf("%s\n", same ? "A and B agree on every detection" : "MISMATCH between A and B");
    free(buf);
    free(f);
    free(a);
    free(b);
    return same && na > 0 ? 0 : 1;
}
