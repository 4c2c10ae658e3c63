"""Cube unit on Ascend 950 (dav-3510), against NumPy: LoadData with
LoadData2DParamsV2 (A Nz -> Nz into L0A, B Nz -> Zn into L0B with the
16-bit fractal transpose, start positions and strides), Mmad reading L0A
as Nz (the "key fractal formats" page: Nz x Zn = Nz), Fixpipe with
FixpipeParamsArch3510 to GM (NZ2ND; NZ with dstStride in elements); the
refusals (LoadData2DParamsV2 on dav-2201, b8 transposes, L0C -> UB, the
3D load into L0A)."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// C (M x N, float) = A[:, k0:k0+K] (A is M x KA half) @ B (K x N half), all through L1 -> L0 with V2 loads.
// A's L1 copy is Nz with M rows per fractal column; the load starts kStart fractals into it.
extern "C" __global__ __aicore__ void mm950(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint32_t M, uint32_t KA, uint32_t K,
                                            uint32_t N, uint32_t kStart, uint32_t nz)
{
    GlobalTensor<half> ga, gb; GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    TPipe pipe;
    TBuf<TPosition::A1> ta1; TBuf<TPosition::B1> tb1; TBuf<TPosition::A2> ta2; TBuf<TPosition::B2> tb2;
    TBuf<TPosition::CO1> tc;
    pipe.InitBuffer(ta1, M * KA * 2); pipe.InitBuffer(tb1, K * N * 2);
    pipe.InitBuffer(ta2, M * K * 2); pipe.InitBuffer(tb2, K * N * 2); pipe.InitBuffer(tc, M * N * 4);
    LocalTensor<half> a1 = ta1.Get<half>(), b1 = tb1.Get<half>(), a2 = ta2.Get<half>(), b2 = tb2.Get<half>();
    LocalTensor<float> co1 = tc.Get<float>();
    DataCopy(a1, ga, Nd2NzParams{1, (uint16_t)M, (uint16_t)KA, 0, (uint16_t)KA, (uint16_t)M, 1, 0});
    DataCopy(b1, gb, Nd2NzParams{1, (uint16_t)K, (uint16_t)N, 0, (uint16_t)N, (uint16_t)K, 1, 0});
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, a1, LoadData2DParamsV2{0, kStart, (uint16_t)(M / 16), (uint16_t)(K / 16), (int32_t)(M / 16),
                                        (uint16_t)(M / 16), false, 0});
    LoadData(b2, b1, LoadData2DParamsV2{0, 0, (uint16_t)(K / 16), (uint16_t)(N / 16), (int32_t)(K / 16),
                                        (uint16_t)(N / 16), true, 0});
    PipeBarrier<PIPE_ALL>();
    Mmad(co1, a2, b2, MmadParams{(uint16_t)M, (uint16_t)N, (uint16_t)K, 0, false, true});
    PipeBarrier<PIPE_ALL>();
    if (nz) {
        FixpipeParamsArch3510<CO2Layout::NZ> f;
        f.nSize = N; f.mSize = M; f.srcStride = M; f.dstStride = M * 16;   // elements between 16-column blocks
        Fixpipe<float, float, CFG_NZ>(gc, co1, f);
    } else {
        FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f(N, M, M, N);  // nSize, mSize, srcStride, dstStride
        Fixpipe<float, float, CFG_ROW_MAJOR>(gc, co1, f);
    }
    PipeBarrier<PIPE_ALL>();
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "cube950.asc").compile(["--npu-arch=dav-3510"]).load()


def run(mod, m, ka, k, n, kstart, nz):
    rng = np.random.default_rng(5)
    a = rng.integers(-4, 5, (m, ka)).astype(np.float16)
    b = rng.integers(-4, 5, (k, n)).astype(np.float16)
    c = np.zeros(m * n, np.float32)
    mod.get_kernel("mm950")[1](a, b, c, *[np.uint32(v) for v in (m, ka, k, n, kstart, nz)])
    arc.synchronize()
    want = a[:, 16 * kstart:16 * kstart + k].astype(np.float32) @ b.astype(np.float32)
    return c, want


def test_v2_loads_and_nz_l0a_matmul(mod):
    c, want = run(mod, 48, 64, 64, 32, 0, 0)
    np.testing.assert_array_equal(c.reshape(48, 32), want)


def test_v2_load_from_a_k_start_position(mod):
    c, want = run(mod, 32, 96, 48, 32, 2, 0)        # A columns 32..79 of 96
    np.testing.assert_array_equal(c.reshape(32, 32), want)


def test_fixpipe_3510_nz_dst_stride_in_elements(mod):
    c, want = run(mod, 32, 32, 32, 48, 0, 1)
    got = c.reshape(3, 32, 16).transpose(1, 0, 2).reshape(32, 48)   # NZ: [n / 16][m][16]
    np.testing.assert_array_equal(got, want)


REFUSE = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    TPipe pipe; TBuf<TPosition::A1> t1; TBuf<TPosition::A2> t2; TBuf<TPosition::CO1> tc; TBuf<TPosition::VECIN> tu;
    pipe.InitBuffer(t1, 4096); pipe.InitBuffer(t2, 4096); pipe.InitBuffer(tc, 4096); pipe.InitBuffer(tu, 4096);
    %s
}
'''


@pytest.mark.parametrize("body, message", [
    ("LocalTensor<int8_t> s = t1.Get<int8_t>(), d = t2.Get<int8_t>();\n"
     "LoadData(d, s, LoadData2DParamsV2{0, 0, 2, 1, 2, 2, true, 0});",
     "ifTranspose with 8-bit int8_t: only the 16-bit fractal transpose is simulated yet"),
    ("LocalTensor<float> s = tc.Get<float>(); LocalTensor<half> d = tu.Get<half>();\n"
     "FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f; f.nSize = 16; f.mSize = 16; f.srcStride = 16; f.dstStride = 16;\n"
     "static constexpr FixpipeConfig UB = {CO2Layout::ROW_MAJOR, true};\n"
     "Fixpipe<half, float, UB>(d, s, f);", "L0C -> VECIN .* is not simulated yet"),
    ("LocalTensor<half> s = t1.Get<half>(), d = t2.Get<half>();\n"
     "uint8_t pad[4] = {0, 0, 0, 0}; SetFmatrix(1, 16, pad, FmatrixMode::FMATRIX_LEFT);\n"
     "LoadData3DParamsV2<half> p; p.l1W = 16; p.l1H = 1; p.channelSize = 16; p.kExtension = 16; p.mExtension = 16;\n"
     "p.filterW = 1; p.filterH = 1; p.strideW = 1; p.strideH = 1; LoadData(d, s, p);",
     "3D load into L0A on dav-3510"),
])
def test_950_moves_not_simulated_are_refused(body, message):
    mod = arc.Program(REFUSE % body, "refuse950.asc").compile(["--npu-arch=dav-3510"]).load()
    with pytest.raises(arc.LaunchError, match=message):
        mod.get_kernel("k")[1](np.zeros(16, np.float32))
        arc.synchronize()


def test_v2_params_are_950_only():
    body = ("LocalTensor<half> s = t1.Get<half>(), d = t2.Get<half>();\n"
            "LoadData(d, s, LoadData2DParamsV2{0, 0, 1, 1, 1, 1, false, 0});")
    with pytest.raises(arc.CompileError, match=r"Ascend 950 \(dav-3510\) only"):
        arc.Program(REFUSE % body, "v2on2201.asc").compile(["--npu-arch=dav-2201"])
