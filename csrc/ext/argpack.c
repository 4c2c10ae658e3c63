/* argpack.c - table-driven packing of Python arguments into a kernel's
 * argument block, checked against the kernel's real parameter list, and
 * the launch itself.  Each parameter kind has one pack function (chosen
 * once, when the Kernel is built); every check happens before anything is
 * launched, and every error names the kernel, the parameter and its type.
 *
 * NumPy arrays (and other buffers) passed for pointer parameters are
 * copied to temporary device memory; after the launch the stream is
 * synchronised and arrays the kernel may write are copied back, so such
 * a launch returns when the kernel is done.  Device arrays launch
 * asynchronously. */
#include "arc_ext.h"
#include "arc_numpy.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <structmember.h>

#include "common/meta.h"

/* ---- errors naming the parameter ---- */

/* Every function below takes the kernel whose arguments it packs (k), for
 * its messages and its state. */
static PyObject *arg_error(const KernelObject *k, PyObject *exc, const arc_param_desc *p, const char *fmt, ...)
{
    char detail[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    PyErr_Format(exc, "%U: argument '%U' (%U) %s", k->signature, p->name, p->ctype, detail);
    return NULL;
}

static const char *tname(PyObject *o)
{
    return Py_TYPE(o)->tp_name;
}

/* "a torch.Tensor": an array exporter's type with its module, for
 * messages (a tensor viewed as an ndarray is still named as passed). */
static const char *exporter_text(PyObject *o, char *buf, size_t n)
{
    const char *name = Py_TYPE(o)->tp_name;
    PyObject *mod = strchr(name, '.') ? NULL : PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__module__");
    const char *m = mod && PyUnicode_Check(mod) ? PyUnicode_AsUTF8(mod) : NULL;
    if (m && strcmp(m, "builtins") != 0)
        snprintf(buf, n, "a %s.%s", m, name);
    else
        snprintf(buf, n, "a %s", name);
    Py_XDECREF(mod);
    PyErr_Clear();
    return buf;
}

/* ---- pack functions: 0 packed, 1 needs a temporary device copy, -1 error ---- */

static int is_numpy_bool(PyObject *o)
{
    return PyArray_IsScalar(o, Bool);
}

/* A typed pointer (`__gm__ float *`, or a dtype stated with dtypes=) takes
 * arrays of that element type only; GM_ADDR and byte pointers take that of
 * their inferred element type or arc_raw_enough ones, or any when none was
 * inferred. */
static int check_dtype(const KernelObject *k, const arc_param_desc *p, PyArray_Descr *got, const char *what)
{
    PyArray_Descr *want = (PyArray_Descr *)p->want;
    if (!want || (got->kind == want->kind && PyDataType_ELSIZE(got) == PyDataType_ELSIZE(want)))
        return 0;
    if (p->inferred && arc_raw_enough(got, want))
        return 0;
    PyObject *g = PyObject_Str((PyObject *)got), *w = PyObject_Str((PyObject *)want);
    if (g && w)
        arg_error(k, PyExc_TypeError, p, "got %s of %s; expected %s elements", what, PyUnicode_AsUTF8(g),
                  PyUnicode_AsUTF8(w));
    Py_XDECREF(g);
    Py_XDECREF(w);
    return -1;
}

/* Objects whose memory NumPy can view without a copy, other than buffers:
 * DLPack exporters (torch.Tensor, ...) and array-interface objects. */
static int exports_array(PyObject *o)
{
    return PyObject_HasAttrString(o, "__dlpack__") || PyObject_HasAttrString(o, "__array_interface__") ||
           PyObject_HasAttrString(o, "__array_struct__");
}

/* An ndarray sharing the memory of a DLPack or array-interface exporter
 * (a new reference), or NULL with an error naming the parameter. */
static PyObject *view_of_exporter(const KernelObject *k, const arc_param_desc *p, PyObject *arg)
{
    PyObject *v;
    if (PyObject_HasAttrString(arg, "__dlpack__"))
        v = arc_ndarray_from_dlpack(arg);
    else
        v = PyArray_FromAny(arg, NULL, 0, 0, 0, NULL);
    if (!v || !PyArray_Check(v)) {
        PyObject *t, *e, *tb;
        PyErr_Fetch(&t, &e, &tb);
        PyObject *why = e ? PyObject_Str(e) : NULL;
        arg_error(k, PyExc_TypeError, p, "got %s whose memory cannot be shared with NumPy: %s", tname(arg),
                  why ? PyUnicode_AsUTF8(why) : "not an array");
        Py_XDECREF(why);
        Py_XDECREF(t);
        Py_XDECREF(e);
        Py_XDECREF(tb);
        Py_XDECREF(v);
        return NULL;
    }
    char what[160];
    if (p->want && check_dtype(k, p, PyArray_DESCR((PyArrayObject *)v), exporter_text(arg, what, sizeof what)) < 0) {
        Py_DECREF(v);
        return NULL;
    }
    return v;
}

static int pack_pointer(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    if (Py_TYPE(arg) == k->dev_type || PyObject_TypeCheck(arg, k->dev_type)) {
        DeviceArrayObject *a = (DeviceArrayObject *)arg;
        if (p->want && check_dtype(k, p, (PyArray_Descr *)a->descr, "a device array") < 0)
            return -1;
        memcpy(dst, &a->ptr, sizeof a->ptr);
        arc_devicearray_mark_used(a);
        return 0;
    }
    if (PyArray_Check(arg)) {
        if (p->want && check_dtype(k, p, PyArray_DESCR((PyArrayObject *)arg), "an ndarray") < 0)
            return -1;
        return 1;
    }
    if (PyObject_CheckBuffer(arg) && !PyArray_IsScalar(arg, Generic))
        return 1;
    if (!PyArray_IsScalar(arg, Generic) && exports_array(arg))
        return 1; /* converted (sharing memory) in make_temp */
    arg_error(k, PyExc_TypeError, p, "got %s; expected a device array or ndarray (or an object exporting DLPack, "
              "the buffer protocol or the array interface, such as a CPU torch.Tensor)", tname(arg));
    return -1;
}

/* An integer argument as a Python int, refusing bool, float and others. */
static PyObject *as_int(const KernelObject *k, const arc_param_desc *p, PyObject *arg)
{
    if (PyBool_Check(arg) || is_numpy_bool(arg)) {
        arg_error(k, PyExc_TypeError, p, "got bool; expected an integer (pass int(flag) if you mean it)");
        return NULL;
    }
    if (PyLong_Check(arg))
        return Py_NewRef(arg);
    if (!PyFloat_Check(arg) && !PyArray_IsScalar(arg, Floating) && PyIndex_Check(arg))
        return PyNumber_Index(arg);
    arg_error(k, PyExc_TypeError, p, "got %s; expected an integer", tname(arg));
    return NULL;
}

static int pack_int(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    PyObject *v = as_int(k, p, arg);
    if (!v)
        return -1;
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred())
        return -1;
    int bits = (int)p->size * 8;
    long long lo = bits >= 64 ? LLONG_MIN : -(1LL << (bits - 1));
    long long hi = bits >= 64 ? LLONG_MAX : (1LL << (bits - 1)) - 1;
    if (overflow || x < lo || x > hi) {
        PyObject *r = PyObject_Repr(arg);
        arg_error(k, PyExc_ValueError, p, "= %s is out of range [%lld, %lld]", r ? PyUnicode_AsUTF8(r) : "?", lo, hi);
        Py_XDECREF(r);
        return -1;
    }
    switch (p->size) {
    case 1: { int8_t t = (int8_t)x; memcpy(dst, &t, 1); break; }
    case 2: { int16_t t = (int16_t)x; memcpy(dst, &t, 2); break; }
    case 4: { int32_t t = (int32_t)x; memcpy(dst, &t, 4); break; }
    default: memcpy(dst, &x, 8); break;
    }
    return 0;
}

