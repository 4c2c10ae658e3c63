"""What @ascendrtc.jit costs at each level of its cache, for the seed's add
kernel (float32, 8 cores), all in one run against an empty cache directory:

  cold compile   first call ever: render, key, compile, store, load, launch
  disk hit       first call of a fresh kernel object (as in a new process):
                 render, key, read + verify the entry, load, launch
  memory hit     a warm call, enqueue only (the queue drains between batches)
  bare launch    kernel[8](x, y, z) on the same kernel, same protocol

and the jit's own dispatch cost isolated from the launch: the warm call
with the launch replaced by a no-op C call, against that C call alone.
Target: a memory hit costs under 2 us more than the bare launch.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]
import ascendrtc as arc  # noqa: E402
from helpers.acl import SEED_KERNEL  # noqa: E402  (the seed article's add kernel)


def make_kernel():
    @arc.jit(block_dim=8, origin="bench.vadd")
    def vadd(x, y, z):
        return SEED_KERNEL.replace("8 * 32;", f"{x.size};")
    return vadd


def timed_first_call(n):
    """Seconds of the first call of a fresh jit kernel (render .. launch .. sync)."""
    x = np.arange(n, dtype=np.float32)
    dx, dy, dz = arc.to_device(x), arc.to_device(x), arc.empty_like(x)
    k = make_kernel()
    t0 = time.perf_counter()
    k(dx, dy, dz)
    arc.synchronize()
    dt = time.perf_counter() - t0
    assert np.array_equal(dz.get(), x + x)
    return dt, k


def enqueue_per_call(fn, n, reps):
    """Median and min seconds per enqueue, batches of n, queue drained between."""
    times = []
    for _ in range(reps):
        arc.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n)
    arc.synchronize()
    return statistics.median(times), min(times)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=200, help="calls per batch")
    ap.add_argument("--reps", type=int, default=15, help="batches")
    a = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as d:
        os.environ["ASCENDRTC_CACHE_DIR"] = d
        os.environ.pop("ASCENDRTC_CACHE", None)
        arc.Program(SEED_KERNEL, "warm.asc").compile()      # load the compiler first: not part of a cold compile
        cold = [timed_first_call(256 * (i + 1))[0] for i in range(3)]       # three distinct keys, cache empty
        disk = [timed_first_call(256 * (i + 1))[0] for i in range(3) for _ in range(3)]  # same keys, on disk
        _, vadd = timed_first_call(256)
        x = np.arange(256, dtype=np.float32)
        dx, dy, dz = arc.to_device(x), arc.to_device(x), arc.empty_like(x)
        vadd(dx, dy, dz)
        vadd(dx, dy, dz)
        (variant,) = vadd._variants.values()
        bare = variant.kernel[8]

        # Interleave the two so drift affects both alike.
        mem, raw = [], []
        for _ in range(a.reps):
            mem.append(enqueue_per_call(lambda: vadd(dx, dy, dz), a.n, 1)[0])
            raw.append(enqueue_per_call(lambda: bare(dx, dy, dz), a.n, 1)[0])
        assert vadd.stats()["compiles"] == 0 and np.array_equal(dz.get(), x + x)

        # The dispatch alone: swap the variant's launch for a no-op C call.
        noop = arc._C.noop
        (fast_key,) = vadd._fast.keys()
        vadd._fast[fast_key] = noop
        disp, floor = [], []
        for _ in range(a.reps):
            disp.append(enqueue_per_call(lambda: vadd(dx, dy, dz), a.n * 10, 1)[0])
            floor.append(enqueue_per_call(lambda: noop(dx, dy, dz), a.n * 10, 1)[0])

    med = statistics.median
    rows = [
        ("cold compile (first call)", med(cold), min(cold)),
        ("disk hit (fresh kernel object)", med(disk), min(disk)),
        ("memory hit: vadd(x, y, z)", med(mem), min(mem)),
        ("bare launch: kernel[8](x, y, z)", med(raw), min(raw)),
        ("jit dispatch, no-op launch", med(disp), min(disp)),
        ("no-op C call alone", med(floor), min(floor)),
    ]
    bare_us = med(raw) * 1e6
    print(f"ascendrtc jit cache levels ({arc.get_backend()['backend']} backend, seed add kernel, float32, 8 cores)")
    print(f"{'what':34s} {'median':>12s} {'min':>12s} {'x bare launch':>14s}")
    for name, m, mn in rows:
        unit = (lambda s: f"{s * 1e3:9.2f} ms") if m > 1e-3 else (lambda s: f"{s * 1e6:9.2f} us")
        print(f"{name:34s} {unit(m):>12s} {unit(mn):>12s} {m * 1e6 / bare_us:14.2f}")
    over = (med(mem) - med(raw)) * 1e6
    dispatch = (med(disp) - med(floor)) * 1e6
    print(f"memory hit over bare launch: {over:.2f} us; jit dispatch alone: {dispatch:.2f} us")
    print(f"target: under 2 us over the bare launch -> {'met' if max(over, dispatch) < 2 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
