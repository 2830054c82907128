/* Post-processing on native buffers (include/tlayout/post.h, docs/postprocess.md):
 * tlayout._core.scan / topk / argmax / gather. python/tlayout/__init__.py
 * wraps them into the public functions, which hand back numpy arrays when
 * numpy is there (a structured array of hits, a label map, float64 values)
 * and plain Python objects otherwise.
 *
 * Hits come back from C as a list of (n, c, h, w, code, value) tuples. The
 * library runs with the GIL released; the buffers stay exported meanwhile.
 */
#include <stdlib.h>

#include "tlpy.h"

/* The descriptor and the exported bytes of (buf, desc); -1 with an exception. */
static int tensor_of(PyObject *buf, PyObject *dobj, tl_desc *scratch, const tl_desc **d, Py_buffer *b)
{
    *d = tlpy_desc_of(dobj, scratch, "desc");
    if (!*d) return -1;
    return PyObject_GetBuffer(buf, b, PyBUF_SIMPLE);
}

static PyObject *hit_list(const tl_hit *hits, size_t n)
{
    PyObject *list = PyList_New((Py_ssize_t)n);
    for (size_t i = 0; list && i < n; i++) {
        const tl_hit *h = &hits[i];
        PyObject *t = Py_BuildValue("(LiLLid)", (long long)h->n, (int)h->c, (long long)h->h, (long long)h->w,
                                    (int)h->code, h->value);
        if (!t) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SetItem(list, (Py_ssize_t)i, t);
    }
    return list;
}

/* A hit search: the whole call with cap 0 tells the count, the second fills. */
typedef struct hit_query {
    int topk;             /* 0: tl_scan, 1: tl_topk */
    int64_t first, count; /* scan: channel range */
    double t;             /* scan: threshold */
    int64_t k;            /* topk */
    unsigned flags;
} hit_query;

static tl_status query(const hit_query *q, const tl_desc *d, const Py_buffer *b, tl_hit *hits, size_t cap,
                       size_t *n)
{
    if (q->topk) return tl_topk(d, b->buf, (size_t)b->len, q->k, q->flags, hits, cap, n);
    return tl_scan(d, b->buf, (size_t)b->len, q->first, q->count, q->t, q->flags, hits, cap, n);
}

static PyObject *find_hits(PyObject *buf, PyObject *dobj, const hit_query *q)
{
    tl_desc scratch;
    const tl_desc *d;
    Py_buffer b;
    if (tensor_of(buf, dobj, &scratch, &d, &b) < 0) return NULL;
    size_t n = 0, got = 0;
    tl_hit *hits = NULL;
    tl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = query(q, d, &b, NULL, 0, &n);
    if (s == TL_ERR_BUFFER_SMALL) {
        hits = malloc(n * sizeof *hits);
        s = hits ? query(q, d, &b, hits, n, &got) : TL_ERR_NOMEM;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    PyObject *r = s == TL_OK ? hit_list(hits, got) : s == TL_ERR_NOMEM && !hits ? PyErr_NoMemory()
                                                                                 : tlpy_raise(s, NULL);
    free(hits);
    return r;
}

/* The channel count for the default range, as `tlayout scan` takes it
 * (label C, else dim 1; rank 1: dim 0). */
static int64_t channels_of(const tl_desc *d)
{
    for (int i = 0; i < d->rank; i++)
        if (d->labels[i] == 'C') return d->dims[i];
    return d->rank >= 2 ? d->dims[1] : d->dims[0];
}

static PyObject *scan(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"buf", "desc", "threshold", "first", "count", "best", NULL};
    PyObject *buf, *dobj;
    hit_query q = {0, 0, -1, 0.0, 0, 0};
    long long first = 0, count = -1;
    int best = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOd|LLp:scan", kwlist, &buf, &dobj, &q.t, &first, &count, &best))
        return NULL;
    q.first = first;
    q.count = count;
    if (count < 0) { /* all channels from first */
        tl_desc scratch;
        const tl_desc *d = tlpy_desc_of(dobj, &scratch, "desc");
        if (!d) return NULL;
        q.count = channels_of(d) - first;
    }
    q.flags = best ? TL_SCAN_BEST : 0u;
    return find_hits(buf, dobj, &q);
}

