/* devicearray.c - DeviceArray: an N-d, C-contiguous block of device memory
 * with a NumPy dtype.  Freed (after any launch using it has finished) when
 * the last reference goes.  Views from basic indexing along the first axis
 * share the allocation through `owner`. */
#include "arc_ext.h"
#include "arc_numpy.h"

#include <stdio.h>
#include <string.h>
#include <structmember.h>

static PyArray_Descr *descr_of(DeviceArrayObject *a)
{
    return (PyArray_Descr *)a->descr;
}

static void set_contiguous_strides(DeviceArrayObject *a)
{
    Py_ssize_t s = PyDataType_ELSIZE(descr_of(a));
    for (int i = a->nd - 1; i >= 0; i--) {
        a->strides[i] = s;
        s *= a->shape[i];
    }
}

/* Elements of shape; -1 when a dimension is negative or the product
 * overflows. */
static Py_ssize_t numel(int nd, const Py_ssize_t *shape)
{
    Py_ssize_t n = 1;
    for (int i = 0; i < nd; i++)
        if (shape[i] < 0 || __builtin_mul_overflow(n, shape[i], &n))
            return -1;
    return n;
}

/* Whether the bytes of the non-zero dimensions fit Py_ssize_t, as NumPy
 * requires of any shape (a zero-size (0, 2**62) would otherwise overflow
 * its strides and could not be handed to NumPy). */
static int shape_fits(int nd, const Py_ssize_t *shape, Py_ssize_t elsize)
{
    Py_ssize_t b = elsize;
    for (int i = 0; i < nd; i++)
        if (shape[i] < 0 || (shape[i] && __builtin_mul_overflow(b, shape[i], &b)))
            return 0;
    return 1;
}

static DeviceArrayObject *alloc_object(arc_state *st, int nd, const Py_ssize_t *shape, PyObject *descr)
{
    DeviceArrayObject *a = (DeviceArrayObject *)st->DeviceArrayType->tp_alloc(st->DeviceArrayType, 0);
    if (!a)
        return NULL;
    a->nd = nd;
    memcpy(a->shape, shape, (size_t)nd * sizeof *shape);
    a->descr = Py_NewRef(descr);
    set_contiguous_strides(a);
    a->nbytes = (size_t)numel(nd, shape) * (size_t)PyDataType_ELSIZE(descr_of(a));
    return a;
}

PyObject *arc_devicearray_new(arc_state *st, int nd, const Py_ssize_t *shape, PyObject *descr)
{
    if (nd > ARC_MAXDIMS)
        return PyErr_Format(PyExc_ValueError, "DeviceArray supports at most %d dimensions, got %d", ARC_MAXDIMS,
                            nd);
    if (PyDataType_ELSIZE((PyArray_Descr *)descr) <= 0 || PyDataType_REFCHK((PyArray_Descr *)descr))
        return PyErr_Format(PyExc_TypeError, "dtype %R cannot live on the device (no fixed-size plain data)",
                            descr);
    Py_ssize_t n = 1, nbytes;
    for (int i = 0; i < nd; i++) {
        if (shape[i] < 0)
            return PyErr_Format(PyExc_ValueError, "negative dimension %zd in shape", shape[i]);
        if (__builtin_mul_overflow(n, shape[i], &n))
            return PyErr_Format(PyExc_ValueError, "shape too large: the number of elements overflows");
    }
    if (__builtin_mul_overflow(n, (Py_ssize_t)PyDataType_ELSIZE((PyArray_Descr *)descr), &nbytes) ||
        !shape_fits(nd, shape, (Py_ssize_t)PyDataType_ELSIZE((PyArray_Descr *)descr)))
        return PyErr_Format(PyExc_ValueError, "shape too large: %zd elements of dtype %R (or its non-zero "
                            "dimensions) need more than %zd bytes", n, descr, PY_SSIZE_T_MAX);
    if (arc_ready() < 0)
        return NULL;
    DeviceArrayObject *a = alloc_object(st, nd, shape, descr);
    if (!a)
        return NULL;
    /* The device rejects size-0 allocations; keep every array addressable. */
    size_t req = a->nbytes ? a->nbytes : 32;
    aclError err;
    void *p = NULL;
    Py_BEGIN_ALLOW_THREADS
    err = arc_acl.aclrtMalloc(&p, req, ACL_MEM_MALLOC_HUGE_FIRST);
    Py_END_ALLOW_THREADS
    if (err != ACL_SUCCESS) {
        char api[64];
        snprintf(api, sizeof api, "aclrtMalloc(%zu bytes)", req);
        Py_DECREF(a);
        return arc_raise(st, err, api);
    }
    a->ptr = p;
    return (PyObject *)a;
}

