/* tlayout tidl-info IO_1_BIN [--json]
 * tlayout tidl-info --write OUT [--version V] [--cores N] --in SPEC... --out SPEC...
 * tlayout tidl-info --write-sample VERSION CORES OUT   (test aid) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char tidl_info_usage[] =
    "usage: tlayout tidl-info IO_1_BIN [--json] [--variant VERSION,CORES]\n"
    "       tlayout tidl-info --write OUT [--version V] [--cores N]\n"
    "                         --in [NAME=]SPEC ... --out [NAME=]SPEC ...\n"
    "       tlayout tidl-info --write-sample VERSION CORES OUT\n\n"
    "List every input and output buffer of a TI TIDL-RT io_1.bin, the raw\n"
    "sTIDL_IOBufDesc_t the TIDL import tool writes: name, element type, dims,\n"
    "pads, line and channel pitch (elements), scale, zero point, size, the\n"
    "allocation an input needs (one padded plane more on V2/V3) and the\n"
    "tlayout spec of the buffer (use it with describe, offset, convert).\n"
    "The struct variant is known by the file size: 37256 (V2, PSDK 8.6),\n"
    "93976/187928/375832 (V3, 1/2/4 cores), 94616/189208/378392 (V4, 1/2/4 cores).\n"
    "Exit 1 if the file is not such an image, or if a buffer breaks a TIDL rule\n"
    "(all buffers are still listed, the broken one with its error).\n\n"
    "  --json          one JSON object {\"version\", \"cores\", \"size_bytes\", ...,\n"
    "                  \"inputs\": [...], \"outputs\": [...]} (keys in docs/tidl.md)\n"
    "  --write OUT     write an io_1.bin of variant --version (2, 3 or 4; default\n"
    "                  4) for --cores cores (default 1) with one input buffer per\n"
    "                  --in and one output buffer per --out, in that order. Each\n"
    "                  SPEC is a tidl spec (tidl:DT:NxCxHxW[:pad=L,T,R,B][:scale=]\n"
    "                  [:zp=][:cp=][:layout=nhwc] ...); NAME (default input_K,\n"
    "                  output_K) is the buffer's name. Read it back with\n"
    "                  'tlayout tidl-info OUT'.\n"
    "  --variant VERSION,CORES\n"
    "                  read the file as that variant only, as a runtime built for it\n"
    "                  does (e.g. 4,1 for a J721E 11.x runtime): a file of another\n"
    "                  size is rejected with the size that variant needs\n"
    "  --write-sample VERSION CORES OUT\n"
    "                  test aid: write a small example image (one u8 input, an i16\n"
    "                  and an f32 output) of variant VERSION (2, 3, 4) sized for\n"
    "                  CORES (1; 2 or 4 from V3) to OUT\n\n"
    "example: tlayout tidl-info model/io_1.bin\n";

/* ---- output helpers ------------------------------------------------------ */

/* What one buffer becomes: its descriptor (or the error) and warnings. */
typedef struct buf_report {
    tl_tidl_buf b;
    tl_status status;
    tl_desc d;
    char error[512];
    char spec[1024];
    char warnings[1024];
    int nwarnings;
} buf_report;

static void make_report(buf_report *r)
{
    r->status = tl_desc_from_tidl(&r->d, &r->b, 0);
    r->error[0] = r->spec[0] = '\0';
    if (r->status != TL_OK)
        snprintf(r->error, sizeof r->error, "%s: %s", tl_status_str(r->status), tl_last_error());
    else if (tl_desc_format(&r->d, r->spec, sizeof r->spec) != TL_OK)
        r->spec[0] = '\0';
    r->nwarnings = tl_tidl_buf_warnings(&r->b, r->warnings, sizeof r->warnings);
}

/* Bytes an input must have (TIDL reads one padded plane past its last
 * channel); -1 for outputs, which need the descriptor size. */
static long long input_alloc(const buf_report *r)
{
    uint64_t n = 0;
    if (r->b.is_output || r->status != TL_OK) return -1;
    if (tl_tidl_input_alloc_size(&r->d, &n) != TL_OK) return -1;
    return (long long)n;
}

