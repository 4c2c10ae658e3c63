"""Device API: the advanced API's bit and logic functions (lib/math/bitwise.h):
BitwiseAnd/Or/Xor/Not and LogicalAnd/Or/Xor/Not/Ands/Ors on dav-3510, the
older Xor on dav-2201, against NumPy; count below the tensor leaves the
tail alone; the arch, dtype and overlap rules of their pages."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

N, BIG = 200, 256
A35 = ("--npu-arch=dav-3510",)
INTS = [np.int8, np.uint16, np.int32, np.int64, np.uint64]
BITWISE = {"BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor}
LOGICAL = {"LogicalAnd": np.logical_and, "LogicalOr": np.logical_or, "LogicalXor": np.logical_xor}
LSRC = [np.float32, np.float16, np.int16, np.bool_]


def name(*parts):
    return "_".join(p if isinstance(p, str) else np.dtype(p).name for p in parts)


@pytest.fixture(scope="module")
def mod():
    ks = []
    for dt in INTS:
        p = [("x", dt, BIG), ("y", dt, BIG), ("z", dt, BIG)]
        for op in BITWISE:
            ks.append(dev.ub_kernel(name(op, dt), p, "%s(z, x, y, %d);" % (op, N)))
        ks.append(dev.ub_kernel(name("BitwiseNot", dt), p, "BitwiseNot(z, x, %d);" % N))
    for dt in LSRC:
        p = [("x", dt, BIG), ("y", dt, BIG), ("z", np.bool_, BIG)]
        for op in LOGICAL:
            ks.append(dev.ub_kernel(name(op, dt), p, "%s(z, x, y, %d);" % (op, N)))
        ks.append(dev.ub_kernel(name("LogicalNot", dt), p, "LogicalNot(z, x, %d);" % N))
    p = [("x", np.float32, BIG), ("y", np.float32, BIG), ("z", np.bool_, BIG)]
    ks.append(dev.ub_kernel("ands", p, "LogicalAnds(z, x, 2.0f, %d);" % N))
    ks.append(dev.ub_kernel("ors_first", p, "LogicalOrs(z, 0.0f, x, %d);" % N))
    return dev.program(ks, A35)


def ints(dt, seed):
    info = np.iinfo(dt)
    return np.random.default_rng(seed).integers(info.min, info.max, BIG, dtype=dt, endpoint=True)


def logic_src(dt, seed):
    rng = np.random.default_rng(seed)
    if dt == np.bool_:
        return rng.random(BIG) < 0.5
    x = np.where(rng.random(BIG) < 0.4, 0, rng.integers(-3, 4, BIG)).astype(dt)
    if dt in (np.float32, np.float16):
        x[:4] = [-0.0, np.nan, np.inf, 0.5]  # -0.0 is false; NaN and inf are true
    return x


@pytest.mark.parametrize("dt", INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(BITWISE) + ["BitwiseNot"])
def test_bitwise(mod, op, dt):
    x, y = ints(dt, 1), ints(dt, 2)
    sentinel = np.full(BIG, 7, dt)
    p = [("x", dt, BIG), ("y", dt, BIG), ("z", dt, BIG)]
    z = dev.run(mod, name(op, dt), p, [x, y, sentinel])[2]
    want = np.invert(x) if op == "BitwiseNot" else BITWISE[op](x, y)
    np.testing.assert_array_equal(z[:N], want[:N])
    np.testing.assert_array_equal(z[N:], sentinel[N:])  # count < the tensor: the tail stays


@pytest.mark.parametrize("dt", LSRC, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("op", list(LOGICAL) + ["LogicalNot"])
def test_logical(mod, op, dt):
    x, y = logic_src(dt, 3), logic_src(dt, 4)
    p = [("x", dt, BIG), ("y", dt, BIG), ("z", np.bool_, BIG)]
    z = dev.run(mod, name(op, dt), p, [x, y, np.ones(BIG, np.bool_)])[2]
    xb, yb = x.astype(bool), y.astype(bool)          # NumPy: nonzero (NaN too) is True, -0.0 False
    want = np.logical_not(xb) if op == "LogicalNot" else LOGICAL[op](xb, yb)
    np.testing.assert_array_equal(z[:N], want[:N])
    assert z[N:].all()


def test_logical_scalar_forms(mod):
    x = logic_src(np.float32, 5)
    p = [("x", np.float32, BIG), ("y", np.float32, BIG), ("z", np.bool_, BIG)]
    z = dev.run(mod, "ands", p, [x, x, np.zeros(BIG, np.bool_)])[2]
    np.testing.assert_array_equal(z[:N], x.astype(bool)[:N])
    z = dev.run(mod, "ors_first", p, [x, x, np.zeros(BIG, np.bool_)])[2]
    np.testing.assert_array_equal(z[:N], x.astype(bool)[:N])


def test_bool_bytes_other_than_one_are_true():
    """A bool source byte 2 (a mask loaded as bytes) counts as true."""
    p = [("m", np.uint8, 64), ("z", np.bool_, 64)]
    k = dev.ub_kernel("raw", p, "LogicalNot(z, m.ReinterpretCast<bool>(), 64);")
    m = dev.program([k], A35)
    src = np.array([0, 1, 2, 255] * 16, np.uint8)
    z = dev.run(m, "raw", p, [src, np.zeros(64, np.bool_)])[1]
    np.testing.assert_array_equal(z, src == 0)


@pytest.mark.parametrize("form", ["count", "tmp", "whole_tmp", "whole"])
def test_older_xor_on_dav2201(form):
    dt, n = np.int16, 128
    p = [("x", dt, n), ("y", dt, n), ("z", dt, n), ("tmp", np.uint8, 256)]
    args = {"count": "x, y, 100", "tmp": "x, y, tmp, 100", "whole_tmp": "x, y, tmp", "whole": "x, y"}[form]
    m = dev.program([dev.ub_kernel("old_xor", p, "Xor<int16_t, false>(z, %s);" % args)])
    x, y = ints(dt, 6)[:n], ints(dt, 7)[:n]
    z = dev.run(m, "old_xor", p, [x, y, np.zeros(n, dt), np.zeros(256, np.uint8)])[2]
    k = 100 if form in ("count", "tmp") else n
    np.testing.assert_array_equal(z[:k], x[:k] ^ y[:k])
    np.testing.assert_array_equal(z[k:], 0)


@pytest.mark.parametrize("body, msg", [
    ("BitwiseAnd(z, x, y, 64);", "AscendC::BitwiseAnd: Ascend 950 (dav-3510) only"),
    ("LogicalAnd(z, x, y, 64);", "AscendC::LogicalAnd: Ascend 950 (dav-3510) only"),
])
def test_950_only_on_dav2201(body, msg):
    p = [("x", np.int32, 64), ("y", np.int32, 64), ("z", np.bool_ if "Logical" in body else np.int32, 64)]
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, body)])
    assert msg in ei.value.log


def test_bitwise_refuses_floats():
    p = [("x", np.float32, 64), ("y", np.float32, 64), ("z", np.float32, 64)]
    with pytest.raises(arc.CompileError) as ei:
        dev.program([dev.ub_kernel("k", p, "BitwiseOr(z, x, y, 64);")], A35)
    assert "AscendC::BitwiseOr: supports 8- to 64-bit integers only" in ei.value.log


def test_source_overlapping_dst_is_refused():
    p = [("x", np.int32, 128), ("z", np.int32, 128)]
    m = dev.program([dev.ub_kernel("k", p, "BitwiseAnd(x[8], x, z, 64);")], A35)
    with pytest.raises(arc.Error) as ei:
        dev.run(m, "k", p, [np.zeros(128, np.int32)] * 2)
    assert "AscendC::BitwiseAnd" in str(ei.value) and "overlaps src0" in str(ei.value)
