"""Launch errors name the kernel source line (file:line in the user's
source or header), through the __arc_site marks the compiler inserts
before runtime service calls (csrc/rtc/sites.cpp)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def launch_error(src, name, args, headers=None, blocks=1, **kw):
    k = dev.load(src, "lines.asc", headers=headers).get_kernel(name)
    with pytest.raises(arc.LaunchError) as e:
        k(*args, block_dim=blocks, **kw)
        arc.synchronize()
    return e.value


def line_of(src, needle):
    return next(i for i, ln in enumerate(src.splitlines(), 1) if needle in ln)


def test_device_api_check_names_the_line():
    src = HEAD + r'''
extern "C" __global__ __aicore__ void big(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 300 * 1024);   // beyond the 192 KiB UB
}
'''
    e = launch_error(src, "big", [arc.zeros(8, np.float32)])
    assert (e.file, e.line) == ("lines.asc", line_of(src, "300 * 1024"))
    assert f"at lines.asc:{e.line}" in str(e)


def test_out_of_bounds_global_memory_names_the_line():
    src = HEAD + r'''
extern "C" __global__ __aicore__ void oob(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, g, 256);                 // x holds 64 floats
}
'''
    e = launch_error(src, "oob", [arc.zeros(64, np.float32)])
    assert e.line == line_of(src, "DataCopy(t, g, 256)") and e.file == "lines.asc"


def test_a_line_in_an_in_memory_header():
    hdr = "#pragma once\n__aicore__ inline void fill_too_much(AscendC::LocalTensor<float> t)\n" \
          "{\n    AscendC::Duplicate(t, 1.0f, 4096);\n}\n"
    src = HEAD + r'''
#include "helper.h"
extern "C" __global__ __aicore__ void hdr(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    fill_too_much(buf.Get<float>());
}
'''
    e = launch_error(src, "hdr", [arc.zeros(8, np.float32)], headers={"helper.h": hdr})
    assert (e.file, e.line) == ("helper.h", 4)


def test_a_race_names_both_lines():
    src = HEAD + r'''
extern "C" __global__ __aicore__ void racy(GM_ADDR x, GM_ADDR y)
{
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 64);
    yg.SetGlobalBuffer((__gm__ float *)y, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xg, 64);
    Muls(t, t, 2.0f, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yg, t, 64);
}
'''
    e = launch_error(src, "racy", [np.ones(64, np.float32), arc.zeros(64, np.float32)], race_check="error")
    copy, muls = line_of(src, "DataCopy(t, xg"), line_of(src, "Muls(")
    assert f"PIPE_MTE2 at lines.asc:{copy}" in str(e) and f"PIPE_V at lines.asc:{muls}" in str(e)
    assert e.line == muls


def test_assert_keeps_its_own_line():
    src = HEAD + r'''
extern "C" __global__ __aicore__ void asserts(GM_ADDR x, int32_t n)
{
    ASSERT(n > 0);
}
'''
    e = launch_error(src, "asserts", [arc.zeros(8, np.float32), np.int32(0)])
    assert e.line == line_of(src, "ASSERT(") and str(e).count("lines.asc:") == 1


STUCK = HEAD + r'''
extern "C" __global__ __aicore__ void KERNEL(GM_ADDR x, GM_ADDR flag, int64_t far)
{
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, g, 64);
    BODY
}
'''


def test_a_fault_names_the_last_device_api_line_it_passed():
    src = STUCK.replace("KERNEL", "wild").replace("BODY", "__gm__ float *volatile p = (__gm__ float *)x; ((volatile __gm__ float *)p)[far] = 1.0f;")
    # (p of unknown origin: x's would be bounds-checked before the store, rtc/param_bounds.cpp)
    e = launch_error(src, "wild", [arc.zeros(64, np.float32), arc.zeros(8, np.int32), np.int64(1 << 36)])
    assert e.fault == "SIGSEGV", str(e)
    assert (e.file, e.line) == ("lines.asc", line_of(src, "DataCopy(t, g, 64)"))
    assert "last device-API call before the fault" in str(e)


def test_a_hang_names_each_core_s_last_device_api_line():
    src = STUCK.replace("KERNEL", "stuck").replace("BODY", "while (((volatile __gm__ int32_t *)flag)[0] == 0) { }")
    k = dev.load(src, "lines.asc").get_kernel("stuck")
    arc.set_launch_timeout(0.3)
    try:
        k(arc.zeros(64, np.float32), arc.zeros(8, np.int32), np.int64(0), block_dim=2)
        with pytest.raises(arc.LaunchError) as e:
            arc.synchronize()
    finally:
        arc.set_launch_timeout(None)
    assert e.value.code == 507014
    line = line_of(src, "DataCopy(t, g, 64)")
    assert str(e.value).count(f"running (last device-API call at lines.asc:{line})") == 2, str(e.value)


def test_a_jit_kernel_names_the_template_line():
    body = HEAD + r'''
extern "C" __global__ __aicore__ void oobjit(GM_ADDR x)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, g, 256);                 // x holds 64 floats
}
'''
    template = "${PRELUDE}\n" + body

    @arc.jit(template=template, block_dim=1)
    def oobjit(x):
        return {"PRELUDE": "// one\n// two\n// three"}   # three rendered lines for one template line
    with pytest.raises(arc.LaunchError) as e:
        oobjit(arc.zeros(64, np.float32))
        arc.synchronize()
    tl = line_of(template, "DataCopy(t, g, 256)")
    assert (e.value.file, e.value.template_line, e.value.line) == ("oobjit.asc", tl, tl + 2)
    assert f"at oobjit.asc:{tl} (template line; line {tl + 2} of the rendered source)" in str(e.value)