static PyObject *topk(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"buf", "desc", "k", "per_item", NULL};
    PyObject *buf, *dobj;
    hit_query q = {1, 0, 0, 0.0, 0, 0};
    long long k;
    int per_item = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOL|p:topk", kwlist, &buf, &dobj, &k, &per_item)) return NULL;
    q.k = k;
    q.flags = per_item ? TL_TOPK_PER_ITEM : 0u;
    return find_hits(buf, dobj, &q);
}

static PyObject *argmax(PyObject *module, PyObject *args, PyObject *kw)
{
    (void)module;
    static char *kwlist[] = {"buf", "desc", "out", "resize", "out_h", "out_w", "u8", NULL};
    PyObject *buf, *dobj, *out;
    int resize = 0, u8 = 0;
    long long oh = 0, ow = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOO|iLLp:argmax", kwlist, &buf, &dobj, &out, &resize, &oh, &ow,
                                     &u8))
        return NULL;
    tl_desc scratch;
    const tl_desc *d;
    Py_buffer b, ob;
    if (tensor_of(buf, dobj, &scratch, &d, &b) < 0) return NULL;
    if (PyObject_GetBuffer(out, &ob, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&b);
        return NULL;
    }
    tl_status s;
    Py_BEGIN_ALLOW_THREADS
    s = tl_argmax(d, b.buf, (size_t)b.len, (tl_resize)resize, oh, ow, u8 ? TL_LABEL_U8 : TL_LABEL_I32, ob.buf,
                  (size_t)ob.len);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&ob);
    PyBuffer_Release(&b);
    return s == TL_OK ? Py_NewRef(out) : tlpy_raise(s, NULL);
}

/* coords: a buffer of count x 4 int64 (n, c, h, w); out: count float64. */
static PyObject *gather(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *buf, *dobj, *coords, *out;
    if (!PyArg_ParseTuple(args, "OOOO:gather", &buf, &dobj, &coords, &out)) return NULL;
    tl_desc scratch;
    const tl_desc *d;
    Py_buffer b, cb, ob;
    if (tensor_of(buf, dobj, &scratch, &d, &b) < 0) return NULL;
    if (PyObject_GetBuffer(coords, &cb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&b);
        return NULL;
    }
    if (PyObject_GetBuffer(out, &ob, PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&cb);
        PyBuffer_Release(&b);
        return NULL;
    }
    size_t count = (size_t)cb.len / (4 * sizeof(int64_t));
    tl_status s = TL_OK;
    if ((size_t)cb.len != count * 4 * sizeof(int64_t) || (size_t)ob.len < count * sizeof(double))
        s = TL_ERR_SIZE;
    else {
        Py_BEGIN_ALLOW_THREADS
        s = tl_gather(d, b.buf, (size_t)b.len, (const int64_t *)cb.buf, count, (double *)ob.buf);
        Py_END_ALLOW_THREADS
    }
    PyBuffer_Release(&ob);
    PyBuffer_Release(&cb);
    PyBuffer_Release(&b);
    if (s == TL_ERR_SIZE)
        return tlpy_raisef(s, "gather: coords must be int64 (n, c, h, w) quadruples and out one float64 per "
                           "quadruple");
    return s == TL_OK ? Py_NewRef(out) : tlpy_raise(s, NULL);
}

static PyMethodDef post_methods[] = {
    {"_scan", (PyCFunction)(void (*)(void))scan, METH_VARARGS | METH_KEYWORDS,
     "_scan(buf, desc, threshold, first=0, count=-1, best=False) -> [(n, c, h, w, code, value)]"},
    {"_topk", (PyCFunction)(void (*)(void))topk, METH_VARARGS | METH_KEYWORDS,
     "_topk(buf, desc, k, per_item=False) -> [(n, c, h, w, code, value)]"},
    {"_argmax", (PyCFunction)(void (*)(void))argmax, METH_VARARGS | METH_KEYWORDS,
     "_argmax(buf, desc, out, resize=0, out_h=0, out_w=0, u8=False) -> out"},
    {"_gather", (PyCFunction)(void (*)(void))gather, METH_VARARGS,
     "_gather(buf, desc, coords_int64, out_float64) -> out"},
    {NULL, NULL, 0, NULL},
};

const tlpy_part tlpy_part_post = {"post", post_methods, NULL};
