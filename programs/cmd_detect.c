/* tlayout detect yolov8|yolov5 --head SPEC:FILE ... --threshold T --iou I */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tlayout/detect.h"

static const char detect_usage[] =
    "usage: tlayout detect yolov8|yolov5 --head SPEC:FILE [--head SPEC:FILE ...]\n"
    "                      --threshold T --iou I [--input WxH] [--batch N]\n"
    "                      [--map SX,SY,DX,DY] [--json]\n\n"
    "Decode object detections straight from native output heads (raw files laid out\n"
    "as SPEC, e.g. RKNN NC1HWC2 int8), then class-aware NMS. Prints one line per\n"
    "detection, best first: class score x0 y0 x1 y1 (corners in model-input pixels).\n\n"
    "  yolov8  one head: the single output [N, 4+nc, anchors] (cx cy w h, classes);\n"
    "          more: per stride, in order, the box head (4 x 16 DFL channels), the\n"
    "          class head and optionally the 1-channel score-sum head (RKNN model zoo)\n"
    "  yolov5  one head per stride, [N, 3*(5+nc), H, W], after sigmoid; COCO anchors\n"
    "  --threshold T   keep scores >= T          --iou I   drop IoU > I (same class)\n"
    "  --input WxH     model input size (default 640x640): stride = input / grid\n"
    "  --batch N       batch item to decode (default 0)\n"
    "  --map SX,SY,DX,DY  letterbox: input = source * S + D; print source pixels\n"
    "  --json          one JSON object: {\"count\":N,\"detections\":[...]}\n";

#define MAX_HEADS 12

typedef struct head {
    tl_desc d;
    unsigned char *buf;
    size_t len;
} head;

/* SPEC:FILE: the file is after the last ':' (specs hold ':' themselves). */
static tl_status load_head(const char *arg, head *h)
{
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || !colon[1])
        return cli_fail(TL_ERR_SPEC_SYNTAX, "--head '%s': expected SPEC:FILE", arg);
    char spec[1024];
    size_t n = (size_t)(colon - arg);
    if (n >= sizeof spec) return cli_fail(TL_ERR_SPEC_SYNTAX, "--head: spec longer than %zu characters", sizeof spec);
    memcpy(spec, arg, n);
    spec[n] = '\0';
    return cli_read_tensor(spec, colon + 1, &h->d, &h->buf, &h->len);
}

static int64_t channels_of(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == 'C') return d->dims[i];
    return d->rank >= 2 ? d->dims[1] : d->dims[0];
}

static tl_tensor tensor_of(const head *h) { return (tl_tensor){&h->d, h->buf, h->len}; }

/* Split heads grouped in order: box, class, optional 1-channel sum. */
static tl_status run_yolov8(head *heads, int nh, const tl_detect_params *p, tl_detection *out, size_t cap,
                            size_t *count)
{
    if (nh == 1) {
        tl_tensor t = tensor_of(&heads[0]);
        return tl_detect_yolov8_single(&t, p, out, cap, count);
    }
    tl_yolov8_branch br[MAX_HEADS];
    int nb = 0;
    for (int i = 0; i < nh;) {
        if (i + 1 >= nh)
            return cli_fail(TL_ERR_MISMATCH, "--head %d: a box head without its class head (split heads come as "
                            "box, class[, sum] per stride)", i + 1);
        memset(&br[nb], 0, sizeof br[nb]);
        br[nb].box = tensor_of(&heads[i]), br[nb].cls = tensor_of(&heads[i + 1]);
        i += 2;
        if (i < nh && channels_of(&heads[i].d) == 1) br[nb].sum = tensor_of(&heads[i++]);
        nb++;
    }
    return tl_detect_yolov8(br, nb, p, out, cap, count);
}

static tl_status run_yolov5(head *heads, int nh, const tl_detect_params *p, tl_detection *out, size_t cap,
                            size_t *count)
{
    tl_yolov5_branch br[MAX_HEADS];
    for (int i = 0; i < nh; i++) {
        memset(&br[i], 0, sizeof br[i]);
        br[i].t = tensor_of(&heads[i]);
        br[i].na = 3;
        tl_yolov5_default_anchors(i, br[i].anchors);
    }
    return tl_detect_yolov5(br, nh, p, out, cap, count);
}

static void print_detections(const tl_detection *d, size_t n, int json)
{
    if (json) printf("{\"count\":%zu,\"detections\":[", n);
    for (size_t i = 0; i < n; i++) {
        if (json)
            printf("%s{\"class\":%d,\"score\":%.9g,\"box\":[%.4f,%.4f,%.4f,%.4f],\"branch\":%d,\"anchor\":%d,"
                   "\"h\":%" PRId64 ",\"w\":%" PRId64 "}", i ? "," : "", (int)d[i].cls, d[i].score, d[i].x0, d[i].y0,
                   d[i].x1, d[i].y1, (int)d[i].branch, (int)d[i].anchor, d[i].h, d[i].w);
        else
            printf("%d %.9g %.4f %.4f %.4f %.4f\n", (int)d[i].cls, d[i].score, d[i].x0, d[i].y0, d[i].x1, d[i].y1);
    }
    if (json) printf("]}\n");
}

