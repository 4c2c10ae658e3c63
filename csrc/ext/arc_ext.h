/* arc_ext.h - what the files of the _C extension share: the backend's
 * function table, the module state, the object layouts and the C
 * constructors each type exports to its siblings. */
#ifndef ARC_EXT_H_
#define ARC_EXT_H_

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>

#include "acl/acl.h"
#include "acl/acl_rt_compile.h"
#include "common/exports.h"

/* ---- backend: the ACL C API through dlopen/dlsym (backend.c) ---- */

/* Every ACL function _C calls: X(library, name).  Library 0 is
 * libascendcl.so, 1 is libacl_rtc.so. */
#define ARC_ACL_FUNCS(X)                    \
    X(0, aclInit)                           \
    X(0, aclGetRecentErrMsg)                \
    X(0, aclrtSetDevice)                    \
    X(0, aclrtSynchronizeDevice)            \
    X(0, aclrtGetSocName)                   \
    X(0, aclrtGetDeviceInfo)                \
    X(0, aclrtMalloc)                       \
    X(0, aclrtFree)                         \
    X(0, aclrtMemcpy)                       \
    X(0, aclrtMemset)                       \
    X(0, aclrtCreateStream)                 \
    X(0, aclrtDestroyStream)                \
    X(0, aclrtSynchronizeStream)            \
    X(0, aclrtStreamWaitEvent)              \
    X(0, aclrtCreateEvent)                  \
    X(0, aclrtDestroyEvent)                 \
    X(0, aclrtRecordEvent)                  \
    X(0, aclrtSynchronizeEvent)             \
    X(0, aclrtQueryEventStatus)             \
    X(0, aclrtEventElapsedTime)             \
    X(0, aclrtBinaryLoadFromData)           \
    X(0, aclrtBinaryUnLoad)                 \
    X(0, aclrtBinaryGetFunction)            \
    X(0, aclrtFunctionGetParamCount)        \
    X(0, aclrtFunctionGetParamInfo)         \
    X(0, aclrtLaunchKernelWithHostArgs)     \
    X(1, aclrtcCreateProg)                  \
    X(1, aclrtcCompileProg)                 \
    X(1, aclrtcGetBinDataSize)              \
    X(1, aclrtcGetBinData)                  \
    X(1, aclrtcGetCompileLogSize)           \
    X(1, aclrtcGetCompileLog)               \
    X(1, aclrtcAddNameExpr)                 \
    X(1, aclrtcGetLoweredName)              \
    X(1, aclrtcDestroyProg)

/* ascendrtc's own exports (common/exports.h), the only door from Python to
 * them: X(library, name).  Optional: a CANN home has none (NULL). */
#define ARC_EXT_FUNCS(X)                    \
    X(0, ascendrtc_set_recent_error)        \
    X(0, ascendrtc_set_launch_timeout)      \
    X(0, ascendrtc_ub_size)                 \
    X(0, ascendrtc_profile)                 \
    X(0, ascendrtc_profile_take)            \
    X(0, ascendrtc_profile_socs)            \
    X(0, ascendrtc_sync_polled)             \
    X(0, ascendrtc_event_sync_polled)       \
    X(0, ascendrtc_cancel)                  \
    X(0, ascendrtc_fault_recovery)          \
    X(0, ascendrtc_fault_interrupt)         \
    X(1, ascendrtc_compile_cancel)          \
    X(1, ascendrtc_rtc_fingerprint)         \
    X(1, ascendrtc_rtc_resolve_arch)        \
    X(1, ascendrtc_rtc_set_pch_store)       \
    X(1, ascendrtc_rtc_dependencies)        \
    X(1, ascendrtc_host_op_compile)         \
    X(1, ascendrtc_host_op_symbol)          \
    X(1, ascendrtc_host_op_init)            \
    X(1, ascendrtc_host_op_fini)            \
    X(1, ascendrtc_host_op_free)            \
    X(1, ascendrtc_host_free_string)

