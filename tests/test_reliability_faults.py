"""Reliability: a faulty kernel reports, it never takes the process down.
An out-of-bounds DataCopy, a raw store past an allocation (guard page), a
null store, integer division by zero, a stack overflow, a failed device
assert and a launch
that hangs (a core that never reaches SyncAll) each fail the launch with
LaunchError naming the kernel, the block and what happened - and the next
launch in the same process works."""
import os
import subprocess
import sys

import numpy as np
import pytest

import ascendrtc as arc
from helpers.faults import AICORE_EXCEPTION, AICORE_TIMEOUT, launch_fails as fails, still_works  # noqa: F401
from helpers.py_kernels import compiled


SRC = r'''
#include "kernel_operator.h"
#include <cassert>
using namespace AscendC;

// Copies n floats of x through UB into z; n past the end of x is the bug.
extern "C" __global__ __aicore__ void oob_copy(GM_ADDR x, GM_ADDR z, int32_t n)
{
    TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, 64 * 1024);
    GlobalTensor<float> gx, gz;
    gx.SetGlobalBuffer((__gm__ float *)x); gz.SetGlobalBuffer((__gm__ float *)z);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, gx, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, t, n);
}

// Sums six inputs of n floats, three rounds, then copies m floats of the
// last one: more allocations than the device API's cache of checked
// ranges, so every round evicts; m past the end is the bug.
extern "C" __global__ __aicore__ void six_inputs(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR d, GM_ADDR e, GM_ADDR f,
                                                 GM_ADDR z, int32_t n, int32_t m)
{
    TPipe pipe; TBuf<TPosition::VECCALC> bt, bs; pipe.InitBuffer(bt, 4096); pipe.InitBuffer(bs, 4096);
    LocalTensor<float> t = bt.Get<float>(), s = bs.Get<float>();
    GM_ADDR in[6] = {a, b, c, d, e, f};
    GlobalTensor<float> g;
    Duplicate(s, 0.0f, n);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < 6; i++) {
            g.SetGlobalBuffer((__gm__ float *)in[i]);
            DataCopy(t, g, n);
            PipeBarrier<PIPE_ALL>();
            Add(s, s, t, n);
            PipeBarrier<PIPE_ALL>();
        }
    GlobalTensor<float> gz; gz.SetGlobalBuffer((__gm__ float *)z);
    DataCopy(gz, s, n);
    DataCopy(t, g, m);
}

// Raw stores through GM_ADDR, n elements: past the end is the bug.
extern "C" __global__ __aicore__ void raw_store(GM_ADDR z, int32_t n)
{
    float *volatile q = (float *)z; /* of unknown origin: the guard page's (rtc/param_bounds.cpp) */
    volatile float *p = q;
    for (int32_t i = 0; i < n; i++) p[i] = (float)i;
}

extern "C" __global__ __aicore__ void null_store(GM_ADDR z, int64_t addr)
{
    *(volatile int *)(uintptr_t)addr = 1;
}

extern "C" __global__ __aicore__ void divide(GM_ADDR z, int32_t a, int32_t b)
{
    volatile int32_t q = a / b;
    *(__gm__ int32_t *)z = q;
}

// A division the compiler cannot see (x86 idiv in inline asm): the fault
// handler's SIGFPE path, for code whose divisions were not made safe.
extern "C" __global__ __aicore__ void idiv_asm(GM_ADDR z, int32_t a, int32_t b)
{
    int32_t q = a, r = a < 0 ? -1 : 0;
    __asm__ volatile("idivl %2" : "+a"(q), "+d"(r) : "r"(b));
    *(__gm__ int32_t *)z = q;
}

extern "C" __global__ __aicore__ void asserts(GM_ADDR z, int32_t n)
{
    if (GetBlockIdx() == 2) assert(n < 0 && "n must be negative");
    ASSERT(n < 100);
}

extern "C" __global__ __aicore__ void gm_value(GM_ADDR z, int32_t idx)
{
    GlobalTensor<int32_t> g; g.SetGlobalBuffer((__gm__ int32_t *)z);
    g.SetValue(idx, 7);
}

// Block 0 spins until *flag is set (nobody sets it); the others wait in SyncAll.
extern "C" __global__ __aicore__ void stuck(GM_ADDR flag)
{
    if (GetBlockIdx() == 0) {
        while (*(volatile int32_t *)flag == 0) {}
    }
    SyncAll();
}

__aicore__ __attribute__((noinline)) int deep(volatile int *p, int n)
{
    volatile char buf[4096]; buf[0] = (char)n; buf[4095] = 1;
    if (n == 0) return buf[0];
    return deep(p, n - 1) + buf[4095] + *p;
}
extern "C" __global__ __aicore__ void recurse(GM_ADDR x, int32_t n) { *(__gm__ int *)x = deep((volatile int *)x, n); }
// A MIX block whose AIV 1 recurses; its AIC and AIV 0 return at once.
extern "C" __global__ __aicore__ void mix_recurse(GM_ADDR x, int32_t n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIV {
        if (AscendC::GetSubBlockIdx() == 1) *(__gm__ int *)x = deep((volatile int *)x, n);
    }
}

// Every block spins forever in its own code.
extern "C" __global__ __aicore__ void spin_all(GM_ADDR flag)
{
    while (*(volatile int32_t *)flag == 0) {}
}
'''


