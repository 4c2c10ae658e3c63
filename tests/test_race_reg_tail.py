"""The race check and dav-3510's whole-register loads.  A Reg LoadAlign reads
all VL (256) bytes whatever lanes the kernel then uses, so the last load of
a tile whose length is not a multiple of VL runs into the next buffer --
which MTE2 may be filling.  On the NPU those lanes are masked off and the
result is right (asc-devkit's gelu_eltwise_high_performance does this), so
the race on them counts only when a store or a reduction uses them, both
ways: MTE2 filling the next tile before the load (read after write) or
after it (write after read, the asc-devkit example's case).  With the
tail's predicate the kernel runs and computes NumPy's values; with a full
predicate the race is reported, naming the copy, the load and (read after
write) the store; a load whose first bytes race is reported at the load.
A masked store likewise touches only the bytes up to its last active
element: MTE3 may be copying out the buffer after its tile."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers.source_tags import tagged_line

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;

// o = 2 x over n floats, 64 a register; wide: every predicate full (a bug past n).
__simd_vf__ inline void twice(__ubuf__ float *o, __ubuf__ float *x, uint32_t n, uint32_t wide)
{
    Reg::RegTensor<float> a, d;
    for (uint32_t i = 0; i < (n + 63) / 64; i++) {
        uint32_t left = wide ? 64 : n - i * 64;
        Reg::MaskReg m = Reg::UpdateMask<float>(left);
        Reg::LoadAlign(a, x + i * 64);                                      // LOAD
        Reg::Muls(d, a, 2.0f, m);
        Reg::StoreAlign(o + i * 64, d, m);                                  // STORE
    }
}

// Tiles of 96 floats (384 bytes): ping at UB 0, pong right after it; out
// at 1024 and out2 right after it.  Modes 0-2 fill pong before the VF, 3-4
// after it, 5-6 copy out2 out while the VF stores to out; 1, 4, 6 are wide.
__global__ __vector__ void tail(GM_ADDR x, GM_ADDR out, uint32_t mode)
{
    AscendC::InitSocState();
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048);
    LocalTensor<float> ping = buf.GetWithOffset<float>(96, 0), pong = buf.GetWithOffset<float>(96, 384),
                       o = buf.GetWithOffset<float>(96, 1024), o2 = buf.GetWithOffset<float>(96, 1408);
    GlobalTensor<float> gx, go;
    gx.SetGlobalBuffer((__gm__ float *)x, 192);
    go.SetGlobalBuffer((__gm__ float *)out, 192);
    DataCopy(ping, gx, 96);
    DataCopy(o2, gx[96], 96);
    SetFlag<HardEvent::MTE2_V>(0);
    WaitFlag<HardEvent::MTE2_V>(0);
    SetFlag<HardEvent::MTE2_MTE3>(0);
    WaitFlag<HardEvent::MTE2_MTE3>(0);
    if (mode < 3) DataCopy(pong, gx[96], 96);                               // FILL
    if (mode >= 5) DataCopy(go[96], o2, 96);                                // DRAIN
    __ubuf__ float *src = (__ubuf__ float *)(mode == 2 ? pong : ping).GetPhyAddr();
    asc_vf_call<twice>((__ubuf__ float *)o.GetPhyAddr(), src, 96u, mode == 1 || mode == 4 || mode == 6 ? 1u : 0u);
    if (mode == 3 || mode == 4) DataCopy(pong, gx[96], 96);                 // REFILL
    SetFlag<HardEvent::MTE2_V>(1);
    WaitFlag<HardEvent::MTE2_V>(1);
    SetFlag<HardEvent::V_MTE3>(0);
    WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(go, o, 96);
}
"""


@pytest.fixture(scope="module")
def tail():
    return arc.Program(SRC, "tail.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("tail")


def run(tail, mode):
    x = np.random.default_rng(mode).uniform(-2, 2, 192).astype(np.float32)
    out = np.zeros(192, np.float32)
    tail[1](x, out, mode)
    arc.synchronize()
    return x, out[:96]


def at(tag):
    return r"tail\.asc:%d\b" % tagged_line(SRC, tag)


@pytest.mark.parametrize("mode", [0, 3, 5])
def test_a_tail_load_past_its_tile_runs_when_the_raced_lanes_are_masked_off(tail, mode):
    x, out = run(tail, mode)
    np.testing.assert_array_equal(out, 2 * x[:96])


def test_raced_lanes_a_store_uses_are_reported_there(tail):
    with pytest.raises(arc.LaunchError) as e:
        run(tail, 1)
    msg = str(e.value)
    assert "data race (read after write) on UB" in msg, msg
    assert re.search(r"DataCopy \(PIPE_MTE2 at " + at("FILL"), msg), msg
    assert re.search(r"AscendC::Reg::LoadAlign \(PIPE_V at " + at("LOAD") + r"\) reads", msg), msg
    assert re.search(r"the register's lanes from byte 128 on, which raced, are used by AscendC::Reg::StoreAlign "
                     r"at " + at("STORE"), msg), msg
    x, out = run(tail, 0)                                                  # a good launch after
    np.testing.assert_array_equal(out, 2 * x[:96])


def test_a_load_whose_first_bytes_race_is_reported_at_the_load(tail):
    with pytest.raises(arc.LaunchError) as e:
        run(tail, 2)
    msg = str(e.value)
    assert re.search(r"AscendC::Reg::LoadAlign \(PIPE_V at " + at("LOAD") + r"\) reads", msg), msg
    assert "which raced, are used by" not in msg, msg


def test_raced_lanes_a_store_used_are_reported_at_a_later_write(tail):
    with pytest.raises(arc.LaunchError) as e:
        run(tail, 4)
    msg = str(e.value)
    assert "data race (write after read) on UB" in msg, msg
    assert re.search(r"AscendC::Reg::LoadAlign \(PIPE_V at " + at("LOAD") + r"\) read \[256, 512\)", msg), msg
    assert re.search(r"DataCopy \(PIPE_MTE2 at " + at("REFILL") + r"\) writes", msg), msg


def test_a_masked_store_races_only_as_far_as_its_predicate(tail):
    with pytest.raises(arc.LaunchError) as e:                              # mode 5 (above) passes
        run(tail, 6)
    msg = str(e.value)
    assert "data race (write after read) on UB" in msg, msg
    assert re.search(r"DataCopy \(PIPE_MTE3 at " + at("DRAIN") + r"\) read \[1408, 1792\)", msg), msg
    assert re.search(r"AscendC::Reg::StoreAlign \(PIPE_V at " + at("STORE") + r"\) reads and writes "
                     r"\[1408, 1536\)", msg), msg
