"""Single-source programs: `ascendrtc cc` builds a .asc file (kernels plus a
host main launching them with <<<...>>>) into an ordinary executable that
runs on the simulated NPU, `ascendrtc run FILE -- ARGS` builds (cached) and
runs it, and CMake's ASC language (find_package(ASC) in the simulated CANN
home) builds a project with them.  The programs are in tests/cc_programs;
each checks its own results against values computed on the host."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROGS = os.path.join(ROOT, "tests", "cc_programs")
HOME = os.path.join(ROOT, "ascendrtc", "_home")

pytestmark = pytest.mark.skipif(shutil.which("clang++-19") is None and shutil.which("clang++") is None,
                                reason="the host part is linked with clang++")


def env(tmp_path, **extra):
    e = dict(os.environ)
    e["PYTHONPATH"] = ROOT + (os.pathsep + e["PYTHONPATH"] if e.get("PYTHONPATH") else "")
    e["ASCENDRTC_CACHE_DIR"] = str(tmp_path / "cache")
    e.update(extra)
    return e


def cc(tmp_path, *args, **extra):
    return subprocess.run([sys.executable, "-m", "ascendrtc", "cc", *args], capture_output=True, text=True,
                          cwd=tmp_path, env=env(tmp_path, **extra))


def test_program_builds_and_runs(tmp_path):
    # two kernels (one a template), launched with and without a stream; a
    # by-value struct; a double and a size_t converted as a call converts them
    exe = tmp_path / "scale_add"
    r = cc(tmp_path, os.path.join(PROGS, "scale_add.asc"), "-o", str(exe), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    for blocks in ("1", "5"):
        p = subprocess.run([str(exe), blocks], capture_output=True, text=True)
        assert p.returncode == 0, p.stdout + p.stderr
        assert f"PASS: {blocks} blocks, 0 mismatches, z[5]=-3 v[5]=12" in p.stdout
    # assert() in the host part (the device API's assert.h, which a single-source
    # file includes) prints and aborts as the C library's does
    p = subprocess.run([str(exe), "1", "fail"], capture_output=True, text=True)
    assert p.returncode == -6, p.stdout + p.stderr
    assert "a second argument fails the host's assert" in p.stderr and "scale_add.asc:57" in p.stderr


def test_simt_program(tmp_path):
    # SIMT <<<grid, block, dynUBufSize, stream>>>: a template kernel with dim3
    # shapes and dynamic UB, a __launch_bounds__(2048) kernel with integer
    # shapes, a kernel #if 0 leaves out; the SIMT API without an #include
    exe = tmp_path / "simt_reverse"
    r = cc(tmp_path, os.path.join(PROGS, "simt_reverse.asc"), "-o", str(exe), "--npu-arch=dav-3510", "--enable-simt")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert p.returncode == 0 and "PASS: 0 mismatches, y[0]=73.5 v[2049]=10001, last error 0 then 0" in p.stdout, p.stdout + p.stderr
    # a block of 0 threads and one over the kernel's bound: launch errors naming
    # the site and the limit; the other launch of the program still runs
    for threads, want in (("0", "'iota<int>': block (0, 1, 1) has 0 threads; a block has 1 to 2048"),
                          ("4096", "'iota<int>': block (4096, 1, 1) has 4096 threads, over the kernel's limit of "
                                   "2048")):
        p = subprocess.run([str(exe), threads], capture_output=True, text=True)
        assert "simt_reverse.asc:54: error: the <<<...>>> launch of" in p.stderr and want in p.stderr, p.stderr
        assert "y[0]=73.5" in p.stdout and "last error 107000 then 0" in p.stdout
    # without --enable-simt the SIMT launch form is refused at compile time
    r = cc(tmp_path, os.path.join(PROGS, "simt_reverse.asc"), "-o", str(tmp_path / "x"), "--npu-arch=dav-3510")
    assert r.returncode == 1 and "unknown type name '__global__'" in r.stderr and not (tmp_path / "x").exists()


def test_compile_then_link(tmp_path):
    # -c writes the host object (device binary inside); a second call links it
    obj = tmp_path / "sa.o"
    r = cc(tmp_path, "-c", os.path.join(PROGS, "scale_add.asc"), "-o", str(obj))
    assert r.returncode == 0, r.stderr
    r = cc(tmp_path, str(obj), "-o", str(tmp_path / "sa"))
    assert r.returncode == 0, r.stderr
    assert subprocess.run([str(tmp_path / "sa"), "2"], capture_output=True, text=True).stdout.startswith("PASS")


def test_run_builds_once_and_runs(tmp_path):
    argv = [sys.executable, "-m", "ascendrtc", "run", os.path.join(PROGS, "scale_add.asc"), "-v", "--", "3"]
    first = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env(tmp_path))
    assert first.returncode == 0, first.stderr
    assert "PASS: 3 blocks" in first.stdout and ": compiled" in first.stderr
    again = subprocess.run(argv, capture_output=True, text=True, cwd=tmp_path, env=env(tmp_path))
    assert again.returncode == 0 and "PASS: 3 blocks" in again.stdout
    assert ": disk" in again.stderr  # the cached object, device binary included


def test_launch_error_names_the_site(tmp_path):
    # 0 blocks: the launch fails as the runtime says, naming the line of the <<<...>>>
    exe = tmp_path / "sa"
    assert cc(tmp_path, os.path.join(PROGS, "scale_add.asc"), "-o", str(exe)).returncode == 0
    p = subprocess.run([str(exe), "0"], capture_output=True, text=True)
    assert "scale_add.asc:53: error: the <<<...>>> launch of 'axpb' failed (aclrtLaunchKernelWithHostArgs" in p.stderr
    assert "numBlocks 0 for 'shift<7>' is out of range [1, 65535]" in p.stderr
    assert p.returncode == 1  # the program goes on, and its own check sees the kernels did not run


@pytest.mark.parametrize("case", ["library", "undefined", "arch", "header"])
def test_bad_input(tmp_path, case):
    out = tmp_path / "prog"
    src = os.path.join(PROGS, "scale_add.asc")
    if case == "library":
        r = cc(tmp_path, src, "-o", str(out), "-lnot_a_library_anywhere")
        want = "needs the library libnot_a_library_anywhere, which this machine lacks"
    elif case == "undefined":
        r = cc(tmp_path, os.path.join(PROGS, "undefined_kernel.asc"), "-o", str(out))
        want = "undefined_kernel.asc: error: the kernel 'elsewhere' is launched with <<<...>>> but not defined"
    elif case == "arch":
        r = cc(tmp_path, src, "-o", str(out), "--npu-arch=dav-9999")
        want = "--npu-arch=dav-9999: unknown NPU architecture"
    else:
        bad = tmp_path / "needs_header.asc"
        bad.write_text('#include "acl/acl.h"\n#include "no_such_host_header.h"\nint main() { return 0; }\n')
        r = cc(tmp_path, str(bad), "-o", str(out))
        want = "'no_such_host_header.h' file not found"
    assert r.returncode == 1, r.stderr
    assert want in r.stderr, r.stderr
    assert not out.exists()  # never a half-built executable
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".arc-")] == []
    good = cc(tmp_path, src, "-o", str(out))  # and the next build works
    assert good.returncode == 0, good.stderr
    assert subprocess.run([str(out)], capture_output=True, text=True).returncode == 0


def test_bad_command_line(tmp_path):
    r = cc(tmp_path, "--frobnicate", "x.asc")
    assert r.returncode == 2 and "unknown option '--frobnicate'" in r.stderr
    r = cc(tmp_path, "-x", "aicpu", "k.cpp")
    assert r.returncode == 2 and "AI CPU" in r.stderr


def test_bisheng_static_library(tmp_path):
    # the home's `bisheng` is the same driver, as the asc-devkit READMEs call it:
    # -lib archives the objects (the .asc's host object carries its device
    # binary), a later link pulls main from the archive
    proj = os.path.join(PROGS, "cmake_project")
    bisheng = [os.path.join(HOME, "bin", "bisheng")]
    p = subprocess.run(bisheng + ["-lib", os.path.join(proj, "kernels.asc"), "-DSQUARE_OFFSET=3", "-o", "libk.a"],
                       capture_output=True, text=True, cwd=tmp_path, env=env(tmp_path))
    assert p.returncode == 0 and (tmp_path / "libk.a").exists(), p.stderr
    p = subprocess.run(bisheng + [os.path.join(proj, "report.cpp"), "-L.", "-lk", "-Wl,-u,main", "-o", "demo"],
                       capture_output=True, text=True, cwd=tmp_path, env=env(tmp_path))
    assert p.returncode == 0, p.stderr
    assert "test pass: 0 of 256 wrong" in subprocess.run([str(tmp_path / "demo")], capture_output=True,
                                                          text=True).stdout


def cmake_bin():
    return shutil.which("cmake", path="/usr/bin") or shutil.which("cmake")


needs_cmake = pytest.mark.skipif(cmake_bin() is None, reason="needs cmake (tools/install_deps.sh installs it)")


@needs_cmake
@pytest.mark.parametrize("how", ["ASC_DIR", "set_env.sh"])
def test_cmake_project(tmp_path, how):
    # an .asc and a .cpp in one target, an ASC-only compile definition, CANN's host libraries linked by name
    proj = tmp_path / "proj"
    shutil.copytree(os.path.join(PROGS, "cmake_project"), proj)
    cm = cmake_bin()
    if how == "ASC_DIR":
        script = f'"{cm}" -S . -B build -DASC_DIR="{HOME}/lib/cmake/ASC"'
    else:
        script = f'. "{HOME}/set_env.sh" && "{cm}" -S . -B build'
    script += f' && "{cm}" --build build && ./build/demo'
    p = subprocess.run(["bash", "-c", script], cwd=proj, capture_output=True, text=True, env=env(tmp_path))
    assert p.returncode == 0, p.stdout + p.stderr
    assert "test pass: 0 of 256 wrong" in p.stdout


@needs_cmake
def test_cmake_unknown_arch(tmp_path):
    proj = tmp_path / "proj"
    shutil.copytree(os.path.join(PROGS, "cmake_project"), proj)
    p = subprocess.run([cmake_bin(), "-S", ".", "-B", "build", f"-DASC_DIR={HOME}/lib/cmake/ASC",
                        "-DCMAKE_ASC_ARCHITECTURES=dav-1234"], cwd=proj, capture_output=True, text=True,
                       env=env(tmp_path))
    assert p.returncode != 0
    said = " ".join(p.stderr.split())  # CMake wraps its messages
    assert "CMAKE_ASC_ARCHITECTURES=dav-1234: 'dav-1234' is not an NPU architecture the simulated NPU has " \
           "(known: dav-2201;dav-3510)" in said


def test_program_over_a_library_header(tmp_path):
    # launches written in an included header, a kernel overloaded by arity
    # (picked by the launch's argument count), the per-side compile of a file
    # naming g_coreType, bisheng's [host, aicore], the platform's core counts
    # and aclrtGetHardwareSyncAddr in a program's host code
    exe = tmp_path / "library"
    r = cc(tmp_path, os.path.join(PROGS, "library.asc"), "-o", str(exe), "--npu-arch=dav-2201",
           "-I" + os.path.join(PROGS, "library"))
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    assert "PASS: aic 24 aiv 48, h = 42 1042" in p.stdout


@pytest.mark.parametrize("flag", ["--npu-arch=dav-3510", "--npu-arch=dav-2201", "--npu-soc=Ascend910B3"])
def test_host_platform_is_the_programs_soc(tmp_path, flag):
    # PlatformAscendCManager::GetInstance() and aclrtGetSocName() in the host
    # part answer for the SoC the program was built for (the one table,
    # _C.SOCS), before any launch; $ASCENDRTC_SIM_SOC still overrides it
    from ascendrtc import _C
    exe = tmp_path / "platform"
    r = cc(tmp_path, os.path.join(PROGS, "platform.asc"), "-o", str(exe), flag)
    assert r.returncode == 0, r.stderr
    val = flag.split("=")[1]
    soc = _C.SOCS[val]["soc"] if val in _C.SOCS else _C.ARCHS[val]["soc"]
    row, arch = _C.SOCS[soc], next(a for a in _C.ARCHS.values() if a["npu_arch"] == _C.SOCS[soc]["npu_arch"])
    e = {k: v for k, v in os.environ.items() if k != "ASCENDRTC_SIM_SOC"}
    p = subprocess.run([str(exe)], capture_output=True, text=True, env=e)
    assert p.returncode == 0, p.stdout + p.stderr
    assert f"soc={soc} aiv={row['aiv']} aic={row['aic']} ub={arch['ub']}\n" in p.stdout
    assert f"PASS: {row['aiv']} blocks" in p.stdout
    p = subprocess.run([str(exe)], capture_output=True, text=True, env=dict(e, ASCENDRTC_SIM_SOC="Ascend910B4"))
    assert p.returncode == 0 and "soc=Ascend910B4 " in p.stdout, p.stdout + p.stderr


@pytest.mark.parametrize("kernel_first", [True, False], ids=["kernel-first", "tiling-first"])
def test_kernel_operator_before_the_host_tiling_api(tmp_path, kernel_first):
    # kernel_operator.h brings the tiling DSL in kernel mode; the host tiling
    # API after it then has the structs without the DSL's field descriptions
    # (asc-devkit's advanced-API examples include them in this order).  Both
    # name AscendC::BLOCK_CUBE and ONE_BLK_SIZE (one definition), in either order.
    src = tmp_path / "order.asc"
    heads = ['#include "kernel_operator.h"\n', '#include "tiling/tiling_api.h"\n']
    src.write_text("".join(heads if kernel_first else heads[::-1]) +
                   'static_assert(AscendC::BLOCK_CUBE == 16 && AscendC::ONE_BLK_SIZE == 32, "block sizes");\n'
                   'extern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'
                   'int main() { return AscendC::GetSoftMaxMaxTmpSize(ge::Shape({8, 64}), 4, false) ? 0 : 1; }\n')
    for arch in ("dav-2201", "dav-3510"):
        r = cc(tmp_path, "-c", str(src), "-o", str(tmp_path / f"order_{arch}.o"), f"--npu-arch={arch}")
        assert r.returncode == 0, r.stderr


def test_kernel_type_qualifiers(tmp_path):
    # __mix__(1, 2) and __vector__ on <<<...>>>-launched kernels give the
    # kernel type they name (the host part's split once dropped them and
    # the type was inferred: one AIV per block, cross-core flags ordering
    # nothing, asc-devkit's cross_core_set_wait_flag racing)
    exe = tmp_path / "kq"
    r = cc(tmp_path, os.path.join(PROGS, "kernel_qualifiers.asc"), "-o", str(exe), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert "sync 0 0: 8 AIVs of MIX 1:2 blocks saw 2 sub-blocks; a[7]=2 a[8]=0; vector b[3]=101 b[4]=2" \
        in p.stdout, p.stdout + p.stderr


def test_launch_through_a_function_pointer(tmp_path):
    # k<<<...>>> where k is a constexpr function pointer an if-constexpr
    # lambda chose, beside the program's own global enum CubeFormat
    exe = tmp_path / "lp"
    r = cc(tmp_path, os.path.join(PROGS, "launch_pointer.asc"), "-o", str(exe), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert "sync 0: a = 70 70 70 70" in p.stdout, p.stdout + p.stderr


def test_aot_constant_tiling_specialisation(tmp_path):
    # a kernel instantiated for an internal-linkage template argument (the
    # AOT guide's static constexpr tiling bytes, convert_from_bytes): its
    # launch entry is found in the binary (it was internal: "cannot link symbol")
    exe = tmp_path / "aot"
    r = cc(tmp_path, os.path.join(PROGS, "aot_tiling.asc"), "-o", str(exe), "--npu-arch=dav-2201")
    assert r.returncode == 0, r.stderr
    p = subprocess.run([str(exe)], capture_output=True, text=True)
    assert "sync 0: a = 100 101 102 103" in p.stdout, p.stdout + p.stderr
