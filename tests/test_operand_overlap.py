"""Undefined operand overlap is an error (issue 30 item 4): a vector API's
destination that partially overlaps a source, where the docs forbid it
(the SIMD API's general rule, 通用地址重叠约束: within a 256-byte repeat 100%
or no overlap, and no repeat reading what an earlier one wrote; an API page
saying "不支持源操作数与目的操作数地址重叠": no overlap, tolerated only in
place, as CANN's own operators call Floor, Sign and Log), stops the
kernel naming the API, both operands' UB byte ranges and the kernel line,
and the next launch works.  What the rule allows (the same bytes, the
destination a whole repeat or more before the source, Trunc's documented
in-place use) computes what NumPy says.  One family per case: binary,
unary, scalar, level-0, and the advanced math API (the issue's Sigmoid)."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers.source_tags import tagged_line

N = 256
SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr int32_t N = 256;
extern "C" __global__ __aicore__ void ovl(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t mode)
{
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x, 2 * N);
    yg.SetGlobalBuffer((__gm__ float *)y, N);
    zg.SetGlobalBuffer((__gm__ float *)z, 3 * N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * N * sizeof(float));
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> a = all[0], b = all[2 * N], c = all[3 * N];   // a: 2N elements, b and c: N
    DataCopy(a, xg, 2 * N);
    DataCopy(b, yg, N);
    PipeBarrier<PIPE_ALL>();
    switch (mode) {
    case 0: Add(c, a, b, N); break;                                   // GOOD
    case 1: Add(a[8], a, b, N); break;                                // BINARY
    case 2: Add(a, a[64], b, N); break;                               // SHIFTED
    case 3: Add(a, a, b, N); break;                                   // INPLACE
    case 4: Exp(a[8], a, N); break;                                   // UNARY
    case 5: Adds(a[16], a, 1.0f, N); break;                           // SCALAR
    case 6: Add(a[8], a, b, 64, 4, {1, 1, 1, 8, 8, 8}); break;        // LEVEL0
    case 7: Sigmoid(a[16], a, N); break;                              // SIGMOID
    case 8: Sigmoid(a, a[64], N); break;                              // SIGMOID_AHEAD
    case 12: Sigmoid(a, a, N); break;                                 // SIGMOID_INPLACE
    case 9: Trunc(a, a, N); break;                                    // TRUNC_INPLACE
    case 10: Add(a[64], a, b, N); break;                              // LATER
    case 11: Sigmoid(c, a, N); break;                                 // SIGMOID_GOOD
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, a, 2 * N);
    DataCopy(zg[2 * N], c, N);
}
'''


def line_of(tag):
    return tagged_line(SRC, tag)


@pytest.fixture(scope="module")
def ovl():
    return arc.Program(SRC, "ovl.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("ovl")


def run(ovl, mode):
    rng = np.random.default_rng(mode)
    x = rng.uniform(0.5, 2.5, 2 * N).astype(np.float32)
    y = rng.uniform(-1, 1, N).astype(np.float32)
    z = np.zeros(3 * N, np.float32)
    ovl[1](x, y, z, mode)
    arc.synchronize()
    return x, y, z[:2 * N], z[2 * N:]


def good(ovl):
    x, y, a, c = run(ovl, 0)
    np.testing.assert_array_equal(c, x[:N] + y)


F = 4   # bytes per float
BAD = {
    # tag: (mode, API, dst bytes, which source, source bytes, rule)
    "BINARY": (1, "Add", (8 * F, (8 + N) * F), "src0", (0, N * F), "the documented rule"),
    "UNARY": (4, "Exp", (8 * F, (8 + N) * F), "src", (0, N * F), "the documented rule"),
    "SCALAR": (5, "Adds", (16 * F, (16 + N) * F), "src", (0, N * F), "the documented rule"),
    "LEVEL0": (6, "Add", (8 * F, (8 + N) * F), "src0", (0, N * F), "the documented rule"),
    "LATER": (10, "Add", (64 * F, (64 + N) * F), "src0", (0, N * F), "the documented rule"),
    "SIGMOID": (7, "Sigmoid", (16 * F, (16 + N) * F), "src", (0, N * F), "its documentation"),
    "SIGMOID_AHEAD": (8, "Sigmoid", (0, N * F), "src", (64 * F, (64 + N) * F), "its documentation"),
}


@pytest.mark.parametrize("tag", list(BAD))
def test_undefined_overlap_names_both_ranges_and_the_line(ovl, tag):
    mode, api, (d0, d1), which, (s0, s1), rule = BAD[tag]
    with pytest.raises(arc.LaunchError) as e:
        run(ovl, mode)
    msg = str(e.value)
    assert (f"AscendC::{api}: dst (UB bytes {d0}..{d1}) overlaps {which} (UB bytes {s0}..{s1}), which {rule} "
            f"does not allow") in msg, msg
    assert re.search(r"ovl\.asc:%d\b" % line_of(tag), msg), msg
    good(ovl)


def test_overlap_the_rule_allows_computes_numpy(ovl):
    x, y, a, _ = run(ovl, 3)                          # the same bytes
    np.testing.assert_array_equal(a[:N], x[:N] + y)
    x, y, a, _ = run(ovl, 2)                          # dst a whole repeat (64 floats) before src0
    np.testing.assert_array_equal(a[:N], x[64:64 + N] + y)
    x, y, a, _ = run(ovl, 9)                          # Trunc's page allows in place
    np.testing.assert_array_equal(a[:N], np.trunc(x[:N]))
    x, y, a, _ = run(ovl, 12)                         # no-overlap APIs in place: tolerated (CANN's ops do it)
    np.testing.assert_allclose(a[:N], 1 / (1 + np.exp(-x[:N].astype(np.float64))), rtol=1e-5)
    x, y, _, c = run(ovl, 11)
    np.testing.assert_allclose(c, 1 / (1 + np.exp(-x[:N].astype(np.float64))), rtol=1e-5)
