/* stream.c - the Stream type: an aclrtStream.  Work on one stream runs in
 * order; launches and copies return before the work is done. */
#include "arc_ext.h"

static PyObject *stream_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, ":Stream", kwlist))
        return NULL;
    if (arc_ready() < 0)
        return NULL;
    aclrtStream h = NULL;
    aclError err = arc_acl.aclrtCreateStream(&h);
    if (err != ACL_SUCCESS)
        return arc_raise(arc_state_of_type(tp), err, "aclrtCreateStream");
    StreamObject *s = (StreamObject *)tp->tp_alloc(tp, 0);
    if (!s) {
        arc_acl.aclrtDestroyStream(h);
        return NULL;
    }
    s->handle = h;
    return (PyObject *)s;
}

static void stream_dealloc(PyObject *op)
{
    StreamObject *s = (StreamObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    if (s->handle && arc_bind_quiet()) {
        /* Let queued work finish before the stream goes away. */
        aclrtStream h = s->handle;
        arc_sync_quiet(h, NULL); /* Ctrl-C cancels it */
        Py_BEGIN_ALLOW_THREADS
        arc_acl.aclrtDestroyStream(h);
        Py_END_ALLOW_THREADS
    }
    tp->tp_free(op);
    Py_DECREF(tp);
}

static PyObject *stream_synchronize(PyObject *op, PyObject *unused)
{
    (void)unused;
    StreamObject *s = (StreamObject *)op;
    if (arc_ready() < 0)
        return NULL;
    aclError err = arc_sync(s->handle, 0);
    if (err == (aclError)-1)
        return NULL; /* KeyboardInterrupt: the stream's launches were cancelled */
    if (err != ACL_SUCCESS)
        return arc_raise(arc_state_of_type(Py_TYPE(op)), err, "aclrtSynchronizeStream");
    Py_RETURN_NONE;
}

static PyObject *stream_wait_event(PyObject *op, PyObject *ev)
{
    StreamObject *s = (StreamObject *)op;
    arc_state *st = arc_state_of_type(Py_TYPE(op));
    if (!PyObject_TypeCheck(ev, st->EventType))
        return PyErr_Format(PyExc_TypeError, "wait_event() expects an Event, got %.100s", Py_TYPE(ev)->tp_name);
    if (arc_ready() < 0)
        return NULL;
    aclError err = arc_acl.aclrtStreamWaitEvent(s->handle, ((EventObject *)ev)->handle);
    if (err != ACL_SUCCESS)
        return arc_raise(st, err, "aclrtStreamWaitEvent");
    Py_RETURN_NONE;
}

static PyObject *stream_get_handle(PyObject *op, void *closure)
{
    (void)closure;
    return PyLong_FromVoidPtr(((StreamObject *)op)->handle);
}

static PyObject *stream_repr(PyObject *op)
{
    StreamObject *s = (StreamObject *)op;
    return PyUnicode_FromFormat("<ascendrtc.Stream%s %p>", s->is_default ? " (default)" : "", s->handle);
}

/* `with stream:` makes it this thread's current stream (CuPy's semantics):
 * the entered streams are a stack in the thread state's dict; the depth
 * counter keeps launches outside any `with` from looking it up. */
static _Thread_local int entered_depth;
#define STACK_KEY "ascendrtc.current_streams"

static PyObject *entered_stack(int create) /* borrowed */
{
    PyObject *d = PyThreadState_GetDict();
    PyObject *l = d ? PyDict_GetItemString(d, STACK_KEY) : NULL;
    if (!l && d && create) {
        if (!(l = PyList_New(0)) || PyDict_SetItemString(d, STACK_KEY, l) < 0) {
            Py_XDECREF(l);
            return NULL;
        }
        Py_DECREF(l);
    }
    return l;
}

static PyObject *current_entered(void) /* borrowed, or NULL */
{
    PyObject *l = entered_depth > 0 ? entered_stack(0) : NULL;
    return l && PyList_GET_SIZE(l) > 0 ? PyList_GET_ITEM(l, PyList_GET_SIZE(l) - 1) : NULL;
}

static PyObject *stream_enter(PyObject *op, PyObject *unused)
{
    (void)unused;
    PyObject *l = entered_stack(1);
    if (!l || PyList_Append(l, op) < 0)
        return NULL;
    entered_depth++;
    return Py_NewRef(op);
}

static PyObject *stream_exit(PyObject *op, PyObject *args)
{
    (void)args;
    PyObject *l = entered_stack(0);
    Py_ssize_t n = l ? PyList_GET_SIZE(l) : 0;
    if (n > 0 && PyList_GET_ITEM(l, n - 1) == op) {
        if (PyList_SetSlice(l, n - 1, n, NULL) < 0)
            return NULL;
        entered_depth--;
    }
    Py_RETURN_FALSE;
}

PyObject *arc_current_stream(arc_state *st)
{
    PyObject *cur = current_entered();
    return cur ? Py_NewRef(cur) : arc_default_stream(st);
}

int arc_stream_from_obj(arc_state *st, PyObject *obj, aclrtStream *out)
{
    if ((obj == NULL || obj == Py_None) && (obj = current_entered()) != NULL) {
        *out = ((StreamObject *)obj)->handle;
        return 0;
    }
    if (obj == NULL || obj == Py_None) {
        if (!st->default_stream) {
            PyObject *d = arc_default_stream(st);
            if (!d)
                return -1;
            Py_DECREF(d);
        }
        *out = ((StreamObject *)st->default_stream)->handle;
        return 0;
    }
    if (!PyObject_TypeCheck(obj, st->StreamType)) {
        PyErr_Format(PyExc_TypeError, "stream must be an ascendrtc.Stream or None, not %.100s",
                     Py_TYPE(obj)->tp_name);
        return -1;
    }
    *out = ((StreamObject *)obj)->handle;
    return 0;
}

PyObject *arc_default_stream(arc_state *st)
{
    if (!st->default_stream) {
        PyObject *s = PyObject_CallNoArgs((PyObject *)st->StreamType);
        if (!s)
            return NULL;
        ((StreamObject *)s)->is_default = 1;
        if (!st->default_stream)
            st->default_stream = s;
        else
            Py_DECREF(s);
    }
    return Py_NewRef(st->default_stream);
}

static PyMethodDef stream_methods[] = {
    {"synchronize", stream_synchronize, METH_NOARGS, "Wait until all work queued on this stream has finished."},
    {"wait_event", stream_wait_event, METH_O,
     "Make later work on this stream wait until the event's recorded work has finished."},
    {"__enter__", stream_enter, METH_NOARGS,
     "`with stream:` makes it this thread's current stream: launches and events given no stream use it."},
    {"__exit__", stream_exit, METH_VARARGS, "Restore the stream that was current before the `with`."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef stream_getset[] = {
    {"handle", stream_get_handle, NULL, "The aclrtStream, as an int.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot stream_slots[] = {
    {Py_tp_doc, "Stream()\n--\n\nAn ordered queue of device work (aclrtStream). Launches and copies on it "
                "are asynchronous; synchronize() waits for them."},
    {Py_tp_new, stream_new},
    {Py_tp_dealloc, stream_dealloc},
    {Py_tp_repr, stream_repr},
    {Py_tp_methods, stream_methods},
    {Py_tp_getset, stream_getset},
    {0, NULL},
};

PyType_Spec stream_spec = {
    .name = "ascendrtc.Stream",
    .basicsize = sizeof(StreamObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = stream_slots,
};
