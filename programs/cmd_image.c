/* tlayout image: a camera frame file to a model input file in one pass
 * (tl_image_plan, docs/image.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char image_usage[] =
    "usage: tlayout image --from SRC --to DST [--crop X,Y,W,H]\n"
    "                     [--resize bilinear|nearest|area] [--fit stretch|letterbox]\n"
    "                     [--pad V[,V,V]] [--color bt601|bt709|bt601-full|bt709-full]\n"
    "                     [--order rgb|bgr] [--from-order rgb|bgr]\n"
    "                     [--mean A,B,C] [--std A,B,C]\n"
    "                     [--mode exact|fast] [--map] [--threads N] -i IN -o OUT\n\n"
    "Turn a camera frame (SRC: yuv.nv12/nv21/i420/yuyv/uyvy, larod.420sp, or RGB u8\n"
    "image such as NHWC:u8:1xHxWx3) into a model input laid out as DST (any\n"
    "descriptor with C = 1, 3 or 4, H and W: NHWC, NCHW, rknn.nc1hwc2, tidl,\n"
    "trt.dla_hwc4, larod, dml...). Crop, resize, colour conversion, (x - mean)\n"
    "/ std in f32, then DST's dtype and quantization, in one pass.\n\n"
    "  --from SRC       the frame's layout; --to DST the model input's layout\n"
    "  --crop X,Y,W,H   rectangle of the frame to use (default: all of it)\n"
    "  --resize M       bilinear (default; cv2.INTER_LINEAR), nearest, area\n"
    "  --fit F          stretch (default) or letterbox (aspect kept, centred)\n"
    "  --pad V[,V,V]    letterbox border per channel, 0..255 (default 114)\n"
    "  --color C        YUV matrix and range (default bt601: limited range)\n"
    "  --order O        channel order of DST: rgb (default) or bgr\n"
    "  --from-order O   channel order of an RGB SRC: rgb (default) or bgr\n"
    "  --mean A,B,C     subtracted per channel (default 0)\n"
    "  --std A,B,C      divisor per channel, non-zero (default 1)\n"
    "  --mode M         exact (default; OpenCV 4.6's bits) or fast\n"
    "  --map            print the letterbox transform, DST pixel -> frame pixel\n"
    "  --threads N      run on up to N threads (0 = the fast cores; small frames\n"
    "                   stay on one thread); the output is the same at any N\n"
    "  -i, --input IN   the frame, '-' for stdin (exactly SRC's size)\n"
    "  -o, --output OUT the model input, '-' for stdout\n\n"
    "example: tlayout image --from yuv.nv12:u8:3x1080x1920 --to NHWC:u8:1x640x640x3 \\\n"
    "           --fit letterbox -i frame.nv12 -o input.bin\n";

typedef struct image_args {
    const char *from, *to, *in, *out, *crop, *resize, *fit, *pad, *color, *order, *from_order, *mean, *std, *mode, *threads;
    int map;
} image_args;

static int parse_args(int argc, char **argv, image_args *a)
{
    const struct { const char *name; const char **slot; } opts[] = {
        {"--from", &a->from},     {"--to", &a->to},       {"-i", &a->in},         {"--input", &a->in},
        {"-o", &a->out},          {"--output", &a->out},  {"--crop", &a->crop},   {"--resize", &a->resize},
        {"--fit", &a->fit},       {"--pad", &a->pad},     {"--color", &a->color}, {"--order", &a->order},
        {"--from-order", &a->from_order},
        {"--mean", &a->mean},     {"--std", &a->std},     {"--mode", &a->mode},
        {"--threads", &a->threads},
    };
    for (int i = 1; i < argc; i++) {
        if (is_help(argv[i])) return -1;
        if (strcmp(argv[i], "--map") == 0) {
            a->map = 1;
            continue;
        }
        int hit = 0;
        for (size_t k = 0; k < sizeof opts / sizeof opts[0] && !hit; k++) {
            hit = take_option(argc, argv, &i, opts[k].name, opts[k].slot);
            if (hit < 0) return die_usage("image", "%s needs a value", opts[k].name);
        }
        if (!hit) return die_usage("image", "unexpected argument '%s'", argv[i]);
    }
    if (!a->from) return die_usage("image", "missing --from SRC");
    if (!a->to) return die_usage("image", "missing --to DST");
    if (!a->map || a->in || a->out) {
        if (!a->in) return die_usage("image", "missing -i IN");
        if (!a->out) return die_usage("image", "missing -o OUT");
    }
    if (a->threads && parse_threads(a->threads) < 0)
        return die_usage("image", "--threads '%s': a whole number from 0 to %u", a->threads, TL_PARALLEL_MAX_THREADS);
    if (a->map && a->out && strcmp(a->out, "-") == 0)
        return die_usage("image", "--map prints to stdout: write OUT to a file, not '-'");
    return 0;
}

/* Index of text in names (NULL-terminated), or a usage error. */
static int pick(const char *opt, const char *text, const char *const *names, int32_t *out)
{
    if (!text) return 0;
    for (int k = 0; names[k]; k++)
        if (strcmp(text, names[k]) == 0) {
            *out = k;
            return 0;
        }
    return die_usage("image", "%s '%s': unknown value", opt, text);
}

/* "A,B,C" of 1..max floats; a single value stands for every channel. */
static int parse_floats(const char *opt, const char *text, float *out, int max, int *n)
{
    char *end;
    const char *p = text;
    *n = 0;
    for (;;) {
        if (*n == max) return die_usage("image", "%s '%s': at most %d values", opt, text, max);
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno || !isfinite(v) || (*end && *end != ','))
            return die_usage("image", "%s '%s': expected numbers separated by commas", opt, text);
        out[(*n)++] = (float)v;
        if (!*end) return 0;
        p = end + 1;
    }
}

