/* tlayout scan | argmax | topk: post-processing on a raw tensor file in its
 * native layout (docs/postprocess.md). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char scan_usage[] =
    "usage: tlayout scan SPEC -i FILE --threshold T [--channels FIRST,COUNT] [--best] [--json]\n\n"
    "Print every element of FILE (a raw tensor laid out as SPEC) whose real value is\n"
    ">= T, one line each: n c h w code value, in (n, h, w, c) order. The compare runs\n"
    "on the codes with the exact quantized threshold; pad channels and padding are\n"
    "never reported.\n\n"
    "  --channels FIRST,COUNT  only channels FIRST..FIRST+COUNT-1 of C (default all)\n"
    "  --best                  per position only the best channel of the range\n"
    "                          (ties -> the lowest channel), when it passes\n"
    "  --json                  one JSON object: {\"count\":N,\"hits\":[{n,c,h,w,code,value}]}\n\n"
    "example: tlayout scan 'rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.00390625' \\\n"
    "           -i out.bin --threshold 0.25 --channels 4,80 --best\n";

static const char argmax_usage[] =
    "usage: tlayout argmax SPEC -i IN -o OUT [--size HxW] [--resize nearest|bilinear] [--u8]\n\n"
    "Write the label map of IN (a raw tensor laid out as SPEC): per (n, y, x) the\n"
    "channel with the largest real value (ties -> the lowest), as int32 little-endian\n"
    "N x H x W (--u8: one byte per label). With --size the logits are upsampled to\n"
    "HxW first (bilinear by default: half-pixel centres, as cv2 INTER_LINEAR).\n";

static const char topk_usage[] =
    "usage: tlayout topk SPEC -i IN --k K [--per-item] [--json]\n\n"
    "Print the K largest values over C per position (or per batch item with\n"
    "--per-item, over every (c, h, w)), largest first, ties -> the earlier element:\n"
    "one line each, n c h w code value.\n";

/* Parse the spec and read exactly its bytes from path. */
tl_status cli_read_tensor(const char *spec, const char *path, tl_desc *d, unsigned char **data, size_t *len)
{
    size_t size = 0;
    CLI_TRY(parse_spec(d, "spec", spec));
    CLI_TRY(desc_size_t(d, &size));
    CLI_TRY(read_file(path, size < SIZE_MAX ? size + 1 : size, data, len));
    if (*len == size) return TL_OK;
    free(*data);
    *data = NULL;
    return cli_fail(*len < size ? TL_ERR_BUFFER_SMALL : TL_ERR_SIZE,
                    "input '%s' has %s%zu bytes; '%s' needs exactly %zu", path, *len > size ? "more than " : "",
                    *len > size ? size : *len, spec, size);
}

int cli_parse_real(const char *text, double *out)
{
    char *end;
    errno = 0;
    *out = strtod(text, &end);
    return end != text && *end == '\0' && errno != ERANGE;
}

static int parse_i64(const char *text, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    *out = v;
    return end != text && *end == '\0' && errno != ERANGE;
}

static void print_hits(const tl_hit *h, size_t n, int json)
{
    if (json) printf("{\"count\":%zu,\"hits\":[", n);
    for (size_t i = 0; i < n; i++) {
        if (json)
            printf("%s{\"n\":%" PRId64 ",\"c\":%d,\"h\":%" PRId64 ",\"w\":%" PRId64 ",\"code\":%d,\"value\":%.9g}",
                   i ? "," : "", h[i].n, (int)h[i].c, h[i].h, h[i].w, (int)h[i].code, h[i].value);
        else
            printf("%" PRId64 " %d %" PRId64 " %" PRId64 " %d %.9g\n", h[i].n, (int)h[i].c, h[i].h, h[i].w,
                   (int)h[i].code, h[i].value);
    }
    if (json) printf("]}\n");
}

/* The channel count of a spec, for the default range (label C, else dim 1). */
static int64_t channels_of(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == 'C') return d->dims[i];
    return d->rank >= 2 ? d->dims[1] : d->dims[0];
}

typedef struct post_args {
    const char *spec, *in, *out, *threshold, *channels, *k, *size, *resize;
    int best, json, u8, per_item;
} post_args;

/* Shared option loop; returns 0, -1 for --help, or an exit code. */
static int parse_post_args(const char *cmd, int argc, char **argv, post_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if (is_help(argv[i])) return -1;
        CLI_OPT(cmd, "-i", a->in) CLI_OPT(cmd, "-o", a->out) CLI_OPT(cmd, "--threshold", a->threshold)
        CLI_OPT(cmd, "--channels", a->channels) CLI_OPT(cmd, "--k", a->k) CLI_OPT(cmd, "--size", a->size)
        CLI_OPT(cmd, "--resize", a->resize)
        if (strcmp(argv[i], "--best") == 0) a->best = 1;
        else if (strcmp(argv[i], "--json") == 0) a->json = 1;
        else if (strcmp(argv[i], "--u8") == 0) a->u8 = 1;
        else if (strcmp(argv[i], "--per-item") == 0) a->per_item = 1;
        else if (argv[i][0] == '-' && argv[i][1]) return die_usage(cmd, "unknown option '%s'", argv[i]);
        else if (!a->spec) a->spec = argv[i];
        else return die_usage(cmd, "unexpected argument '%s'", argv[i]);
    }
    if (!a->spec) return die_usage(cmd, "missing SPEC");
    if (!a->in) return die_usage(cmd, "missing -i FILE");
    return 0;
}

