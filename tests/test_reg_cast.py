"""dav-3510's Reg::Cast with its CastTrait (arc/reg_cast.h), against the
API page's definition: the RegLayout pseudo-code for widening (half ->
float: dst[i] = src[layout + 2i]) and narrowing (float -> half: dst[layout
+ 2i] = src[i], the rest 0), the round modes (float -> int32), the mask
on source elements with ZEROING / MERGING, as CANN's op libraries call it."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
constexpr Reg::CastTrait up0 = {Reg::RegLayout::ZERO, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
constexpr Reg::CastTrait up1 = {Reg::RegLayout::ONE, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING, RoundMode::UNKNOWN};
constexpr Reg::CastTrait down1 = {Reg::RegLayout::ONE, Reg::SatMode::NO_SAT, Reg::MaskMergeMode::ZEROING, RoundMode::CAST_RINT};
constexpr Reg::CastTrait tofloor = {Reg::RegLayout::UNKNOWN, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::ZEROING, RoundMode::CAST_FLOOR};
constexpr Reg::CastTrait torint = {Reg::RegLayout::UNKNOWN, Reg::SatMode::UNKNOWN, Reg::MaskMergeMode::MERGING, RoundMode::CAST_RINT};

// h: 128 halves, f: 64 floats, i: 64 int32 (UB); results in o* (64 floats, 128 halves, 2 x 64 int32)
__simd_vf__ inline void vf(__ubuf__ half *h, __ubuf__ float *f, __ubuf__ float *of0, __ubuf__ float *of1,
                           __ubuf__ half *oh, __ubuf__ int32_t *oi, __ubuf__ int32_t *oj)
{
    Reg::RegTensor<half> rh, rh2;
    Reg::RegTensor<float> rf, r0, r1;
    Reg::RegTensor<int32_t> ri;
    Reg::MaskReg all16 = Reg::CreateMask<half>(), all32 = Reg::CreateMask<float>();
    Reg::LoadAlign(rh, h);
    Reg::LoadAlign(rf, f);
    Reg::Cast<float, half, up0>(r0, rh, all16);
    Reg::Cast<float, half, up1>(r1, rh, all16);
    Reg::StoreAlign(of0, r0, all32);
    Reg::StoreAlign(of1, r1, all32);
    Reg::Cast<half, float, down1>(rh2, rf, all32);
    Reg::StoreAlign(oh, rh2, all16);
    Reg::Cast<int32_t, float, tofloor>(ri, rf, all32);
    Reg::StoreAlign(oi, ri, all32);
    Reg::Duplicate(ri, (int32_t)-9);
    Reg::MaskReg first8 = Reg::CreateMask<float, Reg::MaskPattern::VL8>();
    Reg::Cast<int32_t, float, torint>(ri, rf, first8);     // MERGING: lanes 8.. keep -9
    Reg::StoreAlign(oj, ri, all32);
}

__global__ __vector__ void k(GM_ADDR gh, GM_ADDR gf, GM_ADDR out)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<uint8_t> u = buf.Get<uint8_t>();
    GlobalTensor<uint8_t> a, b, o;
    a.SetGlobalBuffer((__gm__ uint8_t *)gh, 256);
    b.SetGlobalBuffer((__gm__ uint8_t *)gf, 256);
    o.SetGlobalBuffer((__gm__ uint8_t *)out, 1280);
    DataCopy(u, a, 256);
    DataCopy(u[256], b, 256);
    PipeBarrier<PIPE_ALL>();
    __ubuf__ uint8_t *p = (__ubuf__ uint8_t *)u.GetPhyAddr();
    asc_vf_call<vf>((__ubuf__ half *)p, (__ubuf__ float *)(p + 256), (__ubuf__ float *)(p + 512),
                    (__ubuf__ float *)(p + 768), (__ubuf__ half *)(p + 1024), (__ubuf__ int32_t *)(p + 1280),
                    (__ubuf__ int32_t *)(p + 1536));
    PipeBarrier<PIPE_ALL>();
    DataCopy(o, u[512], 1280);
}
"""


def test_reg_cast_layouts_round_modes_and_merging():
    kern = arc.Program(SRC, "reg_cast.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("k")
    h = (np.arange(128) * 0.5 - 20).astype(np.float16)
    f = np.linspace(-3.7, 3.3, 64).astype(np.float32)
    f[:4] = [2.5, -2.5, 1.5, 1e9]
    out = np.zeros(1280, np.uint8)
    kern[1](h.view(np.uint8), f.view(np.uint8), out)
    arc.synchronize()
    of0, of1 = out[:256].view(np.float32), out[256:512].view(np.float32)
    oh, oi, oj = out[512:768].view(np.float16), out[768:1024].view(np.int32), out[1024:1280].view(np.int32)
    np.testing.assert_array_equal(of0, h[0::2].astype(np.float32))        # RegLayout::ZERO
    np.testing.assert_array_equal(of1, h[1::2].astype(np.float32))        # RegLayout::ONE
    want_h = np.zeros(128, np.float16)
    with np.errstate(over="ignore"):
        want_h[1::2] = f.astype(np.float16)                                # dst[1 + 2i] = src[i], rest 0 (1e9: inf)
    np.testing.assert_array_equal(oh, want_h)
    np.testing.assert_array_equal(oi[4:], np.floor(f[4:]).astype(np.int32))
    assert list(oi[:3]) == [2, -3, 1] and oi[3] == 1000000000
    np.testing.assert_array_equal(oj[:8], np.rint(f[:8]).astype(np.int32))  # ties to even: 2, -2, 2
    assert (oj[8:] == -9).all()


def test_a_layout_beyond_the_width_ratio_is_a_compile_error():
    bad = SRC.replace("Reg::RegLayout::ONE, Reg::SatMode::UNKNOWN", "Reg::RegLayout::TWO, Reg::SatMode::UNKNOWN")
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(bad, "reg_cast.asc").compile(["--npu-arch=dav-3510"])
    assert "AscendC::Reg::Cast: RegLayout beyond the width ratio" in ei.value.log
