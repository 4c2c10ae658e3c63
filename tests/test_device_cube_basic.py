"""Cube unit, basic API (dav-2201): ND -> NZ copies, LoadData with and
without transpose, Mmad per dtype pair, bias, Fixpipe NZ -> ND with ReLU,
against NumPy models of the fractal layouts ("Cube unit" in csrc/device/README.md)."""

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev
from helpers.cube_mm import cube_mm_source

MMS = {
    "mm_half": ("half", "float", 0, "false"),
    "mm_half_bt": ("half", "float", 1, "false"),
    "mm_half_bias": ("half", "float", 0, "true"),
    "mm_bf16": ("bfloat16_t", "float", 0, "false"),
    "mm_f32_bt": ("float", "float", 1, "false"),
    "mm_f32_bias": ("float", "float", 1, "true"),
    "mm_i8_bt": ("int8_t", "int32_t", 1, "false"),
    "mm_i8_tr": ("int8_t", "int32_t", 2, "false"),
    "mm_i8_bias": ("int8_t", "int32_t", 1, "true"),
}

LAYOUT = r'''
using namespace AscendC;
// ND -> NZ into L1, then L1 copied out raw (the NZ bytes) to check the formula.
extern "C" __global__ __aicore__ void nd2nz_raw(GM_ADDR x, GM_ADDR y, uint32_t R, uint32_t C, uint32_t cstride)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);   // one core (its Duplicate would make it MIX)
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe; TBuf<TPosition::A1> l1; pipe.InitBuffer(l1, 65536);
    LocalTensor<half> t = l1.Get<half>();
    Duplicate(t, (half)-7, 32768);
    PipeBarrier<PIPE_ALL>();
    DataCopy(t, gx, Nd2NzParams(2, R, C, R * C, C, cstride, 1, 8192)); PipeBarrier<PIPE_ALL>();
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 32768); PipeBarrier<PIPE_ALL>();
}
// L1 NZ -> L0A with and without the b16 fractal transpose; L0A read back raw.
extern "C" __global__ __aicore__ void load2d_raw(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a;
    pipe.InitBuffer(l1, 4096); pipe.InitBuffer(l0a, 8192);
    LocalTensor<half> s = l1.Get<half>(), d = l0a.Get<half>();
    DataCopy(s, gx, 2048); PipeBarrier<PIPE_ALL>();
    LoadData(d, s, LoadData2DParams(1, 3, 2, 0, 1, false, 0)); PipeBarrier<PIPE_ALL>();      // fractals 1, 3, 5 -> slots 0, 2, 4
    LoadData(d[6 * 256], s, LoadData2DParams(0, 2, 1, 0, 0, true, 0)); PipeBarrier<PIPE_ALL>(); // fractals 0, 1 transposed -> slots 6, 7
    DataCopy(gy, d, 8 * 256); PipeBarrier<PIPE_ALL>();
}
'''

