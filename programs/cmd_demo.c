/* tlayout demo: a 640x480 RGB test image, made in code, through every vendor
 * format: described as the vendor reports it, converted in, checked at the
 * addresses the vendor's own numbers give, converted back, timed against
 * memcpy, drawn as SVG.
 *
 * The check does not trust tl_desc_offset: each format's element addresses
 * come from the vendor API's own view of the descriptor (larod pitches, TIDL
 * line/channel pitch, DirectML Strides, the RKNN view, TensorRT runtime
 * strides), as an application would compute them. Every byte that holds no
 * element must read 0 (padding elements) or keep its sentinel (slack).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "svg_map.h"

#define IMG_W 640
#define IMG_H 480
#define SENTINEL 0xA5
#define DEFAULT_RUNS 5

static const char demo_usage[] =
    "usage: tlayout demo [--out DIR] [--no-svg] [--runs N]\n\n"
    "Make a 640x480 RGB test image (u8, NHWC) in memory and take it through one\n"
    "format of each vendor: larod NHWC with pitched rows, larod 420SP (NV12),\n"
    "TIDL with a padded border (i8, inverse scale), DirectML strided (f16),\n"
    "RKNN NC1HWC2 (i8), TensorRT kCHW32 (i8) and DLA kDLA_HWC4 (f16). For each:\n"
    "describe it with the vendor's own numbers, convert the image into it, read\n"
    "every element back at the address those numbers give, check that padding\n"
    "reads 0 and alignment slack was not written, convert back and compare with\n"
    "the image, and time both conversions against memcpy of the same bytes\n"
    "(best of N runs, default 5). Prints one table and writes one SVG memory\n"
    "map per format into DIR (default ./tlayout-demo; --no-svg: none).\n\n"
    "Exact formats must match exactly; quantized ones within half a step (one\n"
    "step for TIDL, which truncates). For 420SP the image is first turned into\n"
    "YUV 4:4:4 here (BT.601 full range); Y must match exactly and each 2x2\n"
    "block's Cb,Cr must be its top-left sample. Exit status 1 if any check fails.\n";

/* ---- the vendor's own view of a format: element addresses and a report ---------- */
typedef struct vview {
    int64_t k[8];       /* the vendor's numbers (meaning per format) */
    int64_t es;         /* bytes per element */
    char report[200];   /* the numbers as the vendor reports them */
} vview;

typedef tl_status (*view_fn)(const tl_desc *d, vview *v);
/* Byte offset of channel c at (h, w); -1 when the format stores no such sample. */
typedef int64_t (*addr_fn)(const vview *v, int c, int h, int w);

typedef struct demo_fmt {
    const char *name;   /* table row */
    const char *file;   /* SVG file name */
    const char *spec;
    int yuv;            /* the source is YUV 4:4:4 planes, not RGB NHWC */
    view_fn view;
    addr_fn addr;
} demo_fmt;

static void list_i64(char *buf, size_t len, const int64_t *v, int n)
{
    size_t u = strlen(buf);
    for (int i = 0; i < n && u < len; i++) u += (size_t)snprintf(buf + u, len - u, "%s%lld", i ? ", " : "", (long long)v[i]);
}

/* larod: pitches in bytes, computed right to left (larod.h). */
static tl_status larod_view(const tl_desc *d, vview *v)
{
    tl_larod_tensor_pitches p;
    CLI_TRY(tl_larod_pitches_from_desc(d, &p));
    for (size_t i = 0; i < p.len && i < 8; i++) v->k[i] = (int64_t)p.pitches[i];
    snprintf(v->report, sizeof v->report, "larod pitches {");
    list_i64(v->report, sizeof v->report, v->k, (int)p.len);
    strncat(v->report, "} bytes", sizeof v->report - strlen(v->report) - 1);
    return TL_OK;
}

static int64_t larod_nhwc_addr(const vview *v, int c, int h, int w)
{
    return h * v->k[2] + w * v->k[3] + c * v->es;
}

static int64_t larod_420sp_addr(const vview *v, int c, int h, int w)
{
    if (c == 0) return h * v->k[2] + w;
    if (h % 2 || w % 2) return -1; /* one Cb,Cr pair per 2x2 block */
    return v->k[1] + (h / 2) * v->k[2] + (w / 2) * 2 + (c - 1);
}

