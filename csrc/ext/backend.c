/* backend.c - the seam: resolve CANN's ACL C API from the chosen backend
 * (the simulated NPU's home, or a real CANN home) with dlopen/dlsym.  _C
 * never links against libascendcl; everything goes through arc_acl. */
#include "arc_ext.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

arc_api arc_acl;
int arc_loaded;
int arc_host_memory;
_Thread_local int arc_thread_bound;

static const char *const lib_names[2] = {"libascendcl.so", "libacl_rtc.so"};
static char backend[16] = "sim";
static char home[4096];
static void *libs[2];

/* Record which backend to use; fails once a different one is loaded. */
PyObject *arc_configure(PyObject *module, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"backend", "home", NULL};
    const char *b, *h;
    (void)module;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "ss:configure", kwlist, &b, &h))
        return NULL;
    if (strcmp(b, "sim") != 0 && strcmp(b, "cann") != 0)
        return PyErr_Format(PyExc_ValueError, "unknown backend %R; expected 'sim' or 'cann'",
                            PyTuple_GET_ITEM(args, 0));
    if (strlen(h) >= sizeof home)
        return PyErr_Format(PyExc_ValueError, "home path too long (%zu bytes)", strlen(h));
    if (arc_loaded) {
        if (strcmp(b, backend) == 0 && strcmp(h, home) == 0)
            Py_RETURN_NONE;
        return PyErr_Format(PyExc_RuntimeError,
                            "the '%s' backend at %s is already in use in this process; "
                            "choose the backend before the first compile, launch or allocation",
                            backend, home);
    }
    if (strcmp(b, backend) != 0 || strcmp(h, home) != 0)
        arc_prewarm_forget(); /* its libraries were another backend's */
    snprintf(backend, sizeof backend, "%s", b);
    snprintf(home, sizeof home, "%s", h);
    Py_RETURN_NONE;
}

/* {"backend", "home", "loaded", "libraries"} for diagnostics. */
PyObject *arc_backend_info(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return Py_BuildValue("{s:s,s:s,s:O,s:(s,s)}", "backend", backend, "home", home, "loaded",
                         arc_loaded ? Py_True : Py_False, "libraries", lib_names[0], lib_names[1]);
}

static void unload_libs(void)
{
    for (int i = 1; i >= 0; i--)
        if (libs[i]) {
            dlclose(libs[i]);
            libs[i] = NULL;
        }
    memset(&arc_acl, 0, sizeof arc_acl);
}

static PyObject *backend_error(const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    PyObject *exc = arc_error_class(NULL, 0); /* no module at hand: from ascendrtc._errors */
    PyObject *e = exc ? PyObject_CallFunction(exc, "s", msg) : NULL;
    if (!e) {
        Py_XDECREF(exc);
        return NULL;
    }
    /* SetAttr does not steal: each value is released here. */
    PyObject *code = PyLong_FromLong(ACL_ERROR_UNINITIALIZE);
    PyObject *name = PyUnicode_FromString(arc_err_name(ACL_ERROR_UNINITIALIZE));
    if (code && name && PyObject_SetAttrString(e, "code", code) == 0 && PyObject_SetAttrString(e, "name", name) == 0)
        PyErr_SetObject(exc, e);
    Py_XDECREF(code);
    Py_XDECREF(name);
    Py_DECREF(e);
    Py_DECREF(exc);
    return NULL;
}

static int load_backend(void)
{
    char path[4200];
    if (!home[0]) {
        backend_error("no home directory for the '%s' backend: %s", backend,
                       strcmp(backend, "cann") == 0 ? "set ASCEND_HOME_PATH (source set_env.sh)"
                                                   : "import ascendrtc (it configures the sim home)");
        return -1;
    }
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/lib64/%s", home, lib_names[i]);
        /* libascendcl goes in the global scope, as when a program links it:
         * libacl_rtc reaches it through symbols it does not list as NEEDED
         * (its error reporting into aclGetRecentErrMsg). */
        libs[i] = dlopen(path, RTLD_NOW | (i == 0 ? RTLD_GLOBAL : RTLD_LOCAL));
        if (!libs[i]) {
            const char *why = dlerror();
            backend_error("cannot load %s for the '%s' backend from %s: %s%s", lib_names[i], backend, path,
                           why ? why : "unknown error",
                           strcmp(backend, "sim") == 0
                               ? " (build the simulated NPU home with `make home`, or set ASCENDRTC_SIM_HOME)"
                               : " (check ASCEND_HOME_PATH)");
            unload_libs();
            return -1;
        }
    }
