"""Compile speed: ascendrtc's in-process compile against `clang++-19 -c` of
the same translation unit as a subprocess, measured in the same run.

Rows (medians of repeated compiles; each in-process compile uses a fresh
program whose source differs by a comment, so nothing is reused but the
precompiled device API):
  seed add -O2 / -O0        the seed article's add kernel
  softmax -O2               examples/kernels/softmax.asc, a larger kernel
  first compile, new process  includes building the precompiled device API
Targets (issue 7): -O2 at most 0.35x the subprocess, -O0 at most 0.25x.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
import ascendrtc as arc  # noqa: E402

CLANG = shutil.which("clang++-19") or "/usr/lib/llvm-19/bin/clang++"
# The same language settings the rtc gives cc1 (csrc/rtc/compile.cpp).
CLANG_FLAGS = ["-c", "-std=c++17", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", "-ffp-contract=off",
               "-nostdinc++", "-march=x86-64-v3", "-D__NPU_ARCH__=2201", "-D__ASCENDRTC__=1", "-D__CCE_AICORE__=220", "-iquote", os.path.join(ROOT, "csrc", "device"),
               "-I", os.path.join(ROOT, "csrc", "device"), "-I", os.path.join(ROOT, "csrc")]  # + common/socs.h
# The device's C++ library for a clang++ subprocess: libc++ over
# csrc/device/libc, configured as rtc/config.cpp configures it.
DEVICE_STD = ["-nostdlibinc", "-isystem", os.path.join(ROOT, "ascendrtc", "_home", "lib64", "libcxx", "v1"),
              "-isystem", os.path.join(ROOT, "csrc", "device", "libc"), "-D__CCE__=1",
              "-D_LIBCPP_HAS_NO_THREADS", "-D_LIBCPP_HAS_NO_LOCALIZATION", "-D_LIBCPP_HAS_NO_WIDE_CHARACTERS",
              "-D_LIBCPP_HAS_NO_FILESYSTEM", "-D_LIBCPP_HAS_NO_RANDOM_DEVICE", "-D_LIBCPP_HAS_NO_MONOTONIC_CLOCK",
              "-D_LIBCPP_REMOVE_TRANSITIVE_INCLUDES"]
CLANG_FLAGS += DEVICE_STD


def seed_source():
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from helpers.acl import SEED_KERNEL  # the article's kernel, verbatim
    return SEED_KERNEL


def example_source(name):
    with open(os.path.join(ROOT, "examples", "kernels", name)) as f:
        return f.read()


def kernel_names(src):
    """Non-template kernels, as the rtc's scan finds them."""
    import re
    return re.findall(r"__global__\s+(?:__aicore__\s+)?void\s+(\w+)\s*\(", src)


def time_inprocess(src, opt, n):
    times = []
    for i in range(n):
        prog = arc.Program("%s\n// variant %d %f\n" % (src, i, time.time()), "bench.asc")
        t0 = time.perf_counter()
        prog.compile(["--npu-arch=dav-2201", opt])
        times.append(time.perf_counter() - t0)
    return times


def time_subprocess(src, opt, n):
    tu = src + "\n#include \"arc/entry.h\"\n" + "".join(
        "__ARC_ENTRY(%d, %s)\n" % (i, k) for i, k in enumerate(kernel_names(src)))
    times = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "k.cpp")
        with open(path, "w") as f:
            f.write(tu)
        for _ in range(n):
            t0 = time.perf_counter()
            subprocess.run([CLANG, opt, *CLANG_FLAGS, "-x", "c++", path, "-o", os.path.join(d, "k.o")], check=True)
            times.append(time.perf_counter() - t0)
    return times


def first_compile_new_process(src, prewarm=True):
    """Seconds of (import, first compile) in a fresh interpreter.  With
    ASCENDRTC_PREWARM=1 the import starts warming the compiler on a thread,
    so both are reported: the compile alone flatters the first compile by
    what the import overlapped."""
    code = ("import sys, time; sys.path.insert(0, %r); t0 = time.perf_counter(); import ascendrtc as arc; "
            "t1 = time.perf_counter(); src = sys.stdin.read(); t2 = time.perf_counter(); "
            "arc.Program(src, 'b.asc').compile(['--npu-arch=dav-2201', '-O2']); "
            "print(t1 - t0, time.perf_counter() - t2)" % ROOT)
    env = dict(os.environ, ASCENDRTC_PREWARM="1" if prewarm else "0")
    out = subprocess.run([sys.executable, "-c", code], input=src, capture_output=True, text=True, check=True,
                         env=env)
    imp, comp = (float(v) for v in out.stdout.split())
    return imp, comp


def rows(quick=False):
    """[(name, times, baseline name, baseline times, target ratio or None)]"""
    n = 3 if quick else 15
    seed = seed_source()
    softmax = example_source("softmax.asc")
    for opt in ("-O2", "-O0"):  # warm the precompiled device API for each configuration
        time_inprocess(seed, opt, 1)
    out = []
    for label, src, opt, target in (("seed add", seed, "-O2", 0.35), ("seed add", seed, "-O0", 0.25),
                                    ("softmax", softmax, "-O2", 0.5)):
        out.append(("compile %s %s, in process" % (label, opt), time_inprocess(src, opt, n),
                    "clang++-19 %s -c subprocess" % opt, time_subprocess(src, opt, n), target))
    k = 1 if quick else 5
    cold = [first_compile_new_process(seed, prewarm=False) for _ in range(k)]
    warm = [first_compile_new_process(seed) for _ in range(k)]
    out.append(("compile seed add -O2, first in a new process", [c for _, c in cold],
                "clang++-19 -O2 -c subprocess", out[0][3], 0.5))
    out.append(("import + first compile of the seed add -O2 in a new process, ASCENDRTC_PREWARM=1",
                [i + c for i, c in warm], "the same without (the default)", [i + c for i, c in cold], None))
    out.append(("first compile alone, ASCENDRTC_PREWARM=1", [c for _, c in warm],
                "clang++-19 -O2 -c subprocess", out[0][3], None))
    return out


def main():
    from run import print_rows
    print_rows(rows(quick="--quick" in sys.argv))


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    main()
