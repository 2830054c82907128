/* tlayout.image(src, src_desc, dst_desc, out=None, **params) and
 * tlayout.ImagePlan(src_desc, dst_desc, **params): the image pipeline of
 * include/tlayout/image.h (docs/image.md).
 *
 * Every field of tl_image_params is a keyword, named and spelled as the CLI's
 * options (`tlayout image --resize area` is resize="area"):
 *   crop=(x, y, w, h)  resize="bilinear|nearest|area"  fit="stretch|letterbox"
 *   pad=(r, g, b[, a]) or one number   color="bt601|bt709|bt601-full|bt709-full"
 *   order="rgb|bgr"  from_order="rgb|bgr"  mode="exact|fast"
 *   mean=, std= one number (the first three channels) or up to 4 numbers.
 * An ImagePlan checks everything and builds its tables once; run() then only
 * converts, with the GIL released (the plan is immutable, the buffers stay
 * exported meanwhile).
 */
#include <math.h>
#include <stdio.h>

#include "tlpy.h"

typedef struct plan_object {
    PyObject_HEAD
    tl_image_plan *plan;
    Py_ssize_t dst_bytes;
} plan_object;

static PyObject *plan_type;

/* "image KEY=REPR: RULE" as the error of status s; returns -1. */
static int bad(tl_status s, const char *key, PyObject *v, const char *rule)
{
    PyObject *r = PyObject_Repr(v);
    const char *text = r ? PyUnicode_AsUTF8AndSize(r, NULL) : NULL;
    PyErr_Clear();
    tlpy_raisef(s, "image %s=%s: %s", key, text ? text : "?", rule);
    Py_XDECREF(r);
    return -1;
}

/* ---- keywords -> tl_image_params ---------------------------------------------- */

static int pick(PyObject *v, const char *key, const char *const *names, int32_t *out)
{
    const char *s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, NULL) : NULL;
    if (!s) {
        PyErr_Clear();
        return bad(TL_ERR_SPEC_OPTION, key, v, "expected a string (see docs/image.md)");
    }
    for (int32_t i = 0; names[i]; i++)
        if (strcmp(s, names[i]) == 0) {
            *out = i;
            return 0;
        }
    char rule[160] = "accepted values:";
    for (int i = 0; names[i]; i++) {
        size_t used = strlen(rule);
        snprintf(rule + used, sizeof rule - used, " '%s'", names[i]);
    }
    return bad(TL_ERR_SPEC_OPTION, key, v, rule);
}

/* One number, or a sequence of 1..4 numbers, into n (1..4) doubles. */
static int numbers(PyObject *v, const char *key, double out[4], int *n)
{
    if (PyNumber_Check(v) && !PyUnicode_Check(v)) {
        out[0] = PyFloat_AsDouble(v);
        *n = 1;
        return PyErr_Occurred() ? -1 : 0;
    }
    PyObject *seq = PySequence_Check(v) ? PySequence_Tuple(v) : NULL;
    if (!seq || PyTuple_Size(seq) < 1 || PyTuple_Size(seq) > 4) {
        Py_XDECREF(seq);
        PyErr_Clear();
        return bad(TL_ERR_SPEC_VALUE, key, v, "expected a number or 1 to 4 numbers");
    }
    *n = (int)PyTuple_Size(seq);
    for (int i = 0; i < *n; i++) out[i] = PyFloat_AsDouble(PyTuple_GetItem(seq, i));
    Py_DECREF(seq);
    return PyErr_Occurred() ? -1 : 0; /* the library checks the values themselves */
}

/* Like the CLI: one value sets the first three channels. */
static int channels(PyObject *v, const char *key, double out[4])
{
    double got[4];
    int n;
    if (numbers(v, key, got, &n) < 0) return -1;
    for (int c = 0; c < 4; c++) out[c] = n == 1 ? (c < 3 ? got[0] : out[c]) : (c < n ? got[c] : out[c]);
    return 0;
}

