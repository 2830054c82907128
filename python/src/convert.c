/* tlayout.convert(src, src_desc, dst_desc, out=None, *, keep_padding=False)
 *
 * src and out are any contiguous buffer-protocol objects (bytes, bytearray,
 * memoryview, mmap, numpy arrays); the descriptors are Desc objects or spec
 * strings. The conversion runs with the GIL released: the buffers stay
 * exported (so a bytearray cannot be resized meanwhile) and a Desc is
 * immutable. Fast-call argument parsing keeps the per-call overhead small
 * (python/bench_overhead.py measures it).
 */
#include "tlpy.h"

typedef struct convert_args {
    PyObject *src, *src_desc, *dst_desc, *out;
    int keep_padding;
} convert_args;

static int keyword(PyObject *name, PyObject *value, convert_args *a, int have_out)
{
    if (PyUnicode_CompareWithASCIIString(name, "out") == 0 && !have_out) {
        a->out = value;
        return 0;
    }
    if (PyUnicode_CompareWithASCIIString(name, "keep_padding") == 0) {
        a->keep_padding = PyObject_IsTrue(value);
        return a->keep_padding < 0 ? -1 : 0;
    }
    static const char *const positional[] = {"src", "src_desc", "dst_desc"};
    for (int i = 0; i < 3; i++)
        if (PyUnicode_CompareWithASCIIString(name, positional[i]) == 0) {
            PyErr_Format(PyExc_TypeError, "convert(): pass %s by position", positional[i]);
            return -1;
        }
    PyErr_Format(PyExc_TypeError, "convert() got an unexpected or repeated keyword argument %R", name);
    return -1;
}

static int parse_args(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames, convert_args *a)
{
    if (nargs < 3 || nargs > 4) {
        PyErr_Format(PyExc_TypeError, "convert(src, src_desc, dst_desc, out=None, *, keep_padding=False) "
                     "takes 3 or 4 positional arguments (%zd given)", nargs);
        return -1;
    }
    a->src = args[0];
    a->src_desc = args[1];
    a->dst_desc = args[2];
    a->out = nargs > 3 ? args[3] : Py_None;
    a->keep_padding = 0;
    Py_ssize_t nk = kwnames ? PyTuple_Size(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nk; i++)
        if (keyword(PyTuple_GetItem(kwnames, i), args[nargs + i], a, nargs > 3) < 0) return -1;
    return 0;
}

/* A new zeroed bytearray of the destination's size: zeroed, because a
 * conversion never writes slack bytes (alignment, tails). */
static PyObject *new_destination(const tl_desc *dst)
{
    Py_ssize_t n;
    if (tlpy_desc_bytes(dst, &n) < 0) return NULL;
    PyObject *out = PyByteArray_FromStringAndSize(NULL, n);
    if (out && n) memset(PyByteArray_AsString(out), 0, (size_t)n);
    return out;
}

static PyObject *run(const convert_args *a, const tl_desc *sd, const tl_desc *dd, PyObject *out)
{
    Py_buffer sb, db;
    if (PyObject_GetBuffer(a->src, &sb, PyBUF_SIMPLE) < 0) return NULL;
    if (PyObject_GetBuffer(out, &db, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    unsigned flags = a->keep_padding ? TL_KEEP_PADDING : 0u;
    tl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = tl_convert_ex(sd, sb.buf, (size_t)sb.len, dd, db.buf, (size_t)db.len, flags);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&db);
    PyBuffer_Release(&sb);
    /* tl_last_error is per thread: this is the thread that converted. */
    return s == TL_OK ? Py_NewRef(out) : tlpy_raise(s, NULL);
}

static PyObject *convert(PyObject *module, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    (void)module;
    convert_args a;
    tl_desc s_scratch, d_scratch;
    if (parse_args(args, nargs, kwnames, &a) < 0) return NULL;
    const tl_desc *sd = tlpy_desc_of(a.src_desc, &s_scratch, "src_desc");
    const tl_desc *dd = sd ? tlpy_desc_of(a.dst_desc, &d_scratch, "dst_desc") : NULL;
    if (!dd) return NULL;
    if (a.out != Py_None) return run(&a, sd, dd, a.out);
    PyObject *fresh = new_destination(dd);
    if (!fresh) return NULL;
    PyObject *r = run(&a, sd, dd, fresh);
    Py_DECREF(fresh);
    return r;
}

static PyMethodDef convert_methods[] = {
    {"convert", (PyCFunction)(void (*)(void))convert, METH_FASTCALL | METH_KEYWORDS,
     "convert(src, src_desc, dst_desc, out=None, *, keep_padding=False) -> out\n\n"
     "Convert every logical element of src (laid out as src_desc) into out (laid out\n"
     "as dst_desc): dtype conversion, (de)quantization, destination padding zeroed\n"
     "(kept with keep_padding=True). src and out are contiguous buffer-protocol\n"
     "objects; out=None returns a new zeroed bytearray of dst_desc.size_bytes.\n"
     "Descriptors are tlayout.Desc objects or spec strings. The GIL is released\n"
     "while converting. Nothing is written unless the whole call is valid."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_convert = {"convert", convert_methods, NULL};
