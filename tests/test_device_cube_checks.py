"""Cube unit: the CPU twin's checks (L0A/L0B/L0C overflow, misaligned
positions, Mmad m/n/k beyond the loaded fractals, Fixpipe reading an
unwritten L0C region, bias rows never written).  Each misuse stops the
kernel with a message naming the API and the values, and a good launch in
the same process works afterwards."""
import os

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

HERE = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(HERE, "device_src", "cube_mm.h")) as f:
    MM = f.read()

# A 32x32x32 half tile: L1 A/B loaded, helpers to load L0 and run Mmad.
SETUP = ("GlobalTensor<half> g; g.SetGlobalBuffer((__gm__ half *)x); GlobalTensor<float> o;"
         " o.SetGlobalBuffer((__gm__ float *)y);"
         " TPipe pipe; TBuf<TPosition::A1> a1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2;"
         " TBuf<TPosition::CO1> c1; pipe.InitBuffer(a1, 2048); pipe.InitBuffer(a2, 4096);"
         " pipe.InitBuffer(b2, 4096); pipe.InitBuffer(c1, 4096);"
         " LocalTensor<half> la1 = a1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();"
         " LocalTensor<float> lc = c1.Get<float>();"
         " DataCopy(la1, g, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();")
LOAD4 = "LoadData(%s, la1, LoadData2DParams(0, %d, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();"
BAD = {
    "l0a_overflow": ("TPipe pipe; TQue<TPosition::A2, 1> q; pipe.InitBuffer(q, 2, 40 * 1024);",
                     r"TPipe::InitBuffer: 2 x 40960 bytes .* for A2 exceed the L0A: 0 of 65536 bytes"),
    "l0b_overflow": ("TPipe pipe; TBuf<TPosition::B2> b; pipe.InitBuffer(b, 65 * 1024);",
                     r"TPipe::InitBuffer: 1 x 66560 bytes .* for B2 exceed the L0B"),
    "l0c_overflow": ("TPipe pipe; TQue<TPosition::CO1, 1> q; pipe.InitBuffer(q, 1, 100 * 1024);"
                     " pipe.InitBuffer(q, 1, 30 * 1024);",
                     r"TPipe::InitBuffer: 1 x 30720 bytes .* for CO1 exceed the L0C: 102400 of 131072"),
    "misaligned_l0a": ("LocalTensor<half> t(TPosition::A2, 256, 256);",
                       r"LocalTensor::LocalTensor: byte address 256 in the L0A is not 512-byte aligned"),
    "misaligned_load": (SETUP + " LoadData(la2[16], la1, LoadData2DParams(0, 1, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();",
                        r"LoadData\(LoadData2DParams\): dst starts at byte 32 of the L0A, which is not 512-byte"),
    "mmad_k_beyond": (SETUP + (LOAD4 % ("la2", 4)) + (LOAD4 % ("lb2", 4)) +
                      " MmadParams p; p.m = 32; p.n = 32; p.k = 64; Mmad(lc, la2, lb2, p); PipeBarrier<PIPE_ALL>();",
                      r"Mmad: m 32 x k 64 reads L0A fractals 0..7 but fractal 4 .* was never loaded"),
    "mmad_n_beyond": (SETUP + (LOAD4 % ("la2", 4)) + (LOAD4 % ("lb2", 2)) +
                      " MmadParams p; p.m = 32; p.n = 32; p.k = 32; Mmad(lc, la2, lb2, p); PipeBarrier<PIPE_ALL>();",
                      r"Mmad: k 32 x n 32 reads L0B fractals 0..3 but fractal 2 .* was never loaded"),
    "mmad_wrong_position": (SETUP + " MmadParams p; p.m = 16; p.n = 16; p.k = 16; Mmad(lc, la1, lb2, p); PipeBarrier<PIPE_ALL>();",
                            r"Mmad: fm \(A2\) is a A1 tensor, not in the L0A"),
    "fixpipe_unwritten": (SETUP + (LOAD4 % ("la2", 4)) + (LOAD4 % ("lb2", 4)) +
                          " MmadParams p; p.m = 32; p.n = 16; p.k = 32; Mmad(lc, la2, lb2, p); PipeBarrier<PIPE_ALL>();"
                          " FixpipeParamsV220 f(32, 32, 32, 32, false); Fixpipe(o, lc, f); PipeBarrier<PIPE_ALL>();",
                          r"Fixpipe: reads L0C fractal 2 .*column block 1.* that no Mmad wrote"),
    "accumulate_unwritten": (SETUP + (LOAD4 % ("la2", 4)) + (LOAD4 % ("lb2", 4)) +
                             " MmadParams p; p.m = 32; p.n = 32; p.k = 32; p.cmatrixInitVal = false;"
                             " Mmad(lc, la2, lb2, p); PipeBarrier<PIPE_ALL>();",
                             r"Mmad: accumulating \(cmatrixInitVal false\) into L0C fractal 0, which no Mmad wrote"),
    "mmad_l0c_beyond": (SETUP + (LOAD4 % ("la2", 4)) + (LOAD4 % ("lb2", 4)) +
                        " MmadParams p; p.m = 32; p.n = 32; p.k = 32; Mmad(lc[512], la2, lb2, p); PipeBarrier<PIPE_ALL>();",
                        r"Mmad: dst \(CO1\): 4096 bytes exceed the tensor's 2048 bytes"),
}