/* Elements from one row to the next: the stride of the H axis. */
static long long line_pitch(const tl_desc *d)
{
    for (int a = 0; a < d->planes[0].naxes; a++) {
        const tl_axis *x = &d->planes[0].axes[a];
        if (d->labels[x->dim] == 'H') return (long long)(x->stride_bits / tl_dtype_bits((tl_dtype)d->dtype));
    }
    return 0;
}

/* ---- JSON ------------------------------------------------------------------ */

static void json_buffer(cli_sb *sb, const buf_report *r)
{
    const tl_tidl_buf *b = &r->b;
    cli_sb_printf(sb, "{\"index\": %d, \"name\": ", (int)b->index);
    cli_sb_json_str(sb, b->name);
    cli_sb_printf(sb, ", \"width\": %d, \"height\": %d, \"channels\": %d, \"pad\": [%d, %d, %d, %d], \"pad_ch\": %d, "
                  "\"channel_pitch\": %d, \"batches\": %d, \"dim1\": %d, \"dim2\": %d, \"element_type\": %d, "
                  "\"element_type_name\": \"%s\", \"layout\": \"%s\", \"data_id\": %d, \"scale\": ",
                  (int)b->width, (int)b->height, (int)b->num_channels, (int)b->pad_l, (int)b->pad_t, (int)b->pad_r,
                  (int)b->pad_b, (int)b->pad_ch, (int)b->channel_pitch, (int)b->num_batches, (int)b->dim1,
                  (int)b->dim2, (int)b->element_type, tl_tidl_element_type_name(b->element_type),
                  b->layout ? "NHWC" : "NCHW",
                  (int)b->data_id);
    if (b->tensor_scale == b->tensor_scale && b->tensor_scale - b->tensor_scale == 0.0f)
        cli_sb_float(sb, b->tensor_scale);
    else
        cli_sb_printf(sb, "null");
    cli_sb_printf(sb, ", \"zero_point\": %d, \"buf_size\": %d, ", (int)b->zero_point, (int)b->buf_size);
    if (b->is_output)
        cli_sb_printf(sb, "\"num_valid_tensor_dims\": %d, ", (int)b->num_valid_tensor_dims);
    else
        cli_sb_printf(sb, "\"data_format\": %d, \"resize_type\": %d, \"resize_width\": %d, \"resize_height\": %d, "
                      "\"raw_element_type\": %d, ", (int)b->data_format, (int)b->resize_type, (int)b->resize_width,
                      (int)b->resize_height, (int)b->raw_element_type);
    if (r->status == TL_OK) {
        cli_sb_printf(sb, "\"line_pitch\": %lld, \"size_bytes\": %lld, ", line_pitch(&r->d),
                      (long long)r->d.size_bytes);
        if (!r->b.is_output) cli_sb_printf(sb, "\"input_alloc_bytes\": %lld, ", input_alloc(r));
        cli_sb_printf(sb, "\"spec\": ");
        cli_sb_json_str(sb, r->spec);
        cli_sb_printf(sb, ", \"error\": null");
    } else {
        cli_sb_printf(sb, "\"line_pitch\": null, \"size_bytes\": null, \"spec\": null, \"error\": ");
        cli_sb_json_str(sb, r->error);
    }
    cli_sb_printf(sb, ", \"warnings\": [");
    char w[sizeof r->warnings];
    memcpy(w, r->warnings, sizeof w);
    int k = 0;
    for (char *line = w, *nl; r->nwarnings && line; line = nl ? nl + 1 : NULL, k++) {
        nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        cli_sb_printf(sb, "%s", k ? ", " : "");
        cli_sb_json_str(sb, line);
    }
    cli_sb_printf(sb, "]}");
}

