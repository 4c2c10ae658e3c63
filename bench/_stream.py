"""The STREAM-style add in C (bench/stream_add.c), compiled once per source
version with `cc -O3 -march=native -fopenmp` into build/bench/ and called
through ctypes.  `stream_add(x, y, z, threads, reps)` returns seconds per run;
`staged_add(x, y, z, threads, tile, reps)` the same add staged through
tile buffers in C, as the add kernel moves its data."""
import ctypes
import hashlib
import os
import shutil
import subprocess

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, "stream_add.c")
_lib = None


def _load():
    global _lib
    if _lib is None:
        with open(SRC, "rb") as f:
            tag = hashlib.sha256(f.read()).hexdigest()[:16]
        out_dir = os.path.join(os.path.dirname(HERE), "build", "bench")
        so = os.path.join(out_dir, "stream_add-%s.so" % tag)
        if not os.path.exists(so):
            os.makedirs(out_dir, exist_ok=True)
            cc = os.environ.get("CC") or shutil.which("cc") or "gcc"
            tmp = "%s.%d.tmp" % (so, os.getpid())
            subprocess.run([cc, "-O3", "-march=native", "-fopenmp", "-shared", "-fPIC", SRC, "-o", tmp], check=True)
            os.replace(tmp, so)  # atomic: parallel test runs may build it too
        lib = ctypes.CDLL(so)
        fp = ctypes.POINTER(ctypes.c_float)
        lib.stream_add_times.argtypes = [fp, fp, fp, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_double)]
        lib.stream_add_times.restype = None
        lib.staged_add_times.argtypes = [fp, fp, fp, ctypes.c_size_t, ctypes.c_int, ctypes.c_size_t, ctypes.c_int,
                                         ctypes.POINTER(ctypes.c_double)]
        lib.staged_add_times.restype = None
        _lib = lib
    return _lib


def stream_add(x, y, z, threads=1, reps=5):
    """Seconds per run of z = x + y (float32, contiguous), one per rep."""
    lib = _load()
    assert x.dtype == y.dtype == z.dtype == np.float32 and x.size == y.size == z.size
    times = (ctypes.c_double * reps)()
    fp = ctypes.POINTER(ctypes.c_float)
    lib.stream_add_times(x.ctypes.data_as(fp), y.ctypes.data_as(fp), z.ctypes.data_as(fp), x.size, threads, reps,
                         times)
    return list(times)


def staged_add(x, y, z, threads=1, tile=4096, reps=5):
    """Seconds per run of z = x + y staged through `tile`-float buffers."""
    lib = _load()
    assert x.dtype == y.dtype == z.dtype == np.float32 and x.size == y.size == z.size
    times = (ctypes.c_double * reps)()
    fp = ctypes.POINTER(ctypes.c_float)
    lib.staged_add_times(x.ctypes.data_as(fp), y.ctypes.data_as(fp), z.ctypes.data_as(fp), x.size, threads, tile,
                         reps, times)
    if not all(times):
        raise MemoryError("staged_add: no memory for the tile buffers")
    return list(times)
