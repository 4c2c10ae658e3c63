"""Facts that C and Python both need have one owner: the C table, which
Python reads through the extension rather than restating it."""
import pathlib
import re

import numpy as np

import ascendrtc as arc
from ascendrtc import _C
from ascendrtc._jit_template import ctype

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _py_sources():
    return {p.name: p.read_text() for p in (ROOT / "ascendrtc").glob("*.py")}


def test_param_kinds_come_from_meta_h():
    # The X-macro in meta.h is the list; _C.PARAM_KINDS is generated from it.
    text = (ROOT / "csrc/common/meta.h").read_text()
    rows = re.findall(r"X\((\w+), (\d+), \"(\w+)\"\)", text)
    assert rows, "meta.h has no ARC_PARAM_KINDS rows"
    assert [int(v) for _, v, _ in rows] == list(range(len(rows)))
    assert _C.PARAM_KINDS == tuple(name for _, _, name in rows)


def test_python_keeps_no_kinds_table_or_meta_parser():
    kinds = set(_C.PARAM_KINDS) - {"int", "float", "bool", "bfloat16"}  # also dtype words
    for name, text in _py_sources().items():
        assert "ARCMETA1" not in text, f"{name} parses .arc_meta itself"
        spelled = {k for k in kinds if f'"{k}"' in text or f"'{k}'" in text}
        assert len(spelled) < 2, f"{name} spells the parameter kinds {sorted(spelled)} itself"


MIXED_SRC = r'''
#include "kernel_operator.h"
struct Pair { int32_t a; float b; };
extern "C" __global__ __aicore__ void mixed(__gm__ float *x, GM_ADDR raw, int32_t n, uint64_t u, float f,
                                            bool flag, Pair pair, __gm__ const int16_t *s) {}
'''


def test_kernel_params_and_binary_meta_agree():
    b = arc.Program(MIXED_SRC, "mixed.asc").compile()
    km = b.meta.find("mixed")
    assert km is not None and km.lowered == "mixed"
    k = b.load().get_kernel("mixed")
    # The C view (what packing uses) and the Python view (Binary.meta) are one parse.
    assert [(p.name, p.kind, p.size, p.offset) for p in km.params] == [tuple(p) for p in k.params]
    assert [p.kind for p in km.params] == ["pointer", "pointer", "int", "uint", "float", "bool", "struct",
                                           "pointer"]
    assert all(p.kind in _C.PARAM_KINDS for p in km.params)
    assert [p.dtype for p in km.params] == ["float32", None, None, None, None, None, None, "int16"]
    assert k.param_types == tuple(p.type for p in km.params)


def test_scalar_types_one_table_both_directions():
    # C type -> dtype (typed pointers) and dtype -> C type (jit's ctype()) read one table.
    for c, d, _ in _C.SCALAR_TYPES:
        first = next(r[0] for r in _C.SCALAR_TYPES if r[1] == d)
        if d != "bfloat16":  # NumPy has no bfloat16
            assert ctype(np.dtype(d)) == first
    assert [ctype(np.dtype(t)) for t in ("float32", "int32", "float16")] == ["float", "int32_t", "half"]
    typed = {c: d for c, d, t in _C.SCALAR_TYPES if t}
    assert typed["int"] == "int32" and "uint8_t" not in typed


def test_read_meta_none_without_metadata():
    assert _C.read_meta(b"") is None
    assert _C.read_meta(b"\x7fELF" + bytes(60)) is None
