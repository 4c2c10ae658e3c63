/* simt_launch.c - kernel[grid, block, shared, stream] for SIMT kernels, as
 * CuPy's RawKernel is called: grid and block are ints or tuples of 1-3 ints
 * (missing dimensions are 1), shared is the dynamic UB in bytes (CANN's
 * dyn_ubuf_size), stream an ascendrtc.Stream or None.  The shape travels
 * as launch attributes (ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK/GRID and
 * DYN_UBUF_SIZE); the runtime checks it against the kernel and the arch. */
#include <string.h>

#include "arc_ext.h"
#include "device/arc/simt_abi.h"

static int dims(KernelObject *k, PyObject *o, const char *what, uint32_t out[3])
{
    out[0] = out[1] = out[2] = 1;
    PyObject *items[3] = {o, NULL, NULL};
    Py_ssize_t n = 1;
    if (PyTuple_Check(o)) {
        n = PyTuple_GET_SIZE(o);
        if (n < 1 || n > 3) {
            PyErr_Format(PyExc_ValueError, "%U: %s must be an int or a tuple of 1 to 3 ints, got %zd items",
                         k->signature, what, n);
            return -1;
        }
        for (Py_ssize_t i = 0; i < n; i++)
            items[i] = PyTuple_GET_ITEM(o, i);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (PyBool_Check(items[i]) || !PyIndex_Check(items[i])) {
            PyErr_Format(PyExc_TypeError, "%U: %s must be an int or a tuple of 1 to 3 ints, not %.100s", k->signature,
                         what, Py_TYPE(items[i])->tp_name);
            return -1;
        }
        Py_ssize_t v = PyNumber_AsSsize_t(items[i], NULL);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 1 || v > 65535) {
            PyErr_Format(PyExc_ValueError, "%U: %s %c is %zd; each dimension must be in [1, 65535]", k->signature,
                         what, "xyz"[i], v);
            return -1;
        }
        out[i] = (uint32_t)v;
    }
    return 0;
}

int arc_simt_subscript(KernelObject *k, PyObject *key, LauncherObject *l)
{
    Py_ssize_t n = PyTuple_Check(key) ? PyTuple_GET_SIZE(key) : 1;
    if (n < 2 || n > 4) {
        PyErr_Format(PyExc_TypeError, "%U is a SIMT kernel: launch it as kernel[grid, block], kernel[grid, block, "
                     "shared] or kernel[grid, block, shared, stream] (grid and block: ints or tuples of 1 to 3 ints)",
                     k->signature);
        return -1;
    }
    l->simt = 1;
    l->dyn_ub = 0;
    if (dims(k, PyTuple_GET_ITEM(key, 0), "grid", l->grid) < 0 || dims(k, PyTuple_GET_ITEM(key, 1), "block", l->block) < 0)
        return -1;
    unsigned long long g = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
    if (g > ARC_SIMT_MAX_BLOCKS) {
        PyErr_Format(PyExc_ValueError, "%U: grid (%u, %u, %u) has %llu blocks; a SIMT grid has at most %u",
                     k->signature, l->grid[0], l->grid[1], l->grid[2], g, ARC_SIMT_MAX_BLOCKS);
        return -1;
    }
    l->block_dim = (uint32_t)g;
    if (n >= 3) {
        PyObject *s = PyTuple_GET_ITEM(key, 2);
        if (PyBool_Check(s) || !PyIndex_Check(s)) {
            PyErr_Format(PyExc_TypeError, "%U: shared (dynamic UB bytes) must be an int, not %.100s", k->signature,
                         Py_TYPE(s)->tp_name);
            return -1;
        }
        Py_ssize_t v = PyNumber_AsSsize_t(s, NULL);
        if (v == -1 && PyErr_Occurred())
            return -1;
        if (v < 0 || v > (Py_ssize_t)UINT32_MAX) {
            PyErr_Format(PyExc_ValueError, "%U: shared must be in [0, 2**32) bytes, got %zd", k->signature, v);
            return -1;
        }
        l->dyn_ub = (uint32_t)v;
    }
    if (n == 4) {
        PyObject *s = PyTuple_GET_ITEM(key, 3);
        if (s != Py_None && !PyObject_TypeCheck(s, k->st->StreamType)) {
            PyErr_Format(PyExc_TypeError, "%U: stream must be an ascendrtc.Stream or None, not %.100s", k->signature,
                         Py_TYPE(s)->tp_name);
            return -1;
        }
        l->stream = s != Py_None ? Py_NewRef(s) : NULL;
    }
    return 0;
}

int arc_simt_attrs(const LauncherObject *l, aclrtLaunchKernelAttr *attr)
{
    memset(attr, 0, 3 * sizeof *attr);
    attr[0].id = ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_BLOCK;
    memcpy(attr[0].value.rsv, l->block, sizeof l->block);
    attr[1].id = ASCENDRTC_LAUNCH_KERNEL_ATTR_SIMT_GRID;
    memcpy(attr[1].value.rsv, l->grid, sizeof l->grid);
    attr[2].id = ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE;
    attr[2].value.dynUBufSize = l->dyn_ub;
    return 3;
}
