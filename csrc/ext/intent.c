/* intent.c - Intent: an array argument with its direction, made by
 * ascendrtc.In/Out/InOut; argpack.c reads it when packing a launch. */
#include "arc_ext.h"

#include <string.h>
#include <structmember.h>

static PyObject *intent_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"obj", "intent", NULL};
    PyObject *obj;
    const char *how;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "Os:Intent", kwlist, &obj, &how))
        return NULL;
    int intent = strcmp(how, "in") == 0 ? ARC_IN : strcmp(how, "out") == 0 ? ARC_OUT
                                                 : strcmp(how, "inout") == 0 ? ARC_INOUT : 0;
    if (!intent)
        return PyErr_Format(PyExc_ValueError, "intent must be 'in', 'out' or 'inout', not %R",
                            PyTuple_GET_ITEM(args, 1));
    if (PyObject_TypeCheck(obj, tp))
        return PyErr_Format(PyExc_TypeError, "intent wrappers do not nest");
    IntentObject *o = (IntentObject *)tp->tp_alloc(tp, 0);
    if (!o)
        return NULL;
    o->obj = Py_NewRef(obj);
    o->intent = intent;
    return (PyObject *)o;
}

static void intent_dealloc(PyObject *op)
{
    PyTypeObject *tp = Py_TYPE(op);
    PyObject_GC_UnTrack(op);
    Py_CLEAR(((IntentObject *)op)->obj);
    tp->tp_free(op);
    Py_DECREF(tp);
}

static int intent_traverse(PyObject *op, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(op));
    Py_VISIT(((IntentObject *)op)->obj);
    return 0;
}

static PyObject *intent_repr(PyObject *op)
{
    IntentObject *o = (IntentObject *)op;
    static const char *names[] = {"", "In", "Out", "InOut"};
    return PyUnicode_FromFormat("%s(%R)", names[o->intent], o->obj);
}

static PyMemberDef intent_members[] = {
    {"obj", T_OBJECT_EX, offsetof(IntentObject, obj), READONLY, "The wrapped array."},
    {"intent", T_INT, offsetof(IntentObject, intent), READONLY, "1 = in, 2 = out, 3 = inout."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot intent_slots[] = {
    {Py_tp_doc, "Intent(obj, intent)\n--\n\nAn array argument with its direction: 'in' (copied to the device "
                "only), 'out' (copied back only), 'inout' (both).  Use ascendrtc.In/Out/InOut."},
    {Py_tp_new, intent_new},
    {Py_tp_dealloc, intent_dealloc},
    {Py_tp_traverse, intent_traverse},
    {Py_tp_repr, intent_repr},
    {Py_tp_members, intent_members},
    {0, NULL},
};

PyType_Spec intent_spec = {
    .name = "ascendrtc.Intent",
    .basicsize = sizeof(IntentObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_HAVE_GC,
    .slots = intent_slots,
};
