"""The Tensor API's layout queries and Squeeze, against the values their
pages work out (Capacity, Coshape, Cosize, Rank, Size, Get, MakeLayout's
row-major stride, GetLayoutPattern, Squeeze by index, by pattern and of a
tensor's batch mode, MakeTensor over a ViewEngine with a shape and stride)."""
import numpy as np

import ascendrtc as arc

SRC = r'''#include "tensor_api/tensor.h"
using namespace AscendC::Te;
static_assert(std::is_same<GetLayoutPattern<decltype(MakeFrameLayout<NZLayoutPtn, LayoutTraitDefault<float>>(16, 16))>,
                           NZLayoutPtn>::value, "NZ");
static_assert(std::is_same<GetLayoutPattern<decltype(MakeLayout(MakeShape(_16{}, _16{})))>, NDLayoutPtn>::value, "ND");
extern "C" __global__ __cube__ void queries(__gm__ int64_t *o)
{
    auto l1 = MakeLayout(MakeShape(10, 20), MakeStride(20, 1));
    auto l2 = MakeLayout(MakeShape(10, 20), MakeStride(1, 100));
    auto l3 = MakeLayout(MakeShape(10, 20, 30), MakeStride(1, 10, 200));
    int i = 0;
    o[i++] = Capacity(l1);           // 200
    o[i++] = Capacity(l2);           // 2000
    o[i++] = Capacity(l3);           // 6000
    o[i++] = Capacity<0, 1>(l3);     // 200
    o[i++] = Coshape(l2);            // 1910
    o[i++] = Coshape<0>(l2);         // 10
    o[i++] = Coshape<1>(l2);         // 1901
    o[i++] = Cosize(l2);             // 1910
    o[i++] = Cosize<0>(l2);          // 10
    o[i++] = Rank(l2);               // 2
    o[i++] = Rank<0>(l2);            // 1
    o[i++] = Size(l2);               // 200
    auto t = AscendC::Std::make_tuple(1, AscendC::Std::make_tuple(2, 3));
    o[i++] = Get<0>(t);              // 1
    o[i++] = Get<1, 0>(t);           // 2
    auto nested = MakeLayout(MakeShape(MakeShape(10, 20), MakeShape(20, 30)),
                             MakeStride(MakeStride(10, 200), MakeStride(1, 4000)));
    auto sub = Get<1>(nested);
    o[i++] = Size(sub);              // 600
    o[i++] = Get<1>(sub.Stride());   // 4000
    auto rm = MakeLayout(MakeShape(8, 16, 32));
    o[i++] = Get<0>(rm.Stride());    // 512
    o[i++] = Get<1>(rm.Stride());    // 32
    o[i++] = Get<2>(rm.Stride());    // 1
    auto s3 = MakeLayout(MakeShape(_1{}, _4{}, _1{}), MakeStride(_4{}, _1{}, _1{}));
    auto q1 = Squeeze<0, 2>(s3);
    o[i++] = Rank(q1) * 100 + Size(q1) * 10 + Get<0>(q1.Stride());   // 141
    auto q2 = Squeeze(s3, MakeCoord(_1{}, _, _1{}));
    o[i++] = Rank(q2) * 100 + Size(q2) * 10 + Get<0>(q2.Stride());   // 141
    o[i++] = Rank(Squeeze<1>(s3));   // 3: a compile-time 4 stays
    __cbuf__ half l1buf[32 * 64];
    auto bt = MakeTensor(MakeMemPtr(l1buf), MakeFrameLayout<NZLayoutPtn, half>(1, 32, 64));
    auto mt = Squeeze<0>(bt);
    o[i++] = (mt.Data() == bt.Data()) * 1000000 + Rank(mt.Layout()) * 100000 + mt.Size();  // 1 2 02048
    o[i++] = std::is_same<GetLayoutPattern<decltype(mt.Layout())>, NZLayoutPtn>::value;    // 1
    o[i++] = mt.Layout()(MakeCoord(17, 20));  // NZ: (20 / 16) * 16 * 32 + (17 / 16) * 256 + 1 * 16 + 4
    // MakeTensor(iter, shape, stride) and a ViewEngine: element (2, 3) of a 4 x 5 column-major view of o
    auto v = MakeTensor(ViewEngine<decltype(MakeMemPtr(o))>(MakeMemPtr(o + 40)), MakeShape(4, 5), MakeStride(1, 4));
    v(2, 3) = 77;
    o[i++] = o[54] == 77 && v.Engine().Begin() == o + 40;   // 1
}
'''


def test_queries_and_squeeze_match_the_pages():
    mod = arc.Program(SRC, "te_layout.asc").compile(["--npu-arch=dav-3510"]).load()
    o = np.zeros(64, np.int64)
    mod.get_kernel("queries")[1](o)
    arc.synchronize()
    want = [200, 2000, 6000, 200, 1910, 10, 1901, 1910, 10, 2, 1, 200, 1, 2, 600, 4000, 512, 32, 1, 141, 141, 3,
            1202048, 1, 1 * 16 * 32 + 1 * 256 + 1 * 16 + 4, 1]
    assert o[:26].tolist() == want