int arc_devicearray_settle(DeviceArrayObject *a)
{
    uint64_t mark = a->used_mark;
    if (a->owner && ((DeviceArrayObject *)a->owner)->used_mark > mark)
        mark = ((DeviceArrayObject *)a->owner)->used_mark;
    if (mark == 0 || arc_sync_completed >= mark)
        return 0;
    return arc_device_sync(arc_state_of_type(Py_TYPE(a)));
}

static void devicearray_dealloc(PyObject *op)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    if (a->weakreflist)
        PyObject_ClearWeakRefs(op);
    if (!a->owner && a->ptr && arc_bind_quiet()) {
        if (a->used_mark && arc_sync_completed < a->used_mark)
            arc_device_sync_quiet(arc_state_of_type(tp)); /* a queued launch may still use the memory; its error is kept */
        void *p = a->ptr;
        Py_BEGIN_ALLOW_THREADS
        arc_acl.aclrtFree(p);
        Py_END_ALLOW_THREADS
    }
    Py_CLEAR(a->owner);
    Py_CLEAR(a->descr);
    tp->tp_free(op);
    Py_DECREF(tp);
}

static int devicearray_traverse(PyObject *op, visitproc visit, void *arg)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(a->owner);
    Py_VISIT(a->descr);
    return 0;
}

/* ---- construction from Python ---- */

static int parse_shape(PyObject *obj, int *nd, Py_ssize_t *shape)
{
    if (PyLong_Check(obj) || PyIndex_Check(obj)) {
        Py_ssize_t n = PyNumber_AsSsize_t(obj, PyExc_OverflowError);
        if (n == -1 && PyErr_Occurred())
            return -1;
        *nd = 1;
        shape[0] = n;
        return 0;
    }
    PyObject *seq = PySequence_Fast(obj, "shape must be an int or a sequence of ints");
    if (!seq)
        return -1;
    Py_ssize_t len = PySequence_Fast_GET_SIZE(seq);
    if (len > ARC_MAXDIMS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "at most %d dimensions, got %zd", ARC_MAXDIMS, len);
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        shape[i] = PyNumber_AsSsize_t(PySequence_Fast_GET_ITEM(seq, i), PyExc_OverflowError);
        if (shape[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
    }
    *nd = (int)len;
    Py_DECREF(seq);
    return 0;
}

static PyObject *devicearray_tp_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"shape", "dtype", NULL};
    PyObject *shape_o, *dtype_o = NULL;
    PyArray_Descr *descr = NULL;
    int nd;
    Py_ssize_t shape[ARC_MAXDIMS];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O|O:DeviceArray", kwlist, &shape_o, &dtype_o))
        return NULL;
    if (parse_shape(shape_o, &nd, shape) < 0)
        return NULL;
    if (!PyArray_DescrConverter2(dtype_o, &descr))
        return NULL;
    if (!descr)
        descr = PyArray_DescrFromType(NPY_FLOAT32);
    PyObject *r = arc_devicearray_new(arc_state_of_type(tp), nd, shape, (PyObject *)descr);
    Py_DECREF(descr);
    return r;
}

/* Copy host bytes in or out, waiting for earlier launches first. */
static int copy(DeviceArrayObject *a, void *host, int to_device)
{
    if (arc_devicearray_settle(a) < 0)
        return -1;
    aclError err = ACL_SUCCESS;
    size_t n = a->nbytes;
    void *dev = a->ptr;
    if (n == 0)
        return 0;
    Py_BEGIN_ALLOW_THREADS
    if (to_device)
        err = arc_acl.aclrtMemcpy(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE);
    else
        err = arc_acl.aclrtMemcpy(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST);
    Py_END_ALLOW_THREADS
    if (err != ACL_SUCCESS) {
        arc_raise(arc_state_of_type(Py_TYPE(a)), err, "aclrtMemcpy");
        return -1;
    }
    return 0;
}