def kern(name, body):
    return ('extern "C" __global__ __aicore__ void %s(GM_ADDR x, GM_ADDR y)\n{\nKERNEL_TASK_TYPE_DEFAULT('
            'KERNEL_TYPE_AIC_ONLY);\n%s\n}\n' % (name, body))


GOOD = ('extern "C" __global__ __aicore__ void good(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c)\n{\n'
        '    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n'
        '    CubeMatmul<half, float, 0, false>(a, b, bias, c, 32, 32, 32, false);\n}\n')


@pytest.fixture(scope="module")
def mod():
    return dev.program([MM] + [kern(n, b) for n, (b, _) in BAD.items()] + [GOOD])


@pytest.mark.parametrize("name", sorted(BAD))
def test_cube_check_reports_and_recovers(mod, name):
    x = np.zeros(4096, np.float16)
    y = np.zeros(4096, np.float32)
    with pytest.raises(arc.LaunchError) as ei:
        mod.get_kernel(name)[1](x, y)
        arc.synchronize()
    assert name in str(ei.value)
    assert __import__("re").search(BAD[name][1], str(ei.value)), str(ei.value)
    a = np.random.default_rng(0).integers(-3, 4, (32, 32)).astype(np.float16)
    b = np.random.default_rng(1).integers(-3, 4, (32, 32)).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    mod.get_kernel("good")[1](a, b, np.zeros(32, np.float32), c)
    arc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_tensor_bound_is_the_simulators_and_npu_semantics_checks_the_buffer():
    # asc-devkit's mmad sizes its CO1 tensor below what Mmad writes; the NPU,
    # which knows buffers, not tensors, computes it.  The error says the check
    # is the simulator's and how to check only the buffer's end; with
    # -DASCENDRTC_NPU_SEMANTICS the same kernel gives the values it gives with
    # a tensor of the written size
    body = (SETUP + (LOAD4 % ("la2", 4)) + (LOAD4 % ("lb2", 4)) +
            " MmadParams p; p.m = 32; p.n = 32; p.k = 32; Mmad(lc[OFF], la2, lb2, p); PipeBarrier<PIPE_ALL>();"
            " FixpipeParamsV220 f(32, 32, 32, 32, false); Fixpipe(o, lc[OFF], f); PipeBarrier<PIPE_ALL>();")
    x = np.random.default_rng(2).integers(-3, 4, (32, 32)).astype(np.float16)
    outs = []
    for off, opts in ((0, ()), (512, ("-DASCENDRTC_NPU_SEMANTICS",)), (512, ())):
        mod = dev.program([MM, kern("k", body.replace("OFF", str(off)))], options=("--npu-arch=dav-2201",) + opts)
        y = np.zeros(4096, np.float32)
        if off and not opts:
            with pytest.raises(arc.LaunchError) as ei:
                mod.get_kernel("k")[1](x, y)
                arc.synchronize()
            assert "Mmad: dst (CO1): 4096 bytes exceed the tensor's 2048 bytes" in str(ei.value)
            assert "the NPU checks no tensor bounds" in str(ei.value)
            assert "-DASCENDRTC_NPU_SEMANTICS checks only the buffer's end" in str(ei.value)
            continue
        mod.get_kernel("k")[1](x, y)
        arc.synchronize()
        outs.append(y[:1024].copy())
    assert np.count_nonzero(outs[0]) > 500
    np.testing.assert_array_equal(outs[0], outs[1])
