/* binarymeta.c - BinaryMeta: a compiled binary's ".arc_meta" metadata as
 * Python sees it (kernel names, symbols, parameters).  The parsing is
 * common/meta.c's, the same code the runtime loads binaries with; this file
 * only presents the parsed struct, and hands it to Module.get_function
 * so kernels get their parameter kinds, names and element dtypes from it. */
#include "arc_ext.h"

#include <structmember.h>

#include "common/meta.h"

static PyStructSequence_Field param_fields[] = {
    {"offset", "Byte offset in the argument block."},
    {"size", "Bytes."},
    {"align", "Alignment in bytes."},
    {"kind", "The kind's name: one of _C.PARAM_KINDS."},
    {"name", "The spelled name, '' when unknown."},
    {"type", "The spelled C type, '' when unknown."},
    {"dtype", "For pointers to a typed element, the NumPy dtype name of the elements; else None."},
    {"elem", "For a byte pointer (GM_ADDR): the element C type inferred from the kernel's casts; '' when none."},
    {NULL, NULL},
};
static PyStructSequence_Desc param_desc = {"ascendrtc._C.ParamMeta", "One kernel parameter.", param_fields, 8};

static PyStructSequence_Field kernel_fields[] = {
    {"name", "Source name, or the name expression of a template instance."},
    {"lowered", "The kernel's symbol."},
    {"entry", "The trampoline symbol."},
    {"ktype", "KERNEL_TYPE_* value (0 = AIV only)."},
    {"args_size", "Bytes of the packed argument block."},
    {"params", "Tuple of ParamMeta."},
    {"uses", "ARC_USES_* bits: what the code uses (cube 1, vector 2, Matmul API 4); 0x100 when the source wrote the kernel type."},
    {NULL, NULL},
};
static PyStructSequence_Desc kernel_desc = {"ascendrtc._C.KernelMeta", "One kernel of a binary.", kernel_fields, 7};

/* PyModule_AddObjectRef that takes the reference (NULL: an error set). */
static int add_owned(PyObject *m, const char *name, PyObject *v)
{
    int rc = v ? PyModule_AddObjectRef(m, name, v) : -1;
    Py_XDECREF(v);
    return rc;
}

int arc_meta_types_init(PyObject *m, arc_state *st)
{
    if (!(st->ParamMetaType = PyStructSequence_NewType(&param_desc)) ||
        !(st->KernelMetaType = PyStructSequence_NewType(&kernel_desc)))
        return -1;
    PyObject *kinds = PyTuple_New(ARC_PARAM_NKINDS);
    for (uint32_t i = 0; kinds && i < ARC_PARAM_NKINDS; i++) {
        PyObject *s = PyUnicode_FromString(meta_kind_name(i));
        if (!s)
            Py_CLEAR(kinds);
        else
            PyTuple_SET_ITEM(kinds, i, s);
    }
    if (add_owned(m, "PARAM_KINDS", kinds) < 0 ||
        add_owned(m, "MAX_BINARY_BYTES", PyLong_FromUnsignedLongLong(ARC_MAX_BINARY_BYTES)) < 0 ||
        add_owned(m, "MAX_PARAM_BYTES", PyLong_FromUnsignedLong(ARC_MAX_PARAM_BYTES)) < 0)
        return -1;
    static const struct { const char *ctype, *dtype; int typed; } rows[] = {
#define ARC_SCALAR_ROW(ctype, dtype, typed) {ctype, dtype, typed},
        ARC_SCALAR_TYPES(ARC_SCALAR_ROW)
#undef ARC_SCALAR_ROW
    };
    Py_ssize_t n = (Py_ssize_t)(sizeof rows / sizeof *rows);
    PyObject *types = PyTuple_New(n);
    for (Py_ssize_t i = 0; types && i < n; i++) {
        PyObject *t = Py_BuildValue("(ssO)", rows[i].ctype, rows[i].dtype, rows[i].typed ? Py_True : Py_False);
        if (!t)
            Py_CLEAR(types);
        else
            PyTuple_SET_ITEM(types, i, t);
    }
    return add_owned(m, "SCALAR_TYPES", types);
}

