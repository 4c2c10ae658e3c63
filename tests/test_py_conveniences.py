"""CuPy-like conveniences: Program.compile() through the disk cache (same
key rules as jit, an opt-out), `with stream:` as the current stream,
arc.benchmark (host times measured, device times estimated), and
prof.plot() labelling each launch."""
import os
import subprocess
import sys
import threading

import numpy as np
import pytest

import ascendrtc as arc
from ascendrtc import cache as C
from helpers.acl import ROOT, SEED_KERNEL

OPTS = ["--npu-arch=dav-2201"]


def prog(n=256):
    return arc.Program(SEED_KERNEL.replace("8 * 32;", f"{n};"), "add_custom.asc")


@pytest.fixture
def cdir(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ASCENDRTC_CACHE", raising=False)
    monkeypatch.delenv("ASCENDRTC_CACHE_REMOTE", raising=False)
    return tmp_path / "cache"


_CHILD = r"""
import sys
sys.path[:0] = [sys.argv[1], sys.argv[1] + "/tests"]
import numpy as np, ascendrtc as arc
from helpers.acl import SEED_KERNEL
b = arc.Program(SEED_KERNEL.replace("8 * 32;", "384;"), "add_custom.asc").compile(["--npu-arch=dav-2201"])
x = np.arange(384, dtype=np.float32); z = arc.zeros_like(x)
b.load().get_kernel("add_custom")[8](x, x, z)
print(b.cache_how, bool(np.array_equal(z.get(), 2 * x)))
"""


def test_program_compile_uses_the_disk_cache(cdir):
    b1 = prog().compile(OPTS)
    b2 = prog().compile(OPTS)
    assert (b1.cache_how, b2.cache_how) == ("compiled", "disk") and b1.data == b2.data
    assert len(C.get_cache().entries()) >= 1
    assert prog().compile(OPTS + ["-DX=1"]).cache_how == "compiled"     # another option: another key
    assert prog().compile(OPTS, cache=False).cache_how is None         # the opt-out compiles
    env = dict(os.environ)
    out = [subprocess.run([sys.executable, "-c", _CHILD, ROOT], capture_output=True, text=True, env=env,
                          timeout=300).stdout.split() for _ in range(2)]
    assert out == [["compiled", "True"], ["disk", "True"]]              # across processes too


def test_program_compile_cache_off(cdir, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_CACHE", "off")
    assert prog().compile(OPTS).cache_how == "compiled-uncached"
    assert not os.path.exists(cdir / "v1")


def test_program_compile_errors_are_not_cached(cdir):
    bad = arc.Program(SEED_KERNEL.replace("KernelAdd op;", "KernelAdd op; undeclared();"), "bad.asc")
    for _ in range(2):
        with pytest.raises(arc.CompileError, match="undeclared"):
            bad.compile(OPTS)


def test_with_stream_makes_it_current():
    k = prog().compile(OPTS).load().get_kernel("add_custom")
    x = np.arange(256, dtype=np.float32)
    s1, s2 = arc.Stream(), arc.Stream()
    assert arc.current_stream() is arc.default_stream()
    with s1 as entered:
        assert entered is s1 and arc.current_stream() is s1
        with s2:
            assert arc.current_stream() is s2
            seen = []
            t = threading.Thread(target=lambda: seen.append(arc.current_stream()))
            t.start()
            t.join()
            assert seen == [arc.default_stream()]                     # per thread, like CuPy
        assert arc.current_stream() is s1
        z = arc.zeros_like(x)
        ev = arc.Event()
        k[8](x, x, z)                                                  # queued on s1
        ev.record()                                                    # on s1 too
    assert arc.current_stream() is arc.default_stream()
    s1.synchronize()
    assert ev.query() and np.array_equal(z.get(), x + x)


def test_with_stream_launch_goes_to_that_stream():
    """A kernel that runs long on the entered stream: the default stream's
    synchronize does not wait for it, the entered stream's does."""
    k = prog().compile(OPTS).load().get_kernel("add_custom")
    x = np.arange(256, dtype=np.float32)
    s = arc.Stream()
    with s:
        z = arc.zeros_like(x)
        for _ in range(3):
            k[8](x, z, z)
    s.synchronize()
    assert np.array_equal(z.get(), 3 * x)


def test_benchmark_reports_host_and_estimated_device_times():
    k = prog().compile(OPTS).load().get_kernel("add_custom")
    x = np.arange(256, dtype=np.float32)
    dx, dz = arc.to_device(x), arc.zeros_like(x)

    def two_adds():
        k[8](dx, dx, dz)
        k[8](dz, dx, dz)
    r = arc.benchmark(two_adds, n_repeat=7, n_warmup=2, n_device=2)
    assert len(r.cpu_times) == 7 and (r.cpu_times > 0).all()
    assert len(r.device_times) == 2 and (r.device_times > 0).all() and r.launches == 2
    assert r.kernels == ("add_custom", "add_custom")
    with arc.profile() as prof:
        two_adds()
    assert r.device_times[0] == pytest.approx(prof.time_us * 1e-6)      # the cost model's estimate
    text = str(r)
    assert text.startswith("two_adds") and "CPU:" in text and "NPU (estimated):" in text
    with pytest.raises(ValueError, match="n_repeat"):
        arc.benchmark(two_adds, n_repeat=0)
    with pytest.raises(TypeError, match="callable"):
        arc.benchmark(5)


def test_plot_labels_each_launch():
    pytest.importorskip("matplotlib")
    import matplotlib
    matplotlib.use("Agg")
    k = prog().compile(OPTS).load().get_kernel("add_custom")
    x = np.arange(256, dtype=np.float32)
    z = arc.zeros_like(x)
    with arc.profile() as prof:
        for _ in range(3):
            k[8](x, x, z)
    fig = prof.plot()
    labels = [t.get_text() for t in fig.axes[0].texts]
    assert labels == ["#0 add_custom", "#1 add_custom", "#2 add_custom"]
