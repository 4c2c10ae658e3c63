"""``ascendrtc cc``: a bisheng-like driver for single-source Ascend C
programs (``.asc``: kernels plus a host ``main`` that launches them with
``<<<...>>>``).

One in-process compile (the simulator's clang) yields both sides of a
source: the kernels become the device binary and the host part a host
object that embeds it, with every ``<<<...>>>`` launch lowered to ACL calls
(``csrc/device/arc/launch.h``).  The object goes through the compile cache,
so a rebuild of an unchanged source reuses it, device binary included.
Plain C++ inputs are compiled by ``clang++-19``, which also links the
executable against the simulated NPU's ``libascendcl``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from typing import List, Optional

from ._errors import Error

#: Source suffixes compiled as Ascend C (host and device in one file).
ASC_SUFFIXES = (".asc",)
#: Source suffixes handed to clang++ as plain host C++.
CXX_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++", ".C")

#: CANN host libraries whose content ascendrtc's host headers carry (the
#: tiling API, platform facts, op registration, logging, graph types are
#: header-only here, and ACL is libascendcl): linking one adds nothing.
PROVIDED_LIBS = {
    "tiling_api": "the host tiling API (header-only in ascendrtc)",
    "platform": "platform_ascendc (header-only in ascendrtc)",
    "register": "op registration (header-only in ascendrtc)",
    "graph_base": "graph types (header-only in ascendrtc)",
    "unified_dlog": "CANN logging (unused by ascendrtc's headers)",
    "ascendalog": "CANN logging (unused by ascendrtc's headers)",
    "ascendc_runtime": "the kernel launch runtime (libascendcl)",
    "acl_rt": "ACL runtime (libascendcl)",
    "runtime": "ACL runtime (libascendcl)",
    "ascendcl": "ACL (libascendcl)",
    "c_sec": "securec (unused by ascendrtc's headers)",
}

#: Hardware or components the simulated NPU does not model, as the driver
#: names them: (pattern in the source, what is missing).
UNSUPPORTED = (
    (re.compile(r"\baicpu\b|__aicpu__|aicpu_kernel|-xaicpu", re.I), "the AI CPU (AICPU kernels)"),
)


class CcError(Error):
    """A build that failed: the message names the file and what is missing."""


@dataclass
class CcArgs:
    """A parsed ``ascendrtc cc`` command line."""
    inputs: List[str] = field(default_factory=list)
    output: Optional[str] = None
    compile_only: bool = False
    device_opts: List[str] = field(default_factory=list)  # for the Ascend C compile
    host_opts: List[str] = field(default_factory=list)    # for clang++ (C++ inputs)
    link_opts: List[str] = field(default_factory=list)    # -L, -l, -Wl, ...
    arch: Optional[str] = None
    simt: bool = False
    verbose: bool = False
    no_cache: bool = False
    shared: bool = False                                  # link a shared library
    static_lib: bool = False                              # -lib: archive the objects
    forced_asc: List[str] = field(default_factory=list)   # inputs after -x asc


def usage() -> str:
    return ("usage: ascendrtc cc [-c] [-o OUT] --npu-arch=dav-2201|dav-3510 [-I DIR] [-D NAME[=V]] [-O0..3] [-g]\n"
            "                    [--enable-simt] [-dc] [-std=...] [-L DIR] [-l LIB] [-Wl,...] [-x asc] [-shared|-lib]\n"
            "                    FILE...  (also installed as `bisheng` in the simulated CANN home's bin)\n"
            "Compiles single-source Ascend C programs (.asc) and host C++ (.cpp) into an executable (or, with -c,\n"
            "an object) that runs on the simulated NPU.  ascendrtc run FILE.asc -- ARGS builds (cached) and runs.")


def parse(argv: List[str]) -> CcArgs:
    """The driver's command line, in bisheng's spelling; raises CcError."""
    a = CcArgs()
    it = iter(range(len(argv)))
    lang_asc = False

    def value(i: int, opt: str) -> str:
        if i + 1 >= len(argv):
            raise CcError(f"{opt} needs a value")
        next(it)
        return argv[i + 1]

    for i in it:
        s = argv[i]
        if s in ("-h", "--help"):
            raise CcError(usage())
        if s == "-c":
            a.compile_only = True
        elif s == "-o":
            a.output = value(i, s)
        elif s.startswith("-o") and len(s) > 2:
            a.output = s[2:]
        elif s.startswith("--npu-arch"):
            a.arch = s.split("=", 1)[1] if "=" in s else value(i, s)
        elif s.startswith("--npu-soc="):
            a.device_opts.append(s)
        elif s == "--enable-simt":
            a.simt = True
        elif s in ("-I", "-D", "-U", "-isystem", "-iquote", "-include"):
            v = value(i, s)
            flag = "-I" if s in ("-isystem", "-iquote") else s
            if flag == "-include":
                a.host_opts += [s, v]
                continue
            a.device_opts.append(flag + (os.path.abspath(v) if flag == "-I" else v))
            a.host_opts.append(flag + (os.path.abspath(v) if flag == "-I" else v))
        elif s[:2] in ("-I", "-D", "-U"):
            v = os.path.abspath(s[2:]) if s[:2] == "-I" else s[2:]
            a.device_opts.append(s[:2] + v)
            a.host_opts.append(s[:2] + v)
        elif re.fullmatch(r"-O[0-3s]?|-Ofast|-Oz", s):
            lvl = {"-O": "-O1", "-Os": "-O2", "-Oz": "-O2", "-Ofast": "-O3"}.get(s, s)
            a.device_opts.append(lvl)
            a.host_opts.append(s)
        elif s == "-g" or s.startswith("-g"):
            a.device_opts.append("-g")
            a.host_opts.append(s)
        elif s.startswith("-std="):
            a.device_opts.append(s)
            a.host_opts.append(s)
        elif s == "-x":
            lang = value(i, s)
            if lang == "aicpu":
                raise CcError("-x aicpu: AI CPU kernels need the AI CPU, which the simulated NPU does not model")
            lang_asc = lang in ("asc", "cce")
        elif s in ("-xasc", "-xcce"):
            lang_asc = True
        elif s == "--sanitizer":
            a.device_opts.append(s)
        elif s in ("-v", "--verbose"):
            a.verbose = True
        elif s == "--no-cache":
            a.no_cache = True
        elif s == "-w" or (s.startswith("-W") and not s.startswith(("-Wl,", "-Wa,", "-Wp,"))):
            a.device_opts.append(s)
            a.host_opts.append(s)
        elif s == "-shared":
            a.shared = True
        elif s == "-lib":
            a.static_lib = True
        elif s in ("-dc", "-rdc", "--relocatable-device-code"):
            a.device_opts.append("-dc")  # its __aicore__ functions serve other files' kernels (csrc/rtc/rdc.h)
            a.compile_only = True        # as bisheng's (and nvcc's) -dc: an object, linked later
        elif s in ("-L", "-l"):
            a.link_opts.append(s + value(i, s))
        elif s.startswith(("-L", "-l", "-Wl,", "-rdynamic", "-pthread", "-static-libstdc++", "-fuse-ld=")):
            a.link_opts.append(s)
            if s == "-pthread":
                a.host_opts.append(s)
        elif s in ("-fPIC", "-fPIE", "-fpic", "-fpie", "-pie", "-no-pie", "-fno-exceptions", "-fexceptions",
                   "-fvisibility=hidden", "-fstack-protector-all", "-fstack-protector-strong", "-DNDEBUG") or \
                s.startswith(("-fstack-protector", "-D_FORTIFY_SOURCE", "-ftrapv", "-fno-strict", "-march",
                              "-mtune", "--cce-")):
            a.host_opts.append(s)  # position-independence, hardening: the host compiler's business
        elif s.startswith("-") and s != "-":
            raise CcError(f"unknown option '{s}'\n{usage()}")
        else:
            a.inputs.append(s)
            if lang_asc:
                a.forced_asc.append(s)
    if not a.inputs:
        raise CcError("no input files\n" + usage())
    if a.compile_only and a.output and len([f for f in a.inputs if _is_source(a, f)]) > 1:
        raise CcError("-c -o OUT with several sources")
    return a


def _is_asc(a: CcArgs, path: str) -> bool:
    return path in a.forced_asc or path.endswith(ASC_SUFFIXES)


def _is_source(a: CcArgs, path: str) -> bool:
    return _is_asc(a, path) or path.endswith(CXX_SUFFIXES)


def home() -> str:
    from . import _backend
    return _backend.sim_home()


def clangxx() -> str:
    """The host C++ compiler and linker: clang++-19 (else clang++)."""
    for name in ("clang++-19", "clang++"):
        p = shutil.which(name)
        if p:
            return p
    raise CcError("no clang++-19 on PATH: the host part of a program is compiled and linked with it "
                  "(apt-get install clang-19)")


def _check_supported(path: str, text: str) -> None:
    for pat, what in UNSUPPORTED:
        if pat.search(text) and re.search(r"#include\s*[<\"][^>\"]*aicpu", text):
            raise CcError(f"{path}: needs {what}, which the simulated NPU does not model")


def compile_asc(path: str, a: CcArgs, out: str) -> None:
    """One .asc file to a host object (device binary inside) at ``out``."""
    import ascendrtc as arc
    from . import cache
    try:
        with open(path, encoding="utf-8") as f:
            src = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise CcError(f"cannot read {path}: {e}") from None
    _check_supported(path, src)
    opts = [f"--npu-arch={a.arch}"] if a.arch else []
    opts += a.device_opts
    if a.simt:
        opts.append("--enable-simt")
    opts.append("-I" + os.path.dirname(os.path.abspath(path)))
    opts.append("--host-object")
    prog = arc.Program(src, os.path.basename(path))
    try:
        res = cache.compile(prog, opts, cache_mode="off" if a.no_cache else None, origin=os.path.abspath(path))
    except arc.CompileError as e:
        from ._cli_run import log_as_typed
        msg = log_as_typed(e.log, path) if e.log.strip() else str(e)
        raise CcError(msg.rstrip("\n") + f"\nascendrtc cc: {path}: compilation failed ({e.name})") from None
    if a.verbose:
        print(f"ascendrtc cc: {path}: {res.how} ({res.seconds:.2f} s)", file=sys.stderr)
    log = res.binary.log
    if log.strip():  # warnings, notes
        sys.stderr.write(log if log.endswith("\n") else log + "\n")
    _write_atomic(out, res.binary.data)


def _write_atomic(path: str, data: bytes, mode: int = 0o644) -> None:
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".arc-cc-", dir=d)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _run(cmd: List[str], what: str, verbose: bool) -> str:
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        raise CcError(f"{p.stdout.rstrip()}\nascendrtc cc: {what} failed (exit {p.returncode})")
    return p.stdout


def compile_cxx(path: str, a: CcArgs, out: str) -> None:
    """A plain C++ host source, with the simulated NPU's headers."""
    h = home()
    cmd = [clangxx(), "-c", path, "-o", out, "-I", os.path.join(h, "include")] + a.host_opts
    if not any(o.startswith("-std=") for o in a.host_opts):
        cmd.append("-std=c++17")
    if not any(o.startswith("-O") for o in a.host_opts):
        cmd.append("-O2")
    _run(cmd, f"{path}: compiling the host C++", a.verbose)