static PyObject *devicearray_from_host(PyObject *cls, PyObject *obj)
{
    arc_state *st = arc_state_of_type((PyTypeObject *)cls);
    (void)cls;
    PyArrayObject *arr = (PyArrayObject *)PyArray_FromAny(
        obj, NULL, 0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_NOTSWAPPED, NULL);
    if (!arr)
        return NULL;
    PyObject *a = arc_devicearray_new(st, PyArray_NDIM(arr), PyArray_DIMS(arr), (PyObject *)PyArray_DESCR(arr));
    if (a && copy((DeviceArrayObject *)a, PyArray_DATA(arr), 1) < 0)
        Py_CLEAR(a);
    Py_DECREF(arr);
    return a;
}

static PyObject *devicearray_get(PyObject *op, PyObject *unused)
{
    (void)unused;
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    Py_INCREF(a->descr);
    PyArrayObject *out = (PyArrayObject *)PyArray_NewFromDescr(&PyArray_Type, descr_of(a), a->nd, a->shape, NULL,
                                                               NULL, 0, NULL);
    if (!out)
        return NULL;
    if (copy(a, PyArray_DATA(out), 0) < 0) {
        Py_DECREF(out);
        return NULL;
    }
    return (PyObject *)out;
}

static PyObject *devicearray_set(PyObject *op, PyObject *obj)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    Py_INCREF(a->descr);
    PyArrayObject *arr = (PyArrayObject *)PyArray_FromAny(
        obj, descr_of(a), 0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_NOTSWAPPED | NPY_ARRAY_FORCECAST,
        NULL);
    if (!arr)
        return NULL;
    PyObject *res = NULL;
    if (!PyArray_CompareLists(PyArray_DIMS(arr), a->shape, a->nd) || PyArray_NDIM(arr) != a->nd) {
        PyObject *want = PyTuple_New(a->nd);
        if (want)
            for (int i = 0; i < a->nd; i++)
                PyTuple_SET_ITEM(want, i, PyLong_FromSsize_t(a->shape[i]));
        PyErr_Format(PyExc_ValueError, "set(): shape mismatch: device array has shape %R, host data has %zd "
                     "elements in %d dimensions", want, PyArray_SIZE(arr), PyArray_NDIM(arr));
        Py_XDECREF(want);
        goto cleanup;
    }
    if (copy(a, PyArray_DATA(arr), 1) < 0)
        goto cleanup;
    res = Py_NewRef(Py_None);
cleanup:
    Py_DECREF(arr);
    return res;
}

static PyObject *devicearray_fill_zero(PyObject *op, PyObject *unused)
{
    (void)unused;
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    if (arc_devicearray_settle(a) < 0)
        return NULL;
    if (a->nbytes) {
        aclError err;
        Py_BEGIN_ALLOW_THREADS
        err = arc_acl.aclrtMemset(a->ptr, a->nbytes, 0, a->nbytes);
        Py_END_ALLOW_THREADS
        if (err != ACL_SUCCESS)
            return arc_raise(arc_state_of_type(Py_TYPE(op)), err, "aclrtMemset");
    }
    Py_RETURN_NONE;
}

static PyObject *devicearray_array(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"dtype", "copy", NULL};
    PyObject *dtype = Py_None, *copy_o = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|OO:__array__", kwlist, &dtype, &copy_o))
        return NULL;
    if (copy_o == Py_False)
        return PyErr_Format(PyExc_ValueError, "a DeviceArray cannot be viewed as a NumPy array without a copy");
    PyObject *host = devicearray_get(op, NULL);
    if (!host || dtype == Py_None)
        return host;
    PyObject *r = PyObject_CallMethod(host, "astype", "O", dtype);
    Py_DECREF(host);
    return r;
}

