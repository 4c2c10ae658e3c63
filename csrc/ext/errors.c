/* errors.c - ACL error codes to Python exceptions.  Every failure of an
 * ACL call reaches Python through arc_raise, as AclError (or LaunchError)
 * with .code and .name and the provider's detail message. */
#include "arc_ext.h"

#include <string.h>

static const struct {
    int code;
    const char *name;
} err_table[] = {
    {100000, "ACL_ERROR_INVALID_PARAM"},
    {100001, "ACL_ERROR_UNINITIALIZE"},
    {100002, "ACL_ERROR_REPEAT_INITIALIZE"},
    {100003, "ACL_ERROR_INVALID_FILE"},
    {200000, "ACL_ERROR_BAD_ALLOC"},
    {500000, "ACL_ERROR_INTERNAL_ERROR"},
    {107000, "ACL_ERROR_RT_PARAM_INVALID"},
    {107001, "ACL_ERROR_RT_INVALID_DEVICEID"},
    {107002, "ACL_ERROR_RT_CONTEXT_NULL"},
    {107017, "ACL_ERROR_RT_INVALID_HANDLE"},
    {207000, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT"},
    {207001, "ACL_ERROR_RT_MEMORY_ALLOCATION"},
    {207007, "ACL_ERROR_RT_EVENT_NOT_COMPLETE"},
    {507000, "ACL_ERROR_RT_INTERNAL_ERROR"},
    {507014, "ACL_ERROR_RT_AICORE_TIMEOUT"},
    {507015, "ACL_ERROR_RT_AICORE_EXCEPTION"},
    {507046, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT"},
    {ACL_ERROR_RTC_INVALID_PROG, "ACL_ERROR_RTC_INVALID_PROG"},
    {ACL_ERROR_RTC_INVALID_INPUT, "ACL_ERROR_RTC_INVALID_INPUT"},
    {ACL_ERROR_RTC_INVALID_OPTION, "ACL_ERROR_RTC_INVALID_OPTION"},
    {ACL_ERROR_RTC_COMPILATION, "ACL_ERROR_RTC_COMPILATION"},
    {ACL_ERROR_RTC_LINKING, "ACL_ERROR_RTC_LINKING"},
    {ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION, "ACL_ERROR_RTC_NO_NAME_EXPR_AFTER_COMPILATION"},
    {ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION, "ACL_ERROR_RTC_NO_LOWERED_NAMES_BEFORE_COMPILATION"},
    {ACL_ERROR_RTC_NAME_EXPR_NOT_VALID, "ACL_ERROR_RTC_NAME_EXPR_NOT_VALID"},
    {ACL_ERROR_RTC_PROG_CREATION_FAILURE, "ACL_ERROR_RTC_PROG_CREATION_FAILURE"},
    {ACL_ERROR_RTC_OUT_OF_MEMORY, "ACL_ERROR_RTC_OUT_OF_MEMORY"},
    {ACL_ERROR_RTC_FAILURE, "ACL_ERROR_RTC_FAILURE"},
};

const char *arc_err_name(aclError err)
{
    for (size_t i = 0; i < sizeof err_table / sizeof err_table[0]; i++)
        if (err_table[i].code == err)
            return err_table[i].name;
    return "ACL_ERROR_UNKNOWN";
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
    const char *name = arc_err_name(err);
    PyObject *msg;
    size_t alen = strlen(api);
    if (detail && strncmp(detail, api, alen) == 0 && detail[alen] == ':')
        msg = PyUnicode_FromFormat("%s (%d): %s", name, err, detail); /* the detail names the call already */
    else if (detail && detail[0])
        msg = PyUnicode_FromFormat("%s (%d): %s: %s", name, err, api, detail);
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

PyObject *arc_raise(arc_state *st, aclError err, const char *api)
{
    PyObject *exc = st ? st->AclError : PyExc_RuntimeError;
    if (st && (err == ACL_ERROR_RT_AICORE_EXCEPTION || err == ACL_ERROR_RT_AICORE_TIMEOUT))
        exc = st->LaunchError;
    return raise_as(exc, err, api);
}

PyObject *arc_raise_launch(arc_state *st, aclError err, const char *api)
{
    return raise_as(st ? st->LaunchError : PyExc_RuntimeError, err, api);
}
