/* tlayout — command-line front end of the library.
 *
 *   tlayout <command> [args]      tlayout --help      tlayout <command> --help
 *
 * The command table is below; each command lives in programs/cmd_<name>.c. This
 * file also holds the helpers declared in cli.h (errors, arguments, files).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const cli_command commands[] = {
    {"describe", cmd_describe, "print dims, dtype, quantization, padding, axes and size of a SPEC"},
    {"offset", cmd_offset, "print the byte offset of logical coordinates in a SPEC"},
    {"convert", cmd_convert, "convert a raw tensor file from one SPEC to another"},
    {"demo", cmd_demo, "a 640x480 image through every vendor format: verified, timed, drawn"},
    {"draw", cmd_draw, "draw the memory map of a SPEC as an SVG picture"},
    {"explain", cmd_explain, "explain a SPEC in sentences: order, padding, pitches, offsets"},
    {"bench", cmd_bench, "measure conversion throughput against memcpy"},
    {"tidl-info", cmd_tidl_info, "describe the buffers of a TIDL io_1.bin"},
    {"threshold", cmd_threshold, "the quantized code a real threshold maps to"},
    {"scan", cmd_scan, "elements of a native output at or above a threshold (n c h w code value)"},
    {"argmax", cmd_argmax, "label map of a native output: best channel per pixel, optionally upsampled"},
    {"topk", cmd_topk, "the K largest values over C per position or per batch item"},
    {"detect", cmd_detect, "YOLOv8/YOLOv5 detections from native output heads, after NMS"},
    {"image", cmd_image, "a camera frame (NV12, I420, RGB) to a model input: crop, letterbox, normalise"},
    {"rknn-attr", cmd_rknn_attr, "an RKNN attr line or raw dump as a spec and zero-copy size"},
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

static void usage(FILE *f)
{
    fprintf(f, "usage: tlayout <command> [args]\n"
               "       tlayout <command> --help     (or: tlayout help <command>)\n"
               "       tlayout --version            (or: -V)\n\n"
               "Describe, check, address and convert the tensor memory formats of\n"
               "edge-AI accelerators. A SPEC is LAYOUT:DTYPE:DIMS[:KEY=VALUE...],\n"
               "e.g. NCHW16c:f32:1x20x2x3 (docs/spec.md).\n\ncommands:\n");
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
}

static const cli_command *find_command(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(name, commands[i].name) == 0) return &commands[i];
    return NULL;
}

static int unknown_command(const char *name)
{
    const char *names[NCOMMANDS + 1];
    for (size_t i = 0; i < NCOMMANDS; i++) names[i] = commands[i].name;
    names[NCOMMANDS] = "help";
    const char *near = tl_closest_name(name, names, NCOMMANDS + 1);
    if (near) fprintf(stderr, "tlayout: unknown command '%s' (did you mean '%s'?)\n", name, near);
    else fprintf(stderr, "tlayout: unknown command '%s' (see 'tlayout --help')\n", name);
    return CLI_EXIT_USAGE;
}

/* tlayout help [CMD]: the overview, or CMD --help. */
static int help(int argc, char **argv)
{
    if (argc < 3) {
        usage(stdout);
        return CLI_EXIT_OK;
    }
    const cli_command *c = find_command(argv[2]);
    if (!c) return unknown_command(argv[2]);
    char *args[] = {argv[2], "--help", NULL};
    return c->fn(2, args);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return CLI_EXIT_USAGE;
    }
    if (is_help(argv[1])) {
        usage(stdout);
        return cli_finish_stdout(CLI_EXIT_OK);
    }
    if (strcmp(argv[1], "help") == 0) return help(argc, argv);
    if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
        printf("tlayout %s\n", tl_version_string());
        return cli_finish_stdout(CLI_EXIT_OK);
    }
    const cli_command *c = find_command(argv[1]);
    return c ? cli_finish_stdout(c->fn(argc - 1, argv + 1)) : unknown_command(argv[1]);
}

/* ======================================================================== */
/* Helpers declared in cli.h                                                */
/* ======================================================================== */

int cli_json_errors;

/* {"error": {"status": ..., "code": ..., "message": ...}} on stderr. */
static void json_error(const char *status, int code, const char *message)
{
    char buf[4096];
    cli_sb sb = {buf, sizeof buf, 0};
    cli_sb_printf(&sb, "{\"error\": {\"status\": \"%s\", \"code\": %d, \"message\": ", status, code);
    cli_sb_json_str(&sb, message);
    cli_sb_printf(&sb, "}}\n");
    if (sb.len < sb.cap) fputs(buf, stderr);
    else fprintf(stderr, "{\"error\": {\"status\": \"%s\", \"code\": %d, \"message\": \"\"}}\n", status, code);
}

