/* tlayout offset SPEC COORD [COORD...] [--json] */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char offset_usage[] =
    "usage: tlayout offset SPEC COORD [COORD...] [--json]\n\n"
    "Print the byte offset of each logical coordinate in a buffer laid out as SPEC,\n"
    "one line per COORD. A COORD is i,j,k,... with one value per logical dim of\n"
    "SPEC, in the order of its logical dims: the order SPEC gives its dims for\n"
    "plain layouts (for NHWC:u8:1x4x5x3 that is n,h,w,c), and n,c,h,w for\n"
    "rknn.nc1hwc2 and trt.* (whose spec lists native or N,C,H,W dims).\n"
    "'tlayout describe SPEC' prints the logical dims. An argument starting with\n"
    "'--' is an option, never a coordinate (a negative coordinate is -1,...).\n\n"
    "For 4-bit dtypes (u4, i4) the offset may end in .5: the element is the high\n"
    "nibble of that byte (12.5 = byte 12, high nibble; 12 = byte 12, low nibble).\n\n"
    "  --json   one JSON object {\"spec\", \"offsets\": [{\"coord\", \"byte\", \"bit\"}]}:\n"
    "           byte is the byte holding the element, bit the exact bit offset\n\n"
    "example: tlayout offset NCHW16c:f32:1x20x2x3 0,17,1,2     (prints 708)\n";

/* "N,C,H,W" (letters, '?' for an unlabelled dim). */
static void logical_order(const tl_desc *d, char *out, size_t cap)
{
    cli_sb sb = {out, cap, 0};
    out[0] = '\0';
    for (int i = 0; i < d->rank; i++) cli_sb_printf(&sb, "%s%c", i ? "," : "", d->labels[i] ? d->labels[i] : '?');
}

/* Values in the DIMS field of a spec string (3rd ':' field). */
static int spec_dims_count(const char *spec)
{
    const char *p = strchr(spec, ':');
    p = p ? strchr(p + 1, ':') : NULL;
    if (!p) return 0;
    int n = 1;
    for (p++; *p && *p != ':'; p++) n += *p == 'x';
    return n;
}

static tl_status wrong_count(const tl_desc *d, const char *text, int n)
{
    char spec[512], order[64];
    if (tl_desc_format(d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "SPEC");
    logical_order(d, order, sizeof order);
    int native = spec_dims_count(spec);
    if (native != d->rank)
        return cli_fail(TL_ERR_COORD, "coordinate '%s' has %d values; %s takes %d, one per logical dim %s "
                        "(its spec lists %d native dims; the coordinate is logical)", text, n, spec,
                        (int)d->rank, order, native);
    return cli_fail(TL_ERR_COORD, "coordinate '%s' has %d values; %s takes %d, one per dim %s", text, n, spec,
                    (int)d->rank, order);
}

static tl_status offset_bits(const tl_desc *d, const char *text, int64_t *x, uint64_t *bits)
{
    int n = 0;
    CLI_TRY(parse_coord(text, x, TL_MAX_DIMS, &n));
    if (n != d->rank) return wrong_count(d, text, n);
    if (tl_dtype_bits((tl_dtype)d->dtype) % 8 != 0) return tl_desc_offset_bits(d, x, bits);
    uint64_t bytes;
    CLI_TRY(tl_desc_offset(d, x, &bytes));
    *bits = bytes * 8u;
    return TL_OK;
}

static tl_status print_offset(const tl_desc *d, const char *text, int json, int first)
{
    int64_t x[TL_MAX_DIMS];
    uint64_t bits;
    char buf[32];
    CLI_TRY(offset_bits(d, text, x, &bits));
    if (!json) {
        printf("%s\n", format_bits_as_bytes((int64_t)bits, buf, sizeof buf));
        return TL_OK;
    }
    printf("%s{\"coord\": [", first ? "" : ", ");
    for (int i = 0; i < d->rank; i++) printf("%s%" PRId64, i ? ", " : "", x[i]);
    printf("], \"byte\": %" PRIu64 ", \"bit\": %" PRIu64 "}", bits / 8u, bits);
    return TL_OK;
}

int cmd_offset(int argc, char **argv)
{
    static const char *const known[] = {"--json", "--help"};
    const char *spec = NULL;
    int ncoords = 0, json = 0;
    /* The coordinates stay in argv, in place: every argument after SPEC that is not an option. */
    char **coords = argv;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(offset_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "--json") == 0) json = cli_json_errors = 1;
        else if (strncmp(argv[i], "--", 2) == 0) return die_unknown_arg("offset", argv[i], known, 2);
        else if (!spec) spec = argv[i];
        else coords[ncoords++] = argv[i]; /* ncoords < i: never overwrites an unread argument */
    }
    if (!spec) return die_usage("offset", "missing SPEC");
    if (!ncoords) return die_usage("offset", "missing COORD after SPEC");
    tl_desc d;
    char canon[512];
    tl_status s = parse_spec(&d, "spec", spec);
    if (s == TL_OK) s = tl_desc_format(&d, canon, sizeof canon);
    if (s != TL_OK) return die_status(s);
    if (json) {
        /* Everything is checked before anything is printed: one whole object or an error. */
        int64_t x[TL_MAX_DIMS];
        uint64_t bits;
        for (int k = 0; k < ncoords && s == TL_OK; k++) s = offset_bits(&d, coords[k], x, &bits);
        if (s != TL_OK) return die_status(s);
        char sbuf[1200];
        cli_sb sb = {sbuf, sizeof sbuf, 0};
        cli_sb_json_str(&sb, canon);
        printf("{\"spec\": %s, \"offsets\": [", sbuf);
    }
    for (int k = 0; k < ncoords && s == TL_OK; k++) s = print_offset(&d, coords[k], json, k == 0);
    if (json && s == TL_OK) printf("]}\n");
    if (s != TL_OK) {
        fflush(stdout);
        return die_status(s);
    }
    return CLI_EXIT_OK;
}
