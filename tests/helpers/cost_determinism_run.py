"""Profiles a few launches and prints their estimates as JSON, for
tests/test_cost_determinism.py, which runs it under different host thread
counts and loads: a Matmul-API matmul (blocks share A and B lines), blocks
re-reading one array in rows shorter than an L2 line, a SyncAll kernel, and
more vector blocks than the SoC has cores."""
import json
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import ascendrtc as arc  # noqa: E402
from helpers.cost_kernels import OPS, inputs, profiled_matmul_api, tuned_kernel  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

ROWS_SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Every block reads rows of 40 floats (160 B) from x, `stride` floats apart
// and starting at an offset of its own, so blocks share L2 lines partly.
extern "C" __global__ __aicore__ void rows(GM_ADDR x, GM_ADDR z, uint32_t nrows, uint32_t stride)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 8, nrows * stride);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 64, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> a, acc;
    pipe.InitBuffer(a, 64 * sizeof(float));
    pipe.InitBuffer(acc, 64 * sizeof(float));
    LocalTensor<float> t = a.Get<float>(), s = acc.Get<float>();
    Duplicate(s, 0.0f, 64);
    Duplicate(t, 0.0f, 64);
    for (uint32_t i = 0; i < nrows; i++) {
        PipeBarrier<PIPE_ALL>();
        DataCopyPad(t, xg[i * stride], DataCopyExtParams{1, 40 * 4, 0, 0, 0},
                    DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
        PipeBarrier<PIPE_ALL>();
        Add(s, s, t, 64);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, s, 64);
}
'''


def estimates():
    out = {}
    src = open(os.path.join(HERE, "..", "..", "examples", "kernels", "matmul_api.asc")).read()
    mm = arc.Program(src, "matmul_api.asc").compile().load().get_kernel("matmul_api")
    out["matmul_api"] = profiled_matmul_api(mm)[0]

    rows = arc.Program(ROWS_SRC, "rows.asc").compile().load().get_kernel("rows")
    x = np.arange(300 * 72, dtype=np.float32)
    z = np.zeros(16 * 64, np.float32)
    with arc.profile() as prof:
        rows[16](x, z, 290, 72)
    out["rows"] = prof[0]

    from test_cost_model import PHASED_SRC
    ph = arc.Program(PHASED_SRC, "phased.asc").compile().load().get_kernel("phased")
    x = np.arange(8 * 4 * 1024, dtype=np.float32)
    z = np.zeros_like(x)
    with arc.profile() as prof:
        ph[8](x, z, 3, 1024)
    out["phased"] = prof[0]

    k = tuned_kernel()
    total = 96 * 4 * 1024
    x, y = inputs(total, "add")
    z = np.zeros_like(x)
    with arc.profile() as prof:
        k[96](x, y, z, total, 1024, 2, 0, OPS["add"])
    out["waves"] = prof[0]
    return {n: [repr(r.time_us), repr(r.cycles), r.hbm_bytes, r.gm_read_bytes, r.gm_write_bytes]
            for n, r in out.items()}


if __name__ == "__main__":
    runs = [estimates() for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 1)]
    print(json.dumps(runs))
