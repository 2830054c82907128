/* tlayout convert --from SPEC --to SPEC -i IN -o OUT [--keep-padding] [--threads N] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char convert_usage[] =
    "usage: tlayout convert --from SPEC --to SPEC -i IN -o OUT [--keep-padding] [--threads N]\n\n"
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
    "                   inputs stay on one); the output is the same\n\n"
    "example: tlayout convert --from NCHW:f32:1x3x4x4 --to NHWC:f32:1x4x4x3 -i a.bin -o b.bin\n";

typedef struct convert_args {
    const char *from, *to, *in, *out, *threads;
    int keep_padding;
} convert_args;

/* 0 = parsed, -1 = help asked for, else the usage error's exit code. */
static int parse_args(int argc, char **argv, convert_args *a)
{
    const struct { const char *name; const char **slot; } opts[] = {
        {"--from", &a->from}, {"--to", &a->to},      {"-i", &a->in},
        {"--input", &a->in},  {"-o", &a->out},       {"--output", &a->out},
        {"--threads", &a->threads},
    };
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) return -1;
        if (strcmp(argv[i], "--keep-padding") == 0) {
            a->keep_padding = 1;
            continue;
        }
        int hit = 0;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !hit; k++) {
            hit = take_option(argc, argv, &i, opts[k].name, opts[k].slot);
            if (hit < 0) return die_usage("convert", "%s needs a value", opts[k].name);
        }
        if (!hit) return die_usage("convert", "unexpected argument '%s'", argv[i]);
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

/* tl_convert_ex, or a plan run on --threads threads. */
static tl_status convert(const convert_args *a, const tl_desc *src_d, const void *in, size_t in_len,
                         const tl_desc *dst_d, void *dst, size_t dst_size)
{
    unsigned flags = a->keep_padding ? TL_KEEP_PADDING : 0u;
    if (!a->threads) return tl_convert_ex(src_d, in, in_len, dst_d, dst, dst_size, flags);
    tl_plan *plan = NULL;
    CLI_TRY(tl_plan_create(&plan, src_d, dst_d, flags));
    tl_status s = tl_plan_run_parallel(plan, in, in_len, dst, dst_size, (unsigned)parse_threads(a->threads));
    tl_plan_destroy(plan);
    return s;
}

static tl_status run(const convert_args *a)
{
    tl_desc src_d, dst_d;
    size_t src_size, dst_size, in_len = 0;
    unsigned char *in = NULL, *dst = NULL;
    CLI_TRY(parse_spec(&src_d, "--from", a->from));
    CLI_TRY(parse_spec(&dst_d, "--to", a->to));
    CLI_TRY(desc_size_t(&src_d, &src_size));
    CLI_TRY(desc_size_t(&dst_d, &dst_size));
    tl_status s = read_source(a, src_size, &in, &in_len);
    if (s == TL_OK) s = make_dst(a, dst_size, &dst);
    if (s == TL_OK) s = convert(a, &src_d, in, in_len, &dst_d, dst, dst_size);
    if (s == TL_OK) s = write_file(a->out, dst, dst_size);
    free(in);
    free(dst);
    return s;
}

int cmd_convert(int argc, char **argv)
{
    convert_args a = {NULL, NULL, NULL, NULL, NULL, 0};
    int rc = parse_args(argc, argv, &a);
    if (rc < 0) {
        fputs(convert_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (rc != 0) return rc;
    tl_status s = run(&a);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
