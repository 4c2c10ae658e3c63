"""The race check sees the outputs an advanced API writes besides dst
(SoftMax's sum and max, LayerNorm's mean and variance, Concat's concat,
the reductions' results):
each is written on PIPE_V, so copying it out on PIPE_MTE3 with no V -> MTE3
wait is a race naming both lines; the synced twin runs clean and computes
what NumPy does; every case is followed by a clean launch."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

N, OUT = 256, 64   # floats in and out per block

# x (8 rows of 32) -> UB; CALL writes OUTT on V; OUTT -> GM on MTE3 after SYNC.
KERNEL = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 64, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 1024 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>(), y = a[256], s = a[512], m = a[576];
    LocalTensor<float> g = a[640], b = a[672];
    DataCopy(a, xg, 256);
    SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
    Duplicate(g, 1.0f, 32);
    Duplicate(b, 0.0f, 32);
    Duplicate(s, 0.0f, 128);
    CALL
    SYNC
    DataCopy(zg, OUTT, 64);
}
'''
SOFTMAX = "SoftMaxTiling tl{}; SoftMax<float>(y, s, m, a, tl, SoftMaxShapeInfo{8, 32, 8, 32});"
LAYERNORM = ("LayerNormTiling tl{}; tl.bLength = 1; tl.sLength = 8; tl.hLength = 32; tl.originalHLength = 32; "
             "LayerNorm<float>(y, s, m, a, g, b, 1e-5f, tl);")
CONCAT = "LocalTensor<float> t = a[768]; Concat(y, a, t, 4);"


def rows(x):
    return x.reshape(-1, 8, 32).astype(np.float64)


def sm_sum(x):
    r = rows(x)
    return np.exp(r - r.max(-1, keepdims=True)).sum(-1)


def per_block_rows(v):         # (blocks, 8) -> each row's value 8 times (the 32-byte stats layout)
    return np.repeat(v, 8, axis=-1)


CASES = {   # id: (call, tensor copied out, api, what the block's 64 outputs hold, how many to compare)
    "softmax-sum": (SOFTMAX, "s", "AscendC::SoftMax", lambda x: per_block_rows(sm_sum(x)), 64),
    "softmax-max": (SOFTMAX, "m", "AscendC::SoftMax", lambda x: per_block_rows(rows(x).max(-1)), 64),
    "layernorm-mean": (LAYERNORM, "s", "AscendC::LayerNorm", lambda x: rows(x).mean(-1), 8),
    "layernorm-variance": (LAYERNORM, "m", "AscendC::LayerNorm", lambda x: rows(x).var(-1), 8),
    "concat": (CONCAT, "y", "AscendC::Concat", lambda x: x.reshape(-1, N)[:, :OUT], 64),
    # the reductions' results (basic API, same gap: dst was not reported at all)
    "reducesum": ("ReduceSum<float>(s, a, y, 256);", "s", "AscendC::ReduceSum",
                  lambda x: x.reshape(-1, N).astype(np.float64).sum(-1, keepdims=True), 1),
    "wholereducesum": ("WholeReduceSum<float>(s, a, 32, 8, 1, 1, 4);", "s", "AscendC::WholeReduceSum",
                       lambda x: rows(x).sum(-1), 8),
    "wholereducemax": ("WholeReduceMax<float>(s, a, 32, 8, 1, 1, 4);", "s", "AscendC::WholeReduceMax",
                       lambda x: np.stack([rows(x).max(-1), np.full((len(x) // N, 8), 31 * 2 ** -149)], -1)
                       .reshape(-1, 16), 16),
    "brcb": ("Brcb(y, a, 1, BrcbRepeatParams(1, 8));", "y", "AscendC::Brcb",
             lambda x: np.repeat(x.reshape(-1, N)[:, :8], 8, axis=-1), 64),
}


def src(case, sync):
    call, outt = CASES[case][:2]
    sync = "SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);" if sync else ""
    return KERNEL.replace("CALL", call).replace("SYNC", sync).replace("OUTT", outt)


def build(text):
    return dev.load(text, "race.asc").get_kernel("k")


def at(text, needle):
    return "race.asc:%d" % next(i for i, ln in enumerate(text.splitlines(), 1) if needle in ln)


def run(kern, blocks=2):
    x = np.arange(blocks * N, dtype=np.float32) * 0.01
    z = np.zeros(blocks * OUT, np.float32)
    kern(x, z, block_dim=blocks)
    arc.synchronize()
    return x, z.reshape(blocks, OUT)


@pytest.fixture(autouse=True)
def error_mode(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    yield
    x, z = run(build(src("concat", True)))   # a clean launch after every case
    np.testing.assert_array_equal(z, x.reshape(-1, N)[:, :OUT])


@pytest.mark.parametrize("case", list(CASES))
def test_output_copied_out_without_v_to_mte3_wait(case):
    text = src(case, False)
    api = CASES[case][2]
    with pytest.raises(arc.LaunchError) as e:
        run(build(text))
    msg = str(e.value)
    for w in ("data race", "read after write", "V_MTE3",
              f"{api} (PIPE_V at {at(text, api.split('::')[1])}) wrote",
              f"AscendC::DataCopy (PIPE_MTE3 at {at(text, 'DataCopy(zg')}) reads"):
        assert w in msg, (w, msg)


@pytest.mark.parametrize("case", list(CASES))
def test_output_synced_runs_clean(case):
    want, n = CASES[case][3], CASES[case][4]
    x, z = run(build(src(case, True)))
    np.testing.assert_allclose(z[:, :n], want(x)[:, :n], rtol=2e-5, atol=1e-5)
