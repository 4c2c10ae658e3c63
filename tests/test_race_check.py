"""The pipe race check: one kernel per race class of the NPU (a copy and
the vector op that reads it on different pipes with nothing ordering them,
and so on), each reported with both operations named and followed by a
clean launch; the same kernels with the sync restored run clean; the
modes (error, warn, off) per launch and by environment variable."""
import re

import numpy as np
import pytest

import ascendrtc as arc

from helpers.race import (HEAD, N, QUEUES, REUSE, REUSE_SYNC, TBUF, TILE_IN, XCORE, XCORE_OK, at, build,
                          error_mode, expect_race, run)  # noqa: F401 (error_mode: the autouse fixture)


def test_missing_mte2_to_v_wait():
    subs = dict(SYNC_IN="", SYNC_OUT="PipeBarrier<PIPE_ALL>();")
    msg = expect_race(build(TBUF, **subs), "read after write",
                      f"AscendC::DataCopy (PIPE_MTE2 at {at(TBUF, 'DataCopy(a, xg', **subs)}) wrote",
                      f"AscendC::Add (PIPE_V at {at(TBUF, 'Add(c, a, a', **subs)}) reads", "MTE2_V", "on UB")
    assert "[0, 1024)" in msg
    assert re.search(r"k block [01]/2: ", msg), msg   # both blocks race; the first to report stops the launch


def test_missing_v_to_mte3_wait():
    subs = dict(SYNC_IN="SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);", SYNC_OUT="")
    expect_race(build(TBUF, **subs), "read after write",
                f"AscendC::Add (PIPE_V at {at(TBUF, 'Add(c, a, a', **subs)}) wrote",
                f"AscendC::DataCopy (PIPE_MTE3 at {at(TBUF, 'DataCopy(zg, c', **subs)}) reads", "V_MTE3")


def test_ub_reuse_without_mte3_to_mte2_wait():
    expect_race(build(REUSE, REUSE=""), "write after read",
                f"AscendC::DataCopy (PIPE_MTE3 at {at(REUSE, 'DataCopy(zg[', REUSE='')}) read",
                f"AscendC::DataCopy (PIPE_MTE2 at {at(REUSE, 'DataCopy(a, xg[', REUSE='')}) writes", "MTE3_MTE2")


def test_free_tensor_while_the_store_is_pending():
    subs = dict(FREE_EARLY="outQ.FreeTensor(d);", FREE_LATE="")
    expect_race(build(QUEUES, **subs), "write after read",
                f"AscendC::DataCopy (PIPE_MTE3 at {at(QUEUES, 'DataCopy(zg[', **subs)}) read",
                f"AscendC::Add (PIPE_V at {at(QUEUES, 'Add(c, b, b', **subs)}) reads and writes")


def run_x(kern, blocks=4, **kw):
    x = np.arange(blocks * N, dtype=np.float32)
    z, y = np.zeros_like(x), np.zeros_like(x)
    kern(x, z, y, block_dim=blocks, **kw)
    arc.synchronize()
    return x, z, y


def test_cross_core_gm_without_sync_all():
    subs = dict(XCORE_OK, XSYNC="")
    k = build(XCORE, **subs)
    with pytest.raises(arc.LaunchError) as e:
        run_x(k)
    msg = str(e.value)
    store, load = at(XCORE, "DataCopy(zg[b * 256]", **subs), at(XCORE, "DataCopy(a, zg[", **subs)
    for w in ("data race (read/write between cores) on GM", "kernel parameter 1 'z'", "SyncAll",
              f"AscendC::DataCopy (PIPE_MTE3 at {store}) in block", f"AscendC::DataCopy (PIPE_MTE2 at {load}) in block",
              "writes bytes [", "reads bytes ["):
        assert w in msg, (w, msg)
    assert e.value.file == "race.asc" and e.value.line in (int(store.split(":")[1]), int(load.split(":")[1]))


def test_cross_core_gm_write_write_is_a_race_atomic_accumulation_is_not():
    subs = dict(XCORE_OK, OUT="0")   # every block stores onto y[0:256)
    k = build(XCORE, **subs)
    with pytest.raises(arc.LaunchError, match=r"data race \(write/write between cores\) on GM.*parameter 2 'y'"):
        run_x(k)
    k = build(XCORE, **dict(subs, ACC="SetAtomicAdd<float>();"))
    x, z, y = run_x(k)                # the same stores under SetAtomicAdd: no race
    want = np.roll(x, -N).reshape(4, N).sum(axis=0)
    assert np.allclose(y[:N], want) and not y[N:].any()


