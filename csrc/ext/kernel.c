/* kernel.c - Kernel (a function of a loaded binary, with the packing table
 * built from its parameter list) and the Launcher that kernel[block_dim] or
 * kernel[block_dim, stream] returns.  Launch goes
 * through vectorcall straight to arc_kernel_launch (argpack.c). */
#include "arc_ext.h"
#include "arc_numpy.h"

#include <string.h>
#include <structmember.h>

#include "common/meta.h"

/* ================= Kernel ================= */

static PyObject *kernel_launcher_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                            PyObject *kwnames);
static PyObject *kernel_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames);

PyObject *arc_kernel_new(arc_state *st, PyObject *mod, aclrtFuncHandle fn, PyObject *name,
                         const arc_kernel_meta *km)
{
    size_t n = 0;
    aclError err = arc_acl.aclrtFunctionGetParamCount(fn, &n);
    if (err != ACL_SUCCESS)
        return arc_raise(st, err, "aclrtFunctionGetParamCount");
    /* Metadata that disagrees with the backend's parameter list: sizes only. */
    if (km && km->nparams != n)
        km = NULL;
    KernelObject *k = (KernelObject *)st->KernelType->tp_alloc(st->KernelType, 0);
    if (!k)
        return NULL;
    k->handle = fn;
    k->module = Py_NewRef(mod);
    k->name = Py_NewRef(name);
    k->st = st;
    k->dev_type = st->DeviceArrayType;
    k->vectorcall = kernel_vectorcall;
    k->params = PyMem_Calloc(n ? n : 1, sizeof *k->params);
    if (!k->params) {
        Py_DECREF(k);
        return PyErr_NoMemory();
    }
    k->nparams = (Py_ssize_t)n;
    size_t end = 0;
    PyObject *sig = Py_NewRef(name); /* non-NULL while the parameters are read */
    for (size_t i = 0; sig && i < n; i++) {
        arc_param_desc *p = &k->params[i];
        size_t off = 0, size = 0;
        if ((err = arc_acl.aclrtFunctionGetParamInfo(fn, i, &off, &size)) != ACL_SUCCESS) {
            arc_raise(st, err, "aclrtFunctionGetParamInfo");
            goto error;
        }
        p->offset = (uint32_t)off;
        p->size = (uint32_t)size;
        if (off + size > end)
            end = off + size;
        const arc_param *mp = km ? &km->params[i] : NULL;
        p->kind = mp ? mp->kind : ARC_PARAM_OTHER;
        p->name = mp && mp->name[0] ? PyUnicode_DecodeUTF8(mp->name, strlen(mp->name), "replace")
                                    : PyUnicode_FromFormat("#%zu", i);
        p->inferred = mp && mp->type[0] && mp->elem && mp->elem[0] && meta_element_dtype(mp);
        if (p->inferred)
            p->ctype = PyUnicode_FromFormat("%s, used as __gm__ %s *", mp->type, mp->elem); /* inferred */
        else if (mp && mp->type[0])
            p->ctype = PyUnicode_DecodeUTF8(mp->type, strlen(mp->type), "replace");
        else
            p->ctype = p->kind == ARC_PARAM_OTHER ? PyUnicode_FromFormat("%zu-byte parameter", size)
                                                  : PyUnicode_FromFormat("%s%zu", meta_kind_name(p->kind), size * 8);
        if (!p->name || !p->ctype)
            goto error;
        const char *dtype = mp ? meta_element_dtype(mp) : NULL;
        if (dtype) {
            PyArray_Descr *d = NULL;
            PyObject *o = PyUnicode_FromString(dtype);
            int ok = o && PyArray_DescrConverter(o, &d);
            Py_XDECREF(o);
            if (!ok)
                goto error;
            p->want = (PyObject *)d;
        }
        if (size == 0) { /* a backend bug, not a user error */
            PyErr_Format(PyExc_ValueError, "kernel %U: parameter %zu (%U) has size 0", name, i, p->name);
            goto error;
        }
        if (size > ARC_MAX_PARAM_BYTES) {
            PyErr_Format(PyExc_ValueError,
                         "kernel %U: parameter %zu (%U, %U) is %zu bytes passed by value, more than the %u bytes "
                         "a by-value kernel parameter may have; pass it through a GM buffer instead: declare it "
                         "GM_ADDR %U (or a __gm__ pointer to the struct), put its bytes in a device array "
                         "(e.g. arc.to_device(np.frombuffer(data, np.uint8))) and read it in the kernel",
                         name, i, p->name, p->ctype, size, (unsigned)ARC_MAX_PARAM_BYTES, p->name);
            goto error;
        }
        arc_param_bind(p);
    }
    Py_CLEAR(sig);
    if (!(k->signature = arc_kernel_signature(k)))
        goto error;
    /* The argument block: what the metadata says, at least up to the last
     * parameter, rounded to 8 bytes. */
    size_t hint = km ? km->args_size : 0;
    k->simt_threads = km ? km->simt_threads : 0;
    k->args_size = hint > end ? hint : end;
    k->args_size = (k->args_size + 7) & ~(size_t)7;
    return (PyObject *)k;
error:
    Py_XDECREF(sig);
    Py_DECREF(k);
    return NULL;
}

