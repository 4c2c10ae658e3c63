"""ascendrtc.set_launch_timeout: a kernel that never finishes fails with
ACL_ERROR_RT_AICORE_TIMEOUT naming each core's position, and the next launch works."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void spin(GM_ADDR flag, GM_ADDR out)
{
    volatile __gm__ int32_t *f = (__gm__ int32_t *)flag;
    if (AscendC::GetBlockIdx() == 0)
        while (f[0] == 0) { }            // never released
    else
        AscendC::SyncAll();
}
extern "C" __global__ __aicore__ void ok(GM_ADDR out)
{
    ((__gm__ int32_t *)out)[AscendC::GetBlockIdx()] = 7;
}
'''


@pytest.fixture
def module():
    return dev.load(SRC, "spin.asc")


def test_timeout_reports_core_positions_and_device_recovers(module):
    flag, out = arc.zeros(8, np.int32), arc.zeros(8, np.int32)
    arc.set_launch_timeout(0.3)
    try:
        module.get_kernel("spin")[4](flag, out)
        with pytest.raises(arc.LaunchError) as e:
            arc.synchronize()
    finally:
        arc.set_launch_timeout(None)
    assert e.value.code == 507014
    msg = str(e.value)
    assert "running" in msg and "SyncAll" in msg, msg
    module.get_kernel("ok")[8](out)
    arc.synchronize()
    assert out.get().tolist() == [7] * 8


@pytest.mark.parametrize("bad", [-1, float("nan"), "1", True])
def test_bad_timeouts_are_refused(bad):
    with pytest.raises(ValueError, match="seconds must be None or a number >= 0"):
        arc.set_launch_timeout(bad)


def test_none_hands_the_limit_back_to_the_environment(module, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_LAUNCH_TIMEOUT", "0.3")
    arc.set_launch_timeout(1000)
    arc.set_launch_timeout(None)          # not "no limit": the env var rules again
    flag, out = arc.zeros(8, np.int32), arc.zeros(8, np.int32)
    module.get_kernel("spin")[4](flag, out)
    with pytest.raises(arc.LaunchError) as e:
        arc.synchronize()
    assert e.value.code == 507014
