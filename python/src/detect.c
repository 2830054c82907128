/* Object detectors on native output heads (include/tlayout/detect.h,
 * docs/postprocess.md): tlayout._core._detect(model, heads, threshold, iou,
 * input_w, input_h, batch, map, anchors). python/tlayout/__init__.py gives
 * the public detect_yolov8 / detect_yolov8_single / detect_yolov5 and turns
 * the (x0, y0, x1, y1, score, class) tuples into an (N, 6) numpy array.
 *
 * heads: yolov8 -> a sequence of branches, each ((box_buf, box_desc),
 * (cls_buf, cls_desc)[, (sum_buf, sum_desc)]); yolov8_single -> one
 * (buf, desc); yolov5 -> a sequence of (buf, desc), one per stride.
 * map: None, an ImagePlan (its letterbox) or (sx, sy, dx, dy) with
 * model input = frame * s + d. Decoding runs with the GIL released.
 */
#include <stdlib.h>

#include "tlayout/detect.h"
#include "tlpy.h"

#define MAX_BRANCHES 8
#define MAX_TENSORS (3 * MAX_BRANCHES)

/* Every tensor of a call, kept exported until the decode is done. */
typedef struct held {
    int n;
    tl_desc desc[MAX_TENSORS];
    Py_buffer buf[MAX_TENSORS];
} held;

static void release(held *h)
{
    for (int i = 0; i < h->n; i++) PyBuffer_Release(&h->buf[i]);
    h->n = 0;
}

/* (buf, desc) -> *t; -1 with an exception. */
static int take(held *h, PyObject *pair, tl_tensor *t)
{
    PyObject *buf, *dobj;
    if (h->n == MAX_TENSORS) return tlpy_raisef(TL_ERR_SIZE, "detect: at most %d tensors", MAX_TENSORS), -1;
    if (!PyTuple_Check(pair) || !PyArg_ParseTuple(pair, "OO", &buf, &dobj)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "detect: every head is a (buffer, desc) pair");
        return -1;
    }
    const tl_desc *d = tlpy_desc_of(dobj, &h->desc[h->n], "head desc");
    if (!d) return -1;
    if (d != &h->desc[h->n]) h->desc[h->n] = *d;
    if (PyObject_GetBuffer(buf, &h->buf[h->n], PyBUF_SIMPLE) < 0) return -1;
    t->desc = &h->desc[h->n];
    t->buf = h->buf[h->n].buf;
    t->len = (size_t)h->buf[h->n].len;
    h->n++;
    return 0;
}

/* A sequence of at most MAX_BRANCHES items, as a new tuple. */
static PyObject *branches_of(PyObject *heads)
{
    PyObject *t = PySequence_Check(heads) ? PySequence_Tuple(heads) : NULL;
    if (!t || PyTuple_Size(t) < 1 || PyTuple_Size(t) > MAX_BRANCHES) {
        Py_XDECREF(t);
        PyErr_Clear();
        PyErr_Format(PyExc_TypeError, "detect: heads must be a sequence of 1 to %d branches", MAX_BRANCHES);
        return NULL;
    }
    return t;
}

static int take_yolov8(held *h, PyObject *heads, tl_yolov8_branch *br, int *nb)
{
    PyObject *t = branches_of(heads);
    if (!t) return -1;
    *nb = (int)PyTuple_Size(t);
    int r = 0;
    for (int i = 0; r == 0 && i < *nb; i++) {
        PyObject *b = PySequence_Check(PyTuple_GetItem(t, i)) ? PySequence_Tuple(PyTuple_GetItem(t, i)) : NULL;
        Py_ssize_t n = b ? PyTuple_Size(b) : 0;
        memset(&br[i], 0, sizeof br[i]);
        if (n != 2 && n != 3) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "detect_yolov8: branch %d must be ((box_buf, box_desc), "
                         "(cls_buf, cls_desc)[, (sum_buf, sum_desc)])", i);
            r = -1;
        } else {
            r = take(h, PyTuple_GetItem(b, 0), &br[i].box);
            if (r == 0) r = take(h, PyTuple_GetItem(b, 1), &br[i].cls);
            if (r == 0 && n == 3) r = take(h, PyTuple_GetItem(b, 2), &br[i].sum);
        }
        Py_XDECREF(b);
    }
    Py_DECREF(t);
    return r;
}

