/* loadedbinary.c - LoadedBinary: a binary loaded on the device
 * (aclrtBinHandle).  Python's Module wraps it; get_function builds Kernels.
 * Unloading waits for queued launches first. */
#include "arc_ext.h"

#include <stdio.h>

static void module_dealloc(PyObject *op)
{
    ModuleObject *m = (ModuleObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    if (m->handle && arc_bind_quiet()) {
        /* Launches of its kernels may be queued: finish them first. */
        PyObject *t, *v, *tb;
        PyErr_Fetch(&t, &v, &tb);
        if (arc_device_sync(arc_state_global()) < 0)
            PyErr_WriteUnraisable(op);
        PyErr_Restore(t, v, tb);
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
    static char *kwlist[] = {"symbol", "name", "kinds", "names", "types", "args_size", "dtypes", NULL};
    const char *symbol;
    PyObject *name = NULL, *kinds = Py_None, *names = Py_None, *types = Py_None, *dtypes = Py_None;
    Py_ssize_t args_size = 0;
    ModuleObject *m = (ModuleObject *)op;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "s|UOOOnO:get_function", kwlist, &symbol, &name, &kinds, &names,
                                     &types, &args_size, &dtypes))
        return NULL;
    if (arc_ready() < 0)
        return NULL;
    aclrtFuncHandle fn = NULL;
    aclError err = arc_acl.aclrtBinaryGetFunction(m->handle, symbol, &fn);
    if (err != ACL_SUCCESS) {
        char api[300];
        snprintf(api, sizeof api, "aclrtBinaryGetFunction('%.200s')", symbol);
        return arc_raise(arc_state_global(), err, api);
    }
    PyObject *nm = name ? Py_NewRef(name) : PyUnicode_FromString(symbol);
    if (!nm)
        return NULL;
    PyObject *k = arc_kernel_new(arc_state_global(), op, fn, nm, kinds, names, types, dtypes, (size_t)args_size);
    Py_DECREF(nm);
    return k;
}

static PyMethodDef module_methods[] = {
    {"get_function", (PyCFunction)(void (*)(void))module_get_function, METH_VARARGS | METH_KEYWORDS,
     "get_function(symbol, name=None, kinds=None, names=None, types=None, args_size=0, dtypes=None) -> Kernel\n"
     "--\n\nLook a kernel up by symbol (aclrtBinaryGetFunction).  kinds/names/types describe each parameter "
     "(from the binary's metadata; without them only sizes are known); dtypes gives the NumPy dtype a "
     "pointer parameter's elements have, or None."},
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
    .name = "ascendrtc._C.LoadedBinary",
    .basicsize = sizeof(ModuleObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = module_slots,
};
