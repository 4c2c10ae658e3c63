"""The pipe race check with Mutex::Lock / Mutex::Unlock (dav-3510, opbase's
atvoss orders its buffers so): an Unlock on one pipe and the Lock on the
next order them; the same kernel without the Lock is reported."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev
from helpers.race import TBUF, error_mode, expect_race, render, run  # noqa: F401 (error_mode: the autouse fixture)

IN = "Mutex::Unlock<PIPE_MTE2>(0); Mutex::Lock<PIPE_V>(0);"
OUT = "Mutex::Unlock<PIPE_V>(1); Mutex::Lock<PIPE_MTE3>(1);"


def build(**subs):
    return dev.load(render(TBUF, **subs), "race.asc", arch="dav-3510").get_kernel("k")


def test_unlock_then_lock_orders_the_pipes():
    x, z = run(build(SYNC_IN=IN, SYNC_OUT=OUT))
    np.testing.assert_array_equal(z, x + x)


@pytest.mark.parametrize("sync_in, sync_out, pipes", [
    ("Mutex::Unlock<PIPE_MTE2>(0);", OUT, "MTE2_V"),            # V never locks
    (IN, "Mutex::Unlock<PIPE_V>(1); Mutex::Lock<PIPE_MTE3>(2);", "V_MTE3"),  # another mutex
])
def test_a_missing_lock_is_a_race(sync_in, sync_out, pipes):
    expect_race(build(SYNC_IN=sync_in, SYNC_OUT=sync_out), "read after write", pipes)


def test_a_mutex_id_past_31_is_refused():
    with pytest.raises(arc.LaunchError, match=r"AscendC::Mutex::Lock.*mutex_id 40 is out of range \[0, 31\]"):
        run(build(SYNC_IN="Mutex::Unlock<PIPE_MTE2>(0); Mutex::Lock<PIPE_V>(40);", SYNC_OUT=OUT))


def test_alloc_mutex_id_orders_the_pipes_and_is_bounded():
    # ids from AllocMutexID order the pipes like fixed ones; they are the
    # lowest free of 0-27 (the write-back shows 0, 1, then 0 again after a
    # release); a 29th, or releasing an id never taken, stops the kernel
    sync_in = ("MutexID ma = AllocMutexID(), mb = AllocMutexID(); Mutex::Unlock<PIPE_MTE2>(ma);"
               " Mutex::Lock<PIPE_V>(ma);")
    sync_out = ("Mutex::Unlock<PIPE_V>(mb); Mutex::Lock<PIPE_MTE3>(mb); ReleaseMutexID(ma);"
                " if (AllocMutexID() != 0 || mb != 1) __arc_trap(\"test\", \"ids %u %u\", (unsigned)ma, (unsigned)mb);")
    x, z = run(build(SYNC_IN=sync_in, SYNC_OUT=sync_out))
    np.testing.assert_array_equal(z, x + x)
    with pytest.raises(arc.LaunchError, match=r"AllocMutexID: all 28 MutexIDs \(0-27\) are taken"):
        run(build(SYNC_IN="for (int i = 0; i < 29; i++) AllocMutexID();" + IN, SYNC_OUT=OUT))
    with pytest.raises(arc.LaunchError, match=r"ReleaseMutexID: MutexID 5 was not taken by AllocMutexID"):
        run(build(SYNC_IN="ReleaseMutexID(5);" + IN, SYNC_OUT=OUT))


def test_a_lock_held_by_another_pipe_orders_it():
    # the Lock page: a locked mutex blocks the next pipe's lock until its
    # holder unlocks, even though that unlock comes later in the program
    # (asc-devkit's conv2d_forward_tensor_api: Lock M, Lock FIX, copy out,
    # Unlock FIX, Unlock M)
    sync_in = "Mutex::Lock<PIPE_MTE2>(0); Mutex::Lock<PIPE_V>(0);"
    sync_out = "Mutex::Unlock<PIPE_V>(0); Mutex::Unlock<PIPE_MTE2>(0);" + OUT
    x, z = run(build(SYNC_IN=sync_in, SYNC_OUT=sync_out))
    np.testing.assert_array_equal(z, x + x)
    # the holder's lock publishes only what its pipe did before it
    expect_race(build(SYNC_IN="Mutex::Lock<PIPE_V>(0); Mutex::Lock<PIPE_MTE2>(0);",
                      SYNC_OUT="Mutex::Unlock<PIPE_MTE2>(0); Mutex::Unlock<PIPE_V>(0);" + OUT),
                "read after write", "MTE2_V")