static void kernel_dealloc(PyObject *op)
{
    KernelObject *k = (KernelObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    if (k->params) {
        for (Py_ssize_t i = 0; i < k->nparams; i++) {
            Py_XDECREF(k->params[i].name);
            Py_XDECREF(k->params[i].ctype);
            Py_XDECREF(k->params[i].want);
        }
        PyMem_Free(k->params);
    }
    Py_CLEAR(k->module);
    Py_CLEAR(k->name);
    Py_CLEAR(k->intents);
    Py_CLEAR(k->signature);
    tp->tp_free(op);
    Py_DECREF(tp);
}

static int kernel_traverse(PyObject *op, visitproc visit, void *arg)
{
    KernelObject *k = (KernelObject *)op;
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(k->module);
    return 0;
}

static PyObject *kernel_tp_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    return PyErr_Format(PyExc_TypeError, "%s cannot be created directly; use Module.get_kernel()", tp->tp_name);
}

static PyObject *make_launcher(KernelObject *k, PyObject *bd, PyObject *stream)
{
    arc_state *st = k->st;
    if (PyBool_Check(bd) || !PyIndex_Check(bd))
        return PyErr_Format(PyExc_TypeError, "%U: block_dim must be an int, not %.100s", k->signature,
                            Py_TYPE(bd)->tp_name);
    Py_ssize_t n = PyNumber_AsSsize_t(bd, NULL);
    if (n == -1 && PyErr_Occurred())
        return NULL;
    if (n < 1 || n > 65535)
        return PyErr_Format(PyExc_ValueError, "%U: block_dim must be in [1, 65535], got %zd", k->signature, n);
    if (stream && stream != Py_None && !PyObject_TypeCheck(stream, st->StreamType))
        return PyErr_Format(PyExc_TypeError, "%U: stream must be an ascendrtc.Stream or None, not %.100s",
                            k->signature, Py_TYPE(stream)->tp_name);
    LauncherObject *l = PyObject_GC_New(LauncherObject, st->LauncherType);
    if (!l)
        return NULL;
    l->kernel = (KernelObject *)Py_NewRef(k);
    l->block_dim = (uint32_t)n;
    l->simt = 0;
    l->stream = stream && stream != Py_None ? Py_NewRef(stream) : NULL;
    l->vectorcall = kernel_launcher_vectorcall;
    PyObject_GC_Track(l);
    return (PyObject *)l;
}

/* kernel[block_dim] or kernel[block_dim, stream]; SIMT kernels:
 * kernel[grid, block(, shared(, stream))] */
static PyObject *kernel_subscript(PyObject *op, PyObject *key)
{
    KernelObject *k = (KernelObject *)op;
    if (k->simt_threads) {
        LauncherObject *l = PyObject_GC_New(LauncherObject, k->st->LauncherType);
        if (!l)
            return NULL;
        l->kernel = (KernelObject *)Py_NewRef(k);
        l->stream = NULL;
        l->vectorcall = kernel_launcher_vectorcall;
        PyObject_GC_Track(l);
        if (arc_simt_subscript(k, key, l) < 0) {
            Py_DECREF(l);
            return NULL;
        }
        return (PyObject *)l;
    }
    if (PyTuple_Check(key) && (PyTuple_GET_SIZE(key) > 2 ||
                               (PyTuple_GET_SIZE(key) == 2 && (PyIndex_Check(PyTuple_GET_ITEM(key, 1)) ||
                                                               PyTuple_Check(PyTuple_GET_ITEM(key, 1))))))
        return PyErr_Format(PyExc_TypeError, "%U is a SIMD kernel: launch it as kernel[block_dim] or "
                            "kernel[block_dim, stream]; kernel[grid, block, ...] is for SIMT kernels (a bare "
                            "__global__ compiled with --enable-simt)", k->signature);
    if (PyTuple_Check(key)) {
        if (PyTuple_GET_SIZE(key) != 2)
            return PyErr_Format(PyExc_TypeError, "%U: use kernel[block_dim] or kernel[block_dim, stream]",
                                k->signature);
        return make_launcher(k, PyTuple_GET_ITEM(key, 0), PyTuple_GET_ITEM(key, 1));
    }
    return make_launcher(k, key, NULL);
}

