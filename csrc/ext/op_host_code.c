/* op_host_code.c - OpHostCode (_C.OpHostCode): an op project's host code
 * compiled and loaded by the backend's host ORC loader (rtc/host_op.cpp, reached
 * through ARC_EXT_FUNCS like every other backend function), and the C
 * entry points it answers through (csrc/host_api/arc/host_driver.h:
 * arc_host_describe, arc_host_plan).  The compile and every call run
 * contained (host_run.c): a fault, a timeout or Ctrl-C is an answer, not
 * the end of the process.  A call's request is lines of text; its answer
 * an arc_op_plan (arc/op_protocol.h) turned into a tuple here. */
#include "arc_ext.h"
#include "host_run.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <structmember.h>

#include "host_api/arc/op_protocol.h"

typedef char *(*describe_fn)(void *factory);
typedef void (*plan_fn)(void *factory, int mode, const char *request, arc_op_plan *p);
typedef void (*plan_free_fn)(arc_op_plan *p);
typedef void (*free_fn)(char *reply);

typedef struct {
    PyObject_HEAD
    arc_host_op *op;
    PyObject *log; /* str: the compiler's diagnostics */
    describe_fn describe;
    plan_fn plan;
    plan_free_fn plan_free;
    free_fn free_reply;
    double timeout; /* seconds its initialisers and destructors may run (0: no limit) */
    int closed;     /* close() unloaded it */
    int stuck;      /* a call's thread did not stop and may still run its code: never unloaded */
} HostCodeObject;

/* str of a malloc'd backend string (freed here), "" for NULL. */
static PyObject *take(char *s)
{
    PyObject *r = PyUnicode_DecodeUTF8(s ? s : "", s ? (Py_ssize_t)strlen(s) : 0, "replace");
    if (s)
        arc_acl.ascendrtc_host_free_string(s);
    return r;
}

static int have_host_jit(void)
{
    if (arc_ready() < 0)
        return 0;
    if (arc_acl.ascendrtc_host_op_compile && arc_acl.ascendrtc_host_op_symbol && arc_acl.ascendrtc_host_op_free &&
        arc_acl.ascendrtc_host_op_init && arc_acl.ascendrtc_host_free_string)
        return 1;
    arc_raise_host_compile(NULL, "op projects' host code runs on the simulated NPU only: this backend has "
                                 "no host-code compiler (ascendrtc_host_op_compile)");
    return 0;
}

/* The address of `name` in the loaded code, or NULL with *why set (a new
 * str) when it has none. */
static void *symbol(HostCodeObject *h, const char *name, PyObject **why)
{
    char *err = NULL;
    void *addr = arc_acl.ascendrtc_host_op_symbol(h->op, name, &err);
    *why = take(err);
    return addr;
}

typedef struct {
    arc_host_op *op;
    char *what;
    int rc;
} fini_args;

static void fini_main(void *p)
{
    fini_args *a = p;
    a->rc = arc_acl.ascendrtc_host_op_fini(a->op, &a->what);
}

/* Runs the code's destructors contained (host_run.c), as its initialisers
 * ran: a destructor that crashes, throws or does not return is reported
 * as a RuntimeWarning and the process goes on.  1 when the code may be
 * unloaded, 0 when its thread still runs it (the code is then leaked). */
