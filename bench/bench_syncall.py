"""What SyncAll costs: examples/kernels/reduce_min.asc (every block reduces
1024 floats, SyncAll, block 0 folds the partials) against the same source
with its SyncAll() call removed, launched the same way, interleaved in one
run.  Without the barrier the kernel runs on a few threads taking blocks
from a counter; with it every block must be live at once (fibers in
csrc/rt/cores/core_fibers.c; ASCENDRTC_FIBERS=0 gives the old thread per block).
The no-barrier kernel's answer is not checked (block 0 may fold partials
not yet written: a GM race between cores, which the race check rejects, so
both kernels run with race_check="off"); the barrier kernel's is, against
numpy.min.
Target: 48 blocks with SyncAll cost at most 3x the same work without it."""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]
import ascendrtc as arc  # noqa: E402
from bench_device_add import interleaved  # noqa: E402

KERNEL = os.path.join(os.path.dirname(HERE), "examples", "kernels", "reduce_min.asc")


def kernels():
    with open(KERNEL) as f:
        src = f.read()
    bare = src.replace("    SyncAll();\n", "")
    assert bare != src, "reduce_min.asc no longer calls SyncAll() on a line of its own"
    opts = ["--npu-arch=dav-2201"]
    return (arc.Program(src, "reduce_min.asc").compile(opts).load().get_kernel("reduce_min"),
            arc.Program(bare, "reduce_min_nosync.asc").compile(opts).load().get_kernel("reduce_min"))


def measure(blocks_list, reps, min_batch_s):
    sync, bare = kernels()
    fns, check = {}, []
    for blocks in blocks_list:
        xh = np.random.default_rng(blocks).standard_normal(1024 * blocks).astype(np.float32)
        x, ws = arc.to_device(xh), arc.zeros(64, np.float32)
        for name, k in (("sync", sync), ("bare", bare)):
            z = arc.zeros(8, np.float32)

            def run(k=k, z=z, x=x, ws=ws, blocks=blocks):
                z._fill_zero()  # the kernel adds its answer onto z
                k(x, z, ws, block_dim=blocks, race_check="off")
                arc.synchronize()
            fns[(name, blocks)] = run
            if name == "sync":
                check.append((run, z, xh))
    for run, z, xh in check:
        run()
        assert z.get()[0] == xh.min()
    return interleaved(fns, reps, min_batch_s)


def rows(quick=False):
    """For bench/run.py: (name, times, baseline name, baseline times, target ratio)."""
    blocks_list = (48,) if quick else (8, 48)
    m = measure(blocks_list, 3 if quick else 9, 0.02 if quick else 0.05)
    return [("SyncAll: reduce_min kernel, %d blocks" % b, m[("sync", b)], "the same kernel without SyncAll",
             m[("bare", b)], 3.0 if b == 48 else None) for b in blocks_list]


if __name__ == "__main__":
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
