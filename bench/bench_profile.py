"""What profiling costs (ascendrtc.profile, the cost model of csrc/rt/analysis/cost.c):
the same launch with and without a profiling session, interleaved in one run.

  add  bench_device_add's tiled, double-buffered add (queues), 8 blocks,
       1 MiB per input; "on" is the whole session: the launch priced, the
       device synchronised, the report read into Python.
Outside a session a launch pays one flag load (bench_launch's rows)."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]
import ascendrtc as arc  # noqa: E402
from bench_device_add import compile_add, interleaved  # noqa: E402


def measure(reps=9, min_batch_s=0.05):
    n = (1 << 20) // 4
    rng = np.random.default_rng(1)
    xh, yh = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x, y, z = arc.to_device(xh), arc.to_device(yh), arc.zeros(n, np.float32)
    add = compile_add().get_kernel("add_ub")

    def off():
        add(x, y, z, np.uint64(n), block_dim=8)
        arc.synchronize()

    def on():
        with arc.profile() as prof:
            add(x, y, z, np.uint64(n), block_dim=8)
        assert prof.launches[0].time_us > 0

    fns = {"on": on, "off": off}
    for fn in fns.values():
        fn()
    assert np.array_equal(z.get(), xh + yh)
    return interleaved(fns, reps, min_batch_s)


def rows(quick=False):
    """For bench/run.py: (name, times, baseline name, baseline times, target ratio)."""
    m = measure(3 if quick else 9, 0.02 if quick else 0.05)
    return [("profiling on: add kernel 1 MiB/input, 8 blocks (report included)", m["on"], "no session", m["off"],
             None)]


if __name__ == "__main__":
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
