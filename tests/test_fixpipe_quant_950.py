"""Ascend 950's (dav-3510) Fixpipe quantisation modes, against NumPy and the
exact references of helpers/lowp_ref.py: (V)QF322FP8_PRE, (V)QF322HIF8_PRE,
(V)QF322HIF8_PRE_HYBRID, (V)QS322BF16_PRE, (V)QF322F16_PRE,
(V)QF322BF16_PRE, (V)QF322F32_PRE, each scalar (deqScalar) and per column
(cbufWorkspace in L1, or SetFixPipeConfig with the words in the Fixpipe
buffer), with and without ReLU, to GM and to L1.  The docs (随路量化, 随路量化与随路ReLU场景组合):
M1 = word bits [31:13] as a float; value * M1 where >= 0, else * M2 (M1, or
0 with ReLU); then the destination's rounding.  Each kernel first writes
L0C unquantised (NoQuant) so the reference starts from the accumulators
themselves.  Also: out-of-range products are refused by name (the docs do
not say whether these modes saturate), the modes on dav-2201, a mode whose
types differ from the Fixpipe's."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev
from helpers import lowp_ref as ref

M, N, K = 16, 32, 32

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// C = A (M x K) @ B (K x N) in L0C (S: float from half, int32_t from int8_t),
// written raw (NoQuant) to `raw`, then through quantPre `mode` to `out`:
// how 0 scalar word, 1 per-column words from L1 (cbufWorkspace, FixpipeParamsV220), 2 per-column
// words in the Fixpipe buffer (SetFixPipeConfig), 3 words from L1 with FixpipeParamsArch3510; 4, 5: as
// 0, 3 into L1, then copied to GM.
template <typename T, typename S, typename D>
__aicore__ inline void Quant(GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR raw, GM_ADDR out, uint64_t word, uint32_t mode,
                             uint32_t relu, uint32_t how)
{
    constexpr uint32_t M = 16, N = 32, K = 32, C0 = 32 / sizeof(T);
    GlobalTensor<T> ga, gb; GlobalTensor<uint64_t> gw; GlobalTensor<S> gr; GlobalTensor<D> go;
    ga.SetGlobalBuffer((__gm__ T *)a); gb.SetGlobalBuffer((__gm__ T *)b); gw.SetGlobalBuffer((__gm__ uint64_t *)w);
    gr.SetGlobalBuffer((__gm__ S *)raw); go.SetGlobalBuffer((__gm__ D *)out);
    TPipe pipe;
    TBuf<TPosition::A1> ta1; TBuf<TPosition::B1> tb1; TBuf<TPosition::C1> tw1; TBuf<TPosition::A2> ta2;
    TBuf<TPosition::B2> tb2; TBuf<TPosition::CO1> tc; TBuf<TPosition::C2PIPE2GM> tfb;
    pipe.InitBuffer(ta1, M * K * sizeof(T)); pipe.InitBuffer(tb1, K * N * sizeof(T)); pipe.InitBuffer(tw1, N * 8);
    pipe.InitBuffer(ta2, M * K * sizeof(T)); pipe.InitBuffer(tb2, K * N * sizeof(T)); pipe.InitBuffer(tc, M * N * 4);
    pipe.InitBuffer(tfb, N * 8);
    LocalTensor<T> a1 = ta1.Get<T>(), b1 = tb1.Get<T>(), a2 = ta2.Get<T>(), b2 = tb2.Get<T>();
    LocalTensor<uint64_t> w1 = tw1.Get<uint64_t>(), fb = tfb.Get<uint64_t>();
    LocalTensor<S> co1 = tc.Get<S>();
    DataCopy(a1, ga, Nd2NzParams{1, M, K, 0, K, M, 1, 0});
    DataCopy(b1, gb, Nd2NzParams{1, K, N, 0, N, K, 1, 0});
    DataCopy(w1, gw, N);
    PipeBarrier<PIPE_ALL>();
    LoadData(a2, a1, LoadData2DParamsV2{0, 0, M / 16, K / C0, M / 16, M / 16, false, 0});
    // B Nz -> Zn: the 16-bit fractal transpose; int8_t B is moved as it is (L0C is dumped raw)
    LoadData(b2, b1, LoadData2DParamsV2{0, 0, K / 16, N / C0, K / 16, N / C0, sizeof(T) == 2, 0});
    DataCopy(fb, w1, DataCopyParams{1, N * 8 / 64, 0, 0});   // dav-3510: 64-byte units
    PipeBarrier<PIPE_ALL>();
    Mmad(co1, a2, b2, MmadParams{M, N, K, 0, false, true});
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsArch3510<CO2Layout::ROW_MAJOR> f(N, M, M, N);
    Fixpipe<S, S, CFG_ROW_MAJOR>(gr, co1, f);
    f.quantPre = (QuantMode_t)mode;
    f.deqScalar = word;
    f.reluEn = relu != 0;
    if (how == 1) {
        FixpipeParamsV220 v(N, M, M, N, relu != 0);
        v.quantPre = (QuantMode_t)mode;
        Fixpipe<D, S, CFG_ROW_MAJOR>(go, co1, w1, v);
    } else if (how == 3) {
        Fixpipe<D, S, CFG_ROW_MAJOR>(go, co1, w1, f);
    } else if (how >= 4) {   // to L1 (4: the scalar word, 5: words from L1), then L1 -> GM
        LocalTensor<D> l1(TPosition::C1, 16384, M * N);
        if (how == 4) Fixpipe<D, S, CFG_ROW_MAJOR>(l1, co1, f);
        else Fixpipe<D, S, CFG_ROW_MAJOR>(l1, co1, w1, f);
        PipeBarrier<PIPE_ALL>();
        DataCopy(go, l1, M * N);
    } else {
        if (how == 2) SetFixPipeConfig(fb);
        Fixpipe<D, S, CFG_ROW_MAJOR>(go, co1, f);
    }
    PipeBarrier<PIPE_ALL>();
}
#define KQ_ARGS GM_ADDR a, GM_ADDR b, GM_ADDR w, GM_ADDR raw, GM_ADDR out, uint64_t word, uint32_t mode, uint32_t relu, uint32_t how
extern "C" __global__ __aicore__ void q_fp8(KQ_ARGS) { Quant<half, float, fp8_e4m3fn_t>(a, b, w, raw, out, word, mode, relu, how); }
extern "C" __global__ __aicore__ void q_hif8(KQ_ARGS) { Quant<half, float, hifloat8_t>(a, b, w, raw, out, word, mode, relu, how); }
extern "C" __global__ __aicore__ void q_f16(KQ_ARGS) { Quant<half, float, half>(a, b, w, raw, out, word, mode, relu, how); }
extern "C" __global__ __aicore__ void q_bf16(KQ_ARGS) { Quant<half, float, bfloat16_t>(a, b, w, raw, out, word, mode, relu, how); }
extern "C" __global__ __aicore__ void q_f32(KQ_ARGS) { Quant<half, float, float>(a, b, w, raw, out, word, mode, relu, how); }
extern "C" __global__ __aicore__ void q_s32s8(KQ_ARGS) { Quant<int8_t, int32_t, int8_t>(a, b, w, raw, out, word, mode, relu, how); }
extern "C" __global__ __aicore__ void q_s32bf16(KQ_ARGS) { Quant<int8_t, int32_t, bfloat16_t>(a, b, w, raw, out, word, mode, relu, how); }
'''

# The modes in the documented order after dav-2201's nine (NoQuant .. VREQ8).
MODES = ["QF322FP8_PRE", "VQF322FP8_PRE", "QF322HIF8_PRE", "VQF322HIF8_PRE", "QF322HIF8_PRE_HYBRID",
         "VQF322HIF8_PRE_HYBRID", "QS322BF16_PRE", "VQS322BF16_PRE", "QF322F16_PRE", "VQF322F16_PRE",
         "QF322BF16_PRE", "VQF322BF16_PRE", "QF322F32_PRE", "VQF322F32_PRE"]
CODE = {m: 9 + i for i, m in enumerate(MODES)}
KERNEL = {"FP8": "q_fp8", "HIF8": "q_hif8", "HIF8_PRE_HYBRID": "q_hif8", "S322BF16": "q_s32bf16",
          "F322F16": "q_f16", "F322BF16": "q_bf16", "F322F32": "q_f32"}


def kernel_of(mode):
    base = mode.lstrip("V").lstrip("Q")
    for key in ("HIF8_PRE_HYBRID", "HIF8", "FP8", "S322BF16", "F322BF16", "F322F16", "F322F32"):
        if key in base:
            return KERNEL[key]
    raise KeyError(mode)


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "fixq950.asc").compile(["--npu-arch=dav-3510"]).load()


def word_of(scale):
    """A quantisation word: the float's bits (the Fixpipe uses [31:13])."""
    return int(np.float32(scale).view(np.uint32))


