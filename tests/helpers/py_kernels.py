"""Kernel sources and compiled-once fixtures for the Python-API suites
(tests/test_py_*.py)."""
import threading

import numpy as np

from helpers.acl import ADD_TEMPLATE  # noqa: E402  (the seed's add kernel, {N} and {T} to fill in)

CTYPES = {np.dtype(np.float32): "float", np.dtype(np.float16): "half", np.dtype(np.int32): "int32_t"}

# Writes every scalar it receives to out (block 0 only), so packing can be
# checked end to end against NumPy's own encodings.
SCALARS_SRC = r'''
#include "kernel_operator.h"
struct Tiling { uint32_t n; float alpha; };
extern "C" __global__ __aicore__ void scalars(GM_ADDR out, int32_t a, uint8_t b, float c, half d, bool e,
                                              int64_t f, uint64_t g, double h, Tiling t, GM_ADDR tiling_buf)
{
    if (AscendC::GetBlockIdx() != 0) return;
    __gm__ uint8_t *o = (__gm__ uint8_t *)out;
    *(__gm__ int32_t *)(o + 0) = a;
    *(__gm__ uint8_t *)(o + 4) = b;
    *(__gm__ float *)(o + 8) = c;
    *(__gm__ half *)(o + 12) = d;
    *(__gm__ uint8_t *)(o + 14) = e ? 1 : 0;
    *(__gm__ int64_t *)(o + 16) = f;
    *(__gm__ uint64_t *)(o + 24) = g;
    *(__gm__ double *)(o + 32) = h;
    *(__gm__ uint32_t *)(o + 40) = t.n;
    *(__gm__ float *)(o + 44) = t.alpha;
    *(__gm__ uint32_t *)(o + 48) = ((__gm__ uint32_t *)tiling_buf)[0];
    *(__gm__ float *)(o + 52) = ((__gm__ float *)tiling_buf)[1];
}
'''

SCALARS_OUT = np.dtype([("a", "<i4"), ("b", "u1"), ("_p0", "V3"), ("c", "<f4"), ("d", "<f2"), ("e", "u1"),
                        ("_p1", "V1"), ("f", "<i8"), ("g", "<u8"), ("h", "<f8"), ("tn", "<u4"), ("ta", "<f4"),
                        ("bn", "<u4"), ("ba", "<f4"), ("_p2", "V8")])
TILING = np.dtype([("n", "<u4"), ("alpha", "<f4")])

EMPTY_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void empty3(GM_ADDR x, GM_ADDR y, GM_ADDR z) {}
'''

_lock = threading.RLock()
_cache = {}


def add_source(dtype, n=256):
    return ADD_TEMPLATE.replace("{N}", str(n)).replace("{T}", CTYPES[np.dtype(dtype)])


def compiled(key, make):
    """Compile once per test session (make() -> Binary), keyed by `key`."""
    with _lock:
        if key not in _cache:
            _cache[key] = make()
        return _cache[key]


def add_binary(dtype=np.float32, n=256):
    import ascendrtc as arc
    return compiled(("add-bin", np.dtype(dtype).str, n),
                    lambda: arc.Program(add_source(dtype, n), "add_custom.asc").compile(["--npu-arch=dav-2201"]))


def add_kernel(dtype=np.float32, n=256):
    """The seed's add kernel for `dtype`, compiled and loaded once per session."""
    return compiled(("add", np.dtype(dtype).str, n), lambda: add_binary(dtype, n).load().get_kernel("add_custom"))


def scalars_kernel():
    import ascendrtc as arc
    return compiled("scalars", lambda: arc.Program(SCALARS_SRC, "scalars.asc").compile().load().get_kernel("scalars"))


def empty_kernel():
    import ascendrtc as arc
    return compiled("empty3", lambda: arc.Program(EMPTY_SRC, "empty.asc").compile().load().get_kernel("empty3"))
