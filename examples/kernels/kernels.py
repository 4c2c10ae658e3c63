"""Drivers for the example Ascend C kernels in this folder: each function
compiles its .asc once (dav-2201), launches it from NumPy and returns the
result; `reference_*` computes the same with NumPy.  Run this file to check
them all:  python examples/kernels/kernels.py"""
import functools
import glob
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKOUT = os.path.join(HERE, "..", "..")
if glob.glob(os.path.join(CHECKOUT, "ascendrtc", "_C*.so")):  # a built source checkout; else the installed package
    sys.path.insert(0, CHECKOUT)
import ascendrtc as arc  # noqa: E402

OPTIONS = ["--npu-arch=dav-2201"]


@functools.lru_cache(maxsize=None)
def module(name, *exprs):
    with open(os.path.join(HERE, name + ".asc")) as f:
        p = arc.Program(f.read(), name + ".asc")
    for e in exprs:
        p.add_name_expression(e)
    return p.compile(OPTIONS).load()


def _run(kernel, blocks, *args):
    kernel[blocks](*args)
    arc.synchronize()


def f32_to_bf16(x):
    u = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_to_f32(b):
    return (np.asarray(b, np.uint16).astype(np.uint32) << 16).view(np.float32)


# ---- LeakyReLU with a tiling struct ----
def leaky_relu(x, slope, blocks=8, tiles=4):
    x = np.ascontiguousarray(x, np.float32)
    tiling = np.zeros(3, np.uint32)
    tiling[0], tiling[1] = x.size, tiles
    tiling[2:] = np.array([slope], np.float32).view(np.uint32)
    y = np.zeros_like(x)
    _run(module("leaky_relu").get_kernel("leaky_relu"), blocks, x, y, np.zeros(32, np.uint8), tiling)
    return y


def reference_leaky_relu(x, slope):
    x = np.asarray(x, np.float32)
    return np.maximum(x, 0) + np.float32(slope) * np.minimum(x, 0)


