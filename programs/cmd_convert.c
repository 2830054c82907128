/* tlayout convert --from SPEC --to SPEC -i IN -o OUT [--keep-padding] [--stats] [--threads N] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char convert_usage[] =
    "usage: tlayout convert --from SPEC --to SPEC -i IN -o OUT [--keep-padding] [--stats] [--threads N]\n\n"
    "Read a raw tensor laid out as --from, convert every logical element to the\n"
    "layout, dtype and quantization of --to (dims matched by label, else by\n"
    "position), and write exactly the destination's size in bytes.\n\n"
    "  --from SPEC      layout of the input\n"
    "  --to SPEC        layout of the output\n"
    "  -i, --input IN   input file, '-' for stdin; it must hold exactly the\n"
    "                   source's size in bytes\n"
    "  -o, --output OUT output file, '-' for stdout\n"
    "  --keep-padding   do not write the destination's padding: it keeps the bytes\n"
    "                   OUT already has (when OUT is an existing file that large),\n"
    "                   else zero. Without it, padding is written as zero.\n"
    "  --threads N      convert on up to N threads (0 = the fast cores; small\n"
    "                   inputs stay on one); the output is the same\n"
    "  --stats          print to stderr the count, min and max of the destination's\n"
    "                   real values (dequantized) and how many elements saturated\n"
    "                   (source value outside what the destination can hold): a\n"
    "                   check for a forgotten scale= or zp=\n\n"
    "convert moves and re-types samples; it does no colour conversion. A YUV source\n"
    "(yuv.nv12, larod.420sp, ...) converted into a non-YUV layout keeps Y, U and V\n"
    "as channels 0, 1, 2 (a warning says so); for RGB use 'tlayout image'.\n\n"
    "example: tlayout convert --from NCHW:f32:1x3x4x4 --to NHWC:f32:1x4x4x3 -i a.bin -o b.bin\n";

typedef struct convert_args {
    const char *from, *to, *in, *out, *threads;
    int keep_padding, stats;
} convert_args;

/* 0 = parsed, -1 = help asked for, else the usage error's exit code. */
static int parse_args(int argc, char **argv, convert_args *a)
{
    const struct { const char *name; const char **slot; } opts[] = {
        {"--from", &a->from}, {"--to", &a->to},      {"-i", &a->in},
        {"--input", &a->in},  {"-o", &a->out},       {"--output", &a->out},
        {"--threads", &a->threads},
    };
    static const char *const known[] = {"--from", "--to", "--input", "--output", "--keep-padding", "--stats", "--threads", "--help"};
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) return -1;
        if (strcmp(argv[i], "--keep-padding") == 0 || strcmp(argv[i], "--stats") == 0) {
            *(argv[i][2] == 'k' ? &a->keep_padding : &a->stats) = 1;
            continue;
        }
        int hit = 0;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !hit; k++) {
            hit = take_option(argc, argv, &i, opts[k].name, opts[k].slot);
            if (hit < 0) return die_usage("convert", "%s needs a value", opts[k].name);
        }
        if (!hit) return die_unknown_arg("convert", argv[i], known, sizeof known / sizeof known[0]);
    }
    if (!a->from) return die_usage("convert", "missing --from SPEC");
    if (!a->to) return die_usage("convert", "missing --to SPEC");
    if (!a->in) return die_usage("convert", "missing -i IN");
    if (!a->out) return die_usage("convert", "missing -o OUT");
    if (a->threads && parse_threads(a->threads) < 0)
        return die_usage("convert", "--threads '%s': a whole number from 0 to %u", a->threads, TL_PARALLEL_MAX_THREADS);
    return 0;
}

/* The destination buffer: zeroed, or OUT's current bytes with --keep-padding. */
static tl_status make_dst(const convert_args *a, size_t n, unsigned char **dst)
{
    *dst = calloc(n ? n : 1, 1);
    if (!*dst) return cli_fail(TL_ERR_NOMEM, "destination of %zu bytes: out of memory", n);
    if (!a->keep_padding || strcmp(a->out, "-") == 0) return TL_OK;
    FILE *f = fopen(a->out, "rb");
    if (!f) return TL_OK; /* no file yet: padding stays zero */
    size_t got = fread(*dst, 1, n, f);
    fclose(f);
    if (got < n) memset(*dst, 0, n); /* too short to be a previous output */
    return TL_OK;
}

/* IN must hold exactly the source's bytes: fewer cannot be converted, more
 * usually means a wrong --from (dims or dtype). */
static tl_status read_source(const convert_args *a, size_t src_size, unsigned char **in, size_t *in_len)
{
    size_t max = src_size < SIZE_MAX ? src_size + 1 : src_size;
    CLI_TRY(read_file(a->in, max ? max : 1, in, in_len));
    if (*in_len < src_size)
        return cli_fail(TL_ERR_BUFFER_SMALL, "input '%s' has %zu bytes; --from %s needs %zu", a->in, *in_len,
                        a->from, src_size);
    if (*in_len > src_size)
        return cli_fail(TL_ERR_SIZE, "input '%s' has more than %zu bytes; --from %s needs exactly %zu "
                        "(a longer input usually means wrong dims or dtype)", a->in, src_size, a->from, src_size);
    return TL_OK;
}

/* A multi-plane (4:2:0) source into a single-plane destination: the samples
 * move, the colours do not change. Not an error: a planar YUV tensor is a
 * legitimate model input, but the common intent is RGB. */
static void warn_yuv(const tl_desc *src_d, const tl_desc *dst_d, const convert_args *a)
{
    if (src_d->nplanes <= 1 || dst_d->nplanes > 1) return;
    fprintf(stderr, "tlayout: convert: warning: --from %s is a YUV image and --to %s is not: the Y, U "
            "and V samples become channels 0, 1 and 2 unchanged (no colour conversion; for RGB use "
            "'tlayout image')\n", a->from, a->to);
}

