"""``ascendrtc run``: launch one kernel from a file on arrays from ``.npy``
files and write the outputs to ``.npy`` files."""
from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, Callable, Dict, List, Tuple

import numpy as np

_ELF = b"\x7fELF"


def log_as_typed(log: str, path: str) -> str:
    """A compile log whose diagnostics name the file as the user typed it:
    programs are named by the file's base name (program names hold no '/')."""
    base = os.path.basename(path)
    if base == path:
        return log
    return re.sub(r"(?m)^" + re.escape(base) + r"(?=:\d)", lambda _m: path, log)


def add_run_arguments(p: argparse.ArgumentParser) -> None:
    """Arguments, in the kernel's parameter order or as NAME=VALUE:
  x.npy               an array loaded from a .npy file (copied to the device)
  zeros:SHAPE:DTYPE   a zero-filled array, e.g. zeros:256:float32 or zeros:8x32:float16
  like:NAME           a zero-filled array with the shape and dtype of argument NAME
  3, 0.5, true        a scalar for a scalar parameter

Arrays made with zeros: or like: are outputs: after the kernel finishes each
is written to OUT_DIR/NAME.npy.  -o NAME[=PATH] writes any argument (an
input the kernel updates in place, say) and replaces that default.

e.g.  ascendrtc run add.asc -b 8 x=x.npy y=y.npy z=like:x      -> z.npy
      ascendrtc run add.o --kernel add_custom -b 8 x.npy y.npy zeros:256:float32 -o z=out/z.npy"""
    p.add_argument("file", help="Ascend C source, or a binary written by `ascendrtc compile`")
    p.add_argument("args", nargs="*", metavar="ARG", help="kernel arguments (see below)")
    p.add_argument("-k", "--kernel", help="which kernel to launch (default: the only one in the file)")
    p.add_argument("-b", "--block-dim", type=int, default=1, metavar="N", help="number of cores (default 1)")
    p.add_argument("-o", "--out", action="append", default=[], metavar="NAME[=PATH]",
                   help="write argument NAME after the run (to PATH, default OUT_DIR/NAME.npy); repeatable")
    p.add_argument("--out-dir", default=".", metavar="DIR", help="where outputs go by default (default: .)")
    p.add_argument("--no-cache", action="store_true", help="compile without the disk cache")


class UsageError(Exception):
    """A bad `run` command line (exit status 2)."""


def _shape(text: str) -> Tuple[int, ...]:
    parts = [t for t in re.split(r"[x,]", text) if t]
    try:
        shape = tuple(int(t) for t in parts)
    except ValueError:
        raise UsageError(f"bad shape {text!r}: expected e.g. 256 or 8x32") from None
    if any(n < 0 for n in shape):
        raise UsageError(f"bad shape {text!r}: negative dimension")
    return shape


def _scalar(text: str) -> Any:
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    try:
        return int(text, 0)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return None


def _value(text: str, name: str, made: Dict[str, Any]):
    """(value, is_output) for one argument's text."""
    import ascendrtc as arc
    if text.startswith("zeros:"):
        spec = text[len("zeros:"):]
        shape_s, _, dtype_s = spec.partition(":")
        try:
            dtype = np.dtype(dtype_s or "float32")
        except TypeError:
            raise UsageError(f"{name}={text}: unknown dtype {dtype_s!r}") from None
        return arc.zeros(_shape(shape_s), dtype), True
    if text.startswith("like:"):
        other = text[len("like:"):]
        if other not in made:
            raise UsageError(f"{name}={text}: no earlier argument named {other!r} (known: {', '.join(made) or 'none'})")
        return arc.zeros_like(made[other]), True
    if text.endswith(".npy") or os.path.exists(text):
        try:
            a = np.load(text, allow_pickle=False)
        except (OSError, ValueError) as e:
            raise UsageError(f"{name}={text}: cannot load: {e}") from None
        return arc.to_device(a), False
    v = _scalar(text)
    if v is None:
        raise UsageError(f"{name}={text}: not a .npy file, zeros:SHAPE:DTYPE, like:NAME or a number")
    return v, False


