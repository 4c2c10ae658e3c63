"""SIMT thread loops reach the loop vectoriser in a form it takes
(rtc/simt_guard.cpp): the copy of an `if (i < n)` thread loop without its
bounds checks has its dead exits folded away, so it vectorises.  Before
that fold the vectoriser saw a loop of several exits ("could not determine
number of loop iterations") and the vector add ran scalar.  The IR is read
through ASCENDRTC_RTC_DUMP_IR (rtc/timing.h), the values against NumPy.
A stage that does not vectorise keeps its thread loop whole: not unrolled
by a run-time count, which repeated the whole stage for the code generator
(compile time) to save a branch per thread."""
import os
import re
import sys

import numpy as np

import ascendrtc as arc

sys.path.insert(0, os.path.dirname(__file__))
from helpers.simt_kernels import BLOCK_SUM, VADD  # noqa: E402

OPTS = ["--npu-arch=dav-3510", "--enable-simt", "-O2"]

SRC = VADD


def run_functions(ll):
    """{name: body} of the SIMT run functions in a textual module."""
    out = {}
    for m in re.finditer(r"^define [^@]*@(__arc_simt_run_\w+)\(.*?^}", ll, re.S | re.M):
        out[m.group(1)] = m.group(0)
    return out


def test_vector_add_thread_loop_vectorises(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RTC_DUMP_IR", str(tmp_path / "vadd"))
    b = arc.Program(SRC, "vadd.asc").compile(OPTS, cache=False)
    pre = (tmp_path / "vadd.pre.ll").read_text()
    final = (tmp_path / "vadd.ll").read_text()
    assert "__arc_simt_run_0_0" in run_functions(pre)
    body = run_functions(final)["__arc_simt_run_0_0"]
    assert re.search(r"fadd <\d+ x float>", body), "the vector add's thread loop did not vectorise"
    monkeypatch.delenv("ASCENDRTC_RTC_DUMP_IR")
    k = b.load().get_kernel("vadd")
    n = 5000  # a partial last block: the checked copy runs there
    x, y = np.arange(n, dtype=np.float32), np.full(n, 0.5, np.float32)
    z = np.zeros(n, np.float32)
    k[(n + 1023) // 1024, 1024](x, y, z, n)
    np.testing.assert_array_equal(z, x + y)


def test_scalar_stage_thread_loop_not_unrolled(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RTC_DUMP_IR", str(tmp_path / "bsum"))
    b = arc.Program(BLOCK_SUM, "bsum.asc").compile(OPTS, cache=False)
    final = run_functions((tmp_path / "bsum.ll").read_text())
    # stage 1: every thread adds the first shuffle's value (v += ...) and
    # asks for the next; one thread loop, one add (unrolled by 2 it had 3:
    # two in the unrolled body, one in the remainder)
    body = final["__arc_simt_run_0_1"]
    assert len(re.findall(r"= fadd float ", body)) == 1, body
    monkeypatch.delenv("ASCENDRTC_RTC_DUMP_IR")
    k = b.load().get_kernel("block_sum")
    n = 3 * 1024 + 77
    x = (np.arange(n) % 7).astype(np.float32)
    out = np.zeros(2, np.float32)
    k[2, 1024](x, out, n)
    assert float(out.astype(np.float64).sum()) == float(x.astype(np.float64).sum())
