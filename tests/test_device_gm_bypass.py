"""WriteGmByPassDCache / ReadGmByPassDCache (arc/atomic.h): scalar GM
accesses one core uses to hand data to another, as the docs' DataSyncBarrier
example does (block 0 writes the data, then a flag; block 1 polls the flag,
then reads the data), with the GM race check on; out-of-bounds addresses are
reported like any GM access."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void handoff(GM_ADDR buf, GM_ADDR out)
{
    __gm__ int32_t *b = (__gm__ int32_t *)buf;
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::WriteGmByPassDCache<int32_t>(b + 1, 1234);
        AscendC::DataSyncBarrier<AscendC::MemDsbT::DDR>();
        AscendC::WriteGmByPassDCache<int32_t>(b, 1);
    } else {
        while (AscendC::ReadGmByPassDCache<int32_t>(b) != 1) {
        }
        AscendC::WriteGmByPassDCache<int32_t>((__gm__ int32_t *)out, AscendC::ReadGmByPassDCache<int32_t>(b + 1) + 1);
    }
}
extern "C" __global__ __aicore__ void past_end(GM_ADDR buf)
{
    AscendC::WriteGmByPassDCache<int64_t>((__gm__ int64_t *)buf + 4, 7);
}
"""


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "bypass.asc").compile(["--npu-arch=dav-2201"]).load()


def test_handoff_between_cores(mod, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    buf, out = np.zeros(8, np.int32), np.zeros(8, np.int32)
    mod.get_kernel("handoff")[2](buf, out)
    arc.synchronize()
    assert out[0] == 1235 and buf[0] == 1 and buf[1] == 1234


def test_out_of_bounds(mod):
    buf = np.zeros(4, np.int64)
    with pytest.raises(arc.LaunchError, match="WriteGmByPassDCache"):
        mod.get_kernel("past_end")[1](buf)
        arc.synchronize()
