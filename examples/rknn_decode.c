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

#define NCHAN 84
#define FIRST_CLASS 4 /* channels 0..3 are the box, 4..83 the 80 class scores */
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
 * the threshold; box and padding channels hold the same background codes. */
static void synthesize(int8_t *buf, size_t len, const tl_rknn_view *v, const int64_t *off)
{
    uint32_t s = 12345u;
    for (size_t i = 0; i < len; i++) buf[i] = (int8_t)(-128 + (int)(rng_next(&s) % 26));
    for (int k = 0; k < 600; k++) {
        int64_t h = rng_next(&s) % v->h, w = rng_next(&s) % v->w, cls = rng_next(&s) % (NCHAN - FIRST_CLASS);
        int code = k < 40 ? -1 + k % 2 : -51 + (int)(rng_next(&s) % 179); /* -1, 0 sit on 0.5 */
        buf[off[FIRST_CLASS + cls] + h * v->row_stride + w * v->pixel_stride] = (int8_t)code;
    }
}

/* Largest code of one pixel's run of C2 channels. The fixed widths (C2 is 16
 * or 8 for int8, Table 4-6) let the compiler use SIMD. */
static int8_t run_max(const int8_t *px, int64_t c2)
{
    int8_t m = INT8_MIN;
    if (c2 == 16) {
        for (int l = 0; l < 16; l++) m = px[l] > m ? px[l] : m;
    } else if (c2 == 8) {
        for (int l = 0; l < 8; l++) m = px[l] > m ? px[l] : m;
    } else {
        for (int64_t l = 0; l < c2; l++) m = px[l] > m ? px[l] : m;
    }
    return m;
}

/* A: in memory order. In NC1HWC2 the C2 channels of one block are adjacent at
 * each pixel (off[c0 + l] = off[c0] + l), so each pixel of a block is one run
 * of C2 codes: its maximum against T rejects the whole run with one compare.
 * The run may include box or padding channels (inside the buffer): they can
 * only cause a closer look, never a detection. */
static int scan_quantized(const int8_t *buf, const tl_rknn_view *v, const int64_t *off, int64_t c2, int32_t T,
                          det *out)
{
    int n = 0;
    for (int64_t c0 = 0; c0 < NCHAN; c0 += c2) {
        int64_t lo = c0 < FIRST_CLASS ? FIRST_CLASS - c0 : 0, hi = NCHAN - c0 < c2 ? NCHAN - c0 : c2;
        const int8_t *block = buf + off[c0];
        for (int64_t h = 0; h < v->h; h++)
            for (int64_t w = 0; w < v->w; w++) {
                const int8_t *px = block + h * v->row_stride + w * v->pixel_stride;
                if (run_max(px, c2) < T) continue; /* almost every pixel stops here */
                for (int64_t l = lo; l < hi && n < MAX_DET; l++)
                    if (px[l] >= T)
                        out[n++] = (det){(int32_t)h, (int32_t)w, (int32_t)(c0 + l - FIRST_CLASS),
                                         tl_rknn_dequant(v, px[l])};
            }
    }
    return n;
}

/* B: dequantize the whole tensor to NCHW f32, then compare floats (in memory
 * order of NCHW: one contiguous plane per class). */
static tl_status scan_float(const int8_t *buf, const tl_desc *src, const tl_desc *dst, float *f, double t, det *out,
                            int *count)
{
    tl_status s = tl_convert(src, buf, (size_t)src->size_bytes, dst, f, (size_t)dst->size_bytes);
    if (s != TL_OK) return s;
    int64_t H = dst->dims[2], W = dst->dims[3];
    int n = 0;
    for (int k = FIRST_CLASS; k < NCHAN; k++)
        for (int64_t h = 0; h < H; h++)
            for (int64_t w = 0; w < W; w++) {
                float score = f[(k * H + h) * W + w];
                if (score < t || n == MAX_DET) continue;
                out[n++] = (det){(int32_t)h, (int32_t)w, k - FIRST_CLASS, score};
            }
    *count = n;
    return TL_OK;
}

static int det_order(const void *pa, const void *pb)
{
    const det *a = (const det *)pa, *b = (const det *)pb;
    if (a->h != b->h) return a->h < b->h ? -1 : 1;
    if (a->w != b->w) return a->w < b->w ? -1 : 1;
    return a->cls < b->cls ? -1 : a->cls > b->cls;
}

/* Same detections, in any order, with bit-identical scores. */
static int same_detections(det *a, int na, det *b, int nb)
{
    if (na != nb) return 0;
    qsort(a, (size_t)na, sizeof *a, det_order);
    qsort(b, (size_t)nb, sizeof *b, det_order);
    for (int i = 0; i < na; i++)
        if (det_order(&a[i], &b[i]) != 0 || memcmp(&a[i].score, &b[i].score, sizeof a[i].score) != 0) return 0;
    return 1;
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
    int64_t off[NCHAN];
    int32_t T;
    TRY("parse", tl_desc_parse(&nat, k_spec));
    TRY("parse NCHW", tl_desc_parse(&nchw, "NCHW:f32:1x84x80x80"));
    TRY("view", tl_rknn_view_init(&v, &nat));
    TRY("channel offsets", tl_rknn_channel_offsets(&nat, 0, NCHAN, off));
    TRY("threshold", tl_rknn_threshold(&nat, t, &T));
    int64_t c2 = nat.vendor_params[TL_RKNN_P_C2];

    int8_t *buf = malloc((size_t)nat.size_bytes);
    float *f = malloc((size_t)nchw.size_bytes);
    det *a = malloc(MAX_DET * sizeof *a), *b = malloc(MAX_DET * sizeof *b);
    if (!buf || !f || !a || !b) return fail("malloc", TL_ERR_NOMEM);
    synthesize(buf, (size_t)nat.size_bytes, &v, off);

    int na = 0, nb = 0;
    double t0 = now_seconds();
    for (int r = 0; r < repeats; r++) na = scan_quantized(buf, &v, off, c2, T, a);
    double t1 = now_seconds();
    for (int r = 0; r < repeats; r++) TRY("convert", scan_float(buf, &nat, &nchw, f, t, b, &nb));
    double t2 = now_seconds();

    int same = same_detections(a, na, b, nb);
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
    return same && (argc > 1 || na > 0) ? 0 : 1; /* the default run must find something */
}
