"""SIMD+SIMT hybrid kernels (issue 25): a `__global__ __vector__` kernel
calls `__simt_vf__` functions with asc_vf_call<f>(dim3(threads), args...),
each run as one block of threads on the calling AIV (blockIdx.x = the
kernel's block index, gridDim.x = its block count), between SIMD steps
on UB.  References are NumPy."""
import numpy as np
import pytest

import ascendrtc as arc

OPTS = ["--npu-arch=dav-3510"]  # a __simt_vf__ source compiles as SIMT without --enable-simt

SRC = r'''
#include "kernel_operator.h"
#include "simt_api/asc_simt.h"
using namespace AscendC;

// y[i] = x[idx[i]] * s + blockIdx.x, gathered by threads into UB
__simt_vf__ __launch_bounds__(512) inline void gather_vf(__gm__ float* x, __gm__ uint32_t* idx,
                                                          __ubuf__ float* ub, float s, uint32_t per)
{
    uint32_t i = blockIdx.x * per + threadIdx.x;
    for (uint32_t t = threadIdx.x; t < per; t += blockDim.x, i += blockDim.x)
        ub[t] = x[idx[i]] * s + (float)blockIdx.x;
}

// a block-wide tree sum through static block-shared UB with barriers
__simt_vf__ inline void sum_vf(__ubuf__ float* ub, __gm__ float* sums, uint32_t per)
{
    __ubuf__ float part[256];
    float v = 0.0f;
    for (uint32_t t = threadIdx.x; t < per; t += blockDim.x) v += ub[t];
    part[threadIdx.x] = v;
    for (uint32_t s = blockDim.x / 2; s > 0; s >>= 1) {
        asc_syncthreads();
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

__global__ __vector__ void hybrid(GM_ADDR x, GM_ADDR idx, GM_ADDR y, GM_ADDR sums, float s, uint32_t per)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * per * sizeof(float));
    LocalTensor<float> a = buf.GetWithOffset<float>(per, 0), b = buf.GetWithOffset<float>(per, per * 4);
    asc_vf_call<gather_vf>(dim3(512), (__gm__ float*)x, (__gm__ uint32_t*)idx, (__ubuf__ float*)b.GetPhyAddr(),
                           s, per);
    PipeBarrier<PIPE_V>();
    Adds(a, b, 1.0f, per);          // SIMD on what the threads wrote
    PipeBarrier<PIPE_V>();
    // the VF's own static UB array must leave the SIMD side's buffer a (UB offset 0) alone
    asc_vf_call<sum_vf>(dim3(256), (__ubuf__ float*)a.GetPhyAddr(), (__gm__ float*)sums, per);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    GlobalTensor<float> gy;
    gy.SetGlobalBuffer((__gm__ float*)y + GetBlockIdx() * per, per);
    DataCopy(gy, a, per);
}

__simt_vf__ inline void fill_vf(__ubuf__ float* ub, uint32_t n)
{
    for (uint32_t t = threadIdx.x; t < n; t += blockDim.x) ub[t] = (float)t;
}

// MODE 0: the V -> MTE3 flag the docs require; 1: none (a race); 2: a VF of 4096 threads
template <int MODE>
__global__ __vector__ void fill(GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    asc_vf_call<fill_vf>(dim3(MODE == 2 ? 4096 : 128), (__ubuf__ float*)a.GetPhyAddr(), n);
    if (MODE != 1) {
        SetFlag<HardEvent::V_MTE3>(0);
        WaitFlag<HardEvent::V_MTE3>(0);
    }
    GlobalTensor<float> gy;
    gy.SetGlobalBuffer((__gm__ float*)y, n);
    DataCopy(gy, a, n);
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "hybrid.asc", name_expressions=["fill<0>", "fill<1>", "fill<2>"]).compile(OPTS).load()


@pytest.mark.parametrize("blocks", [1, 4])
def test_simt_vf_then_simd_then_simt_vf(mod, blocks):
    per = 1024
    r = np.random.default_rng(blocks)
    x = r.standard_normal(5000).astype(np.float32)
    idx = r.integers(0, len(x), blocks * per).astype(np.uint32)
    y = np.zeros(blocks * per, np.float32)
    sums = np.zeros(blocks, np.float32)
    mod.get_kernel("hybrid")[blocks](x, idx, y, sums, 0.5, per)
    arc.synchronize()
    want = x[idx] * np.float32(0.5) + np.repeat(np.arange(blocks, dtype=np.float32), per) + np.float32(1)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_allclose(sums, want.reshape(blocks, per).sum(axis=1), rtol=1e-5)


def test_simt_vf_runs_on_the_vector_pipe_for_the_race_check(mod):
    # a VF's UB stores are PIPE_V's: copying them out (MTE3) needs the V -> MTE3
    # flag, as after a SIMD VF; without it the race check names both sides
    y = np.zeros(1024, np.float32)
    with pytest.raises(arc.LaunchError, match=r"data race.*a SIMT VF's store \(PIPE_V.*DataCopy.*PIPE_MTE3"):
        mod.get_kernel("fill<1>")[1](y, 1024)
    with pytest.raises(arc.LaunchError, match=r"asc_vf_call.*dim3\(4096, 1, 1\) has 4096 threads"):
        mod.get_kernel("fill<2>")[1](y, 1024)
    mod.get_kernel("fill<0>")[1](y, 1024)
    arc.synchronize()
    np.testing.assert_array_equal(y, np.arange(1024, dtype=np.float32))