static int set_floats(PyObject *v, const char *key, float dst[4])
{
    double d[4] = {dst[0], dst[1], dst[2], dst[3]};
    if (channels(v, key, d) < 0) return -1;
    for (int c = 0; c < 4; c++) dst[c] = (float)d[c];
    return 0;
}

static int set_pad(PyObject *v, uint8_t pad[4])
{
    double d[4] = {pad[0], pad[1], pad[2], pad[3]};
    if (channels(v, "pad", d) < 0) return -1;
    for (int c = 0; c < 4; c++) {
        if (d[c] < 0 || d[c] > 255 || d[c] != floor(d[c]))
            return bad(TL_ERR_SPEC_VALUE, "pad", v, "values are whole numbers 0..255");
        pad[c] = (uint8_t)d[c];
    }
    return 0;
}

static int set_crop(PyObject *v, tl_image_params *p)
{
    double d[4];
    int n = 0;
    if (numbers(v, "crop", d, &n) < 0) return -1;
    for (int i = 0; i < n; i++)
        if (d[i] != floor(d[i]) || d[i] < 0 || d[i] > 9.0e15) n = 0;
    if (n != 4 || d[2] < 1 || d[3] < 1)
        return bad(TL_ERR_SPEC_VALUE, "crop", v, "expected (x, y, w, h), whole numbers >= 0, w and h >= 1");
    p->crop_x = (int64_t)d[0], p->crop_y = (int64_t)d[1], p->crop_w = (int64_t)d[2], p->crop_h = (int64_t)d[3];
    return 0;
}

static int set_param(tl_image_params *p, PyObject *name, PyObject *v)
{
    static const char *const resizes[] = {"bilinear", "nearest", "area", NULL};
    static const char *const fits[] = {"stretch", "letterbox", NULL};
    static const char *const colors[] = {"bt601", "bt709", "bt601-full", "bt709-full", NULL};
    static const char *const orders[] = {"rgb", "bgr", NULL};
    static const char *const modes[] = {"exact", "fast", NULL};
    const char *k = PyUnicode_AsUTF8AndSize(name, NULL);
    if (!k) return -1;
    if (!strcmp(k, "crop")) return set_crop(v, p);
    if (!strcmp(k, "resize")) return pick(v, k, resizes, &p->resize);
    if (!strcmp(k, "fit")) return pick(v, k, fits, &p->fit);
    if (!strcmp(k, "color")) return pick(v, k, colors, &p->color);
    if (!strcmp(k, "order")) return pick(v, k, orders, &p->order);
    if (!strcmp(k, "from_order")) return pick(v, k, orders, &p->src_order);
    if (!strcmp(k, "mode")) return pick(v, k, modes, &p->mode);
    if (!strcmp(k, "pad")) return set_pad(v, p->pad);
    if (!strcmp(k, "mean")) return set_floats(v, k, p->mean);
    if (!strcmp(k, "std")) return set_floats(v, k, p->std);
    PyErr_Format(PyExc_TypeError, "image got an unexpected keyword argument '%s' (accepted: crop resize fit "
                 "pad color order from_order mode mean std)", k);
    return -1;
}

/* The params of a keyword dict (NULL = defaults). */
static int params_of(PyObject *kw, tl_image_params *p)
{
    tl_image_params_init(p);
    Py_ssize_t pos = 0;
    PyObject *k, *v;
    while (kw && PyDict_Next(kw, &pos, &k, &v))
        if (set_param(p, k, v) < 0) return -1;
    return 0;
}

/* ---- plans ------------------------------------------------------------------- */

/* A new plan from (src_desc, dst_desc) and params; NULL with an exception. */
static tl_image_plan *make_plan(PyObject *src_desc, PyObject *dst_desc, PyObject *kw, Py_ssize_t *dst_bytes)
{
    tl_desc ss, ds;
    tl_image_params p;
    tl_image_plan *plan = NULL;
    const tl_desc *sd = tlpy_desc_of(src_desc, &ss, "src_desc");
    const tl_desc *dd = sd ? tlpy_desc_of(dst_desc, &ds, "dst_desc") : NULL;
    if (!dd || tlpy_desc_bytes(dd, dst_bytes) < 0 || params_of(kw, &p) < 0) return NULL;
    tl_status s = tl_image_plan_create(&plan, sd, dd, &p);
    if (s != TL_OK) tlpy_raise(s, NULL);
    return s == TL_OK ? plan : NULL;
}

