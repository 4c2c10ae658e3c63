"""Undefined operand overlap in the data-movement families (issue 30 item
4): Brcb, Transpose, Gather and Sort32 state no overlap rule on their
pages, and the general note (通用地址重叠约束) makes overlap unsupported
where a page states none (MrgSort's page forbids it outright), so a destination overlapping a source stops the
kernel naming both UB ranges and the line (Gather: the source bytes its
offsets reach, and the offsets); the same calls on separate buffers
compute what NumPy says."""
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers.source_tags import tagged_line

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void data_ovl(GM_ADDR x, GM_ADDR z, int32_t mode)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x, 512);
    zg.SetGlobalBuffer((__gm__ float *)z, 512);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2048 * sizeof(float));
    LocalTensor<float> f = buf.Get<float>();
    LocalTensor<half> h = f.ReinterpretCast<half>();
    LocalTensor<uint32_t> u = f.ReinterpretCast<uint32_t>();
    DataCopy(f, xg, 512);                                     // floats 0..512 (UB bytes 0..2048)
    PipeBarrier<PIPE_ALL>();
    for (int32_t i = 0; i < 64; i++) u.SetValue(1024 + i, (uint32_t)(63 - i) * 4);   // offsets at bytes 4096..4352
    for (int32_t i = 64; i < 128; i++) u.SetValue(1024 + i, (uint32_t)i);
    PipeBarrier<PIPE_ALL>();
    switch (mode) {
    case 0: Brcb(f[512], f, 2, {1, 8}); break;                                        // BRCB_GOOD
    case 1: Brcb(f[8], f, 2, {1, 8}); break;                                          // BRCB
    case 2: Transpose(h[1024], h); break;                                             // TRANSPOSE_GOOD
    case 3: Transpose(h[128], h); break;                                              // TRANSPOSE
    case 4: Gather(f[512], f, u[1024], 0, 64); break;                                 // GATHER_GOOD
    case 5: Gather(f[32], f, u[1024], 0, 64); break;                                  // GATHER
    case 6: Gather(f[1016], f, u[1024], 0, 64); break;                                // GATHER_OFFSETS
    case 7: Sort32(f[512], f, u[1024], 1); break;                                     // SORT_GOOD
    case 8: Sort32(f[16], f, u[1024], 1); break;                                      // SORT
    case 9: case 10: {
        Sort32(f[512], f, u[1024], 4);                        // 4 sorted lists of 32 (score, index) at f[512..768)
        PipeBarrier<PIPE_V>();
        MrgSortSrcList<float> l(f[512], f[576], f[640], f[704]);
        uint16_t lens[4] = {32, 32, 32, 32};
        MrgSort4Info info(lens, false, 15, 1);
        if (mode == 9) MrgSort(f[768], l, info);                                      // MRGSORT_GOOD
        else MrgSort(f[576], l, info);                                                // MRGSORT
        break;
    }
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, f[512], 512);
}
'''


def line_of(tag):
    return tagged_line(SRC, tag)


@pytest.fixture(scope="module")
def kern():
    return arc.Program(SRC, "data_ovl.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("data_ovl")


def run(kern, mode):
    x = np.random.default_rng(mode).permutation(512).astype(np.float32)
    z = np.zeros(512, np.float32)
    kern[1](x, z, mode)
    arc.synchronize()
    return x, z


BAD = {
    # tag: (mode, API, dst UB bytes, which source, source UB bytes)
    "BRCB": (1, "Brcb", (32, 32 + 16 * 32), "src", (0, 64)),
    "TRANSPOSE": (3, "Transpose", (256, 768), "src", (0, 512)),
    "GATHER": (5, "Gather", (128, 384), "src (the elements the offsets reach)", (0, 256)),
    "GATHER_OFFSETS": (6, "Gather", (4064, 4320), "srcOffset", (4096, 4352)),
    "SORT": (8, "Sort32", (64, 320), "src0", (0, 128)),
    "MRGSORT": (10, "MrgSort", (2304, 3328), "src2 (list 2)", (2304, 2560)),
}


@pytest.mark.parametrize("tag", list(BAD))
def test_overlap_names_both_ranges_and_the_line(kern, tag):
    mode, api, (d0, d1), which, (s0, s1) = BAD[tag]
    with pytest.raises(arc.LaunchError) as e:
        run(kern, mode)
    msg = str(e.value)
    assert f"AscendC::{api}: dst (UB bytes {d0}..{d1}) overlaps {which} (UB bytes {s0}..{s1})" in msg, msg
    assert re.search(r"data_ovl\.asc:%d\b" % line_of(tag), msg), msg
    x, z = run(kern, 0)                               # a good launch after
    np.testing.assert_array_equal(z[:128], np.repeat(x[:16], 8))


def test_separate_buffers_compute_numpy(kern):
    x, z = run(kern, 0)
    np.testing.assert_array_equal(z[:128], np.repeat(x[:16], 8))
    x, z = run(kern, 2)
    h = x.view(np.float16)
    np.testing.assert_array_equal(z[:128].view(np.float16), h[:256].reshape(16, 16).T.ravel())
    x, z = run(kern, 4)
    np.testing.assert_array_equal(z[:64], x[63::-1])
    x, z = run(kern, 7)
    pairs = z[:64].view(np.uint32).reshape(32, 2)
    order = sorted(range(32), key=lambda i: -x[i])
    np.testing.assert_array_equal(pairs[:, 0].view(np.float32), x[:32][order])
    np.testing.assert_array_equal(pairs[:, 1], [(63 - i) * 4 for i in order])
    x, z = run(kern, 9)
    merged = z[256:512].view(np.uint32).reshape(128, 2)
    order = sorted(range(128), key=lambda i: -x[i])
    np.testing.assert_array_equal(merged[:, 0].view(np.float32), x[:128][order])
    np.testing.assert_array_equal(merged[:, 1], [(63 - i) * 4 if i < 64 else i for i in order])
