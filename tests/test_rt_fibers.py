"""The blocks of a SyncAll kernel run as fibers on a few threads
(csrc/rt/cores/core_fibers.c, fiber.c): each block keeps its own core (UB, position,
trap target, printf) across the barrier, blocks that wait for each other
through GM after a barrier still all run (the stall watch adds threads and
parked fibers move to them), and a 48-block launch no longer costs a thread
per block.  Hand-made kernel binaries (helpers.rt_kernels)."""
import ctypes
import os
import subprocess
import sys

import numpy as np
import pytest

from helpers.rt import (RT_AICORE_EXCEPTION, build_binary, fails, from_dev, function, gm, launch, lib, load, ok,
                        to_dev)

V = ctypes.c_void_p
HERE = os.path.dirname(os.path.abspath(__file__))


def kernel(src, name, nparams=2):
    rc, b = load(build_binary(src, [dict(name=name, params=gm(*("p%d" % i for i in range(nparams))))]))
    ok(rc)
    return function(b, name)


# Each block leaves its number in its UB and its core, meets the others at
# SyncAll twice, and reads both back: a block's state follows its fiber.
# Block `bad` (out[0] before the launch) traps after the barriers.
KEEP = r'''
void k_entry(const unsigned char *args) {
    int *out = *(int **)args;
    arc_core *c = __arc_core();
    int bad = ((volatile int *)out)[0];
    __arc_sync_all(1);
    long long b = c->block_idx;
    ((volatile long long *)c->ub)[0] = b * 7;
    c->dev[3] = (unsigned long long)b + 100;
    __arc_sync_all(1);
    __arc_sync_all(1);
    if (__arc_core() != c) __arc_trap("Test", "__arc_core() moved");
    if (b == bad) __arc_trap("TestApi", "after the barriers in block %lld", __arc_core()->block_idx);
    out[1 + b] = (int)(((volatile long long *)c->ub)[0] + (long long)c->dev[3] * 1000);
}
'''


@pytest.mark.parametrize("nblocks", [2, 8, 48])
def test_each_block_keeps_its_core_across_barriers(nblocks):
    f = kernel(KEEP, "keep", 1)
    out = to_dev(np.full(1 + nblocks, -1, np.int32))
    ok(launch(f, nblocks, [V(out)]))
    ok(lib().aclrtSynchronizeStream(None))
    b = np.arange(nblocks)
    assert (from_dev(out, np.zeros(1 + nblocks, np.int32))[1:] == b * 7 + (b + 100) * 1000).all()


def test_a_trap_after_a_barrier_names_its_block():
    f = kernel(KEEP, "keep", 1)
    for bad in (0, 29, 47):
        first = np.full(49, -1, np.int32)
        first[0] = bad
        out = to_dev(first)
        ok(launch(f, 48, [V(out)]))
        fails(lib().aclrtSynchronizeStream(None), RT_AICORE_EXCEPTION,
              "keep block %d/48: TestApi: after the barriers in block %d" % (bad, bad))
    ok(launch(f, 48, [V(to_dev(np.full(49, -1, np.int32)))]))  # the next launch works
    ok(lib().aclrtSynchronizeStream(None))


def test_printf_around_a_barrier(capfd):
    f = kernel(r'''
void k_entry(const unsigned char *args) {
    (void)args; long long b = __arc_core()->block_idx;
    __arc_printf("before %lld\n", b);
    __arc_sync_all(1);
    __arc_printf("after %lld\n", b);
}''', "talk", 1)
    ok(launch(f, 16, [V(0)]))
    ok(lib().aclrtSynchronizeStream(None))
    lines = capfd.readouterr().out.splitlines()
    assert sorted(lines) == sorted(["before %d" % i for i in range(16)] + ["after %d" % i for i in range(16)])
    # Every "before" precedes every "after": the barrier held.
    assert max(i for i, l in enumerate(lines) if l.startswith("before")) < \
        min(i for i, l in enumerate(lines) if l.startswith("after"))


