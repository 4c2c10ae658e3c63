"""Shared fixtures.  tests/helpers is importable as `helpers`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


import pytest  # noqa: E402

# tools/run_tests.sh (make test) sets ASCENDRTC_TEST_TRAIL: the suite keeps
# the id of the running test in that file and writes a crash's Python
# stacks to <file>.crash and its native frames to <file>.native (through
# tools/crash_backtrace.c, loaded before faulthandler, which chains to it),
# so a dead test process can be traced to its test.
_TRAIL = os.environ.get("ASCENDRTC_TEST_TRAIL")
if _TRAIL:
    import ctypes
    import faulthandler
    _native = os.path.join(os.path.dirname(_TRAIL), "crash_backtrace.so")
    if os.path.exists(_native):
        ctypes.CDLL(os.path.abspath(_native))
    os.environ.pop("ASCENDRTC_TEST_TRAIL")  # not for the processes tests start
    _crash_file = open(_TRAIL + ".crash", "w")
    faulthandler.enable(file=_crash_file, all_threads=True)

    def pytest_runtest_logstart(nodeid, location):
        with open(_TRAIL, "w") as f:
            f.write(nodeid + "\n")


@pytest.fixture(scope="session")
def sim_home():
    """The simulated CANN home under test: $ASCENDRTC_SIM_HOME, default
    ascendrtc/_home (built by `make home`)."""
    from helpers.acl import sim_home as home
    return home()


@pytest.fixture(scope="session", autouse=True)
def _private_compile_cache(tmp_path_factory):
    """The suite (and the processes it starts) never writes to the user's
    compile cache: ASCENDRTC_CACHE_DIR points at a session temp dir unless
    the caller set it.  Tests of the cache itself use their own dirs."""
    if os.environ.get("ASCENDRTC_CACHE_DIR"):
        yield
        return
    os.environ["ASCENDRTC_CACHE_DIR"] = str(tmp_path_factory.mktemp("ascendrtc-cache"))
    try:
        yield
    finally:
        os.environ.pop("ASCENDRTC_CACHE_DIR", None)
