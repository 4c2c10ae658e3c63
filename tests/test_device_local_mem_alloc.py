"""LocalMemAllocator over every on-chip memory (arc/buf_pool.h): Alloc with
and without a TPosition, each tensor at its memory's alignment (512 bytes in
L0A/L0B, 64 in L0C, 32 in UB and L1); a position of another memory is
refused at compile time.  FixpipeParamsV220's full constructor keeps the
order asc-devkit's examples write it in."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void addrs(GM_ADDR out)
{
    __gm__ uint32_t *o = (__gm__ uint32_t *)out;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0A> a;
    AscendC::LocalMemAllocator<AscendC::Hardware::L0C> c;
    AscendC::LocalMemAllocator<AscendC::Hardware::L1> l1;
    AscendC::LocalTensor<half> a0 = a.Alloc<AscendC::TPosition::A2, half>(100);
    o[0] = a.GetCurAddr();
    AscendC::LocalTensor<half> a1 = a.Alloc<half>(16);
    o[1] = a.GetCurAddr();
    AscendC::LocalTensor<float> c0 = c.Alloc<AscendC::TPosition::CO1, float, 20>();
    o[2] = c.GetCurAddr();
    AscendC::LocalTensor<half> b = l1.Alloc<AscendC::TPosition::B1, half>(20);
    o[3] = l1.GetCurAddr();
    o[4] = (uint32_t)(a1.GetPhyAddr() - a0.GetPhyAddr()); // byte addresses
    o[5] = (uint32_t)(a0.GetPosition() == AscendC::TPosition::A2) + (uint32_t)(b.GetPosition() == AscendC::TPosition::B1);
    AscendC::FixpipeParamsV220 f = {32, 16, 16, 64, true, QuantMode_t::F322F16, 0, 2, 3, 4, 1};
    o[6] = f.nSize + f.mSize * 1000u + f.ndNum * 100000u + f.dstNdStride * 1000000u + (f.reluEn ? 1u << 28 : 0u) +
           (f.quantPre == QuantMode_t::F322F16 ? 1u << 29 : 0u) + (f.unitFlag == 1 ? 1u << 30 : 0u);
    (void)c0;
}
"""


def test_alloc_every_memory():
    mod = arc.Program(SRC, "alloc.asc").compile(["--npu-arch=dav-2201"]).load()
    o = np.zeros(8, np.uint32)
    mod.get_kernel("addrs")[1](o)
    arc.synchronize()
    assert list(o[:6]) == [512, 1024, 128, 64, 512, 2]
    assert o[6] == 32 + 16 * 1000 + 2 * 100000 + 4 * 1000000 + (1 << 28) + (1 << 29) + (1 << 30)


def test_position_of_another_memory_is_refused():
    src = SRC.replace("a.Alloc<half>(16)", "a.Alloc<AscendC::TPosition::B2, half>(16)")
    with pytest.raises(arc.CompileError) as ei:
        arc.Program(src, "alloc.asc").compile(["--npu-arch=dav-2201"])
    assert "this TPosition is not in the allocator's Hardware" in ei.value.log
