/* tables.c - csrc/common's tables as Python constants: _C.ARCHS and
 * _C.SOCS (common/socs.h), _C.GE_DTYPES (common/ge_dtypes.h), and the op
 * host protocol's codes (host_api/arc/op_protocol.h: _C.OP_PARAM_TYPES,
 * OP_ATTR_KINDS, OP_STAGES, OP_MODES).  Python reads these facts here and
 * nowhere else. */
#include "arc_ext.h"

#include "common/ge_dtypes.h"
#include "common/socs.h"
#include "host_api/arc/op_protocol.h"

/* d[key] = v, taking the reference; -1 (an error set) when v is NULL. */
static int put(PyObject *d, const char *key, PyObject *v)
{
    int rc = v ? PyDict_SetItemString(d, key, v) : -1;
    Py_XDECREF(v);
    return rc;
}

static PyObject *archs(void)
{
    PyObject *all = PyDict_New();
#define ARCH_ROW(a, n, ub, l1, l0a, l0b, l0c, bt, vl, warp, thr, soc)                                                     \
    if (all) {                                                                                                        \
        PyObject *r = Py_BuildValue("{s:s,s:I,s:K,s:K,s:K,s:K,s:K,s:K,s:I,s:I,s:I,s:s}", "arch", a, "npu_arch", n,     \
                                    "ub", (unsigned long long)(ub) << 10, "l1", (unsigned long long)(l1) << 10, "l0a", \
                                    (unsigned long long)(l0a) << 10, "l0b", (unsigned long long)(l0b) << 10, "l0c",   \
                                    (unsigned long long)(l0c) << 10, "bias_table", (unsigned long long)(bt) << 10,    \
                                    "vl_bytes", vl, "warp_size", warp,                                                \
                                    "max_threads", thr, "soc", soc);                                                  \
        if (put(all, a, r) < 0)                                                                                       \
            Py_CLEAR(all);                                                                                            \
    }
    ARC_ARCHS(ARCH_ROW)
#undef ARCH_ROW
    return all;
}

static PyObject *socs(void)
{
    PyObject *all = PyDict_New();
#define SOC_ROW(name, n, short, aic, aiv, aicpu, mhz, l2, hbm, gm, l2bw)                                                     \
    if (all) {                                                                                                        \
        PyObject *r = Py_BuildValue("{s:s,s:I,s:s,s:I,s:I,s:I,s:I,s:K,s:K,s:I,s:I}", "soc", name, "npu_arch", n,     \
                                    "short", short, "aic", aic, "aiv", aiv, "aicpu", aicpu, "mhz", mhz, "l2",        \
                                    (unsigned long long)(l2) << 20, "hbm", (unsigned long long)(hbm) << 30,           \
                                    "gm_gbps", gm, "l2_gbps", l2bw);                                                  \
        if (put(all, name, r) < 0)                                                                                    \
            Py_CLEAR(all);                                                                                            \
    }
    ARC_SOCS(SOC_ROW)
#undef SOC_ROW
    return all;
}

static PyObject *ge_dtypes(void)
{
    static const struct { const char *name; int value, bytes; const char *dtype, *ctype; } rows[] = {
#define GE_ROW(name, value, bytes, dtype, ctype) {#name, value, bytes, dtype, ctype},
        ARC_GE_DTYPES(GE_ROW)
#undef GE_ROW
    };
    Py_ssize_t n = (Py_ssize_t)(sizeof rows / sizeof *rows);
    PyObject *t = PyTuple_New(n);
    for (Py_ssize_t i = 0; t && i < n; i++) {
        PyObject *r = Py_BuildValue("(siiss)", rows[i].name, rows[i].value, rows[i].bytes, rows[i].dtype,
                                    rows[i].ctype);
        if (!r)
            Py_CLEAR(t);
        else
            PyTuple_SET_ITEM(t, i, r);
    }
    return t;
}

int arc_tables_init(PyObject *m)
{
    PyObject *a = archs(), *s = socs(), *g = ge_dtypes();
    int rc = a && s && g ? 0 : -1;
    if (!rc)
        rc = PyModule_AddObjectRef(m, "ARCHS", a) | PyModule_AddObjectRef(m, "SOCS", s) |
             PyModule_AddObjectRef(m, "GE_DTYPES", g) | PyModule_AddIntConstant(m, "LIB_API_WORKSPACE", ARC_LIB_API_WORKSPACE);
    Py_XDECREF(a);
    Py_XDECREF(s);
    Py_XDECREF(g);
    return rc ? -1 : 0;
}

/* name -> value dicts (OP_ATTR_KINDS: name -> (value, the definition's
 * word); OP_STAGES: value -> what runs there) of the protocol's tables. */
int arc_op_protocol_init(PyObject *m)
{
    PyObject *d[4] = {PyDict_New(), PyDict_New(), PyDict_New(), PyDict_New()};
    int ok = d[0] && d[1] && d[2] && d[3];
#define ARC_ADD(dict, key, val)                                                   \
    do {                                                                          \
        PyObject *k_ = (key), *v_ = (val);                                        \
        ok = ok && k_ && v_ && PyDict_SetItem(dict, k_, v_) == 0;                 \
        Py_XDECREF(k_);                                                           \
        Py_XDECREF(v_);                                                           \
    } while (0)
#define ARC_PT(id, v) ARC_ADD(d[0], PyUnicode_FromString(#id), PyLong_FromLong(v));
    ARC_OP_PARAM_TYPES(ARC_PT)
#define ARC_AK(id, v, what) ARC_ADD(d[1], PyUnicode_FromString(#id), Py_BuildValue("(is)", v, what));
    ARC_OP_ATTR_KINDS(ARC_AK)
#define ARC_ST(id, v, what) ARC_ADD(d[2], PyLong_FromLong(v), PyUnicode_FromString(what));
    ARC_OP_STAGES(ARC_ST)
#define ARC_MD(id, v) ARC_ADD(d[3], PyUnicode_FromString(#id), PyLong_FromLong(v));
    ARC_OP_MODES(ARC_MD)
#undef ARC_PT
#undef ARC_AK
#undef ARC_ST
#undef ARC_MD
#undef ARC_ADD
    const char *names[4] = {"OP_PARAM_TYPES", "OP_ATTR_KINDS", "OP_STAGES", "OP_MODES"};
    for (int i = 0; i < 4; i++) {
        if (ok && PyModule_AddObjectRef(m, names[i], d[i]) < 0)
            ok = 0;
        Py_XDECREF(d[i]);
    }
    return ok && PyModule_AddIntConstant(m, "OP_SHAPE_UNKNOWN", ARC_OP_SHAPE_UNKNOWN) == 0 ? 0 : -1;
}
