"""Building a single-source program with CMake (issue 26 item 5): the
project tests/cc_programs/cmake_project (an .asc with a kernel, its
<<<...>>> launch and main, plus a .cpp; find_package(ASC), LANGUAGES ASC
CXX) built from scratch with the simulated home's ASC language, against
the same directory's host part alone built by CMake with plain
clang++-19 (the .asc less its kernel and launch, compiled as C++, and the
.cpp; linked against the home's libascendcl), measured the same way in the
same run.  Each sample configures a fresh build directory (not timed) and
times `cmake --build`:

  from scratch   an empty compile cache: the device part compiled in
                 process and the device API's PCH built (target <= 1.5x
                 the host part alone)
  new code       the .asc edited, the cache kept: a first build of this
                 code with ascendrtc's PCH for these options kept (as after
                 any earlier build)
  cached         the build directory removed, the cache kept: the device
                 binary is reused (the rebuild compiles the host part only)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HOME = os.path.join(ROOT, "ascendrtc", "_home")
PROJECT = os.path.join(ROOT, "tests", "cc_programs", "cmake_project")

HOST_ONLY = """cmake_minimum_required(VERSION 3.16)
project(host_only LANGUAGES CXX)
add_executable(demo kernels_host.cpp report.cpp)
target_include_directories(demo PRIVATE {home}/include)
target_link_directories(demo PRIVATE {home}/lib64)
target_link_libraries(demo PRIVATE ascendcl m)
"""


def host_part(text):
    """The .asc's host part: the kernel's definition and its launch removed."""
    text = re.sub(r"__global__[^{]*\{.*?\n\}\n", "", text, flags=re.S)
    text = re.sub(r"^\s*\w+<<<[^;]*;\n", "", text, flags=re.M)
    return text.replace('#include "kernel_operator.h"\n', "")


def cmake():
    return shutil.which("cmake", path="/usr/bin") or shutil.which("cmake")


def build_time(proj, env, configure):
    b = os.path.join(proj, "build")
    shutil.rmtree(b, ignore_errors=True)
    subprocess.run([cmake(), "-S", proj, "-B", b] + configure, env=env, check=True, capture_output=True)
    t0 = time.perf_counter()
    r = subprocess.run([cmake(), "--build", b], env=env, capture_output=True, text=True)
    t = time.perf_counter() - t0
    if r.returncode:
        raise RuntimeError("cmake --build failed: " + r.stdout[-2000:] + r.stderr[-2000:])
    out = subprocess.run([os.path.join(b, "demo")], env=env, capture_output=True, text=True).stdout
    return t, out


def rows(quick=False):
    names = ("CMake build from scratch: cmake_project (.asc + .cpp, ASC language), empty compile cache",
             "CMake build of edited code: cmake_project, compile cache (PCH) kept",
             "CMake rebuild, compile cache kept: cmake_project (device binary reused)")
    base = "the host part alone, CMake with plain clang++-19"
    if cmake() is None:
        return [(n + ": cmake is not installed", [], base, [], None) for n in names]
    reps = 2 if quick else 5
    times, host = [[], [], []], []
    with tempfile.TemporaryDirectory() as d:
        asc, plain = os.path.join(d, "asc"), os.path.join(d, "plain")
        shutil.copytree(PROJECT, asc)
        os.makedirs(plain)
        with open(os.path.join(PROJECT, "kernels.asc")) as f:
            src = f.read()
        with open(os.path.join(plain, "kernels_host.cpp"), "w") as f:
            f.write(host_part(src))
        shutil.copy(os.path.join(PROJECT, "report.cpp"), plain)
        with open(os.path.join(plain, "CMakeLists.txt"), "w") as f:
            f.write(HOST_ONLY.format(home=HOME))
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        penv = dict(env, CXX="clang++-19")
        conf = ["-DASC_DIR=%s/lib/cmake/ASC" % HOME]
        for i in range(reps):  # in turn, so a noisy moment hits them alike
            aenv = dict(env, ASCENDRTC_CACHE_DIR=os.path.join(d, "cache%d" % i), ASCENDRTC_CACHE="on")
            for k in range(3):
                with open(os.path.join(asc, "kernels.asc"), "w") as f:
                    f.write(src + ("// edit %d\n" % i if k else ""))
                t, out = build_time(asc, aenv, conf)
                assert "test pass" in out, out
                times[k].append(t)
            host.append(build_time(plain, penv, [])[0])
    return [(names[0], times[0], base, host, 1.5), (names[1], times[1], base, host, None),
            (names[2], times[2], base, host, None)]


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))
