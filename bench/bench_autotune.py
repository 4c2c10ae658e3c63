"""The autotuner's parallelism (ascendrtc.autotune): 64 configurations of the
guide's add_tiles kernel (8 block counts x 4 tiles x single/double
buffering) tuned across one worker process per core, against one
configuration's time (the mean of the same profiled launches evaluated one
after another here) x configs / cores.  Target: at most 1.2x (issue 30 item 5)."""
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]
import ascendrtc as arc  # noqa: E402
from ascendrtc import _autotune  # noqa: E402

ADD_TILES = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void add_tiles(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n, uint32_t tile,
                                                uint32_t bufs) {
    uint32_t len = n / GetBlockNum(), off = GetBlockIdx() * len;
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + off, len);
    yg.SetGlobalBuffer((__gm__ float *)y + off, len);
    zg.SetGlobalBuffer((__gm__ float *)z + off, len);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, bufs, tile * sizeof(float));
    pipe.InitBuffer(qy, bufs, tile * sizeof(float));
    pipe.InitBuffer(qz, bufs, tile * sizeof(float));
    for (uint32_t i = 0; i < len / tile; i++) {
        LocalTensor<float> a = qx.AllocTensor<float>(), b = qy.AllocTensor<float>();
        DataCopy(a, xg[i * tile], tile);
        DataCopy(b, yg[i * tile], tile);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<float>();
        b = qy.DeQue<float>();
        LocalTensor<float> c = qz.AllocTensor<float>();
        Add(c, a, b, tile);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<float>();
        DataCopy(zg[i * tile], c, tile);
        qz.FreeTensor(c);
    }
}
"""
CONFIGS = [{"blocks": b, "tile": t, "bufs": u} for b in (4, 6, 8, 12, 16, 24, 32, 48)
           for t in (256, 512, 1024, 2048) for u in (1, 2)]


def measure(reps=3, configs=CONFIGS):
    """Times of the first tuning (its worker processes start), of later
    tunings (the session's pool is kept), and one config's time x configs /
    cores, each rep."""
    from ascendrtc import _autotune_pool
    k = arc.Program(ADD_TILES, "add_tiles.asc").compile().load().get_kernel("add_tiles")
    n = 48 * 4 * 2048
    rng = np.random.default_rng(0)
    x, y, z = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.zeros(n, np.float32)
    binary, name = arc._program.kernel_origin(k)
    cores = os.cpu_count() or 1

    def tune_once():
        tuned = arc.autotune(configs=configs, processes=cores)(k)
        t = time.perf_counter()
        tuned.tune(8, x, y, z, n)
        dt = time.perf_counter() - t
        assert all(tr.status == "ok" for tr in tuned.trials), tuned.table()
        return dt

    one, cold, warm = [], [], []
    for _ in range(reps):
        t = time.perf_counter()
        for c in configs:  # one config's time: the mean over all of them, evaluated here
            _autotune._evaluate(binary, name, c["blocks"], [x, y, z, n, c["tile"], c["bufs"]], None)
        one.append((time.perf_counter() - t) / cores)
        _autotune_pool.close_pool()
        cold.append(tune_once())
        warm.append(tune_once())
    return cold, warm, one, cores


def rows(quick=False):
    """For bench/run.py: (name, times, baseline name, baseline times, target ratio)."""
    configs = CONFIGS[::4] if quick else CONFIGS  # --quick (the suite's smoke run): 16 of them
    cold, warm, one, cores = measure(1 if quick else 3, configs)
    return [(f"autotune: {len(configs)} configs of add_tiles on {cores} worker processes (pool kept)", warm,
             "one config's time x configs / cores", one, 1.2),
            (f"autotune: the same, first tuning of the session (workers start)", cold,
             "one config's time x configs / cores", one, None)]


if __name__ == "__main__":
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