@pytest.fixture(scope="module")
def mod():
    return compiled("reliability_faults", lambda: arc.Program(SRC, "faults.asc").compile().load())




def test_out_of_bounds_datacopy_names_kernel_core_api_range_allocation_and_parameter(mod):
    k = mod.get_kernel("oob_copy")
    x = arc.to_device(np.arange(64, dtype=np.float32))
    z = arc.zeros(256, np.float32)
    k[1](x, z, 64)                                       # in bounds
    arc.synchronize()
    np.testing.assert_array_equal(z.get()[:64], np.arange(64, dtype=np.float32))
    fails(lambda: k[1](x, z, 128), AICORE_EXCEPTION,
          r"oob_copy block 0/1: AscendC::DataCopy: GM bytes \[0, 512\) of the allocation at 0x[0-9a-f]+ \(256 bytes\)",
          r"kernel parameter 0 'x'", r"run 256 bytes past its end")


def test_gm_checks_hold_with_more_allocations_than_the_cache(mod):
    k = mod.get_kernel("six_inputs")
    hs = [np.full(64, i + 1, np.float32) for i in range(6)]
    ins = [arc.to_device(h) for h in hs]
    z = arc.zeros(64, np.float32)
    k[1](*ins, z, 64, 64)   # one block: two would both store z, a write/write race between cores
    arc.synchronize()
    np.testing.assert_array_equal(z.get(), 3 * sum(hs))
    fails(lambda: k[2](*ins, z, 64, 72), AICORE_EXCEPTION,
          r"six_inputs block \d/2: AscendC::DataCopy: GM bytes \[0, 288\)", r"kernel parameter 5 'f'",
          r"run 32 bytes past its end")


def test_globaltensor_setvalue_past_the_end(mod):
    z = arc.zeros(16, np.int32)
    fails(lambda: mod.get_kernel("gm_value")[1](z, 16), AICORE_EXCEPTION,
          r"gm_value block 0/1: AscendC::GlobalTensor::SetValue: GM bytes \[64, 68\)", r"parameter 0 'z'")
    fails(lambda: mod.get_kernel("gm_value")[1](z, -1), AICORE_EXCEPTION,
          r"gm_value block 0/1: AscendC::GlobalTensor::SetValue: GM access of 4 bytes at 0x[0-9a-f]+ is outside "
          r"device memory")
    mod.get_kernel("gm_value")[1](z, 15)
    arc.synchronize()
    assert z.get()[15] == 7


def test_raw_store_past_the_end_hits_the_guard_page(mod):
    z = arc.zeros(1000, np.float32)                      # 4000 bytes: the guard page follows them
    k = mod.get_kernel("raw_store")
    k[1](z, 1000)
    arc.synchronize()
    fails(lambda: k[1](z, 1000 + 2048), AICORE_EXCEPTION,
          r"raw_store block 0/1: kernel code: invalid memory access at 0x[0-9a-f]+ \(SIGSEGV\)",
          r"bytes past the end of the allocation at 0x[0-9a-f]+ of 4000 bytes \(kernel parameter 0 'z'\)",
          r"guard page")


def test_null_store_and_integer_division_by_zero(mod, monkeypatch):
    z = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("null_store")[4](z, 16), AICORE_EXCEPTION,
          r"null_store block \d/4: kernel code: invalid memory access at 0x10 \(SIGSEGV\).*not inside any device")
    fails(lambda: mod.get_kernel("idiv_asm")[2](z, 7, 0), AICORE_EXCEPTION,
          r"idiv_asm block \d/2: kernel code: integer division by zero \(SIGFPE at 0x")
    fails(lambda: mod.get_kernel("idiv_asm")[1](z, -2 ** 31, -1), AICORE_EXCEPTION,
          r"idiv_asm block 0/1: kernel code: integer overflow in a division \(INT_MIN / -1")
    monkeypatch.setenv("ASCENDRTC_INT_DIV", "trap")   # the compiled division's strict mode (tests/test_int_div.py)
    fails(lambda: mod.get_kernel("divide")[2](z, 7, 0), AICORE_EXCEPTION,
          r"divide block \d/2: kernel code: integer division by zero")
    mod.get_kernel("idiv_asm")[1](z, 7, 2)
    arc.synchronize()
    assert z.get()[0] == 3
    mod.get_kernel("divide")[1](z, 7, 2)
    arc.synchronize()
    assert z.get()[0] == 3