static PyObject *new_zeroed(Py_ssize_t n)
{
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n);
    if (out && n) memset(PyByteArray_AsString(out), 0, (size_t)n);
    return out;
}

/* Run plan from src into out (None: a new bytearray); returns out. */
static PyObject *run_plan(const tl_image_plan *plan, Py_ssize_t dst_bytes, PyObject *src, PyObject *out)
{
    PyObject *dst = out == Py_None ? new_zeroed(dst_bytes) : Py_NewRef(out);
    if (!dst) return NULL;
    Py_buffer sb, db;
    if (PyObject_GetBuffer(src, &sb, PyBUF_SIMPLE) < 0) goto fail;
    if (PyObject_GetBuffer(dst, &db, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&sb);
        goto fail;
    }
    tl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = tl_image_plan_run(plan, sb.buf, (size_t)sb.len, db.buf, (size_t)db.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&db);
    PyBuffer_Release(&sb);
    if (s == TL_OK) return dst;
    tlpy_raise(s, NULL);
fail:
    Py_DECREF(dst);
    return NULL;
}

static PyObject *image(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    PyObject *src, *sd, *dd, *out = Py_None;
    if (!PyArg_ParseTuple(args, "OOO|O:image", &src, &sd, &dd, &out)) return NULL;
    PyObject *params = kw ? PyDict_Copy(kw) : NULL; /* the keywords but out= */
    PyObject *out_kw = params ? PyDict_GetItemString(params, "out") : NULL;
    if (out_kw && out != Py_None) {
        Py_DECREF(params);
        PyErr_SetString(PyExc_TypeError, "image(): out given by position and by keyword");
        return NULL;
    }
    if (out_kw) {
        out = out_kw;
        Py_INCREF(out); /* params holds the only other reference */
        PyDict_DelItemString(params, "out");
    } else {
        Py_INCREF(out);
    }
    Py_ssize_t dst_bytes;
    tl_image_plan *plan = make_plan(sd, dd, params, &dst_bytes);
    Py_XDECREF(params);
    if (!plan) {
        Py_DECREF(out);
        return NULL;
    }
    PyObject *r = run_plan(plan, dst_bytes, src, out);
    tl_image_plan_destroy(plan);
    Py_DECREF(out);
    return r;
}

static PyObject *plan_new(PyTypeObject *t, PyObject *args, PyObject *kw)
{
    PyObject *sd, *dd;
    if (!PyArg_ParseTuple(args, "OO:ImagePlan", &sd, &dd)) return NULL;
    Py_ssize_t dst_bytes;
    tl_image_plan *plan = make_plan(sd, dd, kw, &dst_bytes);
    if (!plan) return NULL;
    allocfunc alloc = (allocfunc)PyType_GetSlot(t, Py_tp_alloc);
    plan_object *self = (plan_object *)alloc(t, 0);
    if (!self) {
        tl_image_plan_destroy(plan);
        return NULL;
    }
    self->plan = plan;
    self->dst_bytes = dst_bytes;
    return (PyObject *)self;
}

static void plan_dealloc(PyObject *o)
{
    PyTypeObject *t = Py_TYPE(o);
    tl_image_plan_destroy(((plan_object *)o)->plan);
    freefunc f = (freefunc)PyType_GetSlot(t, Py_tp_free);
    f(o);
    Py_DECREF(t);
}

static PyObject *plan_run(PyObject *o, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"src", "out", NULL};
    PyObject *src, *out = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:run", kwlist, &src, &out)) return NULL;
    plan_object *self = (plan_object *)o;
    return run_plan(self->plan, self->dst_bytes, src, out);
}

