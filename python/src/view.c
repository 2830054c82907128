/* tlayout.view(buf, desc, *, physical=False): a zero-copy numpy array.
 *
 * Without the numpy C API: the module exports the memory through an object
 * with an __array_interface__ (version 3: data pointer, shape, byte strides,
 * typestr) and lets numpy.asarray build the array on it. The array's base is
 * that object, which holds the buffer export, so the memory stays valid (and
 * a bytearray unresizable) while any view of it lives.
 *
 * Which array:
 *   - logical (default when possible): the tensor's own dims, when each dim is
 *     stored by at most one axis of block 1 (dense, pitched larod, padded
 *     TIDL, DirectML strides; broadcast dims get stride 0 and a read-only
 *     array). The data pointer skips the padding before each dim.
 *   - physical: one array dim per physical axis, outermost first, padding
 *     elements included (NC1HWC2 as N x C1 x H x W x C2). The fallback for
 *     blocked layouts, and what physical=True asks for.
 * Refused with UnsupportedError: several planes (NV12, I420), 4-bit types and
 * bf16 (numpy has no such dtype), strides that are not whole bytes.
 */
#include <stdio.h>

#include "tlpy.h"

typedef struct geometry {
    int ndim;
    Py_ssize_t offset;              /* bytes from the buffer start to element 0 */
    Py_ssize_t shape[TL_MAX_AXES];
    Py_ssize_t strides[TL_MAX_AXES];
    int readonly;
} geometry;

typedef struct {
    PyObject_HEAD
    Py_buffer buf;
    int exported;
    geometry g;
    char typestr[16];
} export_object;

static PyObject *export_type;

/* ---- dtype -------------------------------------------------------------------- */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define NATIVE '>'
#else
#define NATIVE '<'
#endif

static int typestr_of(const tl_desc *d, char out[16])
{
    static const struct { int dt; char kind; } kinds[] = {
        {TL_U8, 'u'}, {TL_I8, 'i'}, {TL_U16, 'u'}, {TL_I16, 'i'}, {TL_U32, 'u'}, {TL_I32, 'i'},
        {TL_U64, 'u'}, {TL_I64, 'i'}, {TL_F16, 'f'}, {TL_F32, 'f'}, {TL_F64, 'f'}, {TL_BOOL, 'b'},
    };
    unsigned bytes = tl_dtype_bits((tl_dtype)d->dtype) / 8;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (kinds[i].dt == d->dtype) {
            snprintf(out, 16, "%c%c%u", bytes == 1 ? '|' : NATIVE, kinds[i].kind, bytes);
            return 0;
        }
    const char *name = tl_dtype_name((tl_dtype)d->dtype);
    tlpy_raisef(TL_ERR_UNSUPPORTED,
                "view: dtype=%s has no numpy dtype%s: convert to a dtype numpy has (e.g. f32) with "
                "tlayout.convert, or view the bytes with a u8 descriptor",
                name, d->dtype == TL_BF16 ? " (numpy has no bfloat16)" : " (4-bit elements are packed)");
    return -1;
}

/* ---- geometry ------------------------------------------------------------------ */
static int byte_stride(int64_t bits, Py_ssize_t *out)
{
    if (bits % 8) {
        tlpy_raisef(TL_ERR_UNSUPPORTED, "view: a stride of %lld bits is not a whole number of bytes: numpy "
                    "strides are bytes; convert instead", (long long)bits);
        return -1;
    }
    *out = (Py_ssize_t)(bits / 8);
    return 0;
}

/* The logical array, or 0 when some dim is not one block-1 axis. -1 on error.
 * Element 0 is where the library puts it (tl_desc_offset_bits); each dim steps
 * by its one moving axis, or not at all (a dim of 1 keeps its axis's stride,
 * which only makes the array look like the vendor's pitches). */
