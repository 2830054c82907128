/* tlayout.Error and one subclass per tl_status, named after the status:
 * TL_ERR_BUFFER_SMALL -> tlayout.BufferSmallError. The subclasses are grouped
 * as the status numbers are: 1xx DescriptorError, 2xx SpecError, 3xx
 * ConversionError, 4xx VendorError (the class of TL_ERR_VENDOR itself), and
 * every group is also a ValueError (bad input), except TL_ERR_IO, an OSError;
 * TL_ERR_NOMEM is also a MemoryError.
 *
 * An instance carries .status ("TL_ERR_STRIDE"), .code (106) and .message
 * (the library's tl_last_error text); str() is "TL_ERR_STRIDE: message".
 */
#include <stdarg.h>
#include <stdio.h>

#include "tlpy.h"

static const tl_status statuses[] = {
    TL_ERR_NULL, TL_ERR_RANK, TL_ERR_DIM, TL_ERR_DTYPE, TL_ERR_PAD, TL_ERR_AXIS, TL_ERR_STRIDE,
    TL_ERR_ALIAS, TL_ERR_OVERFLOW, TL_ERR_PLANE, TL_ERR_QUANT, TL_ERR_COORD, TL_ERR_SIZE,
    TL_ERR_LABEL, TL_ERR_SPEC_SYNTAX, TL_ERR_SPEC_LAYOUT, TL_ERR_SPEC_OPTION, TL_ERR_SPEC_VALUE,
    TL_ERR_MISMATCH, TL_ERR_BUFFER_SMALL, TL_ERR_READONLY, TL_ERR_UNSUPPORTED, TL_ERR_NOMEM,
    TL_ERR_VENDOR, TL_ERR_VENDOR_FILE, TL_ERR_VENDOR_EXPORT, TL_ERR_IO,
};
#define NSTATUS (sizeof statuses / sizeof statuses[0])

static PyObject *error_base;          /* tlayout.Error */
static PyObject *classes[NSTATUS];    /* per status */
static PyObject *groups[5];           /* 1xx..5xx: the class a status of that group derives from */

static PyObject *class_of(tl_status s)
{
    for (size_t i = 0; i < NSTATUS; i++)
        if (statuses[i] == s) return classes[i];
    return error_base;
}

/* "TL_ERR_BUFFER_SMALL" -> "BufferSmallError". */
static void class_name(tl_status s, char *buf, size_t len)
{
    const char *p = tl_status_str(s);
    size_t n = 0;
    if (strncmp(p, "TL_ERR_", 7) == 0) p += 7;
    for (int upper = 1; *p && n + 6 < len; p++) {
        if (*p == '_') {
            upper = 1;
            continue;
        }
        buf[n++] = upper ? *p : (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
        upper = 0;
    }
    snprintf(buf + n, len - n, "Error");
}

static PyObject *new_class(PyObject *m, const char *name, PyObject *bases, const char *doc)
{
    char qualified[96];
    snprintf(qualified, sizeof qualified, "tlayout.%s", name);
    PyObject *c = PyErr_NewExceptionWithDoc(qualified, doc, bases, NULL);
    if (!c) return NULL;
    if (PyModule_AddObjectRef(m, name, c) < 0) {
        Py_DECREF(c);
        return NULL;
    }
    return c; /* a new reference, kept for the life of the process */
}

/* Bases of a status class: its group, plus the builtin it also is. */
static PyObject *bases_of(tl_status s)
{
    PyObject *group = groups[s / 100 - 1];
    if (s == TL_ERR_NOMEM) return PyTuple_Pack(2, group, PyExc_MemoryError);
    return PyTuple_Pack(1, group);
}

static int make_groups(PyObject *m)
{
    static const char *const names[] = {"DescriptorError", "SpecError", "ConversionError"};
    static const char *const docs[] = {
        "A descriptor or argument is invalid (status 1xx).",
        "A spec string is invalid (status 2xx).",
        "A conversion or buffer access is invalid (status 3xx).",
    };
    error_base = new_class(m, "Error", NULL,
                           "Base of every tlayout error: .status (name), .code (number), .message "
                           "(the library's detail: field, value, rule broken and what to do).");
    if (!error_base) return -1;
    for (int g = 0; g < 3; g++) {
        PyObject *bases = PyTuple_Pack(2, error_base, PyExc_ValueError);
        groups[g] = bases ? new_class(m, names[g], bases, docs[g]) : NULL;
        Py_XDECREF(bases);
        if (!groups[g]) return -1;
    }
    /* 4xx: TL_ERR_VENDOR's own class is the group; 5xx: TL_ERR_IO's. */
    PyObject *vb = PyTuple_Pack(2, error_base, PyExc_ValueError);
    groups[3] = vb ? new_class(m, "VendorError", vb, "A vendor rule is broken (status 4xx).") : NULL;
    Py_XDECREF(vb);
    PyObject *ib = PyTuple_Pack(2, error_base, PyExc_OSError);
    groups[4] = ib ? new_class(m, "IoError", ib, "A file cannot be read or written (status 5xx).") : NULL;
    Py_XDECREF(ib);
    return groups[3] && groups[4] ? 0 : -1;
}

static int errors_init(PyObject *m)
{
    if (make_groups(m) < 0) return -1;
    for (size_t i = 0; i < NSTATUS; i++) {
        tl_status s = statuses[i];
        if (s == TL_ERR_VENDOR || s == TL_ERR_IO) {
            classes[i] = groups[s / 100 - 1];
            continue;
        }
        char name[64], doc[96];
        class_name(s, name, sizeof name);
        snprintf(doc, sizeof doc, "Status %s (%d).", tl_status_str(s), (int)s);
        PyObject *bases = bases_of(s);
        classes[i] = bases ? new_class(m, name, bases, doc) : NULL;
        Py_XDECREF(bases);
        if (!classes[i]) return -1;
    }
    return 0;
}

PyObject *tlpy_raise(tl_status s, const char *msg)
{
    const char *name = tl_status_str(s);
    if (!msg) msg = tl_last_error();
    PyObject *cls = class_of(s);
    PyObject *text = PyUnicode_FromFormat("%s: %s", name, msg);
    PyObject *e = text ? PyObject_CallFunction(cls, "(O)", text) : NULL;
    Py_XDECREF(text);
    if (!e) return NULL;
    PyObject *code = PyLong_FromLong((long)s), *status = PyUnicode_FromString(name),
             *message = PyUnicode_FromString(msg);
    int bad = !code || !status || !message || PyObject_SetAttrString(e, "code", code) < 0 ||
              PyObject_SetAttrString(e, "status", status) < 0 ||
              PyObject_SetAttrString(e, "message", message) < 0;
    Py_XDECREF(code);
    Py_XDECREF(status);
    Py_XDECREF(message);
    if (!bad) PyErr_SetObject(cls, e);
    Py_DECREF(e);
    return NULL;
}

PyObject *tlpy_raisef(tl_status s, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tlpy_raise(s, msg);
}

const tlpy_part tlpy_part_errors = {"errors", NULL, errors_init};
