"""Device API: the CTRL register (arc/ctrl.h): SetCtrlSpr / GetCtrlSpr /
ResetCtrlSpr and AscendCUtils::SetOverflow read back as SetCtrlSpr's page
defines the bits; the atomic bits 6-10 are the DMA atomic mode the copies
honour (SetAtomicAdd<T> sets them, SetCtrlSpr switches the mode); a half
result computed in the saturation mode (CTRL[48] = 0), which the simulator
does not model, is refused; a bit the arch lacks is refused at compile
time."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

BITS = [("o", np.int64, 8)]


def run_bits(body, arch="dav-2201"):
    m = dev.program([dev.ub_kernel("k", BITS, body)], options=("--npu-arch=%s" % arch,))
    return dev.run(m, "k", BITS, [np.zeros(8, np.int64)])[0]


def test_bit48_reads_back_and_resets_to_its_default():
    """A launch starts non-saturating (CTRL[48] = 1: the simulator keeps
    inf/NaN); the documented reset value is 0; SetOverflow writes bit 48."""
    o = run_bits("o.SetValue(0, GetCtrlSpr<48, 48>());"
                 "ResetCtrlSpr<48, 48>(); o.SetValue(1, GetCtrlSpr<48, 48>());"
                 "AscendCUtils::SetOverflow(1); o.SetValue(2, GetCtrlSpr<48, 48>());"
                 "SetCtrlSpr<48, 48>(0); o.SetValue(3, GetCtrlSpr<48, 48>());"
                 "SetCtrlSpr<48, 48>(1); o.SetValue(4, GetCtrlSpr<0, 63>() >> 48 & 1);")
    assert o[:5].tolist() == [1, 0, 1, 0, 1]


def test_dav3510_bits_and_the_atomic_mode():
    """SetAtomicAdd<half> is CTRL[8:6] = 2 (half), CTRL[10:9] = 0 (add);
    SetAtomicMax<float> 1 and 1; SetAtomicNone clears them; bit 60 resets to 1."""
    o = run_bits("SetAtomicAdd<half>(); o.SetValue(0, GetCtrlSpr<6, 8>()); o.SetValue(1, GetCtrlSpr<9, 10>());"
                 "SetAtomicMax<float>(); o.SetValue(2, GetCtrlSpr<6, 8>() * 10 + GetCtrlSpr<9, 10>());"
                 "SetAtomicNone(); o.SetValue(3, GetCtrlSpr<6, 10>());"
                 "SetCtrlSpr<60, 60>(0); o.SetValue(4, GetCtrlSpr<60, 60>());"
                 "ResetCtrlSpr<59, 60>(); o.SetValue(5, GetCtrlSpr<59, 60>());", arch="dav-3510")
    assert o[:6].tolist() == [2, 0, 11, 0, 0, 2]


ATOMIC_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void acc(GM_ADDR x, GM_ADDR z)
{
    using namespace AscendC;
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, 64);
    gz.SetGlobalBuffer((__gm__ float *)z, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, 64);
    PipeBarrier<PIPE_ALL>();
    SetCtrlSpr<6, 10>(MODE);  /* CTRL[8:6] = 1 (float), CTRL[10:9] = op */
    DataCopy(gz, t, 64);
    PipeBarrier<PIPE_ALL>();
    SetCtrlSpr<6, 8>(0);
}
'''


@pytest.mark.parametrize("mode,want", [(1, lambda x, z: x + z), (1 | 1 << 3, np.maximum), (1 | 2 << 3, np.minimum),
                                       (0, lambda x, z: x)])
def test_set_ctrl_spr_atomic_bits_switch_the_copy_mode(mode, want):
    m = arc.Program(ATOMIC_SRC.replace("MODE", str(mode)), "acc.asc").compile(["--npu-arch=dav-3510"]).load()
    x = np.arange(64, dtype=np.float32) - 20
    z = np.full(64, 5, np.float32)
    m.get_kernel("acc")[1](x, z)  # host arrays come back after the launch
    arc.synchronize()
    np.testing.assert_array_equal(z, want(x, np.full(64, 5, np.float32)))


def test_a_half_result_in_saturation_mode_is_refused():
    t = [("x", np.float16, 16), ("z", np.float16, 16)]
    m = dev.program([dev.ub_kernel("sat", t, "AscendCUtils::SetOverflow(0); Adds(z, x, (half)1.0f, 16);"),
                     dev.ub_kernel("nosat", t, "AscendCUtils::SetOverflow(0); AscendCUtils::SetOverflow(1);"
                                               "Adds(z, x, (half)1.0f, 16);"),
                     dev.ub_kernel("sat_float", [("x", np.float32, 16), ("z", np.float32, 16)],
                                   "AscendCUtils::SetOverflow(0); Adds(z, x, 1.0f, 16);")])
    with pytest.raises(arc.LaunchError, match=r"AscendC::Adds: dst: a half result in the saturation mode "
                                              r"\(CTRL\[48\] = 0: inf -> \+-MAX, NaN -> 0\) is not simulated"):
        dev.run(m, "sat", t, [np.zeros(16, np.float16), np.zeros(16, np.float16)])
    x = np.array([np.inf, 1, 2] + [0] * 13, np.float16)
    z = dev.run(m, "nosat", t, [x, np.zeros(16, np.float16)])[1]
    assert np.isinf(z[0]) and z[1] == 2  # non-saturating: inf stays inf
    f = dev.run(m, "sat_float", [("x", np.float32, 16), ("z", np.float32, 16)],
                [np.ones(16, np.float32), np.zeros(16, np.float32)])[1]
    assert (f == 2).all()  # CTRL[48] covers half (and bfloat16_t) results only


@pytest.mark.parametrize("body,msg", [
    ("SetCtrlSpr<45, 45>(1);", "a CTRL bit this arch does not support"),
    ("ResetCtrlSpr<60, 60>();", "a CTRL bit this arch does not support"),
    ("(void)GetCtrlSpr<50, 40>();", "0 <= startBit <= endBit <= 63"),
])
def test_bad_bits_are_refused_at_compile_time(body, msg):
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("bad", BITS, body)])
    assert msg in ei.value.log


def test_a_value_wider_than_the_field_stops_the_kernel():
    with pytest.raises(arc.LaunchError, match=r"AscendC::SetCtrlSpr: value 2 does not fit CTRL\[48:48\]"):
        run_bits("SetCtrlSpr<48, 48>(2);")