/* TIDL: element pitches lp, cp and the first valid element PadT*lp + PadL. */
static tl_status tidl_view(const tl_desc *d, vview *v)
{
    tl_tidl_buf b;
    CLI_TRY(tl_tidl_from_desc(d, &b));
    int64_t lp = (int64_t)b.width + b.pad_l + b.pad_r;
    int64_t cp = b.channel_pitch ? b.channel_pitch : lp * ((int64_t)b.height + b.pad_t + b.pad_b);
    v->k[0] = lp;
    v->k[1] = cp;
    v->k[2] = (int64_t)b.pad_t * lp + b.pad_l;
    snprintf(v->report, sizeof v->report, "TIDL lp %lld, cp %lld, first valid %lld (elements), TensorScale %g",
             (long long)lp, (long long)cp, (long long)v->k[2], (double)b.tensor_scale);
    return TL_OK;
}

static int64_t tidl_addr(const vview *v, int c, int h, int w)
{
    return (v->k[2] + c * v->k[1] + h * v->k[0] + w) * v->es;
}

/* DirectML: Sizes N,C,H,W and Strides in elements. */
static tl_status dml_view(const tl_desc *d, vview *v)
{
    tl_dml_buffer_tensor_desc m;
    uint32_t sizes[8], strides[8];
    CLI_TRY(tl_dml_export(d, &m, sizes, strides));
    for (int i = 0; i < 4; i++) v->k[i] = strides[i];
    snprintf(v->report, sizeof v->report, "DML Sizes {%u, %u, %u, %u} Strides {%u, %u, %u, %u}", sizes[0], sizes[1],
             sizes[2], sizes[3], strides[0], strides[1], strides[2], strides[3]);
    return TL_OK;
}

static int64_t dml_addr(const vview *v, int c, int h, int w)
{
    return (c * v->k[1] + h * v->k[2] + w * v->k[3]) * v->es;
}

/* RKNN: the native dims [N, C1, H, W, C2] and the division-free view. */
static tl_status rknn_view(const tl_desc *d, vview *v)
{
    tl_rknn_view rv;
    int64_t off[3];
    CLI_TRY(tl_rknn_view_init(&rv, d));
    CLI_TRY(tl_rknn_channel_offsets(d, 0, 3, off));
    v->k[0] = off[0], v->k[1] = off[1], v->k[2] = off[2];
    v->k[3] = rv.row_stride, v->k[4] = rv.pixel_stride;
    snprintf(v->report, sizeof v->report, "RKNN native dims [%lld, %lld, %lld, %lld, %lld], pixel stride %lld, "
             "row stride %lld (elements)", (long long)d->dims[0], (long long)d->vendor_params[TL_RKNN_P_C1],
             (long long)d->dims[2], (long long)d->dims[3], (long long)d->vendor_params[TL_RKNN_P_C2],
             (long long)rv.pixel_stride, (long long)rv.row_stride);
    return TL_OK;
}

static int64_t rknn_addr(const vview *v, int c, int h, int w)
{
    return (v->k[c] + h * v->k[3] + w * v->k[4]) * v->es;
}

/* TensorRT: getTensorStrides (vector units), vectorized dim, components per vector. */
static tl_status trt_view(const tl_desc *d, vview *v)
{
    tl_trt_runtime rt;
    CLI_TRY(tl_trt_runtime_info(d, &rt));
    for (int i = 0; i < 4; i++) v->k[i] = rt.strides.d[i];
    v->k[4] = rt.vectorized_dim;
    v->k[5] = rt.vectorized_dim < 0 ? 1 : rt.components_per_element;
    snprintf(v->report, sizeof v->report, "TensorRT %s strides [%lld, %lld, %lld, %lld], vectorized dim %d, %d "
             "components", tl_trt_format_name(rt.format), (long long)v->k[0], (long long)v->k[1], (long long)v->k[2],
             (long long)v->k[3], (int)rt.vectorized_dim, (int)v->k[5]);
    return TL_OK;
}

/* The header's formula: sum over i != v of x[i]*s[i]*V, plus (x[v]/V)*s[v]*V + x[v]%V. */
static int64_t trt_addr(const vview *v, int c, int h, int w)
{
    const int64_t x[4] = {0, c, h, w}, V = v->k[5];
    int64_t scalar = 0;
    for (int i = 0; i < 4; i++)
        scalar += i == v->k[4] ? (x[i] / V) * v->k[i] * V + x[i] % V : x[i] * v->k[i] * V;
    return scalar * v->es;
}

