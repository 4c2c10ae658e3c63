"""Undefined operand overlap in level-0 calls with strided operands (issue
30 item 4).  The SIMD API's general rule (通用地址重叠约束, for the
high-dimension split calls): within a repeat a source and the destination
overlap 100% or not at all, and no repeat reads what an earlier repeat
wrote -- except src1 of Add/Sub/Mul/Max/Min/AddRelu/SubRelu on
half/int32_t/float when src1's or dst's repeat stride is 0 (an
accumulation).  A breach stops the kernel naming the API, the repeat, the
UB bytes and the line; what the rule allows computes what a NumPy model of
the repeats says.  (Contiguous runs: tests/test_operand_overlap.py.)"""
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
extern "C" __global__ __aicore__ void ovs(GM_ADDR x, GM_ADDR y, GM_ADDR z, int32_t mode)
{
    GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x, 2 * N);
    yg.SetGlobalBuffer((__gm__ float *)y, N);
    zg.SetGlobalBuffer((__gm__ float *)z, 3 * N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * N * sizeof(float));
    LocalTensor<float> all = buf.Get<float>();
    LocalTensor<float> a = all[0], b = all[2 * N], c = all[3 * N];
    DataCopy(a, xg, 2 * N);
    DataCopy(b, yg, N);
    DataCopy(c, yg, N);
    PipeBarrier<PIPE_ALL>();
    switch (mode) {
    case 0: Add(a, a, b, 64, 2, {1, 1, 1, 8, 4, 8}); break;             // CROSS
    case 1: Add(a, a, b, 64, 1, {1, 2, 1, 8, 16, 8}); break;            // PARTIAL
    case 2: Add(a, a[8], b, 64, 2, {2, 2, 1, 16, 16, 8}); break;        // INTERLEAVED
    case 3: Add(a, a, b, 64, 2, {2, 2, 1, 16, 16, 8}); break;           // INPLACE
    case 4: Add(c, a, c, 64, 4, {1, 1, 1, 0, 8, 0}); break;             // ACCUM
    case 5: Div(c, a, c, 64, 4, {1, 1, 1, 0, 8, 0}); break;             // ACCUM_DIV
    case 6: Add(c, c, a, 64, 4, {1, 1, 1, 0, 0, 8}); break;             // ACCUM_SRC0
    case 7: Exp(a, a, 64, 2, {1, 1, 8, 4}); break;                      // UNARY_CROSS
    case 8: Exp(a, a[8], 64, 2, {2, 2, 16, 16}); break;                 // UNARY_INTERLEAVED
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, a, 2 * N);
    DataCopy(zg[2 * N], c, N);
}
'''


def line_of(tag):
    return tagged_line(SRC, tag)


@pytest.fixture(scope="module")
def ovs():
    return arc.Program(SRC, "ovs.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("ovs")


def run(ovs, mode):
    rng = np.random.default_rng(mode)
    x = rng.uniform(0.5, 2.5, 2 * N).astype(np.float32)
    y = rng.uniform(-1, 1, N).astype(np.float32)
    z = np.zeros(3 * N, np.float32)
    ovs[1](x, y, z, mode)
    arc.synchronize()
    return x, y, z[:2 * N], z[2 * N:]


def model(dst, s0, s1, repeats, strides, f):
    """The repeats in order, 64 float lanes each (8 blocks of 8):
    strides = (dst blk, s0 blk, s1 blk, dst rep, s0 rep, s1 rep) in blocks;
    operands are (array, element offset) pairs (the same array may appear twice)."""
    db, ab, bb, dr, ar, br = strides
    at = lambda base, blk, rep, r, l: base + (r * rep + (l // 8) * blk) * 8 + l % 8
    for r in range(repeats):
        for l in range(64):
            x = s0[0][at(s0[1], ab, ar, r, l)]
            y = s1[0][at(s1[1], bb, br, r, l)] if s1 else None
            dst[0][at(dst[1], db, dr, r, l)] = f(x, y)


BAD = {
    # tag: (mode, API, message)
    "CROSS": (0, "Add", r"src0 repeat 1 reads UB bytes 128\.\.160, which dst's repeat 0 wrote: a later repeat would "
                        r"read what an earlier one wrote"),
    "PARTIAL": (1, "Add", r"in repeat 0, dst and src0 overlap in part \(dst block stride 1, repeat stride 8; src0 "
                          r"block stride 2, repeat stride 16\)"),
    "ACCUM_DIV": (5, "Div", r"src1 repeat 1 reads UB bytes 3072\.\.3104, which dst's repeat 0 wrote"),
    "ACCUM_SRC0": (6, "Add", r"src0 repeat 1 reads UB bytes 3072\.\.3104, which dst's repeat 0 wrote"),
    "UNARY_CROSS": (7, "Exp", r"src repeat 1 reads UB bytes 128\.\.160, which dst's repeat 0 wrote"),
}


@pytest.mark.parametrize("tag", list(BAD))
def test_strided_overlap_the_rule_forbids_stops_at_the_line(ovs, tag):
    mode, api, pat = BAD[tag]
    with pytest.raises(arc.LaunchError) as e:
        run(ovs, mode)
    msg = str(e.value)
    assert f"AscendC::{api}: " in msg and re.search(pat, msg), msg
    assert "the result would be undefined on the NPU" in msg, msg
    assert re.search(r"ovs\.asc:%d\b" % line_of(tag), msg), msg
    x, y, a, _ = run(ovs, 2)                                      # a good launch after
    assert np.isfinite(a).all()


def test_strided_overlap_the_rule_allows_computes_the_model(ovs):
    add = lambda p, q: np.float32(p + q)
    for mode, strides in ((2, (2, 2, 1, 16, 16, 8)), (3, (2, 2, 1, 16, 16, 8))):
        x, y, a, _ = run(ovs, mode)                               # disjoint blocks in one range; in place
        want = x.copy()
        model((want, 0), (want, 8 if mode == 2 else 0), (y, 0), 2, strides, add)
        np.testing.assert_array_equal(a, want)
    x, y, _, c = run(ovs, 4)                                      # the docs' accumulation: dst and src1 repeat stride 0
    want = y.copy()
    model((want, 0), (x, 0), (want, 0), 4, (1, 1, 1, 0, 8, 0), add)
    np.testing.assert_array_equal(c, want)
    np.testing.assert_allclose(c[:64], y[:64] + x[0:64] + x[64:128] + x[128:192] + x[192:256], rtol=1e-6)
    x, y, a, _ = run(ovs, 8)
    want = x.copy()
    model((want, 0), (want, 8), None, 2, (2, 2, 0, 16, 16, 0), lambda p, _: np.exp(np.float32(p)))
    np.testing.assert_allclose(a, want, rtol=2e-7)
