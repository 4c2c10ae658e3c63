"""The Tensor API (tensor_api/tensor.h, AscendC::Te) on dav-3510 against
NumPy: layout offsets as the docs' NZ/ZN/ND formulas give them, a
matmul of odd-ish sizes (half -> float) through GM -> L1 -> L0A/L0B ->
L0C -> GM with K split into L1 slices and a bias row, non-trivial copy
layouts (a column-major A through ZN in L1 and the transposing load, an
element-wise ND -> ZN copy, an NZ result in GM), a batch matmul with
batched layouts, int8 with per-channel quantisation words to half (ND and
DN out); the
Mutex that orders Mmad (PIPE_M) before the copy out (PIPE_FIX), as the
asc-devkit Tensor API examples order them, and the race without it; a
float matmul whose B load is the b32 transpose; m = 1 with GEMV off and on."""
import numpy as np
import pytest

import ascendrtc as arc

HEAD = '#include "tensor_api/tensor.h"\nusing namespace AscendC::Te;\n'

SRC = HEAD + r'''
// offsets[i] = layout(r, c) for every (r, c) of a 40 x 48 matrix, four patterns
extern "C" __global__ __cube__ void offsets(__gm__ int64_t *out)
{
    auto nz = MakeFrameLayout<NZLayoutPtn>(40, 48);
    auto zn = MakeFrameLayout<ZNLayoutPtn, int8_t>(40, 48);
    auto nd = MakeFrameLayout<NDExtLayoutPtn>(40, 48);
    auto dn = MakeFrameLayout<DNLayoutPtn>(40, 48);
    for (int r = 0; r < 40; r++)
        for (int c = 0; c < 48; c++) {
            int i = r * 48 + c;
            out[i] = nz(MakeCoord(r, c));
            out[1920 + i] = zn(MakeCoord(r, c));
            out[3840 + i] = nd(MakeCoord(r, c));
            out[5760 + i] = dn(MakeCoord(r, c));
        }
    out[7680] = nz.Capacity();
    out[7681] = zn.Capacity();
    out[7682] = Size(nz);
}

// C = A (M x K, ND) @ B (K x N, ND) + bias, K in L1 slices of KB, the first
// Mmad starting from the bias row.
template <uint32_t M, uint32_t K, uint32_t N, uint32_t KB>
__aicore__ inline void mm_bias(__gm__ half *a, __gm__ half *b, __gm__ float *bias, __gm__ float *c)
{
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(M, K));
    auto gB = MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(K, N));
    auto gBias = MakeTensor(MakeMemPtr(bias), MakeFrameLayout<NDExtLayoutPtn>(1, N));
    auto gC = MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(M, N));
    __cbuf__ half l1a[(M + 15) / 16 * 16 * K];
    __cbuf__ half l1b[K * ((N + 15) / 16 * 16)];
    __cbuf__ float l1bias[(N + 15) / 16 * 16];
    __ca__ half l0a[(M + 15) / 16 * 16 * KB];
    __cb__ half l0b[KB * ((N + 15) / 16 * 16)];
    __cc__ float l0c[(M + 15) / 16 * 16 * ((N + 15) / 16 * 16)];
    __biasbuf__ float bt[(N + 15) / 16 * 16];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn>(M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn>(K, N));
    // the BiasTable copy moves 64-byte units: the L1 tensor covers N rounded up
    auto tBias1 = MakeTensor(MakeMemPtr(l1bias), MakeFrameLayout<NDExtLayoutPtn>(1, (N + 15) / 16 * 16))
                      .Slice(MakeCoord(0, 0), MakeShape(1, N));
    auto tBias = MakeTensor(MakeMemPtr(bt), MakeFrameLayout<NDExtLayoutPtn>(1, (N + 15) / 16 * 16))
                     .Slice(MakeCoord(0, 0), MakeShape(1, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(M, N));
    auto gm2l1 = MakeCopy(CopyGM2L1{}, CopyGM2L1TraitDefault{});
    Copy(gm2l1, tA1, gA);
    Copy(gm2l1, tB1, gB);
    Copy(gm2l1, tBias1, gBias);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12BT{}), tBias, tBias1);
    auto mmad = MakeMmad(MmadOperation{}, MmadTraitDefault{});
    for (uint32_t k0 = 0; k0 < K; k0 += KB) {
        auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn>(M, KB));
        auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn>(KB, N));
        AscendC::PipeBarrier<PIPE_ALL>();
        Copy(MakeCopy(CopyL12L0A{}), tA0, tA1.Slice(MakeCoord(0, k0), MakeShape(M, KB)));
        Copy(MakeCopy(CopyL12L0B{}), tB0, tB1.Slice(MakeCoord(k0, 0), MakeShape(KB, N)));
        AscendC::PipeBarrier<PIPE_ALL>();
        if (k0 == 0)
            Mmad(mmad.with(MmadParams{M, N, KB, 0, true}), tC, tA0, tB0, tBias);
        else
            Mmad(mmad.with(MmadParams{M, N, KB, 0, false}), tC, tA0, tB0);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), gC, tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void mm_odd(__gm__ half *a, __gm__ half *b, __gm__ float *bias, __gm__ float *c)
{
    mm_bias<40, 96, 56, 32>(a, b, bias, c);
}

// A arrives column-major (DN) and goes to L1 as ZN, then to L0A with the
// transposing load; B arrives ND and goes to L1 as ZN element by element
// (ND2ZN); C leaves as NZ (16 x 16 fractals) into GM.
extern "C" __global__ __cube__ void layouts(__gm__ half *a, __gm__ half *b, __gm__ float *c)
{
    constexpr uint32_t M = 32, K = 48, N = 32;
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<DNExtLayoutPtn>(M, K));
    auto gB = MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(K, N));
    auto gC = MakeTensor(MakeMemPtr(c), MakeFrameLayout<NZLayoutPtn>(M, N)); // C0 16: 16 x 16 fractals
    __cbuf__ half l1a[M * K];
    __cbuf__ half l1b[K * N];
    __ca__ half l0a[M * K];
    __cb__ half l0b[K * N];
    __cc__ float l0c[M * N];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<ZNLayoutPtn, half>(M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<ZNLayoutPtn, half>(K, N));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn, half>(M, K));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn, half>(K, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(M, N));
    Copy(MakeCopy(CopyGM2L1{}), tA1, gA);
    Copy(MakeCopy(CopyGM2L1{}), tB1, gB);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    Mmad(MakeMmad(MmadOperation{}).with(MmadParams{M, N, K, 0, true}), tC, tA0, tB0);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), gC, tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}

// NB batches of (M x K) @ (K x N), batched layouts and one Copy per path.
extern "C" __global__ __cube__ void batched(__gm__ half *a, __gm__ half *b, __gm__ float *c)
{
    constexpr uint32_t NB = 3, M = 16, K = 32, N = 16;
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(NB, M, K));
    auto gB = MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(NB, K, N));
    auto gC = MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(NB, M, N));
    __cbuf__ half l1a[NB * M * K];
    __cbuf__ half l1b[NB * K * N];
    __ca__ half l0a[NB * M * K];
    __cb__ half l0b[NB * K * N];
    __cc__ float l0c[NB * M * N];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn, half>(NB, M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn, half>(NB, K, N));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn, half>(NB, M, K));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn, half>(NB, K, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(NB, M, N));
    Copy(MakeCopy(CopyGM2L1{}), tA1, gA);
    Copy(MakeCopy(CopyGM2L1{}), tB1, gB);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < NB; i++)
        Mmad(MakeMmad(MmadOperation{}).with(MmadParams{M, N, K, 0, true}),
             tC.Slice(MakeCoord(i, MakeCoord(0, 0)), MakeShape(1, MakeShape(M, N))),
             tA0.Slice(MakeCoord(i, MakeCoord(0, 0)), MakeShape(1, MakeShape(M, K))),
             tB0.Slice(MakeCoord(i, MakeCoord(0, 0)), MakeShape(1, MakeShape(K, N))));
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), gC, tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}

// int8 x int8 -> int32 in L0C, out as half through per-channel words in L1
// (DN: C leaves column-major).
template <bool DN>
__aicore__ inline void int8_quant_to(__gm__ int8_t *a, __gm__ int8_t *b, __gm__ uint64_t *q, __gm__ half *c)
{
    constexpr uint32_t M = 32, K = 64, N = 32;
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(M, K));
    auto gB = MakeTensor(MakeMemPtr(b), MakeFrameLayout<DNExtLayoutPtn>(K, N));
    auto gQ = MakeTensor(MakeMemPtr(q), MakeFrameLayout<NDExtLayoutPtn>(1, N));
    auto gC = MakeTensor(MakeMemPtr(c), MakeFrameLayout<std::conditional_t<DN, DNExtLayoutPtn, NDExtLayoutPtn>>(M, N));
    __cbuf__ int8_t l1a[M * K];
    __cbuf__ int8_t l1b[K * N];
    __cbuf__ uint64_t l1q[N];
    __ca__ int8_t l0a[M * K];
    __cb__ int8_t l0b[K * N];
    __cc__ int32_t l0c[M * N];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn, int8_t>(M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<ZNLayoutPtn, int8_t>(K, N));
    auto tQ = MakeTensor(MakeMemPtr(l1q), MakeFrameLayout<NDExtLayoutPtn>(1, N));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn, int8_t>(M, K));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn, int8_t>(K, N));
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
    Copy(MakeCopy(CopyL0C2GM{}), gC, tC, tQ);
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void int8_quant(__gm__ int8_t *a, __gm__ int8_t *b, __gm__ uint64_t *q, __gm__ half *c)
{
    int8_quant_to<false>(a, b, q, c);
}
extern "C" __global__ __cube__ void int8_quant_dn(__gm__ int8_t *a, __gm__ int8_t *b, __gm__ uint64_t *q, __gm__ half *c)
{
    int8_quant_to<true>(a, b, q, c);
}

// Mmad on PIPE_M, then L0C -> GM on PIPE_FIX, ordered only by a Mutex
// (LOCK false: the FIX side never locks, a race).
template <bool LOCK> __aicore__ inline void fix_after_m(__gm__ half *a, __gm__ half *b, __gm__ float *c)
{
    __cbuf__ half l1a[16 * 16];
    __cbuf__ half l1b[16 * 16];
    __ca__ half l0a[16 * 16];
    __cb__ half l0b[16 * 16];
    __cc__ float l0c[16 * 16];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn>(16, 16));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn>(16, 16));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn>(16, 16));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn>(16, 16));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(16, 16));
    Copy(MakeCopy(CopyGM2L1{}), tA1, MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(16, 16)));
    Copy(MakeCopy(CopyGM2L1{}), tB1, MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(16, 16)));
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Mutex::Lock<PIPE_M>(2);
    Mmad(MakeMmad(MmadOperation{}).with(MmadParams{16, 16, 16, 0, true}), tC, tA0, tB0);
    AscendC::Mutex::Unlock<PIPE_M>(2);
    if constexpr (LOCK) AscendC::Mutex::Lock<PIPE_FIX>(2);
    Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(16, 16)), tC);
    if constexpr (LOCK) AscendC::Mutex::Unlock<PIPE_FIX>(2);
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void fix_locked(__gm__ half *a, __gm__ half *b, __gm__ float *c) { fix_after_m<true>(a, b, c); }
extern "C" __global__ __cube__ void fix_unlocked(__gm__ half *a, __gm__ half *b, __gm__ float *c) { fix_after_m<false>(a, b, c); }

// float x float -> float: B's NZ -> ZN load is a b32 transpose (element by
// element); K 32 (a multiple of 16, the page's rule), N 24.
extern "C" __global__ __cube__ void mm_f32(__gm__ float *a, __gm__ float *b, __gm__ float *c)
{
    constexpr uint32_t M = 20, K = 32, N = 24;
    __cbuf__ float l1a[32 * 32];
    __cbuf__ float l1b[32 * 32];
    __ca__ float l0a[32 * 32];
    __cb__ float l0b[32 * 32];
    __cc__ float l0c[32 * 32];
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn, float>(M, K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn, float>(K, N));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn, float>(M, K));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn, float>(K, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(M, N));
    Copy(MakeCopy(CopyGM2L1{}), tA1, MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(M, K)));
    Copy(MakeCopy(CopyGM2L1{}), tB1, MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(K, N)));
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    Mmad(MakeMmad(MmadOperation{}).with(MmadParams{M, N, K, 0, true}), tC, tA0, tB0);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(M, N)), tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}

// m = 1: GEMV off (the default: A is a 16-row fractal, row 0 used) and on
// (MmadTrait disableGemv false: A is a plain row of K values, the 1 x K
// vector loaded as a 16 x 16 NZ block, the page's GEMV example).
struct MmadTraitGemv {
    using TraitType = MmadTrait;
    static constexpr const TraitType value = MmadTrait(0, false, false, false, MmadType::NORMAL);
};
template <bool GEMV> __aicore__ inline void vec_mat(__gm__ half *a, __gm__ half *b, __gm__ float *c)
{
    constexpr uint32_t K = 256, N = 32;
    __cbuf__ half l1a[16 * K];
    __cbuf__ half l1b[K * N];
    __ca__ half l0a[16 * K];
    __cb__ half l0b[K * N];
    __cc__ float l0c[16 * N];
    auto gA = MakeTensor(MakeMemPtr(a), MakeFrameLayout<NDExtLayoutPtn>(GEMV ? 16 : 1, GEMV ? 16 : K));
    auto tA1 = MakeTensor(MakeMemPtr(l1a), MakeFrameLayout<NZLayoutPtn>(GEMV ? 16 : 1, GEMV ? 16 : K));
    auto tA0 = MakeTensor(MakeMemPtr(l0a), MakeFrameLayout<NZLayoutPtn>(GEMV ? 16 : 1, GEMV ? 16 : K));
    auto tB1 = MakeTensor(MakeMemPtr(l1b), MakeFrameLayout<NZLayoutPtn>(K, N));
    auto tB0 = MakeTensor(MakeMemPtr(l0b), MakeFrameLayout<ZNLayoutPtn>(K, N));
    auto tC = MakeTensor(MakeMemPtr(l0c), MakeFrameLayout<NZLayoutPtn>(1, N));
    Copy(MakeCopy(CopyGM2L1{}), tA1, gA);
    Copy(MakeCopy(CopyGM2L1{}), tB1, MakeTensor(MakeMemPtr(b), MakeFrameLayout<NDExtLayoutPtn>(K, N)));
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL12L0A{}), tA0, tA1);
    Copy(MakeCopy(CopyL12L0B{}), tB0, tB1);
    AscendC::PipeBarrier<PIPE_ALL>();
    if constexpr (GEMV)
        Mmad(MakeMmad(MmadOperation{}, MmadTraitGemv{}).with(MmadParams{1, N, K, 0, true}), tC, tA0, tB0);
    else
        Mmad(MakeMmad(MmadOperation{}).with(MmadParams{1, N, K, 0, true}), tC, tA0, tB0);
    AscendC::PipeBarrier<PIPE_ALL>();
    Copy(MakeCopy(CopyL0C2GM{}), MakeTensor(MakeMemPtr(c), MakeFrameLayout<NDExtLayoutPtn>(1, N)), tC);
    AscendC::PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __cube__ void vm_plain(__gm__ half *a, __gm__ half *b, __gm__ float *c) { vec_mat<false>(a, b, c); }
extern "C" __global__ __cube__ void vm_gemv(__gm__ half *a, __gm__ half *b, __gm__ float *c) { vec_mat<true>(a, b, c); }
'''


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "te.asc").compile(["--npu-arch=dav-3510"]).load()


