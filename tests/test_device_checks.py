"""Device API: the CPU twin's checks.  Each misuse stops the kernel with an
error naming the kernel, the block, the API and the values involved, and
the next launch in the same process works."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

PRE = "using namespace AscendC;\n"


def k(name, body):
    return 'extern "C" __global__ __aicore__ void %s(GM_ADDR x)\n{\n%s\n}\n' % (name, body)


BAD = {
    # name: (body, regex of the message after "<name> block i/n: ")
    "ub_overflow": ("TPipe pipe; TBuf<TPosition::VECCALC> a, b; pipe.InitBuffer(a, 128 * 1024);"
                    " pipe.InitBuffer(b, 70 * 1024);",
                    r"AscendC::TPipe::InitBuffer: .*71680.*unified buffer.*131072 of 196608 bytes already used on dav-2201"),
    "l1_overflow": ("TPipe pipe; TQue<QuePosition::A1, 1> a; TQue<QuePosition::B1, 1> b;"
                    " pipe.InitBuffer(a, 2, 200 * 1024); pipe.InitBuffer(b, 1, 200 * 1024);",
                    r"AscendC::TPipe::InitBuffer: 1 x 204800 bytes .* for B1? exceed the L1: 409600 of 524288 bytes"),
    "too_many_buffers": ("TPipe pipe; TQue<QuePosition::VECIN, 1> q[3]; pipe.InitBuffer(q[0], 32, 32);"
                         " pipe.InitBuffer(q[1], 32, 32); pipe.InitBuffer(q[2], 1, 32);",
                         r"AscendC::TPipe::InitBuffer: 1 buffers requested, 64 already in use: a TPipe has at most 64"),
    "zero_len": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 0);", r"AscendC::TPipe::InitBuffer: buffer length is 0"),
    "second_pipe": ("TPipe a; TPipe b;", r"AscendC::TPipe::TPipe: a second TPipe"),
    "deque_empty": ("TPipe pipe; TQue<QuePosition::VECIN, 1> q; pipe.InitBuffer(q, 2, 64); q.DeQue<float>();",
                    r"AscendC::TQue::DeQue: the queue is empty"),
    "free_twice": ("TPipe pipe; TQue<QuePosition::VECOUT, 1> q; pipe.InitBuffer(q, 2, 64);"
                   " auto t = q.AllocTensor<float>(); q.FreeTensor(t); q.FreeTensor(t);",
                   r"AscendC::TQue::FreeTensor: buffer 0 of the queue is already free"),
    "alloc_past_num": ("TPipe pipe; TQue<QuePosition::VECIN, 1> q; pipe.InitBuffer(q, 2, 64);"
                       " q.AllocTensor<float>(); q.AllocTensor<float>(); q.AllocTensor<float>();",
                       r"AscendC::TQue::AllocTensor: all 2 buffers of the queue are allocated"),
    "depth_overflow": ("TPipe pipe; TQue<QuePosition::VECIN, 1> q; pipe.InitBuffer(q, 2, 64);"
                       " auto a = q.AllocTensor<float>(); auto b = q.AllocTensor<float>(); q.EnQue(a); q.EnQue(b);",
                       r"AscendC::TQue::EnQue: the queue is full: depth 1, 1 tensors enqueued"),
    "unaligned": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024); auto t = b.Get<float>();"
                  " Add(t[1], t[8], t[16], 8);",
                  r"AscendC::Add: dst address is not 32-byte aligned \(offset 4 bytes into UB\)"),
    "copy_not_32": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024); GlobalTensor<float> g;"
                    " g.SetGlobalBuffer((__gm__ float *)x, 64); DataCopy(b.Get<float>(), g, 10);",
                    r"AscendC::DataCopy: count 10 x 4 bytes = 40 bytes is not a multiple of 32.*round it down to 32"),
    "count_beyond": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 256); auto t = b.Get<float>();"
                     " Add(t, t, t, 100);",
                     r"AscendC::Add: dst: count 100 exceeds the tensor's 64 elements of float"),
    "copy_beyond": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 64); GlobalTensor<float> g;"
                    " g.SetGlobalBuffer((__gm__ float *)x, 64); DataCopy(b.Get<float>(), g, 32);",
                    r"AscendC::DataCopy: dst \(local\): 128 bytes \(32 elements of float\) exceed the tensor's 16"),
    "index_out_of_range": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 64); auto t = b.Get<half>(); t[33];",
                           r"AscendC::LocalTensor::operator\[\]: offset 33 is beyond the tensor's 32 elements of half"),
    "getvalue_out_of_range": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 64); auto t = b.Get<float>(); t.GetValue(16);",
                              r"AscendC::LocalTensor::GetValue: index 16 is beyond the tensor's 16 elements"),
    "flag_id": ("SetFlag<HardEvent::V_MTE3>(8);", r"AscendC::SetFlag: event id 8 is out of range 0..7"),
    "wait_without_set": ("WaitFlag<HardEvent::MTE2_V>(1);",
                         r"AscendC::WaitFlag: WaitFlag on HardEvent 4 id 1 without a matching SetFlag"),
    "level0_extent": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 512); auto t = b.Get<float>();"
                      " Mul(t, t, t, 64, 3, BinaryRepeatParams());",
                      r"AscendC::Mul: dst: 3 repeats .* reach element 192, beyond the tensor's 128 elements"),
    # repeatTime is a uint8_t as CANN declares it: 300 arrives as 44 (the
    # compile warns, test_repeat_time_is_a_uint8_t), whose extent is checked
    "repeat_range": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 512); auto t = b.Get<float>();"
                     " Exp(t, t, 64, 300, UnaryRepeatParams());",
                     r"AscendC::Exp: dst: 44 repeats .* beyond the tensor's 128 elements"),
    "compare_256": ("TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024); auto t = b.Get<float>();"
                    " Compare(t.ReinterpretCast<uint8_t>(), t, t, CMPMODE::LT, 40);",
                    r"AscendC::Compare: count 40 x 4 bytes is not a multiple of 256 bytes"),
}

GOOD = k("good", "GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x, 8); g.SetValue(GetBlockIdx(), 1.0f + GetBlockIdx());")


@pytest.fixture(scope="module")
def mod():
    return dev.program([k(n, b) for n, (b, _) in BAD.items()] + [GOOD], prelude=PRE)


def run_good(mod, blocks=4):
    x = np.zeros(8, np.float32)
    mod.get_kernel("good")[blocks](x)
    arc.synchronize()
    np.testing.assert_array_equal(x[:blocks], np.arange(blocks) + 1)


@pytest.mark.parametrize("name", list(BAD))
def test_check_reports_and_recovers(mod, name):
    x = np.zeros(64, np.float32)
    with pytest.raises(arc.LaunchError) as ei:
        mod.get_kernel(name)[2](x)
        arc.synchronize()
    msg = str(ei.value)
    assert re.search(r"%s block [01]/2: " % name, msg), msg
    assert re.search(BAD[name][1], msg), msg
    run_good(mod)


def test_repeat_time_is_a_uint8_t():
    """The level-0 APIs take `const uint8_t repeatTime` (their pages), so a
    constant over 255 is a conversion the compiler warns about, and a
    function pointer to one has the type CANN's headers give it (ops-math's
    foreach ops pass &Sub<T>)."""
    src = '#include "kernel_operator.h"\n' + PRE + "\n" + k("repeat_range", BAD["repeat_range"][0])
    log = arc.Program(src, "device_test.asc").compile(["--npu-arch=dav-2201"]).log
    assert re.search(r"implicit conversion from 'int' to 'uint8_t' .*changes value from 300 to 44", log), log
    src = [k("ptr", "using F = void (*)(const LocalTensor<float> &, const LocalTensor<float> &,"
                    " const LocalTensor<float> &, uint64_t, const uint8_t, const BinaryRepeatParams &);"
                    " F f = &Sub<float, true>; TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 512);"
                    " auto t = b.Get<float>(); Duplicate(t, 3.0f, 64, 2, 1, 8); f(t, t, t, 64, 2, BinaryRepeatParams());"
                    " GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x, 8); g.SetValue(0, t.GetValue(100));")]
    x = np.ones(8, np.float32)
    dev.program(src, prelude=PRE).get_kernel("ptr")[1](x)
    arc.synchronize()
    assert x[0] == 0


def test_ub_size_depends_on_arch():
    body = "TPipe pipe; TBuf<> a; pipe.InitBuffer(a, 200 * 1024); GlobalTensor<float> g;" \
           " g.SetGlobalBuffer((__gm__ float *)x, 8); g.SetValue(0, 5.0f);"
    src = [k("big", body)]
    m3510 = dev.program(src, options=["--npu-arch=dav-3510"], prelude=PRE)
    x = np.zeros(8, np.float32)
    m3510.get_kernel("big")[1](x)          # 256 KB of UB on dav-3510
    arc.synchronize()
    assert x[0] == 5
    m2201 = dev.program(src, prelude=PRE)
    with pytest.raises(arc.LaunchError, match=r"big block 0/1: AscendC::TPipe::InitBuffer: .*204800.*196608 bytes"):
        m2201.get_kernel("big")[1](x)
        arc.synchronize()


def test_npu_semantics_rounds_copy_down():
    # -DASCENDRTC_NPU_SEMANTICS: DataCopy silently copies 32 of 40 bytes, like the NPU
    body = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 64); GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x, 32);" \
           " LocalTensor<float> t = b.Get<float>(); Duplicate(t, -1.0f, 16); PipeBarrier<PIPE_ALL>();" \
           " DataCopy(t, g, 10); PipeBarrier<PIPE_ALL>(); DataCopy(g[16], t, 16);"
    # and counts beyond a tensor are bounded by the UB arena only, as the NPU does not check them
    body2 = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 256); auto t = b.Get<float>(); Duplicate(t, 1.0f, 100);" \
            " GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x); PipeBarrier<PIPE_ALL>();" \
            " DataCopy(g, t, 96);"
    body3 = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 256); auto t = b.Get<float>();" \
            " Duplicate(t, 1.0f, 200 * 1024);"
    m = dev.program([k("npu", body), k("npu2", body2), k("npu3", body3)],
                    options=["--npu-arch=dav-2201", "-DASCENDRTC_NPU_SEMANTICS"], prelude=PRE)
    y = np.zeros(96, np.float32)
    m.get_kernel("npu2")[1](y)
    arc.synchronize()
    np.testing.assert_array_equal(y, 1)
    with pytest.raises(arc.LaunchError, match=r"npu3 block 0/1: AscendC::Duplicate: dst: count 204800 exceeds "
                                              r"the memory left after it: 49152 elements of float"):
        m.get_kernel("npu3")[1](y)
        arc.synchronize()
    x = np.arange(32, dtype=np.float32)
    m.get_kernel("npu")[1](x)
    arc.synchronize()
    np.testing.assert_array_equal(x[16:24], np.arange(8))
    np.testing.assert_array_equal(x[24:32], -1)


def test_sanitizer_checks_gm_ranges():
    # --sanitizer: GM accesses must stay inside the size given to SetGlobalBuffer
    body = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 256); GlobalTensor<float> g;" \
           " g.SetGlobalBuffer((__gm__ float *)x + 8, 16); DataCopy(b.Get<float>(), g[8], 16);"
    src = [k("gm_range", body)]
    x = np.zeros(64, np.float32)
    plain = dev.program(src, prelude=PRE)
    plain.get_kernel("gm_range")[1](x)          # the NPU does not check: runs
    arc.synchronize()
    san = dev.program(src, options=["--npu-arch=dav-2201", "--sanitizer"], prelude=PRE)
    with pytest.raises(arc.LaunchError, match=r"gm_range block 0/1: AscendC::DataCopy: GM elements \[8, 24\) are "
                                              r"outside the GlobalTensor's 16 elements"):
        san.get_kernel("gm_range")[1](x)
        arc.synchronize()
    run_good(mod_for_good())


def mod_for_good():
    return dev.program([GOOD], prelude=PRE)


@pytest.mark.parametrize("mode", [[], ["--sanitizer"], ["-DASCENDRTC_NO_GM_CHECKS"]])
def test_datacopy_checks_speak_alike_in_every_mode(mode):
    # DataCopy's checks live once (rt/services/data_copy.c): each compile mode reports the same misuse alike
    body = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 64); GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x);" \
           " LocalTensor<float> t = b.Get<float>(); DataCopy(t, g, n); PipeBarrier<PIPE_ALL>(); DataCopy(g[32], t, n);"
    src = ['extern "C" __global__ __aicore__ void dc(GM_ADDR x, uint32_t n)\n{\n%s\n}\n' % body]
    m = dev.program(src, options=["--npu-arch=dav-2201"] + mode, prelude=PRE)
    x = np.arange(64, dtype=np.float32)
    for n, msg in ((10, r"count 10 x 4 bytes = 40 bytes is not a multiple of 32 \(the NPU would round it down to "
                        r"32 bytes; use DataCopyPad for unaligned lengths\)"),
                   (24, r"dst \(local\): 96 bytes \(24 elements of float\) exceed the tensor's 16 elements")):
        with pytest.raises(arc.LaunchError, match=r"dc block 0/1: AscendC::DataCopy: " + msg):
            m.get_kernel("dc")[1](x, np.uint32(n))
            arc.synchronize()
    m.get_kernel("dc")[1](x, np.uint32(16))
    arc.synchronize()
    np.testing.assert_array_equal(x[32:48], np.arange(16))


def test_sanitizer_view_of_scalar_access_and_local_copy():
    # --sanitizer's GlobalTensor view (one runtime check) for GetValue; DataCopy local -> local's count rule
    body = "GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x, 8); float v = g.GetValue(n);" \
           " TPipe pipe; TBuf<> a, b; pipe.InitBuffer(a, 64); pipe.InitBuffer(b, 64);" \
           " DataCopy(b.Get<float>(), a.Get<float>(), n); g.SetValue(0, v);"
    src = ['extern "C" __global__ __aicore__ void sv(GM_ADDR x, uint32_t n)\n{\n%s\n}\n' % body]
    m = dev.program(src, options=["--npu-arch=dav-2201", "--sanitizer"], prelude=PRE)
    x = np.arange(64, dtype=np.float32)
    with pytest.raises(arc.LaunchError, match=r"sv block 0/1: AscendC::GlobalTensor::GetValue: GM elements "
                                              r"\[9, 10\) are outside the GlobalTensor's 8 elements \(sanitizer\)"):
        m.get_kernel("sv")[1](x, np.uint32(9))
        arc.synchronize()
    with pytest.raises(arc.LaunchError, match=r"sv block 0/1: AscendC::DataCopy: count 7 x 4 bytes = 28 bytes"):
        m.get_kernel("sv")[1](x, np.uint32(7))
        arc.synchronize()
    m.get_kernel("sv")[1](x, np.uint32(0))
    arc.synchronize()
    assert x[0] == 0 and x[9] == 9
