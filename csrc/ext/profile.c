/* profile.c - _C.profile / _C.profile_take: the doors to the simulated
 * NPU's cost model (rt/analysis/cost.c), which ascendrtc/profile.py wraps. */
#include "arc_ext.h"

/* _C.profile(on, soc=None) -> previous state, or None without a cost model. */
PyObject *arc_profile(PyObject *module, PyObject *args)
{
    (void)module;
    int on;
    const char *soc = NULL;
    if (!PyArg_ParseTuple(args, "p|z:profile", &on, &soc))
        return NULL;
    if (arc_ready() < 0)
        return NULL;
    if (!arc_acl.ascendrtc_profile)
        Py_RETURN_NONE;
    int was = arc_acl.ascendrtc_profile(on, soc);
    if (was < 0)
        return PyErr_Format(PyExc_ValueError, "profile: soc=%R is not a SoC the cost model knows (%s)", PyTuple_GET_ITEM(args, 1),
                            arc_acl.ascendrtc_profile_socs ? arc_acl.ascendrtc_profile_socs() : "?");
    return PyBool_FromLong(was);
}

/* _C.profile_take() -> JSON text of the launches priced since the last take. */
PyObject *arc_profile_take(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    if (arc_ready() < 0)
        return NULL;
    if (!arc_acl.ascendrtc_profile_take)
        return PyUnicode_FromString("[]");
    const char *s = arc_acl.ascendrtc_profile_take();
    if (!s)
        return PyErr_NoMemory();
    return PyUnicode_FromString(s);
}
