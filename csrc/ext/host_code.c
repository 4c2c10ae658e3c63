/* host_code.c - HostCode (_C.HostCode): an op project's host code
 * compiled and loaded by the provider's host ORC loader (rtc/host_op.cpp, reached
 * through ARC_EXT_FUNCS like every other provider function), and the C
 * entry points it answers through (csrc/host_api/arc/host_driver.h:
 * arc_host_describe, arc_host_call, arc_host_free).  Requests are lines of
 * text, replies JSON; ascendrtc/_op_host.py reads them. */
#include "arc_ext.h"

#include <stddef.h>
#include <string.h>
#include <structmember.h>

typedef char *(*describe_fn)(void *factory);
typedef char *(*call_fn)(void *factory, const char *request);
typedef void (*free_fn)(char *reply);

typedef struct {
    PyObject_HEAD
    arc_host_op *op;
    PyObject *log; /* str: the compiler's diagnostics */
    describe_fn describe;
    call_fn call;
    free_fn free_reply;
} HostCodeObject;

/* str of a malloc'd provider string (freed here), "" for NULL. */
static PyObject *take(char *s)
{
    PyObject *r = PyUnicode_DecodeUTF8(s ? s : "", s ? (Py_ssize_t)strlen(s) : 0, "replace");
    if (s)
        arc_acl.ascendrtc_host_free_string(s);
    return r;
}

static int have_host_jit(void)
{
    if (arc_ready() < 0)
        return 0;
    if (arc_acl.ascendrtc_host_op_compile && arc_acl.ascendrtc_host_op_symbol && arc_acl.ascendrtc_host_op_free &&
        arc_acl.ascendrtc_host_free_string)
        return 1;
    PyErr_SetString(PyExc_RuntimeError, "op projects' host code runs on the simulated NPU only: this provider has "
                                        "no host-code compiler (ascendrtc_host_op_compile)");
    return 0;
}

/* The address of `name` in the loaded code, or NULL with *why set (a new
 * str) when it has none. */
static void *symbol(HostCodeObject *h, const char *name, PyObject **why)
{
    char *err = NULL;
    void *addr = arc_acl.ascendrtc_host_op_symbol(h->op, name, &err);
    *why = take(err);
    return addr;
}

static void hostcode_dealloc(PyObject *op)
{
    HostCodeObject *h = (HostCodeObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    if (h->op)
        arc_acl.ascendrtc_host_op_free(h->op); /* its static objects' destructors run */
    Py_XDECREF(h->log);
    tp->tp_free(op);
    Py_DECREF(tp);
}

/* HostCode(paths, texts, mains, options) -> compiled and loaded; raises
 * RuntimeError with clang's diagnostics as .log when it does not compile. */
static PyObject *hostcode_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"paths", "texts", "mains", "options", NULL};
    PyObject *lists[4], *seqs[4] = {NULL, NULL, NULL, NULL}, *res = NULL;
    const char **c[4] = {NULL, NULL, NULL, NULL};
    Py_ssize_t n[4];
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO:HostCode", kwlist, &lists[0], &lists[1], &lists[2],
                                     &lists[3]))
        return NULL;
    if (!have_host_jit())
        return NULL;
    for (int i = 0; i < 4; i++) {
        if (!(seqs[i] = PySequence_Fast(lists[i], "HostCode: expected sequences of str")))
            goto done;
        n[i] = PySequence_Fast_GET_SIZE(seqs[i]);
        if (n[i] > INT32_MAX || !(c[i] = PyMem_Calloc(n[i] ? (size_t)n[i] : 1, sizeof *c[i]))) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t j = 0; j < n[i]; j++)
            if (!(c[i][j] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seqs[i], j))))
                goto done;
    }
    if (n[0] != n[1]) {
        PyErr_SetString(PyExc_ValueError, "HostCode: paths and texts differ in length");
        goto done;
    }
    arc_host_op *op = NULL;
    char *log = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = arc_acl.ascendrtc_host_op_compile((int)n[0], c[0], c[1], (int)n[2], c[2], (int)n[3], c[3], &op, &log);
    Py_END_ALLOW_THREADS
    PyObject *logs = take(log);
    if (!logs) {
        if (op)
            arc_acl.ascendrtc_host_op_free(op);
        goto done;
    }
    if (rc != 0) {
        PyObject *e = PyObject_CallFunction(PyExc_RuntimeError, "s", "the op_host sources did not compile");
        if (e && PyObject_SetAttrString(e, "log", logs) == 0)
            PyErr_SetObject(PyExc_RuntimeError, e);
        Py_XDECREF(e);
        Py_DECREF(logs);
        goto done;
    }
    HostCodeObject *h = (HostCodeObject *)tp->tp_alloc(tp, 0);
    if (!h) {
        arc_acl.ascendrtc_host_op_free(op);
        Py_DECREF(logs);
        goto done;
    }
    h->op = op;
    const char *names[3] = {"arc_host_describe", "arc_host_call", "arc_host_free"};
    void *fns[3];
    for (int i = 0; i < 3; i++) {
        PyObject *why;
        fns[i] = symbol(h, names[i], &why);
        if (!fns[i]) {
            if (why)
                PyErr_Format(PyExc_RuntimeError, "the loaded host code has no symbol '%s': %U", names[i], why);
            Py_XDECREF(why);
            Py_DECREF(h);
            Py_DECREF(logs);
            goto done;
        }
        Py_XDECREF(why);
    }
    h->describe = (describe_fn)fns[0];
    h->call = (call_fn)fns[1];
    h->free_reply = (free_fn)fns[2];
    h->log = logs;
    res = (PyObject *)h;