static int logical(const tl_desc *d, geometry *g)
{
    const tl_plane *p = &d->planes[0];
    for (int i = 0; i < d->rank; i++) {
        const tl_axis *only = NULL;
        int moving = 0;
        for (int a = 0; a < p->naxes; a++) {
            if (p->axes[a].dim != i) continue;
            if (p->axes[a].extent > 1 || !only) only = &p->axes[a];
            moving += p->axes[a].extent > 1;
        }
        if (moving > 1 || (moving && (only->block != 1 || only->extent < d->pad_lo[i] + d->dims[i]))) return 0;
        int64_t stride = only && (moving || d->dims[i] == 1) ? only->stride_bits : 0;
        g->shape[i] = (Py_ssize_t)d->dims[i];
        if (byte_stride(stride, &g->strides[i]) < 0) return -1;
        if (stride == 0 && d->dims[i] > 1) g->readonly = 1; /* broadcast */
    }
    int64_t zero[TL_MAX_DIMS] = {0};
    uint64_t first;
    tl_status s = tl_desc_offset_bits(d, zero, &first);
    if (s != TL_OK) return tlpy_raise(s, NULL), -1;
    g->ndim = d->rank;
    return byte_stride((int64_t)first, &g->offset) < 0 ? -1 : 1;
}

static int physical(const tl_desc *d, geometry *g)
{
    const tl_plane *p = &d->planes[0];
    g->ndim = p->naxes;
    g->offset = (Py_ssize_t)p->offset_bytes;
    for (int a = 0; a < p->naxes; a++) {
        g->shape[a] = (Py_ssize_t)p->axes[a].extent;
        if (byte_stride(p->axes[a].stride_bits, &g->strides[a]) < 0) return -1;
        if (p->axes[a].stride_bits == 0 && p->axes[a].extent > 1) g->readonly = 1;
    }
    return 0;
}

/* Every byte the array can touch lies in the buffer (overflow-checked). */
static int inside(const geometry *g, Py_ssize_t itemsize, Py_ssize_t len)
{
    int64_t end = g->offset, t;
    for (int i = 0; i < g->ndim; i++) {
        if (g->shape[i] == 0) return 1;
        if (__builtin_mul_overflow((int64_t)(g->shape[i] - 1), (int64_t)g->strides[i], &t) ||
            __builtin_add_overflow(end, t, &end))
            return 0;
    }
    return end + itemsize <= (int64_t)len;
}

static int geometry_of(const tl_desc *d, int want_physical, Py_ssize_t len, geometry *g)
{
    memset(g, 0, sizeof *g);
    if (d->nplanes != 1)
        return tlpy_raisef(TL_ERR_UNSUPPORTED, "view: the descriptor has %d planes (e.g. NV12's Y and CbCr), "
                           "numpy arrays have one: convert it, or view each plane with a descriptor "
                           "of its own", (int)d->nplanes), -1;
    Py_ssize_t size;
    if (tlpy_desc_bytes(d, &size) < 0) return -1;
    if (len < size)
        return tlpy_raisef(TL_ERR_BUFFER_SMALL, "view: the buffer has %zd bytes, the descriptor needs "
                           "size_bytes=%zd: pass a buffer of at least that size", len, size), -1;
    int r = want_physical ? 0 : logical(d, g);
    if (r < 0 || (r == 0 && physical(d, g) < 0)) return -1;
    if (d->flags & TL_DESC_READONLY) g->readonly = 1;
    if (!inside(g, (Py_ssize_t)(tl_dtype_bits((tl_dtype)d->dtype) / 8), len))
        return tlpy_raisef(TL_ERR_SIZE, "view: the %s array reaches past the buffer of %zd bytes",
                           r ? "logical" : "physical", len), -1;
    return 0;
}

/* ---- the exporting object ----------------------------------------------------------- */
static PyObject *ssize_tuple(const Py_ssize_t *v, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromSsize_t(v[i]);
        if (!x || PyTuple_SetItem(t, i, x) < 0) Py_CLEAR(t);
    }
    return t;
}