def m1_of(word):
    return np.uint32(word & 0xFFFFE000).view(np.float32)


def run(mod, mode, words, relu, how, seed=3):
    """Launch; returns (raw L0C M x N, the M x N outputs)."""
    rng = np.random.default_rng(seed)
    name = kernel_of(mode)
    if name == "q_s32bf16":
        a = rng.integers(-128, 128, (M, K)).astype(np.int8)
        b = rng.integers(-128, 128, (K, N)).astype(np.int8)
        raw = np.zeros(M * N, np.int32)
    else:
        a = (rng.standard_normal((M, K)) * 4).astype(np.float16)
        b = (rng.standard_normal((K, N)) * 4).astype(np.float16)
        raw = np.zeros(M * N, np.float32)
    dt = {"q_fp8": np.uint8, "q_hif8": np.uint8, "q_f16": np.float16, "q_bf16": np.uint16, "q_s32bf16": np.uint16,
          "q_f32": np.float32}[name]
    out = np.zeros(M * N, dt)
    w = np.asarray(words, np.uint64)
    mod.get_kernel(name)[1](a, b, w, raw, out, np.uint64(words[0]), np.uint32(CODE[mode]), np.uint32(relu),
                            np.uint32(how))
    arc.synchronize()
    return raw.reshape(M, N), out


