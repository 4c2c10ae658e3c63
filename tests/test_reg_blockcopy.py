"""Reg's DataBlock-strided LoadAlign / StoreAlign (dav-3510,
DataCopyMode::DATA_BLOCK_COPY, the 非连续对齐 pages): a register's 8 blocks
of 32 bytes from UB blocks dataBlockStride apart (a block the mask selects
any element of comes whole; one it selects none of is 0), stored to blocks
dstStride apart (the selected elements), post-update by repeatStride
blocks.  Against NumPy, with masks of 20 and 64 floats."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.reg_frame import vf_io_kernel

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// Two rounds: load from x (block stride ss, post-update by 16 blocks), store to o
// (block stride ds, post-update by 24 blocks) under a mask of n floats.
__simd_vf__ inline void blk_vf(__ubuf__ float *o, __ubuf__ float *x, uint32_t ss, uint32_t ds, uint32_t n)
{
    Reg::RegTensor<float> v;
    Reg::MaskReg m = Reg::UpdateMask<float>(n);
    for (uint16_t r = 0; r < 2; r++) {
        Reg::LoadAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_UPDATE>(v, x, ss, 16, m);
        Reg::StoreAlign<float, Reg::DataCopyMode::DATA_BLOCK_COPY, Reg::PostLiteral::POST_MODE_UPDATE>(o, v, ds, 24, m);
    }
}
""" + vf_io_kernel("blk", 1024, ", uint32_t ss, uint32_t ds, uint32_t n",
                   "asc_vf_call<blk_vf>((__ubuf__ float *)lo.GetPhyAddr(), (__ubuf__ float *)lx.GetPhyAddr(), "
                   "ss, ds, n)")



@pytest.fixture(scope="module")
def kern():
    return arc.Program(SRC, "blk.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("blk")


@pytest.mark.parametrize("ss,ds,n", [(2, 3, 20), (1, 1, 64), (0, 2, 64)])
def test_block_strided_load_and_store(kern, ss, ds, n):
    x = np.arange(1024, dtype=np.float32) + 0.5
    out = np.full(1024, -1.0, np.float32)
    kern[1](x, out, np.uint32(ss), np.uint32(ds), np.uint32(n))
    arc.synchronize()
    want = np.full(1024, -1.0, np.float32)
    sel = np.zeros(64, bool)
    sel[:n] = True
    for r in range(2):
        reg = np.zeros(64, np.float32)
        for b in range(8):
            if sel[8 * b:8 * b + 8].any():           # a block any element of which is selected comes whole
                s0 = r * 16 * 8 + b * ss * 8
                reg[8 * b:8 * b + 8] = x[s0:s0 + 8]
        for b in range(8):
            d0 = r * 24 * 8 + b * ds * 8
            for i in range(8):
                if sel[8 * b + i]:
                    want[d0 + i] = reg[8 * b + i]
    np.testing.assert_array_equal(out, want)