static int pack_uint(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    PyObject *v = as_int(k, p, arg);
    if (!v)
        return -1;
    int bits = (int)p->size * 8;
    unsigned long long hi = bits >= 64 ? ULLONG_MAX : (1ULL << bits) - 1;
    /* Negative values and values past 64 bits raise OverflowError here. */
    unsigned long long x = PyLong_AsUnsignedLongLong(v);
    Py_DECREF(v);
    if ((x == (unsigned long long)-1 && PyErr_Occurred()) || x > hi) {
        PyErr_Clear();
        PyObject *r = PyObject_Repr(arg);
        arg_error(k, PyExc_ValueError, p, "= %s is out of range [0, %llu]", r ? PyUnicode_AsUTF8(r) : "?", hi);
        Py_XDECREF(r);
        return -1;
    }
    switch (p->size) {
    case 1: { uint8_t t = (uint8_t)x; memcpy(dst, &t, 1); break; }
    case 2: { uint16_t t = (uint16_t)x; memcpy(dst, &t, 2); break; }
    case 4: { uint32_t t = (uint32_t)x; memcpy(dst, &t, 4); break; }
    default: memcpy(dst, &x, 8); break;
    }
    return 0;
}

/* A floating argument as a C double, refusing bool, str and others. */
static int as_double(const KernelObject *k, const arc_param_desc *p, PyObject *arg, double *out)
{
    if (PyBool_Check(arg) || is_numpy_bool(arg)) {
        arg_error(k, PyExc_TypeError, p, "got bool; expected a number");
        return -1;
    }
    if (PyFloat_Check(arg)) {
        *out = PyFloat_AS_DOUBLE(arg);
        return 0;
    }
    if (PyLong_Check(arg) || PyArray_IsScalar(arg, Number)) {
        if (PyArray_IsScalar(arg, ComplexFloating)) {
            arg_error(k, PyExc_TypeError, p, "got %s; expected a real number", tname(arg));
            return -1;
        }
        *out = PyFloat_AsDouble(arg);
        if (*out == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            arg_error(k, PyExc_ValueError, p, "got %s that does not fit a double", tname(arg));
            return -1;
        }
        return 0;
    }
    arg_error(k, PyExc_TypeError, p, "got %s; expected a number", tname(arg));
    return -1;
}

