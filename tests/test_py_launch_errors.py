"""A kernel that fails on the device raises LaunchError (at the launch for
host arrays, at the next wait for device arrays); the process stays usable."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.faults import greedy, still_works
from helpers.py_kernels import compiled


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


# ---- issue 18: the message leads with the kernel, block and API; the stream last ----

ASSERT_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void checked(GM_ADDR x, int32_t n)
{
    int32_t limit = 4;
    ASSERT(n < limit);
}
'''


def test_launch_error_reads_kernel_block_api_values_then_stream():
    with pytest.raises(arc.LaunchError) as ei:
        greedy()[4](np.zeros(8, np.float32), 1 << 24)
    e = ei.value
    first, *rest = str(e).splitlines()
    assert first.startswith("greedy block ") and ": AscendC::TPipe::InitBuffer: " in first
    assert "16777216 bytes" in first and "stream" not in first and "aclrt" not in first
    assert rest[-1].strip().startswith("(stream 0x") and "ACL_ERROR_RT_AICORE_EXCEPTION (507015)" in rest[-1]
    assert (e.kernel, e.block_dim, e.api, e.fault) == ("greedy", 4, "AscendC::TPipe::InitBuffer", None)
    assert 0 <= e.block < 4 and "16777216" in e.values
    assert e.stream.startswith("stream 0x") and e.acl_api.startswith("aclrt")
    assert (e.code, e.name) == (507015, "ACL_ERROR_RT_AICORE_EXCEPTION")
    import pickle
    back = pickle.loads(pickle.dumps(e))
    assert str(back) == str(e) and back.kernel == "greedy" and back.values == e.values


def test_launch_error_names_the_source_line_and_the_fault():
    k = compiled("checked", lambda: arc.Program(ASSERT_SRC, "checked.asc").compile().load().get_kernel("checked"))
    with pytest.raises(arc.LaunchError) as ei:
        k[2](np.zeros(8, np.float32), 9)
    e = ei.value
    assert (e.api, e.file, e.line) == ("ASSERT", "checked.asc", 6)
    assert str(e).splitlines()[1].strip() == "at checked.asc:6"
    oob = arc.Program('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void oob(GM_ADDR x)\n'
                      '{ __gm__ float *volatile p = (__gm__ float *)x; p[1L << 40] = 1.0f; }\n', "oob.asc").compile().load().get_kernel("oob")
    # 4 TiB past the array: beyond any mapping of this process (1 GiB past could
    # land in another mapping, e.g. a fiber stack, and then nothing faults).
    # Through a volatile local, of unknown origin: the fault's, not the bounds
    # check's (rtc/param_bounds.cpp) a pointer parameter's access gets.
    with pytest.raises(arc.LaunchError) as ei:
        oob[1](np.zeros(8, np.float32))
    assert ei.value.api == "kernel code" and ei.value.fault == "SIGSEGV" and ei.value.kernel == "oob"
    still_works()