typedef struct detect_args {
    const char *model, *threshold, *iou, *input, *batch, *map;
    const char *heads[MAX_HEADS];
    int nheads, json;
} detect_args;

static int parse_args(int argc, char **argv, detect_args *a)
{
    memset(a, 0, sizeof *a);
    for (int i = 1; i < argc; i++) {
        const char *v = NULL;
        int r;
        if (is_help(argv[i])) return -1;
        CLI_OPT("detect", "--threshold", a->threshold) CLI_OPT("detect", "--iou", a->iou)
        CLI_OPT("detect", "--input", a->input) CLI_OPT("detect", "--batch", a->batch)
        CLI_OPT("detect", "--map", a->map)
        if ((r = take_option(argc, argv, &i, "--head", &v)) != 0) {
            if (r < 0) return die_usage("detect", "option --head needs SPEC:FILE");
            if (a->nheads == MAX_HEADS) return die_usage("detect", "at most %d --head options", MAX_HEADS);
            a->heads[a->nheads++] = v;
        } else if (strcmp(argv[i], "--json") == 0) {
            a->json = 1;
        } else if (argv[i][0] == '-') {
            return die_usage("detect", "unknown option '%s'", argv[i]);
        } else if (!a->model) {
            a->model = argv[i];
        } else {
            return die_usage("detect", "unexpected argument '%s'", argv[i]);
        }
    }
    if (!a->model || (strcmp(a->model, "yolov8") != 0 && strcmp(a->model, "yolov5") != 0))
        return die_usage("detect", "first argument must be yolov8 or yolov5");
    if (!a->nheads) return die_usage("detect", "missing --head SPEC:FILE");
    if (!a->threshold || !a->iou) return die_usage("detect", "missing --threshold T or --iou I");
    return 0;
}

static int parse_params(const detect_args *a, tl_detect_params *p, tl_box_map *map)
{
    memset(p, 0, sizeof *p);
    p->input_w = p->input_h = 640;
    char tail;
    long long b = 0;
    if (!cli_parse_real(a->threshold, &p->threshold))
        return die_usage("detect", "--threshold '%s' is not a real number", a->threshold);
    if (!cli_parse_real(a->iou, &p->iou)) return die_usage("detect", "--iou '%s' is not a real number", a->iou);
    if (a->input && sscanf(a->input, "%dx%d%c", &p->input_w, &p->input_h, &tail) != 2)
        return die_usage("detect", "--input '%s': expected WxH, e.g. 640x640", a->input);
    if (a->batch && sscanf(a->batch, "%lld%c", &b, &tail) != 1)
        return die_usage("detect", "--batch '%s' is not an integer", a->batch);
    p->batch = b;
    if (a->map) {
        if (sscanf(a->map, "%lf,%lf,%lf,%lf%c", &map->sx, &map->sy, &map->dx, &map->dy, &tail) != 4)
            return die_usage("detect", "--map '%s': expected SX,SY,DX,DY", a->map);
        p->map = map;
    }
    return 0;
}

int cmd_detect(int argc, char **argv)
{
    detect_args a;
    int rc = parse_args(argc, argv, &a);
    if (rc < 0) return fputs(detect_usage, stdout), CLI_EXIT_OK;
    if (rc) return rc;
    tl_detect_params p;
    tl_box_map map;
    if ((rc = parse_params(&a, &p, &map)) != 0) return rc;
    head heads[MAX_HEADS];
    memset(heads, 0, sizeof heads);
    tl_status s = TL_OK;
    for (int i = 0; s == TL_OK && i < a.nheads; i++) s = load_head(a.heads[i], &heads[i]);
    size_t n = 0;
    tl_detection *out = NULL;
    for (int pass = 0; s == TL_OK && pass < 2; pass++) { /* count, then fill */
        s = strcmp(a.model, "yolov8") == 0 ? run_yolov8(heads, a.nheads, &p, out, n, &n)
                                           : run_yolov5(heads, a.nheads, &p, out, n, &n);
        if (pass == 0 && s == TL_ERR_BUFFER_SMALL) {
            cli_clear_error();
            out = malloc(n * sizeof *out);
            s = out ? TL_OK : cli_fail(TL_ERR_NOMEM, "%zu detections", n);
        } else if (pass == 0) {
            break;
        }
    }
    if (s == TL_OK) print_detections(out, n, a.json);
    free(out);
    for (int i = 0; i < a.nheads; i++) free(heads[i].buf);
    return s == TL_OK ? CLI_EXIT_OK : die_status(s);
}
