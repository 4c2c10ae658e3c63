/* kernel_params.c - what a Kernel says of its parameters (params,
 * param_types, its signature) and the two views a caller may restate:
 * dtypes (element type per pointer) and intents (direction of host arrays). */
#include "arc_ext.h"
#include "arc_numpy.h"

#include <string.h>

#include "common/meta.h"

/* "name(x, y, raw: untyped, n)": a pointer whose element type is unknown
 * (a GM_ADDR the kernel never casts to one type) takes any array; says so. */
PyObject *arc_kernel_signature(KernelObject *k)
{
    PyObject *sig = PyUnicode_FromFormat("%U(", k->name);
    for (Py_ssize_t i = 0; sig && i < k->nparams; i++) {
        arc_param_desc *p = &k->params[i];
        int untyped = p->kind == ARC_PARAM_POINTER && !p->want;
        Py_SETREF(sig, PyUnicode_FromFormat("%U%s%U%s", sig, i ? ", " : "", p->name, untyped ? ": untyped" : ""));
    }
    if (sig)
        Py_SETREF(sig, PyUnicode_FromFormat("%U)", sig));
    return sig;
}

static PyObject *kernel_get_params(PyObject *op, void *c)
{
    (void)c;
    KernelObject *k = (KernelObject *)op;
    PyObject *l = PyList_New(k->nparams);
    if (!l)
        return NULL;
    for (Py_ssize_t i = 0; i < k->nparams; i++) {
        arc_param_desc *p = &k->params[i];
        PyObject *t = Py_BuildValue("(OsII)", p->name, meta_kind_name(p->kind), p->size, p->offset);
        if (!t) {
            Py_DECREF(l);
            return NULL;
        }
        PyList_SET_ITEM(l, i, t);
    }
    return l;
}

static PyObject *kernel_get_types(PyObject *op, void *c)
{
    (void)c;
    KernelObject *k = (KernelObject *)op;
    PyObject *t = PyTuple_New(k->nparams);
    for (Py_ssize_t i = 0; t && i < k->nparams; i++)
        PyTuple_SET_ITEM(t, i, Py_NewRef(k->params[i].ctype));
    return t;
}

static PyObject *kernel_get_intents(PyObject *op, void *c)
{
    (void)c;
    KernelObject *k = (KernelObject *)op;
    static const char *names[] = {"default", "in", "out", "inout"};
    PyObject *d = PyDict_New();
    for (Py_ssize_t i = 0; d && k->intents && i < k->nparams; i++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(k->intents, i));
        if (v > 0) {
            PyObject *s = PyUnicode_FromString(names[v]);
            if (!s || PyDict_SetItem(d, k->params[i].name, s) < 0) {
                Py_XDECREF(s);
                Py_CLEAR(d);
                break;
            }
            Py_DECREF(s);
        }
    }
    return d;
}

/* kernel.intents = {"z": "out", "x": "in"} (names or indices) */
static PyObject *kernel_get_dtypes(PyObject *op, void *c)
{
    (void)c;
    KernelObject *k = (KernelObject *)op;
    PyObject *d = PyDict_New();
    for (Py_ssize_t i = 0; d && i < k->nparams; i++) {
        arc_param_desc *p = &k->params[i];
        if (p->kind != ARC_PARAM_POINTER)
            continue;
        if (PyDict_SetItem(d, p->name, p->want ? p->want : Py_None) < 0)
            Py_CLEAR(d);
    }
    return d;
}

/* kernel.dtypes = {name: dtype or None}: the element dtype arrays passed for
 * those pointer parameters must have (None: any); the signature follows. */
/* The index of the parameter named key (a str), or -1. */
static Py_ssize_t param_index(KernelObject *k, PyObject *key)
{
    Py_ssize_t idx = -1;
    for (Py_ssize_t i = 0; i < k->nparams; i++)
        if (PyUnicode_Check(key) && PyUnicode_Compare(key, k->params[i].name) == 0)
            idx = i;
    return idx;
}

static int kernel_set_dtypes(PyObject *op, PyObject *value, void *c)
{
    (void)c;
    KernelObject *k = (KernelObject *)op;
    if (!value || !PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "dtypes must be a dict mapping pointer parameter names to dtypes (or None)");
        return -1;
    }
    PyObject **want = PyMem_Calloc(k->nparams ? (size_t)k->nparams : 1, sizeof *want);
    if (!want) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < k->nparams; i++)
        want[i] = Py_XNewRef(k->params[i].want);
    Py_ssize_t pos = 0;
    PyObject *key, *val;
    while (PyDict_Next(value, &pos, &key, &val)) {
        Py_ssize_t idx = param_index(k, key);
        if (idx < 0) {
            PyErr_Format(PyExc_ValueError, "dtypes: %U has no parameter %R", k->signature, key);
            goto error;
        }
        if (k->params[idx].kind != ARC_PARAM_POINTER) {
            PyErr_Format(PyExc_ValueError, "dtypes: parameter '%U' of %U is not a pointer", k->params[idx].name,
                         k->signature);
            goto error;
        }
        PyArray_Descr *d = NULL;
        if (val != Py_None && !PyArray_DescrConverter(val, &d))
            goto error;
        Py_XSETREF(want[idx], (PyObject *)d);
    }
    for (Py_ssize_t i = 0; i < k->nparams; i++)
        Py_XSETREF(k->params[i].want, want[i]);
    PyMem_Free(want);
    pos = 0; /* a stated dtype is checked strictly */
    while (PyDict_Next(value, &pos, &key, &val))
        k->params[param_index(k, key)].inferred = 0; /* every key named a parameter above */
    PyObject *sig = arc_kernel_signature(k);
    if (!sig)
        return -1;
    Py_SETREF(k->signature, sig);
    return 0;
