"""ASCENDC_ASSERT(cond, { KERNEL_LOG(level, fmt, ...); }) in a kernel
(csrc/device/arc/sys.h), as CANN's advanced-API examples check their launch:
on failure the statements print, then the launch stops naming the condition;
when the condition holds nothing prints."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void check(GM_ADDR out, int32_t v)
{
    ASCENDC_ASSERT(v < AscendC::GetBlockNum() + 5, { KERNEL_LOG(KERNEL_ERROR, "v %d is too big", v); });
    ((__gm__ int32_t *)out)[0] = v;
}
"""


def test_ascendc_assert(capfd):
    mod = arc.Program(SRC, "assert.asc").compile(["--npu-arch=dav-2201"]).load()
    o = np.zeros(8, np.int32)
    mod.get_kernel("check")[1](o, 5)
    arc.synchronize()
    assert o[0] == 5 and "too big" not in "".join(capfd.readouterr())
    with pytest.raises(arc.LaunchError, match=r"ASCENDC_ASSERT.*Assertion `v < AscendC::GetBlockNum\(\) \+ 5' failed"):
        mod.get_kernel("check")[1](o, 6)
        arc.synchronize()
    assert "[KERNEL_ERROR] v 6 is too big" in "".join(capfd.readouterr())