def scaled(raw, words, relu):
    """The float product of the docs: x * M1 (x >= 0) or x * M2 (M2 = 0 with ReLU)."""
    m1 = np.array([m1_of(int(w)) for w in words], np.float32)[None, :]
    x = raw.astype(np.float32)
    return np.where(x >= 0, x * m1, x * (np.float32(0) if relu else m1)).astype(np.float32)


def expect(mode, f):
    """The destination values (as float64 for the 8-bit types, bits otherwise)."""
    if "FP8" in mode:
        return np.array([ref.to_format(float(v), "e4m3", "rn", False) for v in f.ravel()])
    if "HIF8" in mode:
        md = "rh" if "HYBRID" in mode else "rna"
        return np.array([ref.to_hif8(float(v), md, False, ref.hif8_thr_f32(float(v)), 14) for v in f.ravel()])
    if "BF16" in mode:
        return dev.f32_to_bf16_bits(f.ravel())
    if "F16" in mode:
        return f.ravel().astype(np.float16).view(np.uint16)
    return f.ravel().view(np.uint32)


def decoded(mode, out):
    if "FP8" in mode:
        return np.array([ref.decode(int(b), "e4m3") for b in out])
    if "HIF8" in mode:
        return np.array([ref.hif8_decode(int(b)) for b in out])
    if mode.endswith("F32_PRE"):
        return out.view(np.uint32)
    return out.view(np.uint16)


SCALES = {"FP8": 0.3, "HIF8": 10.0, "S322BF16": 0.013, "F322F16": 7.5, "F322BF16": 0.3, "F322F32": 1.1}


def scale_for(mode):
    for key, v in SCALES.items():
        if key in mode:
            return v
    raise KeyError(mode)


@pytest.mark.parametrize("relu", [0, 1])
@pytest.mark.parametrize("mode", MODES)
def test_quant_mode(mod, mode, relu):
    base = scale_for(mode)
    vec = mode.startswith("V")
    # per column: different scales, bits below 13 set (ignored: bits [31:13] only), sign/offset bits set (unused)
    scales = [base * (1.0 + 0.37 * (c % 5)) for c in range(N)] if vec else [base] * N
    words = [word_of(s) | 0x1FFF | (1 << 46) | (5 << 37) for s in scales]
    for how in ([1, 2, 3, 5] if vec else [0, 4]):
        raw, out = run(mod, mode, words, relu, how)
        f = scaled(raw, words, relu)
        got, want = decoded(mode, out), expect(mode, f)
        if "FP8" in mode or "HIF8" in mode:
            np.testing.assert_array_equal(got, want, err_msg="%s how %d" % (mode, how))
        else:
            np.testing.assert_array_equal(got, want.astype(got.dtype), err_msg="%s how %d" % (mode, how))
        assert np.any(raw < 0) and np.any(raw > 0)   # both branches of M1/M2 ran


def test_hybrid_differs_from_half_away(mod):
    """The two HiFloat8 roundings are not the same function on these values
    (the test above would not notice a hybrid mode computing half-away)."""
    words = [word_of(10.0)] * N
    _, o1 = run(mod, "QF322HIF8_PRE", words, 0, 0)
    _, o2 = run(mod, "QF322HIF8_PRE_HYBRID", words, 0, 0)
    assert np.any(o1 != o2)


