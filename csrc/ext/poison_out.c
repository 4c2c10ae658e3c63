/* poison_out.c - the first contents of an Out() array's device copy. */
#include "arc_ext.h"
#include "arc_numpy.h"

/* An Out() array's device copy starts as zeros, or under ASCENDRTC_POISON=1
 * as the poison pattern (ascendrtc._poison owns it). */
PyObject *arc_poisoned_like(PyArrayObject *host)
{
    PyObject *mod = PyImport_ImportModule("ascendrtc._poison");
    if (!mod)
        return NULL;
    PyObject *r = NULL, *on = PyObject_CallMethod(mod, "poisoning", NULL);
    if (on && !PyObject_IsTrue(on)) {
        r = Py_NewRef(Py_None);
    } else if (on) {
        PyObject *copy = PyArray_NewLikeArray(host, NPY_CORDER, NULL, 0);
        r = copy ? PyObject_CallMethod(mod, "poison", "O", copy) : NULL;
        Py_XDECREF(copy);
    }
    Py_XDECREF(on);
    Py_DECREF(mod);
    return r;
}