static void json_header(cli_sb *sb, const char *path, const tl_tidl_io *io)
{
    cli_sb_printf(sb, "{\"file\": ");
    cli_sb_json_str(sb, path);
    cli_sb_printf(sb, ", \"version\": %d, \"cores\": %d, \"size_bytes\": %lld, \"max_inputs\": %d, "
                  "\"max_outputs\": %d, \"num_input_buf\": %d, \"num_output_buf\": %d",
                  (int)io->version, (int)io->max_cores, (long long)io->size_bytes, (int)io->max_inputs,
                  (int)io->max_outputs, (int)io->num_input_buf, (int)io->num_output_buf);
    if (io->version >= 3)
        cli_sb_printf(sb, ", \"num_cores\": %d, \"num_virtual_cores\": %d, \"num_super_batches\": %d, "
                      "\"inference_mode\": %d", (int)io->num_cores, (int)io->num_virtual_cores,
                      (int)io->num_super_batches, (int)io->inference_mode);
}

/* ---- human table ------------------------------------------------------------ */

static void print_buffer(const buf_report *r)
{
    const tl_tidl_buf *b = &r->b;
    char sc[48];
    cli_sb sb = {sc, sizeof sc, 0};
    cli_sb_float(&sb, b->tensor_scale);
    printf("  %s[%d] \"%s\"  %s (%d) %s\n", b->is_output ? "out" : "in", (int)b->index, b->name,
           tl_tidl_element_type_name(b->element_type), (int)b->element_type, b->layout ? "NHWC" : "NCHW");
    printf("      batches %d  dim1 %d  dim2 %d  channels %d  height %d  width %d\n", (int)b->num_batches, (int)b->dim1,
           (int)b->dim2, (int)b->num_channels, (int)b->height, (int)b->width);
    printf("      pad L %d T %d R %d B %d Ch %d  channel pitch %d  scale %s  zero point %d", (int)b->pad_l,
           (int)b->pad_t, (int)b->pad_r, (int)b->pad_b, (int)b->pad_ch, (int)b->channel_pitch, sc,
           (int)b->zero_point);
    if (b->buf_size) printf("  BufSize %d", (int)b->buf_size);
    printf("\n");
    if (r->status == TL_OK) {
        printf("      line pitch %lld  size %lld bytes", line_pitch(&r->d), (long long)r->d.size_bytes);
        if (!r->b.is_output) printf("  input allocation %lld bytes", input_alloc(r));
        printf("\n");
        printf("      spec %s\n", r->spec);
    } else {
        printf("      error %s\n", r->error);
    }
    if (r->nwarnings) {
        char w[sizeof r->warnings];
        memcpy(w, r->warnings, sizeof w);
        for (char *line = w, *nl; line; line = nl ? nl + 1 : NULL) {
            nl = strchr(line, '\n');
            if (nl) *nl = '\0';
            printf("      warning %s\n", line);
        }
    }
}

static void print_header(const char *path, const tl_tidl_io *io)
{
    printf("%s: sTIDL_IOBufDesc_t V%d sized for %d core%s (%lld bytes)\n", path, (int)io->version,
           (int)io->max_cores, io->max_cores == 1 ? "" : "s", (long long)io->size_bytes);
    if (io->version >= 3)
        printf("numCores %d  numVirtualCores %d  numSuperBatches %d  inferenceMode %d\n", (int)io->num_cores,
               (int)io->num_virtual_cores, (int)io->num_super_batches, (int)io->inference_mode);
}

/* ---- the listing -------------------------------------------------------------- */

/* Print what fn appends, in a buffer grown until it fits. */
static tl_status print_json(void (*fn)(cli_sb *, const void *), const void *arg)
{
    cli_sb sb = {NULL, 0, 0};
    for (size_t cap = 8192;; cap = sb.len + 1) {
        free(sb.buf);
        sb.buf = malloc(cap);
        if (!sb.buf) return cli_fail(TL_ERR_NOMEM, "tidl-info --json: out of memory");
        sb.cap = cap;
        sb.len = 0;
        fn(&sb, arg);
        if (sb.len < sb.cap) break;
    }
    fputs(sb.buf, stdout);
    free(sb.buf);
    return TL_OK;
}

static void json_buffer_fn(cli_sb *sb, const void *r)
{
    json_buffer(sb, r);
}

