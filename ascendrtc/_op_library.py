"""CANN's op libraries (ops-nn, ops-math) as their builds see an op
directory: the include directories the tiling build adds, opbase's, and
which op_host sources are host tiling code at all.  Facts of the libraries'
layout, read from the directory tree; nothing of them is in ascendrtc."""
from __future__ import annotations

import os
import re
from typing import Dict, List, Optional

from ._errors import OpProjectError

__all__ = ["library_include_dirs", "source_dirs", "opbase_include_dirs", "is_op_api", "read_dir", "opbase_root",
           "library_units", "OP_ONLY"]

# In host compile options, marks the next option as the op's alone: the
# library units (opbase's sources, shared by every op) compile without it.
OP_ONLY = "--arc-op-only"
_SOURCE_EXT = (".cpp", ".cc", ".h", ".hpp", ".cce", ".inc")
# op-API sources (op_host/op_api/, aclnn_*, *_l0*): the op library's build
# puts them in its aclnn library, not in the tiling library.
_OP_API = re.compile(r"(^|/)op_api/|(^|/)aclnn_[^/]*$|_l0[^/]*\.(cpp|cc)$")


def is_op_api(path: str) -> bool:
    """Whether a project file is an op-API source (not host tiling code)."""
    return _OP_API.search(path) is not None


def read_dir(path: str) -> Dict[str, str]:
    files: Dict[str, str] = {}
    for root, _, names in os.walk(path):
        for n in names:
            if not n.endswith(_SOURCE_EXT):
                continue
            full = os.path.join(root, n)
            rel = os.path.relpath(full, path).replace(os.sep, "/")
            with open(full, encoding="utf-8", errors="replace") as f:
                files[rel] = f.read()
    return files


def library_include_dirs(path: str) -> List[str]:
    """The host include directories an op library's tiling build adds for
    the op directory ``path``: the library root (the nearest parent with
    ``common/inc`` and ``CMakeLists.txt``), its ``common/inc`` and
    ``common/inc/op_host``.  Empty for a project outside any library."""
    d = os.path.abspath(path)
    for _ in range(6):
        d = os.path.dirname(d)
        if os.path.isdir(os.path.join(d, "common", "inc")) and os.path.isfile(os.path.join(d, "CMakeLists.txt")):
            return [d, os.path.join(d, "common", "inc"), os.path.join(d, "common", "inc", "op_host")] + \
                   source_dirs(path)
        if d == os.path.dirname(d):
            break
    return []


def source_dirs(path: str) -> List[str]:
    """The op directory's own op_host/op_kernel folders, where they lie: the
    host compile sees the project in memory, so an include that climbs out
    of it ("../../foreach_utils/op_host/x.h", a sibling op's header) finds
    its file through these."""
    root = os.path.abspath(path)
    out = []
    for side in ("op_host", "op_kernel"):
        for d, subs, _ in os.walk(os.path.join(root, side)):
            out.append(d)
    return out


def opbase_include_dirs(root: str) -> List[str]:
    """opbase's ``include`` and ``pkg_inc`` with their ``op_common``,
    ``op_common/op_host`` and ``op_common/op_graph``, as the libraries'
    FindOPBASE.cmake lists them (pkg_inc is installed under include)."""
    out = [os.path.join(root, top, sub) if sub else os.path.join(root, top)
           for top in ("include", "pkg_inc") for sub in ("", "op_common", "op_common/op_host", "op_common/op_graph")]
    return [x for x in out if os.path.isdir(x)]


def opbase_root(opbase: Optional[str] = None) -> Optional[str]:
    """The opbase checkout to use (``opbase``, else ``$ASCENDRTC_OPBASE``),
    checked; None when neither is given."""
    base = opbase or os.environ.get("ASCENDRTC_OPBASE")
    if not base:
        return None
    root = os.path.abspath(base)
    if not os.path.isdir(os.path.join(root, "include", "op_common")):
        raise OpProjectError(f"opbase {base!r}: not a checkout of CANN's opbase (no include/op_common)")
    return root


def library_units(root: str) -> Dict[str, str]:
    """opbase's host sources (``src/op_common/**/*.cpp``: logging, the
    atvoss tiling, the shape utilities) as ``{"__lib__/opbase/<path>":
    text}``: the host compile builds each one whose header the op includes
    as a translation unit of its own, once per process and options."""
    src = os.path.join(root, "src", "op_common")
    return {"__lib__/opbase/src/op_common/" + rel: text for rel, text in read_dir(src).items()
            if rel.endswith((".cpp", ".cc"))}
