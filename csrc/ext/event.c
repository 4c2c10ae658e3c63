/* event.c - the Event type: an aclrtEvent, for ordering streams and timing
 * work between two recorded points. */
#include "arc_ext.h"

static PyObject *event_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, ":Event", kwlist))
        return NULL;
    if (arc_ready() < 0)
        return NULL;
    aclrtEvent h = NULL;
    aclError err = arc_acl.aclrtCreateEvent(&h);
    if (err != ACL_SUCCESS)
        return arc_raise(arc_state_of_type(tp), err, "aclrtCreateEvent");
    EventObject *e = (EventObject *)tp->tp_alloc(tp, 0);
    if (!e) {
        arc_acl.aclrtDestroyEvent(h);
        return NULL;
    }
    e->handle = h;
    return (PyObject *)e;
}

static void event_dealloc(PyObject *op)
{
    EventObject *e = (EventObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    if (e->handle && arc_bind_quiet()) {
        aclrtEvent h = e->handle;
        if (e->recorded)
            arc_sync_quiet(NULL, h); /* Ctrl-C cancels it */
        Py_BEGIN_ALLOW_THREADS
        arc_acl.aclrtDestroyEvent(h);
        Py_END_ALLOW_THREADS
    }
    tp->tp_free(op);
    Py_DECREF(tp);
}

static PyObject *event_record(PyObject *op, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"stream", NULL};
    PyObject *stream = Py_None;
    EventObject *e = (EventObject *)op;
    arc_state *st = arc_state_of_type(Py_TYPE(op));
    aclrtStream sh;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "|O:record", kwlist, &stream))
        return NULL;
    if (arc_ready() < 0 || arc_stream_from_obj(st, stream, &sh) < 0)
        return NULL;
    aclError err = arc_acl.aclrtRecordEvent(e->handle, sh);
    if (err != ACL_SUCCESS)
        return arc_raise(st, err, "aclrtRecordEvent");
    e->recorded = 1;
    Py_RETURN_NONE;
}

static PyObject *event_synchronize(PyObject *op, PyObject *unused)
{
    (void)unused;
    EventObject *e = (EventObject *)op;
    if (arc_ready() < 0)
        return NULL;
    aclError err = arc_sync_event(e->handle);
    if (err == (aclError)-1)
        return NULL; /* KeyboardInterrupt: the queued launches were cancelled */
    if (err != ACL_SUCCESS)
        return arc_raise(arc_state_of_type(Py_TYPE(op)), err, "aclrtSynchronizeEvent");
    Py_RETURN_NONE;
}

static PyObject *event_query(PyObject *op, PyObject *unused)
{
    (void)unused;
    EventObject *e = (EventObject *)op;
    if (arc_ready() < 0)
        return NULL;
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    aclError err = arc_acl.aclrtQueryEventStatus(e->handle, &status);
    if (err != ACL_SUCCESS)
        return arc_raise(arc_state_of_type(Py_TYPE(op)), err, "aclrtQueryEventStatus");
    return PyBool_FromLong(status == ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

static PyObject *event_elapsed_time(PyObject *op, PyObject *end)
{
    EventObject *e = (EventObject *)op;
    arc_state *st = arc_state_of_type(Py_TYPE(op));
    if (!PyObject_TypeCheck(end, st->EventType))
        return PyErr_Format(PyExc_TypeError, "elapsed_time() expects an Event, got %.100s",
                            Py_TYPE(end)->tp_name);
    if (!e->recorded || !((EventObject *)end)->recorded)
        return PyErr_Format(PyExc_ValueError, "elapsed_time(): %s event has not been recorded",
                            e->recorded ? "the end" : "the start");
    if (arc_ready() < 0)
        return NULL;
    float ms = 0;
    aclrtEvent a = e->handle, b = ((EventObject *)end)->handle;
    aclError err = arc_sync_event(b);
    if (err == (aclError)-1)
        return NULL; /* KeyboardInterrupt */
    if (err == ACL_SUCCESS)
        err = arc_acl.aclrtEventElapsedTime(&ms, a, b);
    if (err != ACL_SUCCESS)
        return arc_raise(st, err, "aclrtEventElapsedTime");
    if (ms < 0) /* ACL returns the negative difference; in Python that is a swapped call, not a time */
        return PyErr_Format(PyExc_ValueError,
                            "elapsed_time(): `end` was reached %.3f ms before this event; call it on the earlier "
                            "event: start.elapsed_time(end)", -(double)ms);
    return PyFloat_FromDouble(ms);
}

static PyObject *event_get_handle(PyObject *op, void *closure)
{
    (void)closure;
    return PyLong_FromVoidPtr(((EventObject *)op)->handle);
}

static PyMethodDef event_methods[] = {
    {"record", (PyCFunction)(void (*)(void))event_record, METH_VARARGS | METH_KEYWORDS,
     "record(stream=None)\n--\n\nRecord the event on a stream (the default stream when None)."},
    {"synchronize", event_synchronize, METH_NOARGS, "Wait until the work before the recorded point has finished."},
    {"query", event_query, METH_NOARGS, "True when the recorded work has finished."},
    {"elapsed_time", event_elapsed_time, METH_O,
     "elapsed_time(end) -> float\n--\n\nMilliseconds from this event to the later `end` (waits for `end`); "
     "ValueError when `end` came first."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef event_getset[] = {
    {"handle", event_get_handle, NULL, "The aclrtEvent, as an int.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot event_slots[] = {
    {Py_tp_doc, "Event()\n--\n\nA point in a stream (aclrtEvent): record(), synchronize(), query(), "
                "elapsed_time(end)."},
    {Py_tp_new, event_new},
    {Py_tp_dealloc, event_dealloc},
    {Py_tp_methods, event_methods},
    {Py_tp_getset, event_getset},
    {0, NULL},
};

PyType_Spec event_spec = {
    .name = "ascendrtc.Event",
    .basicsize = sizeof(EventObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = event_slots,
};