static int run_finalisers(HostCodeObject *h)
{
    if (!arc_acl.ascendrtc_host_op_fini)
        return 1;
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    /* On the heap: a thread left running still writes to it (leaked then). */
    fini_args *fa = malloc(sizeof *fa);
    if (!fa) {
        PyErr_Restore(et, ev, tb);
        return 1; /* no memory to contain them: unloaded without its destructors */
    }
    *fa = (fini_args){h->op, NULL, -1};
    int sig, how = arc_host_run(fini_main, fa, h->timeout, &sig, NULL);
    int warned = 0;
    if (how == ARC_HOST_ERROR || how == ARC_HOST_INTERRUPTED)
        PyErr_WriteUnraisable((PyObject *)h);
    else if (how == ARC_HOST_FAULT)
        warned = PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "the op_host code's destructors crashed (%s) while it "
                                  "was unloaded; the process goes on", arc_host_signal_text(sig));
    else if (how == ARC_HOST_TIMEOUT || how == ARC_HOST_STUCK) {
        char secs[32]; /* PyErr_WarnFormat has no %g */
        snprintf(secs, sizeof secs, "%g", h->timeout);
        warned = PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "the op_host code's destructors did not return within "
                                  "%s s while it was unloaded%s", secs,
                                  how == ARC_HOST_STUCK ? " (their thread is left running)" : "");
    }
    else if (fa->rc > 0)
        warned = PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "a destructor of the op_host code %s while it was "
                                  "unloaded", fa->what ? fa->what : "threw");
    if (warned < 0)
        PyErr_WriteUnraisable((PyObject *)h);
    if (sig != -1) {
        if (fa->what)
            arc_acl.ascendrtc_host_free_string(fa->what);
        free(fa);
    }
    PyErr_Restore(et, ev, tb);
    return sig != -1;
}

/* Runs the destructors (contained) and frees the code, once; a code whose
 * call was left running is leaked instead. */
static void unload(HostCodeObject *h)
{
    if (h->op && !h->stuck && run_finalisers(h))
        arc_acl.ascendrtc_host_op_free(h->op);
    h->op = NULL;
}

static void hostcode_dealloc(PyObject *op)
{
    HostCodeObject *h = (HostCodeObject *)op;
    PyTypeObject *tp = Py_TYPE(op);
    unload(h);
    Py_XDECREF(h->log);
    tp->tp_free(op);
    Py_DECREF(tp);
}

typedef struct {
    int nfiles;
    const char **paths, **texts;
    int nmains;
    const char **mains;
    int nopts;
    const char **opts;
    arc_host_op *op;
    char *log;
    int rc;
    int cancel;
} compile_args;

typedef struct {
    arc_host_op *op;
    char *what;
    int rc;
} init_args;

static void init_main(void *p)
{
    init_args *a = p;
    a->rc = arc_acl.ascendrtc_host_op_init(a->op, &a->what);
}

/* Runs the loaded code's static initialisers contained (host_run.c); 0
 * when they returned, else -1 with an exception set: HostCompileError with
 * .stage "init" and .file (the op_host file whose initialiser was
 * running, or None) for a fault, a throw or a timeout.  The code is
 * unloaded after a failure without running any more of it, or leaked when
 * its thread did not stop. */
static int initialisers_run(HostCodeObject *h, double timeout_s, init_args *ia, int *sigp)
{
    int how = arc_host_run(init_main, ia, timeout_s, sigp, NULL), sig = *sigp;
    if (how == ARC_HOST_DONE && ia->rc == 0)
        return 0;
    if (sig == -1)
        h->op = NULL; /* still running its code: never unloaded */
    if (how == ARC_HOST_ERROR || how == ARC_HOST_INTERRUPTED)
        return -1;
    PyObject *file = Py_None, *msg;
    if (h->op) {
        PyObject *why;
        const char *const volatile *at = symbol(h, "arc_host_init_file", &why);
        Py_XDECREF(why);
        if (at && *at && !(file = PyUnicode_DecodeUTF8(*at, (Py_ssize_t)strlen(*at), "replace")))
            return -1;
    }
    PyObject *who = file == Py_None ? PyUnicode_FromString("the op_host files' static initialisers")
                                    : PyUnicode_FromFormat("the static initialisers of %U", file);
    char secs[32];
    snprintf(secs, sizeof secs, "%g", timeout_s);
    if (!who)
        msg = NULL;
    else if (how == ARC_HOST_FAULT)
        msg = PyUnicode_FromFormat("%U crashed (%s); the host code was unloaded and the process goes on", who,
                                   arc_host_signal_text(sig));
    else if (how == ARC_HOST_TIMEOUT)
        msg = PyUnicode_FromFormat("%U did not return within %s s (an endless loop?) and were stopped; "
                                   "op_project(..., host_timeout=) or ASCENDRTC_HOST_TIMEOUT sets the limit",
                                   who, secs);
    else if (how == ARC_HOST_STUCK)
        msg = PyUnicode_FromFormat("%U did not return within %s s and block the signal that stops them: their "
                                   "thread is left running", who, secs);
    else if (ia->rc == 1)
        msg = PyUnicode_FromFormat("%U %s", who, ia->what ? ia->what : "threw");
    else
        msg = PyUnicode_FromFormat("the loaded host code cannot run its static initialisers: %s",
                                   ia->what ? ia->what : "no arc_host_init");
    Py_XDECREF(who);
    if (msg)
        arc_raise_host_error(msg, NULL, "init", file);
    Py_XDECREF(msg);
    if (file != Py_None)
        Py_DECREF(file);
    return -1;
}

