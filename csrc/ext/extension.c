/* extension.c - the _C extension module: state, exception classes, type creation and
 * the module-level functions (backend choice, device info, synchronize).
 * Multi-phase init; the state lives in the module object, and code finds
 * it through the module (module functions), an object's type
 * (arc_state_of_type) or a kernel's cached pointer. */
#define ARC_NUMPY_MAIN
#include "arc_ext.h"
#include "arc_numpy.h"

uint64_t arc_sync_started, arc_sync_completed;

arc_state *arc_state_of_type(PyTypeObject *tp)
{
#if PY_VERSION_HEX >= 0x030B0000
    PyObject *m = PyType_GetModuleByDef(tp, &arc_moduledef);
#else
    PyObject *m = NULL;
    for (; tp && !m; tp = tp->tp_base) /* a Python subclass's base is ours */
        if (PyType_HasFeature(tp, Py_TPFLAGS_HEAPTYPE) && !(m = PyType_GetModule(tp)))
            PyErr_Clear();
#endif
    if (!m) {
        PyErr_Clear();
        return NULL;
    }
    return PyModule_GetState(m);
}

/* The error a deallocator's sync met (type, value, traceback), for the next
 * arc_device_sync to raise.  Only the first is kept: later ones follow from
 * the same failed launch or are reported by their own syncs. */
static PyObject *deferred[3];

void arc_defer_error(void)
{
    if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
        PyErr_Clear();
        PyErr_SetInterrupt(); /* Ctrl-C stops the program at its next bytecode, as it would have */
        return;
    }
    PyObject *et, *ev, *etb;
    PyErr_Fetch(&et, &ev, &etb);
    if (!deferred[0]) {
        deferred[0] = et;
        deferred[1] = ev;
        deferred[2] = etb;
    } else {
        Py_XDECREF(et);
        Py_XDECREF(ev);
        Py_XDECREF(etb);
    }
}

void arc_device_sync_quiet(arc_state *st)
{
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    if (arc_device_sync(st) < 0)
        arc_defer_error();
    PyErr_Restore(t, v, tb);
}

static int raise_deferred(void)
{
    if (!deferred[0])
        return 0;
    PyErr_Restore(deferred[0], deferred[1], deferred[2]);
    deferred[0] = deferred[1] = deferred[2] = NULL;
    return -1;
}

int arc_device_sync(arc_state *st)
{
    if (arc_ready() < 0)
        return -1;
    uint64_t mine = ++arc_sync_started;
    aclError err = arc_sync(NULL, 1);
    if (err == (aclError)-1)
        return -1; /* KeyboardInterrupt: the launches were cancelled */
    if (err != ACL_SUCCESS) {
        arc_raise(st, err, "aclrtSynchronizeDevice");
        return -1;
    }
    if (arc_sync_completed < mine)
        arc_sync_completed = mine;
    return raise_deferred();
}

static PyObject *mod_synchronize(PyObject *module, PyObject *unused)
{
    (void)unused;
    if (arc_device_sync(PyModule_GetState(module)) < 0)
        return NULL;
    Py_RETURN_NONE;
}

static int put_attr(PyObject *d, const char *key, aclrtDevAttr attr)
{
    int64_t v = 0;
    aclError err = arc_acl.aclrtGetDeviceInfo(0, attr, &v);
    PyObject *o = err == ACL_SUCCESS ? PyLong_FromLongLong(v) : Py_NewRef(Py_None);
    if (!o)
        return -1;
    int rc = PyDict_SetItemString(d, key, o);
    Py_DECREF(o);
    return rc;
}

static PyObject *mod_device_info(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    if (arc_ready() < 0)
        return NULL;
    const char *soc = arc_acl.aclrtGetSocName();
    PyObject *d = PyDict_New();
    if (!d)
        return NULL;
    PyObject *s = PyUnicode_FromString(soc ? soc : "");
    if (!s || PyDict_SetItemString(d, "soc_name", s) < 0)
        goto error;
    Py_CLEAR(s);
    if (put_attr(d, "aicore_num", ACL_DEV_ATTR_AICORE_CORE_NUM) < 0 ||
        put_attr(d, "cube_core_num", ACL_DEV_ATTR_CUBE_CORE_NUM) < 0 ||
        put_attr(d, "vector_core_num", ACL_DEV_ATTR_VECTOR_CORE_NUM) < 0 ||
        put_attr(d, "ub_size", ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE) < 0 ||
        put_attr(d, "global_mem_size", ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE) < 0 ||
        put_attr(d, "l2_cache_size", ACL_DEV_ATTR_L2_CACHE_SIZE) < 0 ||
        put_attr(d, "npu_arch", ACL_DEV_ATTR_NPU_ARCH) < 0)
        goto error;
    /* CANN reports the UB size only on 3510; the simulated SoC table knows it
     * everywhere.  Otherwise: None, not a made-up 0. */
    PyObject *ub = PyDict_GetItemString(d, "ub_size");
    if (ub && (ub == Py_None || PyLong_AsLongLong(ub) == 0)) {
        PyObject *v = arc_acl.ascendrtc_ub_size ? PyLong_FromLongLong(arc_acl.ascendrtc_ub_size())
                                                : Py_NewRef(Py_None);
        if (!v || PyDict_SetItemString(d, "ub_size", v) < 0) {
            Py_XDECREF(v);
            goto error;
        }
        Py_DECREF(v);
    }
    return d;
error:
    Py_XDECREF(s);
    Py_DECREF(d);
    return NULL;
}

