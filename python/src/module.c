/* tlayout._core: the module object, assembled from the parts in parts.h. */
#include "tlpy.h"

#define TLPY_PART(name) extern const tlpy_part tlpy_part_##name;
#include "parts.h"
#undef TLPY_PART

static const tlpy_part *const parts[] = {
#define TLPY_PART(name) &tlpy_part_##name,
#include "parts.h"
#undef TLPY_PART
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "tlayout._core",
    "The C part of the tlayout package: descriptors, conversion, numpy views.\n"
    "Import `tlayout` instead (python/tlayout/__init__.py re-exports it).",
    -1,
    NULL,
    NULL,
    NULL,
    NULL,
    NULL,
};

static int add_part(PyObject *m, const tlpy_part *p)
{
    if (p->methods && PyModule_AddFunctions(m, p->methods) < 0) return -1;
    return p->init ? p->init(m) : 0;
}

PyMODINIT_FUNC PyInit__core(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (!m) return NULL;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        if (add_part(m, parts[i]) < 0) {
            Py_DECREF(m);
            return NULL;
        }
    }
    if (PyModule_AddStringConstant(m, "library_version", tl_version_string()) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
