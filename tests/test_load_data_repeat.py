"""SetLoadDataRepeat / SetLoadDataBoundary (the 3D load's repeat and L1
boundary registers): the defaults (repeatTime 1, boundary 0) run; a value
that changes what the NPU's 3D load reads is refused naming it, not
ignored (they were silent no-ops: a plausible wrong answer)."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void regs(GM_ADDR out, int32_t repeat, int32_t boundary)
{
    AscendC::SetLoadDataRepeat({0, (uint8_t)repeat, 0});
    AscendC::SetLoadDataBoundary((uint32_t)boundary);
    *(__gm__ int32_t *)out = 7;
}
'''


@pytest.fixture(scope="module")
def k():
    return arc.Program(SRC, "regs.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("regs")


def test_the_defaults_run(k):
    out = np.zeros(8, np.int32)
    k[1](out, 1, 0)
    assert out[0] == 7


@pytest.mark.parametrize("repeat,boundary,pat", [
    (2, 0, r"AscendC::SetLoadDataRepeat: repeatTime 2: a repeated \(or, at 0, skipped\) 3D load is not simulated"),
    (0, 0, r"AscendC::SetLoadDataRepeat: repeatTime 0"),
    (1, 1024, r"AscendC::SetLoadDataBoundary: a boundary of 1024 bytes .* is not simulated yet")])
def test_a_value_that_changes_the_load_is_refused(k, repeat, boundary, pat):
    with pytest.raises(arc.LaunchError, match=pat):
        k[1](np.zeros(8, np.int32), repeat, boundary)


def test_a_dst_stride_on_dav_3510_is_refused():
    # on Ascend 950 the plain 3D load honours dstStride (its page); that placement is LoadDataWithStride's here
    src = SRC.replace("{0, (uint8_t)repeat, 0}", "{0, (uint8_t)repeat, 0, (uint16_t)boundary}").replace(
        "AscendC::SetLoadDataBoundary((uint32_t)boundary);", "")
    k = arc.Program(src, "regs950.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("regs")
    out = np.zeros(8, np.int32)
    k[1](out, 1, 0)
    assert out[0] == 7
    with pytest.raises(arc.LaunchError, match=r"AscendC::SetLoadDataRepeat: dstStride 4: on dav-3510 the plain 3D "
                                              r"load .* is not simulated yet"):
        k[1](out, 1, 4)
