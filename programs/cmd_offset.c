/* tlayout offset SPEC COORD [COORD...] */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char offset_usage[] =
    "usage: tlayout offset SPEC COORD [COORD...]\n\n"
    "Print the byte offset of each logical coordinate in a buffer laid out as SPEC,\n"
    "one line per COORD. A COORD is i,j,k,... with one value per dim of SPEC, in the\n"
    "order SPEC gives its dims (for NHWC:u8:1x4x5x3 that is n,h,w,c).\n\n"
    "For 4-bit dtypes (u4, i4) the offset may end in .5: the element is the high\n"
    "nibble of that byte (12.5 = byte 12, high nibble; 12 = byte 12, low nibble).\n\n"
    "example: tlayout offset NCHW16c:f32:1x20x2x3 0,17,1,2     (prints 708)\n";

static tl_status print_offset(const tl_desc *d, const char *text)
{
    int64_t x[TL_MAX_DIMS];
    int n = 0;
    char spec[512];
    CLI_TRY(parse_coord(text, x, TL_MAX_DIMS, &n));
    if (n != d->rank) {
        if (tl_desc_format(d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "SPEC");
        return cli_fail(TL_ERR_COORD, "coordinate '%s' has %d values; %s has %d dims", text, n,
                        spec, (int)d->rank);
    }
    if (tl_dtype_bits((tl_dtype)d->dtype) % 8 != 0) {
        uint64_t bits;
        char buf[32];
        CLI_TRY(tl_desc_offset_bits(d, x, &bits));
        printf("%s\n", format_bits_as_bytes((int64_t)bits, buf, sizeof buf));
    } else {
        uint64_t bytes;
        CLI_TRY(tl_desc_offset(d, x, &bytes));
        printf("%" PRIu64 "\n", bytes);
    }
    return TL_OK;
}

int cmd_offset(int argc, char **argv)
{
    int first_coord = 0;
    const char *spec = NULL;
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) {
            fputs(offset_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (!spec) {
            spec = argv[i];
            first_coord = i + 1;
        }
    }
    if (!spec) return die_usage("offset", "missing SPEC");
    if (first_coord >= argc) return die_usage("offset", "missing COORD after SPEC");
    tl_desc d;
    tl_status s = parse_spec(&d, "spec", spec);
    if (s != TL_OK) return die_status(s);
    for (int i = first_coord; i < argc; i++) {
        s = print_offset(&d, argv[i]);
        if (s != TL_OK) {
            fflush(stdout);
            return die_status(s);
        }
    }
    return CLI_EXIT_OK;
}
