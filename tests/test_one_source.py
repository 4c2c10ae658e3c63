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


def _error_rows():
    text = (ROOT / "csrc/include/acl/acl_error_table.h").read_text()
    return re.findall(r"X\((ACL_ERROR_\w+), (\d+), (ACL|LAUNCH),[\s\\]*\"([^\"]*)\"\)", text)


def test_error_table_one_source_for_c_and_python():
    rows = _error_rows()
    assert len(rows) >= 28
    classes = {"ACL": arc.AclError, "LAUNCH": arc.LaunchError}
    assert [(int(v), n, classes[e], m) for n, v, e, m in rows] == list(_C.ERRORS)
    for code, name, exc, _ in _C.ERRORS:
        assert _C.error_name(code) == name
        assert issubclass(exc, arc.Error) and issubclass(exc, arc.AclError)
    assert _C.error_name(123) == "ACL_ERROR_UNKNOWN"


def test_error_raised_as_the_table_says():
    by_name = {name: (code, exc) for code, name, exc, _ in _C.ERRORS}
    try:
        _C.load_module(b"not an ELF object at all, long enough to be looked at..........")
    except arc.AclError as e:
        code, exc = by_name[e.name]
        assert (type(e), e.code) == (exc, code) and e.name == "ACL_ERROR_RT_PARAM_INVALID"
    else:
        raise AssertionError("loading junk did not fail")


def test_python_spells_no_error_codes():
    import io
    import tokenize
    codes = {str(code) for code, _, _, _ in _C.ERRORS}
    for name, text in _py_sources().items():
        toks = tokenize.generate_tokens(io.StringIO(text).readline)
        found = [t.string for t in toks if t.type == tokenize.NUMBER and t.string in codes]
        assert not found, f"{name} spells ACL error codes {found} itself; use _C.ERRORS"


def test_python_reaches_backends_only_through_the_extension():
    for name, text in _py_sources().items():
        opens = re.search(r"^\s*(import ctypes|from ctypes )|CDLL\(", text, re.M)
        assert not opens, f"{name} opens a backend library itself"


def test_arch_and_soc_facts_come_from_the_runtime():
    from ascendrtc import _cache_key
    for name, text in _py_sources().items():
        assert "Ascend910B3" not in text and "192 * 1024" not in text, f"{name} restates SoC facts"
    # The compiler's option parser answers, including --npu-soc and precedence.
    assert _C.resolve_arch(["--npu-soc=Ascend950DT"]) == "dav-3510"
    assert _C.resolve_arch(["--npu-soc=Ascend950DT", "--npu-arch=dav-2201"]) == "dav-2201"
    assert _C.resolve_arch(["--npu-arch=dav-9999"]) is None
    assert _cache_key.resolve_arch(["--npu-arch=dav-9999"], "fallback") == "fallback"
    assert arc.device_info()["ub_size"] in (192 * 1024, 256 * 1024)


def test_fnv1a_written_once():
    prime = "1099511628211"
    # The runtime, compiler and extension (device headers are kernel code, built apart).
    owners = [str(p.relative_to(ROOT)) for d in ("common", "rt", "rtc", "ext") for p in (ROOT / "csrc" / d).rglob("*")
              if p.suffix in (".c", ".cpp", ".h") and prime in p.read_text(errors="replace")]
    assert owners == ["csrc/common/fnv.h"]
