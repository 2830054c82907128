/* Fuzz target: the spec parser and formatter.
 *
 * Input: a spec string (the first line; a NUL ends it early), then bytes used as
 * coordinates. Properties:
 *  - a rejected spec leaves the output descriptor untouched and says why;
 *  - an accepted spec gives a valid descriptor whose offsets stay inside its
 *    size (fuzz_common.h), which formats to a spec that parses back to a
 *    memcmp-identical descriptor and formats to the same text again;
 *  - formatting into a buffer one byte short fails cleanly, writing inside the
 *    buffer only (an exact-size heap block, so ASan sees any overrun).
 */
#include "fuzz_common.h"

#define SPEC_CAP 2048

static void check_format_short(const tl_desc *d, size_t need)
{
    char *tight = malloc(need - 1 ? need - 1 : 1);
    FZ_ASSERT(tight, "out of memory");
    tl_status s = tl_desc_format(d, tight, need - 1);
    FZ_ASSERT(s == TL_ERR_BUFFER_SMALL, "format into %zu bytes (needs %zu) returned %s", need - 1,
              need, tl_status_str(s));
    free(tight);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz_in in = {data, size};
    char spec[SPEC_CAP], text1[SPEC_CAP], text2[SPEC_CAP];
    fz_line(&in, spec, sizeof spec);

    tl_desc d1, d2, before;
    memset(&d1, 0x5A, sizeof d1);
    before = d1;
    tl_status s = tl_desc_parse(&d1, spec);
    if (s != TL_OK) {
        FZ_ASSERT(memcmp(&d1, &before, sizeof d1) == 0, "'%s' rejected (%s) but *out was written",
                  spec, tl_status_str(s));
        FZ_ASSERT(tl_last_error()[0] != '\0', "'%s' rejected (%s) without a message", spec,
                  tl_status_str(s));
        return 0;
    }
    FZ_ASSERT(tl_desc_validate(&d1) == TL_OK, "'%s' parsed to an invalid descriptor", spec);
    fz_check_valid_desc(&d1, &in);

    s = tl_desc_format(&d1, text1, sizeof text1);
    FZ_ASSERT(s == TL_OK, "'%s' parsed but does not format: %s", spec, tl_status_str(s));
    memset(&d2, 0xA5, sizeof d2);
    s = tl_desc_parse(&d2, text1);
    FZ_ASSERT(s == TL_OK, "'%s' formats as '%s', which does not parse: %s", spec, text1,
              tl_status_str(s));
    FZ_ASSERT(memcmp(&d1, &d2, sizeof d1) == 0, "'%s' -> '%s' parses to a different descriptor",
              spec, text1);
    s = tl_desc_format(&d2, text2, sizeof text2);
    FZ_ASSERT(s == TL_OK && strcmp(text1, text2) == 0, "'%s' formats as '%s' then as '%s'", spec,
              text1, text2);
    check_format_short(&d1, strlen(text1) + 1);
    return 0;
}