#define ARC_EXT_LOAD(lib, name) *(void **)&arc_acl.name = dlsym(libs[lib], #name);
    ARC_EXT_FUNCS(ARC_EXT_LOAD)
#undef ARC_EXT_LOAD
    /* Only the simulated NPU exports these; its device memory is host memory. */
    arc_host_memory = arc_acl.ascendrtc_set_recent_error != NULL;
#define ARC_API_LOAD(lib, name)                                                                         \
    *(void **)&arc_acl.name = dlsym(libs[lib], #name);                                                \
    if (!arc_acl.name) {                                                                              \
        backend_error("%s of the '%s' backend (%s/lib64) has no symbol '%s'", lib_names[lib], backend, \
                       home, #name);                                                                  \
        unload_libs();                                                                                \
        return -1;                                                                                    \
    }
    ARC_ACL_FUNCS(ARC_API_LOAD)
#undef ARC_API_LOAD
    if (arc_acl.ascendrtc_rtc_set_pch_store)
        arc_acl.ascendrtc_rtc_set_pch_store(&arc_pch_store);
    /* Keep the GIL: a second thread must not see a half-loaded table. */
    aclError err = arc_acl.aclInit(NULL);
    if (err != ACL_SUCCESS && err != ACL_ERROR_REPEAT_INITIALIZE) {
        arc_raise(NULL, err, "aclInit");
        unload_libs();
        return -1;
    }
    return 0;
}

int arc_ready_slow(void)
{
    /* The GIL serialises first loads (load_backend never releases it). */
    if (!arc_loaded) {
        if (load_backend() < 0)
            return -1;
        arc_loaded = 1;
    }
    if (!arc_thread_bound) {
        aclError err = arc_acl.aclrtSetDevice(0);
        if (err != ACL_SUCCESS) {
            arc_raise(NULL, err, "aclrtSetDevice(0)");
            return -1;
        }
        arc_thread_bound = 1;
    }
    return 0;
}

int arc_bind_quiet(void)
{
    if (!arc_loaded)
        return 0;
    if (!arc_thread_bound && arc_acl.aclrtSetDevice(0) == ACL_SUCCESS)
        arc_thread_bound = 1;
    return arc_thread_bound;
}

/* ---- ascendrtc's own exports (ARC_EXT_FUNCS), for the Python layer ---- */

/* _C.compiler_fingerprint() -> str, or None when the backend has none. */
PyObject *arc_compiler_fingerprint(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    if (arc_ready() < 0)
        return NULL;
    if (!arc_acl.ascendrtc_rtc_fingerprint)
        Py_RETURN_NONE;
    return PyUnicode_FromString(arc_acl.ascendrtc_rtc_fingerprint());
}

/* _C.resolve_arch(options) -> the --npu-arch the compiler would target, or
 * None (options that do not parse, or a backend that does not say). */
PyObject *arc_resolve_arch(PyObject *module, PyObject *options)
{
    (void)module;
    if (arc_ready() < 0)
        return NULL;
    PyObject *seq = PySequence_Fast(options, "resolve_arch: options must be a sequence of str");
    if (!seq)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    const char **v = PyMem_Calloc(n ? (size_t)n : 1, sizeof *v);
    PyObject *res = NULL;
    if (!v) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (!(v[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i))))
            goto done;
    const char *arch = arc_acl.ascendrtc_rtc_resolve_arch ? arc_acl.ascendrtc_rtc_resolve_arch((int)n, v) : NULL;
    res = arch ? PyUnicode_FromString(arch) : Py_NewRef(Py_None);
done:
    PyMem_Free(v);
    Py_DECREF(seq);
    return res;
}

/* _C.set_launch_timeout(seconds) -> True, or False when the backend has
 * no such setting (a CANN home). */
PyObject *arc_set_launch_timeout(PyObject *module, PyObject *arg)
{
    (void)module;
    double s = PyFloat_AsDouble(arg);
    if (s == -1.0 && PyErr_Occurred())
        return NULL;
    if (arc_ready() < 0)
        return NULL;
    if (!arc_acl.ascendrtc_set_launch_timeout)
        Py_RETURN_FALSE;
    arc_acl.ascendrtc_set_launch_timeout(s);
    Py_RETURN_TRUE;
}