static int float_overflow(const KernelObject *k, const arc_param_desc *p, double x, double max)
{
    arg_error(k, PyExc_ValueError, p, "= %g is out of range for a %u-byte float (max %g)", x, p->size * 8 / 8, max);
    return -1;
}

static int pack_float(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    double x;
    if (as_double(k, p, arg, &x) < 0)
        return -1;
    if (p->size == 8) {
        memcpy(dst, &x, 8);
        return 0;
    }
    if (p->size == 4) {
        if (isfinite(x) && fabs(x) > 3.4028234663852886e38)
            return float_overflow(k, p, x, 3.4028234663852886e38);
        float f = (float)x;
        memcpy(dst, &f, 4);
        return 0;
    }
    /* binary16 */
    if (isfinite(x) && fabs(x) >= 65520.0)
        return float_overflow(k, p, x, 65504.0);
    if (PyFloat_Pack2(x, (char *)dst, 1) < 0)
        return -1;
    return 0;
}

static int pack_bf16(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    double x;
    if (as_double(k, p, arg, &x) < 0)
        return -1;
    if (isfinite(x) && fabs(x) > 3.3895313892515355e38)
        return float_overflow(k, p, x, 3.3895313892515355e38);
    float f = (float)x;
    uint32_t u;
    memcpy(&u, &f, 4);
    uint16_t h;
    if (isnan(f))
        h = 0x7fc0;
    else
        h = (uint16_t)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16); /* round to nearest even */
    memcpy(dst, &h, 2);
    return 0;
}

static int pack_bool(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    int b;
    if (PyBool_Check(arg) || is_numpy_bool(arg)) {
        b = PyObject_IsTrue(arg);
    } else {
        arg_error(k, PyExc_TypeError, p, "got %s; expected bool", tname(arg));
        return -1;
    }
    memset(dst, 0, p->size);
    dst[0] = (unsigned char)b;
    return 0;
}

/* Raw bytes of exactly p->size from a buffer: bytes, ctypes.Structure,
 * a NumPy structured scalar or 0-d array.  1 = not a buffer. */
