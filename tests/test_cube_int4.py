"""int4b_t (two per byte, the first in the low nibble) through the paths
CATLASS's w4a8/w4a4 examples take: GlobalTensor offsets, DataCopyPad GM <->
UB, Cast int4b_t <-> half (count form), ND -> NZ into L1 (lengths in bytes,
as for b8), LoadData 2D and LoadDataWithTranspose's 64x64 b4 squares into
L0B, Mmad int4b_t x int4b_t -> int32_t, and per-column dequantisation from
the Fixpipe buffer (DataCopy L1 -> C2PIPE2GM, SetFixPipeConfig).
References: NumPy packing/unpacking and integer matmul; misuse stops with
a message naming the API and the value."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
using namespace AscendC;
__aicore__ inline uint32_t CeilTo(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

// GM int4 (from element `skip`) -> UB by DataCopyPad -> half -> int4 (mode
// CAST_FLOOR) -> GM by DataCopyPad; the halves go out too.
extern "C" __global__ __aicore__ void cast4(GM_ADDR x, GM_ADDR h, GM_ADDR y, uint32_t n, uint32_t skip)
{
    GlobalTensor<int4b_t> gx, gy; GlobalTensor<half> gh;
    gx.SetGlobalBuffer((__gm__ int4b_t *)x); gy.SetGlobalBuffer((__gm__ int4b_t *)y);
    gh.SetGlobalBuffer((__gm__ half *)h);
    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 8192);
    LocalTensor<int4b_t> in = b.GetWithOffset<int4b_t>(2048, 0), out = b.GetWithOffset<int4b_t>(2048, 1024);
    LocalTensor<half> mid = b.GetWithOffset<half>(1024, 2048);
    DataCopyPad(in, gx[skip], DataCopyExtParams(1, n / 2, 0, 0, 0), DataCopyPadExtParams<int4b_t>(false, 0, 0, 0));
    PipeBarrier<PIPE_ALL>();
    Cast(mid, in, RoundMode::CAST_NONE, n);
    PipeBarrier<PIPE_ALL>();
    Muls(mid, mid, (half)1.5, n);
    PipeBarrier<PIPE_ALL>();
    Cast(out, mid, RoundMode::CAST_FLOOR, n);
    PipeBarrier<PIPE_ALL>();
    DataCopyPad(gh, mid, DataCopyExtParams(1, n * 2, 0, 0, 0));
    DataCopyPad(gy, out, DataCopyExtParams(1, n / 2, 0, 0, 0));
}

// The count form moves n int4 elements: n / 2 bytes.
extern "C" __global__ __aicore__ void copy4(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    GlobalTensor<int4b_t> gx, gy; gx.SetGlobalBuffer((__gm__ int4b_t *)x); gy.SetGlobalBuffer((__gm__ int4b_t *)y);
    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 4096);
    LocalTensor<int4b_t> t = b.Get<int4b_t>();
    DataCopy(t, gx[64], n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, n);
}

// One tile: A (M, K) int4 ND; B (N, K) (BMODE 1, LoadData 2D) or (K, N)
// (BMODE 2, LoadDataWithTranspose 64x64 squares); C int32, or half through
// per-column words in the Fixpipe buffer (VDEQ).
template <int BMODE, bool VDEQ>
__aicore__ inline void Mm4(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    constexpr uint32_t C0 = 64, F = 1024;                 // int4 elements per 32 B and per fractal
    uint32_t M16 = CeilTo(M, 16), N64 = CeilTo(N, 64), Kc = CeilTo(K, 64);
    uint32_t M1 = M16 / 16, N1 = CeilTo(N, 16) / 16, K1 = Kc / C0;
    GlobalTensor<int4b_t> ga, gb; GlobalTensor<int32_t> gc; GlobalTensor<half> gh; GlobalTensor<uint64_t> gw;
    ga.SetGlobalBuffer((__gm__ int4b_t *)a); gb.SetGlobalBuffer((__gm__ int4b_t *)b);
    gc.SetGlobalBuffer((__gm__ int32_t *)c); gh.SetGlobalBuffer((__gm__ half *)c);
    gw.SetGlobalBuffer((__gm__ uint64_t *)w);
    TPipe pipe; TBuf<TPosition::A1> a1, b1; TBuf<TPosition::C1> w1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> c1; TBuf<TPosition::C2PIPE2GM> fb;
    pipe.InitBuffer(a1, M16 * Kc / 2); pipe.InitBuffer(b1, N64 * Kc / 2); pipe.InitBuffer(w1, 1024);
    pipe.InitBuffer(a2, M16 * Kc / 2); pipe.InitBuffer(b2, N64 * Kc / 2); pipe.InitBuffer(c1, M16 * N64 * 4);
    pipe.InitBuffer(fb, 1024);
    LocalTensor<int4b_t> la1 = a1.Get<int4b_t>(), lb1 = b1.Get<int4b_t>(), la2 = a2.Get<int4b_t>(),
                         lb2 = b2.Get<int4b_t>();
    LocalTensor<int32_t> lc = c1.Get<int32_t>();
    // ND2NZ counts int4 data in bytes (handled as b8); offsets in elements.
    DataCopy(la1, ga, Nd2NzParams(1, M, K / 2, 0, K / 2, M16, 1, 0));
    if (BMODE == 1) DataCopy(lb1, gb, Nd2NzParams(1, N, K / 2, 0, K / 2, CeilTo(N, 16), 1, 0));
    else DataCopy(lb1, gb, Nd2NzParams(1, K, N / 2, 0, N / 2, Kc, 1, 0));
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < M1; i++)
        LoadData(la2[i * K1 * F], la1[i * F], LoadData2DParams(0, (uint8_t)K1, (uint16_t)M1, 0, 0, false, 0));
    if (BMODE == 1) {
        LoadData(lb2, lb1, LoadData2DParams(0, (uint8_t)(K1 * N1), 1, 0, 0, false, 0));
    } else {
        // square (kb, nb) is L1 square nb * K1 + kb; its four transposed
        // fractals are ZN fractals (kb, 4nb .. 4nb + 3): one repeat per nb.
        // With N1 not a multiple of 4 the last square spills into row kb + 1,
        // which the next load overwrites (after a barrier: same addresses).
        for (uint32_t kb = 0; kb < K1; kb++) {
            LoadDataWithTranspose(lb2[kb * N1 * F], lb1[kb * 4 * F],
                                  LoadData2dTransposeParams(0, (uint8_t)(N64 / 64), (uint16_t)K1, 3, 0, 0));
            PipeBarrier<PIPE_MTE1>();
        }
    }
    PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = M; mp.n = N; mp.k = K;
    Mmad(lc, la2, lb2, mp);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp(N, M, M16, N, false);
    if (VDEQ) {
        LocalTensor<uint64_t> lw = w1.Get<uint64_t>(), lf = fb.Get<uint64_t>();
        DataCopy(lw, gw, CeilTo(N, 4));
        PipeBarrier<PIPE_ALL>();
        DataCopy(lf, lw, DataCopyParams(1, (uint16_t)((N * 8 + 127) / 128), 0, 0));
        SetFixPipeConfig(lf);
        SetFixPipeConfig(lc, true);   // clearing L0C's unit flags leaves the words in place
        PipeBarrier<PIPE_ALL>();
        fp.quantPre = QuantMode_t::VDEQF16;
        Fixpipe(gh, lc, fp);
    } else {
        Fixpipe(gc, lc, fp);
    }
    PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __aicore__ void mm4_bt(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{ Mm4<1, false>(a, b, w, c, M, N, K); }
extern "C" __global__ __aicore__ void mm4_tr(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{ Mm4<2, false>(a, b, w, c, M, N, K); }
extern "C" __global__ __aicore__ void mm4_vdeq(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{ Mm4<2, true>(a, b, w, c, M, N, K); }
'''

# Misuse: each stops the kernel with the message; a good launch works afterwards.
BAD = {
    "odd_count": ("LocalTensor<int4b_t> s = b.GetWithOffset<int4b_t>(64, 0); LocalTensor<half> d = "
                  "b.GetWithOffset<half>(64, 512); Cast(d, s, RoundMode::CAST_NONE, 7);",
                  r"Cast: count 7 with int4b_t must be even"),
    "odd_offset": ("GlobalTensor<int4b_t> g; g.SetGlobalBuffer((__gm__ int4b_t *)x); GlobalTensor<int4b_t> h = g[3];"
                   " (void)h;", r"GlobalTensor::operator\[\]: offset 3 of int4b_t is not a multiple of 2"),
    "cast_l0": ("LocalTensor<int4b_t> s = b.GetWithOffset<int4b_t>(256, 0); LocalTensor<half> d = "
                "b.GetWithOffset<half>(128, 512); Cast(d, s, RoundMode::CAST_NONE, 128, 2, {1, 1, 8, 2});",
                r"Cast: dst: 2 repeats .* beyond"),
    "pad_int4": ("GlobalTensor<int4b_t> g; g.SetGlobalBuffer((__gm__ int4b_t *)x); LocalTensor<int4b_t> s = "
                 "b.GetWithOffset<int4b_t>(256, 0); DataCopyPad(s, g, DataCopyExtParams(1, 8, 0, 0, 0), "
                 "DataCopyPadExtParams<int4b_t>(true, 2, 0, 0));",
                 r"DataCopyPad: leftPadding 2 / rightPadding 0 of int4b_t: padding of packed sub-byte elements"),
    "transpose_l0a": ("TBuf<TPosition::A1> a1; TBuf<TPosition::A2> a2; pipe.InitBuffer(a1, 2048); "
                      "pipe.InitBuffer(a2, 2048); LoadDataWithTranspose(a2.Get<int4b_t>(), a1.Get<int4b_t>(), "
                      "LoadData2dTransposeParams(0, 1, 1, 0, 0, 0));",
                      r"LoadDataWithTranspose: int4b_t is transposed into L0B \(B2\) only"),
    "vdeq_no_words": ("TBuf<TPosition::CO1> c1; pipe.InitBuffer(c1, 1024); GlobalTensor<half> g; "
                      "g.SetGlobalBuffer((__gm__ half *)x); FixpipeParamsV220 f(16, 16, 16, 16, false); "
                      "f.quantPre = QuantMode_t::VDEQF16; Fixpipe(g, c1.Get<int32_t>(), f);",
                      r"Fixpipe: per-column quantisation mode VDEQF16 needs its words: .*SetFixPipeConfig"),
    "fpc_l0c_without_flag": ("TBuf<TPosition::CO1> c1; pipe.InitBuffer(c1, 1024); SetFixPipeConfig(c1.Get<float>(), false);",
                             r"SetFixPipeConfig: an L0C \(CO1\) tensor only clears the unit flags: pass isUnitFlag true"),
    "copy_half_byte": ("GlobalTensor<int4b_t> g; g.SetGlobalBuffer((__gm__ int4b_t *)x); DataCopy(b.Get<int4b_t>(), g, 63);",
                       r"DataCopy: count 63 of int4b_t is not a whole number of bytes \(2 per byte\)"),
    "fb_from_ub": ("TBuf<TPosition::C2PIPE2GM> fb; pipe.InitBuffer(fb, 256); LocalTensor<uint64_t> u = "
                   "b.GetWithOffset<uint64_t>(32, 0); DataCopy(fb.Get<uint64_t>(), u, DataCopyParams(1, 1, 0, 0));",
                   r"DataCopy\(L1 -> C2PIPE2GM\): src is a VECCALC tensor; the Fixpipe buffer is filled from L1"),
}


def bad_kernel(name, body):
    return ('extern "C" __global__ __aicore__ void %s(GM_ADDR x)\n{\n    TPipe pipe; TBuf<TPosition::VECCALC> b;'
            ' pipe.InitBuffer(b, 4096);\n    %s\n    PipeBarrier<PIPE_ALL>();\n}\n' % (name, body))


@pytest.fixture(scope="module")
def mod():
    return dev.program([SRC] + [bad_kernel(n, b) for n, (b, _) in BAD.items()])


rng = np.random.default_rng(4)


def pack(v):
    """int values in [-8, 7], even count -> bytes, the first of each pair in the low nibble."""
    u = (np.asarray(v, np.int64) & 0xF).astype(np.uint8).reshape(-1, 2)
    return (u[:, 0] | (u[:, 1] << 4)).astype(np.uint8)


def unpack(b):
    b = np.asarray(b, np.uint8)
    lo, hi = (b & 0xF).astype(np.int64), (b >> 4).astype(np.int64)
    v = np.stack([lo, hi], 1).reshape(-1)
    return np.where(v >= 8, v - 16, v)


def test_pack_reference_matches_the_docs_example():
    # LoadDataWithTranspose's page: int4 6 (low) and 7 (high) make the byte 118.
    assert pack([6, 7])[0] == 118 and list(unpack([118])) == [6, 7]


@pytest.mark.parametrize("n,skip", [(64, 0), (200, 6), (1024, 0)])
def test_cast_int4_half_and_back(mod, n, skip):
    v = rng.integers(-8, 8, n + skip)
    x, h, y = pack(v), np.zeros(1024, np.float16), np.zeros(1024, np.uint8)
    mod.get_kernel("cast4")[1](x, h, y, np.uint32(n), np.uint32(skip))
    arc.synchronize()
    mid = v[skip:].astype(np.float16) * np.float16(1.5)
    np.testing.assert_array_equal(h[:n], mid)
    np.testing.assert_array_equal(unpack(y[:n // 2]), np.clip(np.floor(mid.astype(np.float64)), -8, 7))


def test_datacopy_count_form_moves_int4_elements(mod):
    x = rng.integers(0, 256, 512).astype(np.uint8)
    y = np.zeros(512, np.uint8)
    mod.get_kernel("copy4")[1](x, y, np.uint32(256))              # 256 elements from element 64 (byte 32)
    arc.synchronize()
    np.testing.assert_array_equal(y[:128], x[32:160])
    assert not y[128:].any()


def run_mm(mod, name, a, b, M, N, K, words=None, out=np.int32):
    c = np.zeros((M, N), out)
    w = np.zeros(max(N, 8), np.uint64) if words is None else words
    mod.get_kernel(name)[1](a, b, w, c, np.uint32(M), np.uint32(N), np.uint32(K))
    arc.synchronize()
    return c


SHAPES = [(16, 64, 64), (30, 40, 70), (48, 128, 256), (17, 80, 130)]


@pytest.mark.parametrize("M,N,K", SHAPES)
def test_mmad_int4_b_transposed_in_gm(mod, M, N, K):
    a, b = rng.integers(-8, 8, (M, K)), rng.integers(-8, 8, (N, K))
    c = run_mm(mod, "mm4_bt", pack(a), pack(b), M, N, K)
    np.testing.assert_array_equal(c, a @ b.T)


@pytest.mark.parametrize("M,N,K", SHAPES)
def test_mmad_int4_load_with_transpose(mod, M, N, K):
    a, b = rng.integers(-8, 8, (M, K)), rng.integers(-8, 8, (K, N))
    c = run_mm(mod, "mm4_tr", pack(a), pack(b), M, N, K)
    np.testing.assert_array_equal(c, a @ b)


def test_mmad_int4_extremes(mod):
    M, N, K = 32, 64, 2000           # the most L0B holds; -8 * -8 * 2000 = 128000 per sum
    a, b = np.full((M, K), -8), np.full((K, N), -8)
    b[:, 1] = 7
    c = run_mm(mod, "mm4_tr", pack(a), pack(b), M, N, K)
    np.testing.assert_array_equal(c, a @ b)


def test_fixpipe_per_column_words_from_the_fixpipe_buffer(mod):
    M, N, K = 32, 48, 128
    a, b = rng.integers(-8, 8, (M, K)), rng.integers(-8, 8, (K, N))
    scales = rng.uniform(-0.05, 0.05, N).astype(np.float32)
    words = np.zeros(N + 8, np.uint64)
    words[:N] = scales.view(np.uint32).astype(np.uint64)
    c = run_mm(mod, "mm4_vdeq", pack(a), pack(b), M, N, K, words, np.float16)
    m1 = (scales.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)   # scale bits 31..13
    want = ((a @ b).astype(np.float32) * m1).astype(np.float16)
    np.testing.assert_array_equal(c, want)


@pytest.mark.parametrize("name", sorted(BAD))
def test_int4_misuse_is_reported(mod, name):
    with pytest.raises(arc.LaunchError) as ei:
        mod.get_kernel(name)[1](np.zeros(4096, np.uint8))
        arc.synchronize()
    assert re.search(BAD[name][1], str(ei.value)), str(ei.value)
    a, b = rng.integers(-8, 8, (16, 64)), rng.integers(-8, 8, (64, 64))
    np.testing.assert_array_equal(run_mm(mod, "mm4_tr", pack(a), pack(b), 16, 64, 64), a @ b)


def test_int4_mmad_is_priced_as_16x64x16_per_fractal_triple(mod):
    # The Cube instruction performance page: int4b_t Mmad runs k0 = 64 per
    # 512-byte fractal, so the cost model counts 2 M N K operations (int8's
    # 32 per fractal would count half).
    M, N, K = 32, 64, 128
    a, b = rng.integers(-8, 8, (M, K)), rng.integers(-8, 8, (N, K))
    with arc.profile() as p:
        c = run_mm(mod, "mm4_bt", pack(a), pack(b), M, N, K)
    np.testing.assert_array_equal(c, a @ b.T)
    assert p.launches[0].flops == 2 * M * N * K


MM_API = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace matmul;
// C (M, N) int32 = A (M, K) int4 x B given as (N, K) int4, through the Matmul
// API's IterateAll, each block its singleCoreM x singleCoreN tile.
extern "C" __global__ __aicore__ void mm4_api(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR ws, GM_ADDR tilingGm)
{
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, t, tilingGm);
    AscendC::TPipe pipe;
    AscendC::GlobalTensor<int4b_t> ga, gb; AscendC::GlobalTensor<int32_t> gc;
    ga.SetGlobalBuffer((__gm__ int4b_t *)a); gb.SetGlobalBuffer((__gm__ int4b_t *)b);
    gc.SetGlobalBuffer((__gm__ int32_t *)c);
    Matmul<MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int4b_t>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int4b_t, true>,
           MatmulType<AscendC::TPosition::GM, CubeFormat::ND, int32_t>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    if (GetBlockIdx() >= t.usedCoreNum) return;
    int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int mi = GetBlockIdx() % mBlocks, ni = GetBlockIdx() / mBlocks;
    int tm = t.M - mi * t.singleCoreM < t.singleCoreM ? t.M - mi * t.singleCoreM : t.singleCoreM;
    int tn = t.N - ni * t.singleCoreN < t.singleCoreN ? t.N - ni * t.singleCoreN : t.singleCoreN;
    mm.SetOrgShape(t.M, t.N, t.Ka, t.Kb);
    mm.SetTensorA(ga[mi * t.singleCoreM * t.Ka]);
    mm.SetTensorB(gb[ni * t.singleCoreN * t.Kb], true);
    mm.SetTail(tm, tn);
    mm.IterateAll(gc[mi * t.singleCoreM * t.N + ni * t.singleCoreN]);
    mm.End();
}
'''


@pytest.mark.parametrize("M,N,K,cores", [(64, 96, 128, 4), (100, 70, 66, 3)])
def test_matmul_api_int4(M, N, K, cores):
    # The host tiling sizes int4 as a byte (as CANN's DT_INT4 in its byte
    # table): a valid, conservative tiling.
    import ascendrtc.matmul_tiling as mt
    m = dev.load(MM_API, "mm4_api.cpp")
    a, b = rng.integers(-8, 8, (M, K)), rng.integers(-8, 8, (N, K))
    t = mt.tiling(M, N, K, "int8", "int32", cores=cores)
    c = np.zeros((M, N), np.int32)
    m.get_kernel("mm4_api")[t.usedCoreNum](pack(a), pack(b), c, np.zeros(64, np.uint8), t.array())
    arc.synchronize()
    np.testing.assert_array_equal(c, a @ b.T)