/* The letterbox transform: destination pixel -> frame pixel. */
static PyObject *plan_map(PyObject *o, void *closure)
{
    (void)closure;
    tl_image_map m;
    tl_status s = tl_image_plan_map(((plan_object *)o)->plan, &m);
    if (s != TL_OK) return tlpy_raise(s, NULL);
    return Py_BuildValue("{s:d,s:d,s:d,s:d,s:L,s:L,s:L,s:L}", "scale_x", m.scale_x, "scale_y", m.scale_y,
                         "offset_x", m.offset_x, "offset_y", m.offset_y, "left", (long long)m.left, "top",
                         (long long)m.top, "width", (long long)m.width, "height", (long long)m.height);
}

static PyObject *plan_size(PyObject *o, void *closure)
{
    (void)closure;
    return PyLong_FromSsize_t(((plan_object *)o)->dst_bytes);
}

static PyObject *plan_repr(PyObject *o)
{
    return PyUnicode_FromFormat("ImagePlan(%s)", tl_image_plan_describe(((plan_object *)o)->plan));
}

static PyMethodDef plan_methods[] = {
    {"run", (PyCFunction)(void (*)(void))plan_run, METH_VARARGS | METH_KEYWORDS,
     "run(src, out=None) -> out\n\nRun the plan on a frame: the whole destination is written "
     "(padding zero, letterbox border pad). out=None returns a new bytearray. GIL released."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef plan_getset[] = {
    {"map", plan_map, NULL,
     "dict: frame_x = x * scale_x + offset_x, frame_y = y * scale_y + offset_y for a destination "
     "pixel (x, y); left, top, width, height: the image inside the letterbox border.", NULL},
    {"size_bytes", plan_size, NULL, "bytes of the destination buffer", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot plan_slots[] = {
    {Py_tp_new, (void *)plan_new},
    {Py_tp_dealloc, (void *)plan_dealloc},
    {Py_tp_repr, (void *)plan_repr},
    {Py_tp_methods, plan_methods},
    {Py_tp_getset, plan_getset},
    {Py_tp_doc, (void *)"ImagePlan(src_desc, dst_desc, **params)\n\nA checked image pipeline, reusable "
                        "for every frame: .run(src, out=None), .map. Keywords as tlayout.image()."},
    {0, NULL},
};

static PyType_Spec plan_spec = {"tlayout.ImagePlan", sizeof(plan_object), 0, Py_TPFLAGS_DEFAULT, plan_slots};

static int image_init(PyObject *m)
{
    plan_type = PyType_FromSpec(&plan_spec);
    return plan_type ? PyModule_AddObjectRef(m, "ImagePlan", plan_type) : -1;
}

/* For the detectors (detect.c): the tl_box_map of a plan, or 0 when o is not one. */
int tlpy_plan_box_map(PyObject *o, double map[4])
{
    if (!plan_type || !PyObject_TypeCheck(o, (PyTypeObject *)plan_type)) return 0;
    tl_image_map m;
    if (tl_image_plan_map(((plan_object *)o)->plan, &m) != TL_OK) return 0;
    /* frame = x * scale + offset  <=>  x = frame / scale - offset / scale */
    map[0] = 1.0 / m.scale_x, map[1] = 1.0 / m.scale_y;
    map[2] = -m.offset_x / m.scale_x, map[3] = -m.offset_y / m.scale_y;
    return 1;
}

static PyMethodDef image_methods[] = {
    {"image", (PyCFunction)(void (*)(void))image, METH_VARARGS | METH_KEYWORDS,
     "image(src, src_desc, dst_desc, out=None, **params) -> out\n\n"
     "A camera frame (NV12, NV21, I420, RGB/BGR u8, gray) to a model input laid out as\n"
     "dst_desc in one pass: crop, resize, letterbox, colour, (x - mean) / std, the\n"
     "destination's dtype and quantization. Keywords: crop=(x, y, w, h),\n"
     "resize='bilinear|nearest|area', fit='stretch|letterbox', pad=, color='bt601|bt709|\n"
     "bt601-full|bt709-full', order='rgb|bgr', from_order='rgb|bgr', mode='exact|fast',\n"
     "mean=, std=. GIL released. Use ImagePlan to run the same pipeline on many frames."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_image = {"image", image_methods, image_init};
