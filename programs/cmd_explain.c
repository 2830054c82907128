/* tlayout explain: a SPEC in sentences.
 *
 * The text comes from programs/explain.c (the model's account, then the
 * vendor's own: pitches, channel pitch, native dims, runtime strides,
 * documented bugs); this file wraps it to 78 columns and prints it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "explain.h"

#define WRAP 78
#define TEXT_CAP (64 * 1024)

static const char explain_usage[] =
    "usage: tlayout explain SPEC\n\n"
    "Explain SPEC in sentences: the logical tensor and its quantization, the\n"
    "memory order of its axes, its padding, the bytes each step moves, the\n"
    "byte-offset formula, how the buffer divides into values, padding elements\n"
    "and slack, and where the last element is; then the vendor's own account\n"
    "for vendor formats (larod pitches, TIDL line and channel pitch, DirectML\n"
    "Sizes/Strides, RKNN native dims, TensorRT strides and DLA rules).\n";

/* ---- output: paragraphs wrapped at WRAP columns ---------------------------------- */
static void put_wrapped(const char *text, const char *indent)
{
    size_t col = 0, in = strlen(indent);
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (n == 0) break;
        if (col == 0) col = (size_t)printf("%s", indent);
        else if (col + 1 + n > WRAP && col > in) col = (size_t)printf("\n%s", indent) - 1;
        else col += (size_t)printf(" ");
        col += (size_t)printf("%.*s", (int)n, p);
        p += n;
    }
    if (col) printf("\n");
}

/* One paragraph per line of `text`; with `split`, a long line also splits
 * after each sentence (vendor hooks write one line of many sentences). */
static void put_paragraphs(char *text, const char *indent, int split)
{
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *s = line;
        for (char *q = line; *q; q++) {
            if (split && q[0] == '.' && q[1] == ' ' && q[2] >= 'A' && q[2] <= 'Z' && q - s > 40) {
                q[1] = '\0';
                put_wrapped(s, indent);
                s = q + 2;
                q++;
            }
        }
        put_wrapped(s, indent);
    }
}

int cmd_explain(int argc, char **argv)
{
    if (argc > 1 && is_help(argv[1])) {
        fputs(explain_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (argc < 2) return die_usage("explain", "missing SPEC");
    if (argc > 2) return die_usage("explain", "unexpected argument '%s' (one SPEC)", argv[2]);
    tl_desc d;
    char spec[1024];
    tl_status s = parse_spec(&d, "spec", argv[1]);
    if (s == TL_OK && tl_desc_format(&d, spec, sizeof spec) != TL_OK) snprintf(spec, sizeof spec, "%s", argv[1]);
    char *model = calloc(1, TEXT_CAP), *vend = NULL;
    cli_sb a = {model, TEXT_CAP, 0};
    if (s == TL_OK && !model) s = cli_fail(TL_ERR_NOMEM, "explain: out of memory");
    if (s == TL_OK) s = explain_model(&d, &a);
    if (s == TL_OK) s = explain_vendor(&d, &vend);
    if (s == TL_OK) {
        model[TEXT_CAP - 1] = '\0';
        printf("%s\n\n", spec);
        put_paragraphs(model, "", 0);
        if (vend[0]) {
            printf("\nAs %s describes it:\n", explain_vendor_name(d.vendor));
            put_paragraphs(vend, "  ", 1);
        }
    }
    free(model);
    free(vend);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
