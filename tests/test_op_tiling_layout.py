"""The tiling struct's layout comes from the compiler: the op's host code
reports each registered class's fields (offset, element format, count,
nested class) as clang laid them out, so spellings no header parser reads
(a type alias, an array length that is an expression, a double after an
odd-sized array) still decode and pack field by field."""
import os

import numpy as np

import ascendrtc as arc

PROJECTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "op_projects")

TILING_H = """// Test op project (ascendrtc): MinMax with a tiling class spelled as
// a header parser could not read it.
#ifndef MIN_MAX_TILING_H
#define MIN_MAX_TILING_H
#include "register/tilingdata_base.h"

namespace optiling {
using Len = uint64_t;
constexpr int kSlots = 2;
BEGIN_TILING_DATA_DEF(MinMaxTilingData)
TILING_DATA_FIELD_DEF(Len, blockLength);
TILING_DATA_FIELD_DEF(uint16_t, cores);
TILING_DATA_FIELD_DEF_ARR(int8_t, kSlots * 3, pad);
TILING_DATA_FIELD_DEF(double, scale);
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(MinMax, MinMaxTilingData)
} // namespace optiling
#endif
"""


def files():
    root = os.path.join(PROJECTS, "MinMax")
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            out[os.path.relpath(p, root)] = open(p).read()
    out["op_host/min_max_tiling.h"] = TILING_H
    return out


def test_fields_decode_at_the_compilers_offsets():
    op = arc.op_project(files())
    t = op.tiling(np.ones(2048, np.int32), np.ones(2048, np.int32))
    # C layout: Len at 0, uint16 at 8, int8[6] at 10, double at 16, 24 bytes.
    assert [(n, off) for n, _, _, _, off in t.struct.layout()] == [
        ("blockLength", 0), ("cores", 8), ("pad", 10), ("scale", 16)]
    assert t.struct.size == 24 and len(t.data) == 24
    assert t.fields == {"blockLength": 256, "cores": 8, "pad": [0] * 6, "scale": 0.0}
    u = t.replace(scale=1.5, pad=[1, -2])
    assert u.fields == {"blockLength": 256, "cores": 8, "pad": [1, -2, 0, 0, 0, 0], "scale": 1.5}
    assert u.data[16:24] == np.float64(1.5).tobytes() and u.data[10:12] == bytes([1, 0xFE])
    lo, hi = op(np.arange(2048, dtype=np.int32), np.full(2048, 1000, np.int32))
    assert np.array_equal(lo, np.minimum(np.arange(2048), 1000)) and np.array_equal(hi, np.maximum(np.arange(2048), 1000))


def test_a_nested_class_decodes_inside_its_field():
    op = arc.op_project(os.path.join(PROJECTS, "NestedBind"))
    t = op.tiling(*[np.ones(64, np.float32)] * len(op.input_names))
    # NbInner {int64, int64, float}: 24 bytes; NbMid {int32, int64}: 16; then int32, size 48.
    assert [(n, k, off) for n, k, _, _, off in t.struct.layout()] == [("inner", "struct", 0), ("mid", "struct", 24),
                                                                      ("e", "scalar", 40)]
    assert t.struct.size == 48
    assert t.fields == {"inner": {"a": 64, "b": 192, "scale": 0.5}, "mid": {"c": 7, "d": -64}, "e": 11}


def test_a_nested_library_tiling_struct_decodes_field_by_field():
    # SoftMaxTiling is a plain struct of the advanced API (not a DSL class);
    # it describes its fields from the X-macro that makes it, so a tiling
    # class nesting it decodes and packs inside it (it was raw bytes).
    f = files()
    f["op_host/min_max_tiling.h"] = TILING_H.replace(
        "TILING_DATA_FIELD_DEF(double, scale);",
        "TILING_DATA_FIELD_DEF(double, scale);\nTILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, sm);")
    op = arc.op_project(f)
    t = op.tiling(np.ones(2048, np.int32), np.ones(2048, np.int32))
    lay = {n: (k, typ, off) for n, k, typ, _, off in t.struct.layout()}
    assert lay["sm"] == ("struct", "SoftMaxTiling", 24)
    sm = t.fields["sm"]
    assert list(sm)[:3] == ["srcM", "srcK", "srcSize"] and set(sm.values()) == {0}
    u = t.replace(sm={"srcM": 4, "srcK": 64, "tailM": 3})
    assert u.fields["sm"]["srcM"] == 4 and u.fields["sm"]["tailM"] == 3
    assert np.frombuffer(u.data[24:32], np.uint32).tolist() == [4, 64]
    assert u.fields["blockLength"] == 256
