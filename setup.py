"""Build ascendrtc: the C extension ``ascendrtc._C`` and the simulated NPU home.

The extension is plain C11 over the CPython and NumPy C APIs.  It includes
the CANN-shaped headers in ``csrc/include`` for types only and resolves the
ACL C API at run time (dlopen) from the simulated NPU home or a CANN home,
so it does not link against libascendcl.

The simulated NPU home (``include/acl``, ``lib64/libascendcl.so``,
``lib64/libacl_rtc.so`` with the device headers embedded, ``set_env.sh``) is
built by the Makefile's ``home`` target, which needs the LLVM/clang 19
development packages.  ``pip install .`` / ``python -m build --wheel`` build
it into the build directory and package it as ``ascendrtc/_home``; an
in-place build (``make ext``, ``pip install -e .``) uses ``ascendrtc/_home``
in the source tree and builds it only when it is missing.
"""
import glob
import os
import shutil
import subprocess
import sys

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from setuptools.errors import PlatformError
except ImportError:  # setuptools < 59
    from distutils.errors import DistutilsPlatformError as PlatformError

HERE = os.path.dirname(os.path.abspath(__file__))
DEBIAN_PACKAGES = "llvm-19-dev libclang-cpp19-dev libclang-19-dev clang-19 libc++-19-dev"


def llvm_problem(llvm_config=None):
    """Why the LLVM/clang 19 development files are unusable, or None.

    Checks what the Makefile uses: llvm-config, the clang C++ headers, the
    libclang-cpp and libLLVM shared libraries, the clang driver (for its
    resource directory) and libc++'s headers (device code's C++ library).
    """
    llvm_config = llvm_config or os.environ.get("LLVM_CONFIG", "llvm-config-19")
    exe = shutil.which(llvm_config)
    if not exe:
        return f"{llvm_config} was not found"
    try:
        out = subprocess.run([exe, "--version", "--prefix", "--includedir", "--libdir"], capture_output=True,
                             text=True, check=True).stdout.split()
        version, prefix, incdir, libdir = out[:4]
    except (OSError, subprocess.CalledProcessError, ValueError):
        return f"{exe} did not run"
    if not version.startswith("19."):
        return f"{exe} is LLVM {version}, not 19"
    need = {
        os.path.join(incdir, "clang", "Frontend", "CompilerInstance.h"): "the clang C++ headers",
        os.path.join(libdir, "libclang-cpp.so"): "libclang-cpp",
        os.path.join(libdir, "libLLVM-19.so"): "libLLVM-19",
        os.path.join(prefix, "bin", "clang"): "the clang driver",
        os.path.join(prefix, "include", "c++", "v1", "__config"): "libc++'s headers",
    }
    missing = [f"{what} ({path})" for path, what in need.items() if not os.path.exists(path)]
    if missing:
        return "missing " + ", ".join(missing)
    return None


def llvm_message(problem):
    """The one message a build without LLVM 19 ends with."""
    return (f"ascendrtc needs the LLVM/clang 19 development packages to build its simulated NPU ({problem}).\n"
            f"Install them with:  sudo apt-get install {DEBIAN_PACKAGES}\n"
            f"(or run `sh tools/install_deps.sh` in the source tree; set LLVM_CONFIG to use another llvm-config).")


def make_home(home_dir, obj_dir, gen_dir):
    """Run the Makefile's ``home`` target into ``home_dir``."""
    problem = llvm_problem()
    if problem:
        raise PlatformError(llvm_message(problem))
    jobs = str(os.cpu_count() or 2)
    cmd = ["make", "--no-print-directory", "-C", HERE, f"-j{jobs}", "home", f"HOME_DIR={home_dir}",
           f"OBJ={obj_dir}", f"GEN={gen_dir}", f"PYTHON={sys.executable}"]
    if "LLVM_CONFIG" in os.environ:
        cmd.append(f"LLVM_CONFIG={os.environ['LLVM_CONFIG']}")
    print("building the simulated NPU home: " + " ".join(cmd), flush=True)
    try:
        subprocess.run(cmd, check=True)
    except FileNotFoundError:
        raise PlatformError("building ascendrtc needs `make` (sudo apt-get install make)") from None
    except subprocess.CalledProcessError as e:
        raise PlatformError(f"building the simulated NPU home failed (make exited with {e.returncode}); "
                            f"see the compiler output above") from None


class BuildExtWithHome(build_ext):
    """build_ext that also builds the simulated NPU home next to ``_C``."""

    def build_extensions(self):
        # No run-time search path from the building Python's link flags (a
        # pyenv or conda prefix): _C needs only libc and libdl.
        self.compiler.linker_so = [a for a in self.compiler.linker_so
                                   if not a.startswith(("-Wl,-rpath", "-Wl,-R", "-R/"))]
        super().build_extensions()

    def run(self):
        if self.inplace:
            home = os.path.join(HERE, "ascendrtc", "_home")
            if not os.path.exists(os.path.join(home, "lib64", "libacl_rtc.so")) \
                    and not os.environ.get("ASCENDRTC_SIM_HOME"):
                make_home("ascendrtc/_home", "build/obj", "build/gen")
        else:
            # Absolute paths: make runs with -C HERE.
            home = os.path.abspath(os.path.join(self.build_lib, "ascendrtc", "_home"))
            temp = os.path.abspath(self.build_temp)
            if os.path.isdir(home):
                shutil.rmtree(home)  # only what this build makes goes into the wheel
            make_home(home, os.path.join(temp, "obj"), os.path.join(temp, "gen"))
        super().run()

    def get_outputs(self):
        outs = super().get_outputs()
        if not self.inplace:
            home = os.path.join(self.build_lib, "ascendrtc", "_home")
            for d, _, files in os.walk(home):
                outs += [os.path.join(d, f) for f in files]
        return outs


ext = Extension(
    "ascendrtc._C",
    sources=sorted(glob.glob("csrc/ext/*.c")) + ["csrc/common/meta.c", "csrc/common/checksum.c"],  # the runtime's metadata reader
    include_dirs=["csrc/include", "csrc", numpy.get_include()],
    depends=sorted(glob.glob("csrc/ext/*.h")) + sorted(glob.glob("csrc/include/acl/*.h")) + ["csrc/common/meta.h", "csrc/common/socs.h", "csrc/common/ge_dtypes.h"],
    extra_compile_args=["-std=c11", "-Wall", "-Wextra", "-O2", "-D_GNU_SOURCE", "-fvisibility=hidden"],
    libraries=["dl"],
)

setup(ext_modules=[ext], cmdclass={"build_ext": BuildExtWithHome})
