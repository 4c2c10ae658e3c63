"""The cube's configuration registers as CATLASS drives them: the 3D load's
Feature Map and Pad registers (SetFmatrix, SetLoadDataPaddingValue, a load
with IsResetLoad3dConfig{false, false} reading them, the packed-window
LoadData3DParamsV2Pro with Load3DSetFMatrixCal), and UnitFlag ordering an
Mmad and a Fixpipe without SetFlag/WaitFlag in the race check.  References:
the same loads with every field in the params (tests/test_device_cube_layouts.py
checks those against NumPy) and a NumPy matmul."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev
from helpers.cube_kernels import CUBE_HELPERS

SRC = r'''
using namespace AscendC;

// the 3D load of helpers/cube_kernels.py's Img2col: mode 0 all in the params, 1 from the registers,
// 2 no register set (an error)
extern "C" __global__ __aicore__ void load3d(GM_ADDR x, GM_ADDR y, uint32_t H, uint32_t W, uint32_t mode)
{
    Img2col(x, y, H, W, mode);
}

// 1x1 filter, the window packed in extConfig (kStep, mStep, kPos, mPos) vs the same in V2's fields
extern "C" __global__ __aicore__ void load3d_pro(GM_ADDR x, GM_ADDR y, uint32_t W, uint32_t pro)
{
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a;
    pipe.InitBuffer(l1, 8192); pipe.InitBuffer(l0a, 4096);
    LocalTensor<half> s = l1.Get<half>(), d = l0a.Get<half>();
    DataCopy(s, gx, W * 32); PipeBarrier<PIPE_ALL>();
    if (pro) {
        const uint8_t pad[4] = {0, 0, 0, 0};
        Load3DSetFMatrixCal(1, W, pad);
        LoadData3DParamsV2Pro q;
        q.channelSize = 32;
        q.extConfig = (uint64_t)16 << 48 | (uint64_t)16 << 32 | (uint64_t)16 << 16 | 16;   // mPos kPos mStep kStep
        LoadData<half>(d, s, q);
    } else {
        LoadData3DParamsV2<half> p;
        p.l1H = 1; p.l1W = W; p.channelSize = 32;
        p.kExtension = 16; p.mExtension = 16; p.kStartPt = 16; p.mStartPt = 16;
        LoadData(d, s, p);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, d, 256); PipeBarrier<PIPE_ALL>();
}

// 32x32x32 half matmul, B as (N, K); Mmad -> Fixpipe ordered only by unitFlag `uf`
extern "C" __global__ __aicore__ void unit_flag(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t uf)
{
    GlobalTensor<float> gc; gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe; Tile32 t; t.Load(pipe, a, b);
    MmadParams p; p.m = 32; p.n = 32; p.k = 32; p.unitFlag = (uint8_t)uf;
    Mmad(t.lc, t.la2, t.lb2, p);
    FixpipeParamsV220 f(32, 32, 32, 32, false);
    f.unitFlag = (uint8_t)uf;
    Fixpipe(gc, t.lc, f); PipeBarrier<PIPE_ALL>();
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.program([CUBE_HELPERS, SRC])


rng = np.random.default_rng(11)


def test_feature_map_and_pad_registers(mod):
    H, W = 5, 6
    x = rng.integers(-9, 9, (H, W, 16)).astype(np.float16)
    want, got = np.zeros(32 * 144, np.float16), np.ones(32 * 144, np.float16)
    mod.get_kernel("load3d")[1](x, want, np.uint32(H), np.uint32(W), np.uint32(0))
    mod.get_kernel("load3d")[1](x, got, np.uint32(H), np.uint32(W), np.uint32(1))
    arc.synchronize()
    assert (want == -1).any()                     # the padding is in it
    np.testing.assert_array_equal(got, want)


def test_packed_window_load(mod):
    W = 40
    x = rng.integers(-9, 9, (2, W, 16)).astype(np.float16)     # C1 = 2: channelSize 32
    want, got = np.zeros(256, np.float16), np.ones(256, np.float16)
    mod.get_kernel("load3d_pro")[1](x, want, np.uint32(W), np.uint32(0))
    mod.get_kernel("load3d_pro")[1](x, got, np.uint32(W), np.uint32(1))
    arc.synchronize()
    np.testing.assert_array_equal(got, want)
    assert (want != 0).any()


def test_register_never_set_is_an_error(mod):
    x = np.zeros((5, 6, 16), np.float16)
    y = np.zeros(32 * 144, np.float16)
    with pytest.raises(arc.LaunchError) as ei:
        mod.get_kernel("load3d")[1](x, y, np.uint32(5), np.uint32(6), np.uint32(2))
        arc.synchronize()
    assert "isSetFMatrix is false but no SetFmatrix (or earlier load) set the Feature Map register" in str(ei.value)
    test_feature_map_and_pad_registers(mod)       # the next launches are fine


def test_unit_flag_orders_mmad_and_fixpipe(mod):
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)     # (N, K)
    c = np.zeros((32, 32), np.float32)
    mod.get_kernel("unit_flag")[1](a, b, c, np.uint32(3))
    arc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32).T)
    with pytest.raises(arc.LaunchError) as ei:                # no unit flag: nothing orders M and FIX
        mod.get_kernel("unit_flag")[1](a, b, c, np.uint32(0))
        arc.synchronize()
    assert "data race" in str(ei.value) and "AscendC::Fixpipe" in str(ei.value)
