"""The BiasTable's size is the arch's (common/socs.h's bt column, from the
"NPU架构版本2201/3510" pages: 1 KB on dav-2201, 4 KB on dav-3510): an Mmad
on dav-3510 starts from a bias row of 512 floats (2 KB) and matches NumPy;
4 KB is the limit there, 1 KB on dav-2201, each refused naming the size.
Before, every arch had dav-2201's 1 KB."""
import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _C

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t M = 16, K = 16;
extern "C" __global__ __cube__ void mm_bias(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    __cbuf__ half l1a[M * K];
    __cbuf__ half l1b[K * BIAS_N];
    __cbuf__ float l1bias[BIAS_N];
    __ca__ half l0a[M * K];
    __cb__ half l0b[K * BIAS_N];
    __cc__ float l0c[M * BIAS_N];
    __biasbuf__ float bt[BIAS_N];
    GlobalTensor<half> ga, gb; GlobalTensor<float> gbias, gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
    gbias.SetGlobalBuffer((__gm__ float *)bias); gc.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<half> a1(l1a, sizeof l1a, TPosition::A1), b1(l1b, sizeof l1b, TPosition::B1);
    LocalTensor<float> bias1(l1bias, sizeof l1bias, TPosition::C1);
    LocalTensor<half> a2(l0a, sizeof l0a, TPosition::A2), b2(l0b, sizeof l0b, TPosition::B2);
    LocalTensor<float> co1(l0c, sizeof l0c, TPosition::CO1), c2(bt, sizeof bt, TPosition::C2);
    DataCopy(a1, ga, Nd2NzParams{1, M, K, 0, K, M, 1, 0});
    DataCopy(b1, gb, Nd2NzParams{1, K, BIAS_N, 0, BIAS_N, K, 1, 0});
    DataCopy(bias1, gbias, BIAS_N);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, a1, LoadData2DParamsV2{0, 0, M / 16, K / 16, M / 16, M / 16, false, 0});
    LoadData(b2, b1, LoadData2DParamsV2{0, 0, K / 16, BIAS_N / 16, K / 16, BIAS_N / 16, true, 0});
    DataCopy(c2, bias1, DataCopyParams{1, BIAS_N * 4 / 32, 0, 0}); // dav-3510: blockLen in 32-byte units
    PipeBarrier<PIPE_ALL>();
    Mmad(co1, a2, b2, c2, MmadParams{M, BIAS_N, K, 0, false, false}); // initial value: the bias row
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f;
    f.nSize = BIAS_N; f.mSize = M; f.srcStride = M; f.dstStride = BIAS_N;
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, co1, f);
    PipeBarrier<PIPE_ALL>();
}
'''

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
    k = arc.Program(SRC, "bias.asc").compile(["--npu-arch=dav-3510", "-DBIAS_N=%d" % n]).load().get_kernel("mm_bias")
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
