"""Build ascendrtc's C extension ``ascendrtc._C``.

The extension is plain C11 over the CPython and NumPy C APIs.  It includes
the CANN-shaped headers in ``csrc/include`` for types only and resolves the
ACL C API at run time (dlopen) from the simulated NPU home or a CANN home,
so it does not link against libascendcl.  ``make ext`` runs
``python setup.py build_ext --inplace``; ``make home`` builds the simulated
NPU home (``ascendrtc/_home``) the default backend loads.
"""
import glob
import os
import sys

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))


class BuildExtWithHomeHint(build_ext):
    """build_ext that says how to get the simulated NPU home when it is
    missing (the extension builds without it; it loads it at run time)."""

    def run(self):
        super().run()
        home = os.path.join(HERE, "ascendrtc", "_home", "lib64", "libacl_rtc.so")
        if not os.path.exists(home) and not os.environ.get("ASCENDRTC_SIM_HOME"):
            print("note: the simulated NPU home ascendrtc/_home is not built yet; run `make home` "
                  "(or set ASCENDRTC_SIM_HOME, or use ASCENDRTC_BACKEND=cann with ASCEND_HOME_PATH)",
                  file=sys.stderr)


ext = Extension(
    "ascendrtc._C",
    sources=sorted(glob.glob("csrc/ext/*.c")),
    include_dirs=["csrc/include", "csrc", numpy.get_include()],
    depends=sorted(glob.glob("csrc/ext/*.h")) + sorted(glob.glob("csrc/include/acl/*.h")) + ["csrc/common/meta.h"],
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-O2", "-D_GNU_SOURCE", "-fvisibility=hidden"],
    libraries=["dl"],
)

setup(ext_modules=[ext], cmdclass={"build_ext": BuildExtWithHomeHint})