def test_stack_overflow_is_reported(mod):
    x = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("recurse")[2](x, 1 << 20), AICORE_EXCEPTION,
          r"recurse block \d/2: kernel code: stack overflow at 0x[0-9a-f]+ \(SIGSEGV\): a core has a 16 MiB stack")
    mod.get_kernel("recurse")[1](x, 10)
    arc.synchronize()
    assert x.get()[0] == 10


def test_stack_overflow_in_a_mix_sub_core_is_reported(mod):
    # MIX sub-cores run as fibers whose stacks sit above a guard page.
    x = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("mix_recurse")[1](x, 1 << 20), AICORE_EXCEPTION,
          r"mix_recurse block 0/1 \(AIV 1: GetBlockIdx\(\) = 1\): kernel code: stack overflow at 0x[0-9a-f]+ \(SIGSEGV\): a core has a "
          r"16 MiB stack")
    for _ in range(2):  # the sub-cores' fibers start over for the next block
        x = arc.zeros(8, np.int32)
        mod.get_kernel("mix_recurse")[1](x, 10)
        arc.synchronize()
        assert x.get()[0] == 10


def test_device_assert_reports_message_file_line_and_core(mod):
    z = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("asserts")[4](z, 5), AICORE_EXCEPTION,
          r"asserts block 2/4: assert: n < 0 && \"n must be negative\"\n  at faults\.asc:\d+\n")
    fails(lambda: mod.get_kernel("asserts")[1](z, 500), AICORE_EXCEPTION,
          r"asserts block 0/1: ASSERT: n < 100\n  at faults\.asc:\d+\n")


def test_syncall_deadlock_times_out_with_every_core_position(mod, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_LAUNCH_TIMEOUT", "0.3")
    flag = arc.zeros(8, np.int32)
    msg = fails(lambda: mod.get_kernel("stuck")[4](flag), AICORE_TIMEOUT,
                r"stuck \(4 blocks\) did not finish within its launch timeout of 0\.300 s",
                r"block 0 running", r"waiting in SyncAll",
                r"\(1 running, 3 waiting in SyncAll, 0 blocks not started")
    assert msg.count("waiting in SyncAll;") + msg.count("waiting in SyncAll (") >= 3


def test_cores_spinning_in_kernel_code_are_interrupted(mod, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_LAUNCH_TIMEOUT", "0.2")
    flag = arc.zeros(8, np.int32)
    fails(lambda: mod.get_kernel("spin_all")[3](flag), AICORE_TIMEOUT, r"spin_all \(3 blocks\)",
          *(r"core %d: block \d running( \(last device-API call at faults\.asc:\d+\))?[;( ]" % i for i in range(3)))
    # The default is off again: a quick kernel is unaffected.
    monkeypatch.delenv("ASCENDRTC_LAUNCH_TIMEOUT")
    still_works()


def test_default_timeout_settable_from_python_through_the_c_setter(mod):
    import ctypes
    from helpers.rt import lib
    setter = lib().ascendrtc_set_launch_timeout
    setter.argtypes, setter.restype = [ctypes.c_double], None
    flag = arc.zeros(8, np.int32)
    setter(0.2)
    try:
        fails(lambda: mod.get_kernel("spin_all")[1](flag), AICORE_TIMEOUT, r"launch timeout of 0\.200 s")
    finally:
        setter(-1.0)                                     # back to ASCENDRTC_LAUNCH_TIMEOUT (unset: none)


def test_gm_checks_can_be_switched_off():
    """ASCENDRTC_GM_CHECKS=0 (read at start-up): an overrun the checks would
    stop runs (within the rounding slack) - for benchmarks."""
    code = r'''
import numpy as np, ascendrtc as arc, sys
sys.path.insert(0, %r)
from test_reliability_faults import SRC
k = arc.Program(SRC, "faults.asc").compile().load().get_kernel("gm_value")
z = arc.zeros(15, np.int32)          # 60 bytes (96 reserved on dav-2201)
k[1](z, 16); arc.synchronize()   # 4 bytes past the rounded size: stopped when checks are on
print("ran")
''' % os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, ASCENDRTC_GM_CHECKS="0")
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "ran" in r.stdout, r.stderr
