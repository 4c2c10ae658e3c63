"""aclrtc*: compile in process, options, name expressions, in-memory headers,
metadata, and every documented error code (csrc/include/acl/acl_error_table.h)."""
import ctypes

import pytest

from helpers.acl import SEED_KERNEL, Prog, compile_binary, libs, read_meta, recent_error
from helpers.threads import run_in_threads

INVALID_PROG, INVALID_INPUT, INVALID_OPTION, COMPILATION = 176000, 176001, 176002, 176003
NO_NAME_EXPR_AFTER, NO_LOWERED_BEFORE, NAME_EXPR_NOT_VALID = 176005, 176006, 176007

TINY = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void tiny(GM_ADDR x, int32_t n, float a) { }
'''


def test_seed_kernel_compiles_to_self_describing_elf():
    blob, p = compile_binary(SEED_KERNEL, name="add_custom")
    assert blob[:4] == b"\x7fELF"
    meta = read_meta(blob)
    assert meta["arch"] == "dav-2201"
    (k,) = meta["kernels"]
    assert k["name"] == k["lowered"] == "add_custom"
    assert k["ktype"] == 0  # KERNEL_TYPE_AIV_ONLY
    assert [(q["name"], q["type"], q["offset"], q["size"], q["kind"]) for q in k["params"]] == [
        ("x", "GM_ADDR", 0, 8, 1), ("y", "GM_ADDR", 8, 8, 1), ("z", "GM_ADDR", 16, 8, 1)]
    assert k["args_size"] == 24


def test_scalar_and_struct_params_follow_the_8_byte_rule():
    src = r'''
#include "kernel_operator.h"
struct Tiling { uint32_t total; float scale; double d; };
extern "C" __global__ __aicore__ void k(GM_ADDR x, int8_t a, half h, Tiling t, uint64_t u, bool b) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
}
'''
    blob, _ = compile_binary(src)
    (k,) = read_meta(blob)["kernels"]
    got = [(q["name"], q["offset"], q["size"], q["kind"]) for q in k["params"]]
    # pointer, int, float, struct, uint, bool (meta.h kinds); each starts 8-byte aligned
    assert got == [("x", 0, 8, 1), ("a", 8, 1, 2), ("h", 16, 2, 4), ("t", 24, 16, 6), ("u", 40, 8, 3),
                   ("b", 48, 1, 5)]
    assert k["ktype"] == 5


def test_several_kernels_and_templates_with_name_expressions():
    src = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void first(GM_ADDR x) {}
extern "C" __global__ __aicore__ void second(GM_ADDR x, GM_ADDR y) {}
template <typename T, int N>
__global__ __aicore__ void scale(GM_ADDR x, T factor) {}
'''
    blob, p = compile_binary(src, exprs=["scale<float, 4>", "scale<half, 8>"])
    rc, low = p.lowered("scale<float, 4>")
    assert rc == 0 and low.startswith("_Z5scaleIfLi4EEv")
    rc, low2 = p.lowered("scale<half, 8>")
    assert rc == 0 and low2 != low
    kernels = {k["name"]: k for k in read_meta(blob)["kernels"]}
    assert set(kernels) == {"first", "second", "scale<float, 4>", "scale<half, 8>"}
    assert kernels["scale<float, 4>"]["lowered"] == low
    assert [q["size"] for q in kernels["scale<half, 8>"]["params"]] == [8, 2]
    assert p.lowered("scale<int, 1>")[0] == NO_NAME_EXPR_AFTER
    assert "scale<int, 1>" in recent_error()


def test_template_without_name_expression_is_explained_in_the_log():
    p = Prog("#include \"kernel_operator.h\"\ntemplate <class T> __global__ __aicore__ void t(GM_ADDR x) {}\n")
    assert p.compile(["--npu-arch=dav-2201"]) == 0
    assert "template kernel 't' is not instantiated" in p.log()


def test_in_memory_headers_and_defines_and_include_dirs(tmp_path):
    (tmp_path / "ondisk.h").write_text("constexpr int32_t FROM_DISK = 3;\n")
    src = r'''
#include "kernel_operator.h"
#include "consts.h"
#include "ondisk.h"
static_assert(FROM_MEMORY == 7, "in-memory header");
static_assert(FROM_DEFINE == 5, "-D");
static_assert(FROM_DISK == 3, "-I");
static_assert(__NPU_ARCH__ == 3510, "arch macro");
extern "C" __global__ __aicore__ void k(GM_ADDR x) {}
'''
    p = Prog(src, headers={"consts.h": "constexpr int32_t FROM_MEMORY = 7;\n"})
    rc = p.compile(["--npu-arch=dav-3510", "-DFROM_DEFINE=5", "-I", str(tmp_path), "-O3", "-g"])
    assert rc == 0, p.log()
    assert read_meta(p.binary())["arch"] == "dav-3510"


def test_compile_error_reports_line_and_column_in_user_source():
    p = Prog("#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void k(GM_ADDR x)\n{\n"
             "    int32_t y = undefined_name + 1;\n}\n", name="broken.asc")
    assert p.compile(["--npu-arch=dav-2201"]) == COMPILATION
    log = p.log()
    assert "broken.asc:4:17: error: use of undeclared identifier 'undefined_name'" in log
    assert "broken.asc:4:17" in recent_error()
    # the process (and the same program object) can compile again afterwards
    ok = Prog(TINY)
    assert ok.compile(["--npu-arch=dav-2201"]) == 0


