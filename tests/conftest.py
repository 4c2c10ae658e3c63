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
