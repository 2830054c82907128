/* tlayout._time_convert: the C API's own time for a conversion, so
 * python/bench_overhead.py can subtract it from what a Python call costs.
 * Runs tl_convert_ex `count` times in a C loop (GIL released) and returns the
 * best per-call seconds of `repeat` such loops. Not a public API. */
#include <time.h>

#include "tlpy.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static PyObject *time_convert(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *src, *sobj, *dobj, *out;
    Py_ssize_t count, repeat;
    tl_desc ss, ds;
    if (!PyArg_ParseTuple(args, "OOOOnn:_time_convert", &src, &sobj, &dobj, &out, &count, &repeat)) return NULL;
    const tl_desc *sd = tlpy_desc_of(sobj, &ss, "src_desc");
    const tl_desc *dd = sd ? tlpy_desc_of(dobj, &ds, "dst_desc") : NULL;
    if (!dd) return NULL;
    Py_buffer sb, db;
    if (PyObject_GetBuffer(src, &sb, PyBUF_SIMPLE) < 0) return NULL;
    if (PyObject_GetBuffer(out, &db, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    tl_status s = TL_OK;
    double best = 1e30;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t r = 0; r < repeat && s == TL_OK; r++) {
        double t0 = now();
        for (Py_ssize_t i = 0; i < count && s == TL_OK; i++)
            s = tl_convert(sd, sb.buf, (size_t)sb.len, dd, db.buf, (size_t)db.len);
        double t = (now() - t0) / (double)(count > 0 ? count : 1);
        if (t < best) best = t;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&db);
    PyBuffer_Release(&sb);
    return s == TL_OK ? PyFloat_FromDouble(best) : tlpy_raise(s, NULL);
}

static PyMethodDef bench_methods[] = {
    {"_time_convert", time_convert, METH_VARARGS,
     "_time_convert(src, src_desc, dst_desc, out, count, repeat) -> best seconds per tl_convert call."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_bench = {"bench", bench_methods, NULL};
