/* Shared declarations of the tlayout Python module (the files of python/src).
 *
 * The module is built from parts, one file each (desc.c, convert.c, view.c,
 * ...). A part exports `const tlpy_part tlpy_part_<name>`: functions for the
 * module and an init hook that adds types or constants. parts.h lists them;
 * a new binding (image pipeline, post-processing, detectors) is one new file
 * and one line there.
 *
 * Everything here uses the public C API of the library and, on Python 3.11
 * and newer, the limited C API of Python (the build defines Py_LIMITED_API):
 * one binary per platform serves every later interpreter.
 */
#ifndef TLPY_H
#define TLPY_H

#include <string.h>

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "tlayout.h"

/* Python 3.8 and 3.9 (boards with an older distribution): two helpers of 3.10. */
#if PY_VERSION_HEX < 0x030A0000
static inline PyObject *Py_NewRef(PyObject *o)
{
    Py_INCREF(o);
    return o;
}
static inline int PyModule_AddObjectRef(PyObject *m, const char *name, PyObject *o)
{
    Py_INCREF(o);
    if (PyModule_AddObject(m, name, o) == 0) return 0;
    Py_DECREF(o);
    return -1;
}
#endif

typedef struct tlpy_part {
    const char *name;
    PyMethodDef *methods;          /* NULL-terminated, or NULL */
    int (*init)(PyObject *module); /* 0 on success; may be NULL */
} tlpy_part;

/* ---- errors (errors.c) ------------------------------------------------------ */
/* Raise the tlayout.Error subclass of status s with the library's message
 * (tl_last_error), or with msg when it is not NULL. Returns NULL. */
PyObject *tlpy_raise(tl_status s, const char *msg);
/* printf-formatted message of our own, for checks the module makes itself. */
PyObject *tlpy_raisef(tl_status s, const char *fmt, ...);

/* ---- descriptors (desc.c) ----------------------------------------------------- */
/* The descriptor of a Desc object or a spec string. Returns a pointer into the
 * Desc (valid while o lives) or to *scratch for a string; NULL with an
 * exception set otherwise. `what` names the argument in messages. */
const tl_desc *tlpy_desc_of(PyObject *o, tl_desc *scratch, const char *what);
/* A new Desc object holding a copy of d. */
PyObject *tlpy_desc_new(const tl_desc *d);

/* ---- numpy, imported at run time (view.c) ----------------------------------- */
/* numpy.asarray, imported on first use (borrowed); NULL with ImportError. */
PyObject *tlpy_numpy_asarray(void);

/* Bytes a descriptor needs, as Py_ssize_t (OverflowError-free: TL_ERR_OVERFLOW). */
int tlpy_desc_bytes(const tl_desc *d, Py_ssize_t *out);

/* ---- image plans (image.c) --------------------------------------------------- */
/* The tl_box_map {sx, sy, dx, dy} of an ImagePlan's letterbox (model input =
 * frame * s + d); 0 when o is not an ImagePlan. */
int tlpy_plan_box_map(PyObject *o, double map[4]);

#endif