done:
    for (int i = 0; i < 4; i++) {
        PyMem_Free(c[i]);
        Py_XDECREF(seqs[i]);
    }
    return res;
}

/* factory(op_type) -> the address of OP_ADD(op_type)'s factory, or None. */
static PyObject *hostcode_factory(PyObject *op, PyObject *op_type)
{
    HostCodeObject *h = (HostCodeObject *)op;
    if (!PyUnicode_Check(op_type))
        return PyErr_Format(PyExc_TypeError, "factory: op_type must be str, not %.100s", Py_TYPE(op_type)->tp_name);
    PyObject *name = PyUnicode_FromFormat("arc_op_new_%U", op_type);
    if (!name)
        return NULL;
    PyObject *why = NULL;
    void *addr = symbol(h, PyUnicode_AsUTF8(name), &why);
    Py_DECREF(name);
    Py_XDECREF(why);
    return addr ? PyLong_FromVoidPtr(addr) : Py_NewRef(Py_None);
}

/* The reply of the driver for `factory`, as str (the driver's malloc'd
 * reply freed through its arc_host_free). */
static PyObject *reply(HostCodeObject *h, PyObject *factory, const char *request)
{
    void *f = PyLong_AsVoidPtr(factory);
    if (!f) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a null op factory");
        return NULL;
    }
    char *r;
    Py_BEGIN_ALLOW_THREADS
    r = request ? h->call(f, request) : h->describe(f);
    Py_END_ALLOW_THREADS
    PyObject *s = PyUnicode_DecodeUTF8(r ? r : "", r ? (Py_ssize_t)strlen(r) : 0, "replace");
    if (r)
        h->free_reply(r);
    return s;
}

static PyObject *hostcode_describe(PyObject *op, PyObject *factory)
{
    return reply((HostCodeObject *)op, factory, NULL);
}

static PyObject *hostcode_call(PyObject *op, PyObject *args)
{
    PyObject *factory;
    const char *request;
    if (!PyArg_ParseTuple(args, "Os:call", &factory, &request))
        return NULL;
    return reply((HostCodeObject *)op, factory, request);
}

static PyMethodDef hostcode_methods[] = {
    {"factory", hostcode_factory, METH_O,
     "factory(op_type) -> int or None\n--\n\nThe address of OP_ADD(op_type)'s factory in the loaded code."},
    {"describe", hostcode_describe, METH_O,
     "describe(factory) -> str\n--\n\nThe op definition, as JSON (arc_host_describe)."},
    {"call", hostcode_call, METH_VARARGS,
     "call(factory, request) -> str\n--\n\nOne request ('mode infer', 'mode tiling', ...), answered as JSON "
     "(arc_host_call)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef hostcode_members[] = {
    {"log", T_OBJECT_EX, offsetof(HostCodeObject, log), READONLY, "The compiler's diagnostics."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot hostcode_slots[] = {
    {Py_tp_doc, "An op project's host code, compiled and loaded in this process; unloaded when the last reference "
                "goes.  .log holds the compiler's diagnostics."},
    {Py_tp_new, hostcode_new},
    {Py_tp_dealloc, hostcode_dealloc},
    {Py_tp_methods, hostcode_methods},
    {Py_tp_members, hostcode_members},
    {0, NULL},
};

PyType_Spec hostcode_spec = {
    .name = "ascendrtc._C.HostCode",
    .basicsize = sizeof(HostCodeObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = hostcode_slots,
};
