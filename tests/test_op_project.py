"""Op projects end to end from Python: ascendrtc.op_project(dir)(arrays)
runs the op's host tiling, compiles its kernel for the call's dtypes and
tiling key, launches it and returns NumPy arrays -- checked against NumPy
for the ten test projects (tests/op_projects, the samples' layout)."""
import os

import numpy as np
import pytest

import ascendrtc as arc
from helpers.op_projects import files_of

PROJECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_projects")
rng = np.random.default_rng(7)


def project(name):
    return arc.op_project(os.path.join(PROJECTS, name))


def randn(shape, dtype):
    return rng.standard_normal(shape).astype(dtype)


def close(got, want, dtype):
    tol = 2e-3 if np.dtype(dtype) == np.float16 else 1e-5
    np.testing.assert_allclose(got.astype(np.float64), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_even_split(dtype):
    x, y = randn(8 * 1024, dtype), randn(8 * 1024, dtype)
    z = project("AddSplit")(x, y)
    assert z.dtype == dtype and z.shape == x.shape
    close(z, x.astype(np.float64) + y, dtype)


def test_former_and_tail_cores():
    n = 1000  # 6 cores: five take 168 elements, one 160
    x, y = randn(n, np.float32), randn(n, np.float32)
    close(project("MulTail")(x, y), x * y.astype(np.float64), np.float32)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_tiling_key_per_dtype(dtype):
    x = randn(2048, dtype)
    close(project("ScaleKeyed")(x, scale=-1.5), x * -1.5, dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_attrs_into_the_tiling(dtype):
    x = randn(4096, dtype)
    op = project("LeakyAttr")
    close(op(x, tile_num=4, negative_slope=0.25), np.where(x >= 0, x, x * 0.25), dtype)
    close(op(x, tile_num=2), np.where(x >= 0, x, x * np.float32(0.01)), dtype)  # the attr's default


def test_workspace():
    x = randn(4096, np.float32)
    close(project("WorkspaceAdd")(x, rounds=5), x + 5.0, np.float32)


def test_infer_shape_gives_the_output_shape():
    x = randn((20, 64), np.float32)  # 8 cores of 3 rows, the last gets 20 - 21 < 3
    y = project("RowSum")(x)
    assert y.shape == (20,)
    np.testing.assert_allclose(y, x.sum(axis=1), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_two_outputs(dtype):
    x = (rng.standard_normal(2048) * 50).astype(dtype)
    y = (rng.standard_normal(2048) * 50).astype(dtype)
    lo, hi = project("MinMax")(x, y)
    assert lo.dtype == dtype and hi.dtype == dtype
    np.testing.assert_array_equal(lo, np.minimum(x, y))
    np.testing.assert_array_equal(hi, np.maximum(x, y))


def test_plain_struct_tiling():
    x, y = randn(4096, np.float32), randn(4096, np.float32)
    close(project("AxpyStruct")(x, y, alpha=-0.75), -0.75 * x.astype(np.float64) + y, np.float32)


def test_platform_sized_tiles_and_list_attrs():
    x = randn(8192, np.float32)
    close(project("ClipUb")(x, bounds=[-0.5, 0.25], max_tile=[128]), np.clip(x, -0.5, 0.25), np.float32)


@pytest.mark.parametrize("dtype,n,twice", [(np.float16, 4096, True), (np.float32, 1024, False),
                                           (np.float32, 8192, True)])
def test_template_tiling(dtype, n, twice):
    x, y = randn(n, dtype), randn(n, dtype)
    want = (x.astype(np.float64) + y) * (2 if twice else 1)
    close(project("AddTpl")(x, y, double_it=twice), want, dtype)


def test_launch_with_a_hand_made_tiling():
    op = project("AddSplit")
    x, y = randn(4096, np.float32), randn(4096, np.float32)
    t = op.tiling(x, y)
    half = t.replace(totalLength=2048)  # the kernel only covers the first half
    z = op.launch(x, y, tiling=half, outputs=[np.full(4096, 9.0, np.float32)])
    close(z[:2048], x[:2048] + y[:2048].astype(np.float64), np.float32)
    assert (z[2048:] == 9.0).all()
    raw = op.launch(x, y, tiling=np.array([4096, 2], np.uint32).tobytes(), block_dim=4)
    close(raw, x + y.astype(np.float64), np.float32)


def test_kernel_compile_errors_name_the_kernel_file_and_cache_nothing():
    files = {}
    root = os.path.join(PROJECTS, "ScaleKeyed")
    for d, _, names in os.walk(root):
        for n in names:
            files[os.path.relpath(os.path.join(d, n), root)] = open(os.path.join(d, n)).read()
    bad = dict(files)
    bad["op_kernel/scale_keyed.cpp"] = bad["op_kernel/scale_keyed.cpp"].replace("AscendC::Muls(", "AscendC::Mulz(")
    op = arc.op_project(bad)
    with pytest.raises(arc.OpProjectError) as e:
        op(randn(256, np.float32))
    assert e.value.file == "op_kernel/scale_keyed.cpp" and "ScaleKeyed" in str(e.value)
    with pytest.raises(arc.OpProjectError):  # nothing cached from the failed compile
        op(randn(256, np.float32))
    x = randn(256, np.float32)
    close(arc.op_project(files)(x), 2.0 * x, np.float32)


def test_missing_kernel_is_named():
    root = os.path.join(PROJECTS, "AddSplit")
    files = {os.path.relpath(os.path.join(d, n), root): open(os.path.join(d, n)).read()
             for d, _, ns in os.walk(root) for n in ns if "op_kernel" not in d}
    op = arc.op_project(files)
    assert op.tiling(randn(64, np.float32), randn(64, np.float32)).block_dim == 8  # the host side still works
    with pytest.raises(arc.OpProjectError, match=r"AddSplit \(op_kernel/\): no kernel source: "
                                                 r"expected op_kernel/add_split.cpp"):
        op(randn(64, np.float32), randn(64, np.float32))


def test_as_torch_op():
    torch = pytest.importorskip("torch")
    op = project("LeakyAttr")
    top = op.as_torch_op("arc_op_tests::leaky_attr")
    assert "float negative_slope=0.01" in str(top.default._schema) and "int tile_num" in str(top.default._schema)
    x = torch.randn(2048)
    y = top(x, tile_num=2, negative_slope=0.5)
    np.testing.assert_allclose(y.numpy(), np.where(x.numpy() >= 0, x.numpy(), 0.5 * x.numpy()), rtol=1e-6)
    lo, hi = project("MinMax").as_torch_op("arc_op_tests::min_max")(torch.arange(2048, dtype=torch.int32),
                                                                     torch.full((2048,), 1000, dtype=torch.int32))
    assert int(lo.max()) == 1000 and int(hi.min()) == 1000 and lo.dtype == torch.int32
    # the fake implementation: shapes and dtypes from the op's InferShape, no launch
    from torch._subclasses.fake_tensor import FakeTensorMode
    with FakeTensorMode():
        r = torch.ops.arc_op_tests.leaky_attr(torch.empty(64, 8), tile_num=1)
    assert tuple(r.shape) == (64, 8) and r.dtype == torch.float32


def test_as_torch_op_without_backward_raises_when_autograd_needs_it():
    torch = pytest.importorskip("torch")
    top = project("AddSplit").as_torch_op("arc_op_tests::add_split_nobw")
    x = torch.randn(4096, requires_grad=True)
    y = torch.randn(4096)
    z = top(x, y)
    np.testing.assert_allclose(z.detach().numpy(), x.detach().numpy() + y.numpy(), rtol=1e-6)
    with pytest.raises(RuntimeError, match=r"arc_op_tests::add_split_nobw has no backward: pass "
                                           r"as_torch_op\(..., backward=fn\), where fn\(ctx, \*grads\) returns one "
                                           r"gradient per input \(x, y\)"):
        z.sum().backward()
    assert x.grad is None


def test_as_torch_op_with_backward():
    torch = pytest.importorskip("torch")
    op = project("LeakyAttr")

    def backward(ctx, grad):
        (x,), slope = ctx.inputs, ctx.attrs["negative_slope"]
        return torch.where(x >= 0, grad, grad * slope)

    top = op.as_torch_op("arc_op_tests::leaky_attr_bw", backward=backward)
    x = torch.randn(2048, requires_grad=True)
    top(x, tile_num=2, negative_slope=0.25).sum().backward()
    want = np.where(x.detach().numpy() >= 0, 1.0, 0.25)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-6)



@pytest.fixture(scope="module")
def no_infer_shape():
    """AddSplit without InferShape: its output's shape is known only when
    the inputs agree on one, or when the call gives it."""
    files = files_of("AddSplit")
    files["op_host/add_split.cpp"] = files["op_host/add_split.cpp"].replace(
        "this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);",
        "this->SetInferDataType(ge::InferDataType);")
    op = arc.op_project(files)
    assert not op.definition["infer_shape"]
    return op


def test_without_infer_shape_the_inputs_common_shape_is_the_outputs(no_infer_shape):
    x, y = randn((64, 64), np.float32), randn((64, 64), np.float32)
    assert no_infer_shape.infer(x, y) == [((64, 64), np.float32)]
    close(no_infer_shape(x, y), x + y.astype(np.float64), np.float32)


def test_an_output_shape_nobody_knows_fails_before_launch_saying_what_to_pass(no_infer_shape):
    x, y = randn(4096, np.float32), randn((64, 64), np.float32)
    msg = (r"op AddSplit \(op_host/add_split.cpp\): the shape of output 'z' cannot be known before launch: the op has "
           r"no InferShape and its inputs' shapes differ \(x \(4096,\), y \(64, 64\)\); pass out_shapes=\[...\] "
           r"\(one shape per output: z\) or outputs=\[arrays\] to give it")
    with pytest.raises(arc.OpProjectError, match=msg):
        no_infer_shape(x, y)
    with pytest.raises(arc.OpProjectError, match=msg):
        no_infer_shape.tiling(x, y)
    z = no_infer_shape(x, y, out_shapes=[(4096,)])
    close(z, x + y.reshape(-1).astype(np.float64), np.float32)
    out = np.zeros(4096, np.float32)
    assert no_infer_shape(x, y, outputs=[out]) is out
    close(out, x + y.reshape(-1).astype(np.float64), np.float32)


def test_a_kernel_writing_past_a_too_small_output_blames_it_every_time(no_infer_shape):
    x, y = randn(4096, np.float32), randn((64, 64), np.float32)
    for _ in range(3):
        with pytest.raises(arc.LaunchError, match=r"\(kernel parameter 2 'z'\)"):
            no_infer_shape(x, y, out_shapes=[(1024,)])
    close(no_infer_shape(x, y, out_shapes=[(4096,)]), x + y.reshape(-1).astype(np.float64), np.float32)


def test_outputs_of_the_wrong_dtype_or_shape_are_named_against_the_definition():
    op = project("AddSplit")
    x, y = randn(4096, np.float32), randn(4096, np.float32)
    with pytest.raises(arc.OpProjectError, match=r"op AddSplit \(op_host/add_split.cpp\): outputs=: output 'z' is "
                                                 r"float16 \(4096,\), but the op definition gives float32 \(4096,\) "
                                                 r"for these inputs"):
        op(x, y, outputs=[np.empty(4096, np.float16)])
    with pytest.raises(arc.OpProjectError, match=r"output 'z' is float32 \(2048,\), but the op definition gives "
                                                 r"float32 \(4096,\)"):
        op(x, y, outputs=[np.empty(2048, np.float32)])
    with pytest.raises(arc.OpProjectError, match=r"outputs= gives 2 array\(s\); the op definition declares 1 "
                                                 r"output\(s\) \(z\)"):
        op(x, y, outputs=[np.empty(4096, np.float32)] * 2)
    close(op(x, y), x + y.astype(np.float64), np.float32)
