"""Device API, basic: the memory-vector Interleave/DeInterleave (dav-3510),
Transpose with TransposeParamsExt ([N,C,H,W] <-> [N,H,W,C], the 16 x 16
block, the page's scratch rule) and DataCopy with SliceInfo, against NumPy
and the pages' examples (arc/interleave.h, arc/transpose.h,
arc/data_copy_slice.h)."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

A35 = ("--npu-arch=dav-3510",)


@pytest.mark.parametrize("dt", [np.int8, np.float16, np.float32, np.uint64], ids=lambda d: np.dtype(d).name)
def test_interleave_and_back(dt):
    n = 64
    p = [("a", dt, n), ("b", dt, n), ("x", dt, n), ("y", dt, n), ("u", dt, n), ("v", dt, n), ("w", dt, n),
         ("q", dt, n)]
    body = ("Interleave(x, y, a, b, %d); DeInterleave(u, v, x, y, %d); DeInterleave(w, q, a, %d);" % (n, n, n))
    m = dev.program([dev.ub_kernel("k", p, body)], A35)
    a = np.arange(1, n + 1).astype(dt)
    b = np.arange(n + 1, 2 * n + 1).astype(dt)
    out = dev.run(m, "k", p, [a, b] + [np.zeros(n, dt)] * 6)
    inter = np.stack([a, b], 1).reshape(-1)                      # a0 b0 a1 b1 ...
    np.testing.assert_array_equal(out[2], inter[:n])             # the page: [1 513 2 ...] / [257 769 ...]
    np.testing.assert_array_equal(out[3], inter[n:])
    np.testing.assert_array_equal(out[4], a)                     # DeInterleave undoes it
    np.testing.assert_array_equal(out[5], b)
    np.testing.assert_array_equal(out[6][:n // 2], a[0::2])      # one source: evens and odds
    np.testing.assert_array_equal(out[7][:n // 2], a[1::2])


def test_interleave_checks():
    p = [("a", np.float32, 64), ("x", np.float32, 64)]
    m = dev.program([dev.ub_kernel("odd", p, "Interleave(x, x[32], a, a[32], 7);"),
                     dev.ub_kernel("lap", p, "Interleave(a[8], x, a, x[32], 16);")], A35)
    for name, msg in [("odd", "count 7 is not even"), ("lap", "overlaps src0")]:
        with pytest.raises(arc.Error) as ei:
            dev.run(m, name, p, [np.zeros(64, np.float32)] * 2)
        assert "AscendC::Interleave" in str(ei.value) and msg in str(ei.value)
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, "Interleave(x, x[32], a, a[32], 8);")])
    assert "Ascend 950 (dav-3510) only" in ei.value.log


def tmp_need(c, dt, to_nhwc):
    h0, w0 = (32 if np.dtype(dt).itemsize == 1 else 16), 32 // np.dtype(dt).itemsize
    return ((c + 2) if to_nhwc else (2 * c + 1)) * h0 * w0 * np.dtype(dt).itemsize


@pytest.mark.parametrize("to_nhwc", [True, False], ids=["nchw2nhwc", "nhwc2nchw"])
@pytest.mark.parametrize("dt", [np.int8, np.float16, np.float32], ids=lambda d: np.dtype(d).name)
def test_transpose_nchw_nhwc(dt, to_nhwc):
    n, c, h, w = 2, 3, 4, 8
    total, tmp = n * c * h * w, tmp_need(c, dt, to_nhwc)
    kind = "TRANSPOSE_NCHW2NHWC" if to_nhwc else "TRANSPOSE_NHWC2NCHW"
    p = [("x", dt, total), ("z", dt, total), ("t", np.uint8, tmp)]
    body = "TransposeParamsExt q(%d, %d, %d, %d, TransposeType::%s); Transpose(z, x, t, q);" % (n, c, h, w, kind)
    m = dev.program([dev.ub_kernel("k", p, body)])
    x = np.arange(total).astype(dt)
    z = dev.run(m, "k", p, [x, np.zeros(total, dt), np.zeros(tmp, np.uint8)])[1]
    want = (x.reshape(n, c, h, w).transpose(0, 2, 3, 1) if to_nhwc else x.reshape(n, h, w, c).transpose(0, 3, 1, 2))
    np.testing.assert_array_equal(z, want.reshape(-1))


def test_transpose_scratch_below_the_page_rule_stops():
    n, c, h, w = 1, 4, 2, 8
    need = tmp_need(c, np.float32, True)           # (4 + 2) * 16 * 8 * 4 = 3072
    p = [("x", np.float32, 64), ("z", np.float32, 64), ("t", np.uint8, need - 32)]
    body = "TransposeParamsExt q(%d, %d, %d, %d, TransposeType::TRANSPOSE_NCHW2NHWC); Transpose(z, x, t, q);" % (
        n, c, h, w)
    m = dev.program([dev.ub_kernel("k", p, body)])
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(64, np.float32)] * 2 + [np.zeros(need - 32, np.uint8)])
    assert "sharedTmpBuffer holds 3040 bytes; the page's rule needs 3072" in str(ei.value)


def test_transpose_16x16_in_place_and_b16_type():
    p = [("x", np.float16, 256), ("y", np.uint16, 256), ("t", np.uint8, 32)]
    body = ("Transpose(x, x); TransposeParamsExt q(0, 0, 16, 16, TransposeType::TRANSPOSE_ND2ND_B16); "
            "Transpose(y, y, t, q);")
    m = dev.program([dev.ub_kernel("k", p, body)])
    x = np.arange(256).astype(np.float16)
    out = dev.run(m, "k", p, [x, np.arange(256).astype(np.uint16), np.zeros(32, np.uint8)])
    np.testing.assert_array_equal(out[0], x.reshape(16, 16).T.reshape(-1))   # the page allows dst = src
    np.testing.assert_array_equal(out[1], np.arange(256).reshape(16, 16).T.reshape(-1))


SLICE = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    using namespace AscendC;
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x, 3 * 87);
    gz.SetGlobalBuffer((__gm__ float *)z, 96);
    SliceInfo src[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
    SliceInfo dst[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
    LocalTensor<float> t(TPosition::VECIN, 0, 96);
    DataCopy(t, gx, dst, src, 2);
    SetFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_MTE3>(EVENT_ID0);
    DataCopy(gz, t, dst, dst, DIMS);
}
'''


def test_slice_copy_matches_the_page_figure():
    """The page's figure: rows 0 and 2 of a 3 x 87 float tensor, columns
    16..39 and 47..70 of each, packed into a 2 x 48 tensor."""
    m = dev.load(SLICE.replace("DIMS", "2"), "slice.asc")
    x = np.arange(3 * 87, dtype=np.float32)
    z = np.zeros(96, np.float32)
    m.get_kernel("k")[1](x, z)
    arc.synchronize()
    rows = x.reshape(3, 87)[[0, 2]]
    np.testing.assert_array_equal(z.reshape(2, 48), np.concatenate([rows[:, 16:40], rows[:, 47:71]], 1))


def test_slice_copy_mismatched_runs_stop():
    m = dev.load(SLICE.replace("DIMS", "2").replace("{0, 1, 0, 1, 2}};\n    LocalTensor",
                                                    "{0, 0, 0, 1, 2}};\n    LocalTensor"), "slice.asc")
    with pytest.raises(arc.Error) as ei:
        m.get_kernel("k")[1](np.zeros(261, np.float32), np.zeros(96, np.float32))
        arc.synchronize()
    assert "dst selects 2 runs of 24 elements, src 4 runs of 24: they must match" in str(ei.value)
