/* dlpack.c - DLPack both ways.
 *
 * Export: DeviceArray.__dlpack__ hands out a DLManagedTensor (or, for
 * consumers asking for max_version >= 1.0, a DLManagedTensorVersioned)
 * that points at the device memory itself.  That is only possible where the
 * memory is host memory -- the simulated NPU -- and is refused with
 * BufferError on a real NPU.  The tensor keeps the DeviceArray alive until
 * the consumer calls its deleter.
 *
 * Import: kernels take objects exporting DLPack (PyTorch CPU tensors, JAX
 * arrays, ...) as host arrays, through numpy.from_dlpack, which shares
 * their memory, so outputs written back land in the caller's tensor.
 *
 * The structs follow the DLPack ABI (dlpack.h, v1.x): the layout is the
 * interface, so it is spelled out here rather than vendored. */
#include "arc_ext.h"
#include "arc_numpy.h"

#include <string.h>

typedef struct {
    int32_t device_type;
    int32_t device_id;
} DLDevice;

typedef struct {
    uint8_t code;
    uint8_t bits;
    uint16_t lanes;
} DLDataType;

typedef struct {
    void *data;
    DLDevice device;
    int32_t ndim;
    DLDataType dtype;
    int64_t *shape;
    int64_t *strides;
    uint64_t byte_offset;
} DLTensor;

typedef struct DLManagedTensor {
    DLTensor dl_tensor;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;

typedef struct {
    uint32_t major;
    uint32_t minor;
} DLPackVersion;

typedef struct DLManagedTensorVersioned {
    DLPackVersion version;
    void *manager_ctx;
    void (*deleter)(struct DLManagedTensorVersioned *self);
    uint64_t flags;
    DLTensor dl_tensor;
} DLManagedTensorVersioned;

enum { kDLCPU = 1, kDLExtDev = 12 };
enum { kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLComplex = 5, kDLBool = 6 };

/* One allocation: the managed tensor, then shape and strides. */
typedef struct {
    union {
        DLManagedTensor legacy;
        DLManagedTensorVersioned versioned;
    } t;
    int64_t dims[2 * ARC_MAXDIMS];
} export_block;

static void release_owner(void *ctx)
{
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF((PyObject *)ctx);
    PyGILState_Release(g);
}

static void delete_legacy(DLManagedTensor *m)
{
    release_owner(m->manager_ctx);
    PyMem_RawFree(m);
}

static void delete_versioned(DLManagedTensorVersioned *m)
{
    release_owner(m->manager_ctx);
    PyMem_RawFree(m);
}

/* Capsules never consumed free their tensor. */
static void capsule_legacy(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, "dltensor")) {
        DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
        if (m && m->deleter)
            m->deleter(m);
    }
}

static void capsule_versioned(PyObject *cap)
{
    if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
        DLManagedTensorVersioned *m = PyCapsule_GetPointer(cap, "dltensor_versioned");
        if (m && m->deleter)
            m->deleter(m);
    }
}

static int dl_dtype(PyArray_Descr *d, DLDataType *out)
{
    out->lanes = 1;
    out->bits = (uint8_t)(PyDataType_ELSIZE(d) * 8);
    switch (d->kind) {
    case 'i': out->code = kDLInt; return 0;
    case 'u': out->code = kDLUInt; return 0;
    case 'f': out->code = kDLFloat; return 0;
    case 'c': out->code = kDLComplex; return 0;
    case 'b': out->code = kDLBool; return 0;
    default: break;
    }
    /* ml_dtypes' bfloat16 is a 2-byte 'V' type named bfloat16. */
    if (PyDataType_ELSIZE(d) == 2 && strcmp(d->typeobj->tp_name, "bfloat16") == 0) {
        out->code = kDLBfloat;
        return 0;
    }
    PyErr_Format(PyExc_BufferError, "a DeviceArray of dtype %R cannot be exported through DLPack "
                 "(numeric and bool dtypes only)", (PyObject *)d);
    return -1;
}

static int max_major(PyObject *max_version)
{
    if (!max_version || max_version == Py_None)
        return 0;
    if (!PyTuple_Check(max_version) || PyTuple_GET_SIZE(max_version) < 1) {
        PyErr_SetString(PyExc_TypeError, "__dlpack__(max_version=...) must be a (major, minor) tuple");
        return -1;
    }
    long m = PyLong_AsLong(PyTuple_GET_ITEM(max_version, 0));
    if (m == -1 && PyErr_Occurred())
        return -1;
    return (int)m;
}

PyObject *arc_devicearray_dlpack_device(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    if (arc_ready() < 0)
        return NULL;
    return Py_BuildValue("(ii)", arc_host_memory ? kDLCPU : kDLExtDev, 0);
}

