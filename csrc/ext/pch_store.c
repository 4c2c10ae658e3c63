/* pch_store.c - the compiler's precompiled device API kept by the compile
 * cache: the hooks of common/exports.h ascendrtc_pch_store, answered by
 * ascendrtc.cache._pch_load/_pch_save, so that one owner applies every
 * cache mode, the directory policy, the size cap and the CLI to PCH
 * entries too.  The compiler calls them from a compile, which runs with
 * the GIL released; they take it. */
#include "arc_ext.h"

#if PY_VERSION_HEX >= 0x030D0000
#define finalizing() Py_IsFinalizing()
#else
#define finalizing() _Py_IsFinalizing()
#endif

/* ascendrtc.cache.<name>(key, *more): a new reference, or NULL with the
 * error reported (a cache that fails means: build in memory). */
static PyObject *call_cache(const char *name, const char *key, PyObject *more)
{
    PyObject *mod = PyImport_ImportModule("ascendrtc.cache");
    PyObject *res = NULL;
    if (mod) {
        res = more ? PyObject_CallMethod(mod, name, "sO", key, more) : PyObject_CallMethod(mod, name, "s", key);
        Py_DECREF(mod);
    }
    if (!res)
        PyErr_WriteUnraisable(NULL);
    return res;
}

static int pch_load(const char *key, void (*put)(void *, const void *, size_t), void *put_ctx)
{
    if (finalizing())
        return 0;
    PyGILState_STATE g = PyGILState_Ensure();
    int got = 0;
    PyObject *r = call_cache("_pch_load", key, NULL);
    if (r && PyBytes_Check(r)) {
        put(put_ctx, PyBytes_AS_STRING(r), (size_t)PyBytes_GET_SIZE(r));
        got = 1;
    }
    Py_XDECREF(r);
    PyGILState_Release(g);
    return got;
}

static void pch_save(const char *key, const void *data, size_t len)
{
    if (finalizing())
        return;
    PyGILState_STATE g = PyGILState_Ensure();
    PyObject *b = PyBytes_FromStringAndSize(data, (Py_ssize_t)len);
    if (b) {
        Py_XDECREF(call_cache("_pch_save", key, b));
        Py_DECREF(b);
    } else {
        PyErr_WriteUnraisable(NULL);
    }
    PyGILState_Release(g);
}

const ascendrtc_pch_store arc_pch_store = {pch_load, pch_save};
