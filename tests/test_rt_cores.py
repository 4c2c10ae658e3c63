"""Simulated AI cores: per-block state, UB/L1 arenas per arch, concurrency
(SyncAll over 48 vector cores), waves, traps and their reporting, printf
and IEEE subnormals.  Drives libascendcl.so through ctypes with hand-made
kernel binaries (helpers.rt_kernels)."""
import ctypes

import numpy as np
import pytest

from helpers import rt_kernels as K
from helpers.threads import run_in_threads
from helpers.rt import (MAGIC_CUBE, MAGIC_VECTOR, RT_AICORE_EXCEPTION, build_binary, fails, from_dev, function,
                        gm, launch, lib, load, malloc, ok, stream, to_dev)

V = ctypes.c_void_p


def loaded(blob, magic=None):
    rc, b = load(blob, magic)
    ok(rc)
    return b


def run_info(arch="dav-2201", ktype=0, magic=None, nblocks=4):
    f = function(loaded(K.info_binary(ktype, arch), magic), "core_info")
    out = malloc(16 * 8 * nblocks)
    ok(launch(f, nblocks, [V(out)]))
    ok(lib().aclrtSynchronizeStream(None))
    return from_dev(out, np.zeros((nblocks, 16), np.int64)), f, out


@pytest.mark.parametrize("arch,ub", [("dav-2201", 192 * 1024), ("dav-3510", 256 * 1024)])
def test_core_state_per_block(arch, ub):
    info, _, _ = run_info(arch, nblocks=5)
    assert list(info[:, 0]) == [0, 1, 2, 3, 4]
    assert set(info[:, 1]) == {5}
    assert set(info[:, 2]) == {ub}
    assert set(info[:, 3]) == {512 * 1024}
    assert set(info[:, 4]) == {0} and set(info[:, 5]) == {0}      # 32-byte aligned arenas
    assert set(info[:, 7]) == {len("core_info")}
    assert set(info[:, 8]) == {int(arch[4:])}
    assert set(info[:, 10]) == {0} and set(info[:, 11]) == {1}


def test_dev_slots_are_zeroed_between_launches():
    info, f, out = run_info(nblocks=3)
    ok(launch(f, 3, [V(out)]))          # the first launch left 0x55 in every slot
    ok(lib().aclrtSynchronizeStream(None))
    again = from_dev(out, np.zeros((3, 16), np.int64))
    assert set(again[:, 6]) == {0}


def test_core_type_follows_kernel_type_and_magic():
    assert set(run_info(ktype=0)[0][:, 9]) == {0}                 # AIV only
    assert set(run_info(ktype=1)[0][:, 9]) == {1}                 # AIC only
    assert set(run_info(ktype=0, magic=MAGIC_CUBE)[0][:, 9]) == {1}
    assert set(run_info(ktype=1, magic=MAGIC_VECTOR)[0][:, 9]) == {0}


def run_sync(nblocks, rounds=1, ktype=0, arch="dav-2201", s=None):
    f = function(loaded(K.sync_binary(ktype, arch)), "sync_all")
    counter = to_dev(np.zeros(1, np.int32))
    out = to_dev(np.zeros(rounds * nblocks, np.int32))
    ok(launch(f, nblocks, [V(counter), V(out), ctypes.c_int32(rounds)], s))
    return f, counter, out


def test_sync_all_across_48_vector_cores():
    _, _, out = run_sync(48, rounds=3)
    ok(lib().aclrtSynchronizeStream(None))
    seen = from_dev(out, np.zeros((3, 48), np.int32))
    # After round r's barrier every block has added its 1: 48 * (r + 1).
    assert (seen == (np.arange(1, 4) * 48)[:, None]).all()


def test_sync_all_64_cores_on_dav_3510():
    _, _, out = run_sync(64, arch="dav-3510")
    ok(lib().aclrtSynchronizeStream(None))
    assert (from_dev(out, np.zeros(64, np.int32)) == 64).all()


@pytest.mark.parametrize("nblocks,ktype,limit,kind", [(49, 0, 48, "vector"), (25, 1, 24, "cube")])
def test_sync_all_beyond_the_cores_traps_instead_of_hanging(nblocks, ktype, limit, kind):
    run_sync(nblocks, ktype=ktype)
    msg = fails(lib().aclrtSynchronizeStream(None), RT_AICORE_EXCEPTION, "SyncAll", f"{nblocks} blocks",
                f"only {limit} {kind} cores")
    assert "sync_all block " in msg
    ok(lib().aclrtSynchronizeStream(None))   # reported once; the stream works again


