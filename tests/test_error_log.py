"""ASCEND_SLOG_PRINT_TO_STDOUT=1 (CANN's variable for its log on the
screen): every runtime error is also printed on stdout, so a host program
whose error checks print only the code (CATLASS's ACL_CHECK) still shows
why a launch failed; unset, nothing is printed."""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROG = r'''
import numpy as np, ascendrtc as arc
src = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void odd(GM_ADDR x)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 256);
    GlobalTensor<float> g; g.SetGlobalBuffer((__gm__ float *)x);
    DataCopy(b.Get<float>(), g, 3);
}
"""
k = arc.Program(src, "odd.cpp").compile(["--npu-arch=dav-2201"]).load().get_kernel("odd")
try:
    k[1](np.zeros(8, np.float32)); arc.synchronize()
except arc.LaunchError:
    print("raised")
'''


def run(env_value):
    env = dict(os.environ, PYTHONPATH=ROOT)
    env.pop("ASCEND_SLOG_PRINT_TO_STDOUT", None)
    if env_value is not None:
        env["ASCEND_SLOG_PRINT_TO_STDOUT"] = env_value
    p = subprocess.run([sys.executable, "-c", PROG], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, timeout=300)
    return p.stdout


def test_errors_are_printed_on_stdout_when_asked():
    out = run("1")
    lines = [ln for ln in out.splitlines() if ln.startswith("[ERROR] ascendrtc: ")]
    assert any("odd block 0/1: AscendC::DataCopy: count 3 x 4 bytes = 12 bytes is not a multiple of 32" in ln
               for ln in lines), out
    assert "raised" in out


def test_nothing_is_printed_otherwise():
    for v in (None, "0"):
        out = run(v)
        assert "[ERROR]" not in out and "raised" in out, out
