"""A tunable element-wise kernel for the cost-model tests (tests/test_cost_model.py)
and the tuning guide: tile size, buffer count (single/double buffering) and
the vector work per tile are launch arguments, so one compile serves every
variant."""
import numpy as np

TUNED_SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

// z = op^reps(x, y) over `total` floats split evenly between the blocks, in
// tiles of `tile` floats through `bufs` buffers per queue (2: double buffering).
// op 0: z = x + y (reps ignored); op 1/2/3: z = x, then reps x Muls(z, 1) /
// Max(z, x) / Div(z, y) with y = 1 (the value stays x, the vector work grows).
class Tuned {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile, uint32_t bufs,
                                uint32_t reps, uint32_t op)
    {
        len_ = total / GetBlockNum();
        tile_ = tile;
        reps_ = reps;
        op_ = op;
        xg_.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * len_, len_);
        yg_.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * len_, len_);
        zg_.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * len_, len_);
        pipe_.InitBuffer(qx_, bufs, tile * sizeof(float));
        pipe_.InitBuffer(qy_, bufs, tile * sizeof(float));
        pipe_.InitBuffer(qz_, bufs, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < len_ / tile_; i++) {
            CopyIn(i);
            Compute();
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(uint32_t i)
    {
        LocalTensor<float> a = qx_.AllocTensor<float>();
        LocalTensor<float> b = qy_.AllocTensor<float>();
        DataCopy(a, xg_[i * tile_], tile_);
        DataCopy(b, yg_[i * tile_], tile_);
        qx_.EnQue(a);
        qy_.EnQue(b);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<float> a = qx_.DeQue<float>();
        LocalTensor<float> b = qy_.DeQue<float>();
        LocalTensor<float> c = qz_.AllocTensor<float>();
        if (op_ == 0) {
            Add(c, a, b, tile_);
        } else {
            Muls(c, a, 1.0f, tile_);
            for (uint32_t r = 0; r < reps_; r++) {
                PipeBarrier<PIPE_V>();
                if (op_ == 1) Muls(c, c, 1.0f, tile_);
                else if (op_ == 2) Max(c, c, a, tile_);
                else Div(c, c, b, tile_);
            }
        }
        qz_.EnQue(c);
        qx_.FreeTensor(a);
        qy_.FreeTensor(b);
    }
    __aicore__ inline void CopyOut(uint32_t i)
    {
        LocalTensor<float> c = qz_.DeQue<float>();
        DataCopy(zg_[i * tile_], c, tile_);
        qz_.FreeTensor(c);
    }

    TPipe pipe_;
    TQue<TPosition::VECIN, 2> qx_, qy_;
    TQue<TPosition::VECOUT, 2> qz_;
    GlobalTensor<float> xg_, yg_, zg_;
    uint32_t len_, tile_, reps_, op_;
};

extern "C" __global__ __aicore__ void tuned(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tile,
                                            uint32_t bufs, uint32_t reps, uint32_t op)
{
    Tuned k;
    k.Init(x, y, z, total, tile, bufs, reps, op);
    k.Process();
}
'''

OPS = {"add": 0, "muls": 1, "max": 2, "div": 3}


def tuned_kernel():
    """The kernel, compiled and loaded once per test session."""
    import ascendrtc as arc
    from helpers.py_kernels import compiled
    return compiled("cost-tuned", lambda: arc.Program(TUNED_SRC, "tuned.asc").compile().load().get_kernel("tuned"))


def inputs(total, op):
    rng = np.random.default_rng(total)
    x = rng.standard_normal(total).astype(np.float32)
    y = rng.standard_normal(total).astype(np.float32) if op == "add" else np.ones(total, np.float32)
    return x, y


def expected(x, y, op):
    return x + y if op == "add" else x


def profiled_matmul_api(kernel, S=1024, soc="Ascend910B2"):
    """examples/kernels/matmul_api.asc's kernel on an S^3 fp16 matmul with
    ascendrtc.matmul_tiling's tiling for 24 cores, profiled for `soc`:
    (its report, a, b, c)."""
    import ascendrtc as arc
    import ascendrtc.matmul_tiling as mt
    t = mt.tiling(S, S, S, cores=24)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((S, S)).astype(np.float16)
    b = rng.standard_normal((S, S)).astype(np.float16)
    c = np.zeros((S, S), np.float32)
    with arc.profile(soc) as prof:
        kernel[t.usedCoreNum](a, b, np.zeros(S, np.float32), c, t.array())
    return prof[0], a, b, c