/* A view on rows [start, stop) of the first axis (step 1), or one row. */
static PyObject *devicearray_subscript(PyObject *op, PyObject *key)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    arc_state *st = arc_state_of_type(Py_TYPE(op));
    Py_ssize_t start, stop, step, len, n0;
    int drop = 0;
    if (a->nd == 0)
        return PyErr_Format(PyExc_IndexError, "a 0-d DeviceArray cannot be indexed");
    n0 = a->shape[0];
    if (PySlice_Check(key)) {
        if (PySlice_Unpack(key, &start, &stop, &step) < 0)
            return NULL;
        len = PySlice_AdjustIndices(n0, &start, &stop, step);
        if (step != 1)
            return PyErr_Format(PyExc_ValueError, "DeviceArray views need step 1 (contiguous); got step %zd", step);
    } else if (PyIndex_Check(key)) {
        start = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (start == -1 && PyErr_Occurred())
            return NULL;
        if (start < 0)
            start += n0;
        if (start < 0 || start >= n0)
            return PyErr_Format(PyExc_IndexError, "index %zd out of range for axis 0 of size %zd", start, n0);
        len = 1;
        drop = 1;
    } else {
        return PyErr_Format(PyExc_TypeError, "DeviceArray supports an int or a slice along the first axis, not %.100s",
                            Py_TYPE(key)->tp_name);
    }
    Py_ssize_t shape[ARC_MAXDIMS];
    memcpy(shape, a->shape + drop, (size_t)(a->nd - drop) * sizeof *shape);
    if (!drop)
        shape[0] = len;
    DeviceArrayObject *v = alloc_object(st, a->nd - drop, shape, a->descr);
    if (!v)
        return NULL;
    v->ptr = (char *)a->ptr + start * a->strides[0];
    v->owner = Py_NewRef(a->owner ? a->owner : op);
    return (PyObject *)v;
}

static Py_ssize_t devicearray_length(PyObject *op)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    if (a->nd == 0) {
        PyErr_SetString(PyExc_TypeError, "len() of a 0-d DeviceArray");
        return -1;
    }
    return a->shape[0];
}

static PyObject *devicearray_reshape(PyObject *op, PyObject *args)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    int nd;
    Py_ssize_t shape[ARC_MAXDIMS];
    PyObject *s = PyTuple_GET_SIZE(args) == 1 ? PyTuple_GET_ITEM(args, 0) : args;
    if (parse_shape(s, &nd, shape) < 0)
        return NULL;
    Py_ssize_t n = numel(a->nd, a->shape), known = 1;
    int unknown = -1;
    for (int i = 0; i < nd; i++) {
        if (shape[i] == -1 && unknown < 0)
            unknown = i;
        else if (shape[i] < 0 || __builtin_mul_overflow(known, shape[i], &known))
            return PyErr_Format(PyExc_ValueError, "cannot reshape a DeviceArray of size %zd into shape %R", n, s);
    }
    if (unknown >= 0 && known > 0 && n % known == 0)
        shape[unknown] = n / known;
    if (numel(nd, shape) != n || (unknown >= 0 && known == 0) ||
        !shape_fits(nd, shape, (Py_ssize_t)PyDataType_ELSIZE(descr_of(a))))
        return PyErr_Format(PyExc_ValueError, "cannot reshape a DeviceArray of size %zd into shape %R", n, s);
    DeviceArrayObject *v = alloc_object(arc_state_of_type(Py_TYPE(op)), nd, shape, a->descr);
    if (!v)
        return NULL;
    v->ptr = a->ptr;
    v->owner = Py_NewRef(a->owner ? a->owner : op);
    return (PyObject *)v;
}

