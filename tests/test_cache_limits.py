"""Bounded inputs and full disks: a cache file system out of inodes
compiles uncached with one warning; ``Binary.from_file`` reads regular
files of at most ``_C.MAX_BINARY_BYTES`` only; a by-value struct argument
over the limit says the limit and what to do instead."""
import os
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import _C
from helpers.acl import ROOT, SEED_KERNEL

OPTS = ["--npu-arch=dav-2201"]

_FULL_CHILD = r"""
import errno, logging, os, sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
logging.basicConfig(level=logging.WARNING, format="WARN %(message)s")
import numpy as np, ascendrtc as arc
from ascendrtc import cache as C
from helpers.acl import SEED_KERNEL
C.get_cache().ensure()
fill = os.path.join(sys.argv[2], "fill")
os.mkdir(fill)
for i in range(100000):                       # use up every inode of the file system
    try:
        open(os.path.join(fill, str(i)), "w").close()
    except OSError as e:
        assert e.errno == errno.ENOSPC, e
        break
out = []
for n in (256, 512):
    r = C.compile(arc.Program(SEED_KERNEL.replace("8 * 32;", f"{n};"), "add_custom.asc"), ["--npu-arch=dav-2201"])
    x = np.arange(n, dtype=np.float32); z = arc.zeros_like(x)
    r.binary.load().get_kernel("add_custom")[8](x, x, z)
    out.append(f"{r.how}:{np.array_equal(z.get(), 2 * x)}")
print(" ".join(out))
"""


def test_no_free_inodes_compiles_uncached_with_one_warning(tmp_path):
    """A tmpfs with a handful of inodes, mounted in a private mount namespace."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare (util-linux) is not installed")
    mnt = tmp_path / "small"
    mnt.mkdir()
    unshare = ["unshare", "-m"] if os.geteuid() == 0 else ["unshare", "-rm"]
    script = 'mount -t tmpfs -o size=64m,nr_inodes=32 tmpfs "$1" || exit 77; exec "$2" -c "$3" "$4" "$1"'
    p = subprocess.run([*unshare, "sh", "-c", script, "sh", str(mnt), sys.executable, _FULL_CHILD, ROOT],
                       capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, ASCENDRTC_CACHE_DIR=str(mnt / "cache")))
    if p.returncode == 77 or "unshare failed" in p.stderr:
        pytest.skip(f"cannot mount a tmpfs in a private namespace here: {p.stderr[-300:]}")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["compiled-uncached:True", "compiled-uncached:True"]
    warnings = [ln for ln in p.stderr.splitlines() if ln.startswith("WARN")]
    assert len(warnings) == 1 and "compiling without the disk cache" in warnings[0], p.stderr


@pytest.fixture
def saved(tmp_path):
    path = tmp_path / "add.bin"
    arc.Program(SEED_KERNEL, "add_custom.asc").compile(OPTS).save(path)
    return path


def test_from_file_refuses_devices_fifos_and_huge_files(tmp_path, saved):
    with pytest.raises(ValueError, match="not a regular file"):
        arc.Binary.from_file("/dev/zero")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = []
    t = threading.Thread(target=lambda: done.append(pytest.raises(ValueError, arc.Binary.from_file, fifo)))
    t.start()
    t.join(10)
    assert done and "not a regular file" in str(done[0].value)      # answered, not blocked
    huge = tmp_path / "huge.bin"
    with open(huge, "wb") as f:                                        # sparse: no disk used
        f.truncate(_C.MAX_BINARY_BYTES + 1)
    with pytest.raises(ValueError, match=f"larger than the {_C.MAX_BINARY_BYTES} bytes"):
        arc.Binary.from_file(huge)
    assert _C.MAX_BINARY_BYTES == 1 << 30
    b = arc.Binary.from_file(saved)                                   # and a good file still loads
    x = np.arange(256, dtype=np.float32)
    z = arc.zeros_like(x)
    b.load().get_kernel("add_custom")[8](x, x, z)
    assert np.array_equal(z.get(), x + x)


BIG_STRUCT = r"""
#include "kernel_operator.h"
struct Big { uint8_t data[1 << 20]; uint64_t n; };
extern "C" __global__ __aicore__ void bigs(GM_ADDR z, Big b)
{
    ((__gm__ uint64_t *)z)[0] = b.n;
}
"""


def test_struct_argument_over_the_limit_says_the_limit_and_what_to_do(saved):
    mod = arc.Program(BIG_STRUCT, "bigs.asc").compile(OPTS).load()
    with pytest.raises(ValueError) as e:
        mod.get_kernel("bigs")
    msg = str(e.value)
    assert "kernel bigs: parameter 1 (b, Big) is 1048584 bytes" in msg
    assert f"{_C.MAX_PARAM_BYTES} bytes" in msg and "GM buffer" in msg and "GM_ADDR b" in msg
    b = arc.Binary.from_file(saved)                                    # a good launch after
    x = np.arange(256, dtype=np.float32)
    z = arc.zeros_like(x)
    b.load().get_kernel("add_custom")[8](x, x, z)
    assert np.array_equal(z.get(), x + x)


def test_include_directory_with_too_many_headers_compiles_uncached(tmp_path, monkeypatch, caplog):
    # `ascendrtc cc` of a file in a directory like /tmp adds it as -I: the key
    # would hash every header under it; over the bound, the compile goes on
    # uncached with one warning instead of failing
    from ascendrtc import _cache_key, cache as C
    monkeypatch.setattr(_cache_key, "_MAX_INCLUDE_FILES", 3)
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "cache"))
    inc = tmp_path / "inc"
    inc.mkdir()
    for i in range(5):
        (inc / f"h{i}.h").write_text(f"#define H{i} {i}\n")
    prog = arc.Program(SEED_KERNEL, "add_custom.asc")
    with caplog.at_level("WARNING", logger="ascendrtc.cache"):
        r1 = C.compile(prog, OPTS + ["-I" + str(inc)])
        r2 = C.compile(prog, OPTS + ["-I" + str(inc)])
    assert r1.how == r2.how == "compiled-uncached" and r1.key is None
    said = [m for m in caplog.messages if "compiling without the disk cache" in m]
    assert len(said) == 1 and f"-I {inc}: more than 3 header files under it" in said[0], caplog.messages
    x = np.arange(256, dtype=np.float32)
    z = arc.zeros_like(x)
    r1.binary.load().get_kernel("add_custom")[8](x, x, z)
    assert np.array_equal(z.get(), 2 * x)