PyObject *arc_devicearray_dlpack(PyObject *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"stream", "max_version", "dl_device", "copy", NULL};
    PyObject *stream = Py_None, *max_version = Py_None, *dl_device = Py_None, *copy = Py_None;
    DeviceArrayObject *a = (DeviceArrayObject *)self;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|$OOOO:__dlpack__", kwlist, &stream, &max_version, &dl_device,
                                     &copy))
        return NULL;
    (void)stream; /* host memory: the array is settled below, whatever stream the consumer uses */
    if (arc_ready() < 0)
        return NULL;
    if (copy == Py_True || !arc_host_memory) {
        if (copy == Py_False || (!arc_host_memory && copy != Py_True))
            return PyErr_Format(PyExc_BufferError,
                                "this DeviceArray lives in NPU memory, which the host cannot address; "
                                "export a host copy with __dlpack__(copy=True) or .get()");
        /* A host copy, exported by NumPy (it owns the copy). */
        PyObject *host = PyObject_CallMethod(self, "get", NULL);
        if (!host)
            return NULL;
        PyObject *meth = PyObject_GetAttrString(host, "__dlpack__");
        PyObject *r = NULL;
        if (meth) {
            PyObject *kw = max_version == Py_None ? PyDict_New()
                                                  : Py_BuildValue("{s:O}", "max_version", max_version);
            PyObject *empty = PyTuple_New(0);
            if (kw && empty)
                r = PyObject_Call(meth, empty, kw);
            Py_XDECREF(kw);
            Py_XDECREF(empty);
            Py_DECREF(meth);
        }
        Py_DECREF(host);
        return r;
    }
    if (dl_device != Py_None) {
        int dt = 0, di = 0;
        if (!PyArg_ParseTuple(dl_device, "ii:dl_device", &dt, &di))
            return NULL;
        if (dt != kDLCPU || di != 0)
            return PyErr_Format(PyExc_BufferError, "a DeviceArray of the simulated NPU is in host memory "
                                "(DLPack device (1, 0)); cannot export it to device (%d, %d) without a copy", dt, di);
    }
    int major = max_major(max_version);
    if (major < 0 && PyErr_Occurred())
        return NULL;
    DLDataType dtype;
    if (dl_dtype((PyArray_Descr *)a->descr, &dtype) < 0)
        return NULL;
    /* Launches still using the array finish before anyone reads it. */
    if (arc_devicearray_settle(a) < 0)
        return NULL;

    export_block *b = PyMem_RawCalloc(1, sizeof *b);
    if (!b)
        return PyErr_NoMemory();
    int64_t *shape = b->dims, *strides = b->dims + ARC_MAXDIMS;
    Py_ssize_t item = PyDataType_ELSIZE((PyArray_Descr *)a->descr);
    for (int i = 0; i < a->nd; i++) {
        shape[i] = a->shape[i];
        strides[i] = item ? a->strides[i] / item : 0;
    }
    DLTensor *t = major >= 1 ? &b->t.versioned.dl_tensor : &b->t.legacy.dl_tensor;
    t->data = a->ptr;
    t->device.device_type = kDLCPU;
    t->device.device_id = 0;
    t->ndim = a->nd;
    t->dtype = dtype;
    t->shape = shape;
    t->strides = strides;
    t->byte_offset = 0;
    Py_INCREF(self);
    PyObject *cap;
    if (major >= 1) {
        b->t.versioned.version.major = 1;
        b->t.versioned.version.minor = 0;
        b->t.versioned.manager_ctx = self;
        b->t.versioned.deleter = delete_versioned;
        b->t.versioned.flags = 0;
        cap = PyCapsule_New(&b->t.versioned, "dltensor_versioned", capsule_versioned);
    } else {
        b->t.legacy.manager_ctx = self;
        b->t.legacy.deleter = delete_legacy;
        cap = PyCapsule_New(&b->t.legacy, "dltensor", capsule_legacy);
    }
    if (!cap) {
        Py_DECREF(self);
        PyMem_RawFree(b);
    }
    return cap;
}

PyObject *arc_ndarray_from_dlpack(PyObject *obj)
{
    static PyObject *from_dlpack;
    if (!from_dlpack) {
        PyObject *np = PyImport_ImportModule("numpy");
        if (!np)
            return NULL;
        from_dlpack = PyObject_GetAttrString(np, "from_dlpack");
        Py_DECREF(np);
        if (!from_dlpack)
            return NULL;
    }
    return PyObject_CallOneArg(from_dlpack, obj);
}
