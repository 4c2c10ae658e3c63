"""The cache key: every input of a compile changes it, nothing else does,
and a changed input is named in the explanation.  Uses fixed fingerprint
text, so no compiler is needed (except the last test)."""
import os

import pytest

import ascendrtc
from ascendrtc import _cache_key as ck

SRC = '#include "kernel_operator.h"\n#include "mine.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'
FP = "ascendrtc-rtc/1 clang 19.1.7 cpu=x86-64-v3 core-abi=1 device-api=00000000000000aa"


def key(source=SRC, options=("--npu-arch=dav-2201",), headers=None, name="k.asc", exprs=(), fp=FP, backend="sim"):
    return ck.compute_key(source, list(options), name=name, headers=headers or {"mine.h": "#define A 1\n"},
                          name_expressions=exprs, fingerprint_text=fp, backend=backend)


def test_key_is_deterministic():
    a, b = key(), key()
    assert a.digest == b.digest and len(a.digest) == 64
    assert a.components == b.components


@pytest.mark.parametrize("change, expect", [
    (dict(source=SRC + "// edit\n"), "the source changed"),
    (dict(options=("--npu-arch=dav-2201", "-O3")), "options changed"),
    (dict(options=("--npu-arch=dav-2201", "-DFOO=1")), "options changed"),
    (dict(options=("--npu-arch=dav-3510",)), "arch (--npu-arch) changed: dav-2201 -> dav-3510"),
    (dict(options=("--npu-soc=Ascend950PR",)), "arch (--npu-arch) changed: dav-2201 -> dav-3510"),
    (dict(headers={"mine.h": "#define A 2\n"}), "header 'mine.h' changed"),
    (dict(headers={"mine.h": "#define A 1\n", "other.h": ""}), "header 'other.h' added"),
    (dict(name="other.asc"), "program name changed"),
    (dict(exprs=("k<int>",)), "name_expressions changed"),
    (dict(fp=FP.replace("00aa", "00ab")), "device-API headers changed"),
    (dict(fp=FP.replace("19.1.7", "19.1.8")), "compiler changed"),
    (dict(backend="cann"), "backend changed"),
])
def test_every_input_changes_the_key_and_is_named(change, expect):
    base, changed = key(), key(**change)
    assert base.digest != changed.digest
    assert expect in ck.explain(base.components, changed.components)


def test_ascendrtc_version_is_in_the_key(monkeypatch):
    base = key()
    monkeypatch.setattr(ascendrtc, "__version__", "9.9.9")
    changed = key()
    assert base.digest != changed.digest
    assert "ascendrtc version changed" in ck.explain(base.components, changed.components)


def test_option_order_and_spelling_matter():
    # -D then -U differs from -U then -D: options are keyed as given.
    a = key(options=("-DX", "-UX"))
    b = key(options=("-UX", "-DX"))
    assert a.digest != b.digest


def test_include_dir_headers_are_hashed(tmp_path):
    inc = tmp_path / "inc"
    (inc / "sub").mkdir(parents=True)
    (inc / "mine.h").write_text("#define B 1\n")
    (inc / "sub" / "deep.hpp").write_text("// deep\n")
    (inc / "notes.txt").write_text("not a header")
    opts = ("--npu-arch=dav-2201", f"-I{inc}")
    base = key(options=opts, headers={})
    assert f"include:{inc}/mine.h" in base.components and f"include:{inc}/sub/deep.hpp" in base.components
    assert not any(k.endswith("notes.txt") for k in base.components)
    (inc / "notes.txt").write_text("changed, still not a header")
    assert key(options=opts, headers={}).digest == base.digest
    (inc / "sub" / "deep.hpp").write_text("// deep, edited\n")
    changed = key(options=opts, headers={})
    assert changed.digest != base.digest
    assert f"included file {inc}/sub/deep.hpp changed" in ck.explain(base.components, changed.components)
    # "-I dir" (two arguments) and relative paths resolve the same way.
    cwd = os.getcwd()
    try:
        os.chdir(tmp_path)
        rel = key(options=("--npu-arch=dav-2201", "-I", "inc"), headers={}).components
    finally:
        os.chdir(cwd)
    rel.pop("options")
    assert rel == {k: v for k, v in changed.components.items() if k != "options"}



def test_missing_include_dir_then_created(tmp_path):
    inc = tmp_path / "later"
    opts = ("--npu-arch=dav-2201", f"-I{inc}")
    before = key(options=opts, headers={})
    inc.mkdir()
    (inc / "mine.h").write_text("#define C 1\n")
    after = key(options=opts, headers={})
    assert before.digest != after.digest


def test_absolute_includes_are_hashed_transitively(tmp_path):
    a, b = tmp_path / "a.h", tmp_path / "b.h"
    b.write_text("#define B 1\n")
    a.write_text(f'#include "{b}"\n')
    src = f'#include "{a}"\n' + SRC
    base = key(source=src, headers={})
    b.write_text("#define B 2\n")
    changed = key(source=src, headers={})
    assert base.digest != changed.digest
    assert f"included file {b} changed" in ck.explain(base.components, changed.components)


def test_resolve_arch():
    assert ck.resolve_arch([]) == "dav-2201"
    assert ck.resolve_arch(["--npu-arch=dav-3510"]) == "dav-3510"
    assert ck.resolve_arch(["--npu-arch=dav-2201", "--npu-arch=dav-3510"]) == "dav-3510"
    assert ck.resolve_arch(["--npu-soc=Ascend910B3"]) == "dav-2201"
    assert ck.resolve_arch(["--npu-soc=Ascend950DT", "--npu-arch=dav-2201"]) == "dav-2201"


def test_fingerprint_of_the_sim_compiler():
    home = ascendrtc.sim_home()
    if not os.path.exists(os.path.join(home, "lib64", "libacl_rtc.so")):
        pytest.skip("simulated NPU home not built")
    fp = ck.fingerprint("sim", home)
    assert fp.startswith("ascendrtc-rtc/") and "clang" in fp and "device-api=" in fp and "core-abi=" in fp
    # ascendrtc's own compiler sources: a rebuilt compiler (new flags, passes)
    # never serves what the old one cached (it did until this was added)
    import re
    assert re.search(r" rtc=[0-9a-f]{16} ", fp), fp
    assert ck.fingerprint("sim", home) == fp