def _libs(a: CcArgs) -> List[str]:
    out = []
    for o in a.link_opts:
        if o.startswith("-l") and o[2:] in PROVIDED_LIBS:
            continue
        out.append(o)
    return out


def _named(objs: List[str], a: CcArgs) -> str:
    """The inputs a link error is about: the sources as the user named them."""
    return ", ".join(a.inputs)


def link(objs: List[str], a: CcArgs, out: str) -> None:
    """Links objects into an executable against libascendcl; ``out``
    appears only when the link succeeded."""
    lib64 = os.path.join(home(), "lib64")
    if not os.path.exists(os.path.join(lib64, "libascendcl.so")):
        raise CcError(f"{lib64}/libascendcl.so is missing: run `make home` in the ascendrtc source tree")
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".arc-ld-", dir=d)
    os.close(fd)
    # libascendcl's own needs (libLLVM) are the loader's at run time: ld
    # reading libLLVM's symbols to check them took ~0.8 s of every link
    cmd = [clangxx(), "-o", tmp] + (["-shared"] if a.shared else []) + objs + _libs(a) + \
        ["-L" + lib64, "-lascendcl", "-Wl,-rpath," + lib64, "-Wl,--allow-shlib-undefined", "-lm", "-lpthread", "-ldl"]
    try:
        try:
            _run(cmd, f"linking {out}", a.verbose)
        except CcError as e:
            missing = re.findall(r"cannot find -l([^\s:]+)", str(e))
            if missing:
                raise CcError(f"{_named(objs, a)}: the host part needs the librar{'ies' if len(missing) > 1 else 'y'} "
                              f"{', '.join('lib' + m for m in missing)}, which this machine lacks "
                              f"(not in the linker's search path, nor provided by ascendrtc)\n{e}") from None
            undef = re.findall(r"undefined reference to [`'](.+?)'", str(e))
            if undef:
                raise CcError(f"{_named(objs, a)}: the host part needs {undef[0]!r}{' and more' if len(undef) > 1 else ''}, "
                              f"defined by no input nor library\n{e}") from None
            raise
        os.chmod(tmp, 0o755)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def build(a: CcArgs) -> str:
    """Compiles (and links) what ``a`` asks for; returns the output path."""
    soc_given = any(o.startswith("--npu-soc=") for o in a.device_opts)  # its arch, then
    if a.arch is None and not soc_given and any(_is_asc(a, f) for f in a.inputs):
        a.arch = "dav-2201"
    sources = [f for f in a.inputs if _is_source(a, f)]
    for f in a.inputs:
        if not os.path.exists(f):
            raise CcError(f"no such file: {f}")
    if a.compile_only:
        for f in sources:
            out = a.output if a.output else os.path.splitext(os.path.basename(f))[0] + ".o"
            (compile_asc if _is_asc(a, f) else compile_cxx)(f, a, out)
        return a.output or ""
    out = a.output or ("a.so" if a.shared else "a.a" if a.static_lib else "a.out")
    with tempfile.TemporaryDirectory(prefix="arc-cc-") as tmpd:
        objs = []
        for n, f in enumerate(a.inputs):
            if f in sources:
                o = os.path.join(tmpd, f"{n}-{os.path.basename(f)}.o")
                (compile_asc if _is_asc(a, f) else compile_cxx)(f, a, o)
                objs.append(o)
            else:
                objs.append(f)
        if a.static_lib:
            archive(objs, a, out)
        else:
            link(objs, a, out)
    return out