/* init_args on the heap: a thread left running still writes to them. */
static int run_initialisers(HostCodeObject *h, double timeout_s)
{
    init_args *ia = malloc(sizeof *ia);
    if (!ia) {
        PyErr_NoMemory();
        return -1;
    }
    *ia = (init_args){h->op, NULL, -1};
    int sig = 0, r = initialisers_run(h, timeout_s, ia, &sig);
    if (sig != -1) {
        if (ia->what)
            arc_acl.ascendrtc_host_free_string(ia->what);
        free(ia);
    }
    return r;
}

static void compile_main(void *p)
{
    compile_args *a = p;
    a->rc = arc_acl.ascendrtc_host_op_compile(a->nfiles, a->paths, a->texts, a->nmains, a->mains, a->nopts, a->opts,
                                              &a->op, &a->log, &a->cancel);
}

/* OpHostCode(paths, texts, mains, options, timeout=0) -> compiled, loaded
 * and initialised (its static initialisers run contained, bounded by
 * timeout seconds); raises ascendrtc's HostCompileError with clang's
 * diagnostics as .log when it does not compile or load (stage "compile"),
 * or does not start (stage "init", run_initialisers). */
static PyObject *hostcode_new(PyTypeObject *tp, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"paths", "texts", "mains", "options", "timeout", NULL};
    PyObject *lists[4], *seqs[4] = {NULL, NULL, NULL, NULL}, *res = NULL;
    const char **c[4] = {NULL, NULL, NULL, NULL};
    Py_ssize_t n[4];
    double timeout_s = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "OOOO|d:OpHostCode", kwlist, &lists[0], &lists[1], &lists[2],
                                     &lists[3], &timeout_s))
        return NULL;
    if (!have_host_jit())
        return NULL;
    for (int i = 0; i < 4; i++) {
        if (!(seqs[i] = PySequence_Fast(lists[i], "OpHostCode: expected sequences of str")))
            goto done;
        n[i] = PySequence_Fast_GET_SIZE(seqs[i]);
        if (n[i] > INT32_MAX || !(c[i] = PyMem_Calloc(n[i] ? (size_t)n[i] : 1, sizeof *c[i]))) {
            PyErr_NoMemory();
            goto done;
        }
        for (Py_ssize_t j = 0; j < n[i]; j++)
            if (!(c[i][j] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seqs[i], j))))
                goto done;
    }
    if (n[0] != n[1]) {
        PyErr_SetString(PyExc_ValueError, "OpHostCode: paths and texts differ in length");
        goto done;
    }
    compile_args ca = {(int)n[0], c[0], c[1], (int)n[2], c[2], (int)n[3], c[3], NULL, NULL, -1, 0};
    int sig, how = arc_host_run(compile_main, &ca, 0, &sig, &ca.cancel);
    if (how == ARC_HOST_ERROR || how == ARC_HOST_INTERRUPTED) {
        if (ca.op)
            arc_acl.ascendrtc_host_op_free(ca.op);
        if (ca.log)
            arc_acl.ascendrtc_host_free_string(ca.log);
        goto done;
    }
    if (how == ARC_HOST_FAULT) {
        arc_raise_host_compile(NULL, "the op_host compile or its static initialisers crashed (%s)",
                               arc_host_signal_text(sig));
        goto done;
    }
    arc_host_op *op = ca.op;
    int rc = ca.rc;
    PyObject *logs = take(ca.log);
    if (!logs) {
        if (op)
            arc_acl.ascendrtc_host_op_free(op);
        goto done;
    }
    if (rc != 0) {
        arc_raise_host_compile(logs, "the op_host sources did not compile");
        Py_DECREF(logs);
        goto done;
    }
    HostCodeObject *h = (HostCodeObject *)tp->tp_alloc(tp, 0);
    if (!h) {
        arc_acl.ascendrtc_host_op_free(op);
        Py_DECREF(logs);
        goto done;
    }
    h->op = op;
    h->timeout = timeout_s;
    const char *names[4] = {"arc_host_describe", "arc_host_plan", "arc_host_plan_free", "arc_host_free"};
    void *fns[4];
    for (int i = 0; i < 4; i++) {
        PyObject *why;
        fns[i] = symbol(h, names[i], &why);
        if (!fns[i]) {
            if (why)
                arc_raise_host_compile(NULL, "the loaded host code has no symbol '%s': %U", names[i], why);
            Py_XDECREF(why);
            Py_DECREF(h);
            Py_DECREF(logs);
            goto done;
        }
        Py_XDECREF(why);
    }
    h->describe = (describe_fn)fns[0];
    h->plan = (plan_fn)fns[1];
    h->plan_free = (plan_free_fn)fns[2];
    h->free_reply = (free_fn)fns[3];
    h->log = logs;
    if (run_initialisers(h, timeout_s) < 0) {
        Py_DECREF(h); /* unloads it (no destructor runs), unless it was left running */
        goto done;
    }
    res = (PyObject *)h;