/* Every buffer of one direction, as JSON or text; counts the broken ones. */
static tl_status list_dir(const unsigned char *img, size_t len, const tl_tidl_io *io, int out, int json,
                          int *broken)
{
    int n = out ? io->num_output_buf : io->num_input_buf;
    buf_report *r = malloc(sizeof *r);
    tl_status s = TL_OK;
    if (!r) return cli_fail(TL_ERR_NOMEM, "tidl-info: out of memory");
    if (json) printf(", \"%s\": [", out ? "outputs" : "inputs");
    else printf("%s: %d\n", out ? "outputs" : "inputs", n);
    for (int k = 0; k < n && s == TL_OK; k++) {
        s = tl_tidl_io_get(img, len, io, out, k, &r->b);
        if (s != TL_OK) break;
        make_report(r);
        *broken += r->status != TL_OK;
        if (!json) {
            print_buffer(r);
            continue;
        }
        printf("%s", k ? ", " : "");
        s = print_json(json_buffer_fn, r);
    }
    if (json && s == TL_OK) printf("]");
    free(r);
    return s;
}

static int finish(int broken)
{
    if (!broken) return CLI_EXIT_OK;
    fprintf(stderr, "tlayout: tidl-info: %d buffer%s break%s a TIDL rule (see its error)\n", broken,
            broken == 1 ? "" : "s", broken == 1 ? "s" : "");
    return CLI_EXIT_ERROR;
}

typedef struct header_arg {
    const char *path;
    const tl_tidl_io *io;
} header_arg;

static void json_header_fn(cli_sb *sb, const void *arg)
{
    const header_arg *h = arg;
    json_header(sb, h->path, h->io);
}

static int info(const char *path, int json, int version, int cores)
{
    unsigned char *img = NULL;
    size_t len = 0;
    tl_tidl_io io;
    int broken = 0;
    tl_status s = read_file(path, (size_t)TL_TIDL_IO_MAX_BYTES + 1, &img, &len); /* longer: not an io_1.bin */
    if (s == TL_OK && len > TL_TIDL_IO_MAX_BYTES)
        s = cli_fail(TL_ERR_VENDOR_FILE, "'%s' has more than %u bytes, larger than any known io_1.bin (TIDL)", path,
                     (unsigned)TL_TIDL_IO_MAX_BYTES);
    if (s == TL_OK) s = version ? tl_tidl_io_parse_as(img, len, version, cores, &io) : tl_tidl_io_parse(img, len, &io);
    if (s == TL_OK && json) {
        header_arg h = {path, &io};
        s = print_json(json_header_fn, &h);
    } else if (s == TL_OK) {
        print_header(path, &io);
    }
    if (s == TL_OK) s = list_dir(img, len, &io, 0, json, &broken);
    if (s == TL_OK) s = list_dir(img, len, &io, 1, json, &broken);
    if (s == TL_OK && json) printf("}\n");
    free(img);
    if (s != TL_OK) {
        fflush(stdout);
        return die_status(s);
    }
    return finish(broken);
}

/* ---- --write-sample ------------------------------------------------------------ */

static void sample_buf(tl_tidl_buf *b, const char *name, int32_t et, int32_t c, int32_t h, int32_t w, int32_t pad,
                       int32_t cp, float scale, int version)
{
    memset(b, 0, sizeof *b);
    snprintf(b->name, sizeof b->name, "%s", name);
    b->element_type = et;
    b->num_channels = c;
    b->height = h;
    b->width = w;
    b->pad_l = b->pad_t = b->pad_r = b->pad_b = pad;
    b->channel_pitch = cp;
    b->num_batches = 1;
    b->dim1 = b->dim2 = version >= 3 ? 1 : 0;
    b->tensor_scale = scale;
    if (version >= 4) b->buf_size = cp * c; /* one batch */
}

/* One u8 input (T1's geometry), an i16 output with channel-pitch slack
 * (scale 25) and a dense f32 output: small, and every feature visible. */