def archive(objs: List[str], a: CcArgs, out: str) -> None:
    """-lib: a static library of the objects (each host object carries its
    own device binary); ``out`` appears only when ar succeeded."""
    ar = shutil.which("llvm-ar-19") or shutil.which("ar")
    if not ar:
        raise CcError("-lib needs ar (binutils) or llvm-ar-19 on PATH")
    d = os.path.dirname(os.path.abspath(out))
    fd, tmp = tempfile.mkstemp(prefix=".arc-ar-", dir=d, suffix=".a")
    os.close(fd)
    os.unlink(tmp)  # ar creates it
    try:
        _run([ar, "qcs", tmp] + objs, f"archiving {out}", a.verbose)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def main(argv: List[str], prog: str = "ascendrtc cc") -> int:
    """``ascendrtc cc``; exit 0, 1 (a failed build) or 2 (a bad command line)."""
    try:
        a = parse(argv)
    except CcError as e:
        print(f"{prog}: {e}" if not str(e).startswith("usage") else str(e), file=sys.stderr)
        return 0 if argv[:1] in (["-h"], ["--help"]) else 2
    try:
        build(a)
    except CcError as e:
        print(f"{prog}: error: {e}" if "\n" not in str(e) else str(e), file=sys.stderr)
        return 1
    return 0


def run_program(argv: List[str], prog: str = "ascendrtc run") -> int:
    """``ascendrtc run FILE.asc [cc options] -- ARGS``: builds the program
    into the cache directory (a rebuild of an unchanged source reuses the
    cached object) and runs it with ARGS; its exit status is returned."""
    cut = argv.index("--")
    build_argv, args = argv[:cut], argv[cut + 1:]
    try:
        a = parse(build_argv)
        if a.compile_only or a.output:
            raise CcError("run takes no -c or -o")
        from . import cache
        import hashlib
        key = hashlib.sha256("\0".join([os.path.abspath(f) for f in a.inputs] + build_argv).encode()).hexdigest()
        d = os.path.join(cache.get_cache().dir, "programs")
        os.makedirs(d, exist_ok=True)
        a.output = os.path.join(d, f"{os.path.splitext(os.path.basename(a.inputs[0]))[0]}-{key[:16]}")
        exe = build(a)
    except CcError as e:
        print(f"{prog}: error: {e}" if "\n" not in str(e) else str(e), file=sys.stderr)
        return 2 if "usage" in str(e) else 1
    sys.stdout.flush()
    return subprocess.call([exe] + args)
