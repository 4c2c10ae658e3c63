"""The Tensor API's MX matmul on dav-3510 against NumPy (ml_dtypes decodes
the elements): fp4 e2m1 pairs and fp8 e4m3 operands, A from GM as ND and
B as DN, their e8m0 scales (one per 32 values along K) ScaleAND -> ZZ and
ScaleBDN -> NN in L1, then into L0ScaleA / L0ScaleB at the L0A / L0B
address / 16 (as the asc-devkit example places them), Mmad with
MmadTraitMX, float out."""
import numpy as np
import pytest

import ascendrtc as arc

ml_dtypes = pytest.importorskip("ml_dtypes")

M, K, N = 32, 128, 48

SRC = r'''#include "tensor_api/tensor.h"
using namespace AscendC::Te;
constexpr uint32_t M = %d, K = %d, N = %d, SK = K / 32;
template <typename T, int64_t C0>
__aicore__ inline void mx_mm(__gm__ T *a, __gm__ T *b, __gm__ fp8_e8m0_t *sa, __gm__ fp8_e8m0_t *sb, __gm__ float *c)
{
    constexpr uint32_t PER = C0 / 32;   // values per byte
    __cbuf__ T l1a[M * K / PER];
    __cbuf__ T l1b[K * N / PER];
    __cbuf__ fp8_e8m0_t l1sa[M * SK];
    __cbuf__ fp8_e8m0_t l1sb[SK * N];
    __ca__ T l0a[M * K / PER];
    __cb__ T l0b[K * N / PER];
    __cc__ float l0c[M * N];
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(M, K));
    auto gB = MakeTensor(MakeMemPtr(b), MakeFrameLayout<DNExtLayoutPtn>(K, N));
    auto gSa = MakeTensor(MakeMemPtr(sa), MakeFrameLayout<ScaleANDLayoutPtn>(M, SK));
    auto gSb = MakeTensor(MakeMemPtr(sb), MakeFrameLayout<ScaleBDNLayoutPtn>(SK, N));
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn, C0>(M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<ZNLayoutPtn, C0>(K, N));
    auto tSa1 = MakeTensor(MakeMemPtr(l1sa), MakeFrameLayout<ZZLayoutPtn, 2>(M, SK));
    auto tSb1 = MakeTensor(MakeMemPtr(l1sb), MakeFrameLayout<NNLayoutPtn, 2>(SK, N));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn, C0>(M, K));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn, C0>(K, N));
    auto tSa0 = MakeTensor(MakeMemPtr<Location::L0ScaleA, fp8_e8m0_t>(reinterpret_cast<uint64_t>(l0a) / 16),
                           MakeFrameLayout<ZZLayoutPtn, 2>(M, SK));
    auto tSb0 = MakeTensor(MakeMemPtr<Location::L0ScaleB, fp8_e8m0_t>(reinterpret_cast<uint64_t>(l0b) / 16),
                           MakeFrameLayout<NNLayoutPtn, 2>(SK, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(M, N));
    auto gm2l1 = MakeCopy(CopyGM2L1{});
    Copy(gm2l1, tA1, gA);
    Copy(gm2l1, tB1, gB);
    Copy(gm2l1, tSa1, gSa);
    Copy(gm2l1, tSb1, gSb);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    Copy(MakeCopy(CopyL12L0ScaleA{}), tSa0, tSa1);
    Copy(MakeCopy(CopyL12L0ScaleB{}), tSb0, tSb1);
    AscendC::PipeBarrier<PIPE_ALL>();
    Mmad(MakeMmad(MmadOperation{}, MmadTraitMX{}).with(MmadParams{M, N, K, 0, true}), tC, tA0, tB0);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(M, N)), tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void mx_fp4(__gm__ fp4x2_e2m1_t *a, __gm__ fp4x2_e2m1_t *b, __gm__ fp8_e8m0_t *sa,
                                          __gm__ fp8_e8m0_t *sb, __gm__ float *c)
{
    mx_mm<fp4x2_e2m1_t, 64>(a, b, sa, sb, c);
}
extern "C" __global__ __cube__ void mx_fp8(__gm__ fp8_e4m3fn_t *a, __gm__ fp8_e4m3fn_t *b, __gm__ fp8_e8m0_t *sa,
                                          __gm__ fp8_e8m0_t *sb, __gm__ float *c)
{
    mx_mm<fp8_e4m3fn_t, 32>(a, b, sa, sb, c);
}
''' % (M, K, N)


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "te_mx.asc").compile(["--npu-arch=dav-3510"]).load()


def pack_fp4(v):
    """Two e2m1 values a byte, the first in the low nibble."""
    bits = v.astype(ml_dtypes.float4_e2m1fn).view(np.uint8) & 15
    return (bits[..., 0::2] | (bits[..., 1::2] << 4)).astype(np.uint8)


def scales(rng, shape):
    return rng.integers(124, 131, shape).astype(np.uint8)  # 2^-3 .. 2^3


def reference(a, b, sa, sb):
    fa = a.astype(np.float64) * np.repeat(2.0 ** (sa.astype(np.float64) - 127), 32, axis=1)
    fb = b.astype(np.float64) * np.repeat(2.0 ** (sb.astype(np.float64) - 127), 32, axis=0)
    return fa @ fb


@pytest.mark.parametrize("kind", ["fp4", "fp8"])
def test_mx_matmul(mod, kind):
    rng = np.random.default_rng(21 if kind == "fp4" else 22)
    dt = ml_dtypes.float4_e2m1fn if kind == "fp4" else ml_dtypes.float8_e4m3fn
    a = rng.uniform(-4, 4, (M, K)).astype(dt).astype(np.float32)
    b = rng.uniform(-4, 4, (K, N)).astype(dt).astype(np.float32)
    sa, sb = scales(rng, (M, K // 32)), scales(rng, (K // 32, N))
    if kind == "fp4":
        ga, gb = pack_fp4(a), pack_fp4(np.ascontiguousarray(b.T))
    else:
        ga, gb = a.astype(dt).view(np.uint8), np.ascontiguousarray(b.T).astype(dt).view(np.uint8)
    c = np.zeros((M, N), np.float32)
    mod.get_kernel("mx_" + kind)[1](ga, gb, sa, np.ascontiguousarray(sb.T), c)
    arc.synchronize()
    np.testing.assert_allclose(c, reference(a, b, sa, sb), rtol=1e-6, atol=1e-5)
