/* module_object.c - Module (ModuleObject, _C.Module): a binary loaded on
 * the device (aclrtBinHandle).  Python's ascendrtc.Module wraps it; get_function builds Kernels.
 * Unloading waits for queued launches first. */
#include "arc_ext.h"

#include <stdio.h>

static void module_dealloc(PyObject *op)
{
    ModuleObject *m = (ModuleObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    if (m->handle && arc_bind_quiet()) {
        /* Launches of its kernels may be queued: finish them first (their
         * error is raised by the next synchronize). */
        arc_device_sync_quiet(arc_state_of_type(tp));
        arc_acl.aclrtBinaryUnLoad(m->handle);
    }
    tp->tp_free(op);
    Py_DECREF(tp);
}

static PyObject *module_tp_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    return PyErr_Format(PyExc_TypeError, "%s cannot be created directly; use Binary.load()", tp->tp_name);
}

static PyObject *module_get_function(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"symbol", "name", "meta", NULL};
    const char *symbol;
    PyObject *name = NULL, *meta = Py_None;
    ModuleObject *m = (ModuleObject *)op;
    arc_state *st = arc_state_of_type(Py_TYPE(op));
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|UO:get_function", kwlist, &symbol, &name, &meta))
        return NULL;
    if (meta != Py_None && !PyObject_TypeCheck(meta, st->BinaryMetaType))
        return PyErr_Format(PyExc_TypeError, "get_function: meta must be a BinaryMeta or None, not %.100s",
                            Py_TYPE(meta)->tp_name);
    if (arc_ready() < 0)
        return NULL;
    aclrtFuncHandle fn = NULL;
    aclError err = arc_acl.aclrtBinaryGetFunction(m->handle, symbol, &fn);
    if (err != ACL_SUCCESS) {
        char api[300];
        snprintf(api, sizeof api, "aclrtBinaryGetFunction('%.200s')", symbol);
        return arc_raise(st, err, api);
    }
    PyObject *nm = name ? Py_NewRef(name) : PyUnicode_FromString(symbol);
    if (!nm)
        return NULL;
    PyObject *k = arc_kernel_new(st, op, fn, nm, arc_meta_kernel(meta, symbol));
    Py_DECREF(nm);
    return k;
}

/* _C.load_module(data): the binary loaded on the device, as a Module. */
PyObject *arc_module_load(PyObject *module, PyObject *data)
{
    arc_state *st = PyModule_GetState(module);
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    PyObject *res = NULL;
    if (arc_ready() < 0)
        goto cleanup;
    aclrtBinHandle h = NULL;
    aclError err;
    Py_BEGIN_ALLOW_THREADS
    err = arc_acl.aclrtBinaryLoadFromData(view.buf, (size_t)view.len, NULL, &h);
    Py_END_ALLOW_THREADS
    if (err != ACL_SUCCESS) {
        arc_raise(st, err, "aclrtBinaryLoadFromData");
        goto cleanup;
    }
    ModuleObject *m = PyObject_New(ModuleObject, st->ModuleType);
    if (!m) {
        arc_acl.aclrtBinaryUnLoad(h);
        goto cleanup;
    }
    m->handle = h;
    res = (PyObject *)m;
cleanup:
    PyBuffer_Release(&view);
    return res;
}

static PyMethodDef module_methods[] = {
    {"get_function", (PyCFunction)(void (*)(void))module_get_function, METH_VARARGS | METH_KEYWORDS,
     "get_function(symbol, name=None, meta=None) -> Kernel\n"
     "--\n\nLook a kernel up by symbol (aclrtBinaryGetFunction).  meta, the binary's BinaryMeta "
     "(_C.read_meta), gives each parameter's kind, name, type and element dtype; without it (or when it "
     "disagrees with the backend's parameter count) only sizes are known."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot module_slots[] = {
    {Py_tp_doc, "A binary loaded on the device (aclrtBinHandle); unloaded when the last reference goes."},
    {Py_tp_new, module_tp_new},
    {Py_tp_dealloc, module_dealloc},
    {Py_tp_methods, module_methods},
    {0, NULL},
};

PyType_Spec module_spec = {
    .name = "ascendrtc._C.Module",
    .basicsize = sizeof(ModuleObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = module_slots,
};