/* tiling_key=K: the simulated NPU's launch attribute for TILING_KEY_IS(). */
static int tiling_key_attr(KernelObject *k, PyObject *v, aclrtLaunchKernelAttr *attr)
{
    if (PyBool_Check(v) || !PyLong_Check(v)) {
        PyErr_Format(PyExc_TypeError, "%U: tiling_key must be an int, not %.100s", k->signature, Py_TYPE(v)->tp_name);
        return -1;
    }
    unsigned long long key = PyLong_AsUnsignedLongLong(v);
    if (key == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%U: tiling_key must be in [0, 2**64), got %R", k->signature, v);
        return -1;
    }
    memset(attr, 0, sizeof *attr);
    attr->id = ASCENDRTC_LAUNCH_KERNEL_ATTR_TILING_KEY;
    attr->value.rsv[0] = (uint32_t)key;
    attr->value.rsv[1] = (uint32_t)(key >> 32);
    return 0;
}

/* race_check="error"|"warn"|"off": the launch's pipe race check (csrc/rt/analysis/race.c). */
static int race_check_attr(KernelObject *k, PyObject *v, aclrtLaunchKernelAttr *attr)
{
    static const char *const modes[] = {"off", "warn", "error"};
    memset(attr, 0, sizeof *attr);
    attr->id = ASCENDRTC_LAUNCH_KERNEL_ATTR_RACE_CHECK;
    for (unsigned m = 0; m < 3; m++)
        if (PyUnicode_Check(v) && PyUnicode_CompareWithASCIIString(v, modes[m]) == 0) {
            attr->value.rsv[0] = m;
            return 0;
        }
    PyErr_Format(PyExc_ValueError, "%U: race_check must be 'error', 'warn' or 'off', not %R", k->signature, v);
    return -1;
}

/* kernel(*args, block_dim=N, stream=None, tiling_key=None, race_check=None) */
static PyObject *kernel_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    KernelObject *k = (KernelObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *bd = NULL, *stream = NULL, *key = NULL, *race = NULL;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *kw = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(kw, "block_dim") == 0)
            bd = args[nargs + i];
        else if (PyUnicode_CompareWithASCIIString(kw, "stream") == 0)
            stream = args[nargs + i];
        else if (PyUnicode_CompareWithASCIIString(kw, "tiling_key") == 0)
            key = args[nargs + i];
        else if (PyUnicode_CompareWithASCIIString(kw, "race_check") == 0)
            race = args[nargs + i];
        else
            return PyErr_Format(PyExc_TypeError, "%U: unexpected keyword argument '%U' (kernel arguments are "
                                "positional; launch options are block_dim=, stream=, tiling_key= and race_check=)",
                                k->signature, kw);
    }
    aclrtLaunchKernelAttr attr[2];
    aclrtLaunchKernelCfg cfg = {attr, 0};
    if (key && key != Py_None && tiling_key_attr(k, key, &attr[cfg.numAttrs++]) < 0)
        return NULL;
    if (race && race != Py_None && race_check_attr(k, race, &attr[cfg.numAttrs++]) < 0)
        return NULL;
    if (!bd)
        return PyErr_Format(PyExc_TypeError, "%U: missing block_dim; call kernel[block_dim](...) or "
                            "kernel(..., block_dim=N)", k->signature);
    LauncherObject *l = (LauncherObject *)make_launcher(k, bd, stream);
    if (!l)
        return NULL;
    PyObject *r = arc_kernel_launch(k, l->block_dim, l->stream, args, nargs, 0, cfg.numAttrs ? &cfg : NULL);
    Py_DECREF(l);
    return r;
}

static PyObject *kernel_pack(PyObject *op, PyObject *const *args, Py_ssize_t nargs)
{
    return arc_kernel_launch((KernelObject *)op, 1, NULL, args, nargs, 1, NULL);
}

static PyObject *kernel_repr(PyObject *op)
{
    return PyUnicode_FromFormat("<ascendrtc.Kernel %U>", ((KernelObject *)op)->signature);
}