typedef struct arc_api {
#define ARC_API_FIELD(lib, name) __typeof__(&name) name;
    ARC_ACL_FUNCS(ARC_API_FIELD)
    ARC_EXT_FUNCS(ARC_API_FIELD)
#undef ARC_API_FIELD
} arc_api;

/* The table; valid once arc_ready() returned 0. */
extern arc_api arc_acl;
/* Nonzero once the backend is loaded and aclInit has run. */
extern int arc_loaded;
/* Nonzero when the backend's device memory is host memory (the simulated
 * NPU): device arrays can then be shared with NumPy/PyTorch via DLPack. */
extern int arc_host_memory;

/* Load the backend if needed, aclInit, and bind the calling thread to
 * device 0.  Returns 0, or -1 with a Python exception set.  Cheap when
 * everything is done already: the hot path calls it on every launch. */
int arc_ready_slow(void);
extern _Thread_local int arc_thread_bound;
static inline int arc_ready(void)
{
    if (arc_loaded && arc_thread_bound)
        return 0;
    return arc_ready_slow();
}

/* For deallocators: bind the calling thread to the device if the backend
 * is loaded, without raising.  Returns nonzero when ACL calls may be made. */
int arc_bind_quiet(void);

/* Wait for the work queued on stream sh (every: on every stream) with the
 * GIL released, running Python's signal handlers every few ms (wait.c).
 * Returns the synchronize's ACL code, or -1 with the exception a handler
 * raised (KeyboardInterrupt) after the queued launches were cancelled and
 * stopped.  Call with the GIL held. */
int arc_sync(aclrtStream sh, int every);
/* The same for the work before event ev's recorded point; an interrupt
 * cancels every stream's queued launches (the point may wait for any). */
int arc_sync_event(aclrtEvent ev);
/* For deallocators: arc_sync(sh, 0), or arc_sync_event(ev) when ev is not
 * NULL, keeping any exception already set; a failure is dropped (the
 * object goes away), an interrupt is kept (arc_defer_error). */
void arc_sync_quiet(aclrtStream sh, aclrtEvent ev);
/* aclrtcCompileProg(*prog, ...) with the GIL released, on a thread of its
 * own so that Ctrl-C stops it (compile_thread.c).  Returns its ACL code
 * with the failure's detail message in *detail (malloc'd, or NULL), or -1
 * with the exception a signal handler raised; *prog is then NULL when the
 * compile still runs (it frees the program itself).  GIL held. */
int arc_compile_prog(aclrtcProg *prog, int nopt, const char **opts, char **detail);

/* _C.prewarm(home): ready the compiler of the simulated NPU at `home` on a
 * background thread (prewarm.c); arc_prewarm_forget waits for it and drops
 * the libraries it loaded, before another backend is chosen. */
PyObject *arc_prewarm(PyObject *module, PyObject *args);
void arc_prewarm_forget(void);

/* set_backend/backend_info live in backend.c, and the doors to the
 * ARC_EXT_FUNCS: compiler_fingerprint, resolve_arch, set_launch_timeout. */
PyObject *arc_configure(PyObject *module, PyObject *args, PyObject *kwds);
PyObject *arc_backend_info(PyObject *module, PyObject *unused);
PyObject *arc_compiler_fingerprint(PyObject *module, PyObject *unused);
PyObject *arc_resolve_arch(PyObject *module, PyObject *options);
PyObject *arc_set_launch_timeout(PyObject *module, PyObject *arg);
/* The store the compile cache (ascendrtc/cache.py) lends the compiler for
 * its precompiled device API (pch_store.c); backend.c hands it over once
 * the backend is loaded. */
extern const ascendrtc_pch_store arc_pch_store;
/* profile.c: the cost model's session (ascendrtc/_profile.py). */
PyObject *arc_profile(PyObject *module, PyObject *args);
PyObject *arc_profile_take(PyObject *module, PyObject *unused);

/* ---- module state and errors (extension.c, errors.c) ---- */

