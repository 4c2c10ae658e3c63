"""Device API: PopStackBuffer (arc/pipe.h) hands out all of a position's
memory the TPipe has not: it starts where the last InitBuffer ended and
runs to the end of the UB (L1 for A1/B1/C1), takes none of it, and is
usable as an ordinary tensor."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

UB = {"dav-2201": 192 * 1024, "dav-3510": 256 * 1024}  # common/socs.h
T = [("x", np.float32, 64), ("o", np.int64, 8)]  # 256 + 64 bytes of the pipe's buffer


@pytest.mark.parametrize("arch", ["dav-2201", "dav-3510"])
def test_pop_stack_buffer_is_the_rest_of_the_ub(arch):
    body = ("LocalTensor<float> st; bool ok = PopStackBuffer<float, TPosition::LCM>(st);"
            "o.SetValue(0, ok ? 1 : 0); o.SetValue(1, st.GetSize());"
            "o.SetValue(2, (int64_t)((uint8_t *)st.GetPhyAddr() - (uint8_t *)x.GetPhyAddr()));"
            "Adds(st, x, 1.0f, 64); Muls(x, st, 2.0f, 64);"
            "LocalTensor<half> h; PopStackBuffer<half, TPosition::VECIN>(h); o.SetValue(3, h.GetSize());")
    m = dev.program([dev.ub_kernel("pop", T, body)], options=("--npu-arch=%s" % arch,))
    x, o = dev.run(m, "pop", T, [np.arange(64, dtype=np.float32), np.zeros(8, np.int64)])
    used = 256 + 64  # x's 64 floats, then o's 8 int64s: the TPipe's one buffer
    assert o[0] == 1 and o[2] == used  # it starts where the pipe's buffers end
    assert o[1] == (UB[arch] - used) // 4 and o[3] == (UB[arch] - used) // 2  # to the end of the UB
    np.testing.assert_array_equal(x, (np.arange(64) + 1) * 2)


def test_a_position_off_ub_and_l1_is_refused():
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("pop_co1", T, "LocalTensor<float> s; PopStackBuffer<float, TPosition::CO1>(s);")])
    assert "AscendC::PopStackBuffer: a UB (VECIN/VECOUT/VECCALC/LCM) or L1 (A1/B1/C1) position" in ei.value.log
