"""ASCENDRTC_SPIN_US: the stream worker, core threads and synchronizers poll
for a while before they block (csrc/rt/cores/spin.c).  Results must not depend
on it: launches on two streams, events and host threads give the same
answers with spinning off, default and long."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SCRIPT = r'''
import threading, numpy as np, ascendrtc as arc
src = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR z, float s, int32_t n)
{
    const int32_t b = AscendC::GetBlockIdx(), per = n / AscendC::GetBlockNum();
    for (int32_t i = b * per; i < (b + 1) * per; i++)
        ((__gm__ float *)z)[i] = s * ((__gm__ float *)x)[i];
}
"""
N = 12288  # a multiple of every block count used
k = arc.Program(src, "scale.asc").compile().load().get_kernel("scale")
x = arc.to_device(np.arange(N, dtype=np.float32))
s1, s2 = arc.Stream(), arc.Stream()

errors = []

def work(stream, seed):
    try:
        run(stream, seed)
    except Exception as e:  # a thread's exception would not fail the process
        errors.append(repr(e))

def run(stream, seed):
    for r in range(200):
        z = arc.zeros(N, np.float32)
        blocks = (1, 2, 8, 48)[r % 4] if r % 5 else 4
        k[blocks, stream](x, z, float(seed + r), N)
        if r % 7 == 0:
            ev = arc.Event(); ev.record(stream or arc.default_stream()); ev.synchronize()
        (stream or arc).synchronize()
        assert np.array_equal(z.get(), np.arange(N, dtype=np.float32) * (seed + r)), (seed, r)

ts = [threading.Thread(target=work, args=(s, i * 1000)) for i, s in enumerate((s1, s2, None))]
for t in ts: t.start()
for t in ts: t.join()
print("ok" if not errors else errors)
'''


@pytest.mark.parametrize("spin_us", ["0", "", "2000"], ids=["off", "default", "long"])
def test_results_do_not_depend_on_spinning(spin_us):
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env["ASCENDRTC_SPIN_US"] = spin_us
    r = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr[-3000:]
