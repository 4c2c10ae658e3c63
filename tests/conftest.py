"""Shared fixtures.  tests/helpers is importable as `helpers`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


import pytest  # noqa: E402


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
