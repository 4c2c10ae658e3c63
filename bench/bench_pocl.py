"""Launch overhead through PyOpenCL on PoCL (a CPU OpenCL runtime that also
compiles kernel strings at run time): an empty kernel with three buffers on
8 work-groups, next to the same floor as bench_launch (a no-op C call from
Python, ascendrtc's _C.noop) and ascendrtc's own launch, all in one run.

Rows (seconds per call, median of batches):
  enqueue        kernel(queue, (8,), (1,), a, b, c): sets the three args and
                 enqueues, timed without waiting (as bench_launch's row)
  enqueue+finish the same followed by queue.finish()
  ascendrtc vs PoCL  ascendrtc's k[8](x, y, z) against PoCL's enqueue
Without PyOpenCL/PoCL installed (`make bench` installs them) the rows say
"PoCL unavailable".
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import ascendrtc as arc  # noqa: E402
from _pocl import context, unavailable_row  # noqa: E402
from bench_launch import SRC, per_call  # noqa: E402

CL_EMPTY = "__kernel void empty3(__global float *x, __global float *y, __global float *z) {}\n"


def measure(n, reps):
    """{row: [seconds per call]}, or None when PoCL is unavailable."""
    cl, ctx, q = context()
    x, y, z = (arc.empty(1024, np.float32) for _ in range(3))
    noop = arc._C.noop
    out = {"floor": per_call(lambda: noop(x, y, z), n, reps)}
    k = arc.Program(SRC, "empty.asc").compile().load().get_kernel("empty3")
    launch8 = k[8]
    if cl is None:
        return out

    kcl = cl.Kernel(cl.Program(ctx, CL_EMPTY).build(), "empty3")
    a, b, c = (cl.Buffer(ctx, cl.mem_flags.READ_WRITE, 4096) for _ in range(3))

    def enqueue(fn, drain):
        times = []
        for _ in range(reps):
            drain()
            times.extend(per_call(fn, n, 1))
        drain()
        return times

    out["arc"] = enqueue(lambda: launch8(x, y, z), arc.synchronize)
    out["cl"] = enqueue(lambda: kcl(q, (8,), (1,), a, b, c), q.finish)

    def cl_finish():
        kcl(q, (8,), (1,), a, b, c)
        q.finish()
    out["cl+finish"] = per_call(cl_finish, max(n // 10, 10), reps)
    return out


def rows(quick=False):
    """Rows for bench/run.py."""
    m = measure(n=300 if quick else 2000, reps=3 if quick else 7)
    what = "PyOpenCL launch k(q,(8,),(1,),a,b,c): empty kernel, 3 buffers, 8 work-groups"
    if "cl" not in m:
        return [unavailable_row(what, context()[1])]
    return [
        ("PyOpenCL/PoCL launch k(q,(8,),(1,),a,b,c): empty kernel, 3 buffers, 8 work-groups", m["cl"],
         "no-op C call", m["floor"], None),
        ("PyOpenCL/PoCL launch + queue.finish (empty kernel, 8 work-groups)", m["cl+finish"], "no-op C call",
         m["floor"], None),
        ("ascendrtc launch k[8](x,y,z) vs PyOpenCL/PoCL launch", m["arc"], "PyOpenCL/PoCL launch", m["cl"], None),
    ]


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    from run import print_rows
    print_rows(rows())
