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
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_launch import enqueue_times  # noqa: E402


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


def measure(n=200, reps=15, quick=False):
    """Seconds per event of each level, as lists (one entry per batch or call)."""
    if quick:
        n, reps = 100, 5
    out = {}
    old_dir, old_mode = os.environ.get("ASCENDRTC_CACHE_DIR"), os.environ.pop("ASCENDRTC_CACHE", None)
    with tempfile.TemporaryDirectory() as d:
        os.environ["ASCENDRTC_CACHE_DIR"] = d
        try:
            arc.Program(SEED_KERNEL, "warm.asc").compile()   # load the compiler first: not part of a cold compile
            sizes = [256 * (i + 1) for i in range(3 if quick else 5)]
            bare = []
            for i, size in enumerate(sizes):                 # the compiler alone, distinct sources
                t0 = time.perf_counter()
                arc.Program(SEED_KERNEL.replace("8 * 32;", f"{size}; // bare {i}"), "add_custom.asc").compile()
                bare.append(time.perf_counter() - t0)
            out["compile"] = bare
            out["cold"] = [timed_first_call(size)[0] for size in sizes]            # distinct keys, cache empty
            out["disk"] = [timed_first_call(size)[0] for size in sizes for _ in range(2)]   # same keys, on disk
            _, vadd = timed_first_call(256)
            x = np.arange(256, dtype=np.float32)
            dx, dy, dz = arc.to_device(x), arc.to_device(x), arc.empty_like(x)
            vadd(dx, dy, dz)
            vadd(dx, dy, dz)
            (variant,) = vadd._variants.values()
            bare_launch = variant.kernel[8]
            # Interleave the two so drift affects both alike.
            out["mem"], out["raw"] = [], []
            for _ in range(reps):
                out["mem"].append(enqueue_times(lambda: vadd(dx, dy, dz), n, 1)[0])
                out["raw"].append(enqueue_times(lambda: bare_launch(dx, dy, dz), n, 1)[0])
            assert vadd.stats()["compiles"] == 0 and np.array_equal(dz.get(), x + x)
            # The dispatch alone: swap the variant's launch for a no-op C call.
            noop = arc._C.noop
            (fast_key,) = vadd._fast.keys()
            vadd._fast[fast_key] = noop
            out["disp"], out["floor"] = [], []
            for _ in range(reps):
                out["disp"].append(enqueue_times(lambda: vadd(dx, dy, dz), n * 10, 1)[0])
                out["floor"].append(enqueue_times(lambda: noop(dx, dy, dz), n * 10, 1)[0])
        finally:
            if old_dir is None:
                os.environ.pop("ASCENDRTC_CACHE_DIR", None)
            else:
                os.environ["ASCENDRTC_CACHE_DIR"] = old_dir
            if old_mode is not None:
                os.environ["ASCENDRTC_CACHE"] = old_mode
    return out


def rows(quick=False):
    """For bench/run.py: (name, times, baseline name, baseline times, target ratio)."""
    m = measure(quick=quick)
    med = statistics.median
    return [
        ("jit cold compile (first call, seed add)", m["cold"], "Program.compile alone", m["compile"], 1.25),
        ("jit disk hit (fresh kernel object)", m["disk"], "jit cold compile", m["cold"], 0.1),
        # "under 2 us over the bare launch", as a ratio of this run's bare launch
        ("jit memory hit vadd(x, y, z)", m["mem"], "bare launch kernel[8](x, y, z)", m["raw"],
         round(1 + 2e-6 / med(m["raw"]), 2)),
        ("jit dispatch, no-op launch", m["disp"], "no-op C call", m["floor"], round(1 + 2e-6 / med(m["floor"]), 2)),
    ]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=200, help="calls per batch")
    ap.add_argument("--reps", type=int, default=15, help="batches")
    a = ap.parse_args(argv)
    m = measure(a.n, a.reps)
    med = statistics.median
    rows_ = [
        ("Program.compile alone", m["compile"]),
        ("cold compile (first call)", m["cold"]),
        ("disk hit (fresh kernel object)", m["disk"]),
        ("memory hit: vadd(x, y, z)", m["mem"]),
        ("bare launch: kernel[8](x, y, z)", m["raw"]),
        ("jit dispatch, no-op launch", m["disp"]),
        ("no-op C call alone", m["floor"]),
    ]
    bare_us = med(m["raw"]) * 1e6
    print(f"ascendrtc jit cache levels ({arc.get_backend()['backend']} backend, seed add kernel, float32, 8 cores)")
    print(f"{'what':34s} {'median':>12s} {'min':>12s} {'x bare launch':>14s}")
    for name, t in rows_:
        unit = (lambda s: f"{s * 1e3:9.2f} ms") if med(t) > 1e-3 else (lambda s: f"{s * 1e6:9.2f} us")
        print(f"{name:34s} {unit(med(t)):>12s} {unit(min(t)):>12s} {med(t) * 1e6 / bare_us:14.2f}")
    over = (med(m["mem"]) - med(m["raw"])) * 1e6
    dispatch = (med(m["disp"]) - med(m["floor"])) * 1e6
    print(f"memory hit over bare launch: {over:.2f} us; jit dispatch alone: {dispatch:.2f} us")
    print(f"target: under 2 us over the bare launch -> {'met' if max(over, dispatch) < 2 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
