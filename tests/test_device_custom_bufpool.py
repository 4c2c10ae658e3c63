"""Device API: a custom TBufPool (EXTERN_IMPL_BUFPOOL, arc/buf_pool.h; its
pages' GetBufHandle/GetCurAddr/SetCurAddr/GetCurBufSize/SetCurBufSize and
the queues' InitStartBufHandle/InitBufHandle, arc/pipe.h): a user pool
carving a two-block TQue and a TBuf that compute against NumPy, its reset
and reuse; a block outside the pool, a queue's blocks not back to back and
a handle past BUFID_SIZE refused naming the problem."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

class MyPool {
public:
    __aicore__ inline MyPool() { Init(); }
    // num blocks of len bytes from the current address, `gap` bytes apart
    template <class T> __aicore__ inline bool InitBuffer(T &que, uint8_t num, uint32_t len, uint32_t gap = 0)
    {
        TBufHandle h = GetBufHandle(GetCurBufSize());
        uint32_t a = GetCurAddr();
        que.InitStartBufHandle(h, num, len);
        for (uint32_t i = 0; i < num; i++) que.InitBufHandle(this, i, h, a + i * (len + gap), len);
        SetCurAddr(a + num * (len + gap));
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(MyPool, TPosition::VECCALC, 4);
};

template <int MODE> __aicore__ inline void Run(GM_ADDR x, GM_ADDR z)
{
    TPipe pipe;
    MyPool pool;
    TQue<TPosition::VECIN, 2> q;
    TBuf<TPosition::VECCALC> tb;
    pipe.InitBufPool(pool, 3 * 256);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x);
    gz.SetGlobalBuffer((__gm__ float *)z);
    for (int round = 0; round < 2; round++) {  // the pool reset and carved again
        pool.InitBuffer(q, 2, MODE == 1 ? 512 : 256, MODE == 2 ? 32 : 0);
        pool.InitBuffer(tb, 1, 256);
        if (MODE == 3) pool.GetBufHandle(4);
        for (int i = 0; i < 2; i++) {
            LocalTensor<float> t = q.AllocTensor<float>();
            DataCopy(t, gx[(round * 2 + i) * 64], 64);
            q.EnQue(t);
            t = q.DeQue<float>();
            LocalTensor<float> w = tb.Get<float>();
            Muls(w, t, (float)(round + 2), 64);
            PipeBarrier<PIPE_ALL>();
            DataCopy(gz[(round * 2 + i) * 64], w, 64);
            PipeBarrier<PIPE_ALL>();
            q.FreeTensor(t);
        }
        pool.Reset();
    }
}
extern "C" __global__ __aicore__ void pool_ok(GM_ADDR x, GM_ADDR z) { Run<0>(x, z); }
extern "C" __global__ __aicore__ void pool_big(GM_ADDR x, GM_ADDR z) { Run<1>(x, z); }
extern "C" __global__ __aicore__ void pool_gap(GM_ADDR x, GM_ADDR z) { Run<2>(x, z); }
extern "C" __global__ __aicore__ void pool_handle(GM_ADDR x, GM_ADDR z) { Run<3>(x, z); }
'''


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "custom_pool.asc")


def run(mod, name):
    x = np.arange(256, dtype=np.float32)
    z = np.zeros(256, np.float32)
    mod.get_kernel(name)[1](x, z)
    arc.synchronize()
    return x, z


def test_custom_pool_queue_and_tbuf(mod):
    x, z = run(mod, "pool_ok")
    np.testing.assert_array_equal(z, np.r_[x[:128] * 2, x[128:] * 3])


@pytest.mark.parametrize("name,msg", [
    ("pool_big", r"AscendC::InitBufHandle: a 512-byte block at 512 exceeds MyPool's 768 bytes"),
    ("pool_gap", r"AscendC::InitBufHandle: block 1 at pool address 288 does not follow block 0"),
    ("pool_handle", r"MyPool::GetBufHandle: block 4 of 4"),
])
def test_custom_pool_refusals(mod, name, msg):
    with pytest.raises(arc.LaunchError, match=msg):
        run(mod, name)
