#!/usr/bin/env python3
"""CANN's asc-devkit examples, built with their own CMakeLists.txt and run
as their README says, on the simulated NPU.

Each example's README ("样例执行" section) gives a bash block: cmake with
``CMAKE_ASC_ARCHITECTURES``, ``make``, maybe ``scripts/gen_data.py``, the
program, maybe ``scripts/verify_result.py``; and the pass line its run
prints ("执行结果如下").  This tool runs that block unchanged in a copy of
the example directory, with the simulated CANN home's ``set_env.sh``
sourced (so ``find_package(ASC)`` finds the ASC language), and reports
whether the pass line appeared.

    python3 tools/devkit_examples.py [--arch dav-2201] [--filter SUBSTR] [--table]

``--table`` prints the docs/compatibility.md table.  The mirror comes from
$ASC_DEVKIT_SRC (a work tree).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import List, Optional

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import example_runner as er  # noqa: E402  (the pool, the first error, the table cells)

#: What the simulated NPU does not model, found in an example's files:
#: (pattern, the missing piece named in the failure).
NEEDS = (
    (re.compile(r"\.aicpu\b|aicpu_kernel|__aicpu__|AICPU", re.I), "the AI CPU"),
    (re.compile(r"aclrtSetDevice\(\s*[1-9]|deviceCount\s*>\s*1|HCCL|hccl", re.I), "more than one device"),
    (re.compile(r"torch_npu|TORCH_NPU|import torch\b"), "torch_npu (PyTorch on an NPU)"),
    (re.compile(r"tensorflow|onnx", re.I), "a framework plugin host (TensorFlow/ONNX/GE)"),
    (re.compile(r"mssanitizer", re.I), "CANN's sanitizer tool"),
)


#: Examples that do not pass yet, with the first error of their run
#: (docs/compatibility.md shows the same), in devkit_known.json;
#: tests/test_devkit_examples.py expects them to fail (strictly: one that
#: starts passing must leave).  Measured at asc-devkit 82b89a15f;
#: ``--update-known`` rewrites the entries of the examples a run covered.
KNOWN_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "devkit_known.json")
with open(KNOWN_PATH, encoding="utf-8") as _f:
    KNOWN = json.load(_f)


def update_known(results, path=KNOWN_PATH):
    """Rewrites the KNOWN entries of the examples in `results` ((rel, ok,
    why) rows): a pass leaves, a failure gets its first error, except that
    a hand-written explanation (not a compiler's or tool's first line) stays
    while the example still fails."""
    known = dict(KNOWN)
    for rel, ok, why in results:
        if ok:
            known.pop(rel, None)
        elif rel not in known or _machine_reason(known[rel]):
            known[rel] = why
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dict(sorted(known.items())), f, indent=1, ensure_ascii=False)
        f.write("\n")


def _machine_reason(text):
    return bool(re.match(r"(?:error|fatal error|make|bash|CMake|ModuleNotFoundError|ascendrtc)\b|\[ERROR\]", text))


#: Examples whose README quotes another scenario's pass line than the one
#: its build-and-run block runs: the line that scenario's program prints.
PASS_LINES = {
    # SCENARIO_NUM=1 builds sync_barrier.asc; the README quotes memory_fence.asc's line
    '03_simt_api/02_features/01_api_features/01_sync_instruction/memory_fence':
        '[Success] Case accuracy verification passed.',
}


@dataclass
class Example:
    rel: str            # path under examples/
    commands: str       # the README's bash block
    pass_line: str      # what a passing run prints
    arch: str           # dav-2201, dav-3510, ...


def _block_after(text: str, marker: str, start: int = 0) -> Optional[str]:
    i = text.find(marker, start)
    if i < 0:
        return None
    m = re.search(r"```[^\n]*\n(.*?)```", text[i:], re.S)
    return m.group(1) if m else None


_SECTION = re.compile(r"^[ \t]*(?:-|#+)[ \t]*样例执行", re.M)
_PASS = re.compile(r"test pass|\[Success\]|passed|PASSED|\bOK\b|success", re.I)


def catalog(src: str) -> List[Example]:
    """The examples whose README gives a build-and-run block and a pass line."""
    out = []
    base = os.path.join(src, "examples")
    for root, dirs, files in os.walk(base):
        dirs.sort()
        if "CMakeLists.txt" not in files or "README.md" not in files:
            continue
        with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
            text = f.read()
        # the section's heading or list item, not the word in a description's prose
        h = _SECTION.search(text)
        i = h.start() if h else -1
        cmds = _block_after(text, "样例执行", i) if h else None
        if i < 0 or cmds is None:
            continue
        res = _block_after(text, "执行结果如下", i)
        lines = [ln.strip() for ln in (res or "").splitlines() if _PASS.search(ln) and "fail" not in ln.lower()]
        if not lines:
            continue
        archs = re.findall(r"dav-\d+", cmds)
        rel = os.path.relpath(root, base)
        out.append(Example(rel, cmds, PASS_LINES.get(rel, lines[-1]), archs[0] if archs else "dav-2201"))
    return out


def needs(src: str, ex: Example) -> Optional[str]:
    """What the example needs that the simulated NPU does not model, or None."""
    d = os.path.join(src, "examples", ex.rel)
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith((".asc", ".cpp", ".h", ".txt", ".py", ".aicpu")):
                try:
                    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                        t = fh.read()
                except OSError:
                    continue
                for pat, what in NEEDS:
                    if f.endswith(".aicpu") or pat.search(t):
                        return what if not f.endswith(".aicpu") else "the AI CPU"
    return None


#: The SoC a README's ``<soc_version>`` stands for, by the example's arch.
SOC_OF_ARCH = {"dav-2201": "Ascend910B1", "dav-3510": "Ascend950PR_9599"}


def script(ex: Example, home: str, cmake: str) -> str:
    """The README's block as a bash script, with the simulated home sourced."""
    lines = [f'. "{home}/set_env.sh"', f'cmake() {{ "{cmake}" "$@"; }}', "set -e"]
    for ln in ex.commands.splitlines():
        s = ln.strip()
        if not s or s.startswith("source ") or "set_env.sh" in s:
            continue
        # the READMEs' placeholder for the SoC, filled in as they tell a user to
        lines.append(ln.replace("<soc_version>", SOC_OF_ARCH.get(ex.arch, "Ascend910B1")))
    return "\n".join(lines) + "\n"


