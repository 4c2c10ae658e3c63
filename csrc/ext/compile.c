/* compile.c - one aclrtc compile, start to finish: create the program with
 * its in-memory headers, register name expressions, compile with the GIL
 * released, and collect binary, log and lowered names.  The Python layer
 * (ascendrtc/_program.py) turns a failure into CompileError. */
#include "arc_ext.h"

#include <stdlib.h>
#include <string.h>

/* Borrow UTF-8 pointers of a sequence of str into a malloc'd array. */
static const char **utf8_array(PyObject *seq, const char *what, Py_ssize_t *n)
{
    *n = PySequence_Fast_GET_SIZE(seq);
    const char **out = PyMem_Calloc(*n ? (size_t)*n : 1, sizeof *out);
    if (!out) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < *n; i++) {
        PyObject *o = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyUnicode_Check(o)) {
            PyErr_Format(PyExc_TypeError, "%s[%zd] must be str, not %.100s", what, i, Py_TYPE(o)->tp_name);
            PyMem_Free(out);
            return NULL;
        }
        out[i] = PyUnicode_AsUTF8(o);
        if (!out[i]) {
            PyMem_Free(out);
            return NULL;
        }
    }
    return out;
}

PyObject *arc_compile(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"source", "name", "header_names", "header_texts", "name_expressions", "options", NULL};
    const char *src, *name;
    PyObject *hn_o, *ht_o, *ne_o, *opt_o;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ssOOOO:compile", kwlist, &src, &name, &hn_o, &ht_o, &ne_o,
                                     &opt_o))
        return NULL;
    arc_state *st = PyModule_GetState(module);
    PyObject *hn = NULL, *ht = NULL, *ne = NULL, *opt = NULL, *res = NULL, *bin = NULL, *log = NULL,
             *lowered = NULL, *depo = NULL;
    const char **hn_c = NULL, **ht_c = NULL, **ne_c = NULL, **opt_c = NULL;
    Py_ssize_t nh, nh2, nne, nopt;
    aclrtcProg prog = NULL;
    aclError err = ACL_SUCCESS;
    const char *failed_api = NULL;
    char *logbuf = NULL, *detail_c = NULL;

    if (!(hn = PySequence_Fast(hn_o, "header_names must be a sequence")) ||
        !(ht = PySequence_Fast(ht_o, "header_texts must be a sequence")) ||
        !(ne = PySequence_Fast(ne_o, "name_expressions must be a sequence")) ||
        !(opt = PySequence_Fast(opt_o, "options must be a sequence")))
        goto cleanup;
    if (!(hn_c = utf8_array(hn, "header_names", &nh)) || !(ht_c = utf8_array(ht, "header_texts", &nh2)) ||
        !(ne_c = utf8_array(ne, "name_expressions", &nne)) || !(opt_c = utf8_array(opt, "options", &nopt)))
        goto cleanup;
    if (nh != nh2) {
        PyErr_SetString(PyExc_ValueError, "header_names and header_texts differ in length");
        goto cleanup;
    }
    if (nh > INT32_MAX || nopt > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "too many headers or options");
        goto cleanup;
    }
    if (arc_ready() < 0)
        goto cleanup;

    /* Pointers stay valid: the sequences are pinned until cleanup. */
    Py_BEGIN_ALLOW_THREADS
    err = arc_acl.aclrtcCreateProg(&prog, src, name, (int)nh, ht_c, hn_c);
    failed_api = "aclrtcCreateProg";
    for (Py_ssize_t i = 0; err == ACL_SUCCESS && i < nne; i++) {
        err = arc_acl.aclrtcAddNameExpr(prog, ne_c[i]);
        failed_api = "aclrtcAddNameExpr";
    }
    Py_END_ALLOW_THREADS
    if (err == ACL_SUCCESS) {
        err = arc_compile_prog(&prog, (int)nopt, opt_c, &detail_c);
        failed_api = "aclrtcCompileProg";
        if (err == -1)
            goto cleanup; /* KeyboardInterrupt: the compile was cancelled; nothing to cache */
        if (err != ACL_SUCCESS && detail_c && arc_acl.ascendrtc_set_recent_error)
            arc_acl.ascendrtc_set_recent_error(detail_c); /* for arc_raise, on this thread */
    } else {
        const char *d = arc_acl.aclGetRecentErrMsg();
        detail_c = d ? strdup(d) : NULL;
    }
    if (err != ACL_SUCCESS && !prog) {
        arc_raise(st, err, failed_api);
        goto cleanup;
    }
    if (err != ACL_SUCCESS && err != ACL_ERROR_RTC_COMPILATION && err != ACL_ERROR_RTC_LINKING &&
        err != ACL_ERROR_RTC_INVALID_OPTION && err != ACL_ERROR_RTC_NAME_EXPR_NOT_VALID) {
        arc_raise(st, err, failed_api);
        goto cleanup;
    }
    /* The log, on success and on failure. */
    size_t logsize = 0;
    if (arc_acl.aclrtcGetCompileLogSize(prog, &logsize) == ACL_SUCCESS && logsize > 0) {
        logbuf = malloc(logsize + 1);
        if (!logbuf) {
            PyErr_NoMemory();
            goto cleanup;
        }
        if (arc_acl.aclrtcGetCompileLog(prog, logbuf) != ACL_SUCCESS)
            logbuf[0] = 0;
        logbuf[logsize] = 0;
    }
    log = PyUnicode_DecodeUTF8(logbuf ? logbuf : "", logbuf ? (Py_ssize_t)strlen(logbuf) : 0, "replace");
    if (!log)
        goto cleanup;
    /* The failing call's detail message (e.g. an invalid option) when the
     * log says nothing. */
    PyObject *detail;
    if (err != ACL_SUCCESS) {
        const char *d = detail_c;
        detail = PyUnicode_DecodeUTF8(d ? d : "", d ? (Py_ssize_t)strlen(d) : 0, "replace");
        if (!detail)
            goto cleanup;
        res = Py_BuildValue("(iOOONO)", err, Py_None, log, Py_None, detail, Py_None);
        goto cleanup;
    }
    size_t binsize = 0;
    if ((err = arc_acl.aclrtcGetBinDataSize(prog, &binsize)) != ACL_SUCCESS) {
        arc_raise(st, err, "aclrtcGetBinDataSize");
        goto cleanup;
    }
    bin = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)binsize);
    if (!bin)
        goto cleanup;
    if ((err = arc_acl.aclrtcGetBinData(prog, PyBytes_AS_STRING(bin))) != ACL_SUCCESS) {
        arc_raise(st, err, "aclrtcGetBinData");
        goto cleanup;
    }
    lowered = PyDict_New();
    if (!lowered)
        goto cleanup;
    for (Py_ssize_t i = 0; i < nne; i++) {
        const char *low = NULL;
        if ((err = arc_acl.aclrtcGetLoweredName(prog, ne_c[i], &low)) != ACL_SUCCESS) {
            arc_raise(st, err, "aclrtcGetLoweredName");
            goto cleanup;
        }
        PyObject *v = PyUnicode_FromString(low ? low : "");
        if (!v || PyDict_SetItem(lowered, PySequence_Fast_GET_ITEM(ne, i), v) < 0) {
            Py_XDECREF(v);
            goto cleanup;
        }
        Py_DECREF(v);
    }
    /* The files the compiler read, for the disk cache: None when the
     * backend does not say (a CANN home). */
    const char *deps = arc_acl.ascendrtc_rtc_dependencies ? arc_acl.ascendrtc_rtc_dependencies(prog) : NULL;
    if (deps) {
        if (!(depo = PyUnicode_DecodeUTF8(deps, (Py_ssize_t)strlen(deps), "surrogateescape")))
            goto cleanup;
    } else {
        depo = Py_NewRef(Py_None);
    }
    res = Py_BuildValue("(iOOOsO)", 0, bin, log, lowered, "", depo);
cleanup:
    if (prog)
        arc_acl.aclrtcDestroyProg(&prog);
    free(logbuf);
    free(detail_c);
    PyMem_Free(hn_c);
    PyMem_Free(ht_c);
    PyMem_Free(ne_c);
    PyMem_Free(opt_c);
    Py_XDECREF(hn);
    Py_XDECREF(ht);
    Py_XDECREF(ne);
    Py_XDECREF(opt);
    Py_XDECREF(bin);
    Py_XDECREF(log);
    Py_XDECREF(lowered);
    Py_XDECREF(depo);
    return res;
}
