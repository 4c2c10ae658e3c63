"""Integer division by zero and INT_MIN / -1 in kernel code.  x86 traps on
both; the NPU's scalar unit evidently does not (CATLASS computes `i % 0`
for a block that does not exist), and what it returns is undocumented.
The simulator's rule (csrc/rtc/int_div.cpp, rt/services/int_div.c,
docs/simulated_npu.md): x / 0 = all ones, x % 0 = x, INT_MIN / -1 =
INT_MIN with remainder 0; a warning once per kernel line;
ASCENDRTC_INT_DIV=trap fails the launch instead.  References: NumPy."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.faults import AICORE_EXCEPTION, launch_fails
from helpers.int_div import c_divmod
from helpers.py_kernels import compiled

TYPES = {"i8": "int8_t", "u8": "uint8_t", "i16": "int16_t", "u16": "uint16_t", "i32": "int32_t",
         "u32": "uint32_t", "i64": "int64_t", "u64": "uint64_t"}

SRC = r'''
#include "kernel_operator.h"
template <typename T>
__aicore__ inline void divide(GM_ADDR x, GM_ADDR d, GM_ADDR q, GM_ADDR r, int32_t n)
{
    const __gm__ T *X = (const __gm__ T *)x, *D = (const __gm__ T *)d;
    __gm__ T *Q = (__gm__ T *)q, *R = (__gm__ T *)r;
    for (int32_t i = 0; i < n; i++) {
        Q[i] = X[i] / D[i];
        R[i] = X[i] % D[i];
    }
}
''' + "".join(f'''
extern "C" __global__ __aicore__ void div_{k}(GM_ADDR x, GM_ADDR d, GM_ADDR q, GM_ADDR r, int32_t n)
{{ divide<{t}>(x, d, q, r, n); }}
''' for k, t in TYPES.items()) + r'''
extern "C" __global__ __aicore__ void one_div(GM_ADDR z, int32_t a, int32_t b)
{
    *(__gm__ int32_t *)z = a / b;
}
extern "C" __global__ __aicore__ void unused_rem(GM_ADDR z, int32_t n)
{
    int32_t next = (int32_t)AscendC::GetBlockIdx() % n;   // like CATLASS's next block: unused when n == 0
    *(__gm__ int32_t *)z = n > 0 ? next : 7;
}
'''


@pytest.fixture(scope="module")
def mod():
    return compiled("int_div", lambda: arc.Program(SRC, "int_div.asc").compile().load())


def expect(x, d):
    """The rule, element by element (helpers/int_div.py)."""
    qr = [c_divmod(a, b, x.dtype) for a, b in zip(x.tolist(), d.tolist())]
    return np.array([q for q, _ in qr], x.dtype), np.array([r for _, r in qr], x.dtype)


@pytest.mark.parametrize("key", list(TYPES))
def test_zero_divisors_give_the_documented_values_and_warn_once(mod, key, capfd):
    dt = np.dtype(TYPES[key].removesuffix("_t"))
    info = np.iinfo(dt)
    rng = np.random.default_rng(len(key) + dt.itemsize)
    n = 200
    x = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    d = rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    d[::7] = 0                                        # zero divisors among good ones
    d[3::11] = rng.integers(1, 4, len(d[3::11]))      # small ones: nonzero quotients
    if info.min < 0:
        x[5], d[5] = info.min, -1                     # the one overflowing quotient
    q, r = np.zeros_like(x), np.zeros_like(x)
    k = mod.get_kernel(f"div_{key}")
    for _ in range(2):
        k[1](x, d, q, r, n)
        arc.synchronize()
    eq, er = expect(x, d)
    np.testing.assert_array_equal(q, eq)
    np.testing.assert_array_equal(r, er)
    err = capfd.readouterr().err
    for line in (9, 10):                              # the quotient's and the remainder's, once each
        assert err.count(f"div_{key}: integer division by zero at int_div.asc:{line}:") == 1, err
    assert "the NPU's result is not documented" in err and "ASCENDRTC_INT_DIV=trap" in err, err


def test_no_warning_without_a_bad_divisor(mod, capfd):
    x = np.arange(-50, 50, dtype=np.int32)
    d = np.full(100, 3, np.int32)
    q, r = np.zeros_like(x), np.zeros_like(x)
    mod.get_kernel("div_i32")[1](x, d, q, r, 100)
    arc.synchronize()
    np.testing.assert_array_equal(q, np.fix(x / 3).astype(np.int32))
    np.testing.assert_array_equal(r, np.fmod(x, 3))
    assert "warning" not in capfd.readouterr().err


def test_an_unused_remainder_by_zero_does_not_stop_the_kernel(mod, capfd):
    z = arc.zeros(1, np.int32)
    mod.get_kernel("unused_rem")[1](z, 0)
    arc.synchronize()
    assert z.get()[0] == 7
    assert "unused_rem: integer division by zero at int_div.asc:" in capfd.readouterr().err


def test_trap_mode_fails_the_launch_at_the_line(mod, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_INT_DIV", "trap")
    z = arc.zeros(1, np.int32)
    k = mod.get_kernel("one_div")
    launch_fails(lambda: k[2](z, 7, 0), AICORE_EXCEPTION,
                 r"one_div block \d/2: kernel code: integer division by zero\s+at int_div\.asc:\d+")
    launch_fails(lambda: k[1](z, -2 ** 31, -1), AICORE_EXCEPTION,
                 r"one_div block 0/1: kernel code: integer overflow in a division \(INT_MIN / -1")
    k[1](z, 7, 2)
    arc.synchronize()
    assert z.get()[0] == 3


def test_an_unknown_mode_warns_and_divisions_go_on(mod, monkeypatch, capfd):
    monkeypatch.setenv("ASCENDRTC_INT_DIV", "explode")
    z = arc.zeros(1, np.int32)
    mod.get_kernel("one_div")[1](z, 9, 0)
    arc.synchronize()
    assert z.get()[0] == -1
    assert "ASCENDRTC_INT_DIV=explode is not 'warn' or 'trap'" in capfd.readouterr().err
