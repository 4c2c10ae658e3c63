"""The Tensor API's L0C -> GM copy with Ascend 950's quantisation modes (the
Copy (L0C to GM) page's table 5): float -> fp8_e4m3fn_t / hifloat8_t (with
RoundMode::HYBRID through a CopyL0C2GMTrait) / half / bfloat16_t / float
with a scalar word, float -> bfloat16_t with per-column words in L1 (ND
and DN out); against helpers/lowp_ref.py from the raw L0C (the same copy
without quant).  RoundMode::HYBRID on another pair is refused by name."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev
from helpers import lowp_ref as ref

M, K, N = 16, 32, 32

SRC = r'''
#include "tensor_api/tensor.h"
using namespace AscendC::Te;
constexpr AscendC::Te::CopyL0C2GMTrait HYB = {RoundMode::HYBRID, false, false};
struct HybridTrait {
    using TraitType = CopyL0C2GMTrait;
    static constexpr const TraitType value = HYB;
};
// C = A @ B (half -> float L0C); raw out as float, then out as D with the word(s) (how: 0 scalar,
// 1 scalar with RoundMode::HYBRID, 2 per-column words ND, 3 per-column words DN)
template <typename D>
__aicore__ inline void quant_out(__gm__ half *a, __gm__ half *b, __gm__ uint64_t *q, __gm__ float *raw, __gm__ D *c,
                                 uint64_t word, uint32_t how)
{
    constexpr uint32_t M = 16, K = 32, N = 32;
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(M, K));
    auto gB = MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(K, N));
    auto gQ = MakeTensor(MakeMemPtr(q), MakeFrameLayout<NDExtLayoutPtn>(1, N));
    auto gR = MakeTensor(MakeMemPtr(raw), MakeFrameLayout<NDExtLayoutPtn>(M, N));
    auto gC = MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(M, N));
    auto gCd = MakeTensor(MakeMemPtr(c), MakeFrameLayout<DNExtLayoutPtn>(M, N));
    __cbuf__ half l1a[M * K];
    __cbuf__ half l1b[K * N];
    __cbuf__ uint64_t l1q[N];
    __ca__ half l0a[M * K];
    __cb__ half l0b[K * N];
    __cc__ float l0c[M * N];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn>(M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn>(K, N));
    auto tQ = MakeTensor(MakeMemPtr(l1q), MakeFrameLayout<NDExtLayoutPtn>(1, N));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn>(M, K));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn>(K, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(M, N));
    auto gm2l1 = MakeCopy(CopyGM2L1{});
    Copy(gm2l1, tA1, gA);
    Copy(gm2l1, tB1, gB);
    Copy(gm2l1, tQ, gQ);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    Mmad(MakeMmad(MmadOperation{}).with(MmadParams{M, N, K, 0, true}), tC, tA0, tB0);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), gR, tC);
    if (how == 0) Copy(MakeCopy(CopyL0C2GM{}), gC, tC, word);
    else if (how == 1) Copy(MakeCopy(CopyL0C2GM{}, HybridTrait{}), gC, tC, word);
    else if (how == 2) Copy(MakeCopy(CopyL0C2GM{}), gC, tC, tQ);
    else Copy(MakeCopy(CopyL0C2GM{}), gCd, tC, tQ);
    AscendC::PipeBarrier<PIPE_ALL>();
}
#define Q_ARGS __gm__ half *a, __gm__ half *b, __gm__ uint64_t *q, __gm__ float *raw
extern "C" __global__ __cube__ void q_fp8(Q_ARGS, __gm__ fp8_e4m3fn_t *c, uint64_t w, uint32_t how)
{ quant_out(a, b, q, raw, c, w, how); }
extern "C" __global__ __cube__ void q_hif8(Q_ARGS, __gm__ hifloat8_t *c, uint64_t w, uint32_t how)
{ quant_out(a, b, q, raw, c, w, how); }
extern "C" __global__ __cube__ void q_f16(Q_ARGS, __gm__ half *c, uint64_t w, uint32_t how)
{ quant_out(a, b, q, raw, c, w, how); }
extern "C" __global__ __cube__ void q_bf16(Q_ARGS, __gm__ bfloat16_t *c, uint64_t w, uint32_t how)
{ quant_out(a, b, q, raw, c, w, how); }
extern "C" __global__ __cube__ void q_f32(Q_ARGS, __gm__ float *c, uint64_t w, uint32_t how)
{ quant_out(a, b, q, raw, c, w, how); }
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "teq950.asc").compile(["--npu-arch=dav-3510"]).load()


def m1(word):
    return np.uint32(word & 0xFFFFE000).view(np.float32)


def run(mod, name, dt, words, how):
    rng = np.random.default_rng(8)
    a = (rng.standard_normal((M, K)) * 2).astype(np.float16)
    b = (rng.standard_normal((K, N)) * 2).astype(np.float16)
    raw = np.zeros((M, N), np.float32)
    out = np.zeros(M * N, dt)
    mod.get_kernel(name)[1](a, b, np.asarray(words, np.uint64), raw, out, np.uint64(words[0]), np.uint32(how))
    arc.synchronize()
    scale = np.array([m1(int(w)) for w in words], np.float32)[None, :]
    return (raw * scale).astype(np.float32), out


def word(s):
    return int(np.float32(s).view(np.uint32))


@pytest.mark.parametrize("how, md", [(0, "rna"), (1, "rh")])
def test_hif8_scalar_default_and_hybrid(mod, how, md):
    f, out = run(mod, "q_hif8", np.uint8, [word(3.0)] * N, how)
    want = [ref.to_hif8(float(v), md, False, ref.hif8_thr_f32(float(v)), 14) for v in f.ravel()]
    np.testing.assert_array_equal([ref.hif8_decode(int(x)) for x in out], want)


def test_fp8_half_f32_scalar(mod):
    f, out = run(mod, "q_fp8", np.uint8, [word(0.5)] * N, 0)
    np.testing.assert_array_equal([ref.decode(int(x), "e4m3") for x in out],
                                  [ref.to_format(float(v), "e4m3", "rn", False) for v in f.ravel()])
    f, out = run(mod, "q_f16", np.float16, [word(1.7)] * N, 0)
    np.testing.assert_array_equal(out, f.ravel().astype(np.float16))
    f, out = run(mod, "q_f32", np.float32, [word(1.3) | 0x1FFF] * N, 0)
    np.testing.assert_array_equal(out, f.ravel())


@pytest.mark.parametrize("how", [2, 3])
def test_bf16_per_column_nd_and_dn(mod, how):
    words = [word(0.25 * (1 + c % 7)) for c in range(N)]
    f, out = run(mod, "q_bf16", np.uint16, words, how)
    got = out.reshape(M, N) if how == 2 else out.reshape(N, M).T
    np.testing.assert_array_equal(got, dev.f32_to_bf16_bits(f.ravel()).reshape(M, N))


def test_hybrid_elsewhere_is_refused(mod):
    with pytest.raises(arc.LaunchError, match=r"RoundMode::HYBRID is for a quantised float -> hifloat8_t copy only "
                                              r"\(this is float -> fp8_e4m3fn_t\)"):
        run(mod, "q_fp8", np.uint8, [word(0.5)] * N, 1)


def test_hybrid_trait_changes_the_rounding(mod):
    _, o1 = run(mod, "q_hif8", np.uint8, [word(3.0)] * N, 0)
    _, o2 = run(mod, "q_hif8", np.uint8, [word(3.0)] * N, 1)
    assert np.any(o1 != o2)
