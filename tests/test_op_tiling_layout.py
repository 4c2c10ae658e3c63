"""The tiling struct's layout comes from the compiler: the op's host code
reports each registered class's fields (offset, element format, count,
nested class) as clang laid them out, so spellings no header parser reads
(a type alias, an array length that is an expression, a double after an
odd-sized array) still decode and pack field by field."""
import os

import numpy as np
import pytest

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


PLAIN_H = """// Test op project (ascendrtc): AxpyStruct's tiling as plain structs no
// header reader lays out: a base class, alignas, a method, a private
// section, an array of structs; and one with bit-fields.
#ifndef AXPY_STRUCT_TILING_H
#define AXPY_STRUCT_TILING_H
#include <cstdint>

struct AxpyBase { uint16_t tag; };
struct AxpyPair { int16_t a; double b; };
struct alignas(16) AxpyStructTilingData : AxpyBase {
    uint32_t blockLength;
    float alpha;
    AxpyPair pairs[2];
    void set_hidden(int8_t v) { hidden[2] = v; }
private:
    int8_t hidden[3];
};
struct AxpyBits {
    uint32_t lo : 4;
    uint32_t hi : 28;
};
#endif
"""


def plain_files():
    f = {}
    root = os.path.join(PROJECTS, "AxpyStruct")
    for d, _, names in os.walk(root):
        for n in names:
            p = os.path.join(d, n)
            f[os.path.relpath(p, root)] = open(p).read()
    f["op_kernel/axpy_struct_tiling.h"] = PLAIN_H
    f["op_host/axpy_struct.cpp"] = f["op_host/axpy_struct.cpp"].replace(
        "    AxpyStructTilingData *t = context->GetTilingData<AxpyStructTilingData>();\n", """\
    if (*context->GetAttrs()->GetAttrPointer<float>(0) < 0) {
        AxpyBits *b = context->GetTilingData<AxpyBits>();
        b->lo = 5;
        context->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
    AxpyStructTilingData *t = context->GetTilingData<AxpyStructTilingData>();
    t->tag = 3;
    t->pairs[1].a = -2;
    t->pairs[1].b = 2.5;
    t->set_hidden(-7);
""")
    return f


def test_plain_structs_decode_at_the_compilers_offsets():
    # x86-64 C++ ABI (checked against g++'s offsetof): the base's tag at 0,
    # blockLength 4, alpha 8, pairs (16 bytes each, 8-aligned) at 16, the
    # private hidden at 48, alignas(16) rounds sizeof to 64.
    op = arc.op_project(plain_files())
    x = np.ones(256, np.float32)
    t = op.tiling(x, x, alpha=0.5)
    assert [(n, k, off) for n, k, _, _, off in t.struct.layout()] == [
        ("tag", "scalar", 0), ("blockLength", "scalar", 4), ("alpha", "scalar", 8), ("pairs", "array", 16),
        ("hidden", "array", 48)]
    assert t.struct.size == 64 and len(t.data) == 64
    assert t.fields == {"tag": 3, "blockLength": 128, "alpha": 0.5,
                        "pairs": [{"a": 0, "b": 0.0}, {"a": -2, "b": 2.5}], "hidden": [0, 0, -7]}
    u = t.replace(pairs=[{"a": 9}], alpha=1.5)   # a list gives the whole array (the rest 0), as for scalars
    assert u.fields["pairs"] == [{"a": 9, "b": 0.0}, {"a": 0, "b": 0.0}] and u.fields["tag"] == 3
    assert u.data[16:18] == np.int16(9).tobytes() and u.data[8:12] == np.float32(1.5).tobytes()


def test_a_plain_struct_with_bit_fields_stays_raw_and_says_why():
    op = arc.op_project(plain_files())
    x = np.ones(256, np.float32)
    t = op.tiling(x, x, alpha=-1.0)
    assert t.struct is None and t.fields is None and t.data[:4] == np.uint32(5).tobytes()
    assert t.unknown_struct == ("the tiling struct AxpyBits has a field whose bytes cannot be shown one by one: "
                                "lo (bit-field unsigned int)")
    with pytest.raises(ValueError, match=r"AxpyBits has a field .* lo \(bit-field unsigned int\); pass bytes"):
        t.replace(lo=1)


def test_a_base_member_hidden_by_the_class_own_is_not_decoded_under_one_name():
    f = plain_files()
    f["op_kernel/axpy_struct_tiling.h"] = PLAIN_H.replace("struct AxpyBits {", "struct AxpyBits : AxpyBase {\n    uint16_t tag;")
    f["op_host/axpy_struct.cpp"] = f["op_host/axpy_struct.cpp"].replace("b->lo = 5;", "b->tag = 5;")
    f["op_kernel/axpy_struct_tiling.h"] = f["op_kernel/axpy_struct_tiling.h"].replace(
        "    uint32_t lo : 4;\n    uint32_t hi : 28;\n", "")
    op = arc.op_project(f)
    x = np.ones(256, np.float32)
    t = op.tiling(x, x, alpha=-1.0)
    assert t.fields is None and t.unknown_struct.endswith("tag (two fields of this name)"), t.unknown_struct
    assert t.data[2:4] == np.uint16(5).tobytes()   # the class's own tag, after the base's
