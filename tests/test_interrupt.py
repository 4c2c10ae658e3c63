"""Ctrl-C and kernels that fight the launch timeout (issue 16 item 2).

Ctrl-C (SIGINT, Jupyter's Interrupt) during a launch wait, a synchronize or
a compile raises KeyboardInterrupt at once and cancels the work, and the
next launch and compile in the same process work.  A kernel that blocks
signals or ends its own thread cannot escape the launch timeout.

Each case runs in a child process: it prints "go" just before the call
that blocks, the test sends SIGINT a moment later, and the child reports
what it caught, then runs a good launch checked against NumPy.  A child
that ignored the interrupt would hang (its kernel spins forever); the
bound on waiting for it is loose."""
import os
import select
import signal
import subprocess
import sys
import textwrap
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))

PRELUDE = r'''
import os, signal, sys, time
import numpy as np
import ascendrtc as arc

# A child of a process started in the background (`make test &`, nohup, CI
# runners) inherits SIGINT ignored, and Python then installs no handler:
# give it the interactive one, as a terminal session has.
signal.signal(signal.SIGINT, signal.default_int_handler)

SRC = r"""
#include "kernel_operator.h"
// Spins until out[0] becomes nonzero, which never happens.
extern "C" __global__ __aicore__ void spin(GM_ADDR out)
{
    volatile __gm__ int32_t *f = (__gm__ int32_t *)out;
    while (f[0] == 0) { }
}
extern "C" __global__ __aicore__ void twice(GM_ADDR x, GM_ADDR y)
{
    int i = AscendC::GetBlockIdx();
    ((__gm__ int32_t *)y)[i] = 2 * ((__gm__ int32_t *)x)[i];
}
// Blocks every signal of its thread (rt_sigprocmask), then spins.
__aicore__ inline void block_signals_and_spin(GM_ADDR out)
{
    unsigned long long all = ~0ull;
    register long r10 asm("r10") = 8;
    long ret;
    asm volatile("syscall" : "=a"(ret) : "a"(14L), "D"(0L), "S"(&all), "d"(0L), "r"(r10) : "rcx", "r11", "memory");
    volatile __gm__ int32_t *f = (__gm__ int32_t *)out;
    while (f[0] == 0) { }
}
extern "C" __global__ __aicore__ void blocksig(GM_ADDR out)
{
    block_signals_and_spin(out);
}
// Meets the other blocks in SyncAll (its blocks run as fibers), then
// blocks every signal of the thread running it and spins.
extern "C" __global__ __aicore__ void sync_blocksig(GM_ADDR out)
{
    AscendC::SyncAll();
    block_signals_and_spin(out);
}
extern "C" __global__ __aicore__ void sync_twice(GM_ADDR x, GM_ADDR y)
{
    int i = AscendC::GetBlockIdx();
    AscendC::SyncAll();
    ((__gm__ int32_t *)y)[i] = 2 * ((__gm__ int32_t *)x)[i];
}
// Block 0 ends its own thread with a raw exit syscall.
extern "C" __global__ __aicore__ void exit_thread(GM_ADDR out)
{
    if (AscendC::GetBlockIdx() == 0)
        asm volatile("syscall" : : "a"(60L), "D"(0L) : "rcx", "r11", "memory");
    ((__gm__ int32_t *)out)[AscendC::GetBlockIdx()] = 1;
}
"""
mod = arc.Program(SRC, "interrupt.asc").compile(["--npu-arch=dav-2201"]).load()
spin, twice = mod.get_kernel("spin"), mod.get_kernel("twice")


def checked_launch(k, blocks, x, stream, label):
    y = np.zeros_like(x)
    if stream is None:
        k[blocks](x, y)
    else:
        dx, dy = arc.to_device(x), arc.zeros(len(x), np.int32)
        k[blocks, stream](dx, dy)
        stream.synchronize()
        y = dy.get()
    assert (y == 2 * x).all(), y
    print(label, flush=True)


def good_launch(stream=None):
    checked_launch(twice, 8, np.arange(8, dtype=np.int32), stream, "next ok")


def good_sync_launch(stream=None):
    checked_launch(mod.get_kernel("sync_twice"), 4, np.arange(4, dtype=np.int32) + 5, stream, "next sync ok")


def go():
    print("go", flush=True)
'''


