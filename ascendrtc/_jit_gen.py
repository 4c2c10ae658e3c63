"""The Python code a jit kernel generates (its fast call path, argument
selectors), registered in linecache so that tracebacks show its lines, and
how to tell a failure inside ascendrtc from one in the user's code."""
from __future__ import annotations

import linecache
import os
from typing import Callable, List

_PKG_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _internal(tb) -> bool:
    """Whether every frame of ``tb`` is ascendrtc's own code (not a user's
    source function or template expression)."""
    while tb is not None:
        f = tb.tb_frame.f_code.co_filename
        if not (f.startswith(_PKG_DIR) or f.startswith("<jit ")):
            return False
        tb = tb.tb_next
    return True


def _register_source(filename: str, text: str) -> str:
    """Give generated code a source in linecache, so tracebacks show its line
    (not "Could not get source"); a unique name per distinct text."""
    lines = text.splitlines(True)
    name, n = filename, 1
    while name in linecache.cache and linecache.cache[name][2] != lines:
        n += 1
        name = f"{filename[:-1]} #{n}>"
    linecache.cache[name] = (len(text), None, lines, name)
    return name


def _selector(launcher: Callable, sel: List[int], n: int) -> Callable:
    names = [f"a{i}" for i in range(n)]
    ns = {"L": launcher}
    exec(f"def call({', '.join(names)}):\n    return L({', '.join(names[i] for i in sel)})", ns)  # noqa: S102
    return ns["call"]
