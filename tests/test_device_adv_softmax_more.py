"""Device API: LogSoftMax (lib/activation/logsoftmax.h) and SoftmaxGrad
(lib/activation/softmax_grad.h; SoftmaxGradFront too) against the docs' Python definitions in
NumPy float64 (LogSoftMax's log is base 10, as its page defines it), with
the shape from SoftMaxShapeInfo (the tiling left empty, as CANN's example
passes it) or from the host tiling; and their host tiling functions (with
AscendAntiQuant's scratch query, host code's other new one).
Tolerances: float32 rtol 1e-5 / atol 1e-6; float16 rtol 4e-3 / atol 4e-3."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from helpers import dev

M, K = 4, 64
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def tol(dt):
    return dict(rtol=4e-3, atol=4e-3) if dt == np.float16 else dict(rtol=1e-5, atol=1e-6)


def tensors(dt):
    blk = 32 // np.dtype(dt).itemsize
    return [("x", dt, M * K), ("g", dt, M * K), ("z", dt, M * K), ("s", dt, M * blk), ("m", dt, M * blk),
            ("tmp", np.uint8, 1024)]


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in (np.float32, np.float16):
        c = dev.ctype(dt)
        ks.append(dev.ub_kernel("lsm_" + c, tensors(dt), "LogSoftMaxTiling tl{};"
                                "LogSoftMax<%s>(z, s, m, x, tmp, tl, SoftMaxShapeInfo{%d, %d, %d, %d});" % (c, M, K, M, K)))
        ks.append(dev.ub_kernel("grad_" + c, tensors(dt), "SoftMaxTiling tl{};"
                                "SoftmaxGrad<%s>(z, g, x, tl, false, SoftMaxShapeInfo{%d, %d, %d, %d});" % (c, M, K, M, K)))
        ks.append(dev.ub_kernel("front_" + c, tensors(dt), "SoftMaxTiling tl{}; tl.srcM = %d; tl.srcK = %d;"
                                "SoftmaxGrad<%s>(s, g, x, tmp, tl, true);" % (M, K, c)))
        ks.append(dev.ub_kernel("gfront_" + c, tensors(dt), "SoftMaxTiling tl{};"
                                "SoftmaxGradFront<%s>(s, g, x, tl, SoftMaxShapeInfo{%d, %d, %d, %d});" % (c, M, K, M, K)))
        ks.append(dev.ub_kernel("gfront_tmp_" + c, tensors(dt), "SoftMaxTiling tl{}; tl.srcM = %d; tl.srcK = %d;"
                                "SoftmaxGradFront<%s>(s, g, x, tmp, tl);" % (M, K, c)))
    ks.append(dev.ub_kernel("grad_inplace", tensors(np.float32), "SoftMaxTiling tl{};"
                            "SoftmaxGrad<float>(x, g, x, tl, false, SoftMaxShapeInfo{%d, %d, %d, 40});" % (M, K, M)))
    return dev.program(ks)


def inputs(dt):
    rng = np.random.default_rng(7)
    blk = 32 // np.dtype(dt).itemsize
    x = rng.uniform(-2, 2, (M, K)).astype(dt)
    g = rng.uniform(-1, 1, (M, K)).astype(dt)
    return [x.ravel(), g.ravel(), np.zeros(M * K, dt), np.zeros(M * blk, dt), np.zeros(M * blk, dt),
            np.zeros(1024, np.uint8)], x.astype(np.float64), g.astype(np.float64)


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_log_softmax_is_log10_of_softmax(mod, dt):
    arrays, x, _ = inputs(dt)
    out = dev.run(mod, "lsm_" + dev.ctype(dt), tensors(dt), arrays)
    mx = x.max(axis=1, keepdims=True)
    e = np.exp(x - mx)
    s = e.sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out[2].reshape(M, K).astype(np.float64), np.log10(e / s), **tol(dt))
    blk = 32 // np.dtype(dt).itemsize
    np.testing.assert_allclose(out[3].reshape(M, blk).astype(np.float64), np.repeat(s, blk, 1), **tol(dt))
    np.testing.assert_allclose(out[4].reshape(M, blk).astype(np.float64), np.repeat(mx, blk, 1), **tol(dt))


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
def test_softmax_grad(mod, dt):
    arrays, x, g = inputs(dt)
    out = dev.run(mod, "grad_" + dev.ctype(dt), tensors(dt), arrays)
    s = (g * x).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(out[2].reshape(M, K).astype(np.float64), (g - s) * x, **tol(dt))


@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["float", "half"])
@pytest.mark.parametrize("name", ["front_", "gfront_", "gfront_tmp_"],
                         ids=["SoftmaxGrad_isFront", "SoftmaxGradFront", "SoftmaxGradFront_tmp"])
def test_softmax_grad_front_is_the_row_sum_in_a_block(mod, dt, name):
    arrays, x, g = inputs(dt)
    out = dev.run(mod, name + dev.ctype(dt), tensors(dt), arrays)
    blk = 32 // np.dtype(dt).itemsize
    want = np.repeat((g * x).sum(axis=1, keepdims=True), blk, 1)
    np.testing.assert_allclose(out[3].reshape(M, blk).astype(np.float64), want, **tol(dt))


def test_softmax_grad_in_place_over_the_valid_columns(mod):
    arrays, x, g = inputs(np.float32)
    out = dev.run(mod, "grad_inplace", tensors(np.float32), arrays)
    s = (g[:, :40] * x[:, :40]).sum(axis=1, keepdims=True)
    want = np.zeros((M, K))
    want[:, :40] = (g[:, :40] - s) * x[:, :40]
    np.testing.assert_allclose(out[0].reshape(M, K), want, **tol(np.float32))


CXX = r"""
#include <cstdint>
#include <cstdio>
#include <vector>
namespace ge {
struct Shape {
    std::vector<int64_t> d;
    Shape(std::vector<int64_t> v) : d(v) {}
    size_t GetDimNum() const { return d.size(); }
    int64_t GetDim(size_t i) const { return d[i]; }
};
}
#include "host_api/lib/adv_tiling_api.h"
#include "host_api/lib/adv_elem_tiling_api.h"
int main()
{
    ge::Shape s({4, 64});
    uint32_t lmn = AscendC::GetLogSoftMaxMinTmpSize(s, 4, false), lmx = AscendC::GetLogSoftMaxMaxTmpSize(s, 4, false);
    uint32_t gmn = AscendC::GetSoftMaxGradMinTmpSize(s, 2, true, false);
    uint32_t gmx = AscendC::GetSoftMaxGradMaxTmpSize(s, 2, false, false);
    optiling::LogSoftMaxTiling lt;
    AscendC::LogSoftMaxTilingFunc(s, 4, lmx, lt);
    AscendC::tiling::SoftMaxTiling gt{};
    AscendC::SoftMaxGradTilingFunc(s, 2, gmn, gt, true);
    uint32_t amx = 0, amn = 0;
    AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({1000}), ge::Shape({8}), false, 2, 1, amx, amn);
    printf("%u %u %u %u %u %u %u %u %zu %u %u\n", lmn, lmx, gmn, gmx, lt.srcM, lt.srcK, gt.srcM, gt.srcK,
           lt.GetDataSize(), amn, amx);
    return 0;
}
"""


@pytest.mark.skipif(not shutil.which("g++"), reason="no host C++ compiler")
def test_host_tiling_functions(tmp_path):
    (tmp_path / "t.cpp").write_text(CXX)
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(ROOT, "csrc"),
                    str(tmp_path / "t.cpp"), "-o", str(tmp_path / "t")], check=True, capture_output=True, text=True)
    lmn, lmx, gmn, gmx, lm, lk, gm, gk, size, amn, amx = map(int, subprocess.run([str(tmp_path / "t")], capture_output=True,
                                                                      text=True, check=True).stdout.split())
    # a float row of 64 in 2 buffers plus a block each, at least; all rows for the max
    assert lmn >= 2 * 64 * 4 and lmx >= 4 * lmn and 0 < gmn <= gmx
    assert (lm, lk, gm, gk, size) == (4, 64, 4, 64, 64)
    assert 0 < amn <= amx and amx >= 1000 * 4  # float intermediates of every source element
