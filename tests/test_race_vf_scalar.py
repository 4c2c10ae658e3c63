"""The race check and a SIMD VF's own pointer accesses to UB (dav-3510): a
VF run by asc_vf_call reading a scalar through a __ubuf__ pointer
(`s[i]`, the AuxScalar way asc-devkit's reg_auxscalar uses) runs on the
vector pipe, so MTE2 -> V orders it after the copy that filled it; the same
read outside a VF is the scalar unit's and needs MTE2 -> S.  Each kernel
computes NumPy's values when ordered; unordered, the race is reported."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// o[i * 64 + j] = x[i * 64 + j] + s[i] for 2 registers of 64 floats.
__simd_vf__ inline void add_scalars(__ubuf__ float *o, __ubuf__ float *x, __ubuf__ float *s)
{
    Reg::RegTensor<float> a, d;
    Reg::MaskReg m = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    for (uint16_t i = 0; i < 2; i++) {
        float v = s[i];                                              // a UB scalar read inside the VF
        Reg::LoadAlign(a, x + i * 64);
        Reg::Adds(d, a, v, m);
        Reg::StoreAlign(o + i * 64, d, m);
    }
}

// mode 0: MTE2 -> V before the VF; 1: no sync at all; 2: MTE2 -> V, then s[0] read outside the VF.
__global__ __vector__ void vf_scalar(GM_ADDR x, GM_ADDR s, GM_ADDR out, uint32_t mode)
{
    AscendC::InitSocState();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> lx = buf.GetWithOffset<float>(128, 0), ls = buf.GetWithOffset<float>(8, 512),
                       lo = buf.GetWithOffset<float>(128, 1024);
    GlobalTensor<float> gx, gs, go;
    gx.SetGlobalBuffer((__gm__ float *)x, 128);
    gs.SetGlobalBuffer((__gm__ float *)s, 8);
    go.SetGlobalBuffer((__gm__ float *)out, 129);
    DataCopy(lx, gx, 128);
    DataCopy(ls, gs, 8);
    if (mode != 1) {
        SetFlag<HardEvent::MTE2_V>(0);
        WaitFlag<HardEvent::MTE2_V>(0);
    }
    __ubuf__ float *ps = (__ubuf__ float *)ls.GetPhyAddr();
    asc_vf_call<add_scalars>((__ubuf__ float *)lo.GetPhyAddr(), (__ubuf__ float *)lx.GetPhyAddr(), ps);
    float first = mode == 2 ? ps[0] : 0.0f;                          // the scalar unit's read
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, lo, 128);
    go.SetValue(128, first);
}
"""


@pytest.fixture(scope="module")
def kern():
    return arc.Program(SRC, "vf_scalar.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("vf_scalar")


def run(kern, mode):
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, 128).astype(np.float32)
    s = np.array([0.5, -3.0, 0, 0, 0, 0, 0, 0], np.float32)
    out = np.zeros(129, np.float32)
    kern[1](x, s, out, np.uint32(mode))
    arc.synchronize()
    return x, s, out


def test_vf_scalar_read_is_ordered_by_mte2_to_v(kern):
    x, s, out = run(kern, 0)
    np.testing.assert_array_equal(out[:128], x + np.repeat(s[:2], 64))


def test_vf_scalar_read_without_sync_is_a_race(kern):
    with pytest.raises(arc.LaunchError, match=r"data race \(read after write\) on UB: .*PIPE_MTE2.*"
                                              r"a SIMD VF's load \(PIPE_V"):
        run(kern, 1)


def test_scalar_read_outside_the_vf_still_needs_mte2_to_s(kern):
    with pytest.raises(arc.LaunchError, match=r"a load through a pointer \(PIPE_S"):
        run(kern, 2)
