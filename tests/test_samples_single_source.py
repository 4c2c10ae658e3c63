"""The public samples' single-source kernel files (.asc with host code: a
main, ACL calls, <iostream>/<vector>, the host tiling API), compiled
unchanged from a local samples mirror ($ASCEND_SAMPLES_SRC; skipped without
it) as CANN's single-source flow compiles them, their kernels launched from
Python against NumPy references written here (the host part never runs)."""
import os

import numpy as np

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers.samples import sample_path

D = "operator/ascendc/0_introduction/"


def compile_sample(rel):
    path = sample_path(D + rel)
    with open(path) as f:
        src = f.read()
    return arc.Program(src, os.path.basename(rel)).compile(["--npu-arch=dav-2201", "-I" + os.path.dirname(path)])


def test_hello_world_asc(capfd):
    b = compile_sample("24_simple_hello_world/hello_world.asc")
    assert "note: host code" in b.log
    b.load().get_kernel("hello_world")[1]()
    arc.synchronize()
    assert "Hello World!!!" in capfd.readouterr().out


def test_simple_add_asc():
    # 8 blocks x 8 tiles, double-buffered queues; the tiling struct goes by value
    k = compile_sample("25_simple_add/add_custom.asc").load().get_kernel("add_custom")
    n = 8 * 2048
    rng = np.random.default_rng(31)
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    z = np.zeros(n, np.float32)
    k[8](x, y, z, np.array([n, 8], np.uint32).tobytes())
    arc.synchronize()
    np.testing.assert_array_equal(z, x + y)


def test_simple_matmul_leakyrelu_asc():
    # MIX 1:2: the AIC's Matmul Iterate<true> -> GetTensorC into UB, the AIVs' LeakyRelu(0.001) and copy-out
    k = compile_sample("26_simple_matmulleakyrelu/matmul_leakyrelu.asc").load().get_kernel("matmul_leakyrelu_custom")
    M, N, K = 256, 256, 64
    rng = np.random.default_rng(32)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    bias = rng.standard_normal(N).astype(np.float32)
    # as the sample's host part: SetDim(2) counts AIVs, so 2 of them split the work in 1 MIX block,
    # each indexing its part with its own GetBlockIdx()
    t = mt.tiling(M, N, K, bias=True, cores=2)
    assert t.usedCoreNum == 2 and t.singleCoreM % t.baseM == 0 and t.singleCoreN % t.baseN == 0
    c = np.zeros((M, N), np.float32)
    k[1](a, b, bias, c, np.zeros(64, np.uint8), t.array().tobytes())
    arc.synchronize()
    r = a.astype(np.float64) @ b.astype(np.float64) + bias
    np.testing.assert_allclose(c, np.where(r >= 0, r, r * 0.001), rtol=1e-5, atol=1e-5)
