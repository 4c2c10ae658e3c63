"""The example kernels of examples/kernels (plain Ascend C, as real
kernels are written) against NumPy references."""
import importlib.util
import os

import numpy as np
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("example_kernels",
                                               os.path.join(HERE, "..", "examples", "kernels", "kernels.py"))
K = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(K)

rng = np.random.default_rng(7)


@pytest.mark.parametrize("slope", [0.1, 0.0, 2.0])
def test_leaky_relu(slope):
    x = rng.standard_normal(8 * 4 * 2 * 64).astype(np.float32)
    np.testing.assert_array_equal(K.leaky_relu(x, slope), K.reference_leaky_relu(x, slope))


def test_gelu():
    x = (rng.standard_normal(4 * 512) * 3).astype(np.float16)
    np.testing.assert_allclose(K.gelu(x).astype(np.float32), K.reference_gelu(x).astype(np.float32),
                               rtol=2e-3, atol=2e-3)


def test_layer_norm():
    x = (rng.standard_normal((16, 256)) * 4 + 1).astype(np.float32)
    g, b = rng.standard_normal(256).astype(np.float32), rng.standard_normal(256).astype(np.float32)
    np.testing.assert_allclose(K.layer_norm(x, g, b), K.reference_layer_norm(x, g, b), rtol=1e-4, atol=1e-4)


def test_softmax():
    x = (rng.standard_normal((32, 64)) * 5).astype(np.float32)
    np.testing.assert_allclose(K.softmax(x), K.reference_softmax(x), rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("blocks", [1, 8, 16])
def test_reduce_min_multicore(blocks):
    x = rng.standard_normal(blocks * 1024).astype(np.float32)
    assert K.reduce_min(x) == x.min()


def test_bf16_add():
    xb = K.f32_to_bf16(rng.standard_normal(2048).astype(np.float32))
    yb = K.f32_to_bf16(rng.standard_normal(2048).astype(np.float32))
    np.testing.assert_array_equal(K.bf16_add(xb, yb), K.reference_bf16_add(xb, yb))


def test_unaligned_abs():
    x = rng.standard_normal(3 * 4 * 13).astype(np.float16)
    y = K.unaligned_abs(x)
    np.testing.assert_array_equal(y[:x.size], np.abs(x))
    np.testing.assert_array_equal(y[x.size:], 7)


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_template_two_dtypes(dt):
    x = (rng.standard_normal(256) * 10).astype(dt)
    np.testing.assert_array_equal(K.scale(x, 0.5), (x * dt(0.5) + dt(1)).astype(dt))


@pytest.mark.parametrize("shape,blocks", [((300, 200, 170), 5), ((256, 384, 128), 24)])
def test_matmul_basic(shape, blocks):
    M, Kd, N = shape
    a = rng.integers(-4, 5, (M, Kd)).astype(np.float16)
    b = rng.integers(-4, 5, (Kd, N)).astype(np.float16)
    np.testing.assert_array_equal(K.matmul_basic(a, b, blocks), K.reference_matmul(a, b))


@pytest.mark.parametrize("cores", [1, 6])
def test_matmul_api_bias(cores):
    a = rng.integers(-4, 5, (200, 96)).astype(np.float16)
    b = rng.integers(-4, 5, (96, 144)).astype(np.float16)
    bias = rng.integers(-20, 20, 144).astype(np.float32)
    np.testing.assert_array_equal(K.matmul_api(a, b, bias, cores), K.reference_matmul(a, b, bias))


def test_mix_matmul_leaky_relu():
    a = (rng.standard_normal((128, 48))).astype(np.float16)
    b = (rng.standard_normal((48, 64))).astype(np.float16)
    np.testing.assert_allclose(K.mix_matmul_leaky_relu(a, b, 0.1), K.reference_mix_matmul_leaky_relu(a, b, 0.1),
                               rtol=1e-5, atol=1e-5)
