/* tlayout.tidl_io(image): the buffers of a TIDL-RT io_1.bin as descriptors
 * (tl_tidl_io_parse, tl_tidl_io_get, tl_desc_from_tidl: what `tlayout
 * tidl-info` lists). */
#include "tlpy.h"

/* [(name, Desc), ...] of the inputs (is_output 0) or the outputs. */
static PyObject *buffers(const Py_buffer *b, const tl_tidl_io *io, int is_output)
{
    int n = is_output ? io->num_output_buf : io->num_input_buf;
    PyObject *list = PyList_New(n);
    for (int i = 0; list && i < n; i++) {
        tl_tidl_buf buf;
        tl_desc d;
        tl_status s = tl_tidl_io_get(b->buf, (size_t)b->len, io, is_output, i, &buf);
        if (s == TL_OK) s = tl_desc_from_tidl(&d, &buf, 0);
        PyObject *desc = s == TL_OK ? tlpy_desc_new(&d) : tlpy_raise(s, NULL);
        PyObject *item = desc ? Py_BuildValue("(sN)", buf.name, desc) : NULL;
        if (!item || PyList_SetItem(list, i, item) < 0) Py_CLEAR(list);
    }
    return list;
}

static PyObject *tidl_io(PyObject *module, PyObject *image)
{
    (void)module;
    Py_buffer b;
    tl_tidl_io io;
    if (PyObject_GetBuffer(image, &b, PyBUF_SIMPLE) < 0) return NULL;
    tl_status s = tl_tidl_io_parse(b.buf, (size_t)b.len, &io);
    PyObject *r = NULL;
    if (s != TL_OK) {
        tlpy_raise(s, NULL);
    } else {
        PyObject *in = buffers(&b, &io, 0), *out = in ? buffers(&b, &io, 1) : NULL;
        if (out) r = Py_BuildValue("{s:i,s:i,s:O,s:O}", "version", io.version, "cores", io.max_cores,
                                   "inputs", in, "outputs", out);
        Py_XDECREF(in);
        Py_XDECREF(out);
    }
    PyBuffer_Release(&b);
    return r;
}

static PyMethodDef tidl_methods[] = {
    {"tidl_io", tidl_io, METH_O,
     "tidl_io(image) -> {'version', 'cores', 'inputs': [(name, Desc)], 'outputs': [(name, Desc)]}\n\n"
     "The buffers of a TIDL-RT io_1.bin image (its bytes), as `tlayout tidl-info` lists them.\n"
     "Raises tlayout.VendorFileError for a file that is no such image and the status of the\n"
     "first buffer that breaks a TIDL rule."},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_tidl = {"tidl", tidl_methods, NULL};