# Each block zeroes its range of y, then atomically adds a 512-float tile at
# its start: the tile's upper half (FILL) lands on the next block's range.
SPILL = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    const int b = GetBlockIdx();
    GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    yg.SetGlobalBuffer((__gm__ float *)y);
    GlobalTensor<float> mine = yg[b * 256];
    InitGlobalMemory(mine, 256, 0.0f);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 512 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    Duplicate(a, FILL, 512);
    PipeBarrier<PIPE_ALL>();
    DataCopy(a, xg[b * 256], 256);
    PipeBarrier<PIPE_ALL>();
    SetAtomicAdd<float>();
    DataCopy(yg[b * 256], a, 512);
    SetAtomicNone();
}
'''


def test_an_atomic_add_of_zeros_races_with_nothing():
    x, y = np.arange(4 * N, dtype=np.float32) + 1, np.zeros(5 * N, np.float32)
    build(SPILL, FILL="0.0f")(x, y, block_dim=4)     # the spill adds zeros: order does not matter
    arc.synchronize()
    assert np.array_equal(y[:4 * N], x)
    with pytest.raises(arc.LaunchError, match=r"read/write between cores|write/write between cores"):
        build(SPILL, FILL="1.0f")(x, np.zeros(5 * N, np.float32), block_dim=4)   # it adds ones: racy
        arc.synchronize()


# The kernel's own loads and stores through raw pointers into UB run on the
# scalar unit (PIPE_S); the compiler's auto-sync covers GetValue/SetValue,
# never raw pointers.  z = x + x computed through the pointers; RAW_IN orders
# the copy in before the scalar loads, RAW_OUT the first copy out before the
# scalar stores that reuse its buffer.
RAWUB = HEAD + TILE_IN + r'''
    RAW_IN
    __ubuf__ float *pa = (__ubuf__ float *)a.GetPhyAddr();
    float *pc = (float *)c.GetPhyAddr();
    for (int i = 0; i < 128; i++) pc[i] = pa[i] + pa[i];
    SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
    DataCopy(zg, c, 128);
    RAW_OUT
    for (int i = 128; i < 256; i++) pc[i - 128] = pa[i] + pa[i];
    SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
    DataCopy(zg[128], c, 128);
}
'''
RAWUB_OK = dict(RAW_IN="SetFlag<HardEvent::MTE2_S>(0); WaitFlag<HardEvent::MTE2_S>(0);",
                RAW_OUT="SetFlag<HardEvent::MTE3_S>(0); WaitFlag<HardEvent::MTE3_S>(0);")


def test_raw_pointer_ub_read_without_mte2_to_s_wait():
    subs = dict(RAWUB_OK, RAW_IN="")
    msg = expect_race(build(RAWUB, **subs), "read after write",
                      f"AscendC::DataCopy (PIPE_MTE2 at {at(RAWUB, 'DataCopy(a, xg', **subs)}) wrote",
                      f"a load through a pointer (PIPE_S at {at(RAWUB, 'pc[i] = pa[i]', **subs)}) reads",
                      "MTE2_S", "on UB", "never for raw pointers")
    assert "[0, 1024)" in msg


def test_raw_pointer_ub_write_while_the_store_is_pending():
    subs = dict(RAWUB_OK, RAW_OUT="")
    expect_race(build(RAWUB, **subs), "write after read",
                f"AscendC::DataCopy (PIPE_MTE3 at {at(RAWUB, 'DataCopy(zg, c', **subs)}) read",
                f"a store through a pointer (PIPE_S at {at(RAWUB, 'pc[i - 128]', **subs)}) writes", "MTE3_S")


@pytest.mark.parametrize("subs", [
    RAWUB_OK,
    dict(RAW_IN="PipeBarrier<PIPE_ALL>();", RAW_OUT="PipeBarrier<PIPE_ALL>();"),
    dict(RAW_IN="set_flag(PIPE_MTE2, PIPE_S, 1); wait_flag(PIPE_MTE2, PIPE_S, 1);",
         RAW_OUT="set_flag(PIPE_MTE3, PIPE_S, 1); wait_flag(PIPE_MTE3, PIPE_S, 1);"),
    # GetValue/SetValue carry the compiler's auto-sync: a scalar access
    # through a pointer after one is ordered too
    dict(RAW_IN="(void)a.GetValue(0);", RAW_OUT="c.SetValue(0, 0.0f);"),
], ids=["flags", "barriers", "raw-intrinsics", "auto-sync"])
def test_raw_pointer_ub_synced_runs_clean(subs):
    x, z = run(build(RAWUB, **subs))
    assert np.array_equal(z, x + x)


# Cross-core GM through the scalar unit: each block doubles its tile of x
# into z, then copies its neighbour's tile of z into y; GSYNC orders the
# stores before the loads.  WRITE/READ are how the scalar code reaches z:
# a raw __gm__ pointer, GlobalTensor::SetValue/GetValue or operator().
GMRAW = HEAD + r'''
#define WRITE(i, v) WRITE_FORM
#define READ(i) READ_FORM
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR y)
{
    const int b = GetBlockIdx(), n = GetBlockNum();
    __gm__ float *xp = (__gm__ float *)x, *zp = (__gm__ float *)z, *yp = (__gm__ float *)y;
    GlobalTensor<float> zg;
    zg.SetGlobalBuffer(zp, 256 * n);
    for (int i = 0; i < 256; i++) WRITE(b * 256 + i, xp[b * 256 + i] * 2.0f);
    GSYNC
    for (int i = 0; i < 256; i++) yp[b * 256 + i] = READ(((b + 1) % n) * 256 + i);
}
'''
GM_HOW = {"pointer": dict(WRITE_FORM="zp[i] = v", READ_FORM="zp[i]"),
          "GetValue-SetValue": dict(WRITE_FORM="zg.SetValue(i, v)", READ_FORM="zg.GetValue(i)"),
          "operator()": dict(WRITE_FORM="zg(i) = v", READ_FORM="zg(i)")}
# scalar GM writes sit in the core's data cache until DataCacheCleanAndInvalid
GM_SYNC = "DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(zg); SyncAll();"


@pytest.mark.parametrize("how", list(GM_HOW))
def test_cross_core_gm_scalar_without_sync_all(how):
    subs = dict(GM_HOW[how], GSYNC="")
    with pytest.raises(arc.LaunchError) as e:
        run_x(build(GMRAW, **subs))
    msg = str(e.value)
    store, load = at(GMRAW, "WRITE(b * 256", **subs), at(GMRAW, "READ(((b", **subs)
    for w in ("data race (read/write between cores) on GM", "kernel parameter 1 'z'", "PIPE_S at " + store,
              "PIPE_S at " + load, "SyncAll"):
        assert w in msg, (w, msg)
    x, z, y = run_x(build(GMRAW, **dict(subs, GSYNC=GM_SYNC)))    # the synced twin: clean
    assert np.array_equal(z, 2 * x) and np.array_equal(y, np.roll(2 * x, -N))


@pytest.mark.parametrize("how", ["pointer", "GetValue-SetValue"])
def test_scalar_gm_writes_need_a_dcci_before_the_sync_all(how):
    subs = dict(GM_HOW[how], GSYNC="SyncAll();")   # ordered, but the writes may still sit in the data cache
    with pytest.raises(arc.LaunchError) as e:
        run_x(build(GMRAW, **subs))
    msg = str(e.value)
    for w in ("data race (read/write between cores) on GM", "PIPE_S at " + at(GMRAW, "WRITE(b * 256", **subs),
              "stays in its core's data cache until DataCacheCleanAndInvalid"):
        assert w in msg, (w, msg)


@pytest.mark.parametrize("src, subs", [
    (TBUF, dict(SYNC_IN="PipeBarrier<PIPE_ALL>();", SYNC_OUT="PipeBarrier<PIPE_ALL>();")),
    (TBUF, dict(SYNC_IN="SetFlag<HardEvent::MTE2_V>(1); WaitFlag<HardEvent::MTE2_V>(1);",
                SYNC_OUT="SetFlag<HardEvent::V_MTE3>(2); WaitFlag<HardEvent::V_MTE3>(2);")),
    (TBUF, dict(SYNC_IN="set_flag(PIPE_MTE2, PIPE_V, 0); wait_flag(PIPE_MTE2, PIPE_V, 0);",
                SYNC_OUT="pipe_barrier(PIPE_ALL);")),
    (REUSE, dict(REUSE=REUSE_SYNC)),
    (QUEUES, dict(FREE_EARLY="", FREE_LATE="outQ.FreeTensor(d);")),
    (XCORE, XCORE_OK),
], ids=["barriers", "flags", "raw-intrinsics", "reuse-synced", "queues", "cross-core-synced"])
def test_the_same_kernels_with_the_sync_restored_run_clean(src, subs):
    k = build(src, **subs)
    if src is XCORE:    # y = the neighbour's tile of x, read back through z after SyncAll
        x, z, y = run_x(k)
        assert np.array_equal(z, x) and np.array_equal(y, np.roll(x, -N))
        return
    x, z = run(k)
    want = x + x if src is not REUSE else x + 1
    assert np.array_equal(z, want)


def test_warn_mode_reports_and_computes(capfd, monkeypatch):
    k = build(TBUF, SYNC_IN="", SYNC_OUT="PipeBarrier<PIPE_ALL>();")
    x, z = run(k, race_check="warn")
    assert np.array_equal(z, x + x)       # the simulator runs pipes in order: the result is the in-order one
    err = capfd.readouterr().err
    assert "warning" in err and "data race (read after write)" in err and "block 1" in err
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "warn")   # the variable, for a 48-block launch
    x, z = run(k, blocks=48)
    assert np.array_equal(z, x + x)
    err = capfd.readouterr().err
    assert 1 <= err.count("data race") <= 8, err  # bounded, whatever the block count


def test_off_mode_per_launch_and_by_environment(monkeypatch, capfd):
    k = build(TBUF, SYNC_IN="", SYNC_OUT="")
    x, z = run(k, race_check="off")
    assert np.array_equal(z, x + x)
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "off")
    x, z = run(k)
    assert np.array_equal(z, x + x)
    assert "data race" not in capfd.readouterr().err
    expect_race_env = run   # the per-launch option wins over the variable
    with pytest.raises(arc.LaunchError, match="data race"):
        expect_race_env(k, race_check="error")


def test_bad_modes_are_named(monkeypatch):
    k = build(TBUF, SYNC_IN="PipeBarrier<PIPE_ALL>();", SYNC_OUT="PipeBarrier<PIPE_ALL>();")
    with pytest.raises(ValueError, match="race_check must be 'error', 'warn' or 'off'"):
        run(k, race_check="loud")
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "sometimes")
    with pytest.raises(arc.AclError, match="ASCENDRTC_RACE_CHECK=sometimes: expected error"):
        run(k)



# ---- within one pipe (msSanitizer's within-pipe analysis) ----

# Two copies into overlapping UB on MTE2: the second may start before the
# first has finished writing, so the bytes both write end up either way.
SAME_MTE2 = HEAD + TILE_IN + r'''
    SAME_SYNC
    DataCopy(a[64], xg[64], 64);
    PipeBarrier<PIPE_ALL>();
    Add(c, a, a, 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg, c, 256);
}
'''


def test_same_pipe_overlapping_mte2_copies_without_pipe_barrier():
    subs = dict(SAME_SYNC="")
    msg = expect_race(build(SAME_MTE2, **subs), "write after write within PIPE_MTE2", "on UB",
                      f"AscendC::DataCopy (PIPE_MTE2 at {at(SAME_MTE2, 'DataCopy(a, xg', **subs)}) wrote",
                      f"AscendC::DataCopy (PIPE_MTE2 at {at(SAME_MTE2, 'DataCopy(a[64]', **subs)}) writes",
                      "PipeBarrier<PIPE_MTE2>()")
    assert "[256, 512)" in msg
    for sync in ("PipeBarrier<PIPE_MTE2>();", "pipe_barrier(PIPE_MTE2);", "PipeBarrier<PIPE_ALL>();"):
        x, z = run(build(SAME_MTE2, SAME_SYNC=sync))   # the barrier restored: clean
        assert np.array_equal(z, x + x)


def test_same_pipe_flags_that_cover_the_earlier_copy_order_it():
    # MTE2 -> V -> MTE2 flags: the vector op saw the first copy finish, so the
    # second copy (after waiting for it) cannot overtake it
    sync = ("SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0); "
            "SetFlag<HardEvent::V_MTE2>(0); WaitFlag<HardEvent::V_MTE2>(0);")
    x, z = run(build(SAME_MTE2, SAME_SYNC=sync))
    assert np.array_equal(z, x + x)
