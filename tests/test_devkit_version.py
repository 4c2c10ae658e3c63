"""ASC_DEVKIT_VERSION_NUM and its parts, as CANN's device build defines
them (it force-includes the asc-devkit's version header): ascendrtc follows
asc-devkit 9.1.0, so 9*10^7 + 1*10^5 + 0*10^3 (its cmake/version_info.cmake's
formula).  Op sources test it (ops-nn's arch35 conv3d backprop kernels take
their >= 9.0 branch); a kernel that includes the header by name finds it."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
#include "version/asc_devkit_version.h"
extern "C" __global__ __aicore__ void ver(GM_ADDR x)
{
    AscendC::GlobalTensor<int32_t> g;
    g.SetGlobalBuffer((__gm__ int32_t *)x, 8);
    g.SetValue(0, ASC_DEVKIT_VERSION_NUM / 1000);
    g.SetValue(1, ASC_DEVKIT_MAJOR * 100 + ASC_DEVKIT_MINOR * 10 + ASC_DEVKIT_PATCH);
    g.SetValue(2, sizeof(ASC_DEVKIT_VERSION_STR));
#if defined(ASC_DEVKIT_VERSION_NUM) && (ASC_DEVKIT_VERSION_NUM >= 90000000)
    g.SetValue(3, 1);
#endif
}
'''


@pytest.mark.parametrize("arch", ["dav-2201", "dav-3510"])
def test_version_macros(arch):
    k = arc.Program(SRC, "ver.asc").compile(["--npu-arch=" + arch]).load().get_kernel("ver")
    x = np.zeros(8, np.int32)
    k[1](x)
    arc.synchronize()
    assert list(x[:4]) == [90100, 910, len("9.1.0") + 1, 1]
