"""Op projects end to end from Python: ascendrtc.op_project(dir)(arrays)
runs the op's host tiling, compiles its kernel for the call's dtypes and
tiling key, launches it and returns NumPy arrays -- checked against NumPy
for the ten test projects (tests/op_projects, the samples' layout)."""
import os

import numpy as np
import pytest

import ascendrtc as arc

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
