"""Argument packing against the kernel's real signature: every bad call
raises the named error before anything launches, and the next launch works."""
import ctypes
import re

import numpy as np
import pytest

import ascendrtc as arc
from helpers.py_kernels import SCALARS_OUT, TILING, add_kernel, scalars_kernel


@pytest.fixture
def add():
    return add_kernel(np.float32)


def still_works(add):
    x = np.arange(256, dtype=np.float32)
    z = arc.empty_like(x)
    add[8](x, x, z)
    np.testing.assert_array_equal(z.get(), 2 * x)


def test_bare_int_is_never_a_pointer(add):
    x = arc.to_device(np.ones(256, np.float32))
    with pytest.raises(TypeError, match=re.escape(
            "add_custom(x, y, z): argument 'z' (GM_ADDR, used as __gm__ float *) got int; expected a device array or ndarray")):
        add[8](x, x, 12345)
    still_works(add)


@pytest.mark.parametrize("bad,tname", [([1.0] * 256, "list"), (object(), "object"), ("abc", "str"),
                                       (3.5, "float"), (None, "NoneType"), (np.float32(1), "numpy.float32")])
def test_host_only_objects_for_pointer(add, bad, tname):
    x = np.ones(256, np.float32)
    with pytest.raises(TypeError, match=rf"argument 'y' \(GM_ADDR, used as __gm__ float \*\) got {re.escape(tname)}"):
        add[8](x, bad, arc.empty_like(x))
    still_works(add)


@pytest.mark.parametrize("nargs", [0, 2, 4])
def test_wrong_argument_count(add, nargs):
    x = arc.to_device(np.ones(256, np.float32))
    with pytest.raises(TypeError, match=rf"add_custom\(x, y, z\): expected 3 arguments, got {nargs}"):
        add[8](*([x] * nargs))
    still_works(add)


def test_bad_launch_configuration(add):
    x = arc.to_device(np.ones(256, np.float32))
    with pytest.raises(ValueError, match="block_dim must be in"):
        add[0](x, x, x)
    with pytest.raises(TypeError, match="block_dim must be an int"):
        add[2.5](x, x, x)
    with pytest.raises(TypeError, match="stream must be an ascendrtc.Stream"):
        add[8, "s"](x, x, x)
    with pytest.raises(TypeError, match="missing block_dim"):
        add(x, x, x)
    with pytest.raises(TypeError, match="unexpected keyword argument 'grid'"):
        add(x, x, x, block_dim=8, grid=2)
    still_works(add)


def test_readonly_array_as_output(add):
    x = np.ones(256, np.float32)
    ro = np.zeros(256, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"argument 'z' \(GM_ADDR, used as __gm__ float \*\) is an output, but got a read-only"):
        add[8](x, x, arc.Out(ro))
    still_works(add)


def test_object_array_rejected(add):
    x = np.ones(256, np.float32)
    with pytest.raises(TypeError, match="argument 'x'.*(Python objects|ndarray of object; expected float32)"):
        add[8](np.array([object()] * 256), x, arc.empty_like(x))
    still_works(add)


def test_intent_wrapper_validation():
    with pytest.raises(ValueError, match="intent must be"):
        arc._C.Intent(np.ones(2), "sideways")
    with pytest.raises(ValueError, match="has no parameter 'w'"):
        add_kernel(np.float32).intents = {"w": "out"}


# ---- scalars and structs: packed bytes checked against NumPy's encodings ----

def good_scalars():
    t = np.zeros((), TILING)
    t["n"], t["alpha"] = 7, 0.5
    buf = np.array([99, 0], np.uint32)
    buf.view(np.float32)[1] = 2.25
    return [-5, 200, 1.5, 0.25, True, -(2 ** 40), 2 ** 63 + 5, 1e300, t[()], arc.to_device(buf)]


def run_scalars(args):
    k = scalars_kernel()
    out = arc.zeros(SCALARS_OUT.itemsize, np.uint8)
    k[1](out, *args)
    return out.get().view(SCALARS_OUT)[0]


def test_scalars_end_to_end():
    r = run_scalars(good_scalars())
    assert (r["a"], r["b"], r["c"], r["d"], r["e"]) == (-5, 200, np.float32(1.5), np.float16(0.25), 1)
    assert (r["f"], r["g"], r["h"]) == (-(2 ** 40), 2 ** 63 + 5, 1e300)
    assert (r["tn"], r["ta"], r["bn"], r["ba"]) == (7, np.float32(0.5), 99, np.float32(2.25))


def test_scalar_params_describe_signature():
    k = scalars_kernel()
    kinds = [(n, kind, size) for n, kind, size, _ in k.params]
    assert kinds == [("out", "pointer", 8), ("a", "int", 4), ("b", "uint", 1), ("c", "float", 4),
                     ("d", "float", 2), ("e", "bool", 1), ("f", "int", 8), ("g", "uint", 8),
                     ("h", "float", 8), ("t", "struct", 8), ("tiling_buf", "pointer", 8)]


def test_numpy_scalars_and_struct_forms():
    class Tiling(ctypes.Structure):
        _fields_ = [("n", ctypes.c_uint32), ("alpha", ctypes.c_float)]

    base = good_scalars()
    for struct_arg in (Tiling(7, 0.5), np.array([7], np.uint32).tobytes() + np.float32(0.5).tobytes()):
        args = list(base)
        args[1], args[2], args[3] = np.uint8(200), np.float32(1.5), np.float16(0.25)
        args[8] = struct_arg
        r = run_scalars(args)
        assert (r["b"], r["c"], r["d"], r["tn"], r["ta"]) == (200, 1.5, 0.25, 7, 0.5)


