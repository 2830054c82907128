/* tlayout.Desc: one descriptor, parsed from a spec string, immutable.
 *
 * Its text views are the CLI's own: json() is the object of `tlayout describe
 * --json` (tl_desc_to_json), explain() the text of `tlayout explain` without
 * the line wrapping (programs/explain.c), svg() the picture of `tlayout draw`
 * (programs/svg_draw.c). Those two program files are compiled into the module
 * rather than moved into the library: they are presentation, built on the
 * public API only, and the C library stays free of it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "explain.h"
#include "svg_map.h"
#include "tlpy.h"

typedef struct {
    PyObject_HEAD
    tl_desc d;
} desc_object;

static PyObject *desc_type;  /* tlayout.Desc */
static PyObject *quant_type; /* tlayout.Quant, a struct sequence */

static int is_desc(PyObject *o) { return PyObject_TypeCheck(o, (PyTypeObject *)desc_type); }
static const tl_desc *desc_of(PyObject *self) { return &((desc_object *)self)->d; }

/* ---- construction ----------------------------------------------------------- */
static int parse_text(PyObject *o, tl_desc *out, const char *what)
{
    Py_ssize_t n;
    const char *spec = PyUnicode_AsUTF8AndSize(o, &n);
    if (!spec) return -1;
    if ((size_t)n != strlen(spec)) {
        tlpy_raisef(TL_ERR_SPEC_SYNTAX, "%s: the spec string contains a NUL character", what);
        return -1;
    }
    tl_status s = tl_desc_parse(out, spec);
    if (s != TL_OK) {
        tlpy_raise(s, NULL);
        return -1;
    }
    return 0;
}

const tl_desc *tlpy_desc_of(PyObject *o, tl_desc *scratch, const char *what)
{
    if (is_desc(o)) return desc_of(o);
    if (PyUnicode_Check(o)) return parse_text(o, scratch, what) == 0 ? scratch : NULL;
    PyErr_Format(PyExc_TypeError, "%s must be a tlayout.Desc or a spec string, not %R", what,
                 (PyObject *)Py_TYPE(o));
    return NULL;
}

PyObject *tlpy_desc_new(const tl_desc *d)
{
    PyTypeObject *t = (PyTypeObject *)desc_type;
    allocfunc alloc = (allocfunc)PyType_GetSlot(t, Py_tp_alloc);
    PyObject *o = alloc(t, 0);
    if (o) ((desc_object *)o)->d = *d;
    return o;
}

static PyObject *desc_new(PyTypeObject *t, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"spec", NULL};
    PyObject *spec;
    tl_desc d;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O:Desc", kwlist, &spec)) return NULL;
    const tl_desc *src = tlpy_desc_of(spec, &d, "Desc(spec)");
    if (!src) return NULL;
    allocfunc alloc = (allocfunc)PyType_GetSlot(t, Py_tp_alloc);
    PyObject *o = alloc(t, 0);
    if (o) ((desc_object *)o)->d = *src;
    return o;
}

static void desc_dealloc(PyObject *self)
{
    PyTypeObject *t = Py_TYPE(self);
    freefunc f = (freefunc)PyType_GetSlot(t, Py_tp_free);
    f(self);
    Py_DECREF(t); /* instances of heap types own a reference to their type */
}

int tlpy_desc_bytes(const tl_desc *d, Py_ssize_t *out)
{
    uint64_t bytes;
    tl_status s = tl_desc_size(d, &bytes);
    if (s != TL_OK) {
        tlpy_raise(s, NULL);
        return -1;
    }
    if (bytes > (uint64_t)PY_SSIZE_T_MAX) {
        tlpy_raisef(TL_ERR_OVERFLOW, "size_bytes=%llu does not fit this platform's Py_ssize_t",
                    (unsigned long long)bytes);
        return -1;
    }
    *out = (Py_ssize_t)bytes;
    return 0;
}

/* ---- attributes ----------------------------------------------------------------- */
static PyObject *spec_of(const tl_desc *d)
{
    char buf[1024];
    tl_status s = tl_desc_format(d, buf, sizeof buf);
    return s == TL_OK ? PyUnicode_FromString(buf) : tlpy_raise(s, NULL);
}

static PyObject *int_tuple(const int64_t *v, int n)
{
    PyObject *t = PyTuple_New(n);
    for (int i = 0; t && i < n; i++) {
        PyObject *x = PyLong_FromLongLong(v[i]);
        if (!x || PyTuple_SetItem(t, i, x) < 0) {
            Py_CLEAR(t);
        }
    }
    return t;
}

