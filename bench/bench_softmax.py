"""A softmax and a reduction kernel against NumPy, in one run.

  softmax     examples/kernels/softmax.asc: rows of 64 floats, 8 rows per
              block (so the row count sets the block count), vs a NumPy
              row softmax (max, subtract, exp, sum, divide; preallocated)
  reduce_min  examples/kernels/reduce_min.asc: 1024 floats per block, every
              block reduces its slice, SyncAll, block 0 folds the partials,
              vs numpy.min
Each ascendrtc sample is one launch + synchronize on resident device arrays;
results are checked against NumPy before timing.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, HERE)
import ascendrtc as arc  # noqa: E402
from bench_device_add import sample  # noqa: E402

KDIR = os.path.join(ROOT, "examples", "kernels")


def load(name):
    with open(os.path.join(KDIR, name + ".asc")) as f:
        return arc.Program(f.read(), name + ".asc").compile(["--npu-arch=dav-2201"]).load().get_kernel(name)


def np_softmax(x, buf):
    np.subtract(x, x.max(1, keepdims=True), out=buf)
    np.exp(buf, out=buf)
    buf /= buf.sum(1, keepdims=True)
    return buf


def softmax_times(k, blocks, reps, min_batch):
    rows_ = 8 * blocks
    xh = np.random.default_rng(blocks).standard_normal((rows_, 64)).astype(np.float32)
    buf = np.empty_like(xh)
    x, y = arc.to_device(xh), arc.zeros((rows_, 64), np.float32)
    launch = k[blocks]

    def run():
        launch(x, y)
        arc.synchronize()
    run()
    assert np.allclose(y.get(), np_softmax(xh, buf), rtol=1e-5, atol=1e-7)
    return sample(run, reps, min_batch), sample(lambda: np_softmax(xh, buf), reps, min_batch)


def reduce_min_times(k, blocks, reps, min_batch):
    xh = np.random.default_rng(blocks).standard_normal(1024 * blocks).astype(np.float32)
    x, z, ws = arc.to_device(xh), arc.zeros(8, np.float32), arc.zeros(64, np.float32)
    launch = k[blocks]

    def run():
        z._fill_zero()          # the kernel adds its answer onto z
        launch(x, z, ws)
        arc.synchronize()
    run()
    assert z.get()[0] == xh.min()
    return sample(run, reps, min_batch), sample(lambda: xh.min(), reps, min_batch)


def rows(quick=False):
    """Rows for bench/run.py."""
    reps, min_batch = (3, 0.002) if quick else (7, 0.02)
    out = []
    sm = load("softmax")
    for blocks in ((48,) if quick else (8, 48, 1024)):
        a, b = softmax_times(sm, blocks, reps, min_batch)
        out.append(("softmax kernel %dx64 floats (%d blocks)" % (8 * blocks, blocks), a, "NumPy softmax", b, None))
    rm = load("reduce_min")
    for blocks in ((8,) if quick else (8, 48)):
        a, b = reduce_min_times(rm, blocks, reps, min_batch)
        out.append(("reduce_min kernel %d floats (%d blocks, SyncAll)" % (1024 * blocks, blocks), a, "numpy.min", b,
                    None))
    return out


if __name__ == "__main__":
    from run import print_rows
    print_rows(rows("--quick" in sys.argv))