def test_tiling_as_host_bytes_for_pointer():
    args = good_scalars()
    args[9] = np.array([99, 0], np.uint32).tobytes()[:4] + np.float32(2.25).tobytes()
    r = run_scalars(args)
    assert (r["bn"], r["ba"]) == (99, np.float32(2.25))


def test_half_and_int_rounding_match_numpy():
    k = scalars_kernel()
    for v in (0.1, 1 / 3, 65504.0, -2.0 ** -24, float("inf")):
        args = good_scalars()
        args[3] = v                                  # d (half)
        packed = k._pack(arc.empty(1, np.uint8), *args)
        off = k.params[4][3]
        assert packed[off:off + 2] == np.float16(v).tobytes(), v


BAD = [
    (1, 2 ** 31, ValueError, r"argument 'a' \(int32_t\) = 2147483648 is out of range \[-2147483648, 2147483647\]"),
    (1, -2 ** 31 - 1, ValueError, r"argument 'a' .* out of range"),
    (1, 2.0, TypeError, r"argument 'a' \(int32_t\) got float; expected an integer"),
    (1, True, TypeError, r"argument 'a' \(int32_t\) got bool"),
    (1, "3", TypeError, r"argument 'a' \(int32_t\) got str"),
    (2, 256, ValueError, r"argument 'b' \(uint8_t\) = 256 is out of range \[0, 255\]"),
    (2, -1, ValueError, r"argument 'b' \(uint8_t\) = -1 is out of range"),
    (3, 1e39, ValueError, r"argument 'c' \(float\) = 1e\+39 is out of range"),
    (3, "x", TypeError, r"argument 'c' \(float\) got str"),
    (3, 1j, TypeError, r"argument 'c' \(float\) got complex"),
    (4, 70000.0, ValueError, r"argument 'd' \(half\) = 70000 is out of range"),
    (5, 1, TypeError, r"argument 'e' \(bool\) got int; expected bool"),
    (7, -1, ValueError, r"argument 'g' \(uint64_t\) = -1 is out of range"),
    (7, 2 ** 64, ValueError, r"argument 'g' \(uint64_t\) = 18446744073709551616 is out of range"),
    (8, False, TypeError, r"argument 'h' \(double\) got bool"),
    (9, b"\0" * 12, ValueError, r"argument 't' \(Tiling\) got bytes of 12 bytes; expected 8 bytes"),
    (9, 5, TypeError, r"argument 't' \(Tiling\) got int; expected bytes, a ctypes.Structure"),
    (10, 0, TypeError, r"argument 'tiling_buf' \(GM_ADDR\) got int"),
]


@pytest.mark.parametrize("index,value,exc,pattern", BAD)
def test_bad_scalar_raises_before_launch(index, value, exc, pattern):
    k = scalars_kernel()
    out = arc.zeros(SCALARS_OUT.itemsize, np.uint8)
    args = [out] + good_scalars()
    args[index] = value
    with pytest.raises(exc, match=pattern):
        k[1](*args)
    assert not out.get().any(), "nothing may launch when an argument is bad"
    k[1](out, *good_scalars())          # the next launch still works
    assert out.get().view(SCALARS_OUT)[0]["a"] == -5


def test_struct_wrong_size_ctypes():
    class Small(ctypes.Structure):
        _fields_ = [("n", ctypes.c_uint32)]

    args = good_scalars()
    args[8] = Small(1)
    with pytest.raises(ValueError, match=r"argument 't' \(Tiling\) got Small of 4 bytes; expected 8 bytes"):
        scalars_kernel()[1](arc.empty(64, np.uint8), *args)


def test_intent_on_scalar_param_rejected():
    args = good_scalars()
    args[0] = arc.In(np.int32(3))
    with pytest.raises(TypeError, match="In/Out/InOut apply only to pointer parameters"):
        scalars_kernel()[1](arc.empty(64, np.uint8), *args)


def test_sizes_only_fallback():
    # Without metadata (a real CANN binary) only sizes are known: arrays for
    # 8-byte params, exact-size NumPy scalars or bytes, and no Python ints.
    import helpers.py_kernels as pk
    b = pk.add_binary(np.float32)
    mod = b.load()
    k = mod._handle.get_function(b.lowered_name("add_custom"), "add_custom")
    assert [kind for _, kind, _, _ in k.params] == ["unknown"] * 3
    x = np.arange(256, dtype=np.float32)
    z = arc.empty_like(x)
    k[8](x, x, z)
    np.testing.assert_array_equal(z.get(), 2 * x)
    with pytest.raises(TypeError, match=r"add_custom\(#0, #1, #2\): argument '#2' \(8-byte parameter\) got int"):
        k[8](x, x, 5)


TYPED_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void typed(__gm__ float *x, __gm__ const half *y, GM_ADDR raw, __gm__ int32_t *n) {}
'''


def test_typed_pointer_checks_element_dtype():
    from helpers.py_kernels import compiled
    k = compiled("typed", lambda: arc.Program(TYPED_SRC, "typed.asc").compile().load().get_kernel("typed"))
    f32, f16, i32 = arc.empty(4, np.float32), arc.empty(4, np.float16), arc.empty(4, np.int32)
    k[1](f32, f16, i32, i32)                 # GM_ADDR takes any dtype
    k[1](f32, np.zeros(4, np.float16), f16, np.zeros(4, np.int32))
    with pytest.raises(TypeError, match=re.escape(
            "typed(x, y, raw: untyped, n): argument 'x' (__gm__ float *) got a device array of float16; "
            "expected float32 elements")):
        k[1](f16, f16, f16, i32)
    with pytest.raises(TypeError, match=r"argument 'n' \(__gm__ int32_t \*\) got an ndarray of int64"):
        k[1](f32, f16, f16, np.zeros(4, np.int64))
    arc.synchronize()