static const demo_fmt formats[] = {
    {"larod NHWC, pitched", "1-larod-nhwc", "larod.nhwc:u8:1x480x640x3:align=0,0,256,0", 0, larod_view,
     larod_nhwc_addr},
    {"larod 420SP (NV12)", "2-larod-420sp", "larod.420sp:u8:3x480x640:align=256,4096", 1, larod_view,
     larod_420sp_addr},
    {"TIDL padded, i8", "3-tidl", "tidl:i8:1x3x480x640:pad=1,1,1,1:scale=0.5", 0, tidl_view, tidl_addr},
    {"DirectML strided, f16", "4-dml", "dml:f16:1x3x480x640:strides=921600,1,1920,3", 0, dml_view, dml_addr},
    {"RKNN NC1HWC2, i8", "5-rknn", "rknn.nc1hwc2:i8:1x1x480x640x16:c=3:zp=-128:scale=1:platform=rk3588", 0,
     rknn_view, rknn_addr},
    {"TensorRT kCHW32, i8", "6-trt-chw32", "trt.chw32:i8:1x3x480x640:scale=2", 0, trt_view, trt_addr},
    {"DLA kDLA_HWC4, f16", "7-dla-hwc4", "trt.dla_hwc4:f16:1x3x480x640", 0, trt_view, trt_addr},
};
#define NFORMATS ((int)(sizeof formats / sizeof formats[0]))

/* ---- the test image ---------------------------------------------------------------- */
/* Gradients and a checker so every code 0..255 occurs (saturation is exercised). */
static void make_rgb(unsigned char *rgb)
{
    for (int h = 0; h < IMG_H; h++)
        for (int w = 0; w < IMG_W; w++) {
            unsigned char *p = rgb + ((size_t)h * IMG_W + w) * 3;
            p[0] = (unsigned char)(w * 255 / (IMG_W - 1));
            p[1] = (unsigned char)(h * 255 / (IMG_H - 1));
            p[2] = (unsigned char)(((w / 40 + h / 40) % 2) ? 255 - (w ^ h) % 64 : (w ^ h) % 64);
        }
}

static unsigned char clamp_u8(double v)
{
    return (unsigned char)(v < 0 ? 0 : v > 255 ? 255 : floor(v + 0.5));
}

/* BT.601 full range (JFIF): planar Y, Cb, Cr, each IMG_H x IMG_W. */
static void make_yuv(const unsigned char *rgb, unsigned char *yuv)
{
    size_t n = (size_t)IMG_W * IMG_H;
    for (size_t i = 0; i < n; i++) {
        double r = rgb[3 * i], g = rgb[3 * i + 1], b = rgb[3 * i + 2];
        yuv[i] = clamp_u8(0.299 * r + 0.587 * g + 0.114 * b);
        yuv[n + i] = clamp_u8(128 - 0.168736 * r - 0.331264 * g + 0.5 * b);
        yuv[2 * n + i] = clamp_u8(128 + 0.5 * r - 0.418688 * g - 0.081312 * b);
    }
}

/* Sample c at (h, w) of the source: RGB NHWC or YUV planes. */
static int src_value(const unsigned char *src, int yuv, int c, int h, int w)
{
    size_t i = (size_t)h * IMG_W + w;
    return yuv ? src[(size_t)c * IMG_W * IMG_H + i] : src[i * 3 + (size_t)c];
}

/* ---- reading one element ------------------------------------------------------------ */
static double f16_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* The element at p: its integer code (*code) and real value. */
static double read_elem(const tl_desc *d, const unsigned char *p, int64_t *code)
{
    tl_dtype t = (tl_dtype)d->dtype;
    uint16_t u16;
    float f;
    *code = 0;
    switch (t) {
    case TL_F16: memcpy(&u16, p, 2); return f16_to_double(u16);
    case TL_F32: memcpy(&f, p, 4); return f;
    case TL_U8: *code = p[0]; break;
    case TL_I8: *code = (int8_t)p[0]; break;
    case TL_I16: { int16_t v; memcpy(&v, p, 2); *code = v; break; }
    case TL_U16: memcpy(&u16, p, 2); *code = u16; break;
    default: return NAN;
    }
    return d->quant.kind ? tl_dequantize_value(&d->quant, *code) : (double)*code;
}

/* Largest error a value may pick up in d: 0 for exact types; half a step for
 * nearest rounding, a whole step when rounding toward zero (TIDL). */