done:
    for (int i = 0; i < 4; i++) {
        PyMem_Free(c[i]);
        Py_XDECREF(seqs[i]);
    }
    return res;
}

/* 0, or -1 with ValueError set when close() has unloaded the code. */
static int open_or_raise(PyObject *op)
{
    if (!((HostCodeObject *)op)->closed)
        return 0;
    PyErr_SetString(PyExc_ValueError, "the op host code was closed (OpHostCode.close() unloaded it)");
    return -1;
}

/* close(): runs the code's destructors now (contained, as in dealloc) and
 * unloads it; later calls raise ValueError.  Idempotent. */
static PyObject *hostcode_close(PyObject *op, PyObject *unused)
{
    (void)unused;
    HostCodeObject *h = (HostCodeObject *)op;
    if (!h->closed) {
        h->closed = 1;
        unload(h);
    }
    Py_RETURN_NONE;
}

/* factory(op_type) -> the address of OP_ADD(op_type)'s factory, or None. */
static PyObject *hostcode_factory(PyObject *op, PyObject *op_type)
{
    HostCodeObject *h = (HostCodeObject *)op;
    if (open_or_raise(op) < 0)
        return NULL;
    if (!PyUnicode_Check(op_type))
        return PyErr_Format(PyExc_TypeError, "factory: op_type must be str, not %.100s", Py_TYPE(op_type)->tp_name);
    PyObject *name = PyUnicode_FromFormat("arc_op_new_%U", op_type);
    if (!name)
        return NULL;
    PyObject *why = NULL;
    void *addr = symbol(h, PyUnicode_AsUTF8(name), &why);
    Py_DECREF(name);
    Py_XDECREF(why);
    return addr ? PyLong_FromVoidPtr(addr) : Py_NewRef(Py_None);
}

/* One contained call of the driver: describe (request NULL) or plan. */
typedef struct {
    HostCodeObject *h;
    void *factory;
    int mode;
    const char *request;
    char *described;
    arc_op_plan plan;
} call_args;

static void call_main(void *p)
{
    call_args *a = p;
    if (a->request)
        a->h->plan(a->factory, a->mode, a->request, &a->plan);
    else
        a->described = a->h->describe(a->factory);
}

