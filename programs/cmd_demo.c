/* tlayout demo: a built-in tensor converted through a chain of layouts with
 * tl_convert, every element of every step checked against the original. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "core/internal.h"

static const char demo_usage[] =
    "usage: tlayout demo\n\n"
    "Build a 1x3x5x7 f32 tensor (N C H W) with a known pattern, convert it with\n"
    "tl_convert through each layout of the chain below, one after the other, and\n"
    "check every element of every step against the original (within the\n"
    "quantization error once the chain has been through a quantized layout).\n"
    "Prints one row per step; exits 1 if any step fails.\n";

/* The chain, in order; each row converts from the row above. Dims are given in
 * the order of each layout's letters. Add rows here (vendor formats too): the
 * check below is generic. */
static const char *const demo_chain[] = {
    "NCHW:f32:1x3x5x7",                  /* the built-in tensor (must stay f32) */
    "NHWC:f32:1x5x7x3",                  /* channels last */
    "NCHW16c:f32:1x3x5x7",               /* blocked channels, C padded to 16 */
    "NHWC:i8:1x5x7x3:scale=0.03:zp=-5",  /* affine quantized */
    "NCHW:f32:1x3x5x7",                  /* back, dequantized */
};
#define DEMO_STEPS ((int)(sizeof demo_chain / sizeof demo_chain[0]))

static const char demo_labels[4] = {'N', 'C', 'H', 'W'};
static const int64_t demo_dims[4] = {1, 3, 5, 7};

typedef struct demo_step {
    tl_desc d;
    unsigned char *buf;
    size_t size;
    double tol;     /* error allowed against the original, accumulated */
    double max_err; /* error seen */
} demo_step;

static float demo_value(const int64_t *x)
{
    int64_t i = ((x[0] * 3 + x[1]) * 5 + x[2]) * 7 + x[3];
    return (float)(i % 53) * 0.1234f - 3.0f;
}

/* Logical NCHW coordinate -> the descriptor's dim order (by label, else by position). */
static void demo_coords(const tl_desc *d, const int64_t *nchw, int64_t *out)
{
    for (int i = 0; i < d->rank; i++) {
        out[i] = i < 4 ? nchw[i] : 0;
        for (int k = 0; k < 4; k++)
            if (d->labels[i] == demo_labels[k]) out[i] = nchw[k];
    }
}