static PyObject *param_tuple(arc_state *st, const arc_param *p)
{
    PyObject *t = PyStructSequence_New(st->ParamMetaType);
    if (!t)
        return NULL;
    const char *dtype = meta_element_dtype(p);
    PyObject *v[8] = {
        PyLong_FromUnsignedLong(p->offset), PyLong_FromUnsignedLong(p->size), PyLong_FromUnsignedLong(p->align),
        PyUnicode_FromString(meta_kind_name(p->kind)), PyUnicode_DecodeUTF8(p->name, strlen(p->name), "replace"),
        PyUnicode_DecodeUTF8(p->type, strlen(p->type), "replace"),
        dtype ? PyUnicode_FromString(dtype) : Py_NewRef(Py_None),
        PyUnicode_DecodeUTF8(p->elem, strlen(p->elem), "replace"),
    };
    int ok = 1;
    for (int i = 0; i < 8; i++) {
        ok &= v[i] != NULL;
        PyStructSequence_SET_ITEM(t, i, v[i] ? v[i] : Py_NewRef(Py_None));
    }
    if (!ok)
        Py_CLEAR(t);
    return t;
}

static PyObject *kernel_tuple(arc_state *st, const arc_kernel_meta *k)
{
    PyObject *params = PyTuple_New(k->nparams);
    for (uint32_t i = 0; params && i < k->nparams; i++) {
        PyObject *p = param_tuple(st, &k->params[i]);
        if (!p)
            Py_CLEAR(params);
        else
            PyTuple_SET_ITEM(params, i, p);
    }
    if (!params)
        return NULL;
    PyObject *t = PyStructSequence_New(st->KernelMetaType);
    if (!t) {
        Py_DECREF(params);
        return NULL;
    }
    PyObject *v[5] = {
        PyUnicode_DecodeUTF8(k->name, strlen(k->name), "replace"),
        PyUnicode_DecodeUTF8(k->lowered, strlen(k->lowered), "replace"),
        PyUnicode_DecodeUTF8(k->entry, strlen(k->entry), "replace"),
        PyLong_FromUnsignedLong(k->ktype), PyLong_FromUnsignedLong(k->args_size),
    };
    int ok = 1;
    for (int i = 0; i < 5; i++) {
        ok &= v[i] != NULL;
        PyStructSequence_SET_ITEM(t, i, v[i] ? v[i] : Py_NewRef(Py_None));
    }
    PyStructSequence_SET_ITEM(t, 5, params);
    PyObject *uses = PyLong_FromUnsignedLong(k->uses);
    ok &= uses != NULL;
    PyStructSequence_SET_ITEM(t, 6, uses ? uses : Py_NewRef(Py_None));
    if (!ok)
        Py_CLEAR(t);
    return t;
}

/* _C.read_meta(data) -> BinaryMeta or None (no metadata: a real CANN binary,
 * or a corrupt one, which loading reports in detail). */
PyObject *arc_read_meta(PyObject *module, PyObject *data)
{
    arc_state *st = PyModule_GetState(module);
    Py_buffer view;
    if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0)
        return NULL;
    char err[256];
    arc_meta meta;
    int rc = meta_read_binary(view.buf, (size_t)view.len, &meta, err, sizeof err);
    PyBuffer_Release(&view);
    if (rc < 0)
        Py_RETURN_NONE;
    MetaObject *m = PyObject_GC_New(MetaObject, st->BinaryMetaType);
    if (!m) {
        meta_free(&meta);
        return NULL;
    }
    m->meta = meta;
    m->kernels = PyTuple_New(meta.nkernels);
    for (uint32_t i = 0; m->kernels && i < meta.nkernels; i++) {
        PyObject *k = kernel_tuple(st, &meta.kernels[i]);
        if (!k)
            Py_CLEAR(m->kernels);
        else
            PyTuple_SET_ITEM(m->kernels, i, k);
    }
    PyObject_GC_Track(m);
    if (!m->kernels)
        Py_CLEAR(m);
    return (PyObject *)m;
}

