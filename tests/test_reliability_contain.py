"""Containment (issue 16): what a hostile or careless kernel, source or call
does ends in a clear error naming the problem - never a dead, hung or
silently corrupted process - and the next launch, compile and cache use
work.  One test per case; each is followed by a good launch."""
import ctypes
import os
import re
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import ascendrtc as arc
from helpers.faults import AICORE_EXCEPTION, launch_fails, still_works
from helpers.py_kernels import compiled


SRC = r'''
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void pf_missing(GM_ADDR z) { AscendC::printf("x=%d s=%s\n"); }
extern "C" __global__ __aicore__ void pf_int_as_string(GM_ADDR z) { AscendC::printf("s=%s\n", 12345); }
extern "C" __global__ __aicore__ void pf_bad_string(GM_ADDR z) { AscendC::printf("s=%s\n", (const char *)16); }
extern "C" __global__ __aicore__ void pf_n(GM_ADDR z) { int n = 0; AscendC::printf("ab%n\n", &n); }
extern "C" __global__ __aicore__ void pf_good(GM_ADDR z)
{
    half h = (half)1.5f;
    AscendC::printf("ok %d %u %5.2f %s %c %x %lld|%*d|%p\n", -3, 7u, 2.25f, "str", 'q', 255, (long long)1 << 40, 4, 9,
                    (void *)0);
    AscendC::printf("half %.1f\n", h);
}

extern "C" __global__ __aicore__ void debugtrap(GM_ADDR z) { __builtin_debugtrap(); }

// Raw stores through a UB pointer, every 64 bytes from `from` to `to`.
extern "C" __global__ __aicore__ void ub_raw(GM_ADDR z, int64_t from, int64_t to)
{
    TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, 1024);
    LocalTensor<float> t = buf.Get<float>();
    volatile char *p = (volatile char *)t.GetPhyAddr();
    for (int64_t i = from; i < to; i += 64) p[i] = 1;
}

// One raw GM byte store at z + off, through a pointer that went through a
// volatile local: the compiler no longer knows it derives from z, so its
// bounds check (rtc/param_bounds.cpp, tests/test_gm_param_bounds.py) leaves
// the store to the guard pages and the canary, which these tests are about.
extern "C" __global__ __aicore__ void gm_raw(GM_ADDR z, int64_t off)
{
    __gm__ char *volatile q = (__gm__ char *)z;
    ((volatile __gm__ char *)q)[off] = 1;
}

// Waits for *flag, then stores into z.
extern "C" __global__ __aicore__ void late_store(GM_ADDR z, GM_ADDR flag)
{
    while (*(volatile int32_t *)flag == 0) {}
    ((volatile __gm__ int32_t *)z)[1] = 1;
}
'''


@pytest.fixture(scope="module")
def mod():
    return compiled("reliability_contain", lambda: arc.Program(SRC, "contain.asc").compile().load())


def fails(call, *patterns, code=AICORE_EXCEPTION):
    return launch_fails(call, code, *patterns)


# ---- kernel printf, traps, local memory ----

def test_printf_missing_and_bad_arguments_trap_with_the_format(mod, capfd):
    z = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("pf_missing")[1](z),
          r'AscendC::printf: format "x=%d s=%s\\n": conversion %d needs argument 1 but only 0 were passed')
    fails(lambda: mod.get_kernel("pf_int_as_string")[1](z),
          r"conversion %s expects a string \(char pointer\) but argument 1 is a signed integer")
    fails(lambda: mod.get_kernel("pf_bad_string")[1](z), r"the string of argument 1 \(0x10\) is not readable")
    fails(lambda: mod.get_kernel("pf_n")[1](z), r"%n is not supported")
    capfd.readouterr()
    mod.get_kernel("pf_good")[1](z)
    arc.synchronize()
    out = capfd.readouterr().out
    assert "ok -3 7  2.25 str q ff 1099511627776|   9|" in out, out
    assert "half 1.5" in out, out


def test_debugtrap_fails_the_launch(mod):
    z = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("debugtrap")[2](z),
          r"debugtrap block \d/2: kernel code: breakpoint trap \(SIGTRAP")


def test_raw_ub_pointer_far_past_the_arena_and_past_the_arch_size(mod):
    z = arc.zeros(8, np.int32)
    k = mod.get_kernel("ub_raw")
    k[1](z, 0, 192 * 1024)                               # all of dav-2201's UB
    arc.synchronize()
    ub = 192                 # the binary's arch (dav-2201, the default) bounds UB whatever ASCENDRTC_SIM_SOC is
    fails(lambda: k[1](z, 0, 1 << 40),
          r"ub_raw block 0/1: kernel code: invalid memory access at 0x[0-9a-f]+ \(SIGSEGV\): the address is 0 bytes "
          r"past the end of this core's unified buffer \(UB\) of %d KiB" % ub)
    fails(lambda: k[1](z, ub * 1024, ub * 1024 + 64), r"0 bytes past the end of this core's unified buffer")
    fails(lambda: k[1](z, -64, 0), r"64 bytes before the start of this core's unified buffer")


