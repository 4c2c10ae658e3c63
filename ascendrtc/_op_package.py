"""CANN 2026's op packages, built with the ASC CMake functions
(asc-devkit's ``99_acl_based/00_acl_compilation``): ``npu_op_library(<lib>
TILING <sources>)`` names the host tiling sources and
``npu_op_kernel_sources(<lib> OP_TYPE <Op> [KERNEL_DIR <dir>] KERNEL_FILE
<file>)`` each op's kernel, so a package need not keep ``op_host/<op>.cpp``
and ``op_kernel/<op>.cpp`` (its files may sit side by side in one
directory).  Read from the package's CMakeLists.txt files, so that
``op_project`` loads the package as its build sees it."""
from __future__ import annotations

import glob
import os
import re
from typing import Dict, List, Mapping, Optional

__all__ = ["package_layout", "package_files", "kernel_paths"]

_CALL = r"\b{name}\s*\(([^)]*)\)"
_SKIP_DIRS = ("framework", "app", "build", "tests", "scripts")


def _cmake_files(path: str) -> List[str]:
    """The package's CMakeLists.txt files: its own and those of its
    subdirectories two levels down (op_host/, op_kernel/), not the
    framework plugins' nor an app's."""
    out = []
    for root, dirs, names in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        if os.path.relpath(root, path).count(os.sep) >= 2:
            dirs[:] = []
        if "CMakeLists.txt" in names:
            out.append(os.path.join(root, "CMakeLists.txt"))
    return out


def _expand(tokens: List[str], cdir: str, variables: Mapping[str, List[str]]) -> List[str]:
    """CMake arguments as absolute paths: ${var} from file(GLOB ...), a
    path relative to the CMakeLists.txt's directory, globbed."""
    out: List[str] = []
    for tok in tokens:
        m = re.fullmatch(r"\$\{(\w+)\}", tok)
        if m:
            out += variables.get(m.group(1), [])
            continue
        tok = tok.replace("${CMAKE_CURRENT_SOURCE_DIR}", cdir)
        if "${" in tok:
            continue  # a generated source (${ASCEND_AUTOGEN_PATH}/aclnn_*.cpp): not on disk
        full = tok if os.path.isabs(tok) else os.path.join(cdir, tok)
        out += sorted(glob.glob(full)) if any(c in tok for c in "*?[") else [full]
    return [os.path.normpath(p) for p in out]


def package_layout(path: str) -> Optional[Dict[str, object]]:
    """``{"kernels": {op type: kernel file}, "hosts": [host tiling
    sources]}`` (paths relative to ``path``) where the package's CMake
    names its kernels with ``npu_op_kernel_sources``; None otherwise (a
    classic op project or a library op: the usual layout rules apply)."""
    kernels: Dict[str, str] = {}
    hosts: List[str] = []
    for cm in _cmake_files(path):
        with open(cm, encoding="utf-8", errors="replace") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        if "npu_op_" not in text:
            continue
        cdir = os.path.dirname(cm)
        variables: Dict[str, List[str]] = {}
        for m in re.finditer(r"\bfile\s*\(\s*GLOB(?:_RECURSE)?\s+(\w+)\s+([^)]*)\)", text):
            variables[m.group(1)] = _expand(m.group(2).replace('"', " ").split(), cdir, variables)
        for m in re.finditer(_CALL.format(name="npu_op_library"), text):
            toks = m.group(1).replace('"', " ").split()
            if len(toks) > 2 and toks[1] == "TILING":
                hosts += [p for p in _expand(toks[2:], cdir, variables) if p not in hosts]
        for m in re.finditer(_CALL.format(name="npu_op_kernel_sources"), text):
            args: Dict[str, str] = {}
            toks = m.group(1).replace('"', " ").split()
            for key, val in zip(toks[1:], toks[2:]):
                if key in ("OP_TYPE", "KERNEL_DIR", "KERNEL_FILE"):
                    args[key] = val
            if "OP_TYPE" in args and "KERNEL_FILE" in args:
                kdir = os.path.join(cdir, args.get("KERNEL_DIR", ""))
                kernels[args["OP_TYPE"]] = os.path.normpath(os.path.join(kdir, args["KERNEL_FILE"]))
    if not kernels:
        return None
    rel = lambda p: os.path.relpath(p, path).replace(os.sep, "/")  # noqa: E731
    return {"kernels": {t: rel(p) for t, p in kernels.items()}, "hosts": [rel(p) for p in hosts]}


def package_files(files: Mapping[str, str], layout: Mapping[str, object]) -> Dict[str, str]:
    """The package's files as an op project sees them (host code under
    ``op_host/``, kernels under ``op_kernel/``): a file outside both
    (sources side by side) is placed where its role says, a header beside
    both so that each side's relative includes find it; the op_host
    sources the CMake does not name as tiling code (op-API, graph plugins)
    are left out."""
    hosts = set(layout["hosts"])  # type: ignore[arg-type]
    kernels = set(layout["kernels"].values())  # type: ignore[union-attr]
    out: Dict[str, str] = {}
    for p, text in files.items():
        top = p.split("/")[0]
        if top in _SKIP_DIRS:
            continue
        if top == "op_kernel":
            out[p] = text
        elif top == "op_host":
            if p in hosts or not p.endswith((".cpp", ".cc")):
                out[p] = text
        elif p in hosts:
            out["op_host/" + p] = text
        elif p in kernels:
            out["op_kernel/" + p] = text
        elif not p.endswith((".cpp", ".cc")):
            out["op_host/" + p] = out["op_kernel/" + p] = text
    return out


def kernel_paths(layout: Mapping[str, object]) -> Dict[str, str]:
    """{op type: its kernel's path among package_files'}."""
    return {t: (p if p.split("/")[0] == "op_kernel" else "op_kernel/" + p)
            for t, p in layout["kernels"].items()}  # type: ignore[union-attr]
