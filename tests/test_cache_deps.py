"""The disk cache keys on what the compiler actually read: its own list of
files (every #include however spelled, every #embed, every file a
__has_include found), recorded in the entry with the hash of the bytes
compiled and re-checked on each hit; and on the paths it looked for in vain
(a false __has_include, include directories searched first), which must
still be absent.  Each case below reaches a header in
a way a lexical #include scan does not see; changing the header must make
the next compile see the change (and run it), and an unchanged header must
still hit."""
import os

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import cache as C

OPTS = ["--npu-arch=dav-2201"]

KERNEL = """#include "kernel_operator.h"
{include}
extern "C" __global__ __aicore__ void val(GM_ADDR out)
{{
    AscendC::GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 1);
    o.SetValue(0, {value});
}}
"""


@pytest.fixture
def cdir(tmp_path, monkeypatch):
    d = tmp_path / "cache"
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(d))
    monkeypatch.delenv("ASCENDRTC_CACHE", raising=False)
    return d


def run(src, opts=OPTS):
    """(how the cache served it, the value the kernel writes, the result)."""
    r = C.compile(arc.Program(src, "val.asc"), opts)
    out = np.zeros(1, np.int32)
    r.binary.load().get_kernel("val")[1](out)
    return r.how, int(out[0]), r


def write(path, text):
    # Same size each time, written within the same second: only the content
    # (not the size, not a coarse mtime) tells the versions apart.
    with open(path, "w") as f:
        f.write(text)


def header(tmp_path):
    return str(tmp_path / "hdr" / "val.h")


def _case(tmp_path, kind):
    """(kernel source, options, the file whose content sets the value, its text for a value)."""
    os.makedirs(tmp_path / "hdr" / "inc", exist_ok=True)
    h = header(tmp_path)
    as_define = lambda v: f"#define VALUE {v}\n"  # noqa: E731
    if kind == "macro":
        inc = f'#define P "{h}"\n#include P'
    elif kind == "comment":
        inc = f'#include /* a comment */ "{h}"'
    elif kind == "digraph":
        inc = f'%:include "{h}"'
    elif kind == "continuation":
        inc = f'#include \\\n "{h}"'
    elif kind == "dotdot":
        inc = '#include "../val.h"'
        return KERNEL.format(include=inc, value="VALUE"), OPTS + ["-I", str(tmp_path / "hdr" / "inc")], h, as_define
    elif kind == "embed":
        data = str(tmp_path / "hdr" / "value.bin")
        inc = 'static const unsigned char kData[] = {\n#embed "%s"\n};' % data
        return KERNEL.format(include=inc, value="kData[0]"), OPTS, data, lambda v: chr(v)
    else:
        raise AssertionError(kind)
    return KERNEL.format(include=inc, value="VALUE"), OPTS, h, as_define


@pytest.mark.parametrize("kind", ["macro", "comment", "digraph", "continuation", "dotdot", "embed"])
def test_a_changed_header_is_seen_however_it_was_reached(cdir, tmp_path, kind):
    src, opts, path, text = _case(tmp_path, kind)
    write(path, text(3))
    how, v, r = run(src, opts)
    assert (how, v) == ("compiled", 3)
    assert os.path.realpath(path) in {os.path.realpath(p) for p in r.binary.dependencies}
    assert run(src, opts)[:2] == ("disk", 3)                  # unchanged: a hit
    write(path, text(5))
    how, v, r = run(src, opts)
    assert (how, v) == ("compiled", 5), r.reason              # not the stale binary
    assert "changed" in r.reason and os.path.basename(path) in r.reason
    assert run(src, opts)[:2] == ("disk", 5)


