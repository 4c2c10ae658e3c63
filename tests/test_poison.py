"""Output poisoning (ASCENDRTC_POISON=1 or empty(..., poison=True)): a
buffer ascendrtc allocates starts as a pattern no kernel computes (a
signalling NaN for floats, 0xA5 bytes for integers), and check_written (and
the op runner, for the outputs it allocates) names what a kernel never
wrote."""
import os
import shutil

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc._poison import POISON_BITS
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Each block copies its rows of x into z; with `half` set, only the first half of the blocks do.
extern "C" __global__ __aicore__ void copy_rows(GM_ADDR x, GM_ADDR z, uint32_t rows, uint32_t cols, uint32_t half)
{
    if (half && GetBlockIdx() >= GetBlockNum() / 2) return;
    uint32_t per = rows / GetBlockNum();
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * per * cols);
    gz.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * per * cols);
    for (uint32_t i = 0; i < per * cols; i++) gz.SetValue(i, gx.GetValue(i) * 2.0f);
}
'''
ROWS, COLS = 1024, 16


@pytest.fixture(scope="module")
def copy_rows():
    return dev.load(SRC, "copy_rows.cpp").get_kernel("copy_rows")


def test_half_written_output_is_named(copy_rows):
    x = np.arange(ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS)
    z = arc.empty((ROWS, COLS), np.float32, poison=True)
    copy_rows[8](x, z, np.uint32(ROWS), np.uint32(COLS), np.uint32(1))
    arc.synchronize()
    with pytest.raises(arc.UnwrittenOutputError) as e:
        arc.check_written(z, "z")
    assert str(e.value).startswith("rows 512..1023 of z (shape (1024, 16)) were never written by the kernel")
    assert isinstance(e.value, arc.Error)
    np.testing.assert_array_equal(z.get()[:512], 2 * x[:512])


def test_full_write_passes(copy_rows, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_POISON", "1")
    x = np.ones((ROWS, COLS), np.float32)
    z = arc.empty_like(x)                       # poisoned by the environment
    assert np.isnan(z.get()).all()
    copy_rows[8](x, z, np.uint32(ROWS), np.uint32(COLS), np.uint32(0))
    arc.synchronize()
    arc.check_written(z, "z")
    np.testing.assert_array_equal(z.get(), 2 * x)


def test_out_arrays_are_poisoned_on_the_device(copy_rows, monkeypatch):
    x = np.arange(ROWS * COLS, dtype=np.float32).reshape(ROWS, COLS)
    z = np.full((ROWS, COLS), 7.0, np.float32)
    copy_rows[8](x, arc.Out(z), np.uint32(ROWS), np.uint32(COLS), np.uint32(1))
    arc.synchronize()
    np.testing.assert_array_equal(z[512:], 0)             # without poisoning: zeroed on the device
    monkeypatch.setenv("ASCENDRTC_POISON", "1")
    z = np.full((ROWS, COLS), 7.0, np.float32)
    copy_rows[8](x, arc.Out(z), np.uint32(ROWS), np.uint32(COLS), np.uint32(1))
    arc.synchronize()
    np.testing.assert_array_equal(z[:512], 2 * x[:512])
    with pytest.raises(arc.UnwrittenOutputError, match=r"^rows 512\.\.1023 of z "):
        arc.check_written(z, "z")
    z = np.zeros((ROWS, COLS), np.float32)                # a full write passes the check
    copy_rows[8](x, arc.Out(z), np.uint32(ROWS), np.uint32(COLS), np.uint32(0))
    arc.synchronize()
    arc.check_written(z, "z")
    np.testing.assert_array_equal(z, 2 * x)


def test_patterns_by_dtype():
    for dt, bits in [(np.float32, 0x7FA5A5A5), (np.float16, 0x7DA5), (np.float64, 0x7FF4A5A5A5A5A5A5)]:
        a = arc.empty(5, dt, poison=True).get()
        assert np.isnan(a).all() and (a.view(f"u{a.itemsize}") == bits).all() and POISON_BITS[np.dtype(dt).name] == bits
    i = arc.empty(6, np.int32, poison=True).get()
    assert (i.view(np.uint8) == 0xA5).all()
    i[[1, 2, 4]] = 7                                   # a 1-D output: the elements are named
    with pytest.raises(arc.UnwrittenOutputError, match=r"3 of 6 elements of the output .* flat elements 0, 3, 5"):
        arc.check_written(i)
    h = arc.poison(np.zeros((2, 3), np.float32))         # host arrays too
    h[0, 1] = 1.0
    with pytest.raises(arc.UnwrittenOutputError, match=r"5 of 6 elements .* first at index \(0, 0\)"):
        arc.check_written(h)


def test_op_runner_checks_its_outputs(tmp_path, monkeypatch):
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_projects", "AddSplit")
    half = tmp_path / "AddSplit"
    shutil.copytree(src, half)
    k = half / "op_kernel" / "add_split.cpp"
    text = k.read_text()
    body = "GET_TILING_DATA(tilingData, tiling);"
    k.write_text(text.replace(body, body + "\n    if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum() / 2) return;"))
    monkeypatch.setenv("ASCENDRTC_POISON", "1")
    x = np.ones(8 * 1024, np.float32)
    with pytest.raises(arc.UnwrittenOutputError, match=r"AddSplit output 'z' .* were never written by the kernel"):
        arc.op_project(str(half))(x, x)
    np.testing.assert_array_equal(arc.op_project(src)(x, x), 2 * x)   # the whole op writes all of z


UB_SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
// Copies x through UB into z; with `skip` set, copies out a UB tile it never wrote.
extern "C" __global__ __aicore__ void through_ub(GM_ADDR x, GM_ADDR z, uint32_t skip)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 256 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>(), b = a[256];
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256);
    gz.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256);
    DataCopy(a, gx, 256);
    PipeBarrier<PIPE_ALL>();
    if (!skip) Muls(b, a, 2.0f, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, b, 256);
}
'''


def test_unwritten_ub_copied_out_is_named(monkeypatch):
    """Under ASCENDRTC_POISON=1 each block's UB starts as 0xFF bytes: a tile
    the kernel copies out without writing it is named (not zeros, as a
    fresh arena reads); a good launch after passes."""
    monkeypatch.setenv("ASCENDRTC_POISON", "1")
    k = dev.load(UB_SRC, "through_ub.cpp").get_kernel("through_ub")
    x = np.arange(4 * 256, dtype=np.float32).reshape(4, 256)
    z = arc.empty((4, 256), np.float32)
    k[4](x, z, np.uint32(1))
    arc.synchronize()
    assert (z.get().view(np.uint32) == 0xFFFFFFFF).all()
    with pytest.raises(arc.UnwrittenOutputError, match=r"^rows 0\.\.3 of z \(shape \(4, 256\)\) hold unwritten UB"):
        arc.check_written(z, "z")
    k[4](x, z, np.uint32(0))
    arc.synchronize()
    arc.check_written(z, "z")
    np.testing.assert_array_equal(z.get(), 2 * x)
