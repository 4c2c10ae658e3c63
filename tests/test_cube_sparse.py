"""4:2 structured-sparse matmul (dav-2201): LoadDataWithSparse (dense B
fractals into L0B, their 2-bit index fractals into the cube's index buffer)
and MmadWithSparse, against a NumPy model of the pages' selection table
(arc/mmad_sparse.h): for each group of four k and column n the index pair
(i0, i1) picks A[4j + i0] for dense row 2j and A[4j + max(i1 + 1, i0)] for
dense row 2j + 1.  Undescribed pairs and misuse stop the kernel naming
them."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
using namespace AscendC;
__aicore__ inline uint32_t CeilTo(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }
// A (M, K) int8 ND; dense B given as (N, K/2) ND; its index as ZN fractals
// (16 rows x 8 bytes each); C int32 (M, N).  TWICE: a second MmadWithSparse
// accumulates (C doubled).  The index goes in two LoadDataWithSparse calls
// (the second from fractal `half`).
template <bool TWICE>
__aicore__ inline void Sp(GM_ADDR a, GM_ADDR b, GM_ADDR x, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    uint32_t KD = K / 2, M16 = CeilTo(M, 16), N16 = CeilTo(N, 16), K1 = CeilTo(K, 32) / 32, KD1 = CeilTo(KD, 32) / 32;
    GlobalTensor<int8_t> ga, gb; GlobalTensor<uint8_t> gx; GlobalTensor<int32_t> gc;
    ga.SetGlobalBuffer((__gm__ int8_t *)a); gb.SetGlobalBuffer((__gm__ int8_t *)b);
    gx.SetGlobalBuffer((__gm__ uint8_t *)x); gc.SetGlobalBuffer((__gm__ int32_t *)c);
    TPipe pipe; TBuf<TPosition::A1> a1, b1, x1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, M16 * K1 * 32); pipe.InitBuffer(b1, N16 * KD1 * 32); pipe.InitBuffer(x1, N16 * KD1 * 8);
    pipe.InitBuffer(a2, M16 * K1 * 32); pipe.InitBuffer(b2, N16 * KD1 * 32); pipe.InitBuffer(c1, M16 * N16 * 4);
    LocalTensor<int8_t> la1 = a1.Get<int8_t>(), lb1 = b1.Get<int8_t>(), la2 = a2.Get<int8_t>(), lb2 = b2.Get<int8_t>();
    LocalTensor<uint8_t> lx1 = x1.Get<uint8_t>();
    LocalTensor<int32_t> lc = c1.Get<int32_t>();
    DataCopy(la1, ga, Nd2NzParams(1, M, K, 0, K, M16, 1, 0));
    DataCopy(lb1, gb, Nd2NzParams(1, N, KD, 0, KD, N16, 1, 0));
    DataCopy(lx1, gx, N16 * KD1 * 8);
    PipeBarrier<PIPE_ALL>();
    for (uint32_t i = 0; i < M16 / 16; i++)
        LoadData(la2[i * K1 * 512], la1[i * 512], LoadData2DParams(0, (uint8_t)K1, (uint16_t)(M16 / 16), 0, 0, false, 0));
    uint32_t total = KD1 * N16 / 16, half = total / 2;
    LoadDataWithSparse(lb2, lb1, lx1, LoadData2dParams{0, (uint16_t)half, 0, 0, 0, false, 0});
    LoadDataWithSparse(lb2[half * 512], lb1, lx1, LoadData2dParams{(uint16_t)half, (uint16_t)(total - half), 0, 0, 0, false, 0});
    PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = M; mp.n = N; mp.k = K;
    MmadWithSparse(lc, la2, lb2, mp);
    if (TWICE) {
        PipeBarrier<PIPE_M>();
        mp.cmatrixInitVal = false;
        MmadWithSparse(lc, la2, lb2, mp);
    }
    PipeBarrier<PIPE_ALL>();
    Fixpipe(gc, lc, FixpipeParamsV220(N, M, M16, N, false));
    PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __aicore__ void sp(GM_ADDR a, GM_ADDR b, GM_ADDR x, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{ Sp<false>(a, b, x, c, M, N, K); }
extern "C" __global__ __aicore__ void sp2(GM_ADDR a, GM_ADDR b, GM_ADDR x, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K)
{ Sp<true>(a, b, x, c, M, N, K); }
'''

# Misuse on a 32 x 32 x 64 tile whose L0A/L0B/index are loaded (B2 via LoadData
# for `noindex`): each stops the kernel; a good launch works afterwards.
SETUP = ("TBuf<TPosition::A1> l1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;"
         " pipe.InitBuffer(l1, 8192); pipe.InitBuffer(a2, 2048); pipe.InitBuffer(b2, 1024); pipe.InitBuffer(c1, 4096);"
         " LocalTensor<int8_t> s = l1.Get<int8_t>(), la = a2.Get<int8_t>(), lb = b2.Get<int8_t>();"
         " LocalTensor<uint8_t> ix = l1.Get<uint8_t>()[4096]; LocalTensor<int32_t> lc = c1.Get<int32_t>();"
         " GlobalTensor<uint8_t> g; g.SetGlobalBuffer((__gm__ uint8_t *)x); DataCopy(ix, g, 256);"
         " PipeBarrier<PIPE_ALL>(); LoadData(la, s, LoadData2DParams(0, 4, 1, 0, 0, false, 0));")
SPARSE = " LoadDataWithSparse(lb, s, ix, LoadData2dParams{0, 2, 0, 0, 0, false, 0}); PipeBarrier<PIPE_ALL>();"
MM = " MmadParams p; p.m = %d; p.n = 32; p.k = %d; MmadWithSparse(lc, la, lb, p); PipeBarrier<PIPE_ALL>();"
BAD = {
    "pair_3": (SETUP + SPARSE + MM % (32, 64), 0xC3,
               r"MmadWithSparse: index pair \(3, 0\) for k 0..3 of column 0 is not in the selection table"),
    "pair_2_1": (SETUP + SPARSE + MM % (32, 64), 0x06,
                 r"MmadWithSparse: index pair \(2, 1\) for k 0..3 of column 0 is not in the selection table"),
    "noindex": (SETUP + " LoadData(lb, s, LoadData2DParams(0, 2, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();"
                + MM % (32, 64), 0, r"MmadWithSparse: the index of L0B fractal 0 was never loaded"),
    "k_not_4": (SETUP + SPARSE + MM % (32, 62), 0, r"MmadWithSparse: k 62 is not a multiple of 4"),
    "gemv": (SETUP + SPARSE + MM % (1, 64), 0, r"MmadWithSparse: m 1: GEMV is not described"),
    "transpose": (SETUP + " LoadDataWithSparse(lb, s, ix, LoadData2dParams{0, 2, 0, 0, 0, true, 0});", 0,
                  r"LoadDataWithSparse: ifTranspose: LoadDataWithSparse does not transpose"),
    "dst_l0a": (SETUP + " LoadDataWithSparse(la, s, ix, LoadData2dParams{0, 2, 0, 0, 0, false, 0});", 0,
                r"LoadDataWithSparse: dst is a A2 tensor; LoadDataWithSparse writes L0B"),
}


def bad_kernel(name, body):
    return ('extern "C" __global__ __aicore__ void %s(GM_ADDR x)\n{\n    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);'
            ' TPipe pipe;\n    %s\n}\n' % (name, body))


@pytest.fixture(scope="module")
def mod():
    return dev.program([SRC] + [bad_kernel(n, b[0]) for n, b in BAD.items()])


rng = np.random.default_rng(42)
PAIRS = [(2, 2), (1, 2), (0, 2), (1, 1), (0, 1), (0, 0), (2, 0), (1, 0)]   # the pages' selection table


def pick(i0, i1):
    return i0, max(i1 + 1, i0)


def make(M, N, K):
    a = rng.integers(-128, 128, (M, K)).astype(np.int8)
    bd = rng.integers(-128, 128, (N, K // 2)).astype(np.int8)
    pairs = rng.integers(0, len(PAIRS), (N, K // 4))
    idx = np.zeros((N, K // 2), np.uint8)
    want = np.zeros((M, N), np.int64)
    for n in range(N):
        for j in range(K // 4):
            i0, i1 = PAIRS[pairs[n, j]]
            idx[n, 2 * j], idx[n, 2 * j + 1] = i0, i1
            p0, p1 = pick(i0, i1)
            want[:, n] += a[:, 4 * j + p0].astype(np.int64) * bd[n, 2 * j] + a[:, 4 * j + p1].astype(np.int64) * bd[n, 2 * j + 1]
    return a, bd, zn_index(idx), want.astype(np.int32)


def zn_index(idx):
    """(N, K/2) 2-bit indices -> bytes (four each, the first in the low bits) in ZN fractals of 16 rows x 8 bytes."""
    N, KD = idx.shape
    N16, KB = -(-N // 16) * 16, -(-KD // 32) * 8
    packed = np.zeros((N16, KB * 4), np.uint8)
    packed[:N, :KD] = idx
    q = packed.reshape(N16, KB, 4).astype(np.uint32)
    by = (q[:, :, 0] | q[:, :, 1] << 2 | q[:, :, 2] << 4 | q[:, :, 3] << 6).astype(np.uint8)
    return np.ascontiguousarray(by.reshape(N16 // 16, 16, KB // 8, 8).transpose(2, 0, 1, 3))


def test_index_packing_matches_the_docs_example():
    # LoadDataWithSparse's page: indices 1 2 0 1 are stored high to low as 1 0 2 1.
    b = zn_index(np.array([[1, 2, 0, 1]], np.uint8)).reshape(-1)[0]
    assert [(b >> s) & 3 for s in (6, 4, 2, 0)] == [1, 0, 2, 1]


def run(mod, name, M, N, K):
    a, bd, x, want = make(M, N, K)
    c = np.zeros((M, N), np.int32)
    mod.get_kernel(name)[1](a, bd, x, c, np.uint32(M), np.uint32(N), np.uint32(K))
    arc.synchronize()
    return c, want


@pytest.mark.parametrize("M,N,K", [(32, 32, 64), (48, 80, 128), (17, 40, 200), (128, 128, 256)])
def test_mmad_with_sparse(mod, M, N, K):
    c, want = run(mod, "sp", M, N, K)
    np.testing.assert_array_equal(c, want)


def test_mmad_with_sparse_accumulates(mod):
    c, want = run(mod, "sp2", 32, 48, 128)
    np.testing.assert_array_equal(c, (want.astype(np.int64) * 2).astype(np.int32))


@pytest.mark.parametrize("name", sorted(BAD))
def test_sparse_misuse_is_reported(mod, name):
    x = np.full(256, BAD[name][1], np.uint8)
    with pytest.raises(arc.LaunchError) as ei:
        mod.get_kernel(name)[1](x)
        arc.synchronize()
    assert re.search(BAD[name][2], str(ei.value)), str(ei.value)
    c, want = run(mod, "sp", 32, 32, 64)
    np.testing.assert_array_equal(c, want)