static int pack_raw(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    Py_buffer view;
    PyObject *tmp = NULL;
    if (PyArray_IsScalar(arg, Generic) && !PyObject_CheckBuffer(arg)) {
        tmp = PyArray_FromScalar(arg, NULL);
        if (!tmp)
            return -1;
        arg = tmp;
    }
    if (!PyObject_CheckBuffer(arg)) {
        Py_XDECREF(tmp);
        return 1;
    }
    if (PyObject_GetBuffer(arg, &view, PyBUF_C_CONTIGUOUS) < 0) {
        Py_XDECREF(tmp);
        return -1;
    }
    int rc = 0;
    if ((size_t)view.len != p->size) {
        arg_error(k, PyExc_ValueError, p, "got %s of %zd bytes; expected %u bytes", tname(arg), view.len, p->size);
        rc = -1;
    } else {
        memcpy(dst, view.buf, p->size);
    }
    PyBuffer_Release(&view);
    Py_XDECREF(tmp);
    return rc;
}

static int pack_struct(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    if (PyObject_TypeCheck(arg, k->dev_type)) {
        arg_error(k, PyExc_TypeError, p, "got a device array; this parameter is a struct passed by value "
                  "(pass bytes, a ctypes.Structure or a NumPy structured scalar)");
        return -1;
    }
    int rc = pack_raw(k, p, arg, dst);
    if (rc == 1) {
        arg_error(k, PyExc_TypeError, p, "got %s; expected bytes, a ctypes.Structure or a NumPy structured "
                  "scalar of %u bytes", tname(arg), p->size);
        return -1;
    }
    return rc;
}

/* Binaries without metadata (a real CANN backend): sizes only. */
static int pack_unknown(const KernelObject *k, const arc_param_desc *p, PyObject *arg, unsigned char *dst)
{
    if (p->size == sizeof(void *) && (PyObject_TypeCheck(arg, k->dev_type) || PyArray_Check(arg)))
        return pack_pointer(k, p, arg, dst);
    if (PyArray_IsScalar(arg, Generic) || PyBytes_Check(arg) || PyByteArray_Check(arg) ||
        PyMemoryView_Check(arg) || (PyObject_CheckBuffer(arg) && !PyArray_Check(arg))) {
        if (pack_raw(k, p, arg, dst) == 0)
            return 0;
        if (PyErr_Occurred())
            return -1;
    }
    arg_error(k, PyExc_TypeError, p,
              "got %s; the binary has no parameter types, so pass a device array or ndarray for a pointer, "
              "or a NumPy scalar or bytes of exactly %u bytes", tname(arg), p->size);
    return -1;
}

void arc_param_bind(arc_param_desc *p)
{
    switch (p->kind) {
    case ARC_PARAM_POINTER: p->pack = pack_pointer; break;
    case ARC_PARAM_INT: p->pack = p->size <= 8 ? pack_int : pack_unknown; break;
    case ARC_PARAM_UINT: p->pack = p->size <= 8 ? pack_uint : pack_unknown; break;
    case ARC_PARAM_FLOAT: p->pack = (p->size == 2 || p->size == 4 || p->size == 8) ? pack_float : pack_unknown; break;
    case ARC_PARAM_BFLOAT16: p->pack = p->size == 2 ? pack_bf16 : pack_unknown; break;
    case ARC_PARAM_BOOL: p->pack = pack_bool; break;
    case ARC_PARAM_STRUCT: p->pack = pack_struct; break;
    default: p->pack = pack_unknown; break;
    }
}

/* ---- temporaries for host arrays ---- */

typedef struct {
    const arc_param_desc *param;
    PyArrayObject *host; /* contiguous view or WRITEBACKIFCOPY copy */
    void *dev;
    size_t nbytes;
    int intent;
} temp_arg;

static int make_temp_array(const KernelObject *k, temp_arg *t, PyObject *arg, int intent, const arc_param_desc *p);

