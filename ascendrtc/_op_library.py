"""CANN's op libraries (ops-nn, ops-math) as their builds see an op
directory: the include directories the tiling build adds, opbase's, and
which op_host sources are host tiling code at all.  Facts of the libraries'
layout, read from the directory tree; nothing of them is in ascendrtc."""
from __future__ import annotations

import os
import re
from typing import Any, Dict, List, Mapping, Optional

from ._errors import OpProjectError

__all__ = ["library_root", "library_dirs", "own_units", "library_options", "HOST_API_UNITS", "library_include_dirs", "cmake_include_dirs", "source_dirs", "opbase_include_dirs", "is_op_api", "read_dir", "opbase_root",
           "library_units", "OP_ONLY", "NO_OP", "no_op_reason", "build_rules", "host_sources", "dependency_files", "dependency_include_dirs",
           "kernel_include_dirs", "all_dependencies", "real_dirs"]

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


NO_OP = "no Ascend C op here"  # how a directory without one is refused (tools/oplib_check.py counts these apart)
_OP_ADD = re.compile(r"\bOP_ADD\s*\(")


def no_op_reason(files: Mapping[str, str]) -> Optional[str]:
    """Why a directory (its own files, not its DEPENDENCIES') holds no
    Ascend C op, or None when it may: none of its op_host sources (but the
    op-API ones) is an op definition (``OP_ADD``, a ``*_def`` source).  With
    no ``op_kernel/`` either it is an op-API (aclnn) or graph-only directory
    (ops-nn's AddMv, ops-math's Identity: InferShape only); with one, code
    other ops of the library include (ops-math's random_common)."""
    hosts = [p for p in files if p.startswith("op_host/") and p.endswith((".cpp", ".cc")) and not is_op_api(p)]
    if any(_OP_ADD.search(files[p]) or re.search(r"_def[^/]*$", p) for p in hosts):
        return None
    kernel = any(p.startswith("op_kernel/") for p in files)
    shown = ", ".join(sorted(p for p in files if p.endswith((".cpp", ".cc")) and
                             p.split("/")[0] not in ("tests", "examples"))[:4]) or "none"
    what = ("its op_kernel/ is code other ops include (no op of its own)" if kernel else
            "it is an op-API (aclnn) or graph-only directory (no op_kernel/)")
    return (f"{NO_OP}: no op definition (OP_ADD) among its op_host sources; {what}; "
            f"its sources: {shown}")


def library_root(path: str) -> Optional[str]:
    """The op library holding the op directory ``path``: the nearest parent
    with ``common/inc`` and a ``CMakeLists.txt``; None outside any."""
    d = os.path.abspath(path)
    for _ in range(6):
        d = os.path.dirname(d)
        if os.path.isdir(os.path.join(d, "common", "inc")) and os.path.isfile(os.path.join(d, "CMakeLists.txt")):
            return d
        if d == os.path.dirname(d):
            break
    return None


def library_dirs(root: str) -> List[str]:
    """The host include directories an op library's builds add for every
    op: the library root, its ``common/inc`` and ``common/inc/op_host``,
    then the library's own directories its ``cmake/variables.cmake`` lists
    for the tiling and the op-proto (InferShape) builds
    (:func:`cmake_include_dirs`: ops-math's ``common/inc/op_api``,
    ops-nn's ``matmul``)."""
    out = [root, os.path.join(root, "common", "inc"), os.path.join(root, "common", "inc", "op_host")]
    return out + [x for x in cmake_include_dirs(root) if x not in out]


def library_include_dirs(path: str) -> List[str]:
    """The host include directories an op library's builds add for the op
    directory ``path``: :func:`library_dirs`, then the op's source folders.
    Empty for a project outside any library."""
    root = library_root(path)
    return library_dirs(root) + source_dirs(path) if root else []


_CMAKE_LISTS = ("OP_TILING_INCLUDE", "OP_PROTO_INCLUDE")  # the builds that compile op_host sources
_CMAKE_SET = re.compile(r"set\(\s*(%s)\b([^)]*)\)" % "|".join(_CMAKE_LISTS))


def cmake_include_dirs(root: str) -> List[str]:
    """The library's own directories (``${OPS_<X>_DIR}/...``, existing) in
    the include lists of its ``cmake/variables.cmake`` that compile op_host
    sources (tiling and op proto), in order; the SDK's are ascendrtc's host
    API."""
    try:
        with open(os.path.join(root, "cmake", "variables.cmake"), encoding="utf-8", errors="replace") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
    except OSError:
        return []
    out: List[str] = []
    for m in _CMAKE_SET.finditer(text):
        for tok in m.group(2).split():
            own = re.fullmatch(r"\$\{OPS_\w+_DIR\}(/.*)?", tok.strip('"'))
            if own:
                d = os.path.normpath(root + (own.group(1) or ""))
                if os.path.isdir(d) and d not in out:
                    out.append(d)
    return out


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


