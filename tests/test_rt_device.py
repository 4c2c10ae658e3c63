"""aclInit/aclFinalize, the simulated device and its SoC description
(csrc/rt/README.md, csrc/rt/acl/soc.c)."""
import ctypes

from helpers.rt import (INVALID_FILE, INVALID_PARAM, REPEAT_INITIALIZE, RT_FEATURE_NOT_SUPPORT, RT_INVALID_DEVICEID,
                        fails, lib, ok)


def test_init_twice_reports_repeat_and_finalize_allows_init_again():
    L = lib()
    assert L.aclInit(None) in (0, REPEAT_INITIALIZE)
    fails(L.aclInit(None), REPEAT_INITIALIZE, "already initialised")
    ok(L.aclFinalize())
    ok(L.aclInit(None))
    ok(L.aclFinalize())


def test_init_with_a_missing_config_file(tmp_path):
    fails(lib().aclInit(str(tmp_path / "nope.json").encode()), INVALID_FILE, "nope.json")
    cfg = tmp_path / "acl.json"
    cfg.write_text("{}")
    assert lib().aclInit(str(cfg).encode()) in (0, REPEAT_INITIALIZE)


def test_one_device():
    L = lib()
    ok(L.aclrtSetDevice(0))
    n, dev = ctypes.c_uint32(), ctypes.c_int32(-1)
    ok(L.aclrtGetDeviceCount(ctypes.byref(n)))
    ok(L.aclrtGetDevice(ctypes.byref(dev)))
    assert n.value == 1 and dev.value == 0
    fails(L.aclrtSetDevice(1), RT_INVALID_DEVICEID, "device id 1", "id 0")
    fails(L.aclrtSetDevice(-3), RT_INVALID_DEVICEID, "device id -3")
    fails(L.aclrtResetDevice(2), RT_INVALID_DEVICEID, "device id 2")
    fails(L.aclrtGetDeviceCount(None), INVALID_PARAM, "count is NULL")
    fails(L.aclrtGetDevice(None), INVALID_PARAM, "deviceId is NULL")
    ok(L.aclrtSynchronizeDevice())
    ok(L.aclrtResetDevice(0))


def test_soc_and_device_info_of_dav_2201():
    L = lib()
    assert L.aclrtGetSocName() == b"Ascend910B1"
    v = ctypes.c_int64()
    expect = {101: 24, 102: 24, 201: 48, 601: 2201, 204: 0, 301: 64 << 30}
    for attr, val in expect.items():
        ok(L.aclrtGetDeviceInfo(0, attr, ctypes.byref(v)))
        assert v.value == val, attr
    fails(L.aclrtGetDeviceInfo(0, 202, ctypes.byref(v)), RT_FEATURE_NOT_SUPPORT, "SIMT", "dav-3510")
    fails(L.aclrtGetDeviceInfo(0, 7, ctypes.byref(v)), INVALID_PARAM, "unknown attribute 7")
    fails(L.aclrtGetDeviceInfo(1, 101, ctypes.byref(v)), RT_INVALID_DEVICEID, "device id 1")
    fails(L.aclrtGetDeviceInfo(0, 101, None), INVALID_PARAM, "value is NULL")


def test_recent_error_is_per_thread():
    import threading
    L = lib()
    fails(L.aclrtSetDevice(5), RT_INVALID_DEVICEID, "device id 5")
    seen = []
    t = threading.Thread(target=lambda: seen.append(L.aclGetRecentErrMsg()))
    t.start()
    t.join()
    assert seen == [b""]


def test_dav_3510_device_by_environment():
    # The device's SoC is chosen per process (ASCENDRTC_SIM_SOC).
    import os
    import subprocess
    import sys
    code = ("import ctypes, sys; sys.path.insert(0, %r)\n"
            "from helpers.rt import lib, ok\n"
            "L = lib(); v = ctypes.c_int64(); out = [L.aclrtGetSocName().decode()]\n"
            "for a in (101, 201, 204, 202, 601):\n"
            "    ok(L.aclrtGetDeviceInfo(0, a, ctypes.byref(v))); out.append(v.value)\n"
            "print(out)\n") % os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, ASCENDRTC_SIM_SOC="Ascend950PR")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['Ascend950PR', 32, 64, 262144, 32, 3510]"


def test_fork_child_gets_an_error_not_a_hang():
    # Worker threads do not survive fork(): the child must be refused cleanly.
    import os
    import subprocess
    import sys
    code = ("import ctypes, os, sys, warnings; sys.path.insert(0, %r)\n"
            "warnings.simplefilter('ignore')\n"
            "from helpers.rt import lib, ok, err\n"
            "L = lib(); s = ctypes.c_void_p(); ok(L.aclrtCreateStream(ctypes.byref(s)))\n"
            "pid = os.fork()\n"
            "if pid == 0:\n"
            "    p = ctypes.c_void_p(); rc = L.aclrtMalloc(ctypes.byref(p), 64, 0)\n"
            "    os._exit(0 if rc == 507000 and 'fork' in err() else 1)\n"
            "_, st = os.waitpid(pid, 0)\n"
            "ok(L.aclrtSynchronizeStream(s))\n"
            "print('child', os.waitstatus_to_exitcode(st))\n") % os.path.dirname(os.path.abspath(__file__))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "child 0"