# ---- GM: guards, canaries, use after free, mappings ----

@pytest.mark.parametrize("n,off,where", [(4000, 4000, "past its end"), (4000, 4031, "past its end"),
                                         (32, 32, "past its end"), (4000, -1, "before its start"),
                                         (4000, -64, "before its start")])
def test_raw_gm_store_in_the_alignment_slack_is_found_after_the_launch(mod, n, off, where):
    z = arc.zeros(n, np.uint8)
    fails(lambda: mod.get_kernel("gm_raw")[1](z, off),
          r"gm_raw \(1 blocks\): kernel parameter 0 'z': GM bytes \[%d, %d\) relative to the allocation at "
          r"0x[0-9a-f]+ of %d bytes were written: a raw store %s" % (off, off + 1, n, where))


@pytest.mark.parametrize("n,off,pat", [
    (4000, 4032, r"32 bytes past the end of the allocation at 0x[0-9a-f]+ of 4000 bytes \(kernel parameter 0 'z'\) "
                 r"\(a raw pointer access past its end hit the guard page\)"),
    (64, 64, r"0 bytes past the end of the allocation at 0x[0-9a-f]+ of 64 bytes"),
    (4000, -5000, r"5000 bytes before the start of the allocation at 0x[0-9a-f]+ of 4000 bytes \(kernel parameter "
                  r"0 'z'\) \(a raw pointer access before its start hit the guard page\)")])
def test_raw_gm_store_into_a_guard_names_the_right_allocation(mod, n, off, pat):
    others = [arc.zeros(n, np.uint8) for _ in range(3)]  # neighbours: the message names z alone
    z = arc.zeros(n, np.uint8)
    fails(lambda: mod.get_kernel("gm_raw")[1](z, off), r"gm_raw block 0/1: kernel code: invalid memory access", pat)
    del others


def test_free_while_a_kernel_uses_the_memory_is_a_use_after_free():
    """aclrtFree returns at once while a kernel still uses the memory; the
    memory is quarantined (not handed to the next aclrtMalloc) and the
    kernel's late store is reported as a use after free of it."""
    from helpers import rt
    from helpers.acl import compile_binary
    L = rt.lib()
    blob, _ = compile_binary(SRC, name="contain.asc")
    rc, binh = rt.load(blob)
    rt.ok(rc)
    f = rt.function(binh, "late_store")
    z, flag = rt.malloc(4096), rt.malloc(64)
    rt.ok(L.aclrtMemset(flag, 64, 0, 64))
    rt.ok(rt.launch(f, 1, [ctypes.c_void_p(z), ctypes.c_void_p(flag)]))   # waits for the flag
    rt.ok(L.aclrtFree(z))                                                  # returns at once
    q = rt.malloc(4096)
    assert q != z                                        # quarantined, not handed out again
    rt.ok(L.aclrtMemset(flag, 64, 1, 64))
    assert L.aclrtSynchronizeDevice() == AICORE_EXCEPTION
    # the store goes through parameter z: its provenance check names the line (rtc/param_bounds.cpp), or,
    # where the launch recorded z's bounds, the quarantined page's fault names the freed allocation
    assert re.search(r"late_store block 0/1: kernel code: the block writes 4 bytes at 0x[0-9a-f]+ through kernel "
                     r"parameter 0 'z' at contain.asc:\d+, which points into no device allocation \(0x%x, whose "
                     r"allocation was already freed by aclrtFree: a use after free; aclrtFree does not wait for "
                     r"the kernels in flight, .*aclrtFreeWithDevSync\)" % z, rt.err()) or \
        re.search(r"late_store block 0/1: kernel code: invalid memory access at 0x[0-9a-f]+ \(SIGSEGV\): the "
                  r"address is 4 bytes into the allocation at 0x%x of 4096 bytes, which was already freed "
                  r"\(aclrtFree\): a use after free \(aclrtFree does not wait for the kernels in flight.*"
                  r"aclrtFreeWithDevSync\)" % z, rt.err()), rt.err()
    rt.ok(L.aclrtFree(q))
    rt.ok(L.aclrtFree(flag))
    rt.ok(L.aclrtBinaryUnLoad(binh))
    still_works()


