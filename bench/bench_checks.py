"""What the reliability checks cost: GM bounds checks (every device-API GM
access is checked against its allocation) and guard pages, on vs off
(ASCENDRTC_GM_CHECKS=0, read at start-up, so "off" runs in a child process).

Rows: a scalar GetValue/SetValue loop (the worst case: one check per
element) and a DataCopy tile loop (one check per tile), 8 blocks each,
plus device-array allocation (mmap + guard page vs malloc)."""
import json
import os
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # a source checkout
import ascendrtc as arc  # noqa: E402

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scalar_rw(GM_ADDR x, int32_t n)
{
    GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)x + GetBlockIdx() * n, n);
    for (int32_t i = 0; i < n; i++) g.SetValue(i, g.GetValue(i) + 1);
}
extern "C" __global__ __aicore__ void tiles(GM_ADDR x, GM_ADDR y, int32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * n, n);
    gy.SetGlobalBuffer((__gm__ float *)y + GetBlockIdx() * n, n);
    for (int32_t i = 0; i < n; i += 256) {   // the barriers order the copies as an NPU needs
        DataCopy(t, gx[i], 256); PipeBarrier<PIPE_ALL>(); DataCopy(gy[i], t, 256); PipeBarrier<PIPE_ALL>();
    }
}
'''


def measure(reps):
    mod = arc.Program(SRC, "checks.asc").compile().load()
    n_scalar, n_tiles = 1 << 16, 1 << 17
    x = arc.zeros(8 * n_tiles, np.int32)
    xf, yf = arc.zeros(8 * n_tiles, np.float32), arc.zeros(8 * n_tiles, np.float32)
    out = {}

    def timed(fn):
        fn()
        arc.synchronize()
        ts = []
        for _ in range(reps):
            t0 = time.perf_counter()
            fn()
            arc.synchronize()
            ts.append(time.perf_counter() - t0)
        return ts

    out["scalar"] = timed(lambda: mod.get_kernel("scalar_rw")[8](x, n_scalar))
    out["tiles"] = timed(lambda: mod.get_kernel("tiles")[8](xf, yf, n_tiles))
    out["alloc"] = timed(lambda: [arc.empty(1024, np.float32) for _ in range(200)])
    return out


def _child(reps):
    env = dict(os.environ, ASCENDRTC_GM_CHECKS="0")
    r = subprocess.run([sys.executable, os.path.abspath(__file__), "--json", str(reps)], env=env,
                       capture_output=True, text=True, timeout=600)
    return json.loads(r.stdout.strip().splitlines()[-1])


def rows(quick=False):
    reps = 3 if quick else 9
    on, off = measure(reps), _child(reps)
    return [
        ("GM checks on: 8 blocks x 65,536 scalar GetValue+SetValue", on["scalar"], "checks off", off["scalar"], None),
        ("GM checks on: 8 blocks x 512 DataCopy tiles in+out (1 KiB)", on["tiles"], "checks off", off["tiles"], None),
        ("guard pages on: 200 x arc.empty(1024 floats)", on["alloc"], "off (malloc)", off["alloc"], None),
    ]


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--json":
        print(json.dumps(measure(int(sys.argv[2]))))
    else:
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        from run import print_rows
        print_rows(rows(quick="--quick" in sys.argv))