static PyObject *mod_current_stream(PyObject *module, PyObject *unused)
{
    (void)unused;
    return arc_current_stream(PyModule_GetState(module));
}

static PyObject *mod_default_stream(PyObject *module, PyObject *unused)
{
    (void)unused;
    return arc_default_stream(PyModule_GetState(module));
}

/* A no-op, the floor for launch-overhead measurements. */
static PyObject *mod_noop(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    (void)args;
    (void)nargs;
    Py_RETURN_NONE;
}

static PyMethodDef mod_methods[] = {
    {"configure", (PyCFunction)(void (*)(void))arc_configure, METH_VARARGS | METH_KEYWORDS,
     "configure(backend, home)\n--\n\nChoose the backend ('sim' or 'cann') and its home directory. "
     "Fails once a different backend is loaded."},
    {"prewarm", arc_prewarm, METH_VARARGS,
     "prewarm(home) -> bool\n--\n\nReady the simulated NPU's compiler at `home` on a background thread (its "
     "libraries loaded, one throwaway compile) so that the first compile is not the slow one; False unless "
     "ASCENDRTC_PREWARM=1, or when the backend is loaded already or a prewarm ran."},
    {"backend_info", arc_backend_info, METH_NOARGS, "The chosen backend, its home and whether it is loaded."},
    {"error_name", arc_error_name_py, METH_O, "The symbolic name of an ACL error code."},
    {"takes_inferred", (PyCFunction)(void (*)(void))arc_takes_inferred, METH_FASTCALL,
     "takes_inferred(got, want) -> bool\n--\n\nWhether a GM_ADDR parameter whose element type the kernel's "
     "casts infer as `want` takes arrays of `got` at launch (that type, raw bytes, or integers of its size)."},
    {"compiler_fingerprint", arc_compiler_fingerprint, METH_NOARGS,
     "What a binary depends on besides source and options (the backend's compiler), or None when the "
     "backend does not say (a CANN home)."},
    {"resolve_arch", arc_resolve_arch, METH_O,
     "resolve_arch(options) -> str or None\n--\n\nThe --npu-arch a compile with these options targets, as "
     "the backend's option parser resolves --npu-arch and --npu-soc; None when they do not parse or the "
     "backend does not say."},
    {"set_launch_timeout", arc_set_launch_timeout, METH_O,
     "set_launch_timeout(seconds) -> bool\n--\n\nThe simulated NPU's default launch timeout (negative: "
     "back to $ASCENDRTC_LAUNCH_TIMEOUT); False when the backend has no such setting."},
    {"profile", arc_profile, METH_VARARGS,
     "profile(on, soc=None) -> bool or None\n--\n\nStart (clearing what was recorded) or stop the cost model's "
     "profiling session, pricing launches for SoC `soc` (None: the device's). Returns whether one was on; None "
     "when the backend has no cost model (a CANN home). ValueError names the known SoCs."},
    {"profile_take", arc_profile_take, METH_NOARGS,
     "profile_take() -> str\n--\n\nThe launches priced since the last take, as JSON text (docs/performance_model.md)."},
    {"synchronize", mod_synchronize, METH_NOARGS, "Wait until all work on the device has finished."},
    {"device_info", mod_device_info, METH_NOARGS,
     "A dict describing device 0: soc_name, core counts, ub_size, memory sizes, npu_arch."},
    {"default_stream", mod_default_stream, METH_NOARGS, "The stream launches use when none is given."},
    {"current_stream", mod_current_stream, METH_NOARGS,
     "This thread's current stream: the innermost `with stream:`, else the default stream."},
    {"compile", (PyCFunction)(void (*)(void))arc_compile, METH_VARARGS | METH_KEYWORDS,
     "compile(source, name, header_names, header_texts, name_expressions, options) -> (code, binary, log, lowered, "
     "detail, deps)\n--\n\n"
     "Run aclrtcCompileProg with the GIL released.  code is 0 on success; binary is bytes or None; "
     "lowered maps each name expression to its lowered symbol; detail is the failing call's message (\"\" on "
     "success); deps lists the files the compiler read (\"sha256<TAB>path\" lines), None when the backend "
     "does not say."},
    {"read_meta", arc_read_meta, METH_O,
     "read_meta(data) -> BinaryMeta or None\n--\n\nThe .arc_meta metadata of a binary built by ascendrtc's "
     "compiler (parsed by the runtime's own reader), or None when it has none."},
    {"matmul_tiling", (PyCFunction)(void (*)(void))arc_matmul_tiling_py, METH_VARARGS | METH_KEYWORDS,
     "TCubeTiling fields (a tuple of 50 ints) for a Matmul; see ascendrtc.matmul_tiling."},
    {"load_module", arc_module_load, METH_O,
     "load_module(data) -> Module\n--\n\nLoad a compiled binary on the device (aclrtBinaryLoadFromData)."},
    {"noop", (PyCFunction)(void (*)(void))mod_noop, METH_FASTCALL, "Do nothing (benchmark floor)."},
    {"adv_tiling", (PyCFunction)(void (*)(void))arc_adv_tiling, METH_VARARGS | METH_KEYWORDS,
     "adv_tiling(api, shape, ori_shape, type_size, buffer_bytes=-1, flag=False, kind=0) -> (tiling, max_tmp, min_tmp)\n--\n\n"
     "The host tiling struct of an advanced API ('pad', 'unpad', 'softmax', 'layernorm', 'rmsnorm', "
     "'confusion_transpose' with scenario kind) as bytes, with its scratch sizes; buffer_bytes < 0 tiles for the "
     "maximum scratch."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject *add_type(PyObject *m, PyType_Spec *spec)
{
    PyTypeObject *tp = (PyTypeObject *)PyType_FromModuleAndSpec(m, spec, NULL);
    if (tp && PyModule_AddType(m, tp) < 0)
        Py_CLEAR(tp);
    return tp;
}

static int mod_exec(PyObject *m)
{
    if (_import_array() < 0)
        return -1;
    arc_state *st = PyModule_GetState(m);
    st->AclError = arc_errors_get("AclError");
    st->LaunchError = arc_errors_get("LaunchError");
    if (!st->AclError || !st->LaunchError || PyModule_AddObjectRef(m, "AclError", st->AclError) < 0 ||
        PyModule_AddObjectRef(m, "LaunchError", st->LaunchError) < 0)
        return -1;
    PyObject *errors = arc_error_table(st);
    int rc = errors ? PyModule_AddObjectRef(m, "ERRORS", errors) : -1;
    Py_XDECREF(errors);
    if (rc < 0)
        return -1;
    if (!(st->DeviceArrayType = add_type(m, &devicearray_spec)) || !(st->StreamType = add_type(m, &stream_spec)) ||
        !(st->EventType = add_type(m, &event_spec)) || !(st->ModuleType = add_type(m, &module_spec)) ||
        !(st->OpHostCodeType = add_type(m, &op_host_code_spec)) ||
        !(st->KernelType = add_type(m, &kernel_spec)) || !(st->LauncherType = add_type(m, &launcher_spec)) ||
        !(st->IntentType = add_type(m, &intent_spec)) || !(st->BinaryMetaType = add_type(m, &binarymeta_spec)))
        return -1;
    if (arc_tables_init(m) < 0 || arc_op_protocol_init(m) < 0)
        return -1;
    return arc_meta_types_init(m, st);
}

static int mod_traverse(PyObject *m, visitproc visit, void *arg)
{
    arc_state *st = PyModule_GetState(m);
    Py_VISIT(st->AclError);
    Py_VISIT(st->LaunchError);
    Py_VISIT(st->DeviceArrayType);
    Py_VISIT(st->StreamType);
    Py_VISIT(st->EventType);
    Py_VISIT(st->ModuleType);
    Py_VISIT(st->OpHostCodeType);
    Py_VISIT(st->KernelType);
    Py_VISIT(st->LauncherType);
    Py_VISIT(st->IntentType);
    Py_VISIT(st->BinaryMetaType);
    Py_VISIT(st->KernelMetaType);
    Py_VISIT(st->ParamMetaType);
    Py_VISIT(st->default_stream);
    return 0;
}

static int mod_clear(PyObject *m)
{
    arc_state *st = PyModule_GetState(m);
    Py_CLEAR(st->default_stream);
    Py_CLEAR(st->AclError);
    Py_CLEAR(st->LaunchError);
    Py_CLEAR(st->DeviceArrayType);
    Py_CLEAR(st->StreamType);
    Py_CLEAR(st->EventType);
    Py_CLEAR(st->ModuleType);
    Py_CLEAR(st->OpHostCodeType);
    Py_CLEAR(st->KernelType);
    Py_CLEAR(st->LauncherType);
    Py_CLEAR(st->IntentType);
    Py_CLEAR(st->BinaryMetaType);
    Py_CLEAR(st->KernelMetaType);
    Py_CLEAR(st->ParamMetaType);
    return 0;
}

static void mod_free(void *m)
{
    mod_clear((PyObject *)m);
}

static PyModuleDef_Slot mod_slots[] = {
    {Py_mod_exec, mod_exec},
    {0, NULL},
};

PyModuleDef arc_moduledef = {
    PyModuleDef_HEAD_INIT,
    .m_name = "ascendrtc._C",
    .m_doc = "ascendrtc's C core: CANN's ACL C API (through a dlopen'd backend), device arrays, "
             "streams, events, and table-driven kernel argument packing and launch.",
    .m_size = sizeof(arc_state),
    .m_methods = mod_methods,
    .m_slots = mod_slots,
    .m_traverse = mod_traverse,
    .m_clear = mod_clear,
    .m_free = mod_free,
};

PyMODINIT_FUNC PyInit__C(void)
{
    return PyModuleDef_Init(&arc_moduledef);
}