/* Runs the call contained; 0 when it returned, else -1 with a Python
 * exception set, or 1 with *failure = (False, stage, message) naming the
 * function that was running and what stopped it.  *left is 1 when its
 * thread did not stop and still uses `a` (the caller leaks it). */
static int contained(call_args *a, double timeout_s, PyObject **failure, int *left)
{
    int sig, how = arc_host_run(call_main, a, timeout_s, &sig, NULL);
    *left = sig == -1;
    if (*left)
        a->h->stuck = 1;
    if (how == ARC_HOST_ERROR || how == ARC_HOST_INTERRUPTED)
        return -1;
    if (how == ARC_HOST_DONE)
        return 0;
    int stage = a->plan.stage;
    const char *fn = arc_op_stage_what(stage);
    PyObject *msg;
    char secs[32];
    snprintf(secs, sizeof secs, "%g", timeout_s);
    if (how == ARC_HOST_FAULT)
        msg = PyUnicode_FromFormat("%s crashed (%s); the call was abandoned and the process goes on", fn,
                                   arc_host_signal_text(sig));
    else if (how == ARC_HOST_TIMEOUT)
        msg = PyUnicode_FromFormat("%s did not return within %s s (an endless loop?) and was stopped; "
                                   "op_project(..., host_timeout=) or ASCENDRTC_HOST_TIMEOUT sets the limit", fn,
                                   secs);
    else
        msg = PyUnicode_FromFormat("%s did not return within %s s and blocks the signal that stops it: its thread "
                                   "is left running", fn, secs);
    if (!msg)
        return -1;
    *failure = Py_BuildValue("(OiN)", Py_False, stage, msg);
    return *failure ? 1 : -1;
}

static PyObject *hostcode_describe(PyObject *op, PyObject *args)
{
    PyObject *factory;
    double timeout_s;
    if (open_or_raise(op) < 0 || !PyArg_ParseTuple(args, "Od:describe", &factory, &timeout_s))
        return NULL;
    call_args *a = calloc(1, sizeof *a);
    if (!a)
        return PyErr_NoMemory();
    a->h = (HostCodeObject *)op;
    a->factory = PyLong_AsVoidPtr(factory);
    a->plan.stage = ARC_OP_STAGE_DEFINITION;
    if (!a->factory) {
        free(a);
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a null op factory");
        return NULL;
    }
    PyObject *failure = NULL;
    int left, rc = contained(a, timeout_s, &failure, &left);
    if (rc != 0) {
        if (!left)
            free(a);
        return failure;
    }
    char *r = a->described;
    PyObject *s = PyUnicode_DecodeUTF8(r ? r : "", r ? (Py_ssize_t)strlen(r) : 0, "replace");
    if (r)
        a->h->free_reply(r);
    free(a);
    return s;
}

/* (True, out_dtypes, out_shapes, block_dim, tiling_key, tiling_key_set,
 * workspace, tiling bytes, schedule_mode) from a plan that succeeded. */
static PyObject *plan_tuple(const arc_op_plan *p, int mode)
{
    PyObject *dts = PyTuple_New(p->nout), *shapes = PyTuple_New(p->nout), *ws = NULL, *res = NULL;
    if (!dts || !shapes)
        goto done;
    for (uint32_t i = 0, at = 0; i < p->nout; i++) {
        PyObject *sh = PyTuple_New(p->out_ndim[i]);
        if (!sh)
            goto done;
        for (int32_t k = 0; k < p->out_ndim[i]; k++)
            PyTuple_SET_ITEM(sh, k, PyLong_FromLongLong(p->out_dims[at++]));
        PyTuple_SET_ITEM(shapes, i, sh);
        PyTuple_SET_ITEM(dts, i, PyLong_FromLong(p->out_dtype[i]));
    }
    if (mode != ARC_OP_MODE_TILING) {
        res = Py_BuildValue("(OOO)", Py_True, dts, shapes);
        goto done;
    }
    if (!(ws = PyTuple_New(p->nworkspace)))
        goto done;
    for (uint32_t i = 0; i < p->nworkspace; i++)
        PyTuple_SET_ITEM(ws, i, PyLong_FromUnsignedLongLong(p->workspace[i]));
    res = Py_BuildValue("(OOOIKOOy#IKs)", Py_True, dts, shapes, p->block_dim, (unsigned long long)p->tiling_key,
                        p->tiling_key_set ? Py_True : Py_False, ws, (const char *)p->tiling,
                        (Py_ssize_t)p->tiling_size, p->schedule_mode, (unsigned long long)p->tiling_struct_size,
                        p->tiling_struct_name);
done:
    Py_XDECREF(dts);
    Py_XDECREF(shapes);
    Py_XDECREF(ws);
    return res;
}

