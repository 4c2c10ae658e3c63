"""Every code block in README.md and docs/*.md runs: ```python blocks in
order in one namespace per page, ```sh blocks with bash (the `ascendrtc`
command on PATH), each in a fresh temp dir per page.  A block is skipped only
when an HTML comment right above it says why (`<!-- not run: reason -->`) or
names what it needs (`<!-- requires: torch -->`; `$VAR`: an environment
variable, e.g. a mirror's).  docs/api.md is generated
from the docstrings and must be up to date."""
import glob
import importlib.util
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PAGES = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
FENCE = re.compile(r"(?:<!--\s*(?P<note>[^>]*?)\s*-->\s*\n)?^```(?P<lang>[\w-]*)[^\n]*\n(?P<code>.*?)^```\s*$",
                   re.M | re.S)
RUN = {"python", "sh", "bash"}
SHOWN = {"text", "console-output", ""}   # layouts and outputs: not code


def blocks(path):
    with open(path) as f:
        text = f.read()
    out = []
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start("code")) + 1
        out.append((m["lang"], m["code"], (m["note"] or "").strip(), line))
    return out


def page_id(path):
    return os.path.relpath(path, ROOT)


def test_every_block_is_runnable_or_says_why_not():
    for path in PAGES:
        for lang, code, note, line in blocks(path):
            where = f"{page_id(path)}:{line}"
            if lang in SHOWN:
                assert not re.search(r"^(import |from |\$ )", code, re.M), f"{where}: code in a ```{lang} block"
                continue
            assert lang in RUN or note.startswith("not run:"), f"{where}: ```{lang} block is neither run nor excused"
            if note.startswith("not run:"):
                assert len(note) > len("not run:") + 5, f"{where}: say why the block is not run"


def _shim(tmp_path):
    """A bin dir with `ascendrtc` and `python` running this interpreter on this checkout."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "ascendrtc").write_text(f'#!/bin/sh\nexec "{sys.executable}" -m ascendrtc "$@"\n')
    (bindir / "python").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    for f in bindir.iterdir():
        f.chmod(0o755)
    return str(bindir)


@pytest.mark.parametrize("path", PAGES, ids=page_id)
def test_page_code_runs(path, tmp_path, monkeypatch):
    todo = []
    for lang, code, note, line in blocks(path):
        if lang not in RUN or note.startswith("not run:"):
            continue
        need = note[len("requires:"):].split() if note.startswith("requires:") else []
        missing = [m for m in need
                   if (not os.environ.get(m[1:]) if m.startswith("$") else importlib.util.find_spec(m) is None)]
        todo.append((lang, code, line, missing))
    if not todo:
        pytest.skip("no runnable blocks")
    monkeypatch.chdir(tmp_path)
    env = dict(os.environ, PATH=_shim(tmp_path) + os.pathsep + os.environ["PATH"],
               PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    namespace = {"__name__": "__docs__"}
    skipped = []
    for lang, code, line, missing in todo:
        where = f"{page_id(path)}:{line}"
        if missing:
            skipped.append(f"{where} needs {', '.join(missing)}")
            continue
        if lang == "python":
            exec(compile(code, where, "exec"), namespace)  # noqa: S102 - the docs' own examples
        else:
            r = subprocess.run(["bash", "-euo", "pipefail", "-c", code], cwd=tmp_path, env=env,
                               capture_output=True, text=True, timeout=300)
            assert r.returncode == 0, f"{where}: exit {r.returncode}\n{r.stdout}\n{r.stderr}"
    if skipped:
        print("skipped:", "; ".join(skipped))


def test_api_reference_is_generated_from_the_docstrings():
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "gen_api_docs.py"), "--check"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr


def test_readme_leads_with_the_quickstart_then_setup_then_links():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    first = blocks(os.path.join(ROOT, "README.md"))[0]
    assert first[0] == "python" and 15 <= len(first[1].splitlines()) <= 25
    i_quick, i_setup = text.index("```python"), text.index("make demo")
    i_links = text.index("docs/guide.md")
    assert i_quick < i_setup < i_links
    assert "make test" in text[i_setup:i_links]


def test_every_environment_variable_is_in_the_guide():
    """The guide's table lists every ASCENDRTC_* variable the code reads."""
    read = set()
    pat = re.compile(r'(?:getenv|environ\.get|_env_int)\(\s*"(ASCENDRTC_[A-Z0-9_]+)"')
    for path in glob.glob(os.path.join(ROOT, "csrc", "**", "*.*"), recursive=True) + \
            glob.glob(os.path.join(ROOT, "ascendrtc", "*.py")):
        with open(path, errors="replace") as f:
            read |= set(pat.findall(f.read()))
    assert {"ASCENDRTC_SPIN_US", "ASCENDRTC_CACHE", "ASCENDRTC_PERF_MAP"} <= read, read
    with open(os.path.join(ROOT, "docs", "guide.md")) as f:
        guide = f.read()
    table = guide[guide.index("## Profiling and environment variables"):]
    missing = sorted(v for v in read if "`%s`" % v not in table)
    assert not missing, missing


def test_comments_cite_only_documents_in_the_repository():
    # A comment that points at notes the repository lacks ("research notes
    # section 3.2", "cube.md section 9") leaves the next reader nowhere;
    # point at a document here or state the fact.  Tests' own docs are
    # scanned too; the .md files tests create in temp dirs are not citations.
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    have = {os.path.basename(f) for f in files if f.endswith(".md")}
    bad = []
    for f in files:
        if not f.endswith((".c", ".h", ".cpp", ".hpp", ".py", ".md", ".sh")) or f.startswith("tests/test_"):
            continue
        with open(os.path.join(ROOT, f), errors="replace") as fh:
            text = fh.read()
        for m in re.finditer(r"[\w./-]*?(\w+\.md)\b|research notes|shared/research", text):
            if m.group(1) is None or m.group(1) not in have:
                bad.append(f"{f}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    for f in files:   # tests' docstrings and comments: the same rule, test-made files aside
        if f.startswith("tests/test_") and f.endswith(".py") and f != "tests/test_docs.py":
            with open(os.path.join(ROOT, f)) as fh:
                text = fh.read()
            for m in re.finditer(r"research notes|shared/research|\b(?:aclrtc_api|ascendc_api|cube|pipes_and_races|"
                                 r"cost_model|llvm_inprocess|style_anchors|peers|DESIGN)\.md", text):
                bad.append(f"{f}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}")
    assert not bad, "citations of documents not in the repository:\n" + "\n".join(bad)
