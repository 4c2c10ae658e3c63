"""GetRuntimeUBSize (the UB a kernel may use: all 192 KiB on dav-2201, the
documented fixed 248 KiB of a SIMD kernel on dav-3510) and the SuperKernel
Early-Start pair WaitPreTaskEnd / SetNextTaskStart, which a single launch
passes through (arc/sys.h)."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void facts(GM_ADDR out)
{
    AscendC::WaitPreTaskEnd();
    ((__gm__ uint32_t *)out)[0] = AscendC::GetRuntimeUBSize();
    ((__gm__ uint32_t *)out)[1] = AscendC::GetUBSizeInBytes();
    AscendC::SetNextTaskStart();
}
"""


@pytest.mark.parametrize("arch,runtime,whole", [("dav-2201", 192 << 10, 192 << 10), ("dav-3510", 248 << 10, 256 << 10)])
def test_runtime_ub_size(arch, runtime, whole, monkeypatch):
    if arch == "dav-3510":
        monkeypatch.setenv("ASCENDRTC_SIM_SOC", "Ascend950PR_9599")
    mod = arc.Program(SRC, "facts.asc").compile([f"--npu-arch={arch}"]).load()
    o = np.zeros(8, np.uint32)
    mod.get_kernel("facts")[1](o)
    arc.synchronize()
    assert (o[0], o[1]) == (runtime, whole)