int cmd_scan(int argc, char **argv)
{
    post_args a;
    int rc = parse_post_args("scan", argc, argv, &a);
    if (rc < 0) return fputs(scan_usage, stdout), CLI_EXIT_OK;
    if (rc) return rc;
    double t;
    if (!a.threshold) return die_usage("scan", "missing --threshold T");
    if (!cli_parse_real(a.threshold, &t)) return die_usage("scan", "--threshold '%s' is not a real number", a.threshold);
    int64_t range[2] = {0, -1};
    int got = 0;
    if (a.channels && (parse_coord(a.channels, range, 2, &got) != TL_OK || got != 2)) {
        cli_clear_error();
        return die_usage("scan", "--channels '%s': expected FIRST,COUNT", a.channels);
    }
    tl_desc d;
    unsigned char *buf = NULL;
    size_t len = 0, n = 0;
    tl_status s = cli_read_tensor(a.spec, a.in, &d, &buf, &len);
    if (s != TL_OK) return die_status(s);
    if (!a.channels) range[1] = channels_of(&d);
    unsigned flags = a.best ? TL_SCAN_BEST : 0u;
    s = tl_scan(&d, buf, len, range[0], range[1], t, flags, NULL, 0, &n);
    tl_hit *hits = NULL;
    if (s == TL_ERR_BUFFER_SMALL) { /* counted: now with room for all */
        hits = malloc(n * sizeof *hits);
        s = hits ? tl_scan(&d, buf, len, range[0], range[1], t, flags, hits, n, &n)
                 : cli_fail(TL_ERR_NOMEM, "%zu hits", n);
    }
    if (s == TL_OK) print_hits(hits, n, a.json);
    free(hits), free(buf);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}

int cmd_topk(int argc, char **argv)
{
    post_args a;
    int rc = parse_post_args("topk", argc, argv, &a);
    if (rc < 0) return fputs(topk_usage, stdout), CLI_EXIT_OK;
    if (rc) return rc;
    int64_t k;
    if (!a.k) return die_usage("topk", "missing --k K");
    if (!parse_i64(a.k, &k)) return die_usage("topk", "--k '%s' is not an integer", a.k);
    tl_desc d;
    unsigned char *buf = NULL;
    size_t len = 0, n = 0;
    tl_status s = cli_read_tensor(a.spec, a.in, &d, &buf, &len);
    if (s != TL_OK) return die_status(s);
    unsigned flags = a.per_item ? TL_TOPK_PER_ITEM : 0u;
    s = tl_topk(&d, buf, len, k, flags, NULL, 0, &n);
    tl_hit *hits = NULL;
    if (s == TL_ERR_BUFFER_SMALL) {
        hits = malloc(n * sizeof *hits);
        s = hits ? tl_topk(&d, buf, len, k, flags, hits, n, &n) : cli_fail(TL_ERR_NOMEM, "%zu entries", n);
    }
    if (s == TL_OK) print_hits(hits, n, a.json);
    free(hits), free(buf);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}

int cmd_argmax(int argc, char **argv)
{
    post_args a;
    int rc = parse_post_args("argmax", argc, argv, &a);
    if (rc < 0) return fputs(argmax_usage, stdout), CLI_EXIT_OK;
    if (rc) return rc;
    if (!a.out) return die_usage("argmax", "missing -o OUT");
    long long oh = 0, ow = 0;
    char tail;
    if (a.size && (sscanf(a.size, "%lldx%lld%c", &oh, &ow, &tail) != 2 || oh < 1 || ow < 1))
        return die_usage("argmax", "--size '%s': expected HxW, e.g. 513x513", a.size);
    tl_resize resize = a.size ? TL_RESIZE_BILINEAR : TL_RESIZE_NONE;
    if (a.resize && strcmp(a.resize, "nearest") == 0) resize = TL_RESIZE_NEAREST;
    else if (a.resize && strcmp(a.resize, "bilinear") != 0)
        return die_usage("argmax", "--resize '%s': expected nearest or bilinear", a.resize);
    if (a.resize && !a.size) return die_usage("argmax", "--resize needs --size HxW");
    tl_desc d;
    unsigned char *buf = NULL;
    size_t len = 0;
    tl_status s = cli_read_tensor(a.spec, a.in, &d, &buf, &len);
    if (s != TL_OK) return die_status(s);
    int64_t n = 1, h = 1, w = 1;
    for (int i = 0; i < d.rank; i++) {
        char l = d.labels[i] ? d.labels[i] : (d.rank == 4 ? "NCHW"[i] : d.rank == 3 ? "NCW"[i] : '?');
        if (l == 'N') n = d.dims[i];
        if (l == 'H') h = d.dims[i];
        if (l == 'W') w = d.dims[i];
    }
    if (a.size) h = oh, w = ow;
    size_t es = a.u8 ? 1 : 4, cells = (size_t)(n * h * w);
    unsigned char *labels = malloc(cells * es);
    s = labels ? tl_argmax(&d, buf, len, resize, a.size ? oh : 0, a.size ? ow : 0, a.u8 ? TL_LABEL_U8 : TL_LABEL_I32,
                           labels, cells * es)
               : cli_fail(TL_ERR_NOMEM, "label map of %zu cells", cells);
    if (s == TL_OK) s = write_file(a.out, labels, cells * es); /* int32 little-endian on the supported hosts */
    free(labels), free(buf);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
