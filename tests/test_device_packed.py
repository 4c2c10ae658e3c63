"""Device API: the packed sub-byte types (int4b_t, uint2b_t; arc/types.h) in
LocalTensor sizes and offsets and in AscendAntiQuant, the UB -> L1 ND -> NZ
copy (DataCopy(L1, UB, Nd2NzParams)) and the experimental AntiQuantConfig
form of AscendAntiQuant (compiles; stops when run, its modes are not
publicly described).  References: NumPy unpacking (first element in the
low bits) and a NumPy model of the NZ layout."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

K, N = 8, 32        # antiquant: src [K, N] per channel, 2 groups of offset/scale rows
G = 2

PROG = r'''
#include "kernel_operator.h"
using namespace AscendC;

template <typename P>
__aicore__ inline void AntiQ(GM_ADDR src, GM_ADDR off, GM_ADDR sc, GM_ADDR dst, GM_ADDR sizes, uint32_t skip)
{
    constexpr uint32_t per = sizeof(P) == 1 && IsSameType<P, int4b_t>::value ? 2 : 4;
    constexpr uint32_t nbytes = K_ * N_ / per;
    GlobalTensor<uint8_t> gs; gs.SetGlobalBuffer((__gm__ uint8_t *)src);
    GlobalTensor<half> go, gc, gd; go.SetGlobalBuffer((__gm__ half *)off); gc.SetGlobalBuffer((__gm__ half *)sc);
    gd.SetGlobalBuffer((__gm__ half *)dst);
    GlobalTensor<uint32_t> gz; gz.SetGlobalBuffer((__gm__ uint32_t *)sizes);
    TPipe pipe; TBuf<TPosition::VECCALC> b;
    pipe.InitBuffer(b, 8192);
    LocalTensor<uint8_t> raw = b.GetWithOffset<uint8_t>(nbytes, 0);
    LocalTensor<half> lo = b.GetWithOffset<half>(G_ * N_, 1024), ls = b.GetWithOffset<half>(G_ * N_, 2048);
    LocalTensor<half> ld = b.GetWithOffset<half>(K_ * N_, 4096);
    DataCopy(raw, gs, nbytes); DataCopy(lo, go, G_ * N_); DataCopy(ls, gc, G_ * N_);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<P> p = raw.ReinterpretCast<P>();
    gz.SetValue(0, p.GetSize());
    // skip whole rows of the packed source: an element offset
    LocalTensor<P> q = p[skip * N_];
    gz.SetValue(1, q.GetSize());
    AntiQuantShapeInfo si = {G_, N_, G_, N_};
    AscendAntiQuant<P, half, false>(ld, q, lo, ls, K_ - skip, si);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gd, ld, K_ * N_);
}
extern "C" __global__ __aicore__ void antiq_i4(GM_ADDR s, GM_ADDR o, GM_ADDR c, GM_ADDR d, GM_ADDR z, uint32_t skip)
{ AntiQ<int4b_t>(s, o, c, d, z, skip); }
extern "C" __global__ __aicore__ void antiq_u2(GM_ADDR s, GM_ADDR o, GM_ADDR c, GM_ADDR d, GM_ADDR z, uint32_t skip)
{ AntiQ<uint2b_t>(s, o, c, d, z, skip); }

// GM -> UB, UB -> L1 (ND -> NZ), L1 copied back raw.
extern "C" __global__ __aicore__ void ub2l1_nz(GM_ADDR x, GM_ADDR y, uint32_t R, uint32_t C, uint32_t cstride)
{
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe; TBuf<TPosition::VECCALC> ub; TBuf<TPosition::A1> l1;
    pipe.InitBuffer(ub, 8192); pipe.InitBuffer(l1, 16384);
    LocalTensor<half> u = ub.Get<half>(), t = l1.Get<half>();
    DataCopy(u, gx, (R * C + 15) / 16 * 16);   // whole 32-byte blocks
    PipeBarrier<PIPE_ALL>();
    Nd2NzParams p; p.SetNdNum(1); p.SetNValue(R); p.SetDValue(C); p.SetSrcDValue(C);
    p.SetDstNzC0Stride(cstride); p.SetDstNzNStride(1);
    DataCopy(t, u, p);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 8192);
}

// The AntiQuantConfig form compiles and stops when run.
static constexpr AntiQuantConfig CFG = {AntiQuantMode::INPUT_INTLV};
extern "C" __global__ __aicore__ void antiq_cfg(GM_ADDR x)
{
    TPipe pipe; TBuf<TPosition::VECCALC> b; pipe.InitBuffer(b, 4096);
    LocalTensor<half> h = b.Get<half>();
    AscendAntiQuant<int4b_t, half, false, CFG>(h, h.ReinterpretCast<int4b_t>(), h, h, 16u, AntiQuantShapeInfo{});
}
'''


@pytest.fixture(scope="module")
def mod():
    src = PROG.replace("K_", str(K)).replace("N_", str(N)).replace("G_", str(G))
    return dev.load(src, "packed.asc")


def pack(vals, bits):
    per = 8 // bits
    u = (np.asarray(vals, np.int64) & ((1 << bits) - 1)).astype(np.uint8).reshape(-1, per)
    out = np.zeros(u.shape[0], np.uint8)
    for i in range(per):
        out |= u[:, i] << (i * bits)
    return out


@pytest.mark.parametrize("kind,bits,lo,hi", [("i4", 4, -8, 8), ("u2", 2, 0, 4)])
@pytest.mark.parametrize("skip", [0, 2])
def test_antiquant_packed_source(mod, kind, bits, lo, hi, skip):
    rng = np.random.default_rng(7)
    v = rng.integers(lo, hi, K * N)
    off = rng.uniform(-2, 2, G * N).astype(np.float16)
    sc = rng.uniform(0.25, 2, G * N).astype(np.float16)
    dst = np.zeros(K * N, np.float16)
    sizes = np.zeros(8, np.uint32)
    mod.get_kernel("antiq_" + kind)[1](pack(v, bits), off, sc, dst, sizes, np.uint32(skip))
    arc.synchronize()
    assert sizes[0] == K * N and sizes[1] == (K - skip) * N   # GetSize counts elements, not bytes
    rows = K - skip
    x = v.reshape(K, N)[skip:].astype(np.float64)
    gs = rows // G
    want = np.empty_like(x)
    for i in range(rows):
        want[i] = sc.reshape(G, N)[i // gs].astype(np.float64) * (x[i] + off.reshape(G, N)[i // gs])
    np.testing.assert_allclose(dst[:rows * N].reshape(rows, N).astype(np.float64), want, rtol=1e-3, atol=1e-3)


@pytest.mark.parametrize("R,C,cstride", [(16, 32, 16), (5, 20, 8)])
def test_ub_to_l1_nd2nz(mod, R, C, cstride):
    x = np.zeros((R * C + 15) // 16 * 16, np.float16)
    x[:R * C] = np.arange(R * C)
    y = np.full(8192, -1, np.float16)
    mod.get_kernel("ub2l1_nz")[1](x, y, np.uint32(R), np.uint32(C), np.uint32(cstride))
    arc.synchronize()
    C0 = 16
    for r in range(R):
        for c in range(C):
            assert y[(c // C0) * cstride * C0 + r * C0 + c % C0] == x[r * C + c]
    # the last column block is zero-padded to 32 bytes
    if C % C0:
        cb = C // C0
        for r in range(R):
            assert (y[cb * cstride * C0 + r * C0 + C % C0:cb * cstride * C0 + (r + 1) * C0] == 0).all()


def test_antiquant_config_form_stops_with_a_message(mod):
    with pytest.raises(arc.LaunchError, match=r"AscendC::AscendAntiQuant: the AntiQuantConfig form \(mode 1, "
                                              r"input int4b_t\) is not implemented"):
        mod.get_kernel("antiq_cfg")[1](np.zeros(2048, np.float16))
        arc.synchronize()