static PyObject *hostcode_plan(PyObject *op, PyObject *args)
{
    PyObject *factory;
    int mode;
    const char *request;
    double timeout_s;
    if (open_or_raise(op) < 0 || !PyArg_ParseTuple(args, "Oisd:plan", &factory, &mode, &request, &timeout_s))
        return NULL;
    void *f = PyLong_AsVoidPtr(factory);
    if (!f) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "a null op factory");
        return NULL;
    }
    call_args *a = calloc(1, sizeof *a);
    char *req = strdup(request); /* the thread may outlive this call */
    if (!a || !req) {
        free(a);
        free(req);
        return PyErr_NoMemory();
    }
    a->h = (HostCodeObject *)op;
    a->factory = f;
    a->mode = mode;
    a->request = req;
    PyObject *failure = NULL, *res;
    int left, rc = contained(a, timeout_s, &failure, &left);
    if (rc == 0 && a->plan.ok)
        res = plan_tuple(&a->plan, mode);
    else if (rc == 0)
        res = Py_BuildValue("(Ois)", Py_False, (int)a->plan.stage, a->plan.error ? a->plan.error : "failed");
    else
        res = failure;
    if (!left) {
        a->h->plan_free(&a->plan);
        free(req);
        free(a);
    }
    return res;
}

static PyMethodDef hostcode_methods[] = {
    {"close", hostcode_close, METH_NOARGS,
     "close() -> None\n--\n\nRuns the code's destructors now (contained: a crash, a throw or a timeout in them is a "
     "RuntimeWarning) and unloads it; later calls raise ValueError.  Idempotent."},
    {"factory", hostcode_factory, METH_O,
     "factory(op_type) -> int or None\n--\n\nThe address of OP_ADD(op_type)'s factory in the loaded code."},
    {"describe", hostcode_describe, METH_VARARGS,
     "describe(factory, timeout_s) -> str or (False, stage, message)\n--\n\nThe op definition, as JSON "
     "(arc_host_describe), made contained."},
    {"plan", hostcode_plan, METH_VARARGS,
     "plan(factory, mode, request, timeout_s) -> tuple\n--\n\nOne contained call (mode: OP_MODES): "
     "(True, out_dtypes, out_shapes) for INFER, (True, out_dtypes, out_shapes, block_dim, tiling_key, "
     "tiling_key_set, workspace, tiling, schedule_mode, tiling_struct_size, tiling_struct_name) for TILING, or (False, stage, message) (stage: "
     "OP_STAGES)."},
    {NULL, NULL, 0, NULL},
};

static PyMemberDef hostcode_members[] = {
    {"log", T_OBJECT_EX, offsetof(HostCodeObject, log), READONLY, "The compiler's diagnostics."},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot hostcode_slots[] = {
    {Py_tp_doc, "An op project's host code, compiled and loaded in this process; unloaded by close() or when the "
                "last reference goes.  .log holds the compiler's diagnostics."},
    {Py_tp_new, hostcode_new},
    {Py_tp_dealloc, hostcode_dealloc},
    {Py_tp_methods, hostcode_methods},
    {Py_tp_members, hostcode_members},
    {0, NULL},
};

PyType_Spec op_host_code_spec = {
    .name = "ascendrtc._C.OpHostCode",
    .basicsize = sizeof(HostCodeObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = hostcode_slots,
};