def test_layout_offsets_follow_the_docs_formulas(mod):
    out = np.zeros(7683, np.int64)
    mod.get_kernel("offsets")[1](out)
    arc.synchronize()
    r, c = np.meshgrid(np.arange(40), np.arange(48), indexing="ij")
    nz = (c // 16) * 16 * 48 + (r // 16) * 256 + (r % 16) * 16 + c % 16  # 48 = 40 rounded to 16
    zn = (r // 32) * 32 * 48 + (c // 16) * 512 + (c % 16) * 32 + r % 32  # int8: C0 32; 48 columns
    np.testing.assert_array_equal(out[:1920].reshape(40, 48), nz)
    np.testing.assert_array_equal(out[1920:3840].reshape(40, 48), zn)
    np.testing.assert_array_equal(out[3840:5760].reshape(40, 48), r * 48 + c)
    np.testing.assert_array_equal(out[5760:7680].reshape(40, 48), r + c * 40)
    assert out[7680:].tolist() == [48 * 48, 64 * 48, 48 * 48]


def test_matmul_odd_sizes_with_k_slices_and_bias(mod):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((40, 96)).astype(np.float16)
    b = rng.standard_normal((96, 56)).astype(np.float16)
    bias = rng.standard_normal(56).astype(np.float32)
    c = np.zeros((40, 56), np.float32)
    mod.get_kernel("mm_odd")[1](a, b, bias, c)
    arc.synchronize()
    want = a.astype(np.float64) @ b.astype(np.float64) + bias
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-4)


def test_copy_layouts_dn_zn_and_nz_out(mod):
    rng = np.random.default_rng(8)
    a = rng.standard_normal((32, 48)).astype(np.float16)
    b = rng.standard_normal((48, 32)).astype(np.float16)
    c = np.zeros(32 * 32, np.float32)
    mod.get_kernel("layouts")[1](np.asfortranarray(a).ravel(order="K"), b, c)
    arc.synchronize()
    want = a.astype(np.float64) @ b.astype(np.float64)
    # NZ in GM: column blocks of 16, each 32 rows of 16 values
    got = c.reshape(2, 32, 16).transpose(1, 0, 2).reshape(32, 32)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)