def test_a_vanished_dependency_is_a_miss(cdir, tmp_path):
    h = header(tmp_path)
    os.makedirs(os.path.dirname(h))
    write(h, "#define VALUE 4\n")
    src = KERNEL.format(include=f'#define P "{h}"\n#if __has_include(P)\n#include P\n#else\n#define VALUE 9\n#endif',
                        value="VALUE")
    assert run(src)[:2] == ("compiled", 4)
    assert run(src)[:2] == ("disk", 4)
    os.unlink(h)
    how, v, r = run(src)
    assert (how, v) == ("compiled", 9) and "gone" in r.reason
    assert run(src)[:2] == ("disk", 9)


def test_the_entry_records_the_dependencies_and_no_virtual_files(cdir, tmp_path):
    h = header(tmp_path)
    os.makedirs(os.path.dirname(h))
    write(h, "#define VALUE 1\n")
    src = KERNEL.format(include=f'#include "{h}"', value="VALUE")
    r = C.compile(arc.Program(src, "val.asc", headers={"mem.h": "#define M 1\n"}), OPTS)
    deps = r.binary.dependencies
    assert list(deps) == [h]                                  # not the device headers, source or mem.h
    import hashlib
    with open(h, "rb") as f:
        assert deps[h] == hashlib.sha256(f.read()).hexdigest()
    # the stored entry carries them, and a hit hands them back
    assert C.compile(arc.Program(src, "val.asc", headers={"mem.h": "#define M 1\n"}), OPTS).binary.dependencies == deps


def test_an_uncached_compile_lists_its_dependencies_too(tmp_path):
    h = header(tmp_path)
    os.makedirs(os.path.dirname(h))
    write(h, "#define VALUE 1\n")
    b = arc.Program(KERNEL.format(include=f'%:include "{h}"', value="VALUE"), "val.asc").compile(OPTS)
    assert list(b.dependencies) == [h]
    assert arc.Binary.from_bytes(b.data).dependencies is None


@pytest.mark.parametrize("spelling", ["quoted", "angled", "macro"])
def test_a_header_that_appears_where_has_include_looked_is_a_miss(cdir, tmp_path, spelling):
    # __has_include was false at the first compile: creating the file must
    # not hand back the binary compiled without it.  (A path outside every
    # -I directory: the key itself covers the headers under those.)
    h = str(tmp_path / "hdr" / "extra.h")
    os.makedirs(os.path.dirname(h))
    test = {"quoted": f'"{h}"', "angled": f"<{h}>", "macro": "P"}[spelling]
    src = KERNEL.format(include=f'#define P "{h}"\n#if __has_include({test})\n#include P\n#else\n#define VALUE 9\n'
                                f'#endif', value="VALUE")
    how, v, r = run(src)
    assert (how, v) == ("compiled", 9)
    assert r.binary.dependencies.get(h) == "absent", r.binary.dependencies
    assert run(src)[:2] == ("disk", 9)                        # still absent: a hit
    write(h, "#define VALUE 6\n")
    how, v, r = run(src)
    assert (how, v) == ("compiled", 6), r.reason              # not the stale binary
    assert "exists now" in r.reason and "extra.h" in r.reason
    assert run(src)[:2] == ("disk", 6)


def test_a_file_that_appears_earlier_on_the_search_path_is_a_miss(cdir, tmp_path):
    # #include "v.cfg" with -I first -I second reads second/v.cfg; one
    # created in first/ is what the compiler reads from then on.  (.cfg is
    # no header extension, so the key's scan of -I directories skips it.)
    first, second = tmp_path / "first", tmp_path / "second"
    os.makedirs(first)
    os.makedirs(second)
    write(str(second / "v.cfg"), "#define VALUE 2\n")
    src = KERNEL.format(include='#include "v.cfg"', value="VALUE")
    opts = OPTS + ["-I", str(first), "-I", str(second)]
    assert run(src, opts)[:2] == ("compiled", 2)
    assert run(src, opts)[:2] == ("disk", 2)
    write(str(first / "v.cfg"), "#define VALUE 8\n")
    how, v, r = run(src, opts)
    assert (how, v) == ("compiled", 8), r.reason
    assert "exists now" in r.reason and "v.cfg" in r.reason
    assert run(src, opts)[:2] == ("disk", 8)
