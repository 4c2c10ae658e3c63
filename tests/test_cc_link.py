"""Programs of several device files: relocatable device code (-dc, as
bisheng's: a kernel calls a __aicore__ function another file defines,
linked when the program loads the kernel's binary) and ASC shared
libraries built by CMake.  Programs in tests/cc_programs/rdc and
cmake_shared; each checks its results against values computed on the host."""
import os
import subprocess

import pytest

import ascendrtc as arc
from test_cc import HOME, PROGS, cc, cmake_bin, env, needs_cmake, pytestmark  # noqa: F401  (the same skip)

RDC = os.path.join(PROGS, "rdc")
FILES = ("device_math", "simt_main", "simd_add")


def build_objects(tmp_path, *extra, files=FILES):
    for f in files:
        r = cc(tmp_path, "-dc", "--npu-arch=dav-3510", "--enable-simt", *extra, os.path.join(RDC, f + ".asc"),
               "-o", f + ".o")
        assert r.returncode == 0, r.stderr
        assert (tmp_path / (f + ".o")).exists()


def test_dc_links_device_functions_across_files(tmp_path):
    # a SIMT kernel calls axpb and a SIMD kernel calls add_tiles (the vector
    # API on local tensors), both defined in device_math.asc; -dc alone
    # compiles (an object, as bisheng's -dc), the plain link runs
    build_objects(tmp_path)
    r = cc(tmp_path, "--npu-arch=dav-3510", *(f + ".o" for f in FILES), "-o", "demo")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(tmp_path / "demo")], capture_output=True, text=True, env=env(tmp_path))
    assert p.returncode == 0 and "PASS: scale 0 of 1000 wrong, add 0 wrong, y[5]=-21.25" in p.stdout, \
        p.stdout + p.stderr


def test_dc_missing_definition_names_the_function_at_launch(tmp_path):
    # without device_math.o the kernels' binaries cannot link: each launch
    # names the function, demangled, and says both files need -dc
    build_objects(tmp_path, files=FILES[1:])
    r = cc(tmp_path, "--npu-arch=dav-3510", "simt_main.o", "simd_add.o", "-o", "demo")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(tmp_path / "demo")], capture_output=True, text=True, env=env(tmp_path))
    assert p.returncode == 1 and "FAIL: scale 1000 of 1000 wrong" in p.stdout
    assert "simt_main.asc:30: error: the <<<...>>> launch of" in p.stderr
    assert "Symbols not found: [ axpb(float, float, int) (_Z4axpbffi) ]" in p.stderr
    assert "needs both files compiled with -dc" in p.stderr
    assert "add_tiles(AscendC::LocalTensor<float>&" in p.stderr


def test_dc_function_using_simt_builtins_is_refused(tmp_path):
    # threads run as loops inside their kernel: a -dc function reading
    # threadIdx cannot be called across files; the error names it and its line
    r = cc(tmp_path, "-dc", "--npu-arch=dav-3510", "--enable-simt", "-DWITH_THREAD_INDEX",
           os.path.join(RDC, "device_math.asc"), "-o", "bad.o")
    assert r.returncode == 1 and not (tmp_path / "bad.o").exists()
    assert "device_math.asc:19: error: the -dc device function 'lane_scaled(float)' uses SIMT builtins" in r.stderr


def test_dc_is_a_link_option_not_a_runtime_compile_option():
    with pytest.raises(arc.CompileError) as e:
        arc.Program("__global__ __aicore__ void k() {}", "k.asc").compile(["-dc", "--npu-arch=dav-2201"])
    assert "-dc: relocatable device code is linked into a program by its link" in str(e.value)


@needs_cmake
def test_cmake_shared_library_is_found_where_it_was_built(tmp_path):
    # add_library(SHARED) of an .asc and an executable linking it: the
    # executable runs from the build tree (CMake's build RPATH for ASC)
    for d in ("cmake_shared", "cmake_project"):
        subprocess.run(["cp", "-r", os.path.join(PROGS, d), str(tmp_path / d)], check=True)
    cm = cmake_bin()
    script = (f'"{cm}" -S . -B build -DASC_DIR="{HOME}/lib/cmake/ASC" && "{cm}" --build build && '
              f'readelf -d build/demo | grep -E "RUNPATH|RPATH" && ./build/demo')
    p = subprocess.run(["bash", "-c", script], cwd=tmp_path / "cmake_shared", capture_output=True, text=True,
                       env=env(tmp_path))
    assert p.returncode == 0, p.stdout + p.stderr
    assert str(tmp_path / "cmake_shared" / "build") in p.stdout
    assert "test pass: 0 of 256 wrong" in p.stdout
