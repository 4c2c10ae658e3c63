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
    """Median seconds per call of fn() over `reps` batches of `n` calls."""
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n)
    return statistics.median(times), min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=2000, help="calls per batch")
    ap.add_argument("--reps", type=int, default=7, help="batches")
    a = ap.parse_args(argv)

    k = arc.Program(SRC, "empty.asc").compile().load().get_kernel("empty3")
    x, y, z = (arc.empty(1024, np.float32) for _ in range(3))
    launch8 = k[8]
    noop = arc._C.noop

    rows = []
    rows.append(("noop C call (floor)", *per_call(lambda: noop(x, y, z), a.n, a.reps)))
    rows.append(("pack only", *per_call(lambda: k._pack(x, y, z), a.n, a.reps)))

    def enqueue_batch():
        for _ in range(a.n):
            launch8(x, y, z)

    # Enqueue time: time the loop only; drain the queue between batches.
    enq = []
    for _ in range(a.reps):
        arc.synchronize()
        t0 = time.perf_counter()
        enqueue_batch()
        enq.append((time.perf_counter() - t0) / a.n)
    arc.synchronize()
    rows.append(("launch enqueue k[8](x,y,z)", statistics.median(enq), min(enq)))

    enq_sub = []
    for _ in range(a.reps):
        arc.synchronize()
        t0 = time.perf_counter()
        for _ in range(a.n):
            k[8](x, y, z)
        enq_sub.append((time.perf_counter() - t0) / a.n)
    arc.synchronize()
    rows.append(("launch enqueue incl. k[8]", statistics.median(enq_sub), min(enq_sub)))

    def launch_sync():
        launch8(x, y, z)
        arc.synchronize()
    rows.append(("launch + synchronize", *per_call(launch_sync, max(a.n // 10, 10), a.reps)))

    floor = rows[0][1]
    print(f"ascendrtc launch overhead ({arc.get_backend()['backend']} backend, {a.n} calls x {a.reps} batches)")
    print(f"{'what':30s} {'median us':>10s} {'min us':>8s} {'over floor':>11s}")
    for name, med, mn in rows:
        print(f"{name:30s} {med * 1e6:10.2f} {mn * 1e6:8.2f} {(med - floor) * 1e6:11.2f}")
    target = rows[2][1] * 1e6
    print(f"target: launch enqueue < 5 us -> {'met' if target < 5 else 'NOT met'} ({target:.2f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
