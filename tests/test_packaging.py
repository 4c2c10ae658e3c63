"""Packaging: a wheel built from the source tree installs into a fresh
virtualenv and works there (extension, simulated NPU home, device headers,
the `ascendrtc` script); the version is written once; a build without LLVM
19 ends with one message naming the Debian packages."""
import fnmatch
import os
import re
import shutil
import subprocess
import sys
import textwrap

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGES = "llvm-19-dev libclang-cpp19-dev libclang-19-dev clang-19 libc++-19-dev"

SMOKE = textwrap.dedent(r'''
    import importlib.metadata, os, numpy as np, ascendrtc as arc
    assert "site-packages" in arc.__file__, arc.__file__
    assert importlib.metadata.version("ascendrtc") == arc.__version__
    home = arc.get_backend()["home"]
    assert home == os.path.join(os.path.dirname(arc.__file__), "_home"), home
    SRC = """
    #include "kernel_operator.h"
    extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
        constexpr int32_t N = 32;
        AscendC::GlobalTensor<float> xg, yg, zg;
        xg.SetGlobalBuffer((__gm__ float *)x + N * AscendC::GetBlockIdx(), N);
        yg.SetGlobalBuffer((__gm__ float *)y + N * AscendC::GetBlockIdx(), N);
        zg.SetGlobalBuffer((__gm__ float *)z + N * AscendC::GetBlockIdx(), N);
        AscendC::TPipe pipe;
        AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * N * sizeof(float));
        AscendC::LocalTensor<float> a = buf.Get<float>(), b = a[N], c = a[2 * N];
        AscendC::DataCopy(a, xg, N); AscendC::DataCopy(b, yg, N);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(c, a, b, N);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zg, c, N);
    }
    """
    add = arc.Program(SRC, "add.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("add")
    x, y = np.arange(256, dtype=np.float32), np.ones(256, np.float32)
    z = arc.empty_like(x)
    add[8](x, y, z)
    assert np.array_equal(z.get(), x + y)
    print("smoke ok", arc.__version__)
''')


def _copy_source(dst):
    """The source tree as a checkout has it: no build outputs."""
    skip = shutil.ignore_patterns("build", "_home", "*.so", "*.o", "__pycache__", ".git", "*.egg-info",
                                  ".pytest_cache", "dist", ".ipynb_checkpoints")
    shutil.copytree(ROOT, dst, ignore=skip)


def test_version_is_written_once():
    import ascendrtc
    from ascendrtc._version import __version__
    assert ascendrtc.__version__ == __version__
    with open(os.path.join(ROOT, "pyproject.toml")) as f:
        pyproject = f.read()
    assert 'dynamic = ["version"]' in pyproject and "ascendrtc._version.__version__" in pyproject
    assert __version__ not in pyproject


def test_missing_llvm_gives_one_message_naming_the_packages(tmp_path):
    src = tmp_path / "src"
    _copy_source(src)
    env = dict(os.environ, LLVM_CONFIG=str(tmp_path / "no-such-llvm-config-19"))
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                        "-w", str(tmp_path / "dist"), str(src)], capture_output=True, text=True, env=env,
                       timeout=300)
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert out.count(f"sudo apt-get install {PACKAGES}") == 1, out
    assert "no-such-llvm-config-19 was not found" in out


def _elf_runpaths(root):
    """{file: RUNPATH/RPATH entries} of every ELF file under ``root``."""
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            with open(p, "rb") as fh:
                if fh.read(4) != b"\x7fELF":
                    continue
            dyn = subprocess.run(["readelf", "-d", p], capture_output=True, text=True).stdout
            out[p] = [e for line in dyn.splitlines() if "PATH" in line
                      for e in line.split("[", 1)[1].rstrip("]").split(":")]
    return out


def _readme_wheel_glob():
    """The wheel the README's set-up installs (``pip install dist/<glob>``)."""
    with open(os.path.join(ROOT, "README.md")) as f:
        (glob,) = re.findall(r"^pip install (dist/\S+\.whl)\s*$", f.read(), re.M)
    return glob


