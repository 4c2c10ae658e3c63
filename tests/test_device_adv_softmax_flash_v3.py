"""Device API: SoftmaxFlashV3 (lib/activation/softmaxflashv3.h) against its
page's Python definition written in NumPy float64 (the chunk means by the
page's BlockReduceSum / Add / BlockReduceSum order, the shift broadcast
over contiguous chunks as CANN's asc-devkit golden does), both the update
and the first-step forms, in place for the statistics; the page's shape
limits refused.  Tolerances: dst (half) rtol 2e-3, statistics rtol 1e-4."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

M, N, LOOP, ALPHA = 8, 1024, 3, 0.96889


def tensors():
    f = np.float32
    return [("x", np.float16, M * N), ("z", np.float16, M * N), ("mean", f, M * 8), ("sum", f, M * 8),
            ("mx", f, M * 8), ("em", np.float16, M * 16), ("tmp", np.uint8, 1024)]


def body(update, n=N, split=8):
    p = "SoftMaxTiling tl{}; SoftMaxParams p = {%d, %d, %d, %d, %d, %d, %.5ff};\n" % (M, n, M, n, LOOP, split, ALPHA)
    return p + ("SoftmaxFlashV3<half, float, %s>(z, mean, sum, mx, x, em, mean, sum, mx, tmp, tl, p);"
                % ("true" if update else "false"))


@pytest.fixture(scope="module")
def mod():
    return dev.program([dev.ub_kernel("f3_upd", tensors(), body(True)),
                        dev.ub_kernel("f3_first", tensors(), body(False)),
                        dev.ub_kernel("f3_narrow", tensors(), body(False, n=448)),
                        dev.ub_kernel("f3_split", tensors(), body(False, split=4))])


def reference(x, inmean, insum, inmax, update):
    x = x.astype(np.float64)
    scalar = ALPHA / (1 - ALPHA)
    t = x[:, :512].reshape(M, 64, 8).sum(axis=2)
    for r in range(N // 64 - 8):
        t = t + x[:, 512 + 64 * r:576 + 64 * r]
    local = t.reshape(M, 8, 8).sum(axis=2) / (N // 8)
    g = x.mean(axis=1, keepdims=True)
    xs = x - np.repeat((g - local) * scalar, N // 8, axis=1)
    rmax = xs.max(axis=1, keepdims=True)
    if not update:
        dst = np.exp(xs - rmax)
        return dst, g, rmax, dst.sum(axis=1, keepdims=True), None
    mean = (g + inmean * (LOOP - 1)) / LOOP
    sc, sp = (g - mean) * scalar, (inmean - mean) * scalar
    mx = np.maximum(sc + rmax, sp + inmax)
    dst = np.exp(xs - (mx - sc))
    em = np.exp(inmax - mx + sp)
    return dst, mean, mx, em * insum + dst.sum(axis=1, keepdims=True), em


@pytest.mark.parametrize("update", [True, False], ids=["update", "first_step"])
def test_softmax_flash_v3(mod, update):
    rng = np.random.default_rng(21)
    x = rng.uniform(0, 10, (M, N)).astype(np.float16)
    # a previous mean near this block's (~5); the previous max wins on even rows (expMax 1, the block's
    # terms scaled down), this block's on odd rows (expMax < 1)
    inmean = rng.uniform(4.9, 5.1, (M, 1)).astype(np.float32)
    insum = rng.uniform(0.5, 6, (M, 1)).astype(np.float32)
    inmax = np.where(np.arange(M)[:, None] % 2 == 0, 60.0, 9.0).astype(np.float32)
    blk = lambda v: np.repeat(v, 8, axis=1).ravel()  # noqa: E731
    out = dev.run(mod, "f3_upd" if update else "f3_first", tensors(),
                  [x.ravel(), np.zeros(M * N, np.float16), blk(inmean), blk(insum), blk(inmax),
                   np.zeros(M * 16, np.float16), np.zeros(1024, np.uint8)])
    dst, mean, mx, s, em = reference(x, inmean.astype(np.float64), insum.astype(np.float64),
                                     inmax.astype(np.float64), update)
    np.testing.assert_allclose(out[1].reshape(M, N).astype(np.float64), dst, rtol=2e-3, atol=1e-4)
    for got, want in ((out[2], mean), (out[4], mx), (out[3], s)):
        np.testing.assert_allclose(got.reshape(M, 8), np.repeat(want, 8, axis=1), rtol=1e-4)
    if update:
        np.testing.assert_allclose(out[5].reshape(M, 16).astype(np.float64), np.repeat(em, 16, axis=1), rtol=2e-3,
                                   atol=1e-4)


@pytest.mark.parametrize("name,msg", [("f3_narrow", r"srcK 448 must be >= 512 and a multiple of 64"),
                                      ("f3_split", r"params.splitMeanCnt 4: only 8 is supported")])
def test_softmax_flash_v3_limits(mod, name, msg):
    z = np.zeros(M * 8, np.float32)
    with pytest.raises(arc.LaunchError, match=r"AscendC::SoftmaxFlashV3: .*" + msg):
        dev.run(mod, name, tensors(), [np.zeros(M * N, np.float16), np.zeros(M * N, np.float16), z, z, z,
                                       np.zeros(M * 16, np.float16), np.zeros(1024, np.uint8)])