typedef struct arc_state {
    PyObject *AclError;
    PyObject *LaunchError;
    PyTypeObject *DeviceArrayType;
    PyTypeObject *StreamType;
    PyTypeObject *EventType;
    PyTypeObject *ModuleType;
    PyTypeObject *OpHostCodeType;
    PyTypeObject *KernelType;
    PyTypeObject *LauncherType;
    PyTypeObject *IntentType;
    PyTypeObject *BinaryMetaType;
    PyTypeObject *KernelMetaType; /* struct sequences of BinaryMeta.kernels */
    PyTypeObject *ParamMetaType;
    PyObject *default_stream; /* a StreamObject, created on first use */
} arc_state;

extern PyModuleDef arc_moduledef;
/* The state of the _C module that defined `tp` (or a base of it), or NULL
 * (its module is gone: interpreter shutdown).  Kernels cache theirs. */
arc_state *arc_state_of_type(PyTypeObject *tp);

/* Raise AclError (or LaunchError for launch/kernel failures) for `err`
 * from `api`: "ACL_ERROR_X (code): api: detail". Returns NULL. */
PyObject *arc_raise(arc_state *st, aclError err, const char *api);
/* Same, always as LaunchError. */
PyObject *arc_raise_launch(arc_state *st, aclError err, const char *api);
/* AclError (launch 0) or LaunchError (1), a new reference: from `st`, or
 * when there is none (backend loading) from ascendrtc._errors, where the
 * classes live. */
PyObject *arc_error_class(arc_state *st, int launch);
/* The class `name` of ascendrtc._errors (a new reference), where every
 * exception the extension raises is defined. */
PyObject *arc_errors_get(const char *name);
/* Raise ascendrtc's HostCompileError (op host code did not compile or
 * load: stage "compile") with the message and .log (NULL: ""). Returns NULL. */
PyObject *arc_raise_host_compile(PyObject *log, const char *fmt, ...);
/* Raise HostCompileError(msg, log (NULL: ""), stage, file (NULL: None)). Returns NULL. */
PyObject *arc_raise_host_error(PyObject *msg, PyObject *log, const char *stage, PyObject *file);
/* The symbolic name of an ACL error code, or "ACL_ERROR_UNKNOWN". */
const char *arc_err_name(aclError err);
PyObject *arc_error_name_py(PyObject *module, PyObject *code);
PyObject *arc_takes_inferred(PyObject *module, PyObject *const *args, Py_ssize_t nargs);
/* _C.ERRORS: (code, name, exception class, message) per row of the error
 * table (include/acl/acl_error_table.h). */
PyObject *arc_error_table(arc_state *st);

/* ---- streams and events (stream.c, event.c) ---- */

typedef struct {
    PyObject_HEAD
    aclrtStream handle;
    int is_default;
} StreamObject;

typedef struct {
    PyObject_HEAD
    aclrtEvent handle;
    int recorded;
} EventObject;

extern PyType_Spec stream_spec;
extern PyType_Spec event_spec;
/* The handle for a `stream=` argument: None means the module's default
 * stream.  Returns 0 or -1 with TypeError set. */
int arc_stream_from_obj(arc_state *st, PyObject *obj, aclrtStream *out);
/* The default stream object (a new reference), created on first use. */
PyObject *arc_default_stream(arc_state *st);
PyObject *arc_current_stream(arc_state *st); /* the innermost `with stream:` of this thread, else the default */

/* ---- device arrays (devicearray.c) ---- */

#define ARC_MAXDIMS 32

typedef struct {
    PyObject_HEAD
    void *ptr;             /* device address */
    size_t nbytes;
    int nd;
    Py_ssize_t shape[ARC_MAXDIMS];
    Py_ssize_t strides[ARC_MAXDIMS];
    PyObject *descr;       /* PyArray_Descr */
    PyObject *owner;       /* the array owning the allocation, or NULL */
    uint64_t used_mark;    /* arc_sync_started+1 at its last launch; 0 = never */
    PyObject *weakreflist;
} DeviceArrayObject;

extern PyType_Spec devicearray_spec;
/* A new C-contiguous device array (uninitialised). */
PyObject *arc_devicearray_new(arc_state *st, int nd, const Py_ssize_t *shape, PyObject *descr);
/* Device synchronisation bookkeeping: a device sync that started after an
 * array's last launch finished that launch.  arc_sync_started counts syncs
 * begun, arc_sync_completed the highest started-count known finished. */
