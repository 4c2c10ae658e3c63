"""CATLASS's examples (hicann/catlass), each built with `ascendrtc cc` as
CATLASS's CMake builds it and run with its README's small shape
(tools/catlass_examples.py), on the simulated NPU: one test per example,
skipped without the mirror ($CATLASS_SRC, a CATLASS work tree).

Each example is a heavy template instantiation (a build takes 10-60 s on
two shared cores), so by default only two examples
run (basic matmul, matmul with bias); ASCENDRTC_CATLASS_EXAMPLES=all runs every Atlas A2 example (about
half an hour).  Examples known not to pass are listed with their reason in
tools/catlass_examples.py's KNOWN and docs/compatibility.md; such a test
is an expected failure (strict: one that starts passing must leave the
list).  Ascend 950 examples are refused with a clear error at build time
(the last test; tests/test_catlass_arch.py checks that error's forms)."""
import os

import pytest

from helpers.examples import example_params, load_tool

ce = load_tool("catlass_examples")
SRC = os.environ.get("CATLASS_SRC")
EXAMPLES = ce.catalog(SRC) if SRC and os.path.isdir(os.path.join(SRC, "examples")) else []
A2 = [e for e in EXAMPLES if e.arch == 2201]
PARAMS = example_params(A2, lambda e: e.name, ce.KNOWN, {"00_basic_matmul", "20_matmul_bias"},
                        "ASCENDRTC_CATLASS_EXAMPLES", "two examples run", "set CATLASS_SRC to a CATLASS work tree")


@pytest.mark.parametrize("ex", PARAMS)
def test_example(ex, tmp_path):
    r = ce.run(SRC, ex, str(tmp_path), timeout=900)
    assert r["ok"], f"{ex.name}: expected {ce.PASS_LINE!r}; {ce.reason(r)}\n{r['output'][-3000:]}"


# The int4 examples free their workspace before synchronizing (a use after
# free the simulator reports, KNOWN); a copy that synchronizes first must
# pass: CATLASS's int4 paths at library scale (tests/test_cube_int4.py has
# the unit checks).  The w4a4 one runs by default.
SYNCED = example_params([e for e in A2 if e.name in ce.FREE_BEFORE_SYNC], lambda e: e.name, {},
                        {"38_w4a4_matmul_per_token_per_channel_dequant"}, "ASCENDRTC_CATLASS_EXAMPLES",
                        "one int4 example runs", "set CATLASS_SRC to a CATLASS work tree")


@pytest.mark.parametrize("ex", SYNCED)
def test_int4_example_with_its_free_after_the_synchronize(ex, tmp_path):
    r = ce.run(SRC, ex, str(tmp_path), timeout=900, synced=True)
    assert r["ok"], f"{ex.name} (synced copy): expected {ce.PASS_LINE!r}; {ce.reason(r)}\n{r['output'][-3000:]}"


@pytest.mark.skipif(not EXAMPLES, reason="set CATLASS_SRC to a CATLASS work tree")
def test_ascend950_example_is_refused_naming_the_reason(tmp_path):
    ex = next(e for e in EXAMPLES if e.name.startswith("43_ascend950_basic_matmul"))
    r = ce.build(SRC, ex, str(tmp_path))
    assert not r["ok"] and "CATLASS built for Ascend 950 (CATLASS_ARCH=3510)" in r["output"], r["output"][-2000:]
