"""Host tiling of the advanced API (csrc/host_api/lib/adv_tiling.h): from
Python (ascendrtc.adv_tiling) the structs carry the shape fields the kernels
read, the scratch sizes are ordered, bad shapes raise ValueError naming the
problem; and the CANN-named C++ wrappers (adv_tiling_api.h, for op-project
host code) compile and fill the same layout."""
import os
import shutil
import subprocess

import numpy as np
import pytest

from ascendrtc import adv_tiling

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def words(a):
    return np.frombuffer(a.tobytes(), np.uint32)


def test_pad_tiling_fields():
    t = words(adv_tiling.pad_tiling((16, 16), (16, 7), 2))
    assert len(t) * 4 == 64
    assert list(t[:5]) == [16, 16, 7, 2, 16]  # srcHeight, srcWidth, srcOriWidth, typeSize, widthAligned
    t = words(adv_tiling.pad_tiling((3, 13), (3, 13), 2))
    assert list(t[:5]) == [3, 13, 13, 2, 16]


def test_unpad_tiling_fields():
    t = words(adv_tiling.unpad_tiling((320, 64), 2, buffer_bytes=4096))
    assert list(t[:4]) == [320, 64, 2, 4096]
    rows_per_loop, loops, tail = t[4:7]
    assert rows_per_loop * loops + tail == 320 and rows_per_loop * 64 * 2 * 2 <= 4096


def test_softmax_tiling_fields():
    t = words(adv_tiling.softmax_tiling((2, 3, 64), 4))
    srcM, srcK, srcSize, outMaxM, outMaxK = t[:5]
    assert (srcM, srcK, srcSize, outMaxM, outMaxK) == (6, 64, 384, 6, 8)


def test_norm_tiling_fields():
    t = adv_tiling.layernorm_tiling((2, 3, 64), 2, original_h=60)
    w = words(t)
    assert list(w[:6]) == [2, 3, 64, 60, 384, 6]
    assert np.frombuffer(t.tobytes()[-4:], np.float32)[0] == np.float32(1 / 60)
    # {B, S, H, originH}, as LayerNormGrad's page gives the shape (CANN's layernorm example passes it to LayerNorm)
    assert list(words(adv_tiling.layernorm_tiling((2, 3, 64, 60), 2))[:4]) == [2, 3, 64, 60]
    r = adv_tiling.rmsnorm_tiling((2, 3, 64), 4, original_h=50)
    assert list(words(r)[:4]) == [2, 3, 64, 50]
    assert np.frombuffer(r.tobytes()[16:20], np.float32)[0] == np.float32(1 / 50)


@pytest.mark.parametrize("api,shape", [("pad", (8, 16)), ("unpad", (8, 16)), ("softmax", (8, 64)),
                                       ("layernorm", (2, 4, 64)), ("rmsnorm", (2, 4, 64))])
def test_tmp_sizes_are_ordered(api, shape):
    mx, mn = adv_tiling.tmp_size(api, shape, 2)
    assert 0 < mn <= mx


@pytest.mark.parametrize("call,msg", [
    (lambda: adv_tiling.pad_tiling((16,), (16,), 2), "2-D shape"),
    (lambda: adv_tiling.pad_tiling((16, 16), (16, 17), 2), "wider than srcShape"),
    (lambda: adv_tiling.pad_tiling((16, 16), (15, 7), 2), "different height"),
    (lambda: adv_tiling.unpad_tiling((16, 0), 2), "dimension <= 0"),
    (lambda: adv_tiling.softmax_tiling((4, 7), 4), "32-byte aligned"),
    (lambda: adv_tiling.softmax_tiling((4, 64), 3), "typeSize must be 2 or 4"),
    (lambda: adv_tiling.softmax_tiling((4, 64), 4, buffer_bytes=8), "below the minimum"),
    (lambda: adv_tiling.layernorm_tiling((4, 64), 4), r"\[B, S, H\] or \[B, S, H, originH\]"),
    (lambda: adv_tiling.layernorm_tiling((1, 4, 64, 65), 4), r"originH \(the 4th dimension\) exceeds H"),
    (lambda: adv_tiling.layernorm_tiling((1, 4, 64), 4, original_h=65), "exceeds H"),
    (lambda: adv_tiling.rmsnorm_tiling((1, 4, 60), 4), "32-byte aligned"),
    (lambda: adv_tiling.tmp_size("gelu", (4, 4), 4), "unknown advanced API"),
])
def test_bad_shapes_name_the_problem(call, msg):
    with pytest.raises(ValueError, match=msg):
        call()


CXX_MAIN = r"""
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>
namespace ge {
struct Shape {
    std::vector<int64_t> d;
    Shape(std::vector<int64_t> v) : d(v) {}
    size_t GetDimNum() const { return d.size(); }
    int64_t GetDim(size_t i) const { return d[i]; }
};
}
#include "host_api/lib/adv_tiling_api.h"
int main()
{
    ge::Shape s({16, 16}), o({16, 7}), bsh({2, 3, 64});
    uint32_t mx, mn;
    AscendC::GetPadMaxMinTmpSize(s, 2, mx, mn);
    optiling::PadTiling pad;
    AscendC::PadTilingFunc(s, o, mx, 2, pad);
    unsigned char buf[256];
    pad.SaveToBuffer(buf, pad.GetDataSize());
    fwrite(buf, 1, pad.GetDataSize(), stdout);
    optiling::SoftMaxTiling sm;
    AscendC::SoftMaxTilingFunc(ge::Shape({4, 64}), 4, AscendC::GetSoftMaxMaxTmpSize(ge::Shape({4, 64}), 4, false), sm);
    AscendC::tiling::LayerNormTiling ln{};
    AscendC::GetLayerNormMaxMinTmpSize(bsh, 4, false, mx, mn);
    AscendC::GetLayerNormNDTilingInfo(bsh, mn, 4, false, ln);
    optiling::RmsNormTiling rms;
    AscendC::GetRmsNormMaxMinTmpSize(bsh, 4, mx, mn);
    bool ok = AscendC::GetRmsNormTilingInfo(bsh, bsh, mx, 4, rms);
    optiling::ConfusionTransposeTiling ct;
    AscendC::GetConfusionTransposeMaxMinTmpSize(ge::Shape({32, 48}), 2, 7, mx, mn);
    AscendC::GetConfusionTransposeOnlyTilingInfo(ge::Shape({32, 48}), mx, 2, ct);
    return !(sm.srcK == 64 && ln.hLength == 64 && ok && rms.sLength == 3 && ct.param0 == 7 && ct.param4 == 48);
}
"""


@pytest.mark.skipif(not shutil.which("g++"), reason="no host C++ compiler")
def test_cann_named_host_api_compiles_and_matches_python(tmp_path):
    src = tmp_path / "t.cpp"
    src.write_text(CXX_MAIN)
    exe = tmp_path / "t"
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(ROOT, "csrc"), str(src),
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    out = subprocess.run([str(exe)], capture_output=True)
    assert out.returncode == 0
    assert out.stdout == adv_tiling.pad_tiling((16, 16), (16, 7), 2, buffer_bytes=adv_tiling.tmp_size(
        "pad", (16, 16), 2)[0]).tobytes()

