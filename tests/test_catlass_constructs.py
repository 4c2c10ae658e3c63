"""Constructs CATLASS's kernels and host code use, on their own: event_t's
ids named through the type, ICachePreLoad / icache_preload (a hint, its
length checked against the ICache), a TPipe copied with the struct that
holds it, and op::fp16_t arithmetic rounded to half after each operation
as CANN's fp16_t does (its header bringing <algorithm> and <cmath>, as CANN's),
a template kernel marked by a macro launched bare (its argument deduced) (tests/cc_programs/catlass_constructs.asc, checked
against NumPy's float16)."""
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.skipif(shutil.which("clang++-19") is None and shutil.which("clang++") is None,
                    reason="the host part is linked with clang++")
def test_catlass_constructs_program(tmp_path):
    exe = tmp_path / "constructs"
    env = dict(os.environ, PYTHONPATH=ROOT, ASCENDRTC_CACHE_DIR=str(tmp_path / "cache"))
    r = subprocess.run([sys.executable, "-m", "ascendrtc", "cc",
                        os.path.join(ROOT, "tests", "cc_programs", "catlass_constructs.asc"), "-o", str(exe),
                        "--npu-arch=dav-2201"], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    out = subprocess.run([str(exe)], capture_output=True, text=True, timeout=300).stdout
    assert "kernel rc 0 mismatches 0" in out and "roots 1 2 3" in out and "fill rc 0 7.5 8.5" in out, out
    h = np.float16
    for b in range(-8, 8):
        v = h(h(h(b) + h(0.1)) * h(1.5))               # two roundings, not one
        q = h(h(h(b) / h(3.0)) - h(0.3))
        want = "fp16 %d %04x %04x" % (b, v.view(np.uint16), q.view(np.uint16))
        assert want in out, (want, out)


SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void prefetch(GM_ADDR x, int32_t len)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    AscendC::ICachePreLoad(len);
    ((__gm__ int32_t *)x)[AscendC::GetBlockIdx()] = len;
}
'''


def test_icache_preload_length_is_checked():
    k = dev.load(SRC, "prefetch.cpp").get_kernel("prefetch")
    x = np.zeros(2, np.int32)
    with pytest.raises(arc.LaunchError, match=re.escape("AscendC::ICachePreLoad: preFetchLen 8 (2 KiB units) must "
                                                        "be below 8: the AIV's ICache is 16 KiB")):
        k[1](x, 8)
        arc.synchronize()
    k[2](x, 7)
    arc.synchronize()
    assert list(x) == [7, 7]