def test_batched_layouts(mod):
    rng = np.random.default_rng(9)
    a = rng.standard_normal((3, 16, 32)).astype(np.float16)
    b = rng.standard_normal((3, 32, 16)).astype(np.float16)
    c = np.zeros((3, 16, 16), np.float32)
    mod.get_kernel("batched")[1](a, b, c)
    arc.synchronize()
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_int8_per_channel_quant_to_half(mod):
    rng = np.random.default_rng(10)
    a = rng.integers(-8, 8, (32, 64), dtype=np.int8)
    b = rng.integers(-8, 8, (64, 32), dtype=np.int8)
    scales = (2.0 ** -rng.integers(2, 6, 32)).astype(np.float32)  # exact in the word's 19 scale bits
    q = scales.view(np.uint32).astype(np.uint64)
    c = np.zeros((32, 32), np.float16)
    mod.get_kernel("int8_quant")[1](a, np.asfortranarray(b).ravel(order="K"), q, c)
    arc.synchronize()
    want = (a.astype(np.int64) @ b.astype(np.int64)) * scales
    np.testing.assert_array_equal(c, want.astype(np.float16))
    # the same out column-major (NZ2DN, element by element)
    mod.get_kernel("int8_quant_dn")[1](a, np.asfortranarray(b).ravel(order="K"), q, c)
    arc.synchronize()
    np.testing.assert_array_equal(c.ravel().reshape(32, 32).T, want.astype(np.float16))


