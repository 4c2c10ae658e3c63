"""The ``ascendrtc`` command line (also ``python -m ascendrtc``).

    ascendrtc info                      backend, device, compiler, versions, cache dir
    ascendrtc home                      the CANN-shaped home: source "$(ascendrtc home)/set_env.sh"
    ascendrtc compile add.asc --npu-arch dav-2201 -o add.o
    ascendrtc cc prog.asc -o prog --npu-arch=dav-2201   (a single-source program: kernels + host main)
    ascendrtc run prog.asc -- ARGS                      (builds it, cached, and runs it)
    ascendrtc run add.asc -b 8 x=x.npy y=y.npy z=like:x      (writes z.npy)
    ascendrtc msopprof ./prog                            (CANN's msopprof: a program's estimated kernel times)
    ascendrtc cache list|stats|verify|prune|clear

Each command takes ``--help``.  Exit status: 0 on success, 1 when the work
failed (a compile error, a kernel that trapped), 2 for a bad command line.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import List, Optional

_COMMANDS = {
    "info": "describe the backend, the device, the compiler, the versions and the cache directory",
    "home": "print the simulated NPU's CANN-shaped home (include/, lib64/, set_env.sh)",
    "compile": "compile an Ascend C file to a binary; diagnostics on stderr, exit 1 on error",
    "cc": "build a single-source program (.asc: kernels and a host main with <<<...>>> launches) into an executable",
    "run": "compile (or load) a kernel and launch it on arrays from .npy files; outputs go to .npy files; "
           "or build and run a single-source program (FILE.asc -- ARGS)",
    "cache": "inspect the compile cache: cache list|stats|verify|prune --max-size|clear",
    "msopprof": "run a program with the cost model on and write CANN msopprof's OPPROF_* folder of estimates",
}


def _compile_options(p: argparse.ArgumentParser) -> None:
    """The compiler options `compile` and `run` share."""
    g = p.add_argument_group("compiler options")
    g.add_argument("--npu-arch", metavar="ARCH", help="target architecture: dav-2201 (Atlas A2, the default) "
                   "or dav-3510 (Ascend 950)")
    g.add_argument("-D", dest="defines", action="append", default=[], metavar="NAME[=VALUE]", help="define a macro")
    g.add_argument("-I", dest="includes", action="append", default=[], metavar="DIR",
                   help="add an include directory (the file's own directory is always searched)")
    g.add_argument("-O", dest="opt", metavar="LEVEL", help="optimisation level 0-3")
    g.add_argument("-g", dest="debug", action="store_true", help="debug information")
    g.add_argument("--sanitizer", action="store_true", help="check every global-memory access against its buffer")
    g.add_argument("-X", "--option", dest="extra", action="append", default=[], metavar="OPT",
                   help="pass OPT to the compiler as it is (repeatable), e.g. -X=-Wall")
    g.add_argument("--name-expr", action="append", default=[], metavar="EXPR",
                   help="instantiate a template kernel, e.g. 'scale<float>' (repeatable)")


def _options_from(a: argparse.Namespace, path: str) -> List[str]:
    opts = []
    if a.npu_arch:
        opts.append(f"--npu-arch={a.npu_arch}")
    if a.opt is not None:
        opts.append(f"-O{a.opt}")
    if a.debug:
        opts.append("-g")
    if a.sanitizer:
        opts.append("--sanitizer")
    opts += [f"-D{d}" for d in a.defines]
    opts += [f"-I{os.path.abspath(d)}" for d in a.includes]
    opts.append(f"-I{os.path.dirname(os.path.abspath(path))}")
    opts += a.extra
    return opts


def _parser() -> argparse.ArgumentParser:
    # The description is plain text in a terminal: no reST ``literal`` marks.
    p = argparse.ArgumentParser(prog="ascendrtc", description=__doc__.split("\n\n")[0].replace("``", ""),
                                epilog="Run `ascendrtc COMMAND --help` for a command's options.",
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    from ._version import __version__
    p.add_argument("--version", action="version", version=f"ascendrtc {__version__}")
    sub = p.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    info = sub.add_parser("info", help=_COMMANDS["info"], description=_COMMANDS["info"] + ".")
    info.add_argument("--json", action="store_true", help="print one JSON object instead of lines")
    sub.add_parser("home", help=_COMMANDS["home"], description=_COMMANDS["home"] + ".",
                   epilog='e.g.  source "$(ascendrtc home)/set_env.sh"')

    c = sub.add_parser("compile", help=_COMMANDS["compile"], description=_COMMANDS["compile"] + ".",
                       epilog="e.g.  ascendrtc compile add.asc --npu-arch dav-2201 -o add.o\n"
                              "The binary loads with ascendrtc.Binary.from_file(), or `ascendrtc run add.o ...`.",
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("file", help="Ascend C source (.asc, .cpp, ...)")
    c.add_argument("-o", "--output", metavar="OUT", help="where to write the binary (default: FILE with .o)")
    _compile_options(c)

    from ._cli_run import add_run_arguments
    r = sub.add_parser("run", help=_COMMANDS["run"], description=_COMMANDS["run"] + ".",
                       epilog=add_run_arguments.__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_arguments(r)
    _compile_options(r)
    sub.add_parser("cache", help=_COMMANDS["cache"], add_help=False)
    sub.add_parser("cc", help=_COMMANDS["cc"], add_help=False)
    sub.add_parser("msopprof", help=_COMMANDS["msopprof"], add_help=False)
    p._run_parser = r  # `run` mixes options and arguments: parsed with parse_intermixed_args
    return p


def _err(msg: str) -> None:
    print(f"ascendrtc: error: {msg}", file=sys.stderr)


def _read_source(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as e:
        _err(f"cannot read {path}: {e}")
        return None


def cmd_home() -> int:
    from . import _backend
    home = _backend.sim_home()
    print(home)
    if not os.path.exists(os.path.join(home, "set_env.sh")):
        print(f"note: {home} is not built yet; run `make home` in the ascendrtc source tree", file=sys.stderr)
        return 1
    return 0


def info_dict() -> dict:
    """What `ascendrtc info` reports, as a dict."""
    import numpy
    import ascendrtc as arc
    from . import cache
    b = arc.get_backend()
    out = {"ascendrtc": arc.__version__, "python": sys.version.split()[0], "numpy": numpy.__version__,
           "backend": b["backend"], "home": b["home"]}
    d = arc.device_info()
    arch = d.get("npu_arch")
    out.update({"soc": d.get("soc_name"), "npu_arch": f"dav-{arch}" if isinstance(arch, int) else arch,
                "aicore_num": d.get("aicore_num"), "cube_core_num": d.get("cube_core_num"),
                "vector_core_num": d.get("vector_core_num"), "ub_size": d.get("ub_size")})
    for k, v in d.items():
        out.setdefault(k, v)
    try:
        out["compiler"] = cache.fingerprint()
    except Exception as e:  # noqa: BLE001 - reported, not fatal
        out["compiler"] = f"unavailable ({e})"
    try:
        out["cache_dir"] = cache.get_cache().dir
        out["cache_mode"] = cache.mode()
    except Exception as e:  # noqa: BLE001
        out["cache_dir"] = f"unavailable ({e})"
    return out


def cmd_info(a: argparse.Namespace) -> int:
    try:
        info = info_dict()
    except Exception as e:  # noqa: BLE001 - a broken backend is reported, with its message
        _err(str(e))
        return 1
    if a.json:
        print(json.dumps(info, indent=2, default=str))
    else:
        for k, v in info.items():
            print(f"{k + ':':17}{v}")
    return 0


def cmd_compile(a: argparse.Namespace) -> int:
    import ascendrtc as arc
    src = _read_source(a.file)
    if src is None:
        return 2
    out = a.output or os.path.splitext(a.file)[0] + ".o"
    prog = arc.Program(src, os.path.basename(a.file), name_expressions=a.name_expr)
    try:
        binary = prog.compile(_options_from(a, a.file))
    except arc.CompileError as e:
        from ._cli_run import log_as_typed
        sys.stderr.write(log_as_typed(e.log, a.file) if e.log.strip() else str(e) + "\n")
        if not e.log.endswith("\n"):
            sys.stderr.write("\n")
        print(f"ascendrtc: {a.file}: compilation failed ({e.name})", file=sys.stderr)
        return 1
    except arc.AclError as e:
        _err(str(e))
        return 1
    if binary.log.strip():  # warnings
        sys.stderr.write(binary.log if binary.log.endswith("\n") else binary.log + "\n")
    try:
        binary.save(out)
    except OSError as e:
        _err(f"cannot write {out}: {e}")
        return 1
    print(f"wrote {out} ({len(binary)} bytes): kernels {', '.join(binary.kernel_names) or 'none'}")
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["cache"]:  # the compile cache's own CLI (ascendrtc/cache.py)
        from .cache import main as cache_main
        return cache_main(argv[1:], prog="ascendrtc cache")
    if argv[:1] == ["cc"]:  # bisheng's command line, parsed by the driver itself
        from ._cc import main as cc_main
        return cc_main(argv[1:])
    if argv[:1] == ["msopprof"]:  # CANN's profiler's command line (also bin/msopprof in the home)
        from ._msopprof import main as msopprof_main
        return msopprof_main(argv[1:])
    if argv[:1] == ["run"] and "--" in argv:  # a single-source program: build (cached), then run it
        from ._cc import run_program
        return run_program(argv[1:])
    p = _parser()
    if argv[:1] == ["run"]:
        a = p._run_parser.parse_intermixed_args(argv[1:])
        a.cmd = "run"
    else:
        a = p.parse_args(argv)
    if a.cmd == "home":
        return cmd_home()
    if a.cmd == "info":
        return cmd_info(a)
    if a.cmd == "compile":
        return cmd_compile(a)
    from ._cli_run import cmd_run
    return cmd_run(a, _options_from(a, a.file), _read_source, _err)


if __name__ == "__main__":
    sys.exit(main())
