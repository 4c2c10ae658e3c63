"""The basic API's Layout and Coordinate (辅助数据结构 Layout / Coordinate,
dav-2201): MakeShape/MakeStride/MakeCoord/MakeLayout, layout(coord) and
Crd2Idx with the pages' own examples (flat and hierarchical, an integer
coordinate delinearized colexicographically), at compile time and in a
kernel; on dav-3510 (the Tensor API's instead) refused naming it."""
import numpy as np
import pytest

import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;
constexpr auto flat = MakeLayout(MakeShape(3, 4, 5), MakeStride(20, 5, 1));
static_assert(flat(MakeCoord(1, 2, 3)) == 33, "Crd2Idx's page: 20 + 10 + 3");
constexpr auto hier = MakeLayout(MakeShape(MakeShape(2, 4), MakeShape(3, 5)),
                                 MakeStride(MakeStride(3, 6), MakeStride(1, 24)));
static_assert(hier(MakeCoord(11, 12)) == 129, "Crd2Idx's page: ((1, 5), (0, 4)) . ((3, 6), (1, 24))");
static_assert(is_layout<decltype(flat)>::value && !is_layout<int>::value, "is_layout");
static_assert(Std::get<1>(flat.GetShape()) == 4 && Std::get<0>(flat.GetStride()) == 20, "GetShape / GetStride");
extern "C" __global__ __aicore__ void lay(GM_ADDR out, int32_t r, int32_t c)
{
    // a row-major (M, N) = (r, c) layout's index of every (i, j), and a column-major one's
    auto rm = MakeLayout(MakeShape(r, c), MakeStride(c, 1));
    auto cm = MakeLayout(MakeShape(r, c), MakeStride(1, r));
    __gm__ int32_t *o = (__gm__ int32_t *)out;
    for (int32_t i = 0; i < r; i++)
        for (int32_t j = 0; j < c; j++) {
            o[i * c + j] = (int32_t)rm(MakeCoord(i, j));
            o[r * c + i * c + j] = (int32_t)Crd2Idx(MakeCoord(i, j), cm);
            o[2 * r * c + i * c + j] = (int32_t)Crd2Idx(i * c + j, MakeShape(c, r), MakeStride(r, 1));
        }
}
'''


def test_layout_indices_match_numpy():
    k = arc.Program(SRC, "lay.cpp").compile(["--npu-arch=dav-2201"]).load().get_kernel("lay")
    r, c = 5, 7
    out = np.zeros(3 * r * c, np.int32)
    k[1](out, r, c)
    idx = np.arange(r * c).reshape(r, c)
    np.testing.assert_array_equal(out[:r * c].reshape(r, c), idx)                  # row-major: i * c + j
    np.testing.assert_array_equal(out[r * c:2 * r * c].reshape(r, c),
                                  np.arange(r)[:, None] + r * np.arange(c)[None, :])  # column-major: i + j * r
    # an integer coordinate n over shape (c, r): (n % c, n // c) . (r, 1)
    n = np.arange(r * c)
    np.testing.assert_array_equal(out[2 * r * c:], (n % c) * r + n // c)


def test_the_basic_layout_is_refused_on_dav_3510():
    src = ('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR o)\n'
           '{ auto l = AscendC::MakeLayout(AscendC::MakeShape(2), AscendC::MakeStride(1)); (void)l; }\n')
    with pytest.raises(arc.CompileError, match=r"AscendC::Layout: the basic API's Layout is Atlas A2/A3's"):
        arc.Program(src, "k.cpp").compile(["--npu-arch=dav-3510"])
