/* tlayout rknn-attr LINE|- [--dump FILE] [--channels C] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char rknn_attr_usage[] =
    "usage: tlayout rknn-attr 'LINE' [--channels C]\n"
    "       tlayout rknn-attr - [--channels C]          (lines from stdin)\n"
    "       tlayout rknn-attr --dump FILE [--channels C]\n\n"
    "Read RKNN tensor attrs the way users have them: the line every Rockchip demo\n"
    "prints (index=0, name=..., n_dims=4, dims=[1, 6, 80, 80, 16], n_elems=...,\n"
    "size=..., w_stride=..., size_with_stride=..., fmt=NC1HWC2, type=INT8,\n"
    "qnt_type=AFFINE, zp=..., scale=...), every such line of a pasted log (-), or\n"
    "raw rknn_tensor_attr structs (376 bytes each, little-endian) in FILE. For each\n"
    "attr print its fields, the tlayout spec of the buffer and the size of the\n"
    "rknn_tensor_mem a zero-copy program creates for it (rknn_create_mem).\n\n"
    "  --channels C   the true channel count of an NC1HWC2 tensor (the C of the\n"
    "                 non-native attr); without it C1*C2 is assumed, and said\n"
    "  --dump FILE    read raw 376-byte rknn_tensor_attr images instead of text\n\n"
    "example: tlayout rknn-attr 'index=0, name=out, n_dims=5, dims=[1, 6, 80, 80, 16], "
    "n_elems=614400, size=614400, fmt=NC1HWC2, type=INT8, qnt_type=AFFINE, zp=-128, "
    "scale=0.003922' --channels 85\n";

static const char *const fmt_names[] = {"NCHW", "NHWC", "NC1HWC2", "UNDEFINED"};
static const char *const type_names[] = {"FP32",  "FP16",  "INT8",  "UINT8", "INT16", "UINT16",
                                         "INT32", "UINT32", "INT64", "BOOL",  "INT4",  "BF16"};
static const char *const qnt_names[] = {"NONE", "DFP", "AFFINE"};

/* One attr: the fields, then the descriptor it gives (or why not). */
static tl_status report(const tl_rknn_tensor_attr *a, int64_t channels)
{
    char spec[512], sc[48];
    cli_sb sb = {sc, sizeof sc, 0};
    cli_sb_float(&sb, a->scale);
    printf("attr      index=%u name=\"%s\" dims=[", a->index, a->name);
    for (uint32_t i = 0; i < a->n_dims; i++) printf("%s%u", i ? ", " : "", a->dims[i]);
    printf("] fmt=%s type=%s qnt_type=%s zp=%d scale=%s\n", fmt_names[a->fmt], type_names[a->type],
           qnt_names[a->qnt_type], (int)a->zp, sc);
    int nc1 = a->fmt == TL_RKNN_TENSOR_NC1HWC2;
    int64_t c = channels;
    if (nc1 && !c && a->n_dims == 5) {
        c = (int64_t)a->dims[1] * a->dims[4];
        printf("note      channels unknown: C1 x C2 = %lld assumed (pass --channels C from the non-native attr)\n",
               (long long)c);
    }
    tl_desc d;
    uint32_t mem = 0;
    CLI_TRY(tl_rknn_desc_from_attr(&d, a, nc1 ? c : 0));
    CLI_TRY(tl_desc_format(&d, spec, sizeof spec));
    CLI_TRY(tl_rknn_mem_size(a, &d, &mem));
    printf("spec      %s\nsize      %lld bytes; rknn_create_mem(ctx, %u) for zero copy\n", spec,
           (long long)d.size_bytes, mem);
    return TL_OK;
}

static tl_status from_dump(const char *path, int64_t channels)
{
    unsigned char *data = NULL;
    size_t len = 0;
    CLI_TRY(read_file(path, (size_t)1 << 20, &data, &len));
    tl_status s = TL_OK;
    if (len == 0 || len % TL_RKNN_ATTR_SIZE)
        s = cli_fail(TL_ERR_VENDOR_FILE, "--dump '%s': %zu bytes is not a whole number of %d-byte "
                     "rknn_tensor_attr structs", path, len, TL_RKNN_ATTR_SIZE);
    for (size_t off = 0; s == TL_OK && off < len; off += TL_RKNN_ATTR_SIZE) {
        tl_rknn_tensor_attr a;
        s = tl_rknn_attr_read(&a, data + off, TL_RKNN_ATTR_SIZE);
        if (s == TL_OK) s = report(&a, channels);
    }
    free(data);
    return s;
}

/* Every line of stdin that has a dims= (the rest of a demo's log is skipped). */
static tl_status from_stdin(int64_t channels)
{
    unsigned char *data = NULL;
    size_t len = 0;
    int found = 0;
    CLI_TRY(read_file("-", (size_t)1 << 20, &data, &len));
    char *text = malloc(len + 1);
    if (!text) {
        free(data);
        return cli_fail(TL_ERR_NOMEM, "rknn-attr: out of memory");
    }
    memcpy(text, data, len);
    text[len] = '\0';
    free(data);
    tl_status s = TL_OK;
    for (char *line = text, *nl; s == TL_OK && line && *line; line = nl ? nl + 1 : NULL) {
        nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (!strstr(line, "dims=")) continue;
        tl_rknn_tensor_attr a;
        s = tl_rknn_attr_parse_line(&a, line);
        if (s == TL_OK) s = report(&a, channels);
        found++;
    }
    free(text);
    if (s == TL_OK && !found) s = cli_fail(TL_ERR_VENDOR_FILE, "no line with dims= on stdin");
    return s;
}

int cmd_rknn_attr(int argc, char **argv)
{
    const char *line = NULL, *dump = NULL, *ch = NULL;
    for (int i = 1; i < argc; i++) {
        int r;
        if (is_help(argv[i])) {
            fputs(rknn_attr_usage, stdout);
            return CLI_EXIT_OK;
        }
        if ((r = take_option(argc, argv, &i, "--dump", &dump)) || (r = take_option(argc, argv, &i, "--channels", &ch))) {
            if (r < 0) return die_usage("rknn-attr", "option '%s' needs a value", argv[i]);
            continue;
        }
        if (line) return die_usage("rknn-attr", "unexpected argument '%s' (quote the attr line)", argv[i]);
        line = argv[i];
    }
    if (!line == !dump) return die_usage("rknn-attr", "give one attr LINE (or - for stdin), or --dump FILE");
    int64_t channels = 0;
    if (ch) {
        char *end;
        channels = strtoll(ch, &end, 10);
        if (*end || channels < 1) return die_usage("rknn-attr", "--channels '%s' is not a count >= 1", ch);
    }
    tl_status s;
    if (dump) {
        s = from_dump(dump, channels);
    } else if (strcmp(line, "-") == 0) {
        s = from_stdin(channels);
    } else {
        tl_rknn_tensor_attr a;
        s = tl_rknn_attr_parse_line(&a, line);
        if (s == TL_OK) s = report(&a, channels);
    }
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