static int make_temp(const KernelObject *k, temp_arg *t, PyObject *arg, int intent)
{
    const arc_param_desc *p = t->param;
    PyObject *view = NULL;
    if (!PyArray_Check(arg) && !PyObject_CheckBuffer(arg)) {
        view = view_of_exporter(k, p, arg);
        if (!view)
            return -1;
        arg = view;
    }
    int rc = make_temp_array(k, t, arg, intent, p);
    Py_XDECREF(view); /* t->host holds what it needs */
    return rc;
}

static int make_temp_array(const KernelObject *k, temp_arg *t, PyObject *arg, int intent, const arc_param_desc *p)
{
    arc_state *st = k->st;
    int writeable_in = PyArray_Check(arg) && PyArray_ISWRITEABLE((PyArrayObject *)arg);
    if (!intent)
        intent = writeable_in ? ARC_INOUT : ARC_IN;
    if ((intent & ARC_OUT) && !writeable_in) {
        arg_error(k, PyExc_ValueError, p, "is an output, but got a read-only %s (pass a writeable ndarray, or "
                  "wrap it in ascendrtc.In() if the kernel only reads it)", tname(arg));
        return -1;
    }
    int flags = NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_NOTSWAPPED;
    if (intent & ARC_OUT)
        flags |= NPY_ARRAY_WRITEABLE | NPY_ARRAY_WRITEBACKIFCOPY;
    t->host = (PyArrayObject *)PyArray_FromAny(arg, NULL, 0, 0, flags, NULL);
    if (!t->host) {
        PyErr_Clear();
        arg_error(k, PyExc_TypeError, p, "got %s that cannot be used as a contiguous host buffer", tname(arg));
        return -1;
    }
    if (PyDataType_REFCHK(PyArray_DESCR(t->host))) {
        arg_error(k, PyExc_TypeError, p, "got an array of Python objects (dtype %s); device memory holds plain data",
                  PyArray_DESCR(t->host)->typeobj->tp_name);
        return -1;
    }
    t->intent = intent;
    t->nbytes = (size_t)PyArray_NBYTES(t->host);
    size_t req = t->nbytes ? t->nbytes : 32;
    void *hostp = PyArray_DATA(t->host);
    PyObject *poisoned = NULL;
    if (intent == ARC_OUT && t->nbytes) {
        poisoned = arc_poisoned_like(t->host);
        if (!poisoned)
            return -1;
        if (poisoned != Py_None)
            hostp = PyArray_DATA((PyArrayObject *)poisoned), intent = ARC_INOUT; /* copied in */
    }
    aclError err;
    Py_BEGIN_ALLOW_THREADS
    err = arc_acl.aclrtMalloc(&t->dev, req, ACL_MEM_MALLOC_HUGE_FIRST);
    if (err == ACL_SUCCESS && t->nbytes) {
        if (intent & ARC_IN)
            err = arc_acl.aclrtMemcpy(t->dev, req, hostp, t->nbytes, ACL_MEMCPY_HOST_TO_DEVICE);
        else
            err = arc_acl.aclrtMemset(t->dev, req, 0, t->nbytes);
    }
    Py_END_ALLOW_THREADS
    Py_XDECREF(poisoned);
    if (err != ACL_SUCCESS) {
        arc_raise(st, err, "copying a host array to the device");
        return -1;
    }
    return 0;
}

static void free_temps(temp_arg *temps, int n, int writeback)
{
    for (int i = 0; i < n; i++) {
        if (temps[i].dev)
            arc_acl.aclrtFree(temps[i].dev);
        if (temps[i].host) {
            if (writeback)
                PyArray_ResolveWritebackIfCopy(temps[i].host);
            else
                PyArray_DiscardWritebackIfCopy(temps[i].host);
            Py_DECREF(temps[i].host);
        }
    }
}

/* ---- launch ---- */

#define ARC_STACK_ARGS 512
#define ARC_MAX_TEMPS 64