def _makefile_recipe(target, word):
    """The line of ``make <target>``'s recipe that contains ``word``."""
    with open(os.path.join(ROOT, "Makefile")) as f:
        text = f.read()
    body = text.split("\n" + target + ":", 1)[1].split("\n\n", 1)[0]
    (line,) = [ln.strip() for ln in body.splitlines()[1:] if word in ln]
    return line


def test_readme_sets_up_with_make_and_installs_the_wheel_make_wheel_writes():
    """README: make demo / make test, and `pip install` of the wheel whose
    name make wheel's repair step writes (auditwheel: name-ver-py-abi-
    manylinux_X_Y_arch.whl into dist/)."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    assert re.search(r"^make demo\b", readme, re.M) and re.search(r"^make test\b", readme, re.M)
    assert re.search(r"^make wheel\b", readme, re.M)
    assert "-w dist " in _makefile_recipe("wheel", "auditwheel repair")
    from ascendrtc import __version__
    tag = sys.implementation.cache_tag.replace("python-", "cp").replace("cpython-", "cp")
    made = f"dist/ascendrtc-{__version__}-{tag}-{tag}-manylinux_2_36_x86_64.whl"
    assert fnmatch.fnmatch(made, _readme_wheel_glob()), (made, _readme_wheel_glob())


def test_make_wheel_names_a_library_auditwheel_cannot_find_and_stops(tmp_path):
    """make wheel's repair step, its Makefile line run as written, on a wheel
    whose extension needs a library that is nowhere: it fails naming it and
    writes no manylinux wheel (make stops at the failing line)."""
    if not (shutil.which("cc") and shutil.which("patchelf")):
        pytest.skip("needs cc and patchelf (tools/install_deps.sh)")
    line = _makefile_recipe("wheel", "auditwheel repair").replace("$(PYTHON)", sys.executable)
    src = tmp_path / "probe.c"
    src.write_text("int arc_probe(void) { return 1; }\n")
    ext = tmp_path / "_probe.cpython-311-x86_64-linux-gnu.so"
    subprocess.run(["cc", "-shared", "-fPIC", "-o", str(ext), str(src)], check=True, timeout=120)
    subprocess.run(["patchelf", "--add-needed", "libarc_nowhere.so.7", str(ext)], check=True, timeout=120)
    raw = tmp_path / "build" / "wheel-raw"
    raw.mkdir(parents=True)
    import zipfile
    info = "ascendrtc-0.0.1.dist-info"
    files = {"ascendrtc/_probe.cpython-311-x86_64-linux-gnu.so": ext.read_bytes(),
             f"{info}/METADATA": b"Metadata-Version: 2.1\nName: ascendrtc\nVersion: 0.0.1\n",
             f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\n"
                              b"Tag: cp311-cp311-linux_x86_64\n"}
    record = "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n"
    with zipfile.ZipFile(raw / "ascendrtc-0.0.1-cp311-cp311-linux_x86_64.whl", "w") as z:
        for n, data in files.items():
            z.writestr(n, data)
        z.writestr(f"{info}/RECORD", record)
    r = subprocess.run(line, shell=True, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert r.returncode != 0, r.stdout + r.stderr
    assert re.search(r'required library "libarc_nowhere.so.7" could not be located', r.stdout + r.stderr), \
        r.stdout + r.stderr
    assert not list(tmp_path.glob("dist/*manylinux*.whl"))   # nothing the README's pip install would take


def _readme_example():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    start = text.index("```python\n") + len("```python\n")
    return text[start:text.index("```", start)] + "\nprint('readme ok')\n"


@pytest.mark.skipif(not shutil.which("make"), reason="building the home needs make")
def test_wheel_installs_into_a_fresh_venv_and_runs(tmp_path):
    """Slow (one full build, ~2-8 min): pip wheel, auditwheel repair into a
    self-contained manylinux wheel, installed into a fresh venv; the smoke
    test, the command, every example from the unbuilt checkout, and the
    README example with the system's LLVM 19 hidden."""
    src, raw, dist, venv = tmp_path / "src", tmp_path / "raw", tmp_path / "dist", tmp_path / "venv"
    _copy_source(src)
    # --no-build-isolation: build with this interpreter's setuptools and numpy (no network).
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                        "-w", str(raw), str(src)], capture_output=True, text=True, timeout=1800)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    r = subprocess.run([sys.executable, "-m", "auditwheel", "repair", "-w", str(dist), *map(str, raw.glob("*.whl"))],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    wheels = list(dist.glob("ascendrtc-*.whl"))
    assert len(wheels) == 1 and "manylinux" in wheels[0].name, wheels
    assert fnmatch.fnmatch("dist/" + wheels[0].name, _readme_wheel_glob())   # what the README installs
    assert wheels[0].stat().st_size < 150 << 20
    unpacked = tmp_path / "unpacked"
    shutil.unpack_archive(str(wheels[0]), str(unpacked), "zip")
    paths = _elf_runpaths(unpacked)
    assert any("libLLVM" in os.path.basename(p) for p in paths) and any("clang-cpp" in p for p in paths)
    for p, entries in paths.items():     # no build-machine path: only $ORIGIN-relative ones
        assert all(e.startswith("$ORIGIN") for e in entries if e), (p, entries)
    # A fresh venv that sees this interpreter's numpy but not the source tree.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=300)
    py, script = venv / "bin" / "python", venv / "bin" / "ascendrtc"
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "--no-deps", "--no-index", str(wheels[0])],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "ASCENDRTC_SIM_HOME", "ASCENDRTC_BACKEND")}
    smoke = tmp_path / "smoke.py"
    smoke.write_text(SMOKE)
    r = subprocess.run([str(py), str(smoke)], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0 and "smoke ok" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([str(script), "info"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and "clang 19" in r.stdout, r.stdout + r.stderr
    r = subprocess.run([str(script), "home"], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0 and str(venv) in r.stdout
    assert os.path.isfile(os.path.join(r.stdout.strip(), "include", "acl", "acl_rt_compile.h"))
    # Each example, run from the unbuilt checkout after the install: the
    # installed package serves it, the source tree does not shadow it.
    for ex in sorted(src.glob("examples/**/*.py")):
        r = subprocess.run([str(py), str(ex)], cwd=src, capture_output=True, text=True, env=env, timeout=600)
        assert r.returncode == 0, f"{ex.relative_to(src)}: {r.stdout[-2000:]}{r.stderr[-3000:]}"
    # As a user without LLVM 19: hidden in a private mount namespace.
    if shutil.which("unshare") and subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0:
        readme = tmp_path / "readme.py"
        readme.write_text(_readme_example())
        r = subprocess.run(["unshare", "-m", "sh", "-c", HIDE_LLVM, "sh", str(py), str(readme)], cwd=tmp_path,
                           capture_output=True, text=True, env=env, timeout=300)
        assert r.returncode == 0 and "readme ok" in r.stdout, r.stdout + r.stderr
        # An op project too: its op_host code compiles with the wheel's own
        # clang headers and C++ library, with no system LLVM to fall back on.
        op = tmp_path / "op.py"
        op.write_text(OP_PROJECT.replace("PROJECT", str(src / "tests" / "op_projects" / "MinMax")))
        r = subprocess.run(["unshare", "-m", "sh", "-c", HIDE_LLVM, "sh", str(py), str(op)], cwd=tmp_path,
                           capture_output=True, text=True, env=dict(env, ASCENDRTC_CACHE="off"), timeout=600)
        assert r.returncode == 0 and "op ok" in r.stdout, r.stdout + r.stderr


OP_PROJECT = """
import numpy as np
import ascendrtc as arc
op = arc.op_project("PROJECT")
a = np.arange(2048, dtype=np.int32)
b = np.full(2048, 1000, np.int32)
lo, hi = op(a, b)
assert np.array_equal(lo, np.minimum(a, b)) and np.array_equal(hi, np.maximum(a, b))
assert op.tiling(a, b).fields == {"blockLength": 256, "cores": 8}
print("op ok")
"""


HIDE_LLVM = r'''
set -e
mount -t tmpfs none /usr/lib/llvm-19
for f in /usr/lib/x86_64-linux-gnu/libLLVM*.so* /usr/lib/x86_64-linux-gnu/libclang-cpp*.so*; do
    [ -e "$f" ] && mount --bind /dev/null "$f"
done
exec "$@"
'''


def test_import_without_llvm_names_the_packages_on_its_last_line(tmp_path):
    """The wheel links the system's LLVM 19 at run time; without it, `import
    ascendrtc` says which packages to install, as its last line."""
    if not shutil.which("unshare") or not os.path.isdir("/usr/lib/llvm-19"):
        pytest.skip("needs unshare and an LLVM 19 to hide")
    probe = subprocess.run(["unshare", "-m", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("unshare -m is not permitted here")
    env = dict(os.environ, PYTHONPATH=ROOT)
    r = subprocess.run(["unshare", "-m", "sh", "-c", HIDE_LLVM, "sh", sys.executable, "-c", "import ascendrtc"],
                       capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: ascendrtc's simulated NPU needs LLVM 19's shared libraries"), r.stderr
    assert "sudo apt-get install libllvm19 libclang-cpp19" in last
    ok = subprocess.run([sys.executable, "-c", "import ascendrtc"], env=env, capture_output=True, timeout=120)
    assert ok.returncode == 0, ok.stderr       # with LLVM visible: no complaint


HIDE_CLANG = r'''
set -e
mount -t tmpfs none /usr/lib/llvm-19/lib/clang
mount -t tmpfs none /usr/lib/llvm-19/bin
exec "$@"
'''

OP_SMOKE = r'''
import numpy as np, ascendrtc as arc
op = arc.op_project(%r)
x = np.arange(4096, dtype=np.float32)
assert np.array_equal(op(x, x), 2 * x)
print("op ok")
'''


def _op_project_with_hidden(tmp_path, hide, needed):
    """Runs the AddSplit op project in a private mount namespace where the
    shell snippet ``hide`` has mounted over some of the system's files."""
    if not shutil.which("unshare") or not os.path.isdir(needed):
        pytest.skip(f"needs unshare and {needed} to hide")
    if subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode != 0:
        pytest.skip("unshare -m is not permitted here")
    env = dict(os.environ, PYTHONPATH=ROOT, ASCENDRTC_CACHE="off")
    script = tmp_path / "op.py"
    script.write_text(OP_SMOKE % os.path.join(ROOT, "tests", "op_projects", "AddSplit"))
    return subprocess.run(["unshare", "-m", "sh", "-c", hide, "sh", sys.executable, str(script)],
                          capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)


def test_op_host_code_compiles_without_the_systems_clang(tmp_path):
    """Op host code is compiled in process (no clang++ is spawned) against
    clang's headers bundled beside libacl_rtc.so, as a wheel has them: with
    the system's clang binaries and resource headers hidden, an op project
    still compiles and runs.  (The wheel test above hides all of LLVM.)"""
    r = _op_project_with_hidden(tmp_path, HIDE_CLANG, "/usr/lib/llvm-19/lib/clang")
    assert r.returncode == 0 and "op ok" in r.stdout, r.stdout[-2000:] + r.stderr[-3000:]


def test_op_host_code_without_the_cxx_library_headers_says_what_to_install(tmp_path):
    """Op host code is C++ against the system's libstdc++ headers (the wheel
    bundles clang's own, not a C++ library): without them the error names
    the header and the package."""
    r = _op_project_with_hidden(tmp_path, "mount -t tmpfs none /usr/include/c++ && exec \"$@\"", "/usr/include/c++")
    assert r.returncode != 0
    assert re.search(r"OpProjectError: op AddSplit \(op_host/add_split.cpp\): \S+:\d+: includes <\w+>, a C or C\+\+ "
                     r"standard library header this machine lacks: .*sudo apt-get install g\+\+", r.stderr), r.stderr[-3000:]
