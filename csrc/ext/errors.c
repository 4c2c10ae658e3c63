/* errors.c - ACL error codes to Python exceptions.  Every failure of an
 * ACL call reaches Python through arc_raise, as the exception the error
 * table (include/acl/acl_error_table.h) names for the code, with .code and
 * .name and the backend's detail message. */
#include "arc_ext.h"

#include <stdarg.h>
#include <string.h>

enum arc_exc { ARC_EXC_ACL, ARC_EXC_LAUNCH };

/* Generated from include/acl/acl_error_table.h, the one list of codes. */
static const struct {
    int code;
    const char *name, *message;
    enum arc_exc exc;
} err_table[] = {
#define ARC_ERROR_ROW(name, value, exc, msg) {value, #name, msg, ARC_EXC_##exc},
    ARC_ALL_ACL_ERRORS(ARC_ERROR_ROW)
#undef ARC_ERROR_ROW
};
#define N_ERRORS (sizeof err_table / sizeof err_table[0])

static int err_index(aclError err)
{
    for (size_t i = 0; i < N_ERRORS; i++)
        if (err_table[i].code == err)
            return (int)i;
    return -1;
}

const char *arc_err_name(aclError err)
{
    int i = err_index(err);
    return i < 0 ? "ACL_ERROR_UNKNOWN" : err_table[i].name;
}

/* The exception class the table names for a code (AclError when unknown). */
static PyObject *exc_of(arc_state *st, int i)
{
    return i >= 0 && err_table[i].exc == ARC_EXC_LAUNCH ? st->LaunchError : st->AclError;
}

PyObject *arc_error_table(arc_state *st)
{
    PyObject *t = PyTuple_New((Py_ssize_t)N_ERRORS);
    for (size_t i = 0; t && i < N_ERRORS; i++) {
        PyObject *row = Py_BuildValue("(isOs)", err_table[i].code, err_table[i].name, exc_of(st, (int)i),
                                      err_table[i].message);
        if (!row)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, (Py_ssize_t)i, row);
    }
    return t;
}

/* _C.error_name(code) -> str */
PyObject *arc_error_name_py(PyObject *module, PyObject *code)
{
    (void)module;
    long c = PyLong_AsLong(code);
    if (c == -1 && PyErr_Occurred())
        return NULL;
    return PyUnicode_FromString(arc_err_name((aclError)c));
}

static PyObject *raise_as(PyObject *exc, aclError err, const char *api)
{
    const char *detail = arc_loaded && arc_acl.aclGetRecentErrMsg ? arc_acl.aclGetRecentErrMsg() : NULL;
    int i = err_index(err);
    const char *name = arc_err_name(err);
    PyObject *msg;
    size_t alen = strlen(api);
    if (detail && strncmp(detail, api, alen) == 0 && detail[alen] == ':')
        msg = PyUnicode_FromFormat("%s (%d): %s", name, err, detail); /* the detail names the call already */
    else if (detail && detail[0])
        msg = PyUnicode_FromFormat("%s (%d): %s: %s", name, err, api, detail);
    else if (i >= 0) /* a backend that says nothing more: the table's summary */
        msg = PyUnicode_FromFormat("%s (%d): %s failed: %s", name, err, api, err_table[i].message);
    else
        msg = PyUnicode_FromFormat("%s (%d): %s failed", name, err, api);
    if (!msg)
        return NULL;
    PyObject *e = PyObject_CallOneArg(exc, msg);
    Py_DECREF(msg);
    if (!e)
        return NULL;
    PyObject *pycode = PyLong_FromLong(err), *pyname = PyUnicode_FromString(name);
    if (pycode && pyname && PyObject_SetAttrString(e, "code", pycode) == 0 &&
        PyObject_SetAttrString(e, "name", pyname) == 0)
        PyErr_SetObject((PyObject *)Py_TYPE(e), e);
    Py_XDECREF(pycode);
    Py_XDECREF(pyname);
    Py_DECREF(e);
    return NULL;
}

PyObject *arc_errors_get(const char *name)
{
    PyObject *mod = PyImport_ImportModule("ascendrtc._errors");
    if (!mod)
        return NULL;
    PyObject *exc = PyObject_GetAttrString(mod, name);
    Py_DECREF(mod);
    return exc;
}

PyObject *arc_error_class(arc_state *st, int launch)
{
    if (st)
        return Py_NewRef(launch ? st->LaunchError : st->AclError);
    return arc_errors_get(launch ? "LaunchError" : "AclError");
}

PyObject *arc_raise_host_error(PyObject *msg, PyObject *log, const char *stage, PyObject *file)
{
    PyObject *l = log ? Py_NewRef(log) : PyUnicode_FromString("");
    PyObject *s = PyUnicode_FromString(stage);
    PyObject *cls = l && s ? arc_errors_get("HostCompileError") : NULL;
    PyObject *e = cls ? PyObject_CallFunctionObjArgs(cls, msg, l, s, file ? file : Py_None, NULL) : NULL;
    if (e)
        PyErr_SetObject(cls, e);
    Py_XDECREF(e);
    Py_XDECREF(cls);
    Py_XDECREF(s);
    Py_XDECREF(l);
    return NULL;
}

PyObject *arc_raise_host_compile(PyObject *log, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    PyObject *msg = PyUnicode_FromFormatV(fmt, ap);
    va_end(ap);
    if (msg)
        arc_raise_host_error(msg, log, "compile", NULL);
    Py_XDECREF(msg);
    return NULL;
}

static PyObject *raise_class(arc_state *st, int launch, aclError err, const char *api)
{
    PyObject *exc = arc_error_class(st, launch);
    if (!exc)
        return NULL;
    raise_as(exc, err, api);
    Py_DECREF(exc);
    return NULL;
}

PyObject *arc_raise(arc_state *st, aclError err, const char *api)
{
    int i = err_index(err);
    return raise_class(st, i >= 0 && err_table[i].exc == ARC_EXC_LAUNCH, err, api);
}

PyObject *arc_raise_launch(arc_state *st, aclError err, const char *api)
{
    return raise_class(st, 1, err, api);
}
