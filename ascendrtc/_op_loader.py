"""op_project(): loads an op project (ascendrtc/_op_project.py's
OpProject) once per content in a process, in a bounded cache.

The cache keeps the most recently loaded projects (at most
``$ASCENDRTC_OP_PROJECTS``, default 32) so that calling ``op_project`` again
with the same project is free; a project pushed out of it is unloaded when
the last reference to it goes, and :meth:`OpProject.close` unloads one at
once (its host code's destructors run contained, then the code is freed).
"""
from __future__ import annotations

import collections
import os
import threading
from typing import Any, Mapping, Optional, Sequence, Union

from ._env import env_number
from ._op_library import (HOST_API_UNITS, OP_ONLY, all_dependencies, build_rules, dependency_files, dependency_include_dirs,
                          kernel_include_dirs, library_options, library_root, library_units, no_op_reason, opbase_include_dirs,
                          opbase_root, own_units, read_dir, real_dirs, source_dirs)
from ._op_package import kernel_paths, package_files, package_layout
from ._op_versions import opbase_mismatch
from ._op_project import DEFAULT_TILING_CAPACITY, OpProject, _error

__all__ = ["op_project"]

DEFAULT_CACHED_PROJECTS = 32

# content key -> OpProject, least recently used first
_project_cache: "collections.OrderedDict[Any, OpProject]" = collections.OrderedDict()
_project_lock = threading.Lock()


def cached_projects_limit() -> int:
    """How many op projects the cache keeps: ``$ASCENDRTC_OP_PROJECTS`` or 32 (at least 1)."""
    return env_number("ASCENDRTC_OP_PROJECTS", DEFAULT_CACHED_PROJECTS, int, "a number of op projects (>= 1)", 1)


def forget(project: OpProject) -> None:
    """Drops a project from the cache (OpProject.close)."""
    with _project_lock:
        for k in [k for k, v in _project_cache.items() if v is project]:
            del _project_cache[k]


def _remember(key: Any, proj: OpProject, limit: int) -> OpProject:
    """The cached project for key (proj unless another thread loaded it
    first), most recently used; the least recently used ones past `limit`
    are dropped (unloaded when nothing else holds them)."""
    with _project_lock:
        proj = _project_cache.setdefault(key, proj)
        _project_cache.move_to_end(key)
        while len(_project_cache) > limit:
            _project_cache.popitem(last=False)
    return proj


