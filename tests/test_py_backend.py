"""The backend seam: the `cann` backend path against the sim's CANN-shaped
home, missing libraries named, the backend fixed once loaded, and the CLI."""
import os
import subprocess
import sys

import pytest

import ascendrtc as arc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

ADD_SCRIPT = r'''
import sys, numpy as np
sys.path.insert(0, {tests!r})
import ascendrtc as arc
from helpers.py_kernels import add_source
{pre}
k = arc.Program(add_source(np.float32), "add.asc").compile().load().get_kernel("add_custom")
x = np.arange(256, dtype=np.float32)
z = arc.empty_like(x)
k[8](x, x, z)
assert (z.get() == 2 * x).all()
print("backend", arc.get_backend()["backend"], arc.get_backend()["home"])
'''


def run(code, **env):
    e = dict(os.environ)
    e.update(env)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=e, capture_output=True, text=True,
                          timeout=120)


def script(pre=""):
    return ADD_SCRIPT.format(tests=os.path.join(ROOT, "tests"), pre=pre)


def test_cann_backend_via_env():
    home = arc.sim_home()
    r = run(script(), ASCENDRTC_BACKEND="cann", ASCEND_HOME_PATH=home)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["backend", "cann", home]


def test_cann_backend_via_set_backend():
    home = arc.sim_home()
    r = run(script("arc.set_backend('cann')"), ASCEND_HOME_PATH=home, ASCENDRTC_BACKEND="sim")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["backend", "cann", home]


def test_cann_without_home_path_names_it():
    env = {"ASCENDRTC_BACKEND": "cann", "ASCEND_HOME_PATH": ""}
    r = run("import ascendrtc as arc\narc.device_info()", **env)
    assert r.returncode != 0 and "ASCEND_HOME_PATH" in r.stderr


def test_missing_library_is_named(tmp_path):
    r = run("import ascendrtc as arc\narc.empty(4)", ASCENDRTC_SIM_HOME=str(tmp_path))
    assert r.returncode != 0
    assert "AclError" in r.stderr and "libascendcl.so" in r.stderr and str(tmp_path) in r.stderr


def test_missing_symbol_is_named(tmp_path):
    # A backend whose libascendcl lacks the ACL entry points.
    lib64 = tmp_path / "lib64"
    lib64.mkdir()
    src = tmp_path / "empty.c"
    src.write_text("int not_acl(void) { return 0; }\n")
    for name in ("libascendcl.so", "libacl_rtc.so"):
        subprocess.run(["cc", "-shared", "-fPIC", "-o", str(lib64 / name), str(src)], check=True)
    r = run("import ascendrtc as arc\narc.empty(4)", ASCENDRTC_SIM_HOME=str(tmp_path))
    assert r.returncode != 0
    assert "libascendcl.so" in r.stderr and "has no symbol 'aclInit'" in r.stderr


def test_backend_fixed_once_loaded():
    arc.empty(1)                                     # loads the backend
    with pytest.raises(RuntimeError, match="already in use"):
        arc.set_backend("cann", home="/nonexistent")
    arc.set_backend(arc.get_backend()["backend"], home=arc.get_backend()["home"])   # same: fine
    with pytest.raises(ValueError, match="unknown backend"):
        arc.set_backend("cuda")


def test_cli_home():
    r = subprocess.run([sys.executable, "-m", "ascendrtc", "home"], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    home = r.stdout.strip()
    assert home == arc.sim_home()
    assert os.path.isfile(os.path.join(home, "set_env.sh"))
    assert os.path.isfile(os.path.join(home, "lib64", "libascendcl.so"))


def test_error_classes():
    assert issubclass(arc.CompileError, arc.AclError) and issubclass(arc.LaunchError, arc.AclError)
    assert issubclass(arc.AclError, RuntimeError)
    assert arc._C.error_name(507015) == "ACL_ERROR_RT_AICORE_EXCEPTION"


def test_extension_does_not_link_libascendcl():
    import shutil
    if not shutil.which("readelf"):
        pytest.skip("readelf not installed")
    out = subprocess.run(["readelf", "-d", arc._C.__file__], capture_output=True, text=True, check=True).stdout
    needed = [ln for ln in out.splitlines() if "(NEEDED)" in ln]
    assert needed and not any("ascendcl" in ln or "acl_rtc" in ln for ln in needed), needed


def test_rtc_errors_reach_aclGetRecentErrMsg_after_ext_loads_backend():
    # _C loads the backend first; libacl_rtc must still report through
    # libascendcl's aclGetRecentErrMsg (it binds to it at load time).
    code = r'''
import ctypes, os
import ascendrtc as arc
arc.empty(1)
lib = os.path.join(arc.get_backend()["home"], "lib64")
rtc = ctypes.CDLL(os.path.join(lib, "libacl_rtc.so"))
rt = ctypes.CDLL(os.path.join(lib, "libascendcl.so"))
rt.aclGetRecentErrMsg.restype = ctypes.c_char_p
rtc.aclrtcCompileProg.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]
print(rtc.aclrtcCompileProg(None, 0, None), rt.aclGetRecentErrMsg().decode())
'''
    r = run(code)
    assert r.returncode == 0, r.stderr
    rc, msg = r.stdout.split(" ", 1)
    assert rc == "176000" and "aclrtcCompileProg" in msg, r.stdout