def test_more_blocks_than_cores_run_in_waves():
    blob = build_binary(r'''
void k_entry(const unsigned char *args) {
    int *out = *(int **)args; arc_core *c = __arc_core();
    out[c->block_idx] = (int)(c->block_idx * 3 + c->block_num);
}''', [dict(name="waves", params=gm("out"))])
    f = function(loaded(blob), "waves")
    n = 1000
    out = to_dev(np.zeros(n, np.int32))
    ok(launch(f, n, [V(out)]))
    ok(lib().aclrtSynchronizeStream(None))
    assert (from_dev(out, np.zeros(n, np.int32)) == np.arange(n) * 3 + n).all()


def test_trap_reports_block_api_and_message_then_stream_recovers():
    f = function(loaded(K.trap_binary()), "trapper")
    out = to_dev(np.zeros(8, np.int32))
    s = stream()
    ok(launch(f, 8, [V(out), ctypes.c_int32(3), ctypes.c_int32(0)], s))
    msg = fails(lib().aclrtSynchronizeStream(s), RT_AICORE_EXCEPTION, "trapper block 3/8: TestApi: bad value 42 in block 3")
    assert aclmsg_names_stream(msg)
    ok(lib().aclrtSynchronizeStream(s))
    ok(launch(f, 8, [V(out), ctypes.c_int32(-1), ctypes.c_int32(0)], s))
    ok(lib().aclrtSynchronizeStream(s))
    assert (from_dev(out, np.zeros(8, np.int32)) == 1).all()
    ok(lib().aclrtDestroyStream(s))


def aclmsg_names_stream(msg):
    return msg.startswith("aclrtSynchronizeStream: ") and "stream 0x" in msg


def test_trap_releases_blocks_waiting_in_sync_all():
    f = function(loaded(K.trap_binary()), "trapper")
    out = to_dev(np.zeros(48, np.int32))
    ok(launch(f, 48, [V(out), ctypes.c_int32(47), ctypes.c_int32(1)]))
    fails(lib().aclrtSynchronizeStream(None), RT_AICORE_EXCEPTION, "block 47/48", "TestApi")
    # No block passed the barrier: the trapped one never arrived.
    assert (from_dev(out, np.zeros(48, np.int32)) == 0).all()


def test_sync_all_skipped_by_some_blocks_is_reported():
    blob = build_binary(r'''
void k_entry(const unsigned char *args) {
    (void)args; if (__arc_core()->block_idx != 0) __arc_sync_all(1);
}''', [dict(name="diverge", params=gm("unused"))])
    f = function(loaded(blob), "diverge")
    ok(launch(f, 6, [V(0)]))
    fails(lib().aclrtSynchronizeStream(None), RT_AICORE_EXCEPTION, "SyncAll", "5 of 6 blocks")


def test_trap_is_reported_by_device_sync_too():
    f = function(loaded(K.trap_binary()), "trapper")
    out = to_dev(np.zeros(4, np.int32))
    s = stream()
    ok(launch(f, 4, [V(out), ctypes.c_int32(0), ctypes.c_int32(0)], s))
    fails(lib().aclrtSynchronizeDevice(), RT_AICORE_EXCEPTION, "trapper block 0/4")
    ok(lib().aclrtSynchronizeDevice())
    ok(lib().aclrtDestroyStream(s))


def test_kernel_printf_reaches_stdout(capfd):
    blob = build_binary(r'''
void k_entry(const unsigned char *args) {
    (void)args; __arc_printf("hello from block %lld of %lld\n", __arc_core()->block_idx, __arc_core()->block_num);
}''', [dict(name="hello", params=gm("unused"))])
    f = function(loaded(blob), "hello")
    ok(launch(f, 3, [V(0)]))
    ok(lib().aclrtSynchronizeStream(None))
    lines = sorted(capfd.readouterr().out.splitlines())
    assert lines == [f"hello from block {i} of 3" for i in range(3)]


def test_float_subnormals_are_not_flushed():
    # The seed adds the integers 1 and 2 stored in float buffers.
    x = np.full(256, 1, np.uint32).view(np.float32)
    y = np.full(256, 2, np.uint32).view(np.float32)
    f = function(loaded(K.add_binary()), "add_custom")
    dx, dy, dz = to_dev(x), to_dev(y), malloc(1024)
    ok(launch(f, 8, [V(dx), V(dy), V(dz), ctypes.c_int32(32)]))
    ok(lib().aclrtSynchronizeStream(None))
    assert (from_dev(dz, x).view(np.uint32) == 3).all()


def test_two_streams_running_sync_all_kernels_at_once_do_not_deadlock():
    results = []

    def worker(_):
        s = stream()
        _, _, out = run_sync(48, rounds=2, s=s)
        rc = lib().aclrtSynchronizeStream(s)
        results.append((rc, from_dev(out, np.zeros((2, 48), np.int32))))
        ok(lib().aclrtDestroyStream(s))

    run_in_threads(worker, 3)
    assert len(results) == 3
    for rc, seen in results:
        assert rc == 0
        assert (seen == np.array([[48], [96]])).all()