# After a barrier, block b waits through GM for block b + 1 (a chain): the
# first block finishes last.  Fibers released by the barrier spin in turn,
# so the others only run on threads the stall watch adds.
CHAIN = r'''
void k_entry(const unsigned char *args) {
    volatile int *flag = *(volatile int **)args;
    volatile int *out = *(volatile int **)(args + 8);
    arc_core *c = __arc_core();
    long long b = c->block_idx, n = c->block_num;
    __arc_sync_all(1);
    int after = 0;
    if (b + 1 < n) {
        while (!__atomic_load_n(&flag[b + 1], __ATOMIC_ACQUIRE)) {}
        after = out[b + 1];
    }
    out[b] = after + 1;
    __atomic_store_n(&flag[b], 1, __ATOMIC_RELEASE);
    __arc_sync_all(1);
    out[n + b] = flag[0];
}
'''


@pytest.mark.parametrize("nblocks", [3, 24, 48])
def test_blocks_waiting_for_each_other_after_a_barrier_all_run(nblocks, monkeypatch):
    monkeypatch.setenv("ASCENDRTC_LAUNCH_TIMEOUT", "120")  # a regression fails instead of hanging
    f = kernel(CHAIN, "chain")
    flag, out = to_dev(np.zeros(nblocks, np.int32)), to_dev(np.zeros(2 * nblocks, np.int32))
    ok(launch(f, nblocks, [V(flag), V(out)]))
    ok(lib().aclrtSynchronizeStream(None))
    got = from_dev(out, np.zeros(2 * nblocks, np.int32))
    assert (got[:nblocks] == np.arange(nblocks, 0, -1)).all()
    assert (got[nblocks:] == 1).all()


THREADS = r'''
import ctypes, os, sys
import numpy as np
sys.path.insert(0, %r)
from helpers import rt_kernels as K
from helpers.rt import function, launch, lib, load, ok, stream, to_dev, from_dev
def tasks():
    return len(os.listdir("/proc/self/task"))
rc, b = load(K.sync_binary())
ok(rc)
f = function(b, "sync_all")
s = stream()
before = tasks()
counter, out = to_dev(np.zeros(1, np.int32)), to_dev(np.zeros(48, np.int32))
ok(launch(f, 48, [ctypes.c_void_p(counter), ctypes.c_void_p(out), ctypes.c_int32(1)], s))
ok(lib().aclrtSynchronizeStream(s))
assert (from_dev(out, np.zeros(48, np.int32)) == 48).all()
print(tasks() - before)
'''


@pytest.mark.parametrize("fibers,most,least", [("1", 4, 0), ("0", 99, 47), ("yes", 4, 0)])
def test_a_48_block_sync_all_launch_needs_no_thread_per_block(fibers, most, least):
    # ASCENDRTC_FIBERS=0 gives the old thread per block; a bad value warns and keeps fibers.
    env = dict(os.environ, ASCENDRTC_CORE_THREADS="2", ASCENDRTC_FIBERS=fibers)
    r = subprocess.run([sys.executable, "-c", THREADS % HERE], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    grew = int(r.stdout.split()[-1])
    assert least <= grew <= most, (fibers, grew)
    assert ("ASCENDRTC_FIBERS=yes is not 0" in r.stderr) == (fibers == "yes"), r.stderr


def test_a_real_deadlock_times_out_naming_every_block(monkeypatch):
    # Block 0 waits after the barrier for a flag nobody sets; the other 47
    # wait for it in the second SyncAll.
    monkeypatch.setenv("ASCENDRTC_LAUNCH_TIMEOUT", "0.5")
    f = kernel(r'''
void k_entry(const unsigned char *args) {
    volatile int *flag = *(volatile int **)args;
    __arc_sync_all(1);
    if (__arc_core()->block_idx == 0) while (!flag[0]) {}
    __arc_sync_all(1);
}''', "stuck", 1)
    ok(launch(f, 48, [V(to_dev(np.zeros(8, np.int32)))]))
    fails(lib().aclrtSynchronizeStream(None), 507014, "stuck (48 blocks) did not finish within its launch timeout",
                "core 0: block 0 running; cores 1-47: blocks 1-47 waiting in SyncAll (",
                "(1 running, 47 waiting in SyncAll, 0 blocks not started")
    monkeypatch.delenv("ASCENDRTC_LAUNCH_TIMEOUT")
    ok(launch(f, 48, [V(to_dev(np.ones(8, np.int32)))]))  # released at once: the next launch works
    ok(lib().aclrtSynchronizeStream(None))