@pytest.mark.parametrize("opts, code, text", [
    (["--npu-arch=dav-9999"], INVALID_OPTION, "dav-9999"),
    (["--npu-arch=dav-2002"], INVALID_OPTION, "does not support runtime compilation"),
    (["--frobnicate"], INVALID_OPTION, "--frobnicate"),
    ([""], INVALID_OPTION, "empty"),
    (["-mllvm"], INVALID_OPTION, "-mllvm"),
    (["-D"], INVALID_OPTION, "needs a value"),
    (["-std=c++98"], INVALID_OPTION, "c++98"),
    (["-xaicpu"], COMPILATION, "[ERROR] aicpu compile is not supported yet"),
])
def test_bad_options_are_named(opts, code, text):
    p = Prog(TINY)
    assert p.compile(opts) == code
    assert text in p.log()
    assert text in recent_error()
    assert p.compile(["--npu-arch=dav-2201"]) == 0


def test_accepted_options():
    p = Prog(TINY)
    for opts in (["--npu-soc=Ascend910B1"], ["-O0"], ["-O2", "-w"], ["-x", "asc", "-Wall"],
                 ["--cce-auto-sync", "-UNDEBUG", "-std=c++20"], []):
        assert p.compile(opts) == 0, (opts, p.log())


def test_null_and_stale_handles():
    _, rtc = libs()
    P = ctypes.c_void_p
    h = P()
    assert rtc.aclrtcCreateProg(None, b"x", b"n", 0, None, None) == INVALID_INPUT
    assert rtc.aclrtcCreateProg(ctypes.byref(h), None, b"n", 0, None, None) == INVALID_INPUT
    assert rtc.aclrtcCreateProg(ctypes.byref(h), b"x", None, 0, None, None) == INVALID_INPUT
    assert rtc.aclrtcCreateProg(ctypes.byref(h), b"x", b"n", 2, None, None) == INVALID_INPUT
    assert rtc.aclrtcCompileProg(None, 0, None) == INVALID_PROG
    assert rtc.aclrtcCompileProg(P(0x1234), 0, None) == INVALID_PROG
    assert "not a live program" in recent_error()
    size = ctypes.c_size_t()
    assert rtc.aclrtcGetBinDataSize(None, ctypes.byref(size)) == INVALID_PROG
    assert rtc.aclrtcGetCompileLogSize(None, ctypes.byref(size)) == INVALID_PROG
    assert rtc.aclrtcDestroyProg(None) == INVALID_INPUT
    assert rtc.aclrtcDestroyProg(ctypes.byref(P())) == INVALID_PROG
    p = Prog(TINY)
    assert rtc.aclrtcCompileProg(p.h, -1, None) == INVALID_INPUT
    assert rtc.aclrtcCompileProg(p.h, 1, None) == INVALID_INPUT
    assert rtc.aclrtcGetBinDataSize(p.h, None) == INVALID_INPUT
    assert rtc.aclrtcGetCompileLog(p.h, None) == INVALID_INPUT
    assert rtc.aclrtcAddNameExpr(p.h, None) == INVALID_INPUT
    stale = P(p.h.value)
    p.destroy()
    assert p.h.value is None
    assert rtc.aclrtcCompileProg(stale, 0, None) == INVALID_PROG
    assert rtc.aclrtcDestroyProg(ctypes.byref(stale)) == INVALID_PROG


def test_name_expression_rules():
    p = Prog(TINY)
    for bad in ["", "k; int x", "k{}", "k<int", '"k"']:
        assert p.add_name_expr(bad) == NAME_EXPR_NOT_VALID, bad
    assert p.lowered("tiny")[0] == NO_LOWERED_BEFORE
    assert p.compile(["--npu-arch=dav-2201"]) == 0
    assert p.lowered("tiny") == (0, "tiny")


def test_bad_name_expression_fails_the_compile_with_a_clear_log():
    p = Prog(TINY)
    assert p.add_name_expr("nosuchkernel<float>") == 0
    assert p.compile(["--npu-arch=dav-2201"]) == COMPILATION
    assert "name expression 'nosuchkernel<float>'" in p.log()


def test_binary_before_compile_is_an_error():
    p = Prog(TINY)
    size = ctypes.c_size_t()
    assert p.rtc.aclrtcGetBinDataSize(p.h, ctypes.byref(size)) == INVALID_PROG
    assert "has not compiled" in recent_error()


def test_concurrent_compiles():
    results = []

    def work(i):
        src = TINY.replace("tiny", "tiny%d" % i)
        p = Prog(src)
        rc = p.compile(["--npu-arch=dav-2201", "-DVARIANT=%d" % i])
        results.append((rc, read_meta(p.binary())["kernels"][0]["name"] if rc == 0 else p.log()))

    run_in_threads(work, 4)
    assert sorted(results) == [(0, "tiny%d" % i) for i in range(4)]


def _compile_in_new_process(cache_dir):
    import os
    import subprocess
    import sys
    from helpers.acl import ROOT
    code = ("import sys; sys.path.insert(0, %r); sys.path.insert(0, %r); from helpers.acl import compile_binary, "
            "SEED_KERNEL; compile_binary(SEED_KERNEL); print('ok')" % (ROOT, os.path.join(ROOT, "tests")))
    env = dict(os.environ, ASCENDRTC_CACHE_DIR=str(cache_dir))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_the_compiler_alone_keeps_its_pch_in_memory_only(tmp_path):
    # The disk copy belongs to the compile cache (tests/test_cache_pch.py),
    # which lends the compiler its store; a plain aclrtc user writes nothing.
    cache = tmp_path / "cache"
    _compile_in_new_process(cache)
    assert not cache.exists()
