"""Undefined operand overlap in Cast and GatherMask (issue 30 item 4, mixed
widths and compaction): Cast's page adds to the general overlap rule that
converting to a wider type over overlapping operands may give wrong results
(a repeat's wider results overwrite sources later repeats still read), so
any overlap of a widening Cast's operands stops the kernel naming both UB
ranges and the line; a same-width Cast follows the general rule (the same
bytes are fine).  A narrowing Cast and GatherMask's compaction write no
faster than they read: in place (the destination at the source) every
element is read before its bytes are written, which kernels rely on, while
a destination inside the source overwrites what a later repeat reads (the
general rule's "no later repeat reads what an earlier one wrote").  With
strided level-0 operands the runtime applies the same rules repeat by
repeat: widening, no block of a repeat's source may be one its
destination writes; narrowing, no repeat may read what an earlier one
wrote.  What the rules allow computes what NumPy says."""
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
extern "C" __global__ __aicore__ void cast_ovl(GM_ADDR x, GM_ADDR z, int32_t mode)
{
    GlobalTensor<half> xg;
    GlobalTensor<float> zg;
    xg.SetGlobalBuffer((__gm__ half *)x, N);
    zg.SetGlobalBuffer((__gm__ float *)z, N);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 4 * N * sizeof(float));
    LocalTensor<float> f = buf.Get<float>();
    LocalTensor<half> h = f.ReinterpretCast<half>();          // h[k] shares bytes with f[k / 2]
    LocalTensor<int32_t> i = f.ReinterpretCast<int32_t>();
    DataCopy(h[4 * N], xg, N);                                // the halves at UB bytes 2048..2560
    PipeBarrier<PIPE_ALL>();
    switch (mode) {
    case 0: Cast(f, h[4 * N], RoundMode::CAST_NONE, N); break;                                  // GOOD
    case 1: Cast(f[448], h[4 * N], RoundMode::CAST_NONE, N); break;                             // WIDEN
    case 2: Cast(f[512], h[4 * N], RoundMode::CAST_NONE, 64, 4, {1, 1, 8, 4}); break;           // WIDEN_L0
    case 3: Cast(i, f, RoundMode::CAST_RINT, N); Cast(f[8], i, RoundMode::CAST_NONE, N); break; // SAME_WIDTH
    case 4: Cast(f, h[4 * N], RoundMode::CAST_NONE, N); Cast(i, f, RoundMode::CAST_RINT, N);
            Cast(f, i, RoundMode::CAST_NONE, N); break;                                         // IN_PLACE
    case 5: Cast(f, h[4 * N], RoundMode::CAST_NONE, N); Cast(h, f, RoundMode::CAST_NONE, N);   // NARROW_IN_PLACE
            Cast(f[512], h, RoundMode::CAST_NONE, N); PipeBarrier<PIPE_ALL>(); DataCopy(zg, f[512], N); return;
    case 6: Cast(f, h[4 * N], RoundMode::CAST_NONE, N); Cast(h[64], f, RoundMode::CAST_NONE, N); break; // NARROW
    case 7: case 8: {
        uint64_t kept = 0;
        Cast(f, h[4 * N], RoundMode::CAST_NONE, N);
        PipeBarrier<PIPE_V>();
        if (mode == 7) GatherMask(f, f, 1, false, 0, {1, 4, 8, 0}, kept);                      // COMPACT_IN_PLACE
        else GatherMask(f[8], f, 1, false, 0, {1, 4, 8, 0}, kept);                             // COMPACT
        break;
    }
    case 9: Cast(f, h[4 * N], RoundMode::CAST_NONE, N); PipeBarrier<PIPE_V>();
            Cast(h, f, RoundMode::CAST_NONE, 64, 2, {1, 2, 4, 16}); PipeBarrier<PIPE_V>();  // NARROW_STRIDED_IN_PLACE
            Cast(f[512], h, RoundMode::CAST_NONE, 128); PipeBarrier<PIPE_ALL>(); DataCopy(zg, f[512], N); return;
    case 10: Cast(f, h[4 * N], RoundMode::CAST_NONE, N); PipeBarrier<PIPE_V>();
             Cast(h[128], f, RoundMode::CAST_NONE, 64, 2, {2, 1, 8, 8}); break;             // NARROW_STRIDED
    case 11: Cast(f[512], h[4 * N], RoundMode::CAST_NONE, 64, 2, {2, 1, 16, 4}); break;      // WIDEN_STRIDED
    case 12: Cast(f, h[4 * N], RoundMode::CAST_NONE, 64, 2, {2, 1, 16, 4}); break;           // WIDEN_STRIDED_APART
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, f, N);
}
'''


def line_of(tag):
    return tagged_line(SRC, tag)


@pytest.fixture(scope="module")
def kern():
    return arc.Program(SRC, "cast_ovl.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("cast_ovl")


def run(kern, mode):
    x = np.random.default_rng(mode).uniform(-4, 4, N).astype(np.float16)
    z = np.zeros(N, np.float32)
    kern[1](x, z, mode)
    arc.synchronize()
    return x, z


BAD = {
    # tag: (mode, dst UB bytes, src, src UB bytes, rule)
    "WIDEN": (1, (448 * 4, 704 * 4), "src (narrower than dst", (2048, 2560), "its documentation"),
    "WIDEN_L0": (2, (512 * 4, 768 * 4), "src (narrower than dst", (2048, 2560), "its documentation"),
    "SAME_WIDTH": (3, (8 * 4, 264 * 4), "src", (0, 1024), "the documented rule"),
    "NARROW": (6, (128, 640), "src (wider than dst)", (0, 1024), "the general overlap rule"),
    "COMPACT": (8, (32, 4096), "src0", (0, 1024), "the general overlap rule"),
}


@pytest.mark.parametrize("tag", list(BAD))
def test_overlapping_cast_names_both_ranges_and_the_line(kern, tag):
    mode, (d0, d1), which, (s0, s1), rule = BAD[tag]
    with pytest.raises(arc.LaunchError) as e:
        run(kern, mode)
    msg = str(e.value)
    api = "GatherMask" if tag == "COMPACT" else "Cast"
    assert f"AscendC::{api}: dst (UB bytes {d0}..{d1}) overlaps {which}" in msg, msg
    assert f"(UB bytes {s0}..{s1}), which {rule} does not allow" in msg, msg
    assert re.search(r"cast_ovl\.asc:%d\b" % line_of(tag), msg), msg
    x, z = run(kern, 0)                               # a good launch after
    np.testing.assert_array_equal(z, x.astype(np.float32))


def test_what_the_rules_allow_computes_numpy(kern):
    x, z = run(kern, 0)
    np.testing.assert_array_equal(z, x.astype(np.float32))
    x, z = run(kern, 4)                               # same-width Casts in place
    np.testing.assert_array_equal(z, np.rint(x.astype(np.float32)))


def test_narrowing_and_compacting_in_place_compute_numpy(kern):
    x, z = run(kern, 5)                               # float -> half over its own bytes, then back
    np.testing.assert_array_equal(z, x.astype(np.float32))
    x, z = run(kern, 7)                               # keep the even lanes, over src0 itself
    f = x.astype(np.float32)
    np.testing.assert_array_equal(z[:N // 2], f[0::2])
    np.testing.assert_array_equal(z[N // 2:], f[N // 2:])   # past the kept ones: src0 as it was


STRIDED = {
    # tag: (mode, message)
    "NARROW_STRIDED": (10, r"src repeat 1 reads UB bytes 256\.\.288, which dst's repeat 0 wrote: a later repeat "
                           r"would read what an earlier one wrote"),
    "WIDEN_STRIDED": (11, r"in repeat 0, dst and src overlap \(dst block stride 2, repeat stride 16; src block "
                          r"stride 1, repeat stride 4\): dst's elements are wider than the source's"),
}


@pytest.mark.parametrize("tag", list(STRIDED))
def test_strided_cast_overlap_stops_at_the_line(kern, tag):
    mode, pat = STRIDED[tag]
    with pytest.raises(arc.LaunchError) as e:
        run(kern, mode)
    msg = str(e.value)
    assert "AscendC::Cast: " in msg and re.search(pat, msg), msg
    assert "the result would be undefined on the NPU" in msg, msg
    assert re.search(r"cast_ovl\.asc:%d\b" % line_of(tag), msg), msg


def strided(r, l, blk, rep, epb=8):
    """Element of lane l of repeat r in an operand of epb elements a block."""
    return (r * rep + (l // epb) * blk) * epb + l % epb


def test_strided_casts_the_rules_allow_compute_numpy(kern):
    x, z = run(kern, 9)                               # narrowing in place, the float source block-strided
    f = x.astype(np.float32)
    want = [f[strided(r, l, 2, 16)] for r in range(2) for l in range(64)]
    np.testing.assert_array_equal(z[:128], want)
    x, z = run(kern, 12)                              # widening into other bytes, the float dst block-strided
    got = [z[strided(r, l, 2, 16)] for r in range(2) for l in range(64)]
    np.testing.assert_array_equal(got, x[:128].astype(np.float32))