FIX = r'''
using namespace AscendC;
// One 32x32 int32 (or float) L0C tile made by Mmad from int8 data, then
// Fixpipe with a quantisation mode to GM.
template <typename TA, typename TC, typename TD, QuantMode_t MODE>
__aicore__ inline void FixQuant(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint64_t word, uint32_t relu)
{
    GlobalTensor<TA> ga, gb; GlobalTensor<TD> gc;
    ga.SetGlobalBuffer((__gm__ TA *)a); gb.SetGlobalBuffer((__gm__ TA *)b); gc.SetGlobalBuffer((__gm__ TD *)c);
    constexpr uint32_t C0 = 32 / sizeof(TA), F = 512 / sizeof(TA), K1 = 32 / C0;
    TPipe pipe; TBuf<TPosition::A1> a1, b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 4096); pipe.InitBuffer(b1, 4096); pipe.InitBuffer(a2, 4096); pipe.InitBuffer(b2, 4096);
    pipe.InitBuffer(c1, 4096);
    LocalTensor<TA> la1 = a1.Get<TA>(), lb1 = b1.Get<TA>(), la2 = a2.Get<TA>(), lb2 = b2.Get<TA>();
    LocalTensor<TC> lc = c1.Get<TC>();
    DataCopy(la1, ga, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();
    DataCopy(lb1, gb, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();   // B given as (N, K)
    for (int i = 0; i < 2; i++) LoadData(la2[i * K1 * F], la1[i * F], LoadData2DParams(0, K1, 2, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();
    LoadData(lb2, lb1, LoadData2DParams(0, 2 * K1, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = 32; mp.n = 32; mp.k = 32;
    Mmad(lc, la2, lb2, mp); PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp(32, 32, 32, 32, relu != 0);
    fp.quantPre = MODE;
    fp.deqScalar = word;
    Fixpipe(gc, lc, fp); PipeBarrier<PIPE_ALL>();
}
// Per-column dequantisation: a word per output column in L1 (C1).
extern "C" __global__ __aicore__ void fix_vdeq(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR words, uint32_t relu)
{
    GlobalTensor<int8_t> ga, gb; GlobalTensor<half> gc; GlobalTensor<uint64_t> gw;
    ga.SetGlobalBuffer((__gm__ int8_t *)a); gb.SetGlobalBuffer((__gm__ int8_t *)b); gc.SetGlobalBuffer((__gm__ half *)c);
    gw.SetGlobalBuffer((__gm__ uint64_t *)words);
    TPipe pipe; TBuf<TPosition::A1> a1, b1; TBuf<TPosition::C1> w1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, 1024); pipe.InitBuffer(b1, 1024); pipe.InitBuffer(w1, 256); pipe.InitBuffer(a2, 1024);
    pipe.InitBuffer(b2, 1024); pipe.InitBuffer(c1, 4096);
    LocalTensor<int8_t> la1 = a1.Get<int8_t>(), lb1 = b1.Get<int8_t>(), la2 = a2.Get<int8_t>(), lb2 = b2.Get<int8_t>();
    LocalTensor<int32_t> lc = c1.Get<int32_t>();
    LocalTensor<uint64_t> lw = w1.Get<uint64_t>();
    DataCopy(la1, ga, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();
    DataCopy(lb1, gb, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();
    DataCopy(lw, gw, 32); PipeBarrier<PIPE_ALL>();
    for (int i = 0; i < 2; i++) LoadData(la2[i * 512], la1[i * 512], LoadData2DParams(0, 1, 2, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();
    LoadData(lb2, lb1, LoadData2DParams(0, 2, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();
    MmadParams mp; mp.m = 32; mp.n = 32; mp.k = 32;
    Mmad(lc, la2, lb2, mp); PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 fp(32, 32, 32, 32, relu != 0);
    fp.quantPre = QuantMode_t::VDEQF16;
    Fixpipe(gc, lc, lw, fp); PipeBarrier<PIPE_ALL>();
}
extern "C" __global__ __aicore__ void fix_req8(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint64_t w, uint32_t relu)
{ FixQuant<int8_t, int32_t, int8_t, QuantMode_t::REQ8>(a, b, c, w, relu); }
extern "C" __global__ __aicore__ void fix_deqf16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint64_t w, uint32_t relu)
{ FixQuant<int8_t, int32_t, half, QuantMode_t::DEQF16>(a, b, c, w, relu); }
extern "C" __global__ __aicore__ void fix_f16(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint64_t w, uint32_t relu)
{ FixQuant<half, float, half, QuantMode_t::F322F16>(a, b, c, w, relu); }
extern "C" __global__ __aicore__ void fix_qb8(GM_ADDR a, GM_ADDR b, GM_ADDR c, uint64_t w, uint32_t relu)
{ FixQuant<half, float, int8_t, QuantMode_t::QF322B8_PRE>(a, b, c, w, relu); }
'''


@pytest.fixture(scope="module")
def mod():
    return dev.program([cube_mm_source(MMS)])


@pytest.fixture(scope="module")
def lay():
    return dev.program([LAYOUT])


@pytest.fixture(scope="module")
def fix():
    return dev.program([FIX])


rng = np.random.default_rng(11)


def run_mm(mod, name, a, b, bias, out_dtype, M, N, K, relu=False):
    c = np.zeros((M, N), out_dtype)
    if bias is None:
        bias = np.zeros(max(N, 8), out_dtype)
    mod.get_kernel(name)[1](a, b, bias, c, np.uint32(M), np.uint32(N), np.uint32(K), np.uint32(relu))
    arc.synchronize()
    return c


def ints(shape, lo=-4, hi=5):
    return rng.integers(lo, hi, shape)