int die_status(tl_status s)
{
    if (cli_json_errors) json_error(tl_status_str(s), (int)s, cli_last_error());
    else fprintf(stderr, "tlayout: %s: %s\n", tl_status_str(s), cli_last_error());
    cli_clear_error();
    return CLI_EXIT_ERROR;
}

int die_usage(const char *cmd, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (cli_json_errors) json_error("usage", CLI_EXIT_USAGE, msg);
    else fprintf(stderr, "tlayout: %s: %s\nTry 'tlayout %s --help'.\n", cmd, msg, cmd);
    return CLI_EXIT_USAGE;
}

int die_unknown_arg(const char *cmd, const char *arg, const char *const *known, size_t n)
{
    char word[64];
    snprintf(word, sizeof word, "%.*s", (int)strcspn(arg, "="), arg); /* --name=VALUE: the name */
    const char *near = tl_closest_name(word, known, n);
    if (near) return die_usage(cmd, "unexpected argument '%s' (did you mean '%s'?)", arg, near);
    return die_usage(cmd, "unexpected argument '%s'", arg);
}

tl_status cli_io_error(const char *what, const char *path)
{
    return cli_fail(TL_ERR_IO, "%s '%s': %s", what, path, strerror(errno));
}

int is_help(const char *arg)
{
    return strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0;
}

int take_option(int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) != 0) return 0;
    if (arg[n] == '=') {
        *value = arg + n + 1;
        return 1;
    }
    if (arg[n] != '\0') return 0;
    if (*i + 1 >= argc) return -1;
    *i += 1;
    *value = argv[*i];
    return 1;
}

static tl_status coord_error(const char *text, const char *why)
{
    return cli_fail(TL_ERR_COORD, "coordinate '%s': %s", text, why);
}

tl_status parse_coord(const char *text, int64_t *out, int max, int *n)
{
    const char *p = text;
    int count = 0;
    for (;;) {
        char *end;
        if (count >= max) return coord_error(text, "too many values");
        if (!(*p == '-' || (*p >= '0' && *p <= '9')))
            return coord_error(text, "expected comma-separated integers i,j,k,...");
        errno = 0;
        long long v = strtoll(p, &end, 10);
        if (end == p || errno == ERANGE) return coord_error(text, "a value is not a 64-bit integer");
        out[count++] = (int64_t)v;
        if (*end == '\0') break;
        if (*end != ',') return coord_error(text, "expected comma-separated integers i,j,k,...");
        p = end + 1;
    }
    *n = count;
    return TL_OK;
}

tl_status parse_spec(tl_desc *d, const char *what, const char *spec)
{
    tl_status s = tl_desc_parse(d, spec);
    if (s != TL_OK) {
        char detail[512];
        snprintf(detail, sizeof detail, "%s", tl_last_error());
        int shown = strlen(spec) > 120 ? 100 : 120; /* keep the detail in the message */
        cli_fail(s, "%s '%.*s%s': %s", what, shown, spec, strlen(spec) > 120 ? "..." : "", detail);
    }
    return s;
}

/* Read at most `max` bytes of PATH ("-": standard input): a caller asks for one
 * byte more than it accepts, enough to tell an exact input from a longer one without reading an endless one (/dev/zero, a
 * pipe) to its end. The buffer grows as data arrives: a short file with a huge
 * limit costs its own size, not the limit's. */
tl_status read_file(const char *path, size_t max, unsigned char **data, size_t *len)
{
    int is_stdin = strcmp(path, "-") == 0;
    FILE *f = is_stdin ? stdin : fopen(path, "rb");
    if (!f) return cli_io_error("cannot open", path);
    size_t cap = max < ((size_t)1 << 16) ? max : (size_t)1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    tl_status s = buf ? TL_OK : cli_fail(TL_ERR_NOMEM, "reading '%s': out of memory", path);
    while (s == TL_OK) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap || cap == max) break; /* end of input, or read enough */
        size_t want = cap > max / 2 ? max : cap * 2;
        unsigned char *bigger = realloc(buf, want);
        if (!bigger) {
            s = cli_fail(TL_ERR_NOMEM, "reading '%s': out of memory after %zu bytes", path, n);
            break;
        }
        buf = bigger;
        cap = want;
    }
    if (s == TL_OK && ferror(f)) s = cli_io_error("cannot read", path);
    if (!is_stdin) fclose(f);
    if (s != TL_OK) {
        free(buf);
        return s;
    }
    *data = buf;
    *len = n;
    return TL_OK;
}

tl_status desc_size_t(const tl_desc *d, size_t *out)
{
    uint64_t bytes;
    CLI_TRY(tl_desc_size(d, &bytes));
    if (bytes > (uint64_t)SIZE_MAX)
        return cli_fail(TL_ERR_OVERFLOW, "size %" PRIu64 " bytes does not fit this platform's size_t",
                        bytes);
    *out = (size_t)bytes;
    return TL_OK;
}