def test_mutex_orders_mmad_before_the_copy_out(mod):
    a = np.eye(16, dtype=np.float16)
    b = np.arange(256, dtype=np.float16).reshape(16, 16)
    c = np.zeros((16, 16), np.float32)
    mod.get_kernel("fix_locked")[1](a, b, c)
    arc.synchronize()
    np.testing.assert_array_equal(c, b.astype(np.float32))
    with pytest.raises(arc.LaunchError, match=r"race check: data race \(read after write\) on L0C"):
        mod.get_kernel("fix_unlocked")[1](a, b, c)
        arc.synchronize()


def test_float_matmul_with_the_b32_transposing_load(mod):
    rng = np.random.default_rng(13)
    a = rng.standard_normal((20, 32)).astype(np.float32)
    b = rng.standard_normal((32, 24)).astype(np.float32)
    c = np.zeros((20, 24), np.float32)
    mod.get_kernel("mm_f32")[1](a, b, c)
    arc.synchronize()
    # float products round on the cube: compare with a float64 product loosely
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("name", ["vm_plain", "vm_gemv"])
def test_m_1_with_and_without_gemv(mod, name):
    rng = np.random.default_rng(15)
    a = rng.standard_normal(256).astype(np.float16)
    b = rng.standard_normal((256, 32)).astype(np.float16)
    c = np.zeros(32, np.float32)
    mod.get_kernel(name)[1](a, b, c)
    arc.synchronize()
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)
