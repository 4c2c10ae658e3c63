#!/usr/bin/env python3
"""Functions of ascendrtc's C/C++ libraries that nothing calls.

The compiler's -Wunused-function sees only `static` functions; this looks
at the built objects: a function defined with hidden visibility (not
exported from its library) that no relocation of its library's objects
names is dead -- or, where the object's own code inlined every call, used
by its file only and should be `static`.  Exported functions (default visibility) are the libraries'
interfaces and are not checked.  Run after `make all`; prints one
"object: function" line per dead function and exits 1 when there is any.
"""
from __future__ import annotations

import glob
import os
import subprocess
import sys
from typing import Dict, List, Set, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Built objects by library: (object folder, source root), as the Makefile and setup.py lay them out.
LIBS = {
    "libascendcl": [("build/obj/csrc/rt", "csrc/rt"), ("build/obj/csrc/common", "csrc/common")],
    "libacl_rtc": [("build/obj/csrc/rtc", "csrc/rtc"), ("build/obj/csrc/common", "csrc/common")],
    "_C": [("build/temp.*/csrc/ext", "csrc/ext"), ("build/temp.*/csrc/common", "csrc/common")],
}


def _objects(obj_dir: str, src_dir: str) -> List[str]:
    """Objects under obj_dir whose source still exists (a moved file leaves a stale object)."""
    out = []
    found = glob.glob(os.path.join(ROOT, obj_dir))
    if not found:
        return out
    obj_dir = os.path.relpath(found[-1], ROOT)  # setup.py's build/temp.<platform>-<python>
    for d, _, names in os.walk(os.path.join(ROOT, obj_dir)):
        for n in names:
            if not n.endswith(".o"):
                continue
            rel = os.path.relpath(os.path.join(d, n), os.path.join(ROOT, obj_dir))
            src = os.path.join(ROOT, src_dir, rel[:-2])
            if not any(os.path.exists(src + e) for e in ("", ".c", ".cpp")):
                continue
            out.append(os.path.join(d, n))
    return sorted(out)


def _readelf(args: List[str], obj: str) -> str:
    return subprocess.run(["readelf", "-W", *args, obj], check=True, capture_output=True, text=True).stdout


def _scan(obj: str) -> Tuple[Set[str], Set[str]]:
    """(hidden global functions defined in obj, symbols its relocations name)."""
    defined, used = set(), set()
    for line in _readelf(["-s"], obj).splitlines():
        f = line.split()
        if len(f) >= 8 and f[3] == "FUNC" and f[4] == "GLOBAL" and f[5] == "HIDDEN" and f[6] != "UND":
            defined.add(f[7])
    for line in _readelf(["-r"], obj).splitlines():
        f = line.split()
        if len(f) >= 5 and all(c in "0123456789abcdef" for c in f[0]):
            used.add(f[4])
    return defined, used


def dead_in(objects: List[str], also_used: Set[str] = frozenset()) -> Dict[str, List[str]]:
    """{object: [dead function, ...]} for the objects of one library
    (``also_used``: names other libraries' relocations name)."""
    defs = {}
    used: Set[str] = set(also_used)
    for o in objects:
        d, u = _scan(o)
        defs[o] = d
        used |= u
    dead: Dict[str, List[str]] = {}
    for o, d in defs.items():
        gone = sorted(s for s in d if s not in used)
        if gone:  # calls inside the object need no relocation: read its code
            code = subprocess.run(["objdump", "-d", "--no-show-raw-insn", o], check=True, capture_output=True,
                                  text=True).stdout
            gone = [s for s in gone if f"<{s}>" not in code.replace(f"<{s}>:", "")]
        if gone:
            dead[o] = gone
    return dead


def dead_functions() -> Dict[str, List[str]]:
    """{object (relative): [dead function, ...]} over every library; the
    shared csrc/common objects count a use in any library."""
    objs = {lib: [o for od, sd in dirs for o in _objects(od, sd)] for lib, dirs in LIBS.items()}
    common_used: Set[str] = set()
    for os_ in objs.values():
        for o in os_:
            common_used |= _scan(o)[1]
    dead: Dict[str, List[str]] = {}
    for lib, os_ in objs.items():
        mine = [o for o in os_ if "/csrc/common/" not in o]
        dead.update(dead_in(mine))
    common = sorted({o for os_ in objs.values() for o in os_ if "/csrc/common/" in o and "/build/obj/" in o})
    dead.update(dead_in(common, common_used))
    return {os.path.relpath(o, ROOT): v for o, v in dead.items()}


def main() -> int:
    dead = dead_functions()
    for o, names in sorted(dead.items()):
        for n in names:
            print(f"{o}: {n}")
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