const arc_kernel_meta *arc_meta_kernel(PyObject *meta, const char *symbol)
{
    if (!meta || meta == Py_None)
        return NULL;
    const arc_meta *m = &((MetaObject *)meta)->meta;
    for (uint32_t i = 0; i < m->nkernels; i++)
        if (strcmp(m->kernels[i].lowered, symbol) == 0)
            return &m->kernels[i];
    return NULL;
}

static void meta_dealloc(PyObject *op)
{
    MetaObject *m = (MetaObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    Py_CLEAR(m->kernels);
    meta_free(&m->meta);
    PyObject_GC_Del(op);
    Py_DECREF(tp);
}

static int meta_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(((MetaObject *)op)->kernels);
    return 0;
}

static PyObject *meta_tp_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    (void)args;
    (void)kwds;
    return PyErr_Format(PyExc_TypeError, "%s cannot be created directly; use _C.read_meta(data)", tp->tp_name);
}

static PyObject *meta_str(PyObject *op, void *c)
{
    const arc_meta *m = &((MetaObject *)op)->meta;
    const char *s = c == (void *)0 ? m->arch : c == (void *)1 ? m->target_cpu : m->options;
    return PyUnicode_DecodeUTF8(s, strlen(s), "replace");
}

/* The kernel whose source name, name expression or symbol is `name`, or None. */
static PyObject *meta_find(PyObject *op, PyObject *name)
{
    MetaObject *m = (MetaObject *)op;
    const char *s = PyUnicode_AsUTF8(name);
    if (!s)
        return NULL;
    for (uint32_t i = 0; i < m->meta.nkernels; i++)
        if (strcmp(m->meta.kernels[i].name, s) == 0 || strcmp(m->meta.kernels[i].lowered, s) == 0)
            return Py_NewRef(PyTuple_GET_ITEM(m->kernels, i));
    Py_RETURN_NONE;
}

static PyObject *meta_repr(PyObject *op)
{
    MetaObject *m = (MetaObject *)op;
    return PyUnicode_FromFormat("<ascendrtc._C.BinaryMeta %s, %u kernel(s)>", m->meta.arch, m->meta.nkernels);
}

static PyGetSetDef meta_getset[] = {
    {"arch", meta_str, NULL, "The --npu-arch the binary was built for (\"dav-2201\").", (void *)0},
    {"target_cpu", meta_str, NULL, "The host CPU the object was built for.", (void *)1},
    {"options", meta_str, NULL, "The user's compile options, space separated.", (void *)2},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef meta_members[] = {
    {"kernels", T_OBJECT_EX, offsetof(MetaObject, kernels), READONLY, "Tuple of KernelMeta."},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef meta_methods[] = {
    {"find", meta_find, METH_O,
     "find(name) -> KernelMeta or None\n--\n\nThe kernel whose source name, name expression or symbol is name."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot meta_slots[] = {
    {Py_tp_doc, "The metadata of a binary built by ascendrtc's compiler (format: csrc/common/meta.h)."},
    {Py_tp_new, meta_tp_new},
    {Py_tp_dealloc, meta_dealloc},
    {Py_tp_traverse, meta_traverse},
    {Py_tp_repr, meta_repr},
    {Py_tp_getset, meta_getset},
    {Py_tp_members, meta_members},
    {Py_tp_methods, meta_methods},
    {0, NULL},
};

PyType_Spec binarymeta_spec = {
    .name = "ascendrtc._C.BinaryMeta",
    .basicsize = sizeof(MetaObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = meta_slots,
};
