/* tlayout threshold SPEC T [--verbose] [--json] */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char threshold_usage[] =
    "usage: tlayout threshold SPEC T [--verbose] [--json]\n\n"
    "Print the quantized threshold of the real value T for the codes of SPEC: the\n"
    "integer Q such that a code q dequantizes to a value >= T exactly when q >= Q,\n"
    "for every code of the dtype (i8 u8 i16 u16 i4 u4; q=affine, q=inv (TIDL's\n"
    "inverse scale, real = (q - zp) / scale), q=dfp or none).\n"
    "Compare raw codes against Q (as int32) and dequantize only the ones that pass.\n"
    "Q is the lowest code when every code passes and the highest code + 1 when none\n"
    "does. Dequantization is the library's f32 arithmetic (tl_dequantize_value).\n\n"
    "  --verbose, -v   also print the real values of the codes around Q\n"
    "  --json          one JSON object {\"spec\", \"t\", \"threshold\", \"lowest_code\",\n"
    "                  \"highest_code\"} (errors as a JSON object on stderr)\n\n"
    "example: tlayout threshold 'rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=5:scale=0.1' 0.55\n"
    "         prints 11 (code 10 is 0.5, code 11 is 0.6)\n";

/* Range of the code dtypes tl_rknn_threshold accepts. */
static void code_range(tl_dtype dt, int64_t *lo, int64_t *hi)
{
    int64_t bits = tl_dtype_bits(dt);
    int is_signed = dt == TL_I8 || dt == TL_I16 || dt == TL_I4;
    *lo = is_signed ? -((int64_t)1 << (bits - 1)) : 0;
    *hi = is_signed ? ((int64_t)1 << (bits - 1)) - 1 : ((int64_t)1 << bits) - 1;
}

static void print_neighbours(const tl_desc *d, int32_t q, double t)
{
    char buf[512];
    int64_t lo = 0, hi = 0;
    const tl_quant *qu = &d->quant;
    code_range((tl_dtype)d->dtype, &lo, &hi);
    if (tl_desc_format(d, buf, sizeof buf) != TL_OK) snprintf(buf, sizeof buf, "(not expressible)");
    printf("spec      %s\nT         %.17g\n", buf, t);
    if (q <= lo)
        printf("every code passes: code %" PRId64 " (the lowest) is %.9g\n", lo, tl_dequantize_value(qu, lo));
    if (q > hi)
        printf("no code passes: code %" PRId64 " (the highest) is %.9g\n", hi, tl_dequantize_value(qu, hi));
    if (q > lo && q <= hi) {
        printf("code %-6" PRId64 " is %.9g < T\n", (int64_t)q - 1, tl_dequantize_value(qu, (int64_t)q - 1));
        printf("code %-6" PRId32 " is %.9g >= T\n", q, tl_dequantize_value(qu, q));
    }
}

static int parse_real(const char *text, double *t)
{
    char *end;
    errno = 0;
    *t = strtod(text, &end);
    return end != text && *end == '\0' && errno != ERANGE;
}

static void print_json(const tl_desc *d, int32_t q, double t)
{
    char spec[512], text[1200];
    int64_t lo = 0, hi = 0;
    cli_sb sb = {text, sizeof text, 0};
    if (tl_desc_format(d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "(not expressible)");
    code_range((tl_dtype)d->dtype, &lo, &hi);
    cli_sb_json_str(&sb, spec);
    printf("{\"spec\": %s, \"t\": %.17g, \"threshold\": %" PRId32 ", \"lowest_code\": %" PRId64
           ", \"highest_code\": %" PRId64 "}\n", text, t, q, lo, hi);
}

int cmd_threshold(int argc, char **argv)
{
    static const char *const known[] = {"--verbose", "--json", "--help"};
    const char *spec = NULL, *value = NULL;
    int verbose = 0, json = 0;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(threshold_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "--verbose") == 0 || strcmp(argv[i], "-v") == 0) verbose = 1;
        else if (strcmp(argv[i], "--json") == 0) json = cli_json_errors = 1;
        else if (strncmp(argv[i], "--", 2) == 0) return die_unknown_arg("threshold", argv[i], known, 3);
        else if (!spec) spec = argv[i];
        else if (!value) value = argv[i];
        else return die_usage("threshold", "unexpected argument '%s'", argv[i]);
    }
    if (!spec) return die_usage("threshold", "missing SPEC");
    if (!value) return die_usage("threshold", "missing T (a real value) after SPEC");
    double t;
    if (!parse_real(value, &t)) return die_usage("threshold", "T '%s' is not a real number", value);
    tl_desc d;
    int32_t q;
    tl_status s = parse_spec(&d, "spec", spec);
    if (s == TL_OK) s = tl_rknn_threshold(&d, t, &q);
    if (s != TL_OK) return die_status(s);
    if (json) {
        print_json(&d, q, t);
        return CLI_EXIT_OK;
    }
    printf("%" PRId32 "\n", q);
    if (verbose) print_neighbours(&d, q, t);
    return CLI_EXIT_OK;
}