static PyObject *export_interface(PyObject *self, void *c)
{
    (void)c;
    export_object *e = (export_object *)self;
    const geometry *g = &e->g;
    PyObject *ptr = PyLong_FromVoidPtr((char *)e->buf.buf + g->offset);
    PyObject *data = ptr ? Py_BuildValue("(NO)", ptr, g->readonly ? Py_True : Py_False) : NULL;
    PyObject *shape = ssize_tuple(g->shape, g->ndim), *strides = ssize_tuple(g->strides, g->ndim);
    PyObject *r = NULL;
    if (data && shape && strides)
        r = Py_BuildValue("{s:i,s:O,s:s,s:O,s:O}", "version", 3, "shape", shape, "typestr", e->typestr,
                          "data", data, "strides", strides);
    Py_XDECREF(data);
    Py_XDECREF(shape);
    Py_XDECREF(strides);
    return r;
}

static void export_dealloc(PyObject *self)
{
    export_object *e = (export_object *)self;
    if (e->exported) PyBuffer_Release(&e->buf);
    PyTypeObject *t = Py_TYPE(self);
    ((freefunc)PyType_GetSlot(t, Py_tp_free))(self);
    Py_DECREF(t);
}

static PyGetSetDef export_getset[] = {
    {"__array_interface__", export_interface, NULL, "The view as numpy's array interface (version 3).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot export_slots[] = {
    {Py_tp_dealloc, (void *)export_dealloc},
    {Py_tp_getset, export_getset},
    {Py_tp_doc, (void *)"Holds a buffer export for the numpy arrays tlayout.view returns (their .base)."},
    {0, NULL},
};

static PyType_Spec export_spec = {"tlayout._Export", sizeof(export_object), 0, Py_TPFLAGS_DEFAULT,
                                  export_slots};

/* Export buf writable when it can be, else read-only. */
static int get_buffer(PyObject *obj, Py_buffer *b)
{
    if (PyObject_GetBuffer(obj, b, PyBUF_WRITABLE) == 0) return 0;
    if (!PyErr_ExceptionMatches(PyExc_BufferError) && !PyErr_ExceptionMatches(PyExc_TypeError)) return -1;
    PyErr_Clear();
    return PyObject_GetBuffer(obj, b, PyBUF_SIMPLE);
}

PyObject *tlpy_numpy_asarray(void)
{
    static PyObject *asarray; /* kept for the life of the process */
    if (!asarray) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np && PyErr_ExceptionMatches(PyExc_ImportError)) {
            PyErr_Clear();
            PyErr_SetString(PyExc_ImportError, "tlayout.view needs numpy, which this interpreter cannot import "
                                               "(Debian: apt-get install python3-numpy)");
        }
        if (!np) return NULL;
        asarray = PyObject_GetAttrString(np, "asarray");
        Py_DECREF(np);
    }
    return asarray;
}

static PyObject *view(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"buf", "desc", "physical", NULL};
    PyObject *obj, *dobj;
    int want_physical = 0;
    tl_desc scratch;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|$p:view", kwlist, &obj, &dobj, &want_physical)) return NULL;
    const tl_desc *d = tlpy_desc_of(dobj, &scratch, "desc");
    PyObject *asarray = d ? tlpy_numpy_asarray() : NULL;
    if (!asarray) return NULL;
    PyTypeObject *t = (PyTypeObject *)export_type;
    export_object *e = (export_object *)((allocfunc)PyType_GetSlot(t, Py_tp_alloc))(t, 0);
    if (!e) return NULL;
    if (typestr_of(d, e->typestr) < 0 || get_buffer(obj, &e->buf) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    e->exported = 1;
    if (geometry_of(d, want_physical, e->buf.len, &e->g) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    if (e->buf.readonly) e->g.readonly = 1;
    PyObject *arr = PyObject_CallFunctionObjArgs(asarray, (PyObject *)e, NULL);
    Py_DECREF(e);
    return arr;
}

static PyMethodDef view_methods[] = {
    {"_view", (PyCFunction)(void (*)(void))view, METH_VARARGS | METH_KEYWORDS,
     "_view(buf, desc, *, physical=False) -> numpy.ndarray (tlayout.view is the public name)."},
    {NULL, NULL, 0, NULL},
};

static int view_init(PyObject *m)
{
    export_type = PyType_FromSpec(&export_spec);
    return export_type && PyModule_AddObjectRef(m, "_Export", export_type) == 0 ? 0 : -1;
}

const tlpy_part tlpy_part_view = {"view", view_methods, view_init};
