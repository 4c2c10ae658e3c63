"""The Tensor API's L0C -> UB copy on dav-3510 (a MIX kernel's AIC writes
its AIVs' UBs, which then copy out to GM) against NumPy: the matrix split
by rows (DUAL_DST_SPLIT_M) or by columns (DUAL_DST_SPLIT_N) between the
two AIVs, or whole to the AIV FixpipeParams::subBlockId names; and outside
a MIX kernel the copy is refused naming the missing AIV."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''#include "tensor_api/tensor.h"
using namespace AscendC::Te;
constexpr uint32_t M = 32, K = 32, N = 64;
template <DualDstMode DM> struct ToUb {
    using TraitType = CopyL0C2UBTrait;
    static constexpr const TraitType value = CopyL0C2UBTrait{RoundMode::DEFAULT, false, false, DM};
};
template <DualDstMode DM> __aicore__ inline void mm_to_ub(__gm__ half *a, __gm__ half *b, __gm__ float *c)
{
    __cbuf__ half l1a[M * K];
    __cbuf__ half l1b[K * N];
    __ca__ half l0a[M * K];
    __cb__ half l0b[K * N];
    __cc__ float l0c[M * N];
    __ubuf__ float ub[M * N];
    auto gC = MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(M, N));
    auto tU = MakeTensor(MakeMemPtr(ub), MakeFrameLayout<NDExtLayoutPtn>(M, N));
    if ASCEND_IS_AIC {
        auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn>(M, K));
        auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn>(K, N));
        auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn>(M, K));
        auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn>(K, N));
        auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(M, N));
        Copy(MakeCopy(CopyGM2L1{}), tA1, MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(M, K)));
        Copy(MakeCopy(CopyGM2L1{}), tB1, MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(K, N)));
        AscendC::PipeBarrier<PIPE_ALL>();
        Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
        Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
        AscendC::PipeBarrier<PIPE_ALL>();
        Mmad(MakeMmad(MmadOperation{}).with(MmadParams{M, N, K, 0, true}), tC, tA0, tB0);
        AscendC::PipeBarrier<PIPE_ALL>();
        if constexpr (DM == DUAL_DST_DISABLE) {
            FixpipeParams fp;
            fp.subBlockId = true;   // AIV 1 gets the whole matrix
            Copy(MakeCopy(CopyL0C2UB{}, ToUb<DM>{}).with(fp), tU, tC);
        } else {
            Copy(MakeCopy(CopyL0C2UB{}, ToUb<DM>{}), tU, tC);
        }
        AscendC::CrossCoreSetFlag<0x2, PIPE_FIX>(0x8);
    }
    if ASCEND_IS_AIV {
        AscendC::CrossCoreWaitFlag(0x8);
        uint32_t sub = AscendC::GetSubBlockIdx();
        auto out = MakeCopy(CopyUB2GM{});
        if constexpr (DM == DUAL_DST_SPLIT_M)
            Copy(out, gC.Slice(MakeCoord(sub * M / 2, 0), MakeShape(M / 2, N)), tU.Slice(MakeCoord(0, 0), MakeShape(M / 2, N)));
        else if constexpr (DM == DUAL_DST_SPLIT_N)
            Copy(out, gC.Slice(MakeCoord(0, sub * N / 2), MakeShape(M, N / 2)), tU.Slice(MakeCoord(0, 0), MakeShape(M, N / 2)));
        else if (sub == 1)
            Copy(out, gC, tU);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __mix__(1, 2) void split_m(__gm__ half *a, __gm__ half *b, __gm__ float *c) { mm_to_ub<DUAL_DST_SPLIT_M>(a, b, c); }
extern "C" __global__ __mix__(1, 2) void split_n(__gm__ half *a, __gm__ half *b, __gm__ float *c) { mm_to_ub<DUAL_DST_SPLIT_N>(a, b, c); }
extern "C" __global__ __mix__(1, 2) void to_aiv1(__gm__ half *a, __gm__ half *b, __gm__ float *c) { mm_to_ub<DUAL_DST_DISABLE>(a, b, c); }
extern "C" __global__ __cube__ void no_aiv(__gm__ float *c)
{
    __cc__ float l0c[16 * 16];
    __ubuf__ float ub[16 * 16];
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(16, 16));
    Copy(MakeCopy(CopyL0C2UB{}), MakeTensor(MakeMemPtr(ub), MakeFrameLayout<NDExtLayoutPtn>(16, 16)), tC);
}
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "te_ub.asc").compile(["--npu-arch=dav-3510"]).load()


@pytest.mark.parametrize("name", ["split_m", "split_n", "to_aiv1"])
def test_l0c_to_the_aivs_ub(mod, name):
    rng = np.random.default_rng(31)
    a = rng.standard_normal((32, 32)).astype(np.float16)
    b = rng.standard_normal((32, 64)).astype(np.float16)
    c = np.zeros((32, 64), np.float32)
    mod.get_kernel(name)[1](a, b, c)
    arc.synchronize()
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_outside_a_mix_kernel_there_is_no_aiv(mod):
    with pytest.raises(arc.LaunchError, match=r"CopyL0C2UB.*no AIV 0 to write"):
        mod.get_kernel("no_aiv")[1](np.zeros(256, np.float32))
        arc.synchronize()