extern uint64_t arc_sync_started, arc_sync_completed;
/* aclrtSynchronizeDevice with the GIL released; updates the counters.
 * Returns 0 or -1 with an exception set (also when an earlier sync's
 * error was deferred, see arc_device_sync_quiet). */
int arc_device_sync(arc_state *st);
/* arc_device_sync for deallocators, which cannot raise: a failure (the
 * error of a launch that was still queued) is kept and raised by the next
 * arc_device_sync (synchronize(), get(), ...), not lost.  Leaves any
 * exception already set untouched. */
void arc_device_sync_quiet(arc_state *st);
/* For deallocators: take the exception set now and keep it for the next
 * arc_device_sync, except a KeyboardInterrupt, which is raised again at
 * the program's next bytecode (PyErr_SetInterrupt). */
void arc_defer_error(void);
/* Wait for the device when `a` (or its owner) took part in a launch that
 * may still be running.  Returns 0 or -1. */
int arc_devicearray_settle(DeviceArrayObject *a);
/* Mark an array as referenced by queued work. */
static inline void arc_devicearray_mark_used(DeviceArrayObject *a)
{
    a->used_mark = arc_sync_started + 1;
    if (a->owner)
        ((DeviceArrayObject *)a->owner)->used_mark = arc_sync_started + 1;
}

/* ---- intent wrappers In/Out/InOut (intent.c) ---- */

enum arc_intent { ARC_IN = 1, ARC_OUT = 2, ARC_INOUT = 3 };
typedef struct {
    PyObject_HEAD
    PyObject *obj;
    int intent;
} IntentObject;
extern PyType_Spec intent_spec;

/* ---- binary metadata (binarymeta.c) ---- */

#include "common/meta.h"

typedef struct {
    PyObject_HEAD
    arc_meta meta;     /* parsed by common/meta.c */
    PyObject *kernels; /* tuple of KernelMeta */
} MetaObject;

extern PyType_Spec binarymeta_spec;
/* Create the KernelMeta/ParamMeta types and the PARAM_KINDS and
 * SCALAR_TYPES constants on module m.  Returns 0 or -1. */
int arc_meta_types_init(PyObject *m, arc_state *st);
/* The ARCHS, SOCS and GE_DTYPES constants on module m (tables.c).  Returns 0 or -1. */
int arc_tables_init(PyObject *m);
/* _C.OP_PARAM_TYPES, OP_ATTR_KINDS, OP_STAGES, OP_MODES and
 * OP_SHAPE_UNKNOWN from host_api/arc/op_protocol.h (op_host_code.c). */
int arc_op_protocol_init(PyObject *m);
/* _C.read_meta(data) */
PyObject *arc_read_meta(PyObject *module, PyObject *data);
/* _C.matmul_tiling(M, N, K, in_size, out_size, bias_size, cores, ...): TCubeTiling fields (matmul_tiling.c). */
PyObject *arc_matmul_tiling_py(PyObject *module, PyObject *args, PyObject *kw);
/* The kernel of a BinaryMeta (or None/NULL) whose symbol is `symbol`, or NULL. */
const arc_kernel_meta *arc_meta_kernel(PyObject *meta, const char *symbol);

/* ---- modules (binaries loaded on the device), kernels and launch (module_object.c, kernel.c, argpack.c) ---- */

typedef struct {
    PyObject_HEAD
    aclrtBinHandle handle;
} ModuleObject;

extern PyType_Spec module_spec;
/* _C.OpHostCode: an op project's host code (op_host_code.c). */
extern PyType_Spec op_host_code_spec;
/* _C.load_module(data) -> Module (module_object.c). */
PyObject *arc_module_load(PyObject *module, PyObject *data);

struct KernelObject;

/* One parameter of a kernel, as packing needs it.  pack() writes the
 * argument at dst for kernel k (whose signature and state its errors
 * use): 0 packed, 1 needs a temporary device copy, -1 error. */