static int write_sample(const char *vtext, const char *ctext, const char *path)
{
    char *end;
    long version = strtol(vtext, &end, 10);
    if (*vtext == '\0' || *end != '\0') return die_usage("tidl-info", "VERSION '%s' is not a number", vtext);
    long cores = strtol(ctext, &end, 10);
    if (*ctext == '\0' || *end != '\0') return die_usage("tidl-info", "CORES '%s' is not a number", ctext);
    tl_tidl_io io;
    tl_tidl_buf in[1], out[2];
    tl_status s = tl_tidl_io_init(&io, (int)version, (int)cores);
    if (s != TL_OK) return die_status(s);
    io.num_input_buf = 1;
    io.num_output_buf = 2;
    if (version >= 3) io.num_cores = io.num_virtual_cores = io.num_super_batches = 1;
    sample_buf(&in[0], "input.1", TL_TIDL_UNSIGNED_CHAR, 3, 4, 10, 1, 72, 1.0f, (int)version);
    in[0].data_format = TL_TIDL_IN_DATA_FORMAT_RGB_PLANAR;
    sample_buf(&out[0], "logits", TL_TIDL_SIGNED_SHORT, 3, 4, 10, 1, 80, 25.0f, (int)version);
    sample_buf(&out[1], "scores", TL_TIDL_SINGLE_PREC_FLOAT, 1, 1, 10, 0, 10, 1.0f, (int)version);
    for (int k = 0; k < 2 && version >= 3; k++) out[k].num_valid_tensor_dims = 4;
    unsigned char *img = malloc((size_t)io.size_bytes);
    if (!img) return die_status(cli_fail(TL_ERR_NOMEM, "tidl-info: out of memory"));
    s = tl_tidl_io_write(&io, in, out, img, (size_t)io.size_bytes);
    if (s == TL_OK) s = write_file(path, img, (size_t)io.size_bytes);
    free(img);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}

/* ---- --write ------------------------------------------------------------------ */

#define WRITE_MAX_BUFS 128 /* TIDL's largest capacity (V3/V4 inputs and outputs per core x 4) */

typedef struct write_args {
    const char *out, *version, *cores;
    const char *in_specs[WRITE_MAX_BUFS], *out_specs[WRITE_MAX_BUFS];
    int nin, nout;
} write_args;

/* [NAME=]SPEC: a NAME is what precedes an '=' that comes before the first ':'. */
static tl_status buffer_of_arg(const char *arg, int is_output, int k, int version, tl_tidl_buf *b)
{
    const char *colon = strchr(arg, ':'), *eq = strchr(arg, '=');
    int named = eq && (!colon || eq < colon);
    const char *spec = named ? eq + 1 : arg;
    char what[32];
    tl_desc d;
    snprintf(what, sizeof what, "--%s #%d", is_output ? "out" : "in", k + 1);
    CLI_TRY(parse_spec(&d, what, spec));
    CLI_TRY(tl_tidl_from_desc(&d, b));
    if (named) snprintf(b->name, sizeof b->name, "%.*s", (int)(eq - arg), arg);
    else snprintf(b->name, sizeof b->name, "%s_%d", is_output ? "output" : "input", k);
    /* What the variant lacks is 0 (DIM1/DIM2 are 1 from V3), as TI's import tool writes it. */
    b->dim1 = b->dim2 = version >= 3 ? 1 : 0;
    if (version < 4) b->buf_size = 0;
    b->num_valid_tensor_dims = is_output && version >= 3 ? 4 : 0;
    b->is_output = is_output;
    b->index = k;
    return TL_OK;
}

static tl_status write_io(const write_args *w, int version, int cores)
{
    tl_tidl_io io;
    tl_tidl_buf *bufs = calloc(2 * WRITE_MAX_BUFS, sizeof *bufs);
    unsigned char *img = NULL;
    if (!bufs) return cli_fail(TL_ERR_NOMEM, "tidl-info: out of memory");
    tl_status s = tl_tidl_io_init(&io, version, cores);
    for (int k = 0; k < w->nin && s == TL_OK; k++) s = buffer_of_arg(w->in_specs[k], 0, k, version, &bufs[k]);
    for (int k = 0; k < w->nout && s == TL_OK; k++)
        s = buffer_of_arg(w->out_specs[k], 1, k, version, &bufs[WRITE_MAX_BUFS + k]);
    if (s == TL_OK) {
        io.num_input_buf = w->nin;
        io.num_output_buf = w->nout;
        if (version >= 3) io.num_cores = io.num_virtual_cores = io.num_super_batches = 1;
        img = malloc((size_t)io.size_bytes);
        s = img ? TL_OK : cli_fail(TL_ERR_NOMEM, "tidl-info: out of memory");
    }
    if (s == TL_OK) s = tl_tidl_io_write(&io, bufs, bufs + WRITE_MAX_BUFS, img, (size_t)io.size_bytes);
    if (s == TL_OK) s = write_file(w->out, img, (size_t)io.size_bytes);
    free(img);
    free(bufs);
    return s;
}

