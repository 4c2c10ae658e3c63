"""What the op path hands an op's host code and reads back from it, as
plain functions: attribute values as request lines (the protocol's codes
from csrc/host_api/arc/op_protocol.h via :mod:`._op_host`), the arrays of
a call, and why a host compile failed (naming a missing host API)."""
from __future__ import annotations

import re
import warnings
from typing import Any, Dict, List, Mapping, Optional

import numpy as np

from . import _C
from ._op_host import ATTR, ATTR_WORD

__all__ = ["as_list", "host_array", "attr_default", "ATTR_ZERO", "attr_line", "compile_reason", "def_dtypes"]


def as_list(outputs: Any) -> Optional[List[Any]]:
    if outputs is None:
        return None
    return list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]


def host_array(v: Any) -> np.ndarray:
    if hasattr(v, "get") and not isinstance(v, np.ndarray) and type(v).__name__ == "DeviceArray":
        v = v.get()
    return np.ascontiguousarray(np.asarray(v))


def attr_default(a: dict) -> Any:
    """An attribute's default as the op definition states it."""
    k = a["kind"]
    if k == ATTR["INT"]:
        return a["ints"][0]
    if k == ATTR["FLOAT"]:
        return a["floats"][0]
    if k == ATTR["BOOL"]:
        return bool(a["ints"][0])
    if k == ATTR["STRING"]:
        return a["str"]
    if k == ATTR["LIST_INT"]:
        return a["ints"]
    if k == ATTR["LIST_FLOAT"]:
        return a["floats"]
    if k == ATTR["LIST_BOOL"]:
        return [bool(x) for x in a["ints"]]
    return None


# What an optional attribute without a default holds.
ATTR_ZERO = {ATTR["LIST_INT"]: [], ATTR["LIST_FLOAT"]: [], ATTR["LIST_BOOL"]: [], ATTR["STRING"]: "",
              ATTR["BOOL"]: False, ATTR["FLOAT"]: 0.0, ATTR["INT"]: 0}


def attr_line(i: int, kind: int, v: Any) -> str:
    """``attr INDEX KIND COUNT VALUES...`` (strings hex-encoded, "-" when empty)."""
    if kind == ATTR["INT"]:
        return f"attr {i} {kind} 1 {int(v)}"
    if kind == ATTR["FLOAT"]:
        return f"attr {i} {kind} 1 {float(v)!r}"
    if kind == ATTR["BOOL"]:
        return f"attr {i} {kind} 1 {1 if v else 0}"
    if kind == ATTR["STRING"]:
        h = str(v).encode().hex()
        return f"attr {i} {kind} 1 {h or '-'}"
    conv = {ATTR["LIST_INT"]: lambda x: str(int(x)), ATTR["LIST_FLOAT"]: lambda x: repr(float(x)),
            ATTR["LIST_BOOL"]: lambda x: "1" if x else "0"}.get(kind)
    if conv is not None:
        items = list(v)
        return f"attr {i} {kind} {len(items)} " + " ".join(conv(x) for x in items)
    raise TypeError(f"attribute kind {ATTR_WORD.get(kind, kind)} is not supported")


_MISSING = [
    (re.compile(r"(\S+?):(\d+):\d+: error: no member named '(\w+)' in '([\w:]+)'"),
     "{0}:{1}: uses {3}::{2}, which ascendrtc's host API subset lacks"),
    (re.compile(r"(\S+?):(\d+):\d+: error: no member named '(\w+)' in namespace '([\w:]+)'"),
     "{0}:{1}: uses {3}::{2}, which ascendrtc's host API subset lacks"),
    (re.compile(r"(\S+?):(\d+):\d+: fatal error: '(\w+|std\w+\.h)' file not found"),
     "{0}:{1}: includes <{2}>, a C or C++ standard library header this machine lacks: op host code compiles "
     "against the system's C++ library headers (Debian: sudo apt-get install g++)"),
    (re.compile(r"(\S+?):(\d+):\d+: fatal error: '([^']+)' file not found"),
     "{0}:{1}: includes \"{2}\", which neither the project nor ascendrtc's host API provides"),
    (re.compile(r"(\S+?):(\d+):\d+: error: use of undeclared identifier '(\w+)'"),
     "{0}:{1}: uses '{2}', which neither the op_host sources nor ascendrtc's host API declare"),
]


def compile_reason(log: str) -> str:
    """The first error of a failed host compile, naming a missing host API."""
    for rx, fmt in _MISSING:
        m = rx.search(log)
        if m:
            return fmt.format(*m.groups()) + "\n" + log.strip()
    first = next((ln for ln in log.splitlines() if "error" in ln), "")
    return "the op_host sources did not compile" + (f": {first}" if first else "") + "\n" + log.strip()


def def_dtypes(op_type: str, kernel_file: str, kernel: Any, names: List[str],
               dtypes: Mapping[str, np.dtype]) -> Dict[str, np.dtype]:
    """The dtypes to state on the op's kernel where the op definition and
    the kernel's own use of a parameter disagree ({kernel parameter: the
    definition's dtype}), with a RuntimeWarning each.

    GE allocates an op's tensors as its definition says and the kernel sees
    bare addresses, so CANN builds and runs a kernel that writes a float16
    output through an ``int32_t *`` (the samples' GroupBarrier does); the
    definition wins, and the simulator passes the bytes as the NPU does."""
    stated = {}
    have = kernel.dtypes
    for (pname, kind, *_), name in zip(kernel.params, names):
        want, inferred = dtypes.get(name), have.get(pname)
        if kind != "pointer" or want is None or inferred is None:
            continue
        want = np.dtype(want)
        if _C.takes_inferred(want, inferred):   # what a launch would accept anyway
            continue
        warnings.warn(f"op {op_type}: its definition declares {name!r} {want}, but {kernel_file} uses "
                      f"parameter {pname!r} as {inferred} elements; the kernel gets the {want} tensor's bytes, "
                      f"as on the NPU", RuntimeWarning, stacklevel=5)
        stated[pname] = want
    return stated
