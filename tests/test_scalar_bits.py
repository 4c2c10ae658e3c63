"""The basic API's scalar bit queries, on their pages' examples and against
Python's integers: CountLeadingZero, GetBitCount<v>, GetSFFValue<v>,
CountBitsCntSameAsSignBit, and the older names CANN's op libraries call
(ScalarCountLeadingZero, ScalarGetCountOfValue, ScalarGetSFFValue)."""
import numpy as np

import ascendrtc as arc

SRC = r"""
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bits(GM_ADDR in, GM_ADDR out)
{
    GlobalTensor<uint64_t> x; x.SetGlobalBuffer((__gm__ uint64_t *)in);
    GlobalTensor<int64_t> y; y.SetGlobalBuffer((__gm__ int64_t *)out);
    for (int i = 0; i < 8; i++) {
        uint64_t v = x.GetValue(i);
        y.SetValue(8 * i + 0, CountLeadingZero(v));
        y.SetValue(8 * i + 1, GetBitCount<1>(v));
        y.SetValue(8 * i + 2, GetBitCount<0>(v));
        y.SetValue(8 * i + 3, GetSFFValue<1>(v));
        y.SetValue(8 * i + 4, GetSFFValue<0>(v));
        y.SetValue(8 * i + 5, CountBitsCntSameAsSignBit((int64_t)v));
        y.SetValue(8 * i + 6, ScalarCountLeadingZero(v) + ScalarGetCountOfValue<1>(v));
        y.SetValue(8 * i + 7, ScalarGetSFFValue<1>(v));
    }
}
"""


def _same_as_sign(v):
    s = [(v >> (63 - i)) & 1 for i in range(64)]   # bit 63 first
    if all(b == s[0] for b in s):
        return -1
    n = 0
    while s[n + 1] == s[0]:
        n += 1
    return n


def test_scalar_bit_queries():
    vals = [0x0100000000000020, 0x1000000000000100, 0, 2 ** 64 - 1, 0x7FFFFFFFFFFFFFFF, 0x8000000000000000, 1,
            0x00F0000000000000]
    x = np.array(vals, np.uint64)
    y = np.zeros(64, np.int64)
    arc.Program(SRC, "bits.cpp").compile().load().get_kernel("bits")[1](x, y)
    arc.synchronize()
    y = y.reshape(8, 8)
    assert (y[0, 0], y[1, 3], y[0, 5]) == (7, 8, 6)   # the pages' examples
    for v, r in zip(vals, y):
        ones = bin(v).count("1")
        low1 = (v & -v).bit_length() - 1 if v else -1
        inv = ~v & (2 ** 64 - 1)
        low0 = (inv & -inv).bit_length() - 1 if inv else -1
        want = [64 - v.bit_length(), ones, 64 - ones, low1, low0, _same_as_sign(v), 64 - v.bit_length() + ones, low1]
        assert list(r) == want, (hex(v), list(r), want)
