/* tlayout draw: the memory map of a SPEC as an SVG picture (programs/svg_draw.c). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "svg_map.h"

static const char draw_usage[] =
    "usage: tlayout draw SPEC -o OUT.svg [--lines N] [--cells N] [--title TEXT]\n\n"
    "Draw which bytes of SPEC's buffer hold which logical element, as an SVG\n"
    "picture: memory runs left to right and top to bottom, one line per step of\n"
    "the row dim (H, else the second-to-last dim). Colour = channel (C, or the\n"
    "plane of a YUV image); each box is labelled with its coordinate (c17, w3,\n"
    "h0-1 for a 4:2:0 chroma sample); padding elements are hatched, slack bytes\n"
    "(alignment, tails: no element) cross-hatched; the elements of one pixel,\n"
    "vector or CbCr pair are outlined together; planes are drawn apart.\n\n"
    "Large tensors are summarised: at most N lines per plane (--lines, default\n"
    "14: the first ones, those around the first block boundaries, the last one)\n"
    "and about N cells per line (--cells, default 64: the start, a gap, the end,\n"
    "a long slack run shortened to one box); the gaps say what was left out.\n"
    "-o - writes to stdout. Open the file in any web browser.\n";

/* Render d and write it to path (declared in svg_map.h; the picture itself is
 * svg_draw, which has no file I/O so the Python module can reuse it). */
tl_status svg_write(const tl_desc *d, const svg_opts *o, const char *path)
{
    svg_buf b = {0};
    tl_status s = svg_draw(d, o, &b);
    if (s == TL_OK && b.oom) s = cli_fail(TL_ERR_NOMEM, "draw: out of memory building the SVG");
    if (s == TL_OK) s = write_file(path, b.p, b.len);
    svg_buf_free(&b);
    return s;
}

static int parse_count(const char *opt, const char *v, int *out)
{
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (*v == '\0' || *end != '\0' || errno || n < 1 || n > 4096)
        return die_usage("draw", "%s '%s': expected an integer from 1 to 4096", opt, v);
    *out = (int)n;
    return CLI_EXIT_OK;
}

/* 1 when argv[*i] is option `name` (*rc: 0, or the exit code of a bad value), else 0. */
static int count_option(int argc, char **argv, int *i, const char *name, int *out, int *rc)
{
    const char *v;
    int r = take_option(argc, argv, i, name, &v);
    if (r == 0) return 0;
    *rc = r < 0 ? die_usage("draw", "%s needs a count", name) : parse_count(name, v, out);
    return 1;
}

int cmd_draw(int argc, char **argv)
{
    const char *spec = NULL, *out = NULL, *v;
    svg_opts o = {0, 0, NULL};
    for (int i = 1; i < argc; i++) {
        int r, rc = 0;
        if (is_help(argv[i])) {
            fputs(draw_usage, stdout);
            return CLI_EXIT_OK;
        }
        if ((r = take_option(argc, argv, &i, "-o", &v)) != 0 ||
            (r = take_option(argc, argv, &i, "--output", &v)) != 0) {
            if (r < 0) return die_usage("draw", "%s needs a file name", argv[i]);
            out = v;
        } else if (count_option(argc, argv, &i, "--lines", &o.max_lines, &rc) ||
                   count_option(argc, argv, &i, "--cells", &o.max_cells, &rc)) {
            if (rc) return rc;
        } else if ((r = take_option(argc, argv, &i, "--title", &v)) != 0) {
            if (r < 0) return die_usage("draw", "--title needs a text");
            o.title = v;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            static const char *const known[] = {"--output", "--lines", "--cells", "--title", "--help"};
            return die_unknown_arg("draw", argv[i], known, sizeof known / sizeof known[0]);
        } else if (!spec) {
            spec = argv[i];
        } else {
            return die_usage("draw", "unexpected argument '%s' (one SPEC per picture)", argv[i]);
        }
    }
    if (!spec) return die_usage("draw", "missing SPEC");
    if (!out) return die_usage("draw", "missing -o OUT.svg");
    tl_desc d;
    tl_status s = parse_spec(&d, "spec", spec);
    if (s == TL_OK) s = svg_write(&d, &o, out);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