def kernel_include_dirs(path: Optional[str], opbase: Optional[str]) -> List[str]:
    """The kernel-side include directories the op library's kernel build
    adds: the library's ``common/inc`` (and its ``op_kernel``), opbase's
    ``pkg_inc/op_common`` (the ``atvoss`` templates) and
    ``include/op_common``."""
    out = []
    lib = library_include_dirs(path)[:2] if path else []
    for d in lib[1:]:
        out += [d, os.path.join(d, "op_kernel")]
    if opbase:
        out += [os.path.join(opbase, "pkg_inc", "op_common"), os.path.join(opbase, "include", "op_common"),
                os.path.join(opbase, "pkg_inc")]
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
    atvoss tiling, the shape utilities, and the headers beside them) as
    ``{"__lib__/opbase/<path>": text}``: the host compile builds each .cpp
    one whose header the op includes
    as a translation unit of its own, once per process and options."""
    src = os.path.join(root, "src", "op_common")
    # with the headers beside them, which they include by relative name
    # (atvoss/reduce/reduce_tiling.cpp's "reduce_tiling_batch_invariant.h")
    return {"__lib__/opbase/src/op_common/" + rel: text for rel, text in read_dir(src).items()}


_COMMON_MODULE = re.compile(r"add_modules_sources\s*\([^)]*\bOPTYPE\s+common\b")


def own_units(root: str, categories: Optional[List[str]] = None) -> Dict[str, str]:
    """The op library's own host sources that its tiling and op-proto
    builds link into every op's library, as ``{"__lib__/<library>/<path>":
    text}`` (compiled like opbase's, :func:`library_units`): the sources
    its ``cmake/func.cmake`` adds to the tiling library
    (``common/src/*.cpp``, ``common/src/op_host/*.cpp``: ops-nn's
    ``TilingPrepareForOpCache``, ``GenTiling``, ``QueryBank``) and each
    ``<category>/common/op_host`` module (``OPTYPE common``: ops-nn's
    matmul and conv helpers) as the build globs it (``*_tiling*``,
    ``*_infershape*``, ``op_tiling/**``), with the headers beside them.
    ``categories`` limits the modules to those categories (the op's own:
    ``matmul`` for ``matmul/fused_mat_mul``, whose DEPENDENCIES lie beside
    it): ops of other categories do not include their headers, and a load
    reads ~0.5 MB less (ops-nn's conv module)."""
    out: Dict[str, str] = {}
    name = "__lib__/%s/" % os.path.basename(root)
    for sub in ("common/src", "common/src/op_host"):
        d = os.path.join(root, sub)
        for n in sorted(os.listdir(d)) if os.path.isdir(d) else ():
            if n.endswith(_SOURCE_EXT) and os.path.isfile(os.path.join(d, n)):
                with open(os.path.join(d, n), encoding="utf-8", errors="replace") as f:
                    out[name + sub + "/" + n] = f.read()
    for cat in sorted(os.listdir(root)) if categories is None else sorted(set(categories)):
        host = os.path.join(root, cat, "common", "op_host")
        try:
            with open(os.path.join(host, "CMakeLists.txt"), encoding="utf-8", errors="replace") as f:
                if not _COMMON_MODULE.search(re.sub(r"#[^\n]*", "", f.read())):
                    continue
        except OSError:
            continue
        for rel, text in read_dir(host).items():
            built = rel.startswith("op_tiling/") or ("/" not in rel and re.search(r"_tiling|_infershape", rel))
            if not is_op_api(rel) and (built or not rel.endswith((".cpp", ".cc"))):  # op_api/: the aclnn library's
                out["%s%s/common/op_host/%s" % (name, cat, rel)] = text
    return out


_LEGACY = re.compile(r"\$<\$<BOOL:\$\{ENABLE_DLOPEN_LEGACY\}>:(\w+)>")


def library_options(root: str) -> List[str]:
    """The op library's host compile options for every op and its own
    units (:func:`own_units`): its include directories
    (:func:`library_dirs`), where the units' files lie
    (``--arc-real``), and the definition its ``cmake/func.cmake`` makes
    where the tiling library compiles ``common/src`` (ops-nn's
    ``NN_ENABLE_DLOPEN_LEGACY``: its common headers then declare the
    functions those sources define)."""
    opts = ["-I" + d for d in library_dirs(root)]
    opts.append("--arc-real=__lib__/%s/=%s" % (os.path.basename(root), root))
    try:
        with open(os.path.join(root, "cmake", "func.cmake"), encoding="utf-8", errors="replace") as f:
            opts += ["-D" + m for m in dict.fromkeys(_LEGACY.findall(f.read()))]
    except OSError:
        pass
    return opts


# ascendrtc's host API's own units: CANN library functions that an op
# library's headers declare (csrc/host_api/arc/*_unit.h), compiled when an
# op includes the header of the unit's name.
HOST_API_UNITS = {"__lib__/arc/tuning_tiling_registry.cpp": '#include "arc/tuning_tiling_unit.h"\n',
                  "__lib__/arc/tuning_bank_key_registry.cpp": '#include "arc/tuning_bank_key_unit.h"\n'}


_SET = re.compile(r"set\(\s*SUPPORT_(COMPUTE_UNIT|TILING_DIR)\b([^)]*)\)")
_ADD = re.compile(r"add_(?:all_)?modules_sources\s*\(([^)]*)\)")
# Compute units under an older name: ops-nn calls Ascend 950 (A5, arch35)
# "ascend910_95" in places (MapIndex's COMPUTE_UNIT, whose definition
# AddConfigs "ascend950"; AddLayerNormGrad's arch35 kernel says so).
_UNIT_ALIASES = {"ascend910_95": "ascend950"}
_KEYWORDS = {"OPTYPE", "ACLNNTYPE", "DEPENDENCIES", "COMPUTE_UNIT", "TILING_DIR", "DIR", "DISABLE_IN_OPP",
             "HOSTNAME", "MODE"}


def build_rules(path: str, _seen: frozenset = frozenset()) -> Optional[Dict[str, Any]]:
    """What the op library's CMake says of an op directory: its
    ``add_modules_sources(... COMPUTE_UNIT u... TILING_DIR d...
    DEPENDENCIES o...)`` call (in the op's or its op_host's
    CMakeLists.txt) as ``{"units": [...], "dirs": [...], "deps": [...],
    "dep_rules": {o: the rules of o, a directory beside it}, "name": the
    directory's name}``
    (the n-th compute unit's tiling sources are in ``op_host/<n-th dir>``;
    deps: the shared directories whose sources the build adds, see
    :func:`dependency_files`); None where neither file makes that call (a
    custom op project: every op_host source is host code)."""
    for cm in (os.path.join(path, "CMakeLists.txt"), os.path.join(path, "op_host", "CMakeLists.txt")):
        try:
            with open(cm, encoding="utf-8", errors="replace") as f:
                text = re.sub(r"#[^\n]*", "", f.read())
        except OSError:
            continue
        call = _ADD.search(text)
        if not call:
            continue
        # a CMake list is "a;b" as well as a b (ops-nn's set(SUPPORT_COMPUTE_UNIT "ascend950;ascend910b"))
        sets = {m.group(1): m.group(2).replace('"', " ").replace(";", " ").split() for m in _SET.finditer(text)}
        args, key = {"COMPUTE_UNIT": [], "TILING_DIR": [], "DEPENDENCIES": []}, None
        for tok in call.group(1).replace('"', " ").split():
            if tok in _KEYWORDS:
                key = tok
            elif key in args:
                m = re.fullmatch(r"\$\{SUPPORT_(COMPUTE_UNIT|TILING_DIR)\}", tok)
                args[key] += sets.get(m.group(1), []) if m else [tok]
        parent = os.path.dirname(os.path.abspath(path))
        seen = _seen | {os.path.abspath(path)}  # dependencies that depend back are read once
        dep_rules = {d: build_rules(os.path.join(parent, d), seen) for d in args["DEPENDENCIES"]
                     if os.path.isdir(os.path.join(parent, d)) and os.path.join(parent, d) not in seen}
        return {"units": [_UNIT_ALIASES.get(u, u) for u in args["COMPUTE_UNIT"]], "dirs": args["TILING_DIR"], "deps": args["DEPENDENCIES"],
                "dep_rules": dep_rules, "name": os.path.basename(os.path.abspath(path))}
    return None


def host_sources(files: Mapping[str, str], rules: Optional[Mapping[str, List[str]]], unit: str) -> List[str]:
    """The op_host sources the op library's build compiles as host code for
    the compute unit ``unit`` (``ascend910b``, ``ascend950``; the SoC's
    AddConfig name): ``op_host/*_def*``, ``*_infershape*``, ``*_tiling*``,
    the unit's tiling directory's ``*_tiling*`` (``arch22``, ``arch35``)
    and ``op_tiling/``.  Without ``rules``, every op_host .cpp but the
    op-API sources."""
    cpp = sorted(p for p in files if p.startswith("op_host/") and p.endswith((".cpp", ".cc")) and not is_op_api(p))
    if rules is None:
        return cpp
    units, dirs = rules["units"], rules["dirs"]
    tiling_dir = dirs[units.index(unit)] if unit in units and units.index(unit) < len(dirs) else None
    out = []
    # a dependency's sources as its own CMake compiles them (the library
    # links every op's tiling code into one library): its tiling
    # directory's too; without rules of its own, its op_host/*.cpp
    for dep, dep_rules in all_dependencies(rules).items():
        own = {p[len(dep) + 1:]: t for p, t in files.items() if p.startswith(dep + "/op_host/")}
        picked = host_sources(own, dep_rules, unit) if dep_rules else [p for p in own if p.count("/") == 1 and
                                                                       p.endswith((".cpp", ".cc"))]
        out += sorted(dep + "/" + p for p in picked)
    for p in cpp:
        parts = p.split("/")
        name = parts[-1]
        if len(parts) == 2 and re.search(r"_def|_infershape|_tiling", name):
            out.append(p)
        elif len(parts) == 3 and parts[1] == tiling_dir and "_tiling" in name:
            out.append(p)
        elif len(parts) >= 3 and parts[1] == "op_tiling":
            out.append(p)
    return out


def all_dependencies(rules: Optional[Mapping[str, Any]]) -> Dict[str, Optional[Dict[str, Any]]]:
    """An op's DEPENDENCIES and theirs (ops-math's Pad needs PadV3, which
    needs Slice), each with its own rules (None where it has none), in
    the order met; never the op itself (ops-nn's FusedMatMul needs
    BatchMatMulV3, which needs FusedMatMul)."""
    out: Dict[str, Optional[Dict[str, Any]]] = {}
    own = (rules or {}).get("name")
    todo = [(d, (rules.get("dep_rules") or {}).get(d)) for d in (rules or {}).get("deps") or []]
    while todo:
        d, r = todo.pop(0)
        if d in out or d == own:
            continue
        out[d] = r
        todo += [(x, ((r or {}).get("dep_rules") or {}).get(x)) for x in (r or {}).get("deps") or []]
    return out


def dependency_files(path: str, deps: List[str]) -> Dict[str, str]:
    """The sources of an op's ``DEPENDENCIES`` (a shared directory beside
    the op, e.g. ops-nn's ``foreach/foreach_utils``) as the op library's
    build lays them out beside the op: its ``op_kernel`` files at
    ``<dep>/<file>`` (the kernels include ``"../foreach_utils/x.h"``) and
    ``<dep>/op_kernel/<file>`` (its own op_host sources climb there), its
    ``op_host`` files at ``<dep>/op_host/<file>`` (its op_host sources are
    compiled with the op's: InferShape and tiling functions, :func:`host_sources`)."""
    out: Dict[str, str] = {}
    parent = os.path.dirname(os.path.abspath(path))
    for dep in deps:
        d = os.path.join(parent, dep)
        if not os.path.isdir(d):
            continue
        for rel, text in read_dir(os.path.join(d, "op_kernel")).items():
            out[f"{dep}/{rel}"] = text
            out[f"{dep}/op_kernel/{rel}"] = text  # where its op_host sources find it ("../op_kernel/x.h")
        for rel, text in read_dir(os.path.join(d, "op_host")).items():
            out[f"{dep}/op_host/{rel}"] = text
    return out


def real_dirs(path: str, deps: Mapping[str, str]) -> List[str]:
    """Where the project's files are on disk, as host compile options
    (``--arc-real=<prefix>=<directory>``; csrc/rtc/host_compile.cpp): the
    op directory's own files, and its DEPENDENCIES' as
    :func:`dependency_files` lays them out.  The op's include directories
    reach the same files by their real paths (ops-nn's matmul ops include
    ``mat_mul_v3/op_host/...`` from the library root); the compile makes
    the two paths one file, as they are in the library's build."""
    parent = os.path.dirname(os.path.abspath(path))
    out = ["--arc-real==" + os.path.abspath(path)]
    for n in sorted({k.split("/")[0] for k in deps}):
        out += ["--arc-real=%s/=%s" % (n, os.path.join(parent, n, "op_kernel")),
                "--arc-real=%s/op_kernel/=%s" % (n, os.path.join(parent, n, "op_kernel")),
                "--arc-real=%s/op_host/=%s" % (n, os.path.join(parent, n, "op_host"))]
    return out


def dependency_include_dirs(path: str, deps: Mapping[str, str]) -> List[str]:
    """The op_host directories of the op's DEPENDENCIES (files from
    :func:`dependency_files`): the library's build adds them to the host
    include path (``#include "foreach_tiling_class.h"``)."""
    parent = os.path.dirname(os.path.abspath(path))
    names = sorted({k.split("/")[0] for k in deps if k.split("/")[1:2] == ["op_host"]})
    return [os.path.join(parent, n, "op_host") for n in names]