static PyMethodDef kernel_methods[] = {
    {"_pack", (PyCFunction)(void (*)(void))kernel_pack, METH_FASTCALL,
     "_pack(*args) -> bytes\n--\n\nCheck and pack arguments without launching (host arrays pack as 0)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef kernel_members[] = {
    {"name", T_OBJECT_EX, offsetof(KernelObject, name), READONLY, "The kernel's name (or name expression)."},
    {"signature", T_OBJECT_EX, offsetof(KernelObject, signature), READONLY, "name(param, ...) for messages; a pointer parameter that takes any array reads 'name: untyped'."},
    {"args_size", T_PYSSIZET, offsetof(KernelObject, args_size), READONLY, "Bytes of the argument block."},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(KernelObject, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot kernel_slots[] = {
    {Py_tp_doc, "A kernel of a loaded binary.  Launch with kernel[block_dim](*args), "
                "kernel[block_dim, stream](*args) or kernel(*args, block_dim=N, stream=None, tiling_key=None) "
                "(tiling_key: what TILING_KEY_IS() sees, simulated NPU); launches are "
                "asynchronous on the stream (host NumPy arrays are copied in, and back after the kernel "
                "finishes).  Arguments are checked against the kernel's parameters before launch."},
    {Py_tp_new, kernel_tp_new},
    {Py_tp_dealloc, kernel_dealloc},
    {Py_tp_traverse, kernel_traverse},
    {Py_tp_repr, kernel_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, kernel_methods},
    {Py_tp_getset, arc_kernel_getset},
    {Py_tp_members, kernel_members},
    {Py_mp_subscript, kernel_subscript},
    {0, NULL},
};

PyType_Spec kernel_spec = {
    .name = "ascendrtc.Kernel",
    .basicsize = sizeof(KernelObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = kernel_slots,
};

/* ================= Launcher ================= */

static PyObject *kernel_launcher_vectorcall(PyObject *callable, PyObject *const *args, size_t nargsf,
                                            PyObject *kwnames)
{
    LauncherObject *l = (LauncherObject *)callable;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf), nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    PyObject *race = NULL;
    for (Py_ssize_t i = 0; i < nkw; i++) { /* kernel[...](*args, race_check=...) */
        PyObject *kw = PyTuple_GET_ITEM(kwnames, i);
        if (PyUnicode_CompareWithASCIIString(kw, "race_check") != 0)
            return PyErr_Format(PyExc_TypeError, "%U: kernel arguments are positional; got keyword '%U' (the "
                                "launch option here is race_check=)", l->kernel->signature, kw);
        race = args[nargs + i];
    }
    aclrtLaunchKernelAttr attr[4];
    aclrtLaunchKernelCfg cfg = {attr, l->simt ? (size_t)arc_simt_attrs(l, attr) : 0};
    if (race && race != Py_None && race_check_attr(l->kernel, race, &attr[cfg.numAttrs++]) < 0)
        return NULL;
    return arc_kernel_launch(l->kernel, l->block_dim, l->stream, args, nargs, 0, cfg.numAttrs ? &cfg : NULL);
}

static void launcher_dealloc(PyObject *op)
{
    LauncherObject *l = (LauncherObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    Py_CLEAR(l->kernel);
    Py_CLEAR(l->stream);
    PyObject_GC_Del(op);
    Py_DECREF(tp);
}

static int launcher_traverse(PyObject *op, visitproc visit, void *arg)
{
    LauncherObject *l = (LauncherObject *)op;
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(l->kernel);
    Py_VISIT(l->stream);
    return 0;
}

static PyObject *launcher_tp_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    return PyErr_Format(PyExc_TypeError, "%s cannot be created directly; use kernel[block_dim]", tp->tp_name);
}

static PyObject *launcher_repr(PyObject *op)
{
    LauncherObject *l = (LauncherObject *)op;
    return PyUnicode_FromFormat("<ascendrtc launch of %U on %u blocks>", l->kernel->signature, l->block_dim);
}

static PyMemberDef launcher_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(LauncherObject, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot launcher_slots[] = {
    {Py_tp_doc, "A kernel bound to a block count (or a SIMT grid and block) and a stream; call it with the "
                "kernel's arguments, and optionally race_check='error'|'warn'|'off'."},
    {Py_tp_new, launcher_tp_new},
    {Py_tp_dealloc, launcher_dealloc},
    {Py_tp_traverse, launcher_traverse},
    {Py_tp_repr, launcher_repr},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_members, launcher_members},
    {0, NULL},
};

PyType_Spec launcher_spec = {
    .name = "ascendrtc.Launcher",
    .basicsize = sizeof(LauncherObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = launcher_slots,
};
