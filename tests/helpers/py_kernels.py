"""Kernel sources and compiled-once fixtures for the Python-API suites
(tests/test_py_*.py)."""
import threading

import numpy as np

# The seed's add kernel with the element type and length templated in.
ADD_TEMPLATE = r'''
#include "kernel_operator.h"
constexpr int32_t TOTAL_LENGTH = {N};                                 // total length of data
constexpr int32_t USE_CORE_NUM = 8;                                   // num of core used
constexpr int32_t BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;         // length computed of each core
constexpr int32_t TILE_NUM = 1;                                       // split data into 1 tiles for each core
constexpr int32_t BUFFER_NUM = 2;                                     // tensor num for each queue
constexpr int32_t TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM; // separate to 2 parts, due to double buffer
using T = {T};

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ T *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ T *)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(T));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(T));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        int32_t loopCount = TILE_NUM * BUFFER_NUM;
        for (int32_t i = 0; i < loopCount; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.AllocTensor<T>();
        AscendC::DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        AscendC::DataCopy(yLocal, yGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
        inQueueY.EnQue(yLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        AscendC::LocalTensor<T> xLocal = inQueueX.DeQue<T>();
        AscendC::LocalTensor<T> yLocal = inQueueY.DeQue<T>();
        AscendC::LocalTensor<T> zLocal = outQueueZ.AllocTensor<T>();
        AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
        outQueueZ.EnQue<T>(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        AscendC::LocalTensor<T> zLocal = outQueueZ.DeQue<T>();
        AscendC::DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<T> xGm;
    AscendC::GlobalTensor<T> yGm;
    AscendC::GlobalTensor<T> zGm;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
'''

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