def test_free_with_dev_sync_waits_for_the_kernel_using_the_memory():
    """aclrtFreeWithDevSync synchronizes the device before it frees (CANN's
    page): the kernel's late store lands, nothing is reported."""
    import threading
    import time
    from helpers import rt
    from helpers.acl import compile_binary
    L = rt.lib()
    L.aclrtFreeWithDevSync.argtypes = [ctypes.c_void_p]
    blob, _ = compile_binary(SRC, name="contain.asc")
    rc, binh = rt.load(blob)
    rt.ok(rc)
    f = rt.function(binh, "late_store")
    z, flag = rt.malloc(4096), rt.malloc(64)
    rt.ok(L.aclrtMemset(flag, 64, 0, 64))
    rt.ok(rt.launch(f, 1, [ctypes.c_void_p(z), ctypes.c_void_p(flag)]))   # waits for the flag
    t0 = time.monotonic()
    setter = threading.Timer(0.3, lambda: L.aclrtMemset(flag, 64, 1, 64))
    setter.start()
    rt.ok(L.aclrtFreeWithDevSync(z))              # waits for the kernel, then frees
    assert time.monotonic() - t0 >= 0.25
    setter.join()
    assert L.aclrtFree(z) != 0 and "double free" in rt.err()
    rt.ok(L.aclrtFree(flag))
    rt.ok(L.aclrtBinaryUnLoad(binh))
    still_works()