static double f16_value(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

/* Integer code of a non-float element at p (4-bit: the nibble at bit `shift`). */
static int64_t int_code(tl_dtype t, const unsigned char *p, unsigned shift)
{
    switch (t) {
    case TL_U8: case TL_BOOL: return *p;
    case TL_I8: return (int8_t)*p;
    case TL_U4: return (*p >> shift) & 15;
    case TL_I4: return (int64_t)((*p >> shift) & 15) - (((*p >> shift) & 8) ? 16 : 0);
    default: break;
    }
    union { uint16_t u16; int16_t i16; uint32_t u32; int32_t i32; uint64_t u64; int64_t i64; } v;
    memcpy(&v, p, tl_dtype_bits(t) / 8);
    switch (t) {
    case TL_U16: return v.u16;
    case TL_I16: return v.i16;
    case TL_U32: return v.u32;
    case TL_I32: return v.i32;
    case TL_U64: return (int64_t)v.u64;
    default: return v.i64;
    }
}

/* The real value of the element at logical NCHW coordinate x. */
static tl_status demo_read(const demo_step *s, const int64_t *nchw, double *out)
{
    int64_t x[TL_MAX_DIMS];
    uint64_t bits;
    tl_dtype t = (tl_dtype)s->d.dtype;
    demo_coords(&s->d, nchw, x);
    tl_status st = tl_desc_offset_bits(&s->d, x, &bits);
    if (st != TL_OK) return st;
    const unsigned char *p = s->buf + bits / 8;
    float f;
    uint16_t h;
    double g;
    if (t == TL_F32) {
        memcpy(&f, p, 4);
        *out = f;
    } else if (t == TL_F64) {
        memcpy(&g, p, 8);
        *out = g;
    } else if (t == TL_F16 || t == TL_BF16) {
        memcpy(&h, p, 2);
        uint32_t w = (uint32_t)h << 16;
        memcpy(&f, &w, 4);
        *out = t == TL_F16 ? f16_value(h) : (double)f;
    } else {
        int64_t code = int_code(t, p, (unsigned)(bits % 8));
        *out = s->d.quant.kind ? tl_dequantize_value(&s->d.quant, code) : (double)code;
    }
    return TL_OK;
}

/* Error a value may pick up when stored in d (|v| <= vmax). */
static double step_error(const tl_desc *d, double vmax)
{
    const tl_quant *q = &d->quant;
    double slack = 1e-6 * vmax; /* f32 arithmetic of (de)quantization */
    switch ((tl_dtype)d->dtype) {
    case TL_F32: case TL_F64: return 0.0;
    case TL_F16: return vmax * ldexp(1.0, -11);
    case TL_BF16: return vmax * ldexp(1.0, -8);
    default: break;
    }
    switch (q->kind) {
    case TL_Q_AFFINE: return 0.5 * q->scale + slack;
    case TL_Q_INV: return 0.5 / q->scale + slack;
    case TL_Q_DFP: return 0.5 * ldexp(1.0, -q->fl) + slack;
    default: return 0.5 + slack; /* rounded to an integer */
    }
}

static void coord_of_index(int64_t *x, int64_t i)
{
    for (int k = 3; k >= 0; k--) {
        x[k] = i % demo_dims[k];
        i /= demo_dims[k];
    }
}

#define DEMO_COUNT (1 * 3 * 5 * 7)

static tl_status demo_fill(demo_step *s)
{
    for (int64_t i = 0; i < DEMO_COUNT; i++) {
        int64_t x[4], y[TL_MAX_DIMS];
        uint64_t off;
        float v;
        coord_of_index(x, i);
        demo_coords(&s->d, x, y);
        TL_TRY(tl_desc_offset(&s->d, y, &off));
        v = demo_value(x);
        memcpy(s->buf + off, &v, sizeof v);
    }
    return TL_OK;
}

/* Returns the number of elements outside the tolerance (first one reported). */
static int demo_verify(int k, demo_step *s, tl_status *st)
{
    int bad = 0;
    s->max_err = 0.0;
    for (int64_t i = 0; i < DEMO_COUNT && *st == TL_OK; i++) {
        int64_t x[4];
        double got, want, err;
        coord_of_index(x, i);
        want = demo_value(x);
        *st = demo_read(s, x, &got);
        err = fabs(got - want);
        if (*st != TL_OK) break;
        if (err > s->max_err || err != err) s->max_err = err;
        if (!(err <= s->tol) && bad++ == 0)
            fprintf(stderr, "tlayout demo: step %d: element n=%lld c=%lld h=%lld w=%lld is %.9g, "
                    "expected %.9g (allowed error %.3g)\n", k, (long long)x[0], (long long)x[1],
                    (long long)x[2], (long long)x[3], got, want, s->tol);
    }
    return bad;
}

static tl_status demo_prepare(demo_step *s, int k, double prev_tol)
{
    TL_TRY(parse_spec(&s->d, "demo layout", demo_chain[k]));
    TL_TRY(desc_size_t(&s->d, &s->size));
    s->buf = calloc(s->size ? s->size : 1, 1);
    if (!s->buf) return tl_fail(TL_ERR_NOMEM, "demo: %zu bytes: out of memory", s->size);
    s->tol = prev_tol + step_error(&s->d, 3.6);
    return TL_OK;
}

static void demo_row(int k, const demo_step *s, int bad)
{
    char spec[256];
    if (tl_desc_format(&s->d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "%s", demo_chain[k]);
    printf("%4d  %-44s %7zu  %-11.3g  %s\n", k, spec, s->size, s->max_err, bad ? "NO" : "yes");
}

static int demo_run(demo_step *steps)
{
    int failed = 0;
    tl_status st = TL_OK;
    printf("tlayout demo: a 1x3x5x7 f32 tensor (N C H W) converted with tl_convert through\n"
           "the layouts below, one after the other; every element of every step is checked\n"
           "against the original.\n\n");
    printf("%4s  %-44s %7s  %-11s  %s\n", "step", "layout", "bytes", "max |error|", "verified");
    for (int k = 0; k < DEMO_STEPS && st == TL_OK; k++) {
        st = demo_prepare(&steps[k], k, k ? steps[k - 1].tol : 0.0);
        if (st == TL_OK && k == 0) st = demo_fill(&steps[0]);
        if (st == TL_OK && k > 0)
            st = tl_convert(&steps[k - 1].d, steps[k - 1].buf, steps[k - 1].size, &steps[k].d,
                            steps[k].buf, steps[k].size);
        if (st != TL_OK) break;
        int bad = demo_verify(k, &steps[k], &st);
        if (st != TL_OK) break;
        failed += bad != 0;
        demo_row(k, &steps[k], bad);
    }
    if (st != TL_OK) return die_status(st);
    if (failed) {
        printf("\n%d of %d steps FAILED verification\n", failed, DEMO_STEPS);
        return CLI_EXIT_ERROR;
    }
    printf("\nall %d steps verified\n", DEMO_STEPS);
    return CLI_EXIT_OK;
}

int cmd_demo(int argc, char **argv)
{
    if (argc > 1) {
        if (is_help(argv[1])) {
            fputs(demo_usage, stdout);
            return CLI_EXIT_OK;
        }
        return die_usage("demo", "unexpected argument '%s'", argv[1]);
    }
    demo_step steps[DEMO_STEPS];
    memset(steps, 0, sizeof steps);
    int rc = demo_run(steps);
    for (int k = 0; k < DEMO_STEPS; k++) free(steps[k].buf);
    return rc;
}