static PyObject *dims_tuple(int nd, const Py_ssize_t *v)
{
    PyObject *t = PyTuple_New(nd);
    if (!t)
        return NULL;
    for (int i = 0; i < nd; i++) {
        PyObject *x = PyLong_FromSsize_t(v[i]);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *get_shape(PyObject *op, void *c)
{
    (void)c;
    return dims_tuple(((DeviceArrayObject *)op)->nd, ((DeviceArrayObject *)op)->shape);
}
static PyObject *get_strides(PyObject *op, void *c)
{
    (void)c;
    return dims_tuple(((DeviceArrayObject *)op)->nd, ((DeviceArrayObject *)op)->strides);
}
static PyObject *get_dtype(PyObject *op, void *c)
{
    (void)c;
    return Py_NewRef(((DeviceArrayObject *)op)->descr);
}
static PyObject *get_ndim(PyObject *op, void *c)
{
    (void)c;
    return PyLong_FromLong(((DeviceArrayObject *)op)->nd);
}
static PyObject *get_size(PyObject *op, void *c)
{
    (void)c;
    return PyLong_FromSsize_t(numel(((DeviceArrayObject *)op)->nd, ((DeviceArrayObject *)op)->shape));
}
static PyObject *get_nbytes(PyObject *op, void *c)
{
    (void)c;
    return PyLong_FromSize_t(((DeviceArrayObject *)op)->nbytes);
}
static PyObject *get_itemsize(PyObject *op, void *c)
{
    (void)c;
    return PyLong_FromLong(PyDataType_ELSIZE(descr_of((DeviceArrayObject *)op)));
}
static PyObject *get_ptr(PyObject *op, void *c)
{
    (void)c;
    return PyLong_FromVoidPtr(((DeviceArrayObject *)op)->ptr);
}
static PyObject *get_base(PyObject *op, void *c)
{
    (void)c;
    PyObject *o = ((DeviceArrayObject *)op)->owner;
    return Py_NewRef(o ? o : Py_None);
}

static PyObject *devicearray_repr(PyObject *op)
{
    DeviceArrayObject *a = (DeviceArrayObject *)op;
    PyObject *shape = get_shape(op, NULL);
    if (!shape)
        return NULL;
    PyObject *r = PyUnicode_FromFormat("<ascendrtc.DeviceArray shape=%R dtype=%R at %p>", shape, a->descr, a->ptr);
    Py_DECREF(shape);
    return r;
}

static PyMethodDef devicearray_methods[] = {
    {"from_host", devicearray_from_host, METH_O | METH_CLASS,
     "from_host(a) -> DeviceArray\n--\n\nCopy a NumPy array (or anything np.asarray accepts) to the device."},
    {"get", devicearray_get, METH_NOARGS,
     "get() -> numpy.ndarray\n--\n\nWait for launches using this array, then copy it to a new NumPy array."},
    {"set", devicearray_set, METH_O,
     "set(a)\n--\n\nCopy host data of the same shape into this array (cast to its dtype)."},
    {"_fill_zero", devicearray_fill_zero, METH_NOARGS, "Set every byte to zero."},
    {"reshape", devicearray_reshape, METH_VARARGS,
     "reshape(*shape) -> DeviceArray\n--\n\nA view with a new shape (same size; one -1 allowed)."},
    {"__array__", (PyCFunction)(void (*)(void))devicearray_array, METH_VARARGS | METH_KEYWORDS,
     "numpy.asarray(d) copies the array to the host."},
    {"__dlpack__", (PyCFunction)(void (*)(void))arc_devicearray_dlpack, METH_VARARGS | METH_KEYWORDS,
     "__dlpack__(*, stream=None, max_version=None, dl_device=None, copy=None)\n--\n\n"
     "Export the array through DLPack.  On the simulated NPU device memory is host memory, so "
     "numpy.from_dlpack(d) and torch.from_dlpack(d) see it without a copy (after launches using it "
     "have finished); on a real NPU only copy=True works."},
    {"__dlpack_device__", arc_devicearray_dlpack_device, METH_NOARGS,
     "__dlpack_device__() -> (device_type, device_id)\n--\n\n(1, 0), the CPU, on the simulated NPU."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef devicearray_getset[] = {
    {"shape", get_shape, NULL, "Tuple of dimensions.", NULL},
    {"strides", get_strides, NULL, "Tuple of byte strides (always C-contiguous).", NULL},
    {"dtype", get_dtype, NULL, "The NumPy dtype.", NULL},
    {"ndim", get_ndim, NULL, "Number of dimensions.", NULL},
    {"size", get_size, NULL, "Number of elements.", NULL},
    {"nbytes", get_nbytes, NULL, "Bytes of device memory the array spans.", NULL},
    {"itemsize", get_itemsize, NULL, "Bytes per element.", NULL},
    {"ptr", get_ptr, NULL, "The device address, as an int.", NULL},
    {"base", get_base, NULL, "The array owning the memory of a view, or None.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef devicearray_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(DeviceArrayObject, weakreflist), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot devicearray_slots[] = {
    {Py_tp_doc, "DeviceArray(shape, dtype=float32)\n--\n\nA C-contiguous array in device memory (uninitialised "
                "when created directly).  .get() or numpy.asarray() copies it back; it is freed when the last "
                "reference goes, after launches using it have finished."},
    {Py_tp_new, devicearray_tp_new},
    {Py_tp_dealloc, devicearray_dealloc},
    {Py_tp_traverse, devicearray_traverse},
    {Py_tp_repr, devicearray_repr},
    {Py_tp_methods, devicearray_methods},
    {Py_tp_getset, devicearray_getset},
    {Py_tp_members, devicearray_members},
    {Py_mp_subscript, devicearray_subscript},
    {Py_mp_length, devicearray_length},
    {0, NULL},
};

PyType_Spec devicearray_spec = {
    .name = "ascendrtc.DeviceArray",
    .basicsize = sizeof(DeviceArrayObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = devicearray_slots,
};