typedef struct arc_param_desc {
    uint32_t offset, size, kind;
    PyObject *name;   /* str */
    PyObject *ctype;  /* str, the spelled type or a size-only description */
    PyObject *want;   /* pointers to a typed element: its NumPy dtype, else NULL */
    int inferred;     /* want is the element type inferred for a byte pointer (GM_ADDR) */
    int (*pack)(const struct KernelObject *k, const struct arc_param_desc *p, PyObject *arg, unsigned char *dst);
} arc_param_desc;

typedef struct KernelObject {
    PyObject_HEAD
    aclrtFuncHandle handle;
    PyObject *module;       /* ModuleObject keeping the binary loaded */
    PyObject *name;         /* str */
    PyObject *intents;      /* tuple of intents per param, or NULL */
    Py_ssize_t nparams;
    size_t args_size;
    arc_param_desc *params;
    PyObject *signature;    /* "add_custom(x, y, z)" for messages */
    PyTypeObject *dev_type; /* DeviceArray type, borrowed from state */
    arc_state *st;
    vectorcallfunc vectorcall;
    uint32_t simt_threads;  /* SIMT kernel: most threads per block; 0: SIMD kernel */
} KernelObject;

typedef struct {
    PyObject_HEAD
    KernelObject *kernel;
    uint32_t block_dim;
    PyObject *stream;       /* StreamObject or NULL for the default */
    vectorcallfunc vectorcall;
    int simt;               /* kernel[grid, block, shared, stream] of a SIMT kernel */
    uint32_t grid[3], block[3], dyn_ub;
} LauncherObject;

/* kernel[grid, block], kernel[grid, block, shared], kernel[grid, block,
 * shared, stream] of a SIMT kernel (simt_launch.c); grid and block are
 * ints or tuples of 1-3 ints.  Fills l's shape and stream; 0 or -1. */
int arc_simt_subscript(KernelObject *k, PyObject *key, LauncherObject *l);
/* The launch attributes of a SIMT launcher (block, grid, dynamic UB) into
 * attr[0..2]; returns how many. */
int arc_simt_attrs(const LauncherObject *l, aclrtLaunchKernelAttr *attr);

extern PyType_Spec kernel_spec;
extern PyType_Spec launcher_spec;
/* Build a Kernel for `fn` of module `mod`, its parameters described by `km`
 * (the binary's metadata for it), or by sizes only when km is NULL or
 * disagrees with the backend's parameter count. */
PyObject *arc_kernel_new(arc_state *st, PyObject *mod, aclrtFuncHandle fn, PyObject *name,
                         const arc_kernel_meta *km);
/* kernel_params.c: "name(x, y, raw: untyped, n)" for messages, and the
 * Kernel's parameter views (params, param_types, dtypes, intents). */
PyObject *arc_kernel_signature(KernelObject *k);
extern PyGetSetDef arc_kernel_getset[];

/* argpack.c: pick the pack function for a kind; fill args; launch. */
void arc_param_bind(arc_param_desc *p);
/* cfg: launch attributes (the tiling key), or NULL. */
PyObject *arc_kernel_launch(KernelObject *k, uint32_t block_dim, PyObject *stream, PyObject *const *args,
                            Py_ssize_t nargs, int pack_only, aclrtLaunchKernelCfg *cfg);

/* dlpack.c: DeviceArray.__dlpack__/__dlpack_device__, and host arrays
 * from objects exporting DLPack (a new ndarray sharing their memory, or NULL
 * with an exception set). */
PyObject *arc_devicearray_dlpack(PyObject *self, PyObject *args, PyObject *kwds);
PyObject *arc_devicearray_dlpack_device(PyObject *self, PyObject *unused);
PyObject *arc_ndarray_from_dlpack(PyObject *obj);

/* compile.c */
PyObject *arc_compile(PyObject *module, PyObject *args, PyObject *kwds);

/* adv_tiling.c: the advanced API's host tiling (pad, unpad, softmax, layernorm, rmsnorm) */
PyObject *arc_adv_tiling(PyObject *module, PyObject *args, PyObject *kwds);

#endif /* ARC_EXT_H_ */
