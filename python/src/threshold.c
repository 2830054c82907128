/* tlayout.threshold(desc, t): the quantized threshold of a real value
 * (tl_rknn_threshold, as `tlayout threshold` prints it). */
#include "tlpy.h"

static PyObject *threshold(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"desc", "t", NULL};
    PyObject *dobj;
    double t;
    tl_desc scratch;
    int32_t q;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Od:threshold", kwlist, &dobj, &t)) return NULL;
    const tl_desc *d = tlpy_desc_of(dobj, &scratch, "desc");
    if (!d) return NULL;
    tl_status s = tl_rknn_threshold(d, t, &q);
    return s == TL_OK ? PyLong_FromLong(q) : tlpy_raise(s, NULL);
}

static PyMethodDef threshold_methods[] = {
    {"threshold", (PyCFunction)(void (*)(void))threshold, METH_VARARGS | METH_KEYWORDS,
     "threshold(desc, t) -> int\n\n"
     "The code Q such that a code q of desc's dtype dequantizes to a value >= t\n"
     "exactly when q >= Q (for every code of i8 u8 i16 u16 i4 u4). Compare raw\n"
     "codes with Q and dequantize only those that pass. Q is the lowest code when\n"
     "every code passes, the highest + 1 when none does."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_threshold = {"threshold", threshold_methods, NULL};
