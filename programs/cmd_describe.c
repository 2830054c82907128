/* tlayout describe SPEC [--json] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char describe_usage[] =
    "usage: tlayout describe SPEC [--json]\n\n"
    "Print what SPEC describes: the canonical spec, dtype, quantization, dims with\n"
    "labels, padding before (pad_lo) and after (pad_hi) each dim, the buffer size,\n"
    "and per plane its offset and physical axes (outermost first) with block,\n"
    "extent and byte stride. 4-bit types have fractional strides (0.5 bytes).\n\n"
    "  --json   one JSON object instead (keys in docs/cli.md)\n\n"
    "example: tlayout describe NCHW16c:f32:1x20x2x3\n";

static const char *const qkind_names[] = {"none", "affine", "inv", "dfp"};
static const char *const round_names[] = {"even", "away", "zero"};

static const char *name_of(const char *const *names, int n, int v)
{
    return v >= 0 && v < n ? names[v] : "?";
}

/* "C" for a labelled dim, "d2" for an unlabelled one. */
static const char *dim_label(const tl_desc *d, int dim, char *buf, size_t len)
{
    if (dim >= 0 && dim < TL_MAX_DIMS && d->labels[dim])
        snprintf(buf, len, "%c", d->labels[dim]);
    else
        snprintf(buf, len, "d%d", dim);
    return buf;
}

static void print_list(const char *key, const tl_desc *d, const int64_t *v)
{
    char lb[16];
    printf("%-9s", key);
    for (int i = 0; i < d->rank; i++)
        printf(" %s=%lld", dim_label(d, i, lb, sizeof lb), (long long)v[i]);
    printf("\n");
}

static void print_spec(const tl_desc *d)
{
    char buf[1024];
    if (tl_desc_format(d, buf, sizeof buf) == TL_OK)
        printf("%-9s %s\n", "spec", buf);
    else
        printf("%-9s (not expressible as a spec: %s)\n", "spec", tl_last_error());
}

static void print_quant(const tl_desc *d)
{
    const tl_quant *q = &d->quant;
    char sc[64];
    cli_sb sb = {sc, sizeof sc, 0};
    cli_sb_float(&sb, q->scale);
    const char *rnd = name_of(round_names, 3, q->round);
    char zp[32]; /* a negative zero point in parentheses: (q - (-128)), not (q - -128) */
    snprintf(zp, sizeof zp, q->zp < 0 ? "(%ld)" : "%ld", (long)q->zp);
    switch (q->kind) {
    case TL_Q_AFFINE:
        printf("%-9s affine: real = (q - %s) * %s, round=%s\n", "quant", zp, sc, rnd);
        break;
    case TL_Q_INV:
        printf("%-9s inv: real = (q - %s) %s %s, round=%s\n", "quant", zp,
               q->dequant == TL_DEQ_DIVIDE ? "/" : "* 1/", sc, rnd);
        break;
    case TL_Q_DFP:
        printf("%-9s dfp: real = q * 2^%d, round=%s\n", "quant", -(int)q->fl, rnd);
        break;
    default:
        printf("%-9s %s\n", "quant", name_of(qkind_names, 4, q->kind));
    }
}

static void print_plane(const tl_desc *d, int k)
{
    const tl_plane *p = &d->planes[k];
    char lb[16], sb[32];
    printf("plane %d   offset %lld bytes", k, (long long)p->offset_bytes);
    if (d->nplanes > 1)
        printf(", %s in [%lld, %lld)", dim_label(d, d->plane_dim, lb, sizeof lb),
               (long long)p->first, (long long)(p->first + p->count));
    printf("\n  %4s  %-4s %8s %8s %14s\n", "axis", "dim", "block", "extent", "stride_bytes");
    for (int a = 0; a < p->naxes && a < TL_MAX_AXES; a++) {
        const tl_axis *x = &p->axes[a];
        printf("  %4d  %-4s %8lld %8lld %14s\n", a, dim_label(d, x->dim, lb, sizeof lb),
               (long long)x->block, (long long)x->extent,
               format_bits_as_bytes(x->stride_bits, sb, sizeof sb));
    }
}

static void print_human(const tl_desc *d)
{
    print_spec(d);
    printf("%-9s %s (%u bits)\n", "dtype", tl_dtype_name((tl_dtype)d->dtype),
           tl_dtype_bits((tl_dtype)d->dtype));
    print_quant(d);
    print_list("dims", d, d->dims);
    print_list("pad_lo", d, d->pad_lo);
    print_list("pad_hi", d, d->pad_hi);
    printf("%-9s %lld bytes\n", "size", (long long)d->size_bytes);
    if (d->flags & TL_DESC_READONLY) printf("%-9s read-only (elements share bytes)\n", "access");
    for (int k = 0; k < d->nplanes && k < TL_MAX_PLANES; k++) print_plane(d, k);
}

static int print_json(const tl_desc *d)
{
    size_t need = 0;
    tl_status s = tl_desc_to_json(d, NULL, 0, &need); /* len 0: only asks for the size */
    if (s != TL_ERR_BUFFER_SMALL) return die_status(s);
    char *text = malloc(need);
    if (!text) return die_status(cli_fail(TL_ERR_NOMEM, "describe --json: out of memory"));
    s = tl_desc_to_json(d, text, need, NULL);
    if (s == TL_OK) printf("%s\n", text);
    free(text);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}

int cmd_describe(int argc, char **argv)
{
    static const char *const known[] = {"--json", "--help"};
    const char *spec = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(describe_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "--json") == 0)
            json = cli_json_errors = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return die_unknown_arg("describe", argv[i], known, sizeof known / sizeof known[0]);
        else if (spec)
            return die_usage("describe", "one SPEC expected, got '%s' and '%s'", spec, argv[i]);
        else
            spec = argv[i];
    }
    if (!spec) return die_usage("describe", "missing SPEC");
    tl_desc d;
    tl_status s = parse_spec(&d, "spec", spec);
    if (s != TL_OK) return die_status(s);
    if (json) return print_json(&d);
    print_human(&d);
    return CLI_EXIT_OK;
}
