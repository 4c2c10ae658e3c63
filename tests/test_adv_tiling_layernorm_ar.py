"""Host tiling of LayerNorm's [A, R] form and Normalize
(csrc/host_api/lib/adv_tiling_api.h over adv_tiling.h): GetLayerNormMaxMinTmpSize's
isComputeRstd form, GetLayerNormNDTilingInfo into LayerNormSeparateTiling
(the docs' field order, kernel and optiling spellings),
GetNormalizeMaxMinTmpSize, the refusals; and an op project's tiling class
nesting LayerNormSeparateTiling decodes it field by field."""
import os
import shutil
import subprocess

import numpy as np
import pytest

import ascendrtc as arc
from test_op_tiling_layout import TILING_H, files

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: LayerNormSeparateTiling as the LayerNorm Tiling page declares it.
DOC_FIELDS = ["aLength", "rLength", "halfAddRepeatTimes", "rHeadLength", "k2Rec", "k2RRec", "inputXSize",
              "meanVarSize", "numberOfTmpBuf", "varianceTmpTensorPos", "varianceTmpTensorSize", "tmpBufSize",
              "oneTmpSize", "firstTmpStartPos", "secondTmpStartPos", "thirdTmpStartPos", "loopRound",
              "inputRoundSize", "inputTailSize", "inputTailPos", "meanVarRoundSize", "meanVarTailSize",
              "meanVarTailPos", "arCurLength", "aCurLength", "rValueBack"]
FLOATS = {"k2Rec", "k2RRec", "rValueBack"}

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
#define OFF(f) printf("off %s %zu\n", #f, offsetof(LayerNormSeparateTiling, f));
int main()
{
    ge::Shape ar({4, 20});
    uint32_t mx = 0, mn = 0, nmx = 0, nmn = 0, bad_mx = 1, bad_mn = 1;
    AscendC::GetLayerNormMaxMinTmpSize(ar, 4, false, true, false, mx, mn);
    AscendC::GetNormalizeMaxMinTmpSize(ar, 4, 4, false, true, false, nmx, nmn);
    AscendC::GetLayerNormMaxMinTmpSize(ar, 4, false, true, true, bad_mx, bad_mn);
    optiling::LayerNormSeparateTiling t;
    AscendC::GetLayerNormNDTilingInfo(ar, mn, 4, false, true, t);
    AscendC::tiling::LayerNormSeparateTiling k{};
    AscendC::GetLayerNormNDTilingInfo(ar, mx, 4, true, true, k);
    AscendC::tiling::LayerNormSeparateTiling low{};
    AscendC::GetLayerNormNDTilingInfo(ar, mn - 1, 4, false, true, low);
    printf("sizes %u %u %u %u %u %u %zu %zu\n", mx, mn, nmx, nmn, bad_mx, bad_mn, t.GetDataSize(),
           sizeof(LayerNormSeparateTiling));
    printf("t %u %u %u %u %.9g %.9g %.9g %u %u\n", t.aLength, t.rLength, t.halfAddRepeatTimes, t.rHeadLength,
           t.k2Rec, t.k2RRec, t.rValueBack, t.numberOfTmpBuf, t.meanVarSize);
    printf("k %u %u %u %u\n", k.aLength, k.rLength, k.numberOfTmpBuf, low.aLength);
    ARC_LAYER_NORM_SEPARATE_TILING(OFF_S, OFF_A)
    return 0;
}
"""


@pytest.mark.skipif(not shutil.which("g++"), reason="no host C++ compiler")
def test_layernorm_separate_tiling_from_host_code(tmp_path):
    src = tmp_path / "t.cpp"
    src.write_text(CXX_MAIN.replace("ARC_LAYER_NORM_SEPARATE_TILING(OFF_S, OFF_A)",
                                    "#define OFF_S(t, f) OFF(f)\n#define OFF_A(t, f, n) OFF(f)\n"
                                    "    ARC_LAYER_NORM_SEPARATE_TILING(OFF_S, OFF_A)"))
    exe = tmp_path / "t"
    subprocess.run(["g++", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I", os.path.join(ROOT, "csrc"), str(src),
                    "-o", str(exe)], check=True, capture_output=True, text=True)
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    assert r.returncode == 0
    words = [ln.split() for ln in r.stdout.splitlines()]
    offsets = {w[1]: int(w[2]) for w in words if w[0] == "off"}
    rows = {w[0]: w[1:] for w in words if w[0] != "off"}
    # every field a 4-byte word, in the documented order
    assert [offsets[f] for f in DOC_FIELDS] == [4 * i for i in range(len(DOC_FIELDS))]
    mx, mn, nmx, nmn, bad_mx, bad_mn, data_size, size = map(int, rows["sizes"])
    assert 0 < mn <= mx and 0 < nmn <= nmx and size == data_size == 4 * len(DOC_FIELDS)
    # a float row of 20 (24 aligned) in 3 buffers plus a block each, at least
    assert mn >= 24 * 4 * 3 and mx >= 4 * mn
    assert (bad_mx, bad_mn) == (0, 0)  # isOnlyOutput = true is refused
    a, r_, halves, head = map(int, rows["t"][:4])
    k2rec, k2rrec, back = (np.float32(float(v)) for v in rows["t"][4:7])  # printed with 9 digits: exact
    assert (a, r_, head, halves) == (4, 20, 16, 0)
    assert (k2rec, k2rrec, back) == (np.float32(1 / 16), np.float32(16 / 20), np.float32(1 / 20))
    assert list(map(int, rows["t"][7:])) == [3, 4]  # numberOfTmpBuf (no reuse), meanVarSize
    assert list(map(int, rows["k"])) == [4, 20, 2, 0]  # reuse: 2 buffers; below the minimum: left zero
    assert "isOnlyOutput must be false" in r.stderr and "below the minimum scratch" in r.stderr


def test_an_op_tiling_class_nesting_it_decodes_field_by_field():
    f = files()
    f["op_host/min_max_tiling.h"] = TILING_H.replace(
        "TILING_DATA_FIELD_DEF(double, scale);",
        "TILING_DATA_FIELD_DEF(double, scale);\nTILING_DATA_FIELD_DEF_STRUCT(LayerNormSeparateTiling, ln);")
    op = arc.op_project(f)
    t = op.tiling(np.ones(2048, np.int32), np.ones(2048, np.int32))
    lay = {n: (k, typ, off) for n, k, typ, _, off in t.struct.layout()}
    assert lay["ln"] == ("struct", "LayerNormSeparateTiling", 24)
    assert list(t.fields["ln"]) == DOC_FIELDS
    u = t.replace(ln={"aLength": 4, "rLength": 20, "rValueBack": 0.05})
    assert np.frombuffer(u.data[24:32], np.uint32).tolist() == [4, 20]
    assert np.frombuffer(u.data[24 + 100:24 + 104], np.float32)[0] == np.float32(0.05)
    assert FLOATS <= set(u.fields["ln"])