def op_project(source: Union[str, os.PathLike, Mapping[str, str]], *, op_type: Optional[str] = None,
               tiling_capacity: int = DEFAULT_TILING_CAPACITY, options: Sequence[str] = (),
               host_timeout: Optional[float] = None, opbase: Optional[str] = None) -> OpProject:
    """Loads a CANN custom-op project: a directory holding ``op_host/`` and
    ``op_kernel/``, or its files in memory (``{"op_host/add_custom.cpp":
    text, ...}``, paths relative to the project root).  ``op_type`` picks
    one op where the sources ``OP_ADD`` several; ``tiling_capacity`` is the
    tiling buffer's size in bytes; ``options`` are extra host compiler
    arguments (``-DNAME=VALUE``); ``host_timeout`` bounds each call of the
    op's host functions in seconds (default ``$ASCENDRTC_HOST_TIMEOUT`` or
    60; 0: none).  The host code is compiled once per project content
    (cached in this process: the ``$ASCENDRTC_OP_PROJECTS`` most recent,
    default 32; :meth:`OpProject.close` unloads one now; and its object
    kept in the compile cache, ``$ASCENDRTC_CACHE``/``$ASCENDRTC_CACHE_DIR``,
    so a new process loads it without compiling while the files it read
    are unchanged) and runs contained: a fault, an abort, a C++
    exception or a timeout in it is an :class:`OpProjectError` naming the
    function, Ctrl-C a KeyboardInterrupt, and the process goes on.

    A directory inside an op library (CANN's ops-nn, ops-math: a root with
    ``common/inc`` and a ``CMakeLists.txt``) gets the include directories
    the library's tiling build adds (its root, ``common/inc``,
    ``common/inc/op_host``).  ``opbase`` (a checkout of CANN's opbase,
    default ``$ASCENDRTC_OPBASE``; one of a version the library's
    version.cmake does not accept is refused) adds its include directories, and its
    host sources (``src/op_common``) are compiled in process where the op
    includes their headers, each as a translation unit of its own, once per
    process.  A directory with no op definition of its own (an op-API or
    graph-only directory, or code other ops include) is refused saying
    "no Ascend C op here".  Op-API sources
    (``op_host/op_api/``, ``aclnn_*``, ``*_l0*``) are not host tiling code:
    the library's build puts them in its aclnn library.

    An op package built with CANN's ASC CMake functions (``npu_op_library(...
    TILING ...)``, ``npu_op_kernel_sources(... OP_TYPE <Op> KERNEL_FILE
    <file>)``) is read as its CMake names its files: the tiling sources and
    each op's kernel, wherever they sit in the package."""
    kernels: Mapping[str, str] = {}
    if isinstance(source, Mapping):
        files = {str(k).replace(os.sep, "/").lstrip("./"): str(v) for k, v in source.items()}
        name = "op project (in memory)"
        rules = None
    else:
        path = os.fspath(source)
        if not os.path.isdir(path):
            raise _error(op_type or os.path.basename(path) or path, path,
                                 "not a directory (an op project holds op_host/ and op_kernel/)")
        files = read_dir(path)
        name = os.path.basename(os.path.abspath(path))
        layout = package_layout(path)
        if layout:
            files, kernels = package_files(files, layout), kernel_paths(layout)
        why = no_op_reason(files)
        if why:  # before its DEPENDENCIES' sources join: theirs define other ops
            raise _error(op_type or name, None, why)
        rules = build_rules(path)
        deps = dependency_files(path, list(all_dependencies(rules))) if rules and rules.get("deps") else {}
        files.update(deps)
    base = opbase_root(opbase)
    if base and not isinstance(source, Mapping):
        why = opbase_mismatch(library_root(path), base)
        if why:  # before anything compiles or is cached
            raise _error(op_type or name, "version.cmake", why)
    kernel_options = tuple("-I" + d for d in kernel_include_dirs(None if isinstance(source, Mapping) else path, base))
    units = {}
    if base:
        # before the library's own: its tiling and proto builds list OPBASE_INC_DIRS
        # first (ops-math's common/inc has an older op_host/infershape_reduce_util.h)
        options = tuple(options) + tuple("-I" + d for d in opbase_include_dirs(base))
        units = library_units(base)
    if not isinstance(source, Mapping):
        root = library_root(path)
        if root:  # the library's own units compile with its options, as every op does
            options = tuple(options) + tuple(library_options(root))
            units.update(own_units(root, [os.path.relpath(os.path.abspath(path), root).split(os.sep)[0]]))
            units.update(HOST_API_UNITS)
        options = tuple(options) + tuple(o for d in ["-I" + d for d in source_dirs(path) if root] +
                                         ["-I" + d for d in dependency_include_dirs(path, deps)] + real_dirs(path, deps)
                                         for o in (OP_ONLY, d))
    key = (tuple(sorted(files.items())), op_type, int(tiling_capacity), tuple(options), host_timeout,
           tuple(sorted(units.items())), repr(rules), kernel_options, tuple(sorted(kernels.items())))
    limit = cached_projects_limit()
    with _project_lock:
        cached = _project_cache.get(key)
    if cached is not None:
        return _remember(key, cached, limit)
    proj = OpProject(files, op_type=op_type, name=name, tiling_capacity=tiling_capacity, options=options,
                     host_timeout=host_timeout, units=units, rules=rules, kernel_options=kernel_options,
                     kernels=kernels)
    return _remember(key, proj, limit)
