"""Host launch overhead of ascendrtc: an empty kernel with three device-array
arguments on 8 blocks, next to floors measured in the same run.

Prints a table of microseconds per call (median of repeated batches):
  noop C call     -- _C.noop(x, y, z): the cost of any C call from Python
  pack only       -- argument checking and packing, no launch
  launch enqueue  -- kernel[8](x, y, z), timed without waiting for the cores
  launch + sync   -- per-launch time including execution, for reference
Target: launch enqueue under 5 us.
"""
import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))  # a source checkout
import ascendrtc as arc  # noqa: E402

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void empty3(GM_ADDR x, GM_ADDR y, GM_ADDR z) {}
'''


def per_call(fn, n, reps):
    """Seconds per call of fn(), one value per batch of `n` calls."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n)
    return times


def enqueue_times(fn, n, reps):
    """Seconds per enqueue for `reps` batches of `n` calls: the loop alone is
    timed, and the queue is drained between batches."""
    times = []
    for _ in range(reps):
        arc.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n)
    arc.synchronize()
    return times


def measure(n=2000, reps=7):
    """{row name: [seconds per call, one per batch]} for every row."""
    k = arc.Program(SRC, "empty.asc").compile().load().get_kernel("empty3")
    x, y, z = (arc.empty(1024, np.float32) for _ in range(3))
    launch8 = k[8]
    noop = arc._C.noop
    out = {"noop C call (floor)": per_call(lambda: noop(x, y, z), n, reps),
           "pack only": per_call(lambda: k._pack(x, y, z), n, reps)}

    out["launch enqueue k[8](x,y,z)"] = enqueue_times(lambda: launch8(x, y, z), n, reps)
    out["launch enqueue incl. k[8]"] = enqueue_times(lambda: k[8](x, y, z), n, reps)

    def launch_sync():
        launch8(x, y, z)
        arc.synchronize()
    out["launch + synchronize"] = per_call(launch_sync, max(n // 10, 10), reps)
    return out


TARGET_S = 5e-6


def rows(quick=False):
    """Rows for bench/run.py: (name, times, baseline, baseline times, target ratio)."""
    m = measure(n=300 if quick else 2000, reps=3 if quick else 7)
    floor = m["noop C call (floor)"]
    # The 5 us target, expressed against the floor measured in this run.
    target = TARGET_S / statistics.median(floor)
    return [
        ("launch k[8](x,y,z): empty kernel, 3 device arrays, 8 blocks (target < 5 us)",
         m["launch enqueue k[8](x,y,z)"], "no-op C call", floor, target),
        ("argument check + pack only (3 device arrays)", m["pack only"], "no-op C call", floor, None),
        ("launch + device synchronize (empty kernel, 8 blocks)", m["launch + synchronize"], "no-op C call", floor,
         None),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=2000, help="calls per batch")
    ap.add_argument("--reps", type=int, default=7, help="batches")
    a = ap.parse_args(argv)
    m = measure(a.n, a.reps)
    floor = statistics.median(m["noop C call (floor)"])
    print(f"ascendrtc launch overhead ({arc.get_backend()['backend']} backend, {a.n} calls x {a.reps} batches)")
    print(f"{'what':30s} {'median us':>10s} {'min us':>8s} {'over floor':>11s}")
    for name, times in m.items():
        med = statistics.median(times)
        print(f"{name:30s} {med * 1e6:10.2f} {min(times) * 1e6:8.2f} {(med - floor) * 1e6:11.2f}")
    launch = statistics.median(m["launch enqueue k[8](x,y,z)"])
    print(f"target: launch enqueue < 5 us -> {'met' if launch < TARGET_S else 'NOT met'} ({launch * 1e6:.2f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