static PyObject *get_spec(PyObject *self, void *c) { (void)c; return spec_of(desc_of(self)); }
static PyObject *get_dims(PyObject *self, void *c)
{
    (void)c;
    return int_tuple(desc_of(self)->dims, desc_of(self)->rank);
}
static PyObject *get_pad_lo(PyObject *self, void *c)
{
    (void)c;
    return int_tuple(desc_of(self)->pad_lo, desc_of(self)->rank);
}
static PyObject *get_pad_hi(PyObject *self, void *c)
{
    (void)c;
    return int_tuple(desc_of(self)->pad_hi, desc_of(self)->rank);
}
static PyObject *get_labels(PyObject *self, void *c)
{
    (void)c;
    const tl_desc *d = desc_of(self);
    char buf[TL_MAX_DIMS + 1];
    int n = 0;
    for (int i = 0; i < d->rank; i++) buf[n++] = d->labels[i] ? d->labels[i] : '?';
    return PyUnicode_FromStringAndSize(buf, n);
}
static PyObject *get_rank(PyObject *self, void *c) { (void)c; return PyLong_FromLong(desc_of(self)->rank); }
static PyObject *get_dtype(PyObject *self, void *c)
{
    (void)c;
    return PyUnicode_FromString(tl_dtype_name((tl_dtype)desc_of(self)->dtype));
}
static PyObject *get_size(PyObject *self, void *c)
{
    (void)c;
    return PyLong_FromLongLong(desc_of(self)->size_bytes);
}
static PyObject *get_writable(PyObject *self, void *c)
{
    (void)c;
    return PyBool_FromLong(tl_desc_writable(desc_of(self)));
}

static PyObject *get_quant(PyObject *self, void *c)
{
    (void)c;
    static const char *const kinds[] = {"none", "affine", "inv", "dfp"};
    static const char *const rounds[] = {"even", "away", "zero"};
    const tl_quant *q = &desc_of(self)->quant;
    PyObject *t = PyStructSequence_New((PyTypeObject *)quant_type);
    if (!t) return NULL;
    PyObject *v[5] = {
        PyUnicode_FromString(q->kind < 4 ? kinds[q->kind] : "?"),
        PyFloat_FromDouble((double)q->scale),
        PyLong_FromLong(q->zp),
        PyUnicode_FromString(q->round < 3 ? rounds[q->round] : "?"),
        PyLong_FromLong(q->fl),
    };
    int bad = 0;
    for (int i = 0; i < 5; i++) {
        if (v[i]) PyStructSequence_SetItem(t, i, v[i]); /* steals */
        else bad = 1;
    }
    if (bad) Py_CLEAR(t);
    return t;
}

