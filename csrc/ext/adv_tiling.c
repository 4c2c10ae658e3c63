/* adv_tiling.c - _C.adv_tiling: the advanced API's host tiling
 * (csrc/host_api/lib/adv_tiling.h) for Python (ascendrtc/adv_tiling.py). */
#include "arc_ext.h"

#include "host_api/lib/adv_tiling.h"

#define ARC_MAX_DIMS 8

/* A sequence of ints -> dims; returns the count, or -1 with an exception. */
static Py_ssize_t get_dims(PyObject *seq, int64_t *dims, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n < 1 || n > ARC_MAX_DIMS) {
        PyErr_Format(PyExc_ValueError, "%s must have 1 to %d dimensions, got %zd", what, ARC_MAX_DIMS, n);
        Py_DECREF(fast);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        dims[i] = (int64_t)v;
    }
    Py_DECREF(fast);
    return n;
}

PyObject *arc_adv_tiling(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    static char *kwlist[] = {"api", "shape", "ori_shape", "type_size", "buffer_bytes", "flag", "kind", NULL};
    const char *api;
    PyObject *shape, *ori_obj = Py_None;
    long long type_size_ll, kind_ll = 0; /* checked below: "I" would wrap 2**32 + 2 to 2 */
    long long buffer = -1;
    int flag = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "sOOL|LpL", kwlist, &api, &shape, &ori_obj, &type_size_ll, &buffer,
                                     &flag, &kind_ll))
        return NULL;
    if (type_size_ll < 0 || type_size_ll > 0xffffffffLL || kind_ll < 0 || kind_ll > 0xffffffffLL) {
        PyErr_Format(PyExc_ValueError, "%s: type_size %lld and kind %lld must be 0..2^32 - 1", api, type_size_ll,
                     kind_ll);
        return NULL;
    }
    unsigned int type_size = (unsigned int)type_size_ll;
    unsigned int kind = (unsigned int)kind_ll; /* ConfusionTranspose's scenario */
    int64_t d[ARC_MAX_DIMS], o[ARC_MAX_DIMS];
    Py_ssize_t n = get_dims(shape, d, "shape"), on = n;
    if (n < 0) return NULL;
    if (ori_obj != Py_None) {
        if ((on = get_dims(ori_obj, o, "ori_shape")) < 0) return NULL;
    } else {
        memcpy(o, d, sizeof d);
    }
    if (buffer > 0xffffffffLL) {
        PyErr_Format(PyExc_ValueError, "buffer_bytes %lld exceeds 2^32 - 1", buffer);
        return NULL;
    }
    uint32_t mx = 0, mn = 0;
    union {
        PadTiling pad;
        UnPadTiling unpad;
        SoftMaxTiling softmax;
        LayerNormTiling layernorm;
        RmsNormTiling rmsnorm;
        ConfusionTransposeTiling transpose;
    } t;
    size_t size = 0;
    const char *err;
    /* Scratch sizes first: buffer_bytes < 0 means "the maximum". */
    if (!strcmp(api, "pad") || !strcmp(api, "unpad"))
        err = arc_pad_tmp_size(d, (size_t)n, type_size, &mx, &mn);
    else if (!strcmp(api, "softmax"))
        err = arc_softmax_tmp_size(d, (size_t)n, type_size, &mx, &mn);
    else if (!strcmp(api, "layernorm"))
        err = arc_layernorm_tmp_size(d, (size_t)n, type_size, flag, &mx, &mn);
    else if (!strcmp(api, "rmsnorm"))
        err = arc_rmsnorm_tmp_size(d, (size_t)n, type_size, &mx, &mn);
    else if (!strcmp(api, "confusion_transpose"))
        err = arc_transpose_tmp_size(d, (size_t)n, type_size, kind, &mx, &mn);
    else {
        PyErr_Format(PyExc_ValueError,
                     "unknown advanced API %R (pad, unpad, softmax, layernorm, rmsnorm, confusion_transpose)",
                     PyTuple_GET_ITEM(args, 0));
        return NULL;
    }
    uint32_t buf = buffer < 0 ? mx : (uint32_t)buffer;
    if (!err) {
        if (!strcmp(api, "pad")) {
            err = arc_pad_tiling(d, (size_t)n, o, (size_t)on, buf, type_size, &t.pad);
            size = sizeof t.pad;
        } else if (!strcmp(api, "unpad")) {
            err = arc_unpad_tiling(d, (size_t)n, buf, type_size, &t.unpad);
            size = sizeof t.unpad;
        } else if (!strcmp(api, "softmax")) {
            err = arc_softmax_tiling(d, (size_t)n, type_size, buf, &t.softmax);
            size = sizeof t.softmax;
        } else if (!strcmp(api, "layernorm")) {
            if (ori_obj != Py_None && (o[on - 1] <= 0 || o[on - 1] > 0xffffffffLL)) {
                PyErr_Format(PyExc_ValueError, "layernorm tiling: original H %lld must be 1..2^32 - 1",
                             (long long)o[on - 1]);
                return NULL;
            }
            uint32_t ori_h = ori_obj != Py_None ? (uint32_t)o[on - 1] : 0;
            err = arc_layernorm_tiling(d, (size_t)n, ori_h, buf, type_size, flag, &t.layernorm);
            size = sizeof t.layernorm;
        } else if (!strcmp(api, "rmsnorm")) {
            err = arc_rmsnorm_tiling(d, (size_t)n, o, (size_t)on, buf, type_size, &t.rmsnorm);
            size = sizeof t.rmsnorm;
        } else {
            err = arc_transpose_tiling(d, (size_t)n, buf, type_size, kind, &t.transpose);
            size = sizeof t.transpose;
        }
    }
    if (err) {
        PyErr_Format(PyExc_ValueError, "%s tiling: %s", api, err);
        return NULL;
    }
    return Py_BuildValue("(y#II)", (const char *)&t, (Py_ssize_t)size, mx, mn);
}