PyObject *arc_kernel_launch(KernelObject *k, uint32_t block_dim, PyObject *stream, PyObject *const *args,
                            Py_ssize_t nargs, int pack_only, aclrtLaunchKernelCfg *cfg)
{
    arc_state *st = k->st;
    unsigned char stackbuf[ARC_STACK_ARGS] __attribute__((aligned(16)));
    unsigned char *buf = stackbuf;
    temp_arg temps[ARC_MAX_TEMPS];
    int ntemps = 0;
    PyObject *res = NULL;
    aclrtStream sh = NULL;
    if (nargs != k->nparams) {
        PyErr_Format(PyExc_TypeError, "%U: expected %zd argument%s, got %zd", k->signature, k->nparams,
                     k->nparams == 1 ? "" : "s", nargs);
        goto done;
    }
    if (!pack_only && block_dim == 0) {
        PyErr_Format(PyExc_ValueError, "%U: block_dim must be at least 1", k->signature);
        goto done;
    }
    if (arc_ready() < 0)
        goto done;
    if (k->args_size > ARC_STACK_ARGS) {
        buf = PyMem_Malloc(k->args_size);
        if (!buf) {
            PyErr_NoMemory();
            goto done;
        }
    }
    memset(buf, 0, k->args_size);
    for (Py_ssize_t i = 0; i < nargs; i++) {
        const arc_param_desc *p = &k->params[i];
        PyObject *arg = args[i];
        int intent = 0;
        if (Py_TYPE(arg) == st->IntentType) {
            if (p->pack != pack_pointer && !(p->kind == ARC_PARAM_OTHER && p->size == sizeof(void *))) {
                arg_error(k, PyExc_TypeError, p, "got %R; In/Out/InOut apply only to pointer parameters", arg);
                goto done;
            }
            intent = ((IntentObject *)arg)->intent;
            arg = ((IntentObject *)arg)->obj;
        } else if (k->intents) {
            intent = (int)PyLong_AsLong(PyTuple_GET_ITEM(k->intents, i));
        }
        int rc = p->pack(k, p, arg, buf + p->offset);
        if (rc < 0)
            goto done;
        if (rc == 1 && !pack_only) {
            if (ntemps == ARC_MAX_TEMPS) {
                arg_error(k, PyExc_ValueError, p, "is host array number %d; at most %d per launch (use device arrays)",
                          ntemps + 1, ARC_MAX_TEMPS);
                goto done;
            }
            temp_arg *t = &temps[ntemps++];
            memset(t, 0, sizeof *t);
            t->param = p;
            if (make_temp(k, t, arg, intent) < 0)
                goto done;
            memcpy(buf + p->offset, &t->dev, sizeof t->dev);
        }
    }
    if (pack_only) {
        res = PyBytes_FromStringAndSize((const char *)buf, (Py_ssize_t)k->args_size);
        goto done;
    }
    if (arc_stream_from_obj(st, stream, &sh) < 0)
        goto done;
    aclError err = arc_acl.aclrtLaunchKernelWithHostArgs(k->handle, block_dim, sh, cfg, buf, k->args_size, NULL, 0);
    if (err != ACL_SUCCESS) {
        arc_raise_launch(st, err, "aclrtLaunchKernelWithHostArgs");
        goto done;
    }
    if (ntemps) {
        /* Host arrays: wait for the kernel (Ctrl-C cancels it), then copy
         * outputs back. */
        err = arc_sync(sh, 0);
        if (err == (aclError)-1)
            goto done; /* KeyboardInterrupt; the temporaries are no longer in use */
        Py_BEGIN_ALLOW_THREADS
        for (int i = 0; err == ACL_SUCCESS && i < ntemps; i++)
            if ((temps[i].intent & ARC_OUT) && temps[i].nbytes)
                err = arc_acl.aclrtMemcpy(PyArray_DATA(temps[i].host), temps[i].nbytes, temps[i].dev,
                                          temps[i].nbytes, ACL_MEMCPY_DEVICE_TO_HOST);
        Py_END_ALLOW_THREADS
        if (err != ACL_SUCCESS) {
            arc_raise_launch(st, err, "kernel execution");
            free_temps(temps, ntemps, 0);
            ntemps = 0;
            goto done;
        }
        free_temps(temps, ntemps, 1);
        ntemps = 0;
    }
    res = Py_NewRef(Py_None);
done:
    if (ntemps)
        free_temps(temps, ntemps, 0);
    if (buf != stackbuf)
        PyMem_Free(buf);
    return res;
}