static double tolerance(const tl_desc *d)
{
    const tl_quant *q = &d->quant;
    double step = q->kind == TL_Q_AFFINE ? q->scale : q->kind == TL_Q_INV ? 1.0 / q->scale
                  : q->kind == TL_Q_DFP ? ldexp(1.0, -q->fl) : 0.0;
    return (q->round == TL_ROUND_ZERO ? step : 0.5 * step) + 1e-6;
}

/* ---- one format --------------------------------------------------------------------- */
typedef struct run {
    tl_desc d, src_d;
    vview v;
    unsigned char *buf, *expect, *mask, *back, *scratch;
    size_t size, src_size;
    double t_in, t_back, t_copy; /* best seconds */
    double max_err;
    int bad;                     /* failed checks */
    char why[256];               /* the first failure */
} run;

static void fail_once(run *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void fail_once(run *r, const char *fmt, ...)
{
    va_list ap;
    if (r->bad++) return;
    va_start(ap, fmt);
    vsnprintf(r->why, sizeof r->why, fmt, ap);
    va_end(ap);
}

/* Each element at its vendor address: the code quantization gives, within tolerance. */
static void check_elements(const demo_fmt *f, run *r, const unsigned char *src)
{
    double tol = tolerance(&r->d);
    for (int c = 0; c < 3; c++)
        for (int h = 0; h < IMG_H; h++)
            for (int w = 0; w < IMG_W; w++) {
                int64_t a = f->addr(&r->v, c, h, w), code;
                if (a < 0) continue;
                if (a + r->v.es > (int64_t)r->size) {
                    fail_once(r, "c=%d h=%d w=%d: vendor address %lld is outside the %zu-byte buffer", c, h, w,
                              (long long)a, r->size);
                    return;
                }
                memset(r->mask + a, 1, (size_t)r->v.es);
                int want = src_value(src, f->yuv, c, h, w);
                double got = read_elem(&r->d, r->buf + a, &code), err = fabs(got - want);
                int64_t qwant = r->d.quant.kind ? tl_quantize_value(&r->d.quant, (tl_dtype)r->d.dtype, (float)want) : want;
                if (err > r->max_err || err != err) r->max_err = err;
                if (!(err <= tol) || (r->d.quant.kind && code != qwant))
                    fail_once(r, "c=%d h=%d w=%d at vendor byte %lld reads %g, expected %d (allowed error %g)", c, h,
                              w, (long long)a, got, want, tol);
            }
}

/* Bytes that hold no element: padding elements 0, slack still the sentinel. */
static void check_rest(run *r)
{
    memset(r->expect, SENTINEL, r->size);
    if (tl_fill_padding(&r->d, r->expect, r->size, 0) != TL_OK) {
        fail_once(r, "tl_fill_padding: %s", tl_last_error());
        return;
    }
    for (size_t i = 0; i < r->size; i++)
        if (!r->mask[i] && r->buf[i] != r->expect[i]) {
            fail_once(r, "byte %zu holds no element; expected %s (0x%02x), found 0x%02x", i,
                      r->expect[i] == SENTINEL ? "untouched slack" : "a zeroed padding element", r->expect[i],
                      r->buf[i]);
            return;
        }
}

/* Back in the source layout: each sample equals what the format stores for it. */
static void check_back(const demo_fmt *f, run *r, const unsigned char *src)
{
    for (int c = 0; c < 3; c++)
        for (int h = 0; h < IMG_H; h++)
            for (int w = 0; w < IMG_W; w++) {
                int hs = h, ws = w;
                if (f->yuv && c > 0) hs = h & ~1, ws = w & ~1; /* the block's sample */
                int64_t code, a = f->addr(&r->v, c, hs, ws);
                double stored = read_elem(&r->d, r->buf + a, &code);
                int got = src_value(r->back, f->yuv, c, h, w), want = clamp_u8(stored);
                double err = abs(got - src_value(src, f->yuv, c, hs, ws));
                if (err > r->max_err) r->max_err = err;
                if (got != want) {
                    fail_once(r, "converted back, c=%d h=%d w=%d is %d, expected %d", c, h, w, got, want);
                    return;
                }
            }
}

static double now(void)
{
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best of `runs` conversions both ways and of memcpy of the vendor buffer's bytes. */
static tl_status time_runs(run *r, const unsigned char *src, int runs)
{
    tl_plan *in = NULL, *out = NULL;
    tl_status s = tl_plan_create(&in, &r->src_d, &r->d, 0);
    if (s == TL_OK) s = tl_plan_create(&out, &r->d, &r->src_d, 0);
    r->t_in = r->t_back = r->t_copy = 1e30;
    for (int k = 0; k < runs && s == TL_OK; k++) {
        double t0 = now();
        s = tl_plan_run(in, src, r->src_size, r->buf, r->size);
        r->t_in = fmin(r->t_in, now() - t0);
    }
    for (int k = 0; k < runs && s == TL_OK; k++) {
        double t0 = now();
        s = tl_plan_run(out, r->buf, r->size, r->back, r->src_size);
        r->t_back = fmin(r->t_back, now() - t0);
    }
    for (int k = 0; k < runs && s == TL_OK; k++) {
        double t0 = now();
        memcpy(r->scratch, r->buf, r->size);
        r->t_copy = fmin(r->t_copy, now() - t0);
    }
    tl_plan_destroy(in);
    tl_plan_destroy(out);
    return s;
}

static tl_status alloc_run(run *r)
{
    CLI_TRY(desc_size_t(&r->d, &r->size));
    CLI_TRY(desc_size_t(&r->src_d, &r->src_size));
    r->buf = malloc(r->size);
    r->expect = malloc(r->size);
    r->mask = calloc(r->size, 1);
    r->scratch = malloc(r->size);
    r->back = malloc(r->src_size);
    if (!r->buf || !r->expect || !r->mask || !r->scratch || !r->back)
        return cli_fail(TL_ERR_NOMEM, "demo: buffers of %zu bytes: out of memory", r->size);
    memset(r->buf, SENTINEL, r->size);
    return TL_OK;
}

static void free_run(run *r)
{
    free(r->buf);
    free(r->expect);
    free(r->mask);
    free(r->scratch);
    free(r->back);
}

static tl_status do_format(const demo_fmt *f, run *r, const unsigned char *rgb, const unsigned char *yuv, int runs)
{
    const unsigned char *src = f->yuv ? yuv : rgb;
    CLI_TRY(parse_spec(&r->d, "demo format", f->spec));
    CLI_TRY(parse_spec(&r->src_d, "demo source", f->yuv ? "CHW:u8:3x480x640" : "NHWC:u8:1x480x640x3"));
    r->v.es = tl_dtype_bits((tl_dtype)r->d.dtype) / 8;
    CLI_TRY(f->view(&r->d, &r->v));
    CLI_TRY(alloc_run(r));
    CLI_TRY(time_runs(r, src, runs));
    check_elements(f, r, src);
    if (!r->bad) check_rest(r);
    if (!r->bad) check_back(f, r, src);
    return TL_OK;
}

/* ---- output ---------------------------------------------------------------------- */
static const char *verdict(const run *r)
{
    if (r->bad) return "FAILED";
    if (r->max_err == 0) return "yes, exact";
    return r->d.quant.round == TL_ROUND_ZERO ? "yes, < 1 step" : "yes, <= 1/2 step";
}

static void print_row(int k, const demo_fmt *f, const run *r)
{
    double gb = (double)r->size * 1e-9;
    printf("%2d  %-22s %8zu  %7.2f (%3.0f%%)  %7.2f (%3.0f%%)  %7.2f  %7.3g  %s\n", k + 1, f->name, r->size,
           gb / r->t_in, 100.0 * r->t_copy / r->t_in, gb / r->t_back, 100.0 * r->t_copy / r->t_back, gb / r->t_copy,
           r->max_err, verdict(r));
}

static void print_header(void)
{
    printf("tlayout demo: a 640x480 RGB test image (NHWC u8, 921600 bytes, made in memory)\n"
           "converted into one format of each vendor and back. Every element is read at the\n"
           "address the vendor's own numbers give (listed below the table); padding must\n"
           "read 0 and alignment slack must be left untouched.\n\n");
    printf("%2s  %-22s %8s  %14s  %14s  %7s  %7s  %s\n", "", "format", "bytes", "into GB/s     ", "back GB/s     ",
           "memcpy", "max err", "verified");
}

static void print_footer(const run *rs, int runs, const char *dir)
{
    printf("\nGB/s: the format's bytes over the best of %d runs of a tl_plan, and (in brackets)\n"
           "as a share of memcpy speed on the same bytes (memcpy column, GB/s). Informational:\n"
           "hot caches, this machine. max err: largest |stored value - image value| in pixel\n"
           "units; quantized formats allow half a step (TIDL: one step, it truncates).\n"
           "420SP: the image is made YUV 4:4:4 here (BT.601 full range); Y must be exact and\n"
           "each 2x2 block's Cb,Cr its top-left sample.\n\nWhat each vendor reports:\n", runs);
    for (int k = 0; k < NFORMATS; k++) {
        char spec[256];
        if (tl_desc_format(&rs[k].d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "%s", formats[k].spec);
        printf("%2d  %s\n    %s\n", k + 1, spec, rs[k].v.report);
        if (rs[k].bad) printf("    FAILED: %s\n", rs[k].why);
    }
    if (dir) printf("\nMemory maps (open in a web browser): %s/*.svg, one per format.\n", dir);
}

/* ---- pictures ---------------------------------------------------------------------- */
static tl_status make_dir(const char *dir)
{
    struct stat st;
    if (mkdir(dir, 0777) == 0 || (errno == EEXIST && stat(dir, &st) == 0 && S_ISDIR(st.st_mode))) return TL_OK;
    return cli_io_error("cannot create directory", dir);
}

static tl_status write_pictures(const run *rs, const char *dir)
{
    CLI_TRY(make_dir(dir));
    for (int k = 0; k < NFORMATS; k++) {
        char path[4096], title[128];
        snprintf(path, sizeof path, "%s/%s.svg", dir, formats[k].file);
        snprintf(title, sizeof title, "tlayout demo %d: %s", k + 1, formats[k].name);
        svg_opts o = {0, 0, title};
        CLI_TRY(svg_write(&rs[k].d, &o, path));
    }
    return TL_OK;
}

static int demo_main(const char *dir, int runs)
{
    size_t n = (size_t)IMG_W * IMG_H * 3;
    unsigned char *rgb = malloc(n), *yuv = malloc(n);
    run rs[NFORMATS];
    memset(rs, 0, sizeof rs);
    tl_status s = rgb && yuv ? TL_OK : cli_fail(TL_ERR_NOMEM, "demo: out of memory");
    int failed = 0;
    if (s == TL_OK) failed = demo_image_step(runs, &s);
    if (s == TL_OK) {
        make_rgb(rgb);
        make_yuv(rgb, yuv);
        print_header();
    }
    for (int k = 0; k < NFORMATS && s == TL_OK; k++) {
        s = do_format(&formats[k], &rs[k], rgb, yuv, runs);
        if (s == TL_OK) print_row(k, &formats[k], &rs[k]);
        failed += rs[k].bad != 0;
    }
    if (s == TL_OK && dir) s = write_pictures(rs, dir);
    if (s == TL_OK) print_footer(rs, runs, dir);
    if (s == TL_OK) s = demo_rknn_decode(runs); /* post-processing on step 5's layout */
    for (int k = 0; k < NFORMATS; k++) free_run(&rs[k]);
    free(rgb);
    free(yuv);
    if (s != TL_OK) return die_status(s);
    if (failed) printf("\n%d of %d formats FAILED verification\n", failed, NFORMATS);
    else printf("\nall %d formats verified\n", NFORMATS);
    return failed ? CLI_EXIT_ERROR : CLI_EXIT_OK;
}

int cmd_demo(int argc, char **argv)
{
    const char *dir = "./tlayout-demo", *v;
    int runs = DEFAULT_RUNS;
    for (int i = 1; i < argc; i++) {
        int r;
        if (is_help(argv[i])) {
            fputs(demo_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "--no-svg") == 0) {
            dir = NULL;
        } else if ((r = take_option(argc, argv, &i, "--out", &v)) != 0) {
            if (r < 0 || !*v) return die_usage("demo", "--out needs a directory");
            dir = v;
        } else if ((r = take_option(argc, argv, &i, "--runs", &v)) != 0) {
            char *end;
            long n = r < 0 ? 0 : strtol(v, &end, 10);
            if (r < 0 || *v == '\0' || *end != '\0' || n < 1 || n > 1000)
                return die_usage("demo", "--runs needs a count from 1 to 1000");
            runs = (int)n;
        } else {
            static const char *const known[] = {"--out", "--no-svg", "--runs", "--help"};
            return die_unknown_arg("demo", argv[i], known, sizeof known / sizeof known[0]);
        }
    }
    return demo_main(dir, runs);
}
