"""AscendC::Std, the Utils API's C++ standard library subset (CPP标准库):
every type trait the docs list (with the _t/_v forms) answers as the C++
standard's does, and abs / sqrt compute what the docs define (abs of the
listed integer types and float; sqrt of float and int64_t, the integer root
truncated; a negative sqrt input stops the kernel)."""
import math

import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
#define T(...) static_assert(__VA_ARGS__, #__VA_ARGS__)
T(Std::is_void_v<void> && !Std::is_void<int>::value);
T(Std::is_array<int[3]>::value && !Std::is_array_v<int *>);
T(Std::is_const_v<const int> && !Std::is_const<int>::value);
T(Std::is_pointer<int *>::value && Std::is_reference_v<int &> && Std::is_reference<int &&>::value);
T(Std::is_same_v<Std::remove_const_t<const int>, int> && Std::is_same_v<Std::remove_volatile_t<volatile int>, int>);
T(Std::is_same_v<Std::remove_pointer_t<int *>, int> && Std::is_same_v<Std::remove_cv_t<const volatile int>, int>);
T(Std::is_same_v<Std::add_const_t<int>, const int> && Std::is_same_v<Std::add_volatile_t<int>, volatile int>);
T(Std::is_same_v<Std::add_cv_t<int>, const volatile int> && Std::is_same_v<Std::add_pointer_t<int>, int *>);
T(Std::is_same_v<Std::add_lvalue_reference_t<int>, int &> && Std::is_same_v<Std::add_rvalue_reference_t<int>, int &&>);
T(Std::is_same_v<typename Std::add_pointer<int>::type, int *> && Std::is_integral<int8_t>::value);

extern "C" __global__ __aicore__ void maths(GM_ADDR fi, GM_ADDR ii, GM_ADDR fo, GM_ADDR io, uint32_t n)
{
    __gm__ float *f = (__gm__ float *)fi, *g = (__gm__ float *)fo;
    __gm__ int64_t *x = (__gm__ int64_t *)ii, *y = (__gm__ int64_t *)io;
    for (uint32_t i = 0; i < n; i++) {
        g[2 * i] = Std::abs(f[i]);
        g[2 * i + 1] = Std::sqrt(Std::abs(f[i]));
        y[4 * i] = Std::abs(x[i]);
        y[4 * i + 1] = Std::sqrt(Std::abs(x[i]));
        y[4 * i + 2] = Std::abs((int32_t)x[i]);
        y[4 * i + 3] = Std::abs((int8_t)x[i]);
    }
}
extern "C" __global__ __aicore__ void neg_root(GM_ADDR o) { ((__gm__ float *)o)[0] = Std::sqrt(-2.0f); }
'''


def test_type_traits_compile_and_abs_sqrt_compute():
    mod = arc.Program(SRC, "std.asc").compile(["--npu-arch=dav-2201"]).load()
    f = np.array([-2.25, 0.0, 9.0, -1e-3, 3.5], np.float32)
    big = (1 << 62) + 12345
    x = np.array([-7, 15, 99999999999, -(1 << 63) + 1, big], np.int64)
    fo = np.zeros(2 * len(f), np.float32)
    xo = np.zeros(4 * len(x), np.int64)
    mod.get_kernel("maths")[1](f, x, fo, xo, np.uint32(len(f)))
    arc.synchronize()
    np.testing.assert_array_equal(fo[0::2], np.abs(f))
    np.testing.assert_array_equal(fo[1::2], np.sqrt(np.abs(f)))
    want = [abs(int(v)) for v in x]
    np.testing.assert_array_equal(xo[0::4], want)
    np.testing.assert_array_equal(xo[1::4], [math.isqrt(w) for w in want])
    np.testing.assert_array_equal(xo[2::4], np.abs(x.astype(np.int32)))
    np.testing.assert_array_equal(xo[3::4], np.abs(x.astype(np.int8)))
    with pytest.raises(arc.LaunchError, match=r"AscendC::Std::sqrt: the input -2 is negative"):
        mod.get_kernel("neg_root")[1](np.zeros(8, np.float32))
        arc.synchronize()