error:
    for (Py_ssize_t i = 0; i < k->nparams; i++)
        Py_XDECREF(want[i]);
    PyMem_Free(want);
    return -1;
}

static int kernel_set_intents(PyObject *op, PyObject *value, void *c)
{
    (void)c;
    KernelObject *k = (KernelObject *)op;
    if (!value || value == Py_None) {
        Py_CLEAR(k->intents);
        return 0;
    }
    if (!PyDict_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "intents must be a dict mapping parameter names to 'in', 'out' or 'inout'");
        return -1;
    }
    PyObject *t = PyTuple_New(k->nparams);
    if (!t)
        return -1;
    for (Py_ssize_t i = 0; i < k->nparams; i++)
        PyTuple_SET_ITEM(t, i, PyLong_FromLong(0));
    Py_ssize_t pos = 0;
    PyObject *key, *val;
    while (PyDict_Next(value, &pos, &key, &val)) {
        Py_ssize_t idx = param_index(k, key);
        if (idx < 0 && PyLong_Check(key)) {
            idx = PyLong_AsSsize_t(key);
            if (idx < 0 || idx >= k->nparams)
                idx = -1;
        }
        if (idx < 0) {
            PyErr_Format(PyExc_ValueError, "%U has no parameter %R", k->signature, key);
            goto error;
        }
        if (k->params[idx].pack == NULL || (k->params[idx].kind != ARC_PARAM_POINTER &&
                                            !(k->params[idx].kind == ARC_PARAM_OTHER && k->params[idx].size == 8))) {
            PyErr_Format(PyExc_ValueError, "%U: parameter '%U' is not a pointer; intents apply to pointers",
                         k->signature, k->params[idx].name);
            goto error;
        }
        const char *s = PyUnicode_Check(val) ? PyUnicode_AsUTF8(val) : NULL;
        int v = !s ? 0 : strcmp(s, "in") == 0 ? ARC_IN : strcmp(s, "out") == 0 ? ARC_OUT
                         : strcmp(s, "inout") == 0 ? ARC_INOUT : 0;
        if (!v) {
            PyErr_Format(PyExc_ValueError, "intent for %R must be 'in', 'out' or 'inout', not %R", key, val);
            goto error;
        }
        PyObject *old = PyTuple_GET_ITEM(t, idx);
        PyTuple_SET_ITEM(t, idx, PyLong_FromLong(v));
        Py_DECREF(old);
    }
    Py_XSETREF(k->intents, t);
    return 0;
error:
    Py_DECREF(t);
    return -1;
}

PyGetSetDef arc_kernel_getset[] = {
    {"params", kernel_get_params, NULL, "List of (name, kind, size, offset) per parameter.", NULL},
    {"param_types", kernel_get_types, NULL, "The spelled C type of each parameter, where known.", NULL},
    {"dtypes", kernel_get_dtypes, kernel_set_dtypes,
     "Element dtype per pointer parameter, {name: numpy.dtype or None (any array)}: from the parameter's type, "
     "or for GM_ADDR from the kernel's casts; assign a dict to state them.", NULL},
    {"intents", kernel_get_intents, kernel_set_intents,
     "Default direction of NumPy arrays per pointer parameter: {name: 'in'|'out'|'inout'}.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* Whether a byte pointer (GM_ADDR) whose element type was inferred from
 * the kernel's casts takes `got` besides that type: raw bytes (uint8/int8/
 * bool, GM_ADDR's own type: tiling blobs, and a DT_BOOL output that the
 * kernel writes through an int8_t * cast) and integers of the same size (a
 * tiling of int32 words read through a uint32_t * cast holds the same bits). */
int arc_raw_enough(PyArray_Descr *got, PyArray_Descr *want)
{
    int gi = got->kind == 'i' || got->kind == 'u', wi = want->kind == 'i' || want->kind == 'u';
    int gbytes = (gi || got->kind == 'b') && PyDataType_ELSIZE(got) == 1;
    return gbytes || (gi && wi && PyDataType_ELSIZE(got) == PyDataType_ELSIZE(want));
}

/* _C.takes_inferred(got, want): whether a GM_ADDR parameter whose element
 * type the kernel's casts make `want` takes arrays of `got` (the op path asks
 * before stating an op definition's dtype on the kernel). */
PyObject *arc_takes_inferred(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "takes_inferred(got, want) takes two dtypes");
        return NULL;
    }
    PyArray_Descr *got = NULL, *want = NULL;
    if (!PyArray_DescrConverter(args[0], &got) || !PyArray_DescrConverter(args[1], &want)) {
        Py_XDECREF(got);
        return NULL;
    }
    int ok = (got->kind == want->kind && PyDataType_ELSIZE(got) == PyDataType_ELSIZE(want)) || arc_raw_enough(got, want);
    Py_DECREF(got);
    Py_DECREF(want);
    return PyBool_FromLong(ok);
}
