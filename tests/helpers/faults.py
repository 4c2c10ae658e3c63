"""The shape every fault test shares: a launch fails with a LaunchError of
the expected code whose message says what happened, and a good launch
right after it works (the process and device stay usable)."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import add_kernel, compiled

AICORE_EXCEPTION, AICORE_TIMEOUT = 507015, 507014

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
    """A kernel whose InitBuffer traps when asked for more UB than a core has."""
    return compiled("greedy", lambda: arc.Program(TRAP_SRC, "greedy.asc").compile().load().get_kernel("greedy"))


def still_works():
    """A good launch, checked against NumPy."""
    x = np.arange(256, dtype=np.float32)
    z = np.zeros_like(x)
    add_kernel(np.float32)[8](x, x, z)
    np.testing.assert_array_equal(z, 2 * x)


def launch_fails(call, code, *patterns):
    """``call()`` (and the device sync after it) raises LaunchError with
    ``code`` and a message matching every regex of ``patterns``; then a
    good launch works.  The message."""
    with pytest.raises(arc.LaunchError) as ei:
        call()
        arc.synchronize()
    e = ei.value
    assert e.code == code, str(e)
    for p in patterns:
        assert re.search(p, str(e)), (p, str(e))
    still_works()
    return str(e)
