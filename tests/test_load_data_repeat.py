"""SetLoadDataRepeat / SetLoadDataBoundary (the 3D load's repeat and L1
boundary registers): the defaults (repeatTime 1, boundary 0) run; a repeat
that changes what the NPU's 3D load reads is refused naming it, not
ignored; a boundary wraps the load's reads at or past it to L1's start
(its page), against the same load of the wrapped data without one;
boundaries of 1..1023 bytes (undefined) and any on dav-3510 are refused."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void regs(GM_ADDR out, int32_t repeat, int32_t boundary)
{
    AscendC::SetLoadDataRepeat({0, (uint8_t)repeat, 0});
    AscendC::SetLoadDataBoundary((uint32_t)boundary);
    *(__gm__ int32_t *)out = 7;
}
'''


@pytest.fixture(scope="module")
def k():
    return arc.Program(SRC, "regs.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("regs")


def test_the_defaults_run(k):
    out = np.zeros(8, np.int32)
    k[1](out, 1, 0)
    assert out[0] == 7


@pytest.mark.parametrize("repeat,boundary,pat", [
    (2, 0, r"AscendC::SetLoadDataRepeat: repeatTime 2: a repeated \(or, at 0, skipped\) 3D load is not simulated"),
    (0, 0, r"AscendC::SetLoadDataRepeat: repeatTime 0"),
    (1, 512, r"AscendC::SetLoadDataBoundary: a boundary of 512 bytes: below the minimum 1024 the 3D load's "
             r"behaviour is undefined")])
def test_a_value_that_changes_the_load_is_refused(k, repeat, boundary, pat):
    with pytest.raises(arc.LaunchError, match=pat):
        k[1](np.zeros(8, np.int32), repeat, boundary)


def test_a_dst_stride_on_dav_3510_is_refused():
    # on Ascend 950 the plain 3D load honours dstStride (its page); that placement is LoadDataWithStride's here
    src = SRC.replace("{0, (uint8_t)repeat, 0}", "{0, (uint8_t)repeat, 0, (uint16_t)boundary}").replace(
        "AscendC::SetLoadDataBoundary((uint32_t)boundary);", "")
    k = arc.Program(src, "regs950.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("regs")
    out = np.zeros(8, np.int32)
    k[1](out, 1, 0)
    assert out[0] == 7
    with pytest.raises(arc.LaunchError, match=r"AscendC::SetLoadDataRepeat: dstStride 4: on dav-3510 the plain 3D "
                                              r"load .* is not simulated yet"):
        k[1](out, 1, 4)


WRAP = r'''
#include "kernel_operator.h"
using namespace AscendC;
// x: C1 = 2, H = 1, W = 32, C0 = 16 half (2 KB) at L1 byte 0; the whole img2col window (32 x 32) into L0A,
// with SetLoadDataBoundary(boundary), as the packed-window load (LoadData3DParamsV2Pro) of set_loaddata_boundary
extern "C" __global__ __aicore__ void wrap(GM_ADDR x, GM_ADDR y, uint32_t boundary)
{
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    LocalTensor<half> s(TPosition::A1, 0, 1024), d(TPosition::A2, 0, 1024);
    DataCopy(s, gx, 1024); PipeBarrier<PIPE_ALL>();
    uint8_t pad[PAD_SIZE] = {0, 0, 0, 0};
    SetFmatrix(1, 32, pad, FmatrixMode::FMATRIX_LEFT);
    SetLoadDataRepeat({0, 1, 0});
    SetLoadDataBoundary(boundary);
    LoadData3DParamsV2Pro q;
    q.channelSize = 32;
    q.extConfig = (uint64_t)32 << 16 | 32;   // mStep 32, kStep 32 from (0, 0)
    LoadData(d, s, q);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, d, 1024); PipeBarrier<PIPE_ALL>();
}
'''


def test_boundary_wraps_reads_to_l1_start():
    k = arc.Program(WRAP, "wrap.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("wrap")
    x = np.random.default_rng(4).integers(-50, 50, (2, 32, 16)).astype(np.float16)
    wrapped = x.copy()
    wrapped[1] = x[0]                    # channel block 1 lies at bytes 1024..2047: read from 0..1023
    got, want, plain = (np.zeros(1024, np.float16) for _ in range(3))
    k[1](x, got, 1024)
    k[1](wrapped, want, 0)
    k[1](x, plain, 0)
    arc.synchronize()
    np.testing.assert_array_equal(got, want)
    assert (got != plain).any()


def test_boundary_on_dav_3510_is_refused():
    src = SRC.replace("AscendC::SetLoadDataRepeat({0, (uint8_t)repeat, 0});", "")
    k = arc.Program(src, "bound950.asc").compile(["--npu-arch=dav-3510"]).load().get_kernel("regs")
    with pytest.raises(arc.LaunchError, match=r"SetLoadDataBoundary: Ascend 950 \(dav-3510\) has no L1 boundary"):
        k[1](np.zeros(8, np.int32), 1, 1024)
