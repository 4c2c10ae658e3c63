"""PyTorch: CPU tensors as kernel inputs and outputs, torch.from_dlpack on
device arrays without a copy, and a jit kernel registered as a custom op
(torch.ops.<ns>.<name>) that traces under torch.compile.  Skipped without
torch."""
import numpy as np
import pytest

torch = pytest.importorskip("torch")

import ascendrtc as arc  # noqa: E402
from ascendrtc.torch import custom_op  # noqa: E402

AXPY = r'''
#include "kernel_operator.h"
// z = alpha * x + y: N elements (a multiple of 8 cores * TILE), TILE per step through the unified buffer
constexpr int32_t N = ${x.size}, TILE = 64;
extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha) {
    int32_t per = N / AscendC::GetBlockNum(), base = per * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + base, per);
    yg.SetGlobalBuffer((__gm__ float *)y + base, per);
    zg.SetGlobalBuffer((__gm__ float *)z + base, per);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * TILE * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>(), b = a[TILE];
    for (int32_t off = 0; off < per; off += TILE) {
        AscendC::DataCopy(a, xg[off], TILE);
        AscendC::DataCopy(b, yg[off], TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Axpy(b, a, alpha, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zg[off], b, TILE);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
'''

axpy = arc.jit(AXPY, params="x, y, z, alpha", block_dim=8)


def out_like_x(x, y, alpha: float):
    return torch.empty_like(x)


@pytest.fixture(scope="module")
def axpy1024():
    """The kernel compiled for 1024 elements, as a plain Kernel."""
    src = AXPY.replace("${x.size}", "1024")
    return arc.Program(src, "axpy.asc").compile().load().get_kernel("axpy")[8]


@pytest.fixture(scope="module")
def op():
    return custom_op("arc_test::axpy", axpy, outputs=out_like_x)


def test_tensors_in_and_out_of_a_kernel(axpy1024):
    x, y = torch.randn(1024), torch.randn(1024)
    z = torch.zeros(1024)
    axpy1024(x, y, z, 2.0)
    torch.testing.assert_close(z, 2 * x + y)


def test_non_contiguous_output_tensor_is_written_back(axpy1024):
    x, y = torch.randn(32, 32), torch.randn(32, 32)
    z = torch.zeros(32, 32).t()                   # a transposed view: copied, then written back
    axpy1024(x, y, z, -1.0)
    torch.testing.assert_close(z, y - x)


def test_a_float64_tensor_is_named_as_a_tensor(axpy1024, op):
    x64 = torch.zeros(1024, dtype=torch.float64)
    with pytest.raises(TypeError, match=r"argument 'x'.* got a torch\.Tensor of float64; expected float32"):
        axpy1024(x64, torch.randn(1024), torch.zeros(1024), 1.0)
    with pytest.raises(TypeError, match=r"got a torch\.Tensor of float64"):   # through a custom op too
        op(x64, torch.randn(1024, dtype=torch.float64), 1.0)


def test_tensor_requiring_grad_is_refused_with_torchs_reason(axpy1024):
    x = torch.randn(1024, requires_grad=True)
    with pytest.raises(TypeError, match="argument 'x'.*require gradient"):
        axpy1024(x, torch.randn(1024), torch.zeros(1024), 1.0)


def test_torch_from_dlpack_views_device_memory():
    d = arc.to_device(np.arange(6, dtype=np.float32).reshape(2, 3))
    t = torch.from_dlpack(d)
    assert t.data_ptr() == d.ptr and t.shape == (2, 3) and t.dtype == torch.float32
    t[0, 0] = 42
    assert d.get()[0, 0] == 42
    back = torch.utils.dlpack.to_dlpack(t)        # and back to NumPy through torch
    assert np.from_dlpack(torch.utils.dlpack.from_dlpack(back)).ctypes.data == d.ptr


def test_custom_op_matches_torch(op):
    x, y = torch.randn(2048), torch.randn(2048)
    torch.testing.assert_close(torch.ops.arc_test.axpy(x, y, 0.25), 0.25 * x + y)
    assert "arc_test::axpy(Tensor x, Tensor y, float alpha) -> Tensor" in str(torch.ops.arc_test.axpy.default._schema)


def test_custom_op_traces_under_torch_compile(op):
    def f(a, b):
        return torch.relu(torch.ops.arc_test.axpy(a, b, 3.0)) + 1

    compiled = torch.compile(f, backend="aot_eager", fullgraph=True)
    x, y = torch.randn(512), torch.randn(512)
    torch.testing.assert_close(compiled(x, y), torch.relu(3 * x + y) + 1)


def test_custom_op_passes_opcheck(op):
    torch.library.opcheck(torch.ops.arc_test.axpy.default, (torch.randn(512), torch.randn(512), 2.0))


def test_custom_op_names_wrong_inputs():
    with pytest.raises(TypeError, match="outputs\\(\\) takes w"):
        custom_op("arc_test::bad", axpy, outputs=lambda x, w: torch.empty_like(x))


def test_custom_op_backward_gives_gradients():
    def axpy_backward(ctx, grad):
        x, y, alpha = ctx.inputs
        return grad * alpha, grad, None               # d(alpha*x + y)/dx, /dy; alpha is a float

    custom_op("arc_test::axpy_grad", axpy, outputs=out_like_x, backward=axpy_backward)
    x, y = torch.randn(1024, requires_grad=True), torch.randn(1024, requires_grad=True)
    (torch.ops.arc_test.axpy_grad(x, y, 0.5) ** 2).sum().backward()
    xr, yr = x.detach().clone().requires_grad_(), y.detach().clone().requires_grad_()
    ((0.5 * xr + yr) ** 2).sum().backward()
    torch.testing.assert_close(x.grad, xr.grad)
    torch.testing.assert_close(y.grad, yr.grad)
    torch.library.opcheck(torch.ops.arc_test.axpy_grad.default,
                          (torch.randn(512, requires_grad=True), torch.randn(512, requires_grad=True), 2.0))


def test_custom_op_without_backward_raises_instead_of_a_silent_none(op):
    x = torch.randn(1024, requires_grad=True)
    out = torch.ops.arc_test.axpy(x, torch.randn(1024), 1.0)
    with pytest.raises(RuntimeError, match="arc_test::axpy has no backward: pass custom_op\\(..., backward=fn\\)"):
        out.sum().backward()
    assert x.grad is None
