"""A kernel that fails on the device raises LaunchError (at the launch for
host arrays, at the next wait for device arrays); the process stays usable."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import add_kernel, compiled

# Asks for more unified buffer than a core has: the device API traps.
TRAP_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void greedy(GM_ADDR x, int32_t bytes)
{
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, bytes);
}
'''


def greedy():
    return compiled("greedy", lambda: arc.Program(TRAP_SRC, "greedy.asc").compile().load().get_kernel("greedy"))


def still_works():
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    add_kernel(np.float32)[8](x, x, z)
    np.testing.assert_array_equal(z, 2 * x)


def test_trap_with_device_array_surfaces_at_synchronize():
    k = greedy()
    x = arc.zeros(8, np.float32)
    k[8](x, 64)                                      # fits: fine
    arc.synchronize()
    k[8](x, 1 << 24)                                 # asynchronous: returns
    with pytest.raises(arc.LaunchError) as ei:
        arc.synchronize()
    e = ei.value
    assert e.code == 507015 and e.name == "ACL_ERROR_RT_AICORE_EXCEPTION"
    assert "InitBuffer" in str(e) and "greedy" in str(e)
    still_works()


def test_trap_with_host_array_raises_at_launch():
    with pytest.raises(arc.LaunchError, match="InitBuffer"):
        greedy()[8](np.zeros(8, np.float32), 1 << 24)
    still_works()
