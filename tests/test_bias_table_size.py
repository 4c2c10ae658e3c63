"""The BiasTable's size is the arch's (common/socs.h's bt column, from the
"NPU架构版本2201/3510" pages: 1 KB on dav-2201, 4 KB on dav-3510): an Mmad
on dav-3510 starts from a bias row of 512 floats (2 KB) and matches NumPy;
4 KB is the limit there, 1 KB on dav-2201, each refused naming the size.
Before, every arch had dav-2201's 1 KB."""
import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _C
from test_static_cube_mem import SRC as MM_SRC


# test_static_cube_mem's matmul through static cube arrays, its bias row
# (BiasTable) of n floats
def mm_src(n):
    old = "constexpr uint32_t M = 32, K = 32, N = 48;"
    assert old in MM_SRC
    return MM_SRC.replace(old, "constexpr uint32_t M = 16, K = 16, N = %d;" % n)


STATIC = r'''
#include "kernel_operator.h"
extern "C" __global__ __cube__ void bt_static(GM_ADDR out)
{
    __biasbuf__ float bt[BIAS_N];
    bt[0] = 1.0f;
    *(__gm__ float *)out = bt[0];
}
'''


def test_arch_table_has_the_bias_table():
    assert _C.ARCHS["dav-2201"]["bias_table"] == 1024
    assert _C.ARCHS["dav-3510"]["bias_table"] == 4096


def test_a_2kb_bias_row_on_dav_3510():
    n = 512
    k = arc.Program(mm_src(n), "bias.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("mm_static")
    rng = np.random.default_rng(5)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, n)).astype(np.float16)
    bias = rng.standard_normal(n).astype(np.float32)
    c = np.zeros((16, n), np.float32)
    k[1](a, b, bias, c)
    arc.synchronize()
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32) + bias, rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("arch,n,size", [("dav-3510", 1040, 4096), ("dav-2201", 272, 1024)])
def test_static_bias_arrays_over_the_arch_size_are_refused(arch, n, size):
    k = arc.Program(STATIC, "bt.asc").compile(["--npu-arch=" + arch, "-DBIAS_N=%d" % n]).load().get_kernel("bt_static")
    out = np.zeros(1, np.float32)
    with pytest.raises(arc.LaunchError, match=r"static __biasbuf__ arrays of bt_static.*%d bytes.*BiasTable \(%d bytes\)"
                       % (n * 4, size)):
        k[1](out)
        arc.synchronize()
    k2 = arc.Program(STATIC, "bt.asc").compile(["--npu-arch=" + arch, "-DBIAS_N=%d" % (size // 4)]).load()
    k2.get_kernel("bt_static")[1](out)
    arc.synchronize()
    assert out[0] == 1.0
