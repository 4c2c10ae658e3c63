"""MxMatmul (arc/matmul_mx.h): the Matmul API with MatmulWithScalePolicy and
MatmulTypeWithScale operands (fp8 e4m3fn/e5m2, fp4 e2m1/e1m2 pairs) and
their e8m0 scales in GM as the MxMatmul guide lays them out: scaleA
[M, SK] or transposed [SK/2, M, 2], scaleB [SK/2, N, 2] or transposed
[N, SK] (SK = 2 ceil(K / 64)); IterateAll with and without a bias, against
exact decoding (helpers/lowp_ref.py) and the products (exact in float)
added in increasing k in float32 from the bias; a missing SetTensorScaleB
is refused."""
import numpy as np
import pytest

import ascendrtc as arc
import ascendrtc.matmul_tiling as mt
from helpers import lowp_ref as ref

SRC = r"""
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;

template <typename TA, typename TB, bool STA, bool STB>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, GM_ADDR c, GM_ADDR tilingGm,
                           uint32_t noScaleB)
{
    TCubeTiling t;
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, tl, tilingGm);
    t = tl;
    TPipe pipe;
    GlobalTensor<TA> ga; ga.SetGlobalBuffer((__gm__ TA *)a);
    GlobalTensor<TB> gb; gb.SetGlobalBuffer((__gm__ TB *)b);
    GlobalTensor<fp8_e8m0_t> gsa, gsb;
    gsa.SetGlobalBuffer((__gm__ fp8_e8m0_t *)sa); gsb.SetGlobalBuffer((__gm__ fp8_e8m0_t *)sb);
    GlobalTensor<float> gc, gbias; gc.SetGlobalBuffer((__gm__ float *)c); gbias.SetGlobalBuffer((__gm__ float *)bias);
    Matmul<MatmulTypeWithScale<TPosition::GM, TPosition::GM, CubeFormat::ND, TA, false, TPosition::GM, CubeFormat::ND,
                               STA>,
           MatmulTypeWithScale<TPosition::GM, TPosition::GM, CubeFormat::ND, TB, false, TPosition::GM, CubeFormat::ND,
                               STB>,
           MatmulType<TPosition::GM, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>, CFG_NORM,
           MatmulCallBackFunc<nullptr, nullptr, nullptr>, Impl::Detail::MatmulWithScalePolicy> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    mm.SetTensorScaleA(gsa, STA);
    if (!noScaleB) mm.SetTensorScaleB(gsb, STB);
    if (t.isBias) mm.SetBias(gbias);
    mm.IterateAll(gc);
    mm.End();
}
"""
KERNELS = {"mx_e4m3_e5m2": ("fp8_e4m3fn_t", "fp8_e5m2_t", "false", "false"),
           "mx_e5m2_e4m3_t": ("fp8_e5m2_t", "fp8_e4m3fn_t", "true", "true"),
           "mx_e2m1_e1m2": ("fp4x2_e2m1_t", "fp4x2_e1m2_t", "false", "true")}
for _n, (_a, _b, _sa, _sb) in KERNELS.items():
    SRC += ('extern "C" __global__ __cube__ void %s(GM_ADDR a, GM_ADDR sa, GM_ADDR b, GM_ADDR sb, GM_ADDR bias, '
            'GM_ADDR c, GM_ADDR w, GM_ADDR t, uint32_t noScaleB)\n{ (void)w; Run<%s, %s, %s, %s>(a, sa, b, sb, bias, '
            'c, t, noScaleB); }\n' % (_n, _a, _b, _sa, _sb))

M, N, K = 48, 64, 128
SK = 2 * ((K + 63) // 64)
FMT = {"fp8_e4m3fn_t": "e4m3", "fp8_e5m2_t": "e5m2", "fp4x2_e2m1_t": "e2m1", "fp4x2_e1m2_t": "e1m2"}


@pytest.fixture(scope="module")
def mod():
    return arc.Program(SRC, "matmul_mx.asc").compile(["--npu-arch=dav-3510"]).load()


def codes(rng, fmt, shape):
    ok = [b for b in range(256 if fmt[1] in "45" else 16) if np.isfinite(ref.decode(b, fmt))]
    return rng.choice(np.array(ok, np.uint8), size=shape)


def packed(c, fmt):
    return (c[:, 0::2] | (c[:, 1::2] << 4)).astype(np.uint8) if fmt[1] in "12" else c


def value(c, fmt):
    return np.vectorize(lambda v: ref.decode(int(v), fmt))(c).astype(np.float64)


@pytest.mark.parametrize("name", list(KERNELS))
@pytest.mark.parametrize("bias", [False, True])
def test_matmul_mx(mod, name, bias):
    ta, tb, sta, stb = KERNELS[name]
    fa, fb = FMT[ta], FMT[tb]
    rng = np.random.default_rng(len(name) + bias)
    a, b = codes(rng, fa, (M, K)), codes(rng, fb, (K, N))
    sa = rng.integers(120, 134, (M, SK)).astype(np.uint8)          # scale of A[m, 32 s: 32 s + 32]
    sb = rng.integers(120, 134, (SK, N)).astype(np.uint8)          # scale of B[32 s: 32 s + 32, n]
    bv = rng.integers(-8, 8, N).astype(np.float32)
    # the GM layouts: A's [M, SK] or [SK/2, M, 2]; B's [SK/2, N, 2] or [N, SK]
    ga = sa.reshape(M, SK // 2, 2).transpose(1, 0, 2).copy() if sta == "true" else sa
    gb = sb.T.copy() if stb == "true" else sb.reshape(SK // 2, 2, N).transpose(0, 2, 1).copy()
    t = mt.tiling(M, N, K, "int8", "float32", bias=bias, cores=1)
    c = np.zeros((M, N), np.float32)
    mod.get_kernel(name)[1](packed(a, fa), ga, packed(b, fb), gb, bv, c,
                            np.zeros(64, np.uint8), t.array(), np.uint32(0))
    arc.synchronize()
    A = (value(a, fa) * np.repeat(2.0 ** (sa.astype(np.float64) - 127), 32, axis=1)).astype(np.float32)
    B = (value(b, fb) * np.repeat(2.0 ** (sb.astype(np.float64) - 127), 32, axis=0)).astype(np.float32)
    acc = np.tile(bv, (M, 1)) if bias else np.zeros((M, N), np.float32)
    for k in range(K):
        acc = (acc + np.outer(A[:, k], B[k, :])).astype(np.float32)
    np.testing.assert_array_equal(c, acc)


def test_matmul_mx_needs_scale_b(mod):
    t = mt.tiling(M, N, K, "int8", "float32", cores=1)
    z = np.zeros(M * K, np.uint8)
    with pytest.raises(arc.Error, match="SetTensorScaleA and SetTensorScaleB must come first"):
        mod.get_kernel("mx_e4m3_e5m2")[1](z, np.zeros(M * SK, np.uint8), np.zeros(K * N, np.uint8),
                                          np.zeros(N * SK, np.uint8), np.zeros(N, np.float32),
                                          np.zeros((M, N), np.float32), np.zeros(64, np.uint8), t.array(),
                                          np.uint32(1))
        arc.synchronize()
