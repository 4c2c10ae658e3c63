"""Whether an opbase checkout is one an op library builds with: CANN's
packages state their version and what they need in ``version.cmake``
(``set_cann_package(opbase VERSION "9.0.0")``; the library's
``set_cann_build_dependencies(opbase ">=8.5")``).  A checkout the library
does not accept is refused before anything is compiled or cached."""
from __future__ import annotations

import os
import re
from typing import Optional, Tuple

__all__ = ["opbase_mismatch"]

_PACKAGE = re.compile(r'set_cann_package\(\s*([\w-]+)\s+VERSION\s+"([^"]+)"')
_NEEDS = re.compile(r'set_cann_build_dependencies\(\s*opbase\s+"([^"]+)"')
_BOUND = re.compile(r"\s*(>=|<=|==|>|<|=)?\s*(\d+(?:\.\d+)*)\s*")


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return re.sub(r"#[^\n]*", "", f.read())
    except OSError:
        return ""


def _version(text: str) -> Tuple[int, ...]:
    return tuple(int(p) for p in text.split("."))


def _satisfies(have: Tuple[int, ...], need: str) -> Optional[bool]:
    """Whether version ``have`` meets ``need`` (comma-separated bounds such
    as ">=8.5" or ">=8.5,<10"); None when the requirement has another form
    (nothing is claimed then)."""
    ok = True
    for part in need.split(","):
        m = _BOUND.fullmatch(part)
        if not m:
            return None
        op, v = m.group(1) or "==", _version(m.group(2))
        n = max(len(have), len(v))
        a, b = have + (0,) * (n - len(have)), v + (0,) * (n - len(v))
        ok = ok and {">=": a >= b, "<=": a <= b, ">": a > b, "<": a < b, "==": a == b, "=": a == b}[op]
    return ok


def opbase_mismatch(library_root: Optional[str], opbase_root: str) -> Optional[str]:
    """Why the op library at ``library_root`` does not build with the opbase
    checkout at ``opbase_root`` (their version.cmake files), or None when it
    does or either file says nothing checkable."""
    if not library_root:
        return None
    lib = _read(os.path.join(library_root, "version.cmake"))
    need = _NEEDS.search(lib)
    got = _PACKAGE.search(_read(os.path.join(opbase_root, "version.cmake")))
    if not need or not got or got.group(1) != "opbase":
        return None
    ok = _satisfies(_version(got.group(2)), need.group(1))
    if ok is None or ok:
        return None
    own = _PACKAGE.search(lib)
    who = f"{own.group(1)} {own.group(2)}" if own else os.path.basename(library_root)
    return (f"{who} needs opbase {need.group(1)} (its version.cmake), but the opbase checkout at {opbase_root} "
            f"is {got.group(2)}: give a checkout of a version it builds with")
