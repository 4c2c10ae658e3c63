"""A SIMD kernel's static cube-side arrays live in their memories, as
`__ubuf__` arrays live in the UB: `__cbuf__` in L1, `__ca__`/`__cb__`/`__cc__`
in L0A/L0B/L0C, `__biasbuf__` in the BiasTable (rtc/simd_ub.cpp).  The C++
API's cube moves accept tensors over them only where they lie in the memory
each move checks, so a matmul through them that matches NumPy shows each
array in its memory; two arrays of one memory do not overlap; too many bytes
for a memory is refused naming the qualifier, the function and the sizes."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t M = 32, K = 32, N = 48;
extern "C" __global__ __cube__ void mm_static(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)
{
    __cbuf__ half l1a[M * K];
    __cbuf__ half l1b[K * N];
    __cbuf__ float l1bias[N];
    __ca__ half l0a[M * K];
    __cb__ half l0b[K * N];
    __cc__ float l0c[M * N];
    __biasbuf__ float bt[N];
    GlobalTensor<half> ga, gb; GlobalTensor<float> gbias, gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
    gbias.SetGlobalBuffer((__gm__ float *)bias); gc.SetGlobalBuffer((__gm__ float *)c);
    LocalTensor<half> a1(l1a, sizeof l1a, TPosition::A1), b1(l1b, sizeof l1b, TPosition::B1);
    LocalTensor<float> bias1(l1bias, sizeof l1bias, TPosition::C1);
    LocalTensor<half> a2(l0a, sizeof l0a, TPosition::A2), b2(l0b, sizeof l0b, TPosition::B2);
    LocalTensor<float> co1(l0c, sizeof l0c, TPosition::CO1), c2(bt, sizeof bt, TPosition::C2);
    DataCopy(a1, ga, Nd2NzParams{1, M, K, 0, K, M, 1, 0});
    DataCopy(b1, gb, Nd2NzParams{1, K, N, 0, N, K, 1, 0});
    DataCopy(bias1, gbias, N);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, a1, LoadData2DParamsV2{0, 0, M / 16, K / 16, M / 16, M / 16, false, 0});
    LoadData(b2, b1, LoadData2DParamsV2{0, 0, K / 16, N / 16, K / 16, N / 16, true, 0});
    DataCopy(c2, bias1, DataCopyParams{1, N * 4 / 32, 0, 0}); // dav-3510: blockLen in 32-byte units
    PipeBarrier<PIPE_ALL>();
    Mmad(co1, a2, b2, c2, MmadParams{M, N, K, 0, false, false}); // initial value: the bias row
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f;
    f.nSize = N; f.mSize = M; f.srcStride = M; f.dstStride = N;
    Fixpipe<float, float, CFG_ROW_MAJOR>(gc, co1, f);
    PipeBarrier<PIPE_ALL>();
}
// Byte distance between two arrays of one memory, and their alignment.
extern "C" __global__ __cube__ void places(GM_ADDR out)
{
    __cbuf__ uint8_t x[40];
    __cbuf__ uint8_t y[8];
    __ca__ uint8_t p[16];
    __ca__ uint8_t q[16];
    __gm__ int64_t *o = (__gm__ int64_t *)out;
    x[0] = 1; y[0] = 2; p[0] = 3; q[0] = 4;
    o[0] = (int64_t)(y - x);
    o[1] = (int64_t)(q - p);
    o[2] = x[0] + y[0] + p[0] + q[0];
}
extern "C" __global__ __cube__ void too_big(GM_ADDR out)
{
    __cc__ float huge[80 * 1024];
    huge[0] = 1.0f;
    *(__gm__ float *)out = huge[0];
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "static_cube.asc").compile(["--npu-arch=dav-3510"]).load()


def test_matmul_through_static_arrays(mod):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((32, 32)).astype(np.float16)
    b = rng.standard_normal((32, 48)).astype(np.float16)
    bias = rng.standard_normal(48).astype(np.float32)
    c = np.zeros((32, 48), np.float32)
    mod.get_kernel("mm_static")[1](a, b, bias, c)
    arc.synchronize()
    want = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-4)


def test_arrays_are_disjoint_and_aligned(mod):
    out = np.zeros(3, np.int64)
    mod.get_kernel("places")[1](out)
    arc.synchronize()
    assert out.tolist() == [64, 512, 10]  # L1 arrays 32-byte aligned, L0A arrays 512


def test_too_many_bytes_for_a_memory(mod):
    out = np.zeros(1, np.float32)
    with pytest.raises(arc.LaunchError, match=r"static __cc__ arrays of too_big.*327680 bytes.*L0C \(262144 bytes\)"):
        mod.get_kernel("too_big")[1](out)
        arc.synchronize()
