"""Fill / InitConstValue (asc-devkit docs, Fill): repeatTimes runs of
blockNum blocks set to initValue, dstGap blocks apart; blocks of 32 B in L1
(A1/B1), of 512 B in L0A/L0B (A2/B2).  L1 is read back raw; L0A and L0B
through an Mmad of the filled operands (which also checks the fills count as
written fractals).  Against NumPy; then a refused destination and a good
launch."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
using namespace AscendC;
// L1 holds x (1024 halves, 64 blocks of 32 B); Fill then sets repeat runs
// of `blocks` blocks, `gap` blocks apart, from block `at`, to v; L1 -> y.
extern "C" __global__ __aicore__ void fill_l1(GM_ADDR x, GM_ADDR y, uint32_t at, uint32_t rep, uint32_t blocks,
                                              uint32_t gap, float v, uint32_t old_name)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe; TBuf<TPosition::A1> l1; pipe.InitBuffer(l1, 2048);
    LocalTensor<half> t = l1.Get<half>();
    DataCopy(t, gx, 1024);
    PipeBarrier<PIPE_ALL>();
    InitConstValueParams<half> p((uint16_t)rep, (uint16_t)blocks, (uint16_t)gap, (half)v);
    if (old_name) InitConstValue(t[at * 16], p);
    else Fill(t[at * 16], p);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 1024);
}
// L0A (32 x 32: 4 fractals) filled with a, L0B with b, in two runs each
// (one fractal gap in L0A, filled after); C = A B through Mmad and Fixpipe.
extern "C" __global__ __aicore__ void fill_l0(GM_ADDR c, float a, float b)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<float> gc; gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a2, 2048); pipe.InitBuffer(b2, 2048); pipe.InitBuffer(c1, 4096);
    LocalTensor<half> la = a2.Get<half>(), lb = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    Fill(la, InitConstValueParams<half>(2, 1, 1, (half)a));        // fractals 0 and 2
    Fill(la[256], InitConstValueParams<half>(2, 1, 1, (half)a));   // fractals 1 and 3
    Fill(lb, {1, 4, 0, (half)b});
    PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = 32; mp.n = 32; mp.k = 32;
    Mmad(lc, la, lb, mp);
    PipeBarrier<PIPE_ALL>();
    Fixpipe(gc, lc, FixpipeParamsV220(32, 32, 32, 32, false));
}
// Fill of a UB tensor: not a place Fill writes.
extern "C" __global__ __aicore__ void fill_ub(GM_ADDR y)
{
    TPipe pipe; TBuf<TPosition::VECCALC> ub; pipe.InitBuffer(ub, 1024);
    LocalTensor<half> t = ub.Get<half>();
    Fill(t, InitConstValueParams<half>(1, 1, 0, (half)1));
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.program([SRC])


@pytest.mark.parametrize("at,rep,blocks,gap,old", [(0, 1, 64, 0, 0), (3, 4, 2, 5, 0), (1, 3, 5, 0, 1)])
def test_fill_l1_blocks(mod, at, rep, blocks, gap, old):
    x = np.arange(1024, dtype=np.float16)
    y = np.zeros(1024, np.float16)
    mod.get_kernel("fill_l1")[1](x, y, np.uint32(at), np.uint32(rep), np.uint32(blocks), np.uint32(gap),
                                 np.float32(-2.5), np.uint32(old))
    arc.synchronize()
    want = x.copy().reshape(64, 16)                 # 32-byte blocks of 16 halves
    for r in range(rep):
        b0 = at + r * (blocks + gap)
        want[b0:b0 + blocks] = -2.5
    np.testing.assert_array_equal(y, want.reshape(-1))


def test_fill_l0a_l0b_through_mmad(mod):
    c = np.zeros(32 * 32, np.float32)
    mod.get_kernel("fill_l0")[1](c, np.float32(1.5), np.float32(-3.0))
    arc.synchronize()
    np.testing.assert_array_equal(c, np.full(32 * 32, 32 * 1.5 * -3.0, np.float32))


def test_fill_outside_l1_l0_is_refused(mod):
    with pytest.raises(arc.LaunchError, match=r"AscendC::Fill: dst is a VECCALC tensor; Fill initialises L1"):
        mod.get_kernel("fill_ub")[1](np.zeros(16, np.float16))
        arc.synchronize()
    test_fill_l0a_l0b_through_mmad(mod)          # a good launch after