def _load_kernel(a: argparse.Namespace, options: List[str], read_source: Callable):
    """The Kernel to launch, from source (through the cache) or a binary."""
    import ascendrtc as arc
    from . import cache
    with open(a.file, "rb") as f:
        head = f.read(4)
    if head == _ELF:
        binary = arc.Binary.from_file(a.file)
    else:
        src = read_source(a.file)
        if src is None:
            raise UsageError(f"cannot read {a.file}")
        prog = arc.Program(src, os.path.basename(a.file), name_expressions=a.name_expr)
        binary = cache.compile(prog, options, cache_mode="off" if a.no_cache else None).binary
    names = binary.kernel_names
    name = a.kernel
    if name is None:
        if len(names) != 1:
            raise UsageError(f"{a.file} has kernels {', '.join(names) or 'none'}; choose one with --kernel")
        name = names[0]
    elif name not in names:
        try:
            binary.lowered_name(name)
        except KeyError:
            raise UsageError(f"{a.file} has no kernel {name!r} (kernels: {', '.join(names) or 'none'})") from None
    return binary.load().get_kernel(name)


def _bind(kernel, texts: List[str]) -> Tuple[List[Any], Dict[str, Any], List[str]]:
    """Arguments in parameter order, all of them by name, and the outputs."""
    pnames = [p[0] for p in kernel.params]
    given: Dict[str, str] = {}
    pos = 0
    for t in texts:
        m = re.match(r"^([A-Za-z_]\w*)=(.*)$", t)
        if m and m.group(1) in pnames:
            key, val = m.group(1), m.group(2)
        elif m and not os.path.exists(t):  # NAME=VALUE for a name the kernel does not have
            raise UsageError(f"{t}: no parameter {m.group(1)!r} (parameters: {', '.join(pnames) or 'none'})")
        else:
            while pos < len(pnames) and pnames[pos] in given:
                pos += 1
            if pos >= len(pnames):
                raise UsageError(f"too many arguments: {kernel.signature} takes {len(pnames)}")
            key, val = pnames[pos], t
            pos += 1
        if key in given:
            raise UsageError(f"argument {key!r} given twice")
        given[key] = val
    missing = [n for n in pnames if n not in given]
    if missing:
        raise UsageError(f"{kernel.signature}: missing argument(s) {', '.join(missing)}")
    made: Dict[str, Any] = {}
    outputs = []
    for n in pnames:
        v, is_out = _value(given[n], n, made)
        made[n] = v
        if is_out:
            outputs.append(n)
    return [made[n] for n in pnames], made, outputs


def cmd_run(a: argparse.Namespace, options: List[str], read_source: Callable, err: Callable) -> int:
    import ascendrtc as arc
    try:
        if a.block_dim < 1:
            raise UsageError(f"--block-dim must be at least 1, got {a.block_dim}")
        if not os.path.isfile(a.file):
            raise UsageError(f"no such file: {a.file}")
        try:
            kernel = _load_kernel(a, options, read_source)
        except arc.CompileError as e:
            sys.stderr.write(log_as_typed(e.log, a.file) if e.log.strip() else str(e) + "\n")
            err(f"{a.file}: compilation failed ({e.name})")
            return 1
        args, by_name, outputs = _bind(kernel, a.args)
        writes: Dict[str, str] = {}
        for spec in a.out:
            name, _, path = spec.partition("=")
            if name not in by_name:
                raise UsageError(f"-o {spec}: {kernel.signature} has no parameter {name!r}")
            writes[name] = path or os.path.join(a.out_dir, name + ".npy")
        if not a.out:
            writes = {n: os.path.join(a.out_dir, n + ".npy") for n in outputs}
        for n in writes:
            if not isinstance(by_name[n], arc.DeviceArray):
                raise UsageError(f"-o {n}: argument {n!r} is a scalar, not an array")
        start, end = arc.Event(), arc.Event()
        start.record()
        kernel[a.block_dim](*args)
        end.record()
        end.synchronize()
        ms = start.elapsed_time(end)
    except UsageError as e:
        err(str(e))
        return 2
    except (TypeError, ValueError) as e:  # argument checks against the kernel's signature
        err(str(e))
        return 2
    except arc.AclError as e:  # launch failures and kernel traps
        err(str(e))
        return 1
    print(f"{kernel.signature} on {a.block_dim} core(s): {ms:.3f} ms")
    for n, path in writes.items():
        host = by_name[n].get()
        d = os.path.dirname(path)
        if d:
            os.makedirs(d, exist_ok=True)
        np.save(path, host)
        print(f"wrote {path}: {n} {host.dtype} {host.shape}")
    return 0
