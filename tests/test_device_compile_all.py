"""Every device-API family instantiated for its dtypes in one translation
unit (tests/device_src/all_apis.cpp) compiles for both archs: the
templates the per-family tests do not reach still parse and type-check."""
import os

import pytest

import ascendrtc as arc

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "device_src", "all_apis.cpp")


@pytest.mark.parametrize("arch", ["dav-2201", "dav-3510"])
def test_all_apis_compile(arch):
    with open(SRC) as f:
        prog = arc.Program(f.read(), "all_apis.cpp")
    binary = prog.compile(["--npu-arch=" + arch, "-O0", "-Werror"])
    assert sorted(binary.kernel_names) == ["all_apis", "extras", "extras2"]