static int parse_channels(const char *opt, const char *text, float *out)
{
    float v[4];
    int n = 0;
    if (!text) return 0;
    int rc = parse_floats(opt, text, v, 4, &n);
    if (rc) return rc;
    for (int c = 0; c < 4; c++) out[c] = n == 1 && c < 3 ? v[0] : c < n ? v[c] : out[c];
    return 0;
}

static int make_params(const image_args *a, tl_image_params *p)
{
    static const char *const resizes[] = {"bilinear", "nearest", "area", NULL};
    static const char *const fits[] = {"stretch", "letterbox", NULL};
    static const char *const colors[] = {"bt601", "bt709", "bt601-full", "bt709-full", NULL};
    static const char *const orders[] = {"rgb", "bgr", NULL};
    static const char *const modes[] = {"exact", "fast", NULL};
    int rc;
    tl_image_params_init(p);
    if ((rc = pick("--resize", a->resize, resizes, &p->resize)) || (rc = pick("--fit", a->fit, fits, &p->fit)) ||
        (rc = pick("--color", a->color, colors, &p->color)) || (rc = pick("--order", a->order, orders, &p->order)) ||
        (rc = pick("--from-order", a->from_order, orders, &p->src_order)) ||
        (rc = pick("--mode", a->mode, modes, &p->mode)))
        return rc;
    if ((rc = parse_channels("--mean", a->mean, p->mean)) || (rc = parse_channels("--std", a->std, p->std)))
        return rc;
    if (a->pad) {
        float v[4];
        for (int c = 0; c < 4; c++) v[c] = p->pad[c];
        if ((rc = parse_channels("--pad", a->pad, v))) return rc;
        for (int c = 0; c < 4; c++) {
            if (v[c] < 0 || v[c] > 255 || v[c] != floorf(v[c]))
                return die_usage("image", "--pad '%s': values are whole numbers 0..255", a->pad);
            p->pad[c] = (uint8_t)v[c];
        }
    }
    if (a->crop) {
        int64_t v[4];
        int n = 0;
        if (parse_coord(a->crop, v, 4, &n) != TL_OK || n != 4)
            return die_usage("image", "--crop '%s': expected X,Y,W,H", a->crop);
        p->crop_x = v[0], p->crop_y = v[1], p->crop_w = v[2], p->crop_h = v[3];
        if (v[2] == 0 || v[3] == 0)
            return die_usage("image", "--crop '%s': W and H must be >= 1", a->crop);
    }
    return 0;
}

static void print_map(const tl_image_map *m)
{
    printf("frame_x = x * %.17g + %.17g\n", m->scale_x, m->offset_x);
    printf("frame_y = y * %.17g + %.17g\n", m->scale_y, m->offset_y);
    printf("image   left=%lld top=%lld width=%lld height=%lld\n", (long long)m->left, (long long)m->top,
           (long long)m->width, (long long)m->height);
}

static tl_status convert(const image_args *a, const tl_desc *sd, const tl_desc *dd, const tl_image_plan *plan)
{
    size_t src_size, dst_size, in_len = 0;
    unsigned char *in = NULL, *dst = NULL;
    CLI_TRY(desc_size_t(sd, &src_size));
    CLI_TRY(desc_size_t(dd, &dst_size));
    size_t max = src_size < SIZE_MAX ? src_size + 1 : src_size;
    CLI_TRY(read_file(a->in, max ? max : 1, &in, &in_len));
    tl_status s = TL_OK;
    if (in_len != src_size)
        s = cli_fail(in_len < src_size ? TL_ERR_BUFFER_SMALL : TL_ERR_SIZE,
                     "input '%s' has %s%zu bytes; --from %s needs exactly %zu", a->in,
                     in_len > src_size ? "more than " : "", in_len > src_size ? src_size : in_len, a->from, src_size);
    if (s == TL_OK && !(dst = calloc(dst_size ? dst_size : 1, 1)))
        s = cli_fail(TL_ERR_NOMEM, "destination of %zu bytes: out of memory", dst_size);
    unsigned nthreads = a->threads ? (unsigned)parse_threads(a->threads) : 1;
    if (s == TL_OK) s = tl_image_plan_run_parallel(plan, in, in_len, dst, dst_size, nthreads);
    if (s == TL_OK) s = write_file(a->out, dst, dst_size);
    free(in);
    free(dst);
    return s;
}

static tl_status run(const image_args *a, const tl_image_params *p)
{
    tl_desc sd, dd;
    tl_image_plan *plan = NULL;
    CLI_TRY(parse_spec(&sd, "--from", a->from));
    CLI_TRY(parse_spec(&dd, "--to", a->to));
    CLI_TRY(tl_image_plan_create(&plan, &sd, &dd, p));
    tl_status s = TL_OK;
    if (a->map) {
        tl_image_map m;
        s = tl_image_plan_map(plan, &m);
        if (s == TL_OK) print_map(&m);
    }
    if (s == TL_OK && a->in) s = convert(a, &sd, &dd, plan);
    tl_image_plan_destroy(plan);
    return s;
}

int cmd_image(int argc, char **argv)
{
    image_args a;
    tl_image_params p;
    memset(&a, 0, sizeof a);
    int rc = parse_args(argc, argv, &a);
    if (rc < 0) {
        fputs(image_usage, stdout);
        return CLI_EXIT_OK;
    }
    if (rc != 0) return rc;
    if ((rc = make_params(&a, &p)) != 0) return rc;
    tl_status s = run(&a, &p);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
