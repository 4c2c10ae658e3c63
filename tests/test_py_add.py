"""The seed's add kernel end to end from Python, checked against NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import add_kernel

DTYPES = [np.float32, np.float16, np.int32]


def inputs(dtype, n=256, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-1000, 1000, n).astype(dtype), rng.integers(-1000, 1000, n).astype(dtype)
    return rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_add_device_arrays(dtype):
    add = add_kernel(dtype)
    x, y = inputs(dtype)
    dx, dy, dz = arc.to_device(x), arc.to_device(y), arc.empty_like(x)
    add[8](dx, dy, dz)
    np.testing.assert_array_equal(dz.get(), x + y)


@pytest.mark.parametrize("dtype", DTYPES)
def test_add_numpy_in_device_out(dtype):
    add = add_kernel(dtype)
    x, y = inputs(dtype, seed=1)
    z = arc.empty_like(x)
    add[8](x, y, z)                      # the DESIGN sketch: NumPy in, device out
    np.testing.assert_array_equal(np.asarray(z), x + y)


def test_add_numpy_out_is_copied_back():
    add = add_kernel(np.float32)
    x, y = inputs(np.float32, seed=2)
    z = np.zeros_like(x)
    add[8](x, y, z)                      # a writeable ndarray comes back after the launch
    np.testing.assert_array_equal(z, x + y)


def test_intents_in_out():
    add = add_kernel(np.float32)
    x, y = inputs(np.float32, seed=3)
    x_before = x.copy()
    z = np.full_like(x, 7.0)
    add[8](arc.In(x), arc.In(y), arc.Out(z))
    np.testing.assert_array_equal(z, x + y)
    np.testing.assert_array_equal(x, x_before)


def test_in_intent_is_not_copied_back():
    # z marked In: the kernel's result must not reach the host array.
    add = add_kernel(np.float32)
    x, y = inputs(np.float32, seed=4)
    z = np.full_like(x, 7.0)
    add[8](x, y, arc.In(z))
    np.testing.assert_array_equal(z, np.full_like(x, 7.0))


def test_per_kernel_intents():
    import helpers.py_kernels as pk
    k = pk.add_binary(np.float32).load().get_kernel("add_custom", intents={"x": "in", "y": "in", "z": "out"})
    assert k.intents == {"x": "in", "y": "in", "z": "out"}
    x, y = inputs(np.float32, seed=5)
    z = np.full_like(x, 9.0)
    k[8](x, y, z)
    np.testing.assert_array_equal(z, x + y)


def test_noncontiguous_input_and_output():
    add = add_kernel(np.float32)
    xs = np.arange(512, dtype=np.float32)[::2]          # strided views
    ys = np.ones(512, dtype=np.float32)[1::2]
    zbig = np.zeros(512, dtype=np.float32)
    add[8](xs, ys, zbig[::2])                            # inout through a contiguous copy
    np.testing.assert_array_equal(zbig[::2], xs + ys)
    np.testing.assert_array_equal(zbig[1::2], 0)


def test_keyword_launch_and_stream_form():
    add = add_kernel(np.float32)
    x, y = inputs(np.float32, seed=6)
    dx, dy = arc.to_device(x), arc.to_device(y)
    z1, z2 = arc.empty_like(x), arc.empty_like(x)
    s = arc.Stream()
    add(dx, dy, z1, block_dim=8, stream=s)
    add[8, s](dx, dy, z2)
    s.synchronize()
    np.testing.assert_array_equal(z1.get(), x + y)
    np.testing.assert_array_equal(z2.get(), x + y)


def test_kernel_params_from_signature():
    add = add_kernel(np.float32)
    assert add.name == "add_custom"
    assert [(n, k, s) for n, k, s, _ in add.params] == [("x", "pointer", 8), ("y", "pointer", 8),
                                                        ("z", "pointer", 8)]
    offsets = [o for *_, o in add.params]
    assert offsets == sorted(offsets) and len(set(offsets)) == 3
    assert add.signature == "add_custom(x, y, z)"


def test_launches_are_asynchronous_and_ordered():
    # Many back-to-back launches on one stream: z accumulates in order.
    add = add_kernel(np.float32)
    one = arc.to_device(np.ones(256, np.float32))
    z = arc.zeros(256, np.float32)
    for _ in range(20):
        add[8](z, one, z)
    np.testing.assert_array_equal(z.get(), np.full(256, 20, np.float32))