# ---- GELU ----
def gelu(x, blocks=4):
    x = np.ascontiguousarray(x, np.float16)
    y = np.zeros_like(x)
    _run(module("gelu").get_kernel("gelu"), blocks, x, y, np.array([x.size // blocks], np.uint32))
    return y


def reference_gelu(x):
    x = np.asarray(x, np.float32)
    with np.errstate(over="ignore"):
        return (x / (1 + np.exp(-1.5957691216057308 * (x + 0.044715 * x ** 3)))).astype(np.float16)


# ---- LayerNorm ----
def layer_norm(x, gamma, beta, eps=1e-5, blocks=4):
    x = np.ascontiguousarray(x, np.float32)
    rows, cols = x.shape
    tiling = np.zeros(3, np.uint32)
    tiling[0], tiling[1] = rows, cols
    tiling[2:] = np.array([eps], np.float32).view(np.uint32)
    y = np.zeros_like(x)
    _run(module("layer_norm").get_kernel("layer_norm"), blocks, x, np.asarray(gamma, np.float32),
         np.asarray(beta, np.float32), y, np.zeros(32, np.uint8), tiling)
    return y


def reference_layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x, np.float64)
    m = x.mean(1, keepdims=True)
    v = ((x - m) ** 2).mean(1, keepdims=True)
    return ((x - m) / np.sqrt(v + eps) * gamma + beta).astype(np.float32)


# ---- row softmax (8 rows of 64 per core) ----
def softmax(x):
    x = np.ascontiguousarray(x, np.float32)
    blocks = x.shape[0] // 8
    y = np.zeros_like(x)
    _run(module("softmax").get_kernel("softmax"), blocks, x, y)
    return y


def reference_softmax(x):
    e = np.exp(x - x.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


# ---- multi-core ReduceMin ----
def reduce_min(x):
    x = np.ascontiguousarray(x, np.float32)
    blocks = x.size // 1024
    z = np.zeros(8, np.float32)
    _run(module("reduce_min").get_kernel("reduce_min"), blocks, x, z, np.zeros(64, np.float32))
    return z[0]


# ---- bf16 add through Cast (bf16 carried as uint16 bits on the host) ----
def bf16_add(xb, yb, blocks=4):
    z = np.zeros_like(xb)
    _run(module("bf16_add").get_kernel("bf16_add"), blocks, xb, yb, z, np.uint32(xb.size))
    return z


def reference_bf16_add(xb, yb):
    return f32_to_bf16(bf16_to_f32(xb) + bf16_to_f32(yb))


# ---- unaligned Abs with DataCopyPad (rows of 13 halves, 4 rows per core) ----
def unaligned_abs(x, blocks=3):
    x = np.ascontiguousarray(x, np.float16)
    y = np.full(x.size + 3, 7, np.float16)   # the tail must stay untouched
    _run(module("unaligned_abs").get_kernel("unaligned_abs"), blocks, x, y)
    return y


# ---- templated kernel for two dtypes ----
def scale(x, factor, blocks=2):
    x = np.ascontiguousarray(x)
    t = {np.dtype(np.float32): "float", np.dtype(np.float16): "half"}[x.dtype]
    expr = "scale<%s>" % t
    y = np.zeros_like(x)
    _run(module("scale_template", "scale<float>", "scale<half>").get_kernel(expr), blocks, x, y,
         np.float32(factor), np.uint32(x.size // blocks))
    return y


# ---- matmul through the basic cube API (L1, L0A/L0B, Mmad, Fixpipe) ----
def matmul_basic(a, b, blocks=24):
    a, b = np.ascontiguousarray(a, np.float16), np.ascontiguousarray(b, np.float16)
    (M, K), N = a.shape, b.shape[1]
    c = np.zeros((M, N), np.float32)
    _run(module("matmul_basic").get_kernel("matmul_basic"), blocks, a, b, c, np.uint32(M), np.uint32(N), np.uint32(K))
    return c


def reference_matmul(a, b, bias=None):
    c = np.asarray(a, np.float32) @ np.asarray(b, np.float32)
    return c if bias is None else c + np.asarray(bias, np.float32)


# ---- matmul + bias through the Matmul API on several cores ----
def matmul_api(a, b, bias, cores=8):
    from ascendrtc import matmul_tiling
    a, b = np.ascontiguousarray(a, np.float16), np.ascontiguousarray(b, np.float16)
    (M, K), N = a.shape, b.shape[1]
    t = matmul_tiling.tiling(M, N, K, "float16", "float32", bias=True, cores=cores)
    c = np.zeros((M, N), np.float32)
    _run(module("matmul_api").get_kernel("matmul_api"), t.usedCoreNum, a, b, np.asarray(bias, np.float32), c,
         t.array())
    return c


# ---- MIX: cube matmul, then LeakyReLU on the vector cores (cross-core flags) ----
def mix_matmul_leaky_relu(a, b, slope, blocks=4):
    a, b = np.ascontiguousarray(a, np.float16), np.ascontiguousarray(b, np.float16)
    (M, K), N = a.shape, b.shape[1]
    assert M % (2 * blocks) == 0 and N % 8 == 0, "each AIV takes whole rows of 32-byte multiples"
    y = np.zeros((M, N), np.float32)
    ws = np.zeros((M, N), np.float32)
    _run(module("mix_matmul_leaky_relu").get_kernel("mix_matmul_leaky_relu"), blocks, a, b, y, ws, np.uint32(M),
         np.uint32(N), np.uint32(K), np.float32(slope))
    return y


def reference_mix_matmul_leaky_relu(a, b, slope):
    c = reference_matmul(a, b)
    return np.where(c >= 0, c, c * np.float32(slope)).astype(np.float32)


def main():
    rng = np.random.default_rng(0)
    x = rng.standard_normal(8 * 4 * 2 * 64).astype(np.float32)
    checks = {
        "leaky_relu": np.allclose(leaky_relu(x, 0.1), reference_leaky_relu(x, 0.1)),
    }
    xh = rng.standard_normal(4 * 256).astype(np.float16)
    checks["gelu"] = np.allclose(gelu(xh).astype(np.float32), reference_gelu(xh).astype(np.float32), rtol=2e-3, atol=2e-3)
    xl = rng.standard_normal((8, 128)).astype(np.float32)
    g, b = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    checks["layer_norm"] = np.allclose(layer_norm(xl, g, b), reference_layer_norm(xl, g, b), rtol=1e-4, atol=1e-4)
    xs = rng.standard_normal((16, 64)).astype(np.float32)
    checks["softmax"] = np.allclose(softmax(xs), reference_softmax(xs), rtol=1e-5, atol=1e-7)
    xr = rng.standard_normal(8 * 1024).astype(np.float32)
    checks["reduce_min"] = reduce_min(xr) == xr.min()
    xb, yb = f32_to_bf16(rng.standard_normal(1024)), f32_to_bf16(rng.standard_normal(1024))
    checks["bf16_add"] = np.array_equal(bf16_add(xb, yb), reference_bf16_add(xb, yb))
    xa = rng.standard_normal(3 * 4 * 13).astype(np.float16)
    ya = unaligned_abs(xa)
    checks["unaligned_abs"] = np.array_equal(ya[:xa.size], np.abs(xa)) and (ya[xa.size:] == 7).all()
    for dt in (np.float32, np.float16):
        xt = np.arange(128).astype(dt)
        checks["scale<%s>" % np.dtype(dt).name] = np.array_equal(scale(xt, 0.5), (xt * dt(0.5) + dt(1)).astype(dt))
    am, bm = rng.integers(-4, 5, (100, 64)).astype(np.float16), rng.integers(-4, 5, (64, 48)).astype(np.float16)
    bias = rng.integers(-9, 9, 48).astype(np.float32)
    checks["matmul_basic"] = np.array_equal(matmul_basic(am, bm, 4), reference_matmul(am, bm))
    checks["matmul_api"] = np.array_equal(matmul_api(am, bm, bias, 4), reference_matmul(am, bm, bias))
    checks["mix_mm_lrelu"] = np.allclose(mix_matmul_leaky_relu(am[:96], bm, 0.1),
                                         reference_mix_matmul_leaky_relu(am[:96], bm, 0.1))
    for k, ok in checks.items():
        print("%-16s %s" % (k, "ok" if ok else "MISMATCH"))
    return all(checks.values())


if __name__ == "__main__":
    sys.exit(0 if main() else 1)