/* The tensor's dims as a dense f64 tensor with the same labels: where its real
 * values go for --stats. */
static tl_status real_desc(const tl_desc *d, tl_desc *r)
{
    int64_t strides[TL_MAX_DIMS], step = 1;
    for (int i = d->rank - 1; i >= 0; i--) {
        strides[i] = step;
        if (!cli_mul_ok(step, d->dims[i], &step)) return cli_fail(TL_ERR_OVERFLOW, "--stats: tensor too large");
    }
    CLI_TRY(tl_desc_init_strided(r, TL_F64, d->dims, strides, d->rank));
    memcpy(r->labels, d->labels, sizeof r->labels);
    return TL_OK;
}

/* The real range a destination code can hold: [lo, hi] of the dequantized
 * extreme codes for integer dtypes, everything finite for float ones. */
static void code_range_real(const tl_desc *d, double *lo, double *hi)
{
    tl_dtype t = (tl_dtype)d->dtype;
    unsigned bits = tl_dtype_bits(t);
    int is_signed = t == TL_I8 || t == TL_I16 || t == TL_I32 || t == TL_I64 || t == TL_I4;
    int is_float = t == TL_F16 || t == TL_BF16 || t == TL_F32 || t == TL_F64;
    *lo = -INFINITY, *hi = INFINITY;
    if (is_float || t == TL_BOOL || bits > 32) return;
    int64_t cmin = is_signed ? -((int64_t)1 << (bits - 1)) : 0;
    int64_t cmax = is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
    double a = tl_dequantize_value(&d->quant, cmin), b = tl_dequantize_value(&d->quant, cmax);
    *lo = a < b ? a : b;
    *hi = a < b ? b : a;
}

/* --stats: both tensors' real values through the library's own conversion
 * into dense f64, then count, min, max and saturated elements. */
static tl_status print_stats(const tl_desc *src_d, const unsigned char *in, size_t in_len, const tl_desc *dst_d,
                             const unsigned char *dst, size_t dst_len)
{
    tl_desc r;
    size_t n;
    CLI_TRY(real_desc(dst_d, &r));
    CLI_TRY(desc_size_t(&r, &n));
    double *want = malloc(n ? n : 1), *got = malloc(n ? n : 1);
    tl_status s = want && got ? TL_OK : cli_fail(TL_ERR_NOMEM, "--stats: out of memory");
    if (s == TL_OK) s = tl_convert(src_d, in, in_len, &r, want, n);
    if (s == TL_OK) s = tl_convert(dst_d, dst, dst_len, &r, got, n);
    if (s == TL_OK) {
        double lo, hi, mn = INFINITY, mx = -INFINITY;
        size_t count = n / sizeof(double), saturated = 0;
        code_range_real(dst_d, &lo, &hi);
        for (size_t k = 0; k < count; k++) {
            if (got[k] < mn) mn = got[k];
            if (got[k] > mx) mx = got[k];
            int overflowed = isfinite(want[k]) && !isfinite(got[k]);
            saturated += want[k] < lo || want[k] > hi || overflowed;
        }
        fprintf(stderr, "stats     %zu elements of --to %s\nmin       %.9g\nmax       %.9g\n", count,
                tl_dtype_name((tl_dtype)dst_d->dtype), mn, mx);
        if (isfinite(lo))
            fprintf(stderr, "saturated %zu (source values outside %.9g .. %.9g, what --to can hold)\n",
                    saturated, lo, hi);
        else
            fprintf(stderr, "saturated %zu (finite source values that became infinite)\n", saturated);
    }
    free(want);
    free(got);
    return s;
}

/* One thread (tl_plan_run) or --threads N (tl_plan_run_parallel, the same bytes). */
static tl_status run_plan(const tl_plan *plan, const char *threads, const void *in, size_t in_len, void *dst,
                          size_t dst_size)
{
    if (!threads) return tl_plan_run(plan, in, in_len, dst, dst_size);
    return tl_plan_run_parallel(plan, in, in_len, dst, dst_size, (unsigned)parse_threads(threads));
}

static tl_status run(const convert_args *a)
{
    tl_desc src_d, dst_d;
    size_t src_size, dst_size, in_len = 0;
    unsigned char *in = NULL, *dst = NULL;
    tl_plan *plan = NULL;
    CLI_TRY(parse_spec(&src_d, "--from", a->from));
    CLI_TRY(parse_spec(&dst_d, "--to", a->to));
    CLI_TRY(desc_size_t(&src_d, &src_size));
    CLI_TRY(desc_size_t(&dst_d, &dst_size));
    /* The descriptors are checked (and any mismatch reported) before the input is read. */
    CLI_TRY(tl_plan_create(&plan, &src_d, &dst_d, a->keep_padding ? TL_KEEP_PADDING : 0u));
    warn_yuv(&src_d, &dst_d, a);
    tl_status s = read_source(a, src_size, &in, &in_len);
    if (s == TL_OK) s = make_dst(a, dst_size, &dst);
    if (s == TL_OK) s = run_plan(plan, a->threads, in, in_len, dst, dst_size);
    if (s == TL_OK) s = write_file(a->out, dst, dst_size);
    if (s == TL_OK && a->stats) s = print_stats(&src_d, in, in_len, &dst_d, dst, dst_size);
    tl_plan_destroy(plan);
    free(in);
    free(dst);
    return s;
}

int cmd_convert(int argc, char **argv)
{
    convert_args a = {NULL, NULL, NULL, NULL, NULL, 0, 0};
    int rc = parse_args(argc, argv, &a);
    if (rc < 0) {
        fputs(convert_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (rc != 0) return rc;
    tl_status s = run(&a);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