static PyGetSetDef desc_getset[] = {
    {"spec", get_spec, NULL, "The canonical spec string (parses back to the same descriptor).", NULL},
    {"dims", get_dims, NULL, "Logical dims, a tuple of ints.", NULL},
    {"labels", get_labels, NULL, "Dim labels, one letter per dim ('?' for an unlabelled dim).", NULL},
    {"rank", get_rank, NULL, "Number of logical dims.", NULL},
    {"dtype", get_dtype, NULL, "Element type name: 'u8', 'i8', 'f16', 'f32', ...", NULL},
    {"size_bytes", get_size, NULL, "Bytes a buffer of this layout must hold.", NULL},
    {"pad_lo", get_pad_lo, NULL, "Padding elements before each dim.", NULL},
    {"pad_hi", get_pad_hi, NULL, "Padding elements after each dim.", NULL},
    {"writable", get_writable, NULL, "False for read-only layouts (broadcast, shared padding).", NULL},
    {"quant", get_quant, NULL, "Quantization: tlayout.Quant(kind, scale, zero_point, rounding, fl).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* ---- methods ------------------------------------------------------------------------ */
static int coords_of(const tl_desc *d, PyObject *args, int64_t *x)
{
    PyObject *seq = args;
    if (PyTuple_Size(args) == 1 && (PyTuple_Check(PyTuple_GetItem(args, 0)) || PyList_Check(PyTuple_GetItem(args, 0))))
        seq = PyTuple_GetItem(args, 0); /* offset((n, c, h, w)) as well as offset(n, c, h, w) */
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) return -1;
    if (n != d->rank) {
        tlpy_raisef(TL_ERR_COORD, "offset: %zd coordinates given, the descriptor has %d dims: give one per dim",
                    n, (int)d->rank);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_GetItem(seq, i);
        if (!item) return -1;
        x[i] = PyLong_AsLongLong(item);
        Py_DECREF(item);
        if (x[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

static PyObject *desc_offset(PyObject *self, PyObject *args)
{
    int64_t x[TL_MAX_DIMS];
    uint64_t off;
    if (coords_of(desc_of(self), args, x) < 0) return NULL;
    tl_status s = tl_desc_offset(desc_of(self), x, &off);
    return s == TL_OK ? PyLong_FromUnsignedLongLong(off) : tlpy_raise(s, NULL);
}

static PyObject *desc_offset_bits(PyObject *self, PyObject *args)
{
    int64_t x[TL_MAX_DIMS];
    uint64_t off;
    if (coords_of(desc_of(self), args, x) < 0) return NULL;
    tl_status s = tl_desc_offset_bits(desc_of(self), x, &off);
    return s == TL_OK ? PyLong_FromUnsignedLongLong(off) : tlpy_raise(s, NULL);
}

static PyObject *desc_json(PyObject *self, PyObject *unused)
{
    (void)unused;
    size_t need = 0;
    tl_status s = tl_desc_to_json(desc_of(self), NULL, 0, &need); /* len 0 asks for the size */
    if (s != TL_ERR_BUFFER_SMALL) return tlpy_raise(s, NULL);
    char *text = PyMem_Malloc(need);
    if (!text) return PyErr_NoMemory();
    s = tl_desc_to_json(desc_of(self), text, need, NULL);
    PyObject *r = NULL;
    if (s == TL_OK) {
        PyObject *json = PyImport_ImportModule("json");
        if (json) r = PyObject_CallMethod(json, "loads", "s", text);
        Py_XDECREF(json);
    } else {
        tlpy_raise(s, NULL);
    }
    PyMem_Free(text);
    return r;
}

/* The CLI's helpers report through cli_fail; show their detail, else the library's. */
static PyObject *raise_cli(tl_status s) { return tlpy_raise(s, cli_last_error()); }

static PyObject *model_text(const tl_desc *d)
{
    size_t cap = 4096;
    for (;;) {
        char *buf = PyMem_Malloc(cap);
        if (!buf) return PyErr_NoMemory();
        cli_sb sb = {buf, cap, 0};
        cli_clear_error();
        tl_status s = explain_model(d, &sb);
        PyObject *r = NULL;
        if (s != TL_OK) raise_cli(s);
        else if (sb.len < cap) r = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)sb.len);
        PyMem_Free(buf);
        if (s != TL_OK || r) return r;
        cap = sb.len + 1; /* cli_sb counted what did not fit */
    }
}

static PyObject *desc_explain(PyObject *self, PyObject *unused)
{
    (void)unused;
    const tl_desc *d = desc_of(self);
    PyObject *model = model_text(d);
    if (!model) return NULL;
    char *vend = NULL;
    cli_clear_error();
    tl_status s = explain_vendor(d, &vend);
    PyObject *r = NULL;
    if (s != TL_OK) raise_cli(s);
    else if (!vend[0]) r = Py_NewRef(model);
    else r = PyUnicode_FromFormat("%U\nAs %s describes it:\n%s", model, explain_vendor_name(d->vendor), vend);
    free(vend);
    Py_DECREF(model);
    return r;
}

static PyObject *desc_svg(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"max_lines", "max_cells", "title", NULL};
    svg_opts o = {0, 0, NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$iiz:svg", kwlist, &o.max_lines, &o.max_cells, &o.title))
        return NULL;
    if (o.max_lines < 0 || o.max_cells < 0)
        return tlpy_raisef(TL_ERR_DIM, "svg: max_lines=%d, max_cells=%d: give counts >= 1 (0 = the default)",
                           o.max_lines, o.max_cells);
    svg_buf b = {0};
    cli_clear_error();
    tl_status s = svg_draw(desc_of(self), &o, &b);
    PyObject *r = NULL;
    if (s == TL_OK && b.oom) PyErr_NoMemory();
    else if (s != TL_OK) raise_cli(s);
    else r = PyUnicode_FromStringAndSize(b.p, (Py_ssize_t)b.len);
    svg_buf_free(&b);
    return r;
}

static PyObject *desc_fill_padding(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *kwlist[] = {"buf", "value", NULL};
    PyObject *obj;
    int value = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|i:fill_padding", kwlist, &obj, &value)) return NULL;
    if (value < 0 || value > 255)
        return tlpy_raisef(TL_ERR_DTYPE, "fill_padding: value=%d: give a byte value 0..255", value);
    Py_buffer b;
    if (PyObject_GetBuffer(obj, &b, PyBUF_WRITABLE) < 0) return NULL;
    tl_status s = tl_fill_padding(desc_of(self), b.buf, (size_t)b.len, (uint8_t)value);
    PyBuffer_Release(&b);
    return s == TL_OK ? Py_NewRef(obj) : tlpy_raise(s, NULL);
}

static PyObject *desc_repr(PyObject *self)
{
    PyObject *spec = spec_of(desc_of(self));
    if (!spec) return NULL;
    PyObject *r = PyUnicode_FromFormat("tlayout.Desc(%R)", spec);
    Py_DECREF(spec);
    return r;
}

/* Equal when the canonical specs are (a spec fixes the whole descriptor). */
static PyObject *desc_richcompare(PyObject *a, PyObject *b, int op)
{
    if ((op != Py_EQ && op != Py_NE) || !is_desc(b)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *sa = spec_of(desc_of(a)), *sb = sa ? spec_of(desc_of(b)) : NULL;
    PyObject *r = sb ? PyObject_RichCompare(sa, sb, op) : NULL;
    Py_XDECREF(sa);
    Py_XDECREF(sb);
    return r;
}

static Py_hash_t desc_hash(PyObject *self)
{
    PyObject *spec = spec_of(desc_of(self));
    if (!spec) return -1;
    Py_hash_t h = PyObject_Hash(spec);
    Py_DECREF(spec);
    return h;
}

static PyMethodDef desc_methods[] = {
    {"offset", desc_offset, METH_VARARGS,
     "offset(*coords) -> int\n\nByte offset of the logical coordinate (one int per dim, or one tuple)."},
    {"offset_bits", desc_offset_bits, METH_VARARGS,
     "offset_bits(*coords) -> int\n\nBit offset of the logical coordinate (4-bit types: nibble = bits % 8 // 4)."},
    {"json", desc_json, METH_NOARGS, "json() -> dict\n\nThe object `tlayout describe --json` prints."},
    {"explain", desc_explain, METH_NOARGS,
     "explain() -> str\n\nThe text of `tlayout explain`, one paragraph per line: memory order, padding,\n"
     "offset formula, size, then the vendor's own account."},
    {"svg", (PyCFunction)(void (*)(void))desc_svg, METH_VARARGS | METH_KEYWORDS,
     "svg(*, max_lines=0, max_cells=0, title=None) -> str\n\nThe memory map `tlayout draw` draws, as an SVG "
     "document."},
    {"fill_padding", (PyCFunction)(void (*)(void))desc_fill_padding, METH_VARARGS | METH_KEYWORDS,
     "fill_padding(buf, value=0) -> buf\n\nWrite value into every padding element of buf (tl_fill_padding)."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot desc_slots[] = {
    {Py_tp_new, (void *)desc_new},
    {Py_tp_dealloc, (void *)desc_dealloc},
    {Py_tp_repr, (void *)desc_repr},
    {Py_tp_richcompare, (void *)desc_richcompare},
    {Py_tp_hash, (void *)desc_hash},
    {Py_tp_methods, desc_methods},
    {Py_tp_getset, desc_getset},
    {Py_tp_doc, (void *)"Desc(spec)\n\nA tensor layout descriptor parsed from a spec string "
                        "(docs/spec.md), e.g.\nDesc('rknn.nc1hwc2:i8:1x6x80x80x16:c=84:zp=-128:scale=0.0039')."},
    {0, NULL},
};

static PyType_Spec desc_spec = {"tlayout.Desc", sizeof(desc_object), 0, Py_TPFLAGS_DEFAULT, desc_slots};

static PyStructSequence_Field quant_fields[] = {
    {"kind", "'none', 'affine' (real = (q - zp) * scale), 'inv' (real = (q - zp) / scale), 'dfp'"},
    {"scale", "scale (affine, inv)"},
    {"zero_point", "zero point (affine, inv)"},
    {"rounding", "'even', 'away' or 'zero': how values are quantized into this tensor"},
    {"fl", "fractional length (dfp: real = q * 2**-fl)"},
    {NULL, NULL},
};
static PyStructSequence_Desc quant_desc = {"tlayout.Quant", "Quantization parameters of a descriptor.",
                                           quant_fields, 5};

static int desc_init(PyObject *m)
{
    desc_type = PyType_FromSpec(&desc_spec);
    if (!desc_type || PyModule_AddObjectRef(m, "Desc", desc_type) < 0) return -1;
    quant_type = (PyObject *)PyStructSequence_NewType(&quant_desc);
    return quant_type && PyModule_AddObjectRef(m, "Quant", quant_type) == 0 ? 0 : -1;
}

const tlpy_part tlpy_part_desc = {"desc", NULL, desc_init};
