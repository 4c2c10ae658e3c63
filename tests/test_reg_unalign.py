"""Reg runs of unaligned loads and stores (dav-3510, the LoadUnAlign and
StoreUnAlign pages): LoadUnAlignPre then LoadUnAlign, one VL from any
element-aligned UB address a load (post-update and AddrReg forms);
StoreUnAlign writes a register's first postUpdateStride elements at dst
and moves dst on; StoreUnAlignPost ends the run.  Against NumPy: runs of
floats copied (plus one) between odd offsets, and per-VL sums stored 8 a
time; post-update loads 8 floats apart; a plain load from a block the
UnalignRegForLoad does not hold is refused."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.reg_frame import vf_io_kernel

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// mode 0: n VL runs from x + in to o + at, each +1, loads and stores post-update by VL;
// 1: the same with the loads through an AddrReg; 2: 8 floats stored per VL (a stride under VL);
// 3: plain loads at x, then x + 128 floats, without LoadUnAlignPre (refused); 4: post-update loads
// and stores by 8 floats (a stride under VL: the post-update form caches the updated address's block).
__simd_vf__ inline void run_vf(__ubuf__ float *o, __ubuf__ float *x, uint32_t n, uint32_t mode)
{
    Reg::RegTensor<float> a, b;
    Reg::UnalignRegForLoad ul;
    Reg::UnalignRegForStore us;
    Reg::MaskReg all = Reg::CreateMask<float, Reg::MaskPattern::ALL>();
    uint32_t stride = mode == 2 || mode == 4 ? 8 : 64;
    if (mode == 1) {
        Reg::AddrReg z = Reg::CreateAddrReg<float>(0, 64);
        Reg::LoadUnAlignPre(ul, x, z);
    } else {
        Reg::LoadUnAlignPre(ul, x);
    }
    for (uint16_t i = 0; i < n; i++) {
        if (mode == 1) {
            Reg::AddrReg ar = Reg::CreateAddrReg<float>(i, 64);
            Reg::LoadUnAlign(a, ul, x, ar, 0);
        } else if (mode == 3) {
            Reg::LoadUnAlign(a, ul, x + 128 * i);
        } else {
            Reg::LoadUnAlign(a, ul, x, mode == 4 ? 8u : 64u);
        }
        Reg::Adds(b, a, 1.0f, all);
        Reg::StoreUnAlign(o, b, us, stride);
    }
    Reg::StoreUnAlignPost(o, us, 0);
}

""" + vf_io_kernel("unalign", 512, ", uint32_t in, uint32_t at, uint32_t n, uint32_t mode",
                   "asc_vf_call<run_vf>((__ubuf__ float *)lo.GetPhyAddr() + at, "
                   "(__ubuf__ float *)lx.GetPhyAddr() + in, n, mode)")



@pytest.fixture(scope="module")
def kern():
    return arc.Program(SRC, "unalign.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("unalign")


def run(kern, inp, at, n, mode):
    x = np.arange(512, dtype=np.float32) * 0.25 - 20
    out = np.full(512, -9.0, np.float32)
    kern[1](x, out, *(np.uint32(v) for v in (inp, at, n, mode)))
    arc.synchronize()
    return x, out


@pytest.mark.parametrize("inp,at,n,mode", [(1, 3, 3, 0), (5, 0, 2, 0), (0, 8, 4, 0), (7, 1, 3, 1)])
def test_unaligned_runs(kern, inp, at, n, mode):
    x, out = run(kern, inp, at, n, mode)
    want = np.full(512, -9.0, np.float32)
    want[at:at + 64 * n] = x[inp:inp + 64 * n] + 1
    np.testing.assert_array_equal(out, want)


def test_store_stride_under_vl(kern):
    x, out = run(kern, 3, 5, 4, 2)
    want = np.full(512, -9.0, np.float32)
    for i in range(4):                       # each register's first 8 floats, 8 apart
        want[5 + 8 * i:5 + 8 * i + 8] = x[3 + 64 * i:3 + 64 * i + 8] + 1
    np.testing.assert_array_equal(out, want)


def test_post_update_runs_under_vl(kern):
    x, out = run(kern, 3, 1, 6, 4)
    want = np.full(512, -9.0, np.float32)
    want[1:1 + 48] = x[3:3 + 48] + 1             # 6 loads and stores of 8 floats each, one run
    np.testing.assert_array_equal(out, want)


def test_load_outside_the_cached_block_is_refused(kern):
    with pytest.raises(arc.LaunchError, match="LoadUnAlign: srcAddr .* is not in the 32-byte block the "
                                              "UnalignRegForLoad holds"):
        run(kern, 1, 0, 2, 3)
