"""The benchmark command runs end to end in quick mode, so it cannot rot.
(No timing is asserted: speed targets live in BENCHMARKS.md.)"""
import os
import subprocess
import sys

from helpers.acl import ROOT


def test_bench_quick_runs_every_benchmark():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "run.py"), "--quick"], capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    table = out.stdout
    for row in ("compile seed add -O2, in process", "launch k[8](x,y,z)", "jit memory hit",
                "RSS after 150 kernels", "PyOpenCL", "add kernel 64 KiB/input, 48 blocks", "numpy.add(out=) 1 KiB",
                "STREAM add in C", "blocks that scale: add 64 KiB/input on 48 blocks vs 2 blocks",
                "softmax kernel", "reduce_min kernel"):
        assert row in table, row
    # every row printed a value, or said why its optional peer is missing
    for line in table.splitlines()[2:]:
        assert "| n/a |" not in line or "PoCL unavailable" in line, line
        assert "nan" not in line, line
