"""Reg::Scatter and asc_scatter (dav-3510, their pages): base[index[i]] =
src[i] for the lanes the mask selects (index in elements, as wide as the
element); other UB bytes keep what they held.  Against NumPy: half lanes
reversed under a mask of the first 100, float lanes spread 3 apart (the C
API spelling); two selected lanes with one index are refused (the NPU keeps
an unspecified one)."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
#include "c_api/asc_simd.h"
using namespace AscendC;

template <class T, class I>
__simd_vf__ inline void scatter_vf(__ubuf__ T *o, __ubuf__ T *x, __ubuf__ I *idx, uint32_t lanes, uint32_t capi)
{
    Reg::RegTensor<T> v;
    Reg::RegTensor<I> ix;
    Reg::LoadAlign(v, x);
    Reg::LoadAlign(ix, idx);
    Reg::MaskReg m = Reg::UpdateMask<T>(lanes);
    if (capi) asc_scatter(o, v, ix, m);
    else Reg::Scatter(o, v, ix, m);
}
// x: one register at UB 0, its indices at 256, out (1024 bytes, as given) at 1024.
template <class T, class I>
__aicore__ inline void run(GM_ADDR x, GM_ADDR idx, GM_ADDR out, uint32_t lanes, uint32_t capi)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<T> lx = buf.GetWithOffset<T>(256 / sizeof(T), 0), lo = buf.GetWithOffset<T>(1024 / sizeof(T), 1024);
    LocalTensor<I> li = buf.GetWithOffset<I>(256 / sizeof(I), 256);
    GlobalTensor<T> gx, go;
    GlobalTensor<I> gi;
    gx.SetGlobalBuffer((__gm__ T *)x);
    gi.SetGlobalBuffer((__gm__ I *)idx);
    go.SetGlobalBuffer((__gm__ T *)out);
    DataCopy(lx, gx, 256 / sizeof(T));
    DataCopy(li, gi, 256 / sizeof(I));
    DataCopy(lo, go, 1024 / sizeof(T));
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    asc_vf_call<scatter_vf<T, I>>((__ubuf__ T *)lo.GetPhyAddr(), (__ubuf__ T *)lx.GetPhyAddr(),
                                  (__ubuf__ I *)li.GetPhyAddr(), lanes, capi);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, lo, 1024 / sizeof(T));
}
__global__ __vector__ void sc_half(GM_ADDR x, GM_ADDR i, GM_ADDR o, uint32_t lanes, uint32_t capi)
{ AscendC::InitSocState(); run<half, uint16_t>(x, i, o, lanes, capi); }
__global__ __vector__ void sc_float(GM_ADDR x, GM_ADDR i, GM_ADDR o, uint32_t lanes, uint32_t capi)
{ AscendC::InitSocState(); run<float, uint32_t>(x, i, o, lanes, capi); }
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "scatter.asc").compile(["--npu-arch=dav-3510"]).load()


def run(mod, name, dt, it, idx, lanes, capi):
    n = 256 // np.dtype(dt).itemsize
    x = (np.arange(n) * 0.5 + 1).astype(dt)
    out = np.full(1024 // np.dtype(dt).itemsize, -3, dt)
    mod.get_kernel(name)[1](x, np.asarray(idx, it), out, np.uint32(lanes), np.uint32(capi))
    arc.synchronize()
    return x, out


def test_half_reversed_under_a_mask(mod):
    idx = np.arange(127, -1, -1)
    x, out = run(mod, "sc_half", np.float16, np.uint16, idx, 100, 0)
    want = np.full(512, -3, np.float16)
    want[idx[:100]] = x[:100]
    np.testing.assert_array_equal(out, want)


def test_float_spread_c_api(mod):
    idx = np.arange(64) * 3 + 1
    x, out = run(mod, "sc_float", np.float32, np.uint32, idx, 64, 1)
    want = np.full(256, -3, np.float32)
    want[idx] = x
    np.testing.assert_array_equal(out, want)


def test_repeated_index_is_refused(mod):
    idx = np.arange(64)
    idx[9] = 4
    with pytest.raises(arc.LaunchError, match="Scatter: lanes 4 and 9 both scatter to index 4"):
        run(mod, "sc_float", np.float32, np.uint32, idx, 64, 0)
