"""A block returning while another enters SyncAll (rt/cores/core_pool.c's
block_exit, core_syncall.c's barrier_arrive).  A returning block takes no
lock when nobody waits; the waiter and the returning block each count
themselves before reading the other's count, so one of them always sees
that the barrier can never open.  Here the two meet at nearly the same
moment, launch after launch: every launch must fail naming SyncAll, none
may hang (a missed report waits for the launch timeout).  With the order
broken in block_exit (the waiters read before the return is counted),
1 to 21 of 1000 launches hung in a thread per block and 1 to 5 of 1000
with fibers (2 CPUs, load 1 to 9): a race, so 3000 launches of each catch
such a break most runs, not every run."""
import ctypes
import os
import subprocess
import sys

import numpy as np
from helpers.rt import RT_AICORE_EXCEPTION, build_binary, err, function, gm, launch, lib, load, ok, to_dev

HERE = os.path.dirname(os.path.abspath(__file__))

# The blocks meet (each counts itself in and spins until all have), then
# block `leaver` returns and every other block calls SyncAll, one side
# after a short spin: the launches sweep the spin so that the return and
# the arrival land at the same moment in some of them.
SRC = r'''
void k_entry(const unsigned char *args) {
    long long *p = *(long long **)args, leaver = p[0], delay = p[2], n = __arc_core()->block_num;
    int leaves = __arc_core()->block_idx == leaver;
    __atomic_fetch_add(&p[1], 1, __ATOMIC_SEQ_CST);
    while (__atomic_load_n(&p[1], __ATOMIC_SEQ_CST) < n) {}
    for (volatile long long i = 0; i < (leaves ? delay : -delay); i++) {}
    if (!leaves) __arc_sync_all(1);
}'''


def kernel():
    rc, b = load(build_binary(SRC, [dict(name="meet", params=gm("leaver"))]))
    ok(rc)
    return function(b, "meet")


def meet_many(launches, nblocks):
    """Launch `launches` times, each waited for; every one must fail naming
    SyncAll (stops at the first that does not)."""
    f = kernel()
    for i in range(launches):
        args = to_dev(np.array([i % nblocks, 0, i % 97 * 4 - 192], np.int64))  # leaver, meeting, spin
        ok(launch(f, nblocks, [ctypes.c_void_p(args)]))
        rc, msg = lib().aclrtSynchronizeStream(None), err()
        assert rc == RT_AICORE_EXCEPTION and "timeout" not in msg, (i, msg)
        assert "SyncAll" in msg and "returned without reaching it" in msg, (i, msg)
        assert f"{nblocks - 1} of {nblocks} blocks" in msg, (i, msg)


def test_return_and_sync_all_at_once_is_always_reported(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_LAUNCH_TIMEOUT", "5")  # a missed report fails instead of hanging
    meet_many(3000, 2)  # two blocks: a fiber each, on two threads


THREADS = r'''
import sys
sys.path.insert(0, %r)
import test_rt_block_exit as t
t.meet_many(3000, 2)
print("ok")
'''


def test_same_with_a_thread_per_block():
    # ASCENDRTC_FIBERS=0: the waiter sleeps on a condition variable instead of parking its fiber
    env = dict(os.environ, ASCENDRTC_FIBERS="0", ASCENDRTC_LAUNCH_TIMEOUT="5")
    r = subprocess.run([sys.executable, "-c", THREADS % HERE], env=env, capture_output=True, text=True,
                       timeout=600, cwd=HERE)
    assert r.returncode == 0 and r.stdout.strip().endswith("ok"), r.stdout[-2000:] + r.stderr[-2000:]
