"""What the pipe race check costs: the same launches with the check on
(error mode; warn costs the same) and off, interleaved in one run.

  add      bench_device_add's tiled, double-buffered add (queues), 8 blocks,
           1 MiB per input
  softmax  examples/kernels/softmax.asc, 8 blocks (64 rows of 64 floats)
Target: the check slows these by at most 1.5x (then it may stay on by default)."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]
import ascendrtc as arc  # noqa: E402
from bench_device_add import compile_add, interleaved  # noqa: E402
from bench_softmax import load  # noqa: E402


def measure(reps=9, min_batch_s=0.05):
    out = {}
    n = (1 << 20) // 4
    rng = np.random.default_rng(1)
    xh, yh = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    x, y, z = arc.to_device(xh), arc.to_device(yh), arc.zeros(n, np.float32)
    add = compile_add().get_kernel("add_ub")
    sm = load("softmax")
    sx = arc.to_device(rng.random(8 * 8 * 64, dtype=np.float32))
    sy = arc.zeros(8 * 8 * 64, np.float32)

    def launcher(k, args, mode):
        def run():
            k(*args, block_dim=8, race_check=mode)
            arc.synchronize()
        return run
    fns = {}
    for mode in ("error", "off"):
        fns[("add", mode)] = launcher(add, (x, y, z, np.uint64(n)), mode)
        fns[("softmax", mode)] = launcher(sm, (sx, sy), mode)
    for fn in fns.values():
        fn()
    assert np.array_equal(z.get(), xh + yh)
    got = interleaved(fns, reps, min_batch_s)
    for (name, mode), ts in got.items():
        out.setdefault(name, {})[mode] = ts
    return out


def rows(quick=False):
    """For bench/run.py: (name, times, baseline name, baseline times, target ratio)."""
    m = measure(3 if quick else 9, 0.02 if quick else 0.05)
    return [("race check on: add kernel 1 MiB/input, 8 blocks", m["add"]["error"], "race check off", m["add"]["off"], 1.5),
            ("race check on: softmax kernel, 8 blocks", m["softmax"]["error"], "race check off", m["softmax"]["off"], 1.5)]


if __name__ == "__main__":
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
