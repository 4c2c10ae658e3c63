"""Device API: ConfusionTranspose (lib/transpose/confusion_transpose.h) and
its newer name Transpose(dst, src, [tmp,] TransposeType, tiling), the
seven documented scenarios with the ConfusionTransposeTiling that
ascendrtc.adv_tiling builds, against NumPy reshapes/transposes of the same
data (NZ = [cols/16, rows/16, 16, 16] fractals of each matrix); exact."""
import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import adv_tiling
from helpers import dev

B, N, S, D = 2, 2, 32, 16     # scenarios 1, 3-6: [B, N, S, H/N]
N2 = 16                       # scenario 2 needs N a multiple of 16
HW = (32, 48)                 # scenario 7: [H, W]
T = ", GM_ADDR g_tiling"
TMP = ("tmp", np.uint8, 1024)


def to_nz(m):
    """[..., rows, cols] -> its NZ storage, flattened per matrix."""
    *lead, r, c = m.shape
    return m.reshape(*lead, r // 16, 16, c // 16, 16).swapaxes(-3, -2).swapaxes(-4, -3).reshape(*lead, r * c)


def shape_of(kind):
    return (HW if kind == 7 else (B, N2 if kind == 2 else N, S, D))


def reference(kind, x):
    """(src storage, want dst storage) for logical tensor x."""
    if kind == 7:
        return x.ravel(), x.T.ravel()
    b, n, s, d = x.shape
    bsh = x.transpose(0, 2, 1, 3).reshape(b, s, n * d)   # [B, S, H]
    src = to_nz(bsh) if kind in (3, 4) else to_nz(x)
    want = {1: lambda: x.transpose(0, 2, 1, 3), 2: lambda: to_nz(x.transpose(0, 2, 1, 3)), 3: lambda: to_nz(x),
            4: lambda: x, 5: lambda: bsh, 6: lambda: to_nz(bsh)}[kind]()
    return src.ravel(), want.ravel()


@pytest.fixture(scope="module")
def mod():
    ks = []
    for kind in range(1, 8):
        n = int(np.prod(shape_of(kind)))
        for dt in (np.float16, np.float32):
            t = [("x", dt, n), ("z", dt, n), TMP]
            tmp = "tmp, " if kind % 2 else ""
            ks.append(dev.ub_kernel("ct%d_%s" % (kind, dev.ctype(dt)), t,
                                    "ConfusionTransposeTiling tl = *(__gm__ ConfusionTransposeTiling *)g_tiling;"
                                    " ConfusionTranspose(z, x, %s(TransposeType)%d, tl);" % (tmp, kind), T))
        t = [("x", np.float32, n), ("z", np.float32, n), TMP]
        ks.append(dev.ub_kernel("tp%d" % kind, t, "ConfusionTransposeTiling tl = *(__gm__ ConfusionTransposeTiling *)"
                                "g_tiling; Transpose(z, x, %s(TransposeType)%d, tl);" % ("" if kind % 2 else "tmp, ", kind), T))
    return dev.program(ks)


@pytest.mark.parametrize("dt", [np.float16, np.float32], ids=["half", "float"])
@pytest.mark.parametrize("kind", range(1, 8))
def test_confusion_transpose(mod, kind, dt):
    shape = shape_of(kind)
    n = int(np.prod(shape))
    # distinct values: finite half bit patterns, or the indices as float
    x = (np.arange(n, dtype=np.uint16).view(np.float16) if dt == np.float16 else np.arange(n, dtype=dt)).reshape(shape)
    src, want = reference(kind, x)
    tl = adv_tiling.confusion_transpose_tiling(shape, np.dtype(dt).itemsize, kind)
    z = dev.run(mod, "ct%d_%s" % (kind, dev.ctype(dt)), [("x", dt, n), ("z", dt, n), TMP],
                [src, np.zeros(n, dt), np.zeros(1024, np.uint8)], extra=(tl,))[1]
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("kind", range(1, 8))
def test_transpose_is_confusion_transpose_by_its_newer_name(mod, kind):
    shape = shape_of(kind)
    n = int(np.prod(shape))
    src, want = reference(kind, np.arange(n, dtype=np.float32).reshape(shape))
    tl = adv_tiling.confusion_transpose_tiling(shape, 4, kind)
    z = dev.run(mod, "tp%d" % kind, [("x", np.float32, n), ("z", np.float32, n), TMP],
                [src, np.zeros(n, np.float32), np.zeros(1024, np.uint8)], extra=(tl,))[1]
    np.testing.assert_array_equal(z, want)


def test_tiling_for_another_scenario_is_caught(mod):
    n = int(np.prod(shape_of(1)))
    tl = adv_tiling.confusion_transpose_tiling(shape_of(4), 2, 4)
    with pytest.raises(arc.LaunchError, match=r"AscendC::ConfusionTranspose: the tiling was made for scenario 4"):
        dev.run(mod, "ct1_half", [("x", np.float16, n), ("z", np.float16, n), TMP],
                [np.zeros(n, np.float16), np.zeros(n, np.float16), np.zeros(1024, np.uint8)], extra=(tl,))


@pytest.mark.parametrize("shape,kind,msg", [((2, 2, 30, 16), 1, "multiples of 16"), ((2, 2, 32, 16), 2, "N a multiple"),
                                            ((32, 48), 1, "4-D"), ((32, 40), 7, "multiples of 16"),
                                            ((32, 48), 8, "1..7")])
def test_bad_transpose_shapes(shape, kind, msg):
    with pytest.raises(ValueError, match=msg):
        adv_tiling.confusion_transpose_tiling(shape, 2, kind)
