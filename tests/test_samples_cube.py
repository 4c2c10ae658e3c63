"""Public cube samples, run unchanged from a local samples mirror
($ASCEND_SAMPLES_SRC; skipped without it) against NumPy references written
here; TCubeTiling comes from ascendrtc.matmul_tiling in place of the
samples' host tiling.  mmad (basic API, with and without bias), the
Matmul-API kernel launch (multi-core IterateAll), Matmul + LeakyReLU
(Iterate + GetTensorC into UB) and the bare MIX kernel (AIC Matmul,
CrossCoreSetFlag, two AIVs LeakyRelu)."""
import os

import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers.samples import sample_path

D = "operator/ascendc/0_introduction/"
rng = np.random.default_rng(21)


def load(rel):
    path = sample_path(D + rel)
    with open(path) as f:
        src = f.read()
    return arc.Program(src, os.path.basename(rel)).compile(
        ["--npu-arch=dav-2201", "-I" + os.path.dirname(path)]).load()


def leaky(x, alpha):
    return np.where(x >= 0, x, x * np.float32(alpha)).astype(np.float32)


def test_mmad_sample():
    mod = load("20_mmad_kernellaunch/MmadInvocation/mmad_custom.cpp")
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    mod.get_kernel("mmad_custom")[1](a, b, c)
    arc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_mmad_bias_sample():
    mod = load("20_mmad_kernellaunch/MmadBiasInvocation/mmad_custom.cpp")
    a = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    b = rng.integers(-4, 5, (32, 32)).astype(np.float16)
    bias = rng.integers(-9, 9, 32).astype(np.float16)
    c = np.zeros((32, 32), np.float32)
    mod.get_kernel("mmad_custom")[1](a, b, bias, c)
    arc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32) + bias.astype(np.float32))


def test_matmul_invocation_sample():
    mod = load("11_matmul_kernellaunch/MatmulInvocationNeo/matmul_custom.cpp")
    M, N, K = 512, 1024, 512
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    t = mt.tiling(M, N, K, cores=8)
    tiling = np.concatenate([t.array().view(np.uint8), np.zeros(8, np.uint8)])   # + localMemSize (uint64)
    c = np.zeros((M, N), np.float32)
    mod.get_kernel("matmul_custom")[(t.usedCoreNum + 1) // 2](a, b, c, np.zeros(64, np.uint8), tiling)   # MIX
    arc.synchronize()
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_matmul_leakyrelu_sample():
    mod = load("13_matmulleakyrelu_kernellaunch/MatmulLeakyReluInvocation/matmul_leakyrelu_custom.cpp")
    M, N, K = 256, 256, 64
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    bias = rng.standard_normal(N).astype(np.float32)
    t = mt.tiling(M, N, K, bias=True, cores=4)
    assert t.singleCoreM % t.baseM == 0 and t.singleCoreN % t.baseN == 0   # the sample copies whole blocks
    c = np.zeros((M, N), np.float32)
    mod.get_kernel("matmul_leakyrelu_custom")[(t.usedCoreNum + 1) // 2](a, b, bias, c, np.zeros(64, np.uint8),
                                                                       t.array())
    arc.synchronize()
    want = leaky(a.astype(np.float64) @ b.astype(np.float64) + bias, 0.001)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5)


def test_baremix_sample():
    mod = load("22_baremix_kernellaunch/BareMixInvocation/baremix_custom.cpp")
    M, N, K = 128, 128, 64
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    bias = rng.standard_normal(N).astype(np.float32)
    t = mt.tiling(M, N, K, bias=True, cores=1)     # one AI core: its AIC multiplies, its 2 AIVs take half each
    c = np.zeros((M, N), np.float32)
    mod.get_kernel("baremix_custom")[1](a, b, bias, c, np.zeros(64, np.uint8), t.array())
    arc.synchronize()
    want = leaky(a.astype(np.float64) @ b.astype(np.float64) + bias, 0.001)
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-5)


FRAMEWORK = [
    "operator/ascendc/0_introduction/10_matmul_frameworklaunch/MatmulCustomMultiCore",
    "operator/ascendc/0_introduction/10_matmul_frameworklaunch/MatmulCustomSingleCore",
    "operator/ascendc/0_introduction/12_matmulleakyrelu_frameworklaunch/MatmulLeakyReluCustom",
    "operator/ascendc/2_features/14_matmul_api_constant/MatmulApiConstantCustom",
    "operator_contrib/HighPerfMatMul/FrameworkLaunch/HighPerfMatMulCustom",
    "operator_contrib/MatmulLeakyReluCustom/HighPerfMatMulLeakyReluCustom",
]


@pytest.mark.parametrize("project", FRAMEWORK)
def test_framework_matmul_samples_compile(project):
    """Op-project Matmul kernels (TCubeTiling inside the op's tiling data,
    MDL and constant configs, callbacks) compile through ascendrtc.op_kernel."""
    arc.op_kernel(sample_path(project)).kernel()


# Op projects whose kernels register Matmul objects run as the op build makes
# them (MIX, AIC:AIV = 1:2) with their own host tiling; outputs are given
# (their InferShape sets none).
RUNS = [
    "operator/ascendc/0_introduction/10_matmul_frameworklaunch/MatmulCustomMultiCore",
    "operator/ascendc/0_introduction/10_matmul_frameworklaunch/MatmulCustomSingleCore",
    "operator/ascendc/2_features/14_matmul_api_constant/MatmulApiConstantCustom",
]


@pytest.mark.parametrize("project", RUNS, ids=[p.split("/")[-1] for p in RUNS])
def test_framework_matmul_samples_run(project):
    op = arc.op_project(sample_path(project))
    M, N, K = 1024, 640, 256          # the samples' own shape
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    b = rng.uniform(-1, 1, (K, N)).astype(np.float16)
    bias = rng.uniform(-1, 1, N).astype(np.float32)
    c = np.zeros((M, N), np.float32)
    op(a, b, bias, outputs=[c])
    want = a.astype(np.float64) @ b.astype(np.float64) + bias
    np.testing.assert_allclose(c, want, rtol=1e-5, atol=1e-4)