/* A version or core count (0..64), or dflt when not given; 0 when malformed. */
static int small_number(const char *text, int dflt, int *out)
{
    char *end;
    if (!text) {
        *out = dflt;
        return 1;
    }
    long v = strtol(text, &end, 10);
    if (*text == '\0' || *end != '\0' || v < 0 || v > 64) return 0;
    *out = (int)v;
    return 1;
}

static int write_cmd(int argc, char **argv)
{
    static const char *const known[] = {"--write", "--version", "--cores", "--in", "--out", "--help"};
    write_args w = {0};
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int hit = 0;
        for (size_t k = 0; k < 5 && !hit; k++) {
            hit = take_option(argc, argv, &i, known[k], &v);
            if (hit < 0) return die_usage("tidl-info", "%s needs a value", known[k]);
            if (!hit) continue;
            if (k == 0) w.out = v;
            else if (k == 1) w.version = v;
            else if (k == 2) w.cores = v;
            else if ((k == 3 ? w.nin : w.nout) == WRITE_MAX_BUFS)
                return die_usage("tidl-info", "more than %d %s buffers", WRITE_MAX_BUFS, known[k]);
            else if (k == 3) w.in_specs[w.nin++] = v;
            else w.out_specs[w.nout++] = v;
        }
        if (!hit) return die_unknown_arg("tidl-info", argv[i], known, sizeof known / sizeof known[0]);
    }
    int version, cores;
    if (!small_number(w.version, 4, &version))
        return die_usage("tidl-info", "--version '%s' is not 2, 3 or 4", w.version);
    if (!small_number(w.cores, 1, &cores))
        return die_usage("tidl-info", "--cores '%s' is not a core count", w.cores);
    if (!w.nin && !w.nout) return die_usage("tidl-info", "--write needs at least one --in or --out SPEC");
    tl_status s = write_io(&w, version, cores);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}

int cmd_tidl_info(int argc, char **argv)
{
    static const char *const known[] = {"--json", "--variant", "--write", "--write-sample", "--help"};
    const char *path = NULL, *variant = NULL;
    int json = 0, version = 0, cores = 0;
    for (int i = 1; i < argc; i++) {
        int r = take_option(argc, argv, &i, "--variant", &variant);
        if (r < 0) return die_usage("tidl-info", "--variant needs VERSION,CORES (e.g. 4,1)");
        if (r) continue;
        if (is_help(argv[i])) {
            fputs(tidl_info_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (strcmp(argv[i], "--write-sample") == 0) {
            if (argc != 5 || i != 1)
                return die_usage("tidl-info", "--write-sample takes VERSION CORES OUT and nothing else");
            return write_sample(argv[2], argv[3], argv[4]);
        }
        if (strncmp(argv[i], "--write", 7) == 0 && (argv[i][7] == '\0' || argv[i][7] == '=')) return write_cmd(argc, argv);
        if (strcmp(argv[i], "--json") == 0)
            json = cli_json_errors = 1;
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            return die_unknown_arg("tidl-info", argv[i], known, sizeof known / sizeof known[0]);
        else if (path)
            return die_usage("tidl-info", "one IO_1_BIN expected, got '%s' and '%s'", path, argv[i]);
        else
            path = argv[i];
    }
    if (!path) return die_usage("tidl-info", "missing IO_1_BIN");
    if (variant) {
        char tail;
        if (sscanf(variant, "%d,%d%c", &version, &cores, &tail) != 2 || version < 1)
            return die_usage("tidl-info", "--variant '%s': expected VERSION,CORES (e.g. 4,1)", variant);
    }
    return info(path, json, version, cores);
}
