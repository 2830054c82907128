/* DLPack export of any CPU array, for numpy versions without
 * ndarray.__dlpack__ (before 1.22): tlayout.view then returns arrays of a
 * small ndarray subclass (python/tlayout/__init__.py) whose __dlpack__ calls
 * _dlpack_capsule here.
 *
 * The tensor is built from the array's __array_interface__, so it needs no
 * numpy C API. DLPack (dlpack.h, the unversioned DLManagedTensor of
 * DLPACK_VERSION < 1.0, which every consumer accepts): a PyCapsule named
 * "dltensor" holding a DLManagedTensor; the consumer renames it
 * "used_dltensor" and calls the deleter when done; a capsule nobody consumed
 * calls the deleter itself. Strides are in elements, the device is kDLCPU.
 * DLPack cannot say "read-only", so read-only arrays (broadcast views) are
 * refused with BufferError, as numpy's own __dlpack__ does.
 */
#include <stdlib.h>
#include <string.h>

#include "tlpy.h"

/* dlpack.h, field for field. */
enum { DL_INT = 0, DL_UINT = 1, DL_FLOAT = 2, DL_BOOL = 6, DL_CPU = 1 };
typedef struct { int32_t device_type, device_id; } dl_device;
typedef struct { uint8_t code, bits; uint16_t lanes; } dl_dtype;
typedef struct {
    void *data;
    dl_device device;
    int32_t ndim;
    dl_dtype dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} dl_tensor;
typedef struct dl_managed {
    dl_tensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct dl_managed *self);
} dl_managed;

/* One allocation: the managed tensor, then shape and strides. */
typedef struct {
    dl_managed m;
    int64_t dims[2 * 64];
} dl_block;

static void managed_delete(dl_managed *m)
{
    PyGILState_STATE st = PyGILState_Ensure(); /* consumers may call it from any thread */
    Py_XDECREF((PyObject *)m->manager_ctx);
    PyGILState_Release(st);
    free(m);
}

static void capsule_destructor(PyObject *cap)
{
    if (!PyCapsule_IsValid(cap, "dltensor")) return; /* consumed: the consumer deletes it */
    dl_managed *m = PyCapsule_GetPointer(cap, "dltensor");
    if (m && m->deleter) m->deleter(m);
}

static int dtype_of(const char *ts, dl_dtype *out)
{
    static const struct { char kind; uint8_t code; } codes[] = {
        {'i', DL_INT}, {'u', DL_UINT}, {'f', DL_FLOAT}, {'b', DL_BOOL}};
    int little = 1;
    char native = *(char *)&little ? '<' : '>';
    if (strlen(ts) < 3 || (ts[0] != '|' && ts[0] != native)) goto bad;
    int bytes = atoi(ts + 2);
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].kind == ts[1] && bytes > 0 && bytes <= 16) {
            *out = (dl_dtype){codes[i].code, (uint8_t)(bytes * 8), 1};
            return bytes;
        }
bad:
    PyErr_Format(PyExc_BufferError, "__dlpack__: dtype %s has no DLPack equivalent here", ts);
    return -1;
}

static int64_t item_at(PyObject *tuple, Py_ssize_t i)
{
    PyObject *x = PyTuple_GetItem(tuple, i);
    return x ? PyLong_AsLongLong(x) : -1;
}

/* Fill m from the interface dict; 0 or -1 with an exception. */
static int fill(dl_block *b, PyObject *ai)
{
    PyObject *shape = PyDict_GetItemString(ai, "shape"), *strides = PyDict_GetItemString(ai, "strides");
    PyObject *data = PyDict_GetItemString(ai, "data"), *typestr = PyDict_GetItemString(ai, "typestr");
    if (!shape || !data || !typestr || !PyTuple_Check(shape) || !PyTuple_Check(data)) {
        PyErr_SetString(PyExc_BufferError, "__dlpack__: the array has no usable __array_interface__");
        return -1;
    }
    if (PyObject_IsTrue(PyTuple_GetItem(data, 1))) {
        PyErr_SetString(PyExc_BufferError, "__dlpack__: the array is read-only (e.g. a broadcast view) and "
                                           "DLPack cannot mark a tensor read-only: copy it first");
        return -1;
    }
    const char *ts = PyUnicode_AsUTF8AndSize(typestr, NULL);
    int itemsize = ts ? dtype_of(ts, &b->m.dl_tensor.dtype) : -1;
    if (itemsize < 0) return -1;
    Py_ssize_t n = PyTuple_Size(shape);
    if (n > 64) {
        PyErr_SetString(PyExc_BufferError, "__dlpack__: more than 64 dims");
        return -1;
    }
    dl_tensor *t = &b->m.dl_tensor;
    t->ndim = (int32_t)n;
    t->shape = b->dims;
    t->strides = b->dims + 64;
    int64_t running = itemsize;
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        t->shape[i] = item_at(shape, i);
        int64_t bytes = strides != Py_None && strides ? item_at(strides, i) : running;
        running *= t->shape[i];
        if (bytes % itemsize) {
            PyErr_Format(PyExc_BufferError, "__dlpack__: stride %lld bytes is not a multiple of the %d-byte "
                         "element (DLPack strides count elements)", (long long)bytes, itemsize);
            return -1;
        }
        t->strides[i] = bytes / itemsize;
    }
    t->data = PyLong_AsVoidPtr(PyTuple_GetItem(data, 0));
    t->device = (dl_device){DL_CPU, 0};
    return PyErr_Occurred() ? -1 : 0;
}

static PyObject *dlpack_capsule(PyObject *module, PyObject *arr)
{
    (void)module;
    PyObject *ai = PyObject_GetAttrString(arr, "__array_interface__");
    if (!ai) return NULL;
    dl_block *b = calloc(1, sizeof *b);
    if (!b) {
        Py_DECREF(ai);
        return PyErr_NoMemory();
    }
    int bad = !PyDict_Check(ai) || fill(b, ai) < 0;
    if (bad && !PyErr_Occurred()) PyErr_SetString(PyExc_BufferError, "__dlpack__: bad __array_interface__");
    Py_DECREF(ai);
    if (bad) {
        free(b);
        return NULL;
    }
    b->m.manager_ctx = Py_NewRef(arr); /* the memory lives while the array does */
    b->m.deleter = managed_delete;
    PyObject *cap = PyCapsule_New(&b->m, "dltensor", capsule_destructor);
    if (!cap) managed_delete(&b->m);
    return cap;
}

static PyMethodDef dlpack_methods[] = {
    {"_dlpack_capsule", dlpack_capsule, METH_O,
     "_dlpack_capsule(array) -> PyCapsule 'dltensor' sharing the array's memory (CPU)."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_dlpack = {"dlpack", dlpack_methods, NULL};