def test_bf16_example_case(mod):
    """cube_buffer_dump's gen_data.py: acc * scale (1.0 / 0.5 by column,
    FIXPIPE_SCALE_MASK), rounded to nearest even bf16."""
    scales = np.where(np.arange(N) % 2 == 0, 1.0, 0.5).astype(np.float32)
    words = [(int(s.view(np.uint32)) & 0xFFFFE000) | (1 << 46) for s in scales]
    raw, out = run(mod, "VQF322BF16_PRE", words, 0, 2)
    want = dev.f32_to_bf16_bits((raw * scales[None, :]).astype(np.float32).ravel())
    np.testing.assert_array_equal(out.view(np.uint16), want)


@pytest.mark.parametrize("mode, scale, what", [
    ("QF322FP8_PRE", 1e4, "QF322FP8_PRE: L0C value .* scaled to .* is outside the destination's finite range"),
    ("QF322HIF8_PRE", 1e5, "QF322HIF8_PRE: L0C value .* is outside"),
    ("QF322F16_PRE", 1e4, "QF322F16_PRE: L0C value .* is outside"),
    ("QF322F32_PRE", 1e37, "QF322F32_PRE: L0C value .* is outside"),
])
def test_overflow_is_refused(mod, mode, scale, what):
    with pytest.raises(arc.LaunchError, match=what + ".*the docs do not say whether this mode saturates"):
        run(mod, mode, [word_of(scale)] * N, 0, 0)


def test_mode_types_must_match(mod):
    """QS322BF16_PRE reads int32_t L0C; a float L0C is refused by name."""
    with pytest.raises(arc.LaunchError, match=r"quantPre QS322BF16_PRE converts int32_t L0C -> bfloat16_t; "
                                              r"this Fixpipe reads float L0C into bfloat16_t"):
        mod.get_kernel("q_bf16")[1](np.zeros((M, K), np.float16), np.zeros((K, N), np.float16),
                                    np.zeros(N, np.uint64), np.zeros(M * N, np.float32), np.zeros(M * N, np.uint16),
                                    np.uint64(0), np.uint32(CODE["QS322BF16_PRE"]), np.uint32(0), np.uint32(0))
        arc.synchronize()


REFUSE_2201 = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    TPipe pipe; TBuf<TPosition::CO1> tc; pipe.InitBuffer(tc, 1024);
    GlobalTensor<half> g; g.SetGlobalBuffer((__gm__ half *)x);
    %s
}
'''


@pytest.mark.parametrize("body, message", [
    ("FixpipeParamsV220 f(16, 16, 16, 16, false); f.quantPre = QuantMode_t::QF322F16_PRE; Fixpipe(g, tc.Get<float>(), f);",
     r"quantPre QF322F16_PRE is an Ascend 950 \(dav-3510\) mode; this kernel is compiled for dav-2201"),
    ("SetFixPipeClipRelu(7);", r"SetFixPipeClipRelu: ClipReLU is not on dav-2201"),
    ("DataCopyCO12DstParams q(16, 16, 16, 16, QuantMode_t::F322F16, 0, false, true); q.clipReluPre = 1;\n"
     "DataCopy(g, tc.Get<float>(), q);", r"DataCopy\(CO1 -> GM\): clipReluPre 1: ClipReLU is not on dav-2201"),
])
def test_refused_on_2201(body, message):
    """Ascend 950's modes and ClipReLU (Atlas 200I/500 A2 only) are refused by name, not run or ignored."""
    m = arc.Program(REFUSE_2201 % body, "q2201.asc").compile(["--npu-arch=dav-2201"]).load()
    with pytest.raises(arc.LaunchError, match=message):
        m.get_kernel("k")[1](np.zeros(256, np.float16))
        arc.synchronize()


def test_req8_ignores_shift_bits_on_950(mod):
    """Table 2 (dav-3510): bits 32..36 (N, MCB) are unused, so REQ8 with MCB
    set and N = 3 does not shift (dav-2201 would: test_device_cube_basic)."""
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (M, K)).astype(np.int8)
    b = rng.integers(-128, 128, (K, N)).astype(np.int8)
    raw = np.zeros(M * N, np.int32)
    out = np.zeros(M * N, np.int8)
    w = word_of(2.0 ** -9) | (3 << 32) | (1 << 36) | (1 << 46)
    mod.get_kernel("q_s32s8")[1](a, b, np.full(N, w, np.uint64), raw, out, np.uint64(w), np.uint32(7),
                                 np.uint32(0), np.uint32(0))
    arc.synchronize()
    want = np.clip(np.rint(raw.astype(np.float32) * np.float32(2.0 ** -9)), -256, 255)
    np.testing.assert_array_equal(out, np.clip(want, -128, 127).astype(np.int8))
    assert np.abs(raw).max() > 2 ** 12
