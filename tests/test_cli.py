"""The command line: python -m ascendrtc info|home|compile|run|cache, on real
files, with exit codes and diagnostics on stderr."""
import contextlib
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

AXPY = r'''
#include "kernel_operator.h"
// z = alpha * x + y over n elements, split evenly over the cores
extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, GM_ADDR z, float alpha, uint32_t n) {
    uint32_t per = n / AscendC::GetBlockNum(), base = per * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xg, yg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + base, per);
    yg.SetGlobalBuffer((__gm__ float *)y + base, per);
    zg.SetGlobalBuffer((__gm__ float *)z + base, per);
    for (uint32_t i = 0; i < per; i++)
        zg.SetValue(i, alpha * xg.GetValue(i) + yg.GetValue(i));
}
'''

BAD = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void bad(GM_ADDR x) {\n' \
      '    int y = undefined_thing + 1;\n}\n'


def cli_process(*args, cwd=None):
    """The command in its own process (exit status as the shell sees it)."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "ascendrtc", *args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=120)


def cli(*args, cwd=None):
    """The command run in this process through ascendrtc.__main__.main (fast)."""
    from ascendrtc.__main__ import main
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(list(args))
            except SystemExit as e:  # argparse: --help, --version, usage errors
                rc = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        os.chdir(old)
    return subprocess.CompletedProcess(args, rc, out.getvalue(), err.getvalue())


@pytest.fixture
def work(tmp_path):
    (tmp_path / "axpy.asc").write_text(AXPY)
    (tmp_path / "bad.asc").write_text(BAD)
    rng = np.random.default_rng(0)
    np.save(tmp_path / "x.npy", rng.standard_normal(64).astype(np.float32))
    np.save(tmp_path / "y.npy", rng.standard_normal(64).astype(np.float32))
    return tmp_path


@pytest.mark.parametrize("cmd", ["info", "home", "compile", "run", "cache"])
def test_every_command_has_help(cmd):
    r = cli(cmd, "--help")
    assert r.returncode == 0, r.stderr
    assert "usage:" in r.stdout and cmd in r.stdout


def test_top_level_help_lists_commands():
    r = cli_process("--help")
    assert r.returncode == 0
    for cmd in ("info", "home", "compile", "run", "cache"):
        assert cmd in r.stdout


def test_version_matches_package():
    import ascendrtc
    r = cli_process("--version")
    assert r.stdout.strip() == f"ascendrtc {ascendrtc.__version__}"


def test_info_reports_device_compiler_versions_and_cache():
    import ascendrtc as arc
    r = cli("info", "--json")
    assert r.returncode == 0, r.stderr
    info = json.loads(r.stdout)
    d = arc.device_info()
    assert info["ascendrtc"] == arc.__version__
    assert info["backend"] == "sim"
    assert info["soc"] == d["soc_name"]
    assert info["npu_arch"] == "dav-2201"
    assert info["aicore_num"] == d["aicore_num"] and info["vector_core_num"] == d["vector_core_num"]
    assert info["ub_size"] == 192 * 1024
    assert "clang 19" in info["compiler"]
    assert info["cache_dir"].startswith(os.environ["ASCENDRTC_CACHE_DIR"])
    text = cli("info")
    assert text.returncode == 0 and "ub_size:" in text.stdout and "compiler:" in text.stdout


def test_compile_writes_a_loadable_binary(work):
    import ascendrtc as arc
    r = cli("compile", "axpy.asc", "--npu-arch", "dav-2201", "-o", "axpy.o", cwd=work)
    assert r.returncode == 0, r.stderr
    assert "axpy" in r.stdout
    b = arc.Binary.from_file(work / "axpy.o")
    assert b.kernel_names == ["axpy"]
    assert b.meta.arch == "dav-2201"


def test_compile_error_goes_to_stderr_with_nonzero_exit(work):
    r = cli_process("compile", "bad.asc", "--npu-arch=dav-2201", "-o", "bad.o", cwd=work)
    assert r.returncode == 1
    assert "bad.asc:3:13: error: use of undeclared identifier 'undefined_thing'" in r.stderr
    assert "^" in r.stderr  # clang's caret under the column
    assert r.stdout == ""
    assert not (work / "bad.o").exists()


def test_compile_and_run_a_file_in_another_directory(work, tmp_path_factory):
    elsewhere = tmp_path_factory.mktemp("cwd")
    src, bad = str(work / "axpy.asc"), str(work / "bad.asc")
    r = cli("compile", src, "-o", str(work / "k.o"), cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    r = cli("run", src, "-b", "2", "x=%s" % (work / "x.npy"), "y=%s" % (work / "y.npy"), "z=like:x", "alpha=1",
            "n=64", "--out-dir", str(work), cwd=elsewhere)
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(work / "z.npy"), np.load(work / "x.npy") + np.load(work / "y.npy"), rtol=1e-6)
    r = cli("compile", bad, cwd=elsewhere)
    assert r.returncode == 1
    assert bad + ":3:13: error: use of undeclared identifier 'undefined_thing'" in r.stderr


def test_compile_bad_option_and_missing_file(work):
    r = cli("compile", "axpy.asc", "--npu-arch", "dav-9999", cwd=work)
    assert r.returncode == 1 and "dav-9999" in r.stderr
    r = cli("compile", "nope.asc", cwd=work)
    assert r.returncode == 2 and "nope.asc" in r.stderr


def test_run_named_args_writes_outputs(work):
    x, y = np.load(work / "x.npy"), np.load(work / "y.npy")
    r = cli("run", "axpy.asc", "-b", "4", "x=x.npy", "y=y.npy", "z=like:x", "alpha=2.5", "n=64", cwd=work)
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(work / "z.npy"), 2.5 * x + y, rtol=1e-6)


def test_run_binary_positional_args_and_explicit_output(work):
    x, y = np.load(work / "x.npy"), np.load(work / "y.npy")
    assert cli("compile", "axpy.asc", "-o", "axpy.o", cwd=work).returncode == 0
    r = cli("run", "axpy.o", "--kernel", "axpy", "-b", "8", "x.npy", "y.npy", "zeros:64:float32", "-1", "64",
            "-o", "z=out/result.npy", cwd=work)
    assert r.returncode == 0, r.stderr
    np.testing.assert_allclose(np.load(work / "out" / "result.npy"), y - x, rtol=1e-6)
    assert not (work / "z.npy").exists()


def test_run_errors_name_the_problem(work):
    r = cli("run", "axpy.asc", "x.npy", "y.npy", "zeros:64", "2.0", cwd=work)
    assert r.returncode == 2 and "missing argument(s) n" in r.stderr
    r = cli("run", "axpy.asc", "x.npy", "y.npy", "zeros:64", "2.0", "-5", cwd=work)   # n is uint32_t
    assert r.returncode == 2 and "'n'" in r.stderr
    r = cli("run", "axpy.asc", "x=x.npy", "y=y.npy", "z=like:w", "alpha=1", "n=64", cwd=work)
    assert r.returncode == 2 and "'w'" in r.stderr
    r = cli("run", "bad.asc", "x.npy", cwd=work)
    assert r.returncode == 1 and "undefined_thing" in r.stderr


def test_home_prints_the_cann_shaped_home():
    import ascendrtc as arc
    r = cli_process("home")
    assert r.returncode == 0 and r.stdout.strip() == arc.sim_home()


def test_cache_commands(tmp_path, work):
    env_dir = str(tmp_path / "cache")
    os.environ["ASCENDRTC_CACHE_DIR"], old = env_dir, os.environ["ASCENDRTC_CACHE_DIR"]
    try:
        assert cli("run", "axpy.asc", "x.npy", "y.npy", "zeros:64", "1", "64", "-o", "z", cwd=work).returncode == 0
        r = cli("cache", "list")
        assert r.returncode == 0 and "axpy" in r.stdout and "1 entries" in r.stdout
        for sub in ("stats", "verify", "prune", "clear"):
            r = cli("cache", sub)
            assert r.returncode == 0, (sub, r.stderr)
        assert "0 entries" in cli("cache", "list").stdout
    finally:
        os.environ["ASCENDRTC_CACHE_DIR"] = old


def test_run_kernel_that_traps_exits_1_with_the_reason(work):
    (work / "big.asc").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void big(GM_ADDR x) {\n'
        '    AscendC::TPipe pipe; AscendC::TBuf<AscendC::TPosition::VECCALC> buf;\n'
        '    pipe.InitBuffer(buf, 300 * 1024);   // more than the unified buffer\n}\n')
    r = cli("run", "big.asc", "x.npy", cwd=work)
    assert r.returncode == 1 and "exceed the unified buffer" in r.stderr
    assert cli("run", "axpy.asc", "x.npy", "y.npy", "zeros:64", "1", "64", cwd=work).returncode == 0  # still usable


# ---- issue 18: what a new user met on the command line ------------------------

def test_run_extra_named_argument_names_the_parameters_not_a_traceback(work):
    r = cli_process("run", "axpy.asc", "x=x.npy", "y=y.npy", "z=like:x", "alpha=0.5", "n=64", "m=3", cwd=work)
    assert r.returncode == 2, r.stderr
    assert "Traceback" not in r.stderr
    assert "no parameter 'm' (parameters: x, y, z, alpha, n)" in r.stderr


def test_run_misspelt_parameter_name_says_so(work):
    r = cli_process("run", "axpy.asc", "x=x.npy", "y=y.npy", "z=like:x", "alpha=0.5", "N=64", cwd=work)
    assert r.returncode == 2
    assert "no parameter 'N' (parameters: x, y, z, alpha, n)" in r.stderr
    assert "not a .npy file" not in r.stderr
    r = cli_process("run", "axpy.asc", "x.npy", "y.npy", "zeros:64", "1", "64", "7", cwd=work)
    assert r.returncode == 2 and "too many arguments" in r.stderr and "Traceback" not in r.stderr


def test_compile_output_honours_the_umask(work):
    for umask, mode in ((0o022, 0o644), (0o002, 0o664)):
        env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
        r = subprocess.run(["sh", "-c", f"umask {umask:03o} && exec \"$0\" -m ascendrtc compile axpy.asc -o a.o",
                            sys.executable], cwd=work, capture_output=True, text=True, env=env, timeout=120)
        assert r.returncode == 0, r.stderr
        assert os.stat(work / "a.o").st_mode & 0o777 == mode
        os.unlink(work / "a.o")


def test_cache_help_names_the_command_as_typed():
    r = cli_process("cache", "--help")
    assert r.returncode == 0
    assert r.stdout.startswith("usage: ascendrtc cache")
    assert "python -m" not in r.stdout


def test_top_level_help_is_plain_text():
    r = cli_process("--help")
    assert r.returncode == 0 and "``" not in r.stdout
    assert "The ascendrtc command line" in r.stdout