def nz_model(x, rows_pad, c0):
    """ND (R, C) -> NZ with column blocks of c0 and rows_pad rows each."""
    R, C = x.shape
    cb = -(-C // c0)
    out = np.zeros((cb, rows_pad, c0), x.dtype)
    xp = np.zeros((R, cb * c0), x.dtype)
    xp[:, :C] = x
    out[:, :R, :] = xp.reshape(R, cb, c0).transpose(1, 0, 2)
    return out, R


def test_nd2nz_layout(lay):
    R, C, cstride = 20, 37, 32                      # 37 halves: 3 column blocks, the last zero-filled
    x = rng.standard_normal((2, R, C)).astype(np.float16)
    y = np.zeros(32768, np.float16)
    lay.get_kernel("nd2nz_raw")[1](x, y, np.uint32(R), np.uint32(C), np.uint32(cstride))
    arc.synchronize()
    for i in range(2):
        got = y[i * 8192:i * 8192 + 3 * cstride * 16].reshape(3, cstride, 16)
        want, _ = nz_model(x[i], cstride, 16)
        np.testing.assert_array_equal(got[:, :R], want[:, :R])      # data and the zero-filled columns 37..47
        assert (got[:, R:] == -7).all()                              # rows past nValue are left alone
    assert (y[2 * 8192 - 1:2 * 8192] == -7).all()


def test_load2d_layout(lay):
    x = np.arange(2048, dtype=np.float16)
    y = np.zeros(8 * 256, np.float16)
    lay.get_kernel("load2d_raw")[1](x, y)
    arc.synchronize()
    fr = x.reshape(8, 16, 16)
    got = y.reshape(8, 16, 16)
    for slot, src in ((0, 1), (2, 3), (4, 5)):
        np.testing.assert_array_equal(got[slot], fr[src])
    np.testing.assert_array_equal(got[6], fr[0].T)
    np.testing.assert_array_equal(got[7], fr[1].T)


SHAPES = [(32, 32, 32), (30, 40, 70), (64, 48, 96), (2, 32, 64), (17, 16, 8)]


@pytest.mark.parametrize("M,N,K", SHAPES)
def test_mmad_half_exact(mod, M, N, K):
    a, b = ints((M, K)).astype(np.float16), ints((K, N)).astype(np.float16)
    c = run_mm(mod, "mm_half", a, b, None, np.float32, M, N, K)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    bt = np.ascontiguousarray(b.T)
    c = run_mm(mod, "mm_half_bt", a, bt, None, np.float32, M, N, K)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


@pytest.mark.parametrize("M,N,K", [(32, 32, 32), (48, 64, 128)])
def test_mmad_half_float_values(mod, M, N, K):
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    c = run_mm(mod, "mm_half", a, b, None, np.float32, M, N, K)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("M,N,K", [(32, 32, 32), (30, 40, 70)])
def test_mmad_bf16(mod, M, N, K):
    af = ints((M, K)).astype(np.float32)
    bf = ints((K, N)).astype(np.float32)
    a16, b16 = dev.f32_to_bf16_bits(af), dev.f32_to_bf16_bits(bf)
    c = run_mm(mod, "mm_bf16", a16, b16, None, np.float32, M, N, K)
    np.testing.assert_array_equal(c, af @ bf)


@pytest.mark.parametrize("M,N,K", [(32, 32, 32), (30, 40, 70), (16, 16, 9)])
def test_mmad_float(mod, M, N, K):
    a = rng.standard_normal((M, K)).astype(np.float32)
    b = rng.standard_normal((K, N)).astype(np.float32)
    c = run_mm(mod, "mm_f32_bt", a, np.ascontiguousarray(b.T), None, np.float32, M, N, K)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-5, atol=1e-5)
    bias = rng.standard_normal(N).astype(np.float32)
    c = run_mm(mod, "mm_f32_bias", a, np.ascontiguousarray(b.T), bias, np.float32, M, N, K)
    np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64) + bias, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("M,N,K", [(32, 32, 32), (30, 40, 70), (48, 64, 100)])
def test_mmad_int8(mod, M, N, K):
    a = rng.integers(-128, 128, (M, K)).astype(np.int8)
    b = rng.integers(-128, 128, (K, N)).astype(np.int8)
    want = a.astype(np.int32) @ b.astype(np.int32)
    c = run_mm(mod, "mm_i8_bt", a, np.ascontiguousarray(b.T), None, np.int32, M, N, K)
    np.testing.assert_array_equal(c, want)
    c = run_mm(mod, "mm_i8_tr", a, b, None, np.int32, M, N, K)     # LoadDataWithTranspose squares
    np.testing.assert_array_equal(c, want)
    bias = rng.integers(-1000, 1000, N).astype(np.int32)
    c = run_mm(mod, "mm_i8_bias", a, np.ascontiguousarray(b.T), bias, np.int32, M, N, K)
    np.testing.assert_array_equal(c, want + bias)


def test_mmad_half_bias_and_relu(mod):
    M, N, K = 30, 40, 70
    a, b = ints((M, K)).astype(np.float16), ints((K, N)).astype(np.float16)
    bias = ints(N, -50, 50).astype(np.float32)
    want = a.astype(np.float32) @ b.astype(np.float32) + bias
    np.testing.assert_array_equal(run_mm(mod, "mm_half_bias", a, b, bias, np.float32, M, N, K), want)
    np.testing.assert_array_equal(run_mm(mod, "mm_half_bias", a, b, bias, np.float32, M, N, K, relu=True),
                                  np.maximum(want, 0))