def test_running_out_of_mappings_is_a_clear_error():
    code = textwrap.dedent(r'''
        import ctypes, sys
        sys.path.insert(0, %r)
        import numpy as np, ascendrtc as arc
        from helpers.rt import lib
        from helpers.py_kernels import add_kernel
        L = lib()
        L.aclGetRecentErrMsg.restype = ctypes.c_char_p
        ptrs, err = [], None
        for i in range(200000):
            p = ctypes.c_void_p()
            rc = L.aclrtMalloc(ctypes.byref(p), ctypes.c_size_t(64), 0)
            if rc:
                err = (rc, L.aclGetRecentErrMsg().decode())
                break
            ptrs.append(p.value)
        for p in ptrs:
            assert L.aclrtFree(ctypes.c_void_p(p)) == 0
        print("ERR", err)
        x = np.arange(256, dtype=np.float32); z = np.zeros_like(x)
        add_kernel(np.float32)[8](x, x, z)
        assert (z == 2 * x).all()
        print("GOOD")
    ''' % os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    assert "GOOD" in r.stdout
    assert re.search(r"ERR \(207001, .*cannot map 64 bytes of guarded device memory: .*allocations are live; each "
                     r"guarded allocation is a memory mapping .*vm\.max_map_count = \d+", r.stdout), r.stdout


# ---- compiles ----

def test_invalid_inline_asm_is_a_compile_error():
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void k(GM_ADDR z) { asm volatile("bogus_instruction"); }\n')
    with pytest.raises(arc.CompileError, match=r"invalid instruction mnemonic 'bogus_instruction'"):
        arc.Program(src, "asm.asc").compile()
    still_works()


def test_compiler_crash_is_a_compile_error_naming_where_clang_was():
    # clang's own crash pragma: the crash is contained and the message names
    # the source lines clang's crash report gives (the parser's token here)
    src = ('#include "kernel_operator.h"\n'
           'extern "C" __global__ __aicore__ void k(GM_ADDR z)\n{\n}\n'
           '#pragma clang __debug crash\n')
    with pytest.raises(arc.CompileError, match=r"the compiler crashed \(.*\) compiling this source, at: .*"
                       r"crash\.asc:5:\d+: current parser token 'pragma'.*; this is a bug"):
        arc.Program(src, "crash.asc").compile()
    still_works()
    # a second crash reports its own place, not the first one's
    with pytest.raises(arc.CompileError, match=r"crash2\.asc:2:\d+: current parser token"):
        arc.Program("int a;\n#pragma clang __debug crash\n", "crash2.asc").compile()
    still_works()


def test_macro_expansion_bomb_is_a_compile_error_in_bounded_memory():
    bomb = "\n".join(["#define A0 x x x x x x x x x x"] +
                     ["#define A%d %s" % (i, " ".join(["A%d" % (i - 1)] * 10)) for i in range(1, 12)])
    bomb += "\n#define x\nint a = 0 A11;\n"
    with pytest.raises(arc.CompileError, match=r"too large after macro expansion \(more than 128 MiB"):
        arc.Program(bomb, "bomb.asc").compile()
    still_works()


def test_compile_timeout_from_the_environment(monkeypatch):
    bomb = "\n".join(["#define A0 x x x x x x x x x x"] +
                     ["#define A%d %s" % (i, " ".join(["A%d" % (i - 1)] * 10)) for i in range(1, 12)])
    bomb += "\n#define x\nint a = 0 A11;\n"
    monkeypatch.setenv("ASCENDRTC_COMPILE_TIMEOUT", "0.2")
    with pytest.raises(arc.CompileError, match=r"longer than ASCENDRTC_COMPILE_TIMEOUT \(0\.2 s\)"):
        arc.Program(bomb, "slow.asc").compile()
    monkeypatch.delenv("ASCENDRTC_COMPILE_TIMEOUT")
    still_works()


# ---- sizes ----

@pytest.mark.parametrize("shape", [(2 ** 61, 2), (2 ** 62, 4), (2 ** 31, 2 ** 31, 4)])
def test_device_array_size_overflow_is_refused(shape):
    with pytest.raises(ValueError, match="shape too large"):
        arc.empty(shape, np.float32)
    a = arc.zeros(4, np.float32)
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(2 ** 62 + 1, 4)
    still_works()


# ---- binaries from files ----

@pytest.mark.parametrize("path,pat", [("/dev/zero", "is not a regular file"), ("fifo", "is not a regular file"),
                                      ("empty", "the file is empty")])
def test_binary_load_from_a_non_regular_or_empty_file_is_refused(tmp_path, path, pat):
    from helpers import rt
    if path == "fifo":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
    elif path == "empty":
        path = str(tmp_path / "empty.o")
        open(path, "wb").close()
    h = ctypes.c_void_p()
    assert rt.lib().aclrtBinaryLoadFromFile(path.encode(), None, ctypes.byref(h)) == 100003  # ACL_ERROR_INVALID_FILE
    assert pat in rt.err(), rt.err()
    still_works()


# ---- integer division, environment variables ----

DIV_SRC = r'''
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void sdiv(GM_ADDR z, int32_t a, int32_t b)
{
    volatile int32_t q = a / b;
    *(__gm__ int32_t *)z = q;
}
'''


def test_int_min_by_minus_one_is_an_overflow_not_a_division_by_zero(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_INT_DIV", "trap")   # by default both warn and go on (tests/test_int_div.py)
    k = compiled("contain_div", lambda: arc.Program(DIV_SRC, "div.asc").compile().load()).get_kernel("sdiv")
    z = arc.zeros(8, np.int32)
    msg = fails(lambda: k[1](z, -2 ** 31, -1), r"sdiv block 0/1: kernel code: integer overflow in a division "
                                               r"\(INT_MIN / -1")
    assert "by zero" not in msg
    fails(lambda: k[1](z, 5, 0), r"integer division by zero")


@pytest.mark.parametrize("var,value,pat", [
    ("ASCENDRTC_LAUNCH_TIMEOUT", "abc", r"ASCENDRTC_LAUNCH_TIMEOUT=abc is not a timeout \(seconds"),
    ("ASCENDRTC_CORE_THREADS", "-3", r"ASCENDRTC_CORE_THREADS=-3 is not a thread count \(a whole number from 1"),
    ("ASCENDRTC_SIM_SOC", "Ascend999", r"ASCENDRTC_SIM_SOC=Ascend999 names no simulated SoC \(accepted: "
                                       r"Ascend910B1")])
def test_invalid_environment_variables_are_loud(var, value, pat):
    code = textwrap.dedent(r'''
        import sys
        sys.path.insert(0, %r)
        import numpy as np
        from helpers.py_kernels import add_kernel
        x = np.arange(256, dtype=np.float32); z = np.zeros_like(x)
        add_kernel(np.float32)[8](x, x, z)
        assert (z == 2 * x).all()
        print("GOOD")
    ''' % os.path.dirname(os.path.abspath(__file__)))
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, **{var: value}))
    assert r.returncode == 0 and "GOOD" in r.stdout, r.stderr[-3000:]
    assert re.search(pat, r.stderr), r.stderr[-3000:]


# ---- the disk cache ----

@pytest.mark.parametrize("kind", ["fifo", "symlink", "directory"])
def test_cache_entry_that_is_not_a_regular_file_is_a_miss(tmp_path, kind):
    from ascendrtc._cache_store import DiskCache
    c = DiskCache(str(tmp_path / "cache"))
    c.ensure()
    key = "ab" * 32
    path = c.path_for(key)
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "symlink":
        os.symlink("/dev/zero", path)
    else:
        os.mkdir(path)
    assert c.load(key) is None                           # no hang, no endless read
    if kind != "directory":
        assert not os.path.lexists(path)                 # out of the way
        c.store(key, b"payload", {"n": 1})
        assert c.load(key)[1] == b"payload"
    still_works()