/* anchors: None (COCO defaults) or one sequence of (w, h) pairs per branch. */
static int take_yolov5(held *h, PyObject *heads, PyObject *anchors, tl_yolov5_branch *br, int *nb)
{
    PyObject *t = branches_of(heads);
    if (!t) return -1;
    *nb = (int)PyTuple_Size(t);
    int r = 0;
    for (int i = 0; r == 0 && i < *nb; i++) {
        memset(&br[i], 0, sizeof br[i]);
        r = take(h, PyTuple_GetItem(t, i), &br[i].t);
        if (r == 0 && anchors == Py_None) {
            if (i > 2) {
                tlpy_raisef(TL_ERR_SPEC_VALUE, "detect_yolov5: the default (COCO) anchors cover 3 branches, "
                            "not %d: pass anchors=", *nb);
                r = -1;
            } else {
                br[i].na = 3;
                tl_yolov5_default_anchors(i, br[i].anchors);
            }
        } else if (r == 0) {
            PyObject *a = PySequence_GetItem(anchors, i);
            PyObject *fl = a && PySequence_Check(a) ? PySequence_Tuple(a) : NULL;
            Py_ssize_t n = fl ? PyTuple_Size(fl) : -1;
            if (!fl || n < 1 || n > TL_YOLOV5_MAX_ANCHORS) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError, "detect_yolov5: anchors[%d] must be 1 to %d (w, h) pairs", i,
                             TL_YOLOV5_MAX_ANCHORS);
                r = -1;
            }
            for (Py_ssize_t j = 0; r == 0 && j < n; j++) {
                PyObject *pair = PySequence_GetItem(fl, j);
                PyObject *tp = pair ? PySequence_Tuple(pair) : NULL;
                if (!tp || !PyArg_ParseTuple(tp, "dd", &br[i].anchors[2 * j], &br[i].anchors[2 * j + 1])) r = -1;
                Py_XDECREF(tp);
                Py_XDECREF(pair);
            }
            br[i].na = (int32_t)n;
            Py_XDECREF(fl);
            Py_XDECREF(a);
        }
    }
    Py_DECREF(t);
    return r;
}

static int map_of(PyObject *o, tl_box_map *m)
{
    double v[4];
    if (tlpy_plan_box_map(o, v) || PyArg_ParseTuple(o, "dddd", &v[0], &v[1], &v[2], &v[3])) {
        m->sx = v[0], m->sy = v[1], m->dx = v[2], m->dy = v[3];
        return 0;
    }
    PyErr_Clear();
    PyErr_SetString(PyExc_TypeError, "detect: map must be None, an ImagePlan or (sx, sy, dx, dy) with "
                    "model input = frame * s + d");
    return -1;
}

typedef struct call {
    int model; /* 0 yolov8 split, 1 yolov8 single, 2 yolov5 */
    tl_yolov8_branch v8[MAX_BRANCHES];
    tl_yolov5_branch v5[MAX_BRANCHES];
    tl_tensor single;
    int nb;
    tl_detect_params p;
} call;

static tl_status decode(const call *c, tl_detection *out, size_t cap, size_t *n)
{
    if (c->model == 0) return tl_detect_yolov8(c->v8, c->nb, &c->p, out, cap, n);
    if (c->model == 1) return tl_detect_yolov8_single(&c->single, &c->p, out, cap, n);
    return tl_detect_yolov5(c->v5, c->nb, &c->p, out, cap, n);
}

/* Decode, growing the output until it fits (GIL released). */
static PyObject *run(const call *c)
{
    size_t cap = 256, n = 0;
    tl_detection *out = NULL;
    tl_status s;
    Py_BEGIN_ALLOW_THREADS
    for (;;) {
        out = malloc(cap * sizeof *out);
        n = 0;
        s = out ? decode(c, out, cap, &n) : TL_ERR_NOMEM;
        /* BUFFER_SMALL is also a too short input buffer: grow only for the output */
        if (s != TL_ERR_BUFFER_SMALL || n <= cap) break;
        free(out);
        cap = n;
    }
    Py_END_ALLOW_THREADS
    PyObject *list = s == TL_OK ? PyList_New((Py_ssize_t)n) : tlpy_raise(s, NULL);
    for (size_t i = 0; list && i < n; i++) {
        const tl_detection *d = &out[i];
        PyObject *t = Py_BuildValue("(ddddddi)", d->x0, d->y0, d->x1, d->y1, d->score, (double)d->cls, (int)d->branch);
        if (!t) Py_CLEAR(list);
        else PyList_SetItem(list, (Py_ssize_t)i, t);
    }
    free(out);
    return list;
}

static PyObject *detect(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"model", "heads", "threshold", "iou", "input_w", "input_h", "batch", "map",
                             "anchors", NULL};
    PyObject *heads, *map = Py_None, *anchors = Py_None;
    call *c = calloc(1, sizeof *c);
    held *h = calloc(1, sizeof *h);
    tl_box_map bm;
    long long batch = 0;
    int iw = 640, ih = 640;
    PyObject *r = NULL;
    if (!c || !h) goto done;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOdd|iiLOO:_detect", kwlist, &c->model, &heads, &c->p.threshold,
                                     &c->p.iou, &iw, &ih, &batch, &map, &anchors))
        goto done;
    c->p.input_w = iw, c->p.input_h = ih, c->p.batch = batch;
    if (map != Py_None) {
        if (map_of(map, &bm) < 0) goto done;
        c->p.map = &bm;
    }
    int ok = c->model == 0 ? take_yolov8(h, heads, c->v8, &c->nb)
             : c->model == 1 ? take(h, heads, &c->single)
                             : take_yolov5(h, heads, anchors, c->v5, &c->nb);
    if (ok == 0) r = run(c);
done:
    if (h) release(h);
    free(h);
    free(c);
    return r ? r : PyErr_Occurred() ? NULL : PyErr_NoMemory();
}

static PyMethodDef detect_methods[] = {
    {"_detect", (PyCFunction)(void (*)(void))detect, METH_VARARGS | METH_KEYWORDS,
     "_detect(model, heads, threshold, iou, input_w=640, input_h=640, batch=0, map=None, anchors=None)\n"
     "-> [(x0, y0, x1, y1, score, class, branch)]; model 0 yolov8, 1 yolov8 single, 2 yolov5."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_detect = {"detect", detect_methods, NULL};