def run_child(body, interrupt=True, timeout=240):
    """Run PRELUDE + body in a child; SIGINT it shortly after it prints "go".
    Returns its stdout (the child must exit 0)."""
    code = PRELUDE + textwrap.dedent(body)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(HERE), os.environ.get("PYTHONPATH", "")]))
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env)
    out = []
    try:
        deadline = time.monotonic() + timeout
        while interrupt:
            r, _, _ = select.select([p.stdout], [], [], max(0.0, deadline - time.monotonic()))
            line = p.stdout.readline() if r else ""
            if not line:
                break
            out.append(line)
            if line.strip() == "go":
                time.sleep(0.3)  # into the blocking call
                os.kill(p.pid, signal.SIGINT)
                break
        rest, err = p.communicate(timeout=max(1.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        p.kill()
        rest, err = p.communicate()
        pytest.fail("the child did not finish (an interrupt or timeout was ignored):\n" + "".join(out) + rest +
                    err[-3000:])
    stdout = "".join(out) + rest
    assert p.returncode == 0, stdout + err[-3000:]
    return stdout


def test_interrupt_a_launch_wait_of_a_kernel_that_never_ends():
    out = run_child('''
        flag = np.zeros(8, np.int32)
        go()
        try:
            spin[4](flag)              # host array: the call waits for the kernel
            print("returned", flush=True)
        except KeyboardInterrupt:
            print("caught", flush=True)
        good_launch()
        good_launch(arc.Stream())
    ''')
    assert "caught" in out and "returned" not in out, out
    assert out.count("next ok") == 2, out


@pytest.mark.parametrize("which", ["stream", "device"])
def test_interrupt_a_synchronize(which):
    out = run_child('''
        s = arc.Stream() if %r == "stream" else arc.default_stream()
        flag = arc.zeros(8, np.int32)
        spin[4, s](flag)
        go()
        try:
            s.synchronize() if %r == "stream" else arc.synchronize()
            print("returned", flush=True)
        except KeyboardInterrupt:
            print("caught", flush=True)
        arc.synchronize()              # the cancelled launch left no error behind
        good_launch(s)
        good_launch()
    ''' % (which, which))
    assert "caught" in out and "returned" not in out, out
    assert out.count("next ok") == 2, out


@pytest.mark.parametrize("how", ["synchronize", "elapsed_time", "del_stream", "del_event", "del_array"])
def test_interrupt_an_event_or_deallocator_wait(how):
    # The recorded point follows a kernel that never ends; deallocators
    # cannot raise, so theirs comes back at the next bytecode.
    out = run_child('''
        how = %r
        s = arc.Stream()
        flag = arc.zeros(8, np.int32)
        start = arc.Event()
        start.record(s)
        spin[4, s](flag)
        end = arc.Event()
        end.record(s)
        go()
        try:
            if how == "synchronize":
                end.synchronize()
            elif how == "elapsed_time":
                start.elapsed_time(end)
            elif how == "del_stream":
                del s
            elif how == "del_event":
                del end
            else:
                del flag               # its memory may still be in use: the deallocator waits
            for _ in range(100000):    # the interrupt is raised at latest on a loop's back edge
                pass
            print("returned", flush=True)
        except KeyboardInterrupt:
            print("caught", flush=True)
        arc.synchronize()              # the cancelled launch left no error behind
        good_launch(arc.Stream())
        good_launch()
    ''' % how)
    assert "caught" in out and "returned" not in out, out
    assert out.count("next ok") == 2, out


def test_interrupt_a_compile():
    # Thousands of functions: seconds of parsing and optimising, which
    # the interrupt cuts short.
    out = run_child('''
        fns = "".join(
            'extern "C" __aicore__ __attribute__((noinline)) float f%d(float *p, int n) {'
            ' float s = 0; for (int i = 0; i < n; i++) s += p[i] * %d.5f + (i ^ %d); return s; }\\n' % (i, i, i)
            for i in range(6000))
        slow = '#include "kernel_operator.h"\\n' + fns + \\
            'extern "C" __global__ __aicore__ void k(GM_ADDR x) { f0((float *)x, 4); }\\n'
        go()
        t = time.monotonic()
        try:
            arc.Program(slow, "slow.asc").compile(["--npu-arch=dav-2201"])
            print("returned", flush=True)
        except KeyboardInterrupt:
            print("caught", flush=True)
        except arc.CompileError as e:
            print("compile error", e, flush=True)
        again = arc.Program(SRC, "again.asc").compile(["--npu-arch=dav-2201"]).load()
        x = np.arange(8, dtype=np.int32); y = np.zeros(8, np.int32)
        again.get_kernel("twice")[8](x, y)
        assert (y == 2 * x).all()
        print("next ok", flush=True)
    ''')
    assert "caught" in out and "returned" not in out and "compile error" not in out, out
    assert "next ok" in out, out


# SyncAll kernels run their blocks as fibers on a few threads: each spinning
# fiber is abandoned with its thread, the pool gets new ones; other kernels'
# cores are abandoned and replaced.
@pytest.mark.parametrize("kernel,blocks", [("blocksig", 4), ("sync_blocksig", 2)])
def test_timeout_stops_a_kernel_that_blocks_signals(kernel, blocks):
    out = run_child('''
        arc.set_launch_timeout(0.3)
        flag = arc.zeros(8, np.int32)
        mod.get_kernel("%s")[%d](flag)
        try:
            arc.synchronize()
            print("returned", flush=True)
        except arc.LaunchError as e:
            print("LaunchError", e.code, e, flush=True)
        arc.set_launch_timeout(None)
        for _ in range(3):             # the pool's cores, fibers and threads were replaced
            good_sync_launch()
            good_launch()
        good_sync_launch(arc.Stream())
        good_launch(arc.Stream())
    ''' % (kernel, blocks), interrupt=False)
    assert "LaunchError 507014" in out, out
    assert "%s (%d blocks) did not finish within its launch timeout" % (kernel, blocks) in out, out
    assert "running" in out and "abandoned and replaced" in out, out
    assert out.count("next sync ok") == 4 and out.count("next ok") == 4, out


def test_timeout_stops_a_kernel_that_ends_its_own_thread():
    out = run_child('''
        arc.set_launch_timeout(0.3)
        out = arc.zeros(8, np.int32)
        s = arc.Stream()
        mod.get_kernel("exit_thread")[1, s](out)   # one block: the stream's own worker thread exits
        try:
            s.synchronize()
            print("returned", flush=True)
        except arc.LaunchError as e:
            print("LaunchError", e.code, e, flush=True)
        arc.set_launch_timeout(None)
        good_launch(s)                 # the stream has a new worker
        good_launch()
        del s                          # destroying it joins the new worker
        print("destroyed", flush=True)
    ''', interrupt=False)
    assert "LaunchError 507014" in out, out
    assert "exit_thread (1 blocks) did not finish" in out and "block 0 running" in out, out
    assert "abandoned and replaced" in out, out
    assert out.count("next ok") == 2 and "destroyed" in out, out


@pytest.mark.parametrize("kernel", ["blocksig", "sync_blocksig"])
def test_ctrl_c_stops_a_kernel_that_blocks_signals(kernel):
    out = run_child('''
        flag = np.zeros(8, np.int32)
        go()
        try:
            mod.get_kernel("%s")[2](flag)
            print("returned", flush=True)
        except KeyboardInterrupt:
            print("caught", flush=True)
        good_sync_launch()
        good_launch()
        s = arc.Stream()
        good_sync_launch(s)
        good_launch(s)
    ''' % kernel)
    assert "caught" in out and "returned" not in out, out
    assert out.count("next sync ok") == 2 and out.count("next ok") == 2, out