def run(src: str, ex: Example, work: str, timeout: float = 600, home: Optional[str] = None) -> dict:
    """Runs one example in a copy under ``work``; returns ok, output, seconds."""
    home = home or os.path.join(ROOT, "ascendrtc", "_home")
    cmake = shutil.which("cmake", path="/usr/bin") or shutil.which("cmake") or "cmake"
    d = os.path.join(work, ex.rel.replace("/", "_"))
    shutil.copytree(os.path.join(src, "examples", ex.rel), d, symlinks=True)
    t0 = time.perf_counter()
    out, rc = er.run_command(["bash", "-c", script(ex, home, cmake)], timeout, cwd=d, env=er.env_with_checkout(ROOT))
    ok = rc == 0 and ex.pass_line in out
    return {"ok": ok, "rc": rc, "output": out, "seconds": time.perf_counter() - t0}


reason = er.reason  # one line saying why a run failed


DOC_PATH = os.path.join(ROOT, "docs", "compatibility.md")
DOC_BEGIN, DOC_END = "<!-- devkit-examples:begin -->", "<!-- devkit-examples:end -->"


def family(rel: str) -> str:
    """An example's family in the docs' summary: 01_simd_cpp_api's second level, else the top folder."""
    parts = rel.split("/")
    return "/".join(parts[:2]) if parts[0] == "01_simd_cpp_api" else parts[0]


def doc_table(exs: List[Example], known: dict) -> str:
    """docs/compatibility.md's block: the summary by family and a row per
    example, pass unless devkit_known.json lists its first error."""
    fams: dict = {}
    for ex in exs:
        n, p = fams.get(family(ex.rel), (0, 0))
        fams[family(ex.rel)] = (n + 1, p + (ex.rel not in known))
    total, passed = len(exs), sum(p for _, p in fams.values())
    out = ["| family | examples | pass |", "|---|---|---|"]
    out += [f"| `{f}` | {n} | {p} |" for f, (n, p) in sorted(fams.items())]
    out += [f"| **all** | **{total}** | **{passed} ({100 * passed // max(total, 1)}%)** |", "",
            "| example (under `examples/`) | arch | result |", "|---|---|---|"]
    out += [f"| {ex.rel} | {ex.arch} | {'pass' if ex.rel not in known else 'fails: ' + er.cell(known[ex.rel])} |"
            for ex in exs]
    return "\n".join(out)


def write_doc(src: str, path: str = DOC_PATH) -> str:
    """Rewrites the block between the markers from the catalog and
    devkit_known.json (no example is run); returns the summary line."""
    table = doc_table(catalog(src), KNOWN)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    i, j = text.index(DOC_BEGIN) + len(DOC_BEGIN), text.index(DOC_END)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text[:i] + "\n" + table + "\n" + text[j:])
    return [ln for ln in table.splitlines() if ln.startswith("| **all**")][0]


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", help="only examples for this arch (dav-2201, dav-3510)")
    ap.add_argument("--filter", default="", help="only examples whose path contains this")
    ap.add_argument("--table", action="store_true", help="print a markdown table")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--update-known", action="store_true", help="rewrite devkit_known.json's entries for this run")
    ap.add_argument("--json", metavar="PATH", help="write [rel, arch, ok, reason] rows to PATH")
    ap.add_argument("--doc", action="store_true",
                    help="rewrite docs/compatibility.md's table from devkit_known.json (runs nothing)")
    a = ap.parse_args(argv)
    src = os.environ.get("ASC_DEVKIT_SRC")
    if not src or not os.path.isdir(os.path.join(src, "examples")):
        print("set ASC_DEVKIT_SRC to an asc-devkit work tree", file=sys.stderr)
        return 2
    if a.doc:
        print(write_doc(src))
        return 0
    exs = [e for e in catalog(src) if (not a.arch or e.arch == a.arch) and a.filter in e.rel]
    with tempfile.TemporaryDirectory(prefix="arc-devkit-") as work:
        def one(ex):
            r = run(src, ex, work, a.timeout)
            why = "" if r["ok"] else reason(r["output"])
            er.progress_line(ex.rel, r["ok"], r["seconds"], why)
            return ex, r["ok"], why, r["seconds"]
        rows = er.run_all(exs, one)
    for line in er.known_drift([(ex.rel, ok) for ex, ok, _, _ in rows], KNOWN):
        print(line, file=sys.stderr)
    if a.update_known:
        update_known([(ex.rel, ok, why) for ex, ok, why, _ in rows])
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump([[ex.rel, ex.arch, ok, why] for ex, ok, why, _ in rows], f, indent=0, ensure_ascii=False)
    npass = sum(1 for r in rows if r[1])
    if a.table:
        print(f"| example | arch | result |\n|---|---|---|")
        for ex, ok, why, _ in rows:
            print(f"| {ex.rel} | {ex.arch} | {'pass' if ok else er.cell(why)} |")
    print(f"{npass} of {len(rows)} pass", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