def quant_word(scale, offset=0, shift=0, mcb=False, signed=True):
    s = int(np.array([scale], np.float32).view(np.uint32)[0]) & 0xFFFFE000
    return np.uint64(s | (shift << 32) | (int(mcb) << 36) | ((offset & 0x1FF) << 37) | (int(signed) << 46))


def run_fix(fix, name, a, b, out_dtype, word, relu):
    c = np.zeros((32, 32), out_dtype)
    fix.get_kernel(name)[1](a, b, c, word, np.uint32(relu))
    arc.synchronize()
    return c


def scale_model(x, scale, relu):
    """x * M1 (bits 31..13 of the float scale), x * 0 below zero with ReLU."""
    s = (np.array([scale], np.float32).view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)[0]
    x = x.astype(np.float32)
    return np.where(x >= 0, x * s, x * (np.float32(0) if relu else s))


@pytest.mark.parametrize("relu", [False, True])
def test_fixpipe_req8(fix, relu):
    a = rng.integers(-20, 20, (32, 32)).astype(np.int8)
    b = rng.integers(-20, 20, (32, 32)).astype(np.int8)       # (N, K)
    acc = a.astype(np.int32) @ b.astype(np.int32).T
    w = quant_word(0.01, offset=3)
    got = run_fix(fix, "fix_req8", a, b, np.int8, w, relu)
    v = np.clip(np.rint(scale_model(acc, 0.01, relu)), -256, 255) + 3
    np.testing.assert_array_equal(got, np.clip(v, -128, 127).astype(np.int8))


@pytest.mark.parametrize("relu", [False, True])
def test_fixpipe_deqf16(fix, relu):
    a = rng.integers(-128, 128, (32, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 32)).astype(np.int8)
    acc = a.astype(np.int32) @ b.astype(np.int32).T
    got = run_fix(fix, "fix_deqf16", a, b, np.float16, quant_word(0.5), relu)
    np.testing.assert_array_equal(got, np.clip(scale_model(acc, 0.5, relu), -65504, 65504).astype(np.float16))


@pytest.mark.parametrize("relu", [False, True])
def test_fixpipe_f16_and_qb8(fix, relu):
    a = rng.standard_normal((32, 32)).astype(np.float16)
    b = rng.standard_normal((32, 32)).astype(np.float16)
    acc = (a.astype(np.float64) @ b.astype(np.float64).T).astype(np.float32)
    got = run_fix(fix, "fix_f16", a, b, np.float16, np.uint64(0), relu)
    want = np.maximum(acc, 0) if relu else acc
    np.testing.assert_allclose(got.astype(np.float32), want.astype(np.float16).astype(np.float32), rtol=2e-3,
                               atol=2e-3)
    got = run_fix(fix, "fix_qb8", a, b, np.int8, quant_word(20.0, offset=-2), relu)
    v = np.clip(np.rint(scale_model(acc, 20.0, relu)), -256, 255) - 2
    # products summed in another order may land on the other side of a .5: allow one step
    assert np.abs(got.astype(np.int32) - np.clip(v, -128, 127)).max() <= 1


@pytest.mark.parametrize("relu", [False, True])
def test_fixpipe_per_column_deq(fix, relu):
    a = rng.integers(-128, 128, (32, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 32)).astype(np.int8)    # (N, K)
    acc = a.astype(np.int32) @ b.astype(np.int32).T
    scales = rng.uniform(0.01, 0.2, 32).astype(np.float32)
    words = np.array([quant_word(s) for s in scales], np.uint64)
    c = np.zeros((32, 32), np.float16)
    fix.get_kernel("fix_vdeq")[1](a, b, c, words, np.uint32(relu))
    arc.synchronize()
    want = np.stack([scale_model(acc[:, j], scales[j], relu) for j in range(32)], 1)
    np.testing.assert_array_equal(c, np.clip(want, -65504, 65504).astype(np.float16))



def test_cube_microkernel_compiles_without_psabi_warnings():
    # at -O0 (CATLASS's examples build so) nothing is inlined: a 64-byte
    # vector passed by value would draw clang's -Wpsabi at every call
    src = '#include "kernel_operator.h"\n' + cube_mm_source({"mm_o0": ("half", "float", 0, "false")})
    b = arc.Program(src, "psabi.asc").compile(["--npu-arch=dav-2201", "-O0"])
    assert "psabi" not in b.log and "changes the ABI" not in b.log, b.log[-2000:]
