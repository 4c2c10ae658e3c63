"""The pipe race check: one kernel per race class of the NPU (a copy and
the vector op that reads it on different pipes with nothing ordering them,
and so on), each reported with both operations named and followed by a
clean launch; the same kernels with the sync restored run clean; the
modes (error, warn, off) per launch and by environment variable."""
import re

import numpy as np
import pytest

import ascendrtc as arc

N = 256   # floats per block

HEAD = r'''
#include "kernel_operator.h"
using namespace AscendC;
'''

# Each block's 256 floats of x copied into a (the first half of one TBuf; c
# is the second half), as the UB kernels below begin.
TILE_IN = r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 256 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>(), c = a[256];
    DataCopy(a, xg, 256);
'''

# x -> UB, z = x + x, z -> GM through one TBuf; SYNC_IN / SYNC_OUT are the
# syncs between the copy in and the add, and the add and the copy out.
TBUF = HEAD + TILE_IN + r'''
    SYNC_IN
    Add(c, a, a, 256);
    SYNC_OUT
    DataCopy(zg, c, 256);
}
'''

# Tiles of x through one UB buffer, reused each iteration: the next copy in
# must wait for the previous copy out (MTE3 -> MTE2), REUSE says how.
REUSE = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256, 256);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    for (int t = 0; t < 4; t++) {
        REUSE
        DataCopy(a, xg[t * 64], 64);
        SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);
        Adds(a, a, 1.0f, 64);
        SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
        DataCopy(zg[t * 64], a, 64);
    }
}
'''
REUSE_SYNC = "if (t) { SetFlag<HardEvent::MTE3_MTE2>(0); WaitFlag<HardEvent::MTE3_MTE2>(0); }"

# The queue pipeline, with the output tensor freed FREE_AT: after its copy
# out (right) or before it (the store is still pending when the next
# iteration's Add writes the buffer).
QUEUES = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z)
{
    GlobalTensor<float> xg, zg;
    xg.SetGlobalBuffer((__gm__ float *)x + GetBlockIdx() * 256, 256);
    zg.SetGlobalBuffer((__gm__ float *)z + GetBlockIdx() * 256, 256);
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> inQ;
    TQue<QuePosition::VECOUT, 1> outQ;
    pipe.InitBuffer(inQ, 1, 64 * sizeof(float));
    pipe.InitBuffer(outQ, 1, 64 * sizeof(float));
    for (int t = 0; t < 4; t++) {
        LocalTensor<float> a = inQ.AllocTensor<float>();
        DataCopy(a, xg[t * 64], 64);
        inQ.EnQue(a);
        LocalTensor<float> b = inQ.DeQue<float>();
        LocalTensor<float> c = outQ.AllocTensor<float>();
        Add(c, b, b, 64);
        outQ.EnQue(c);
        inQ.FreeTensor(b);
        LocalTensor<float> d = outQ.DeQue<float>();
        FREE_EARLY
        DataCopy(zg[t * 64], d, 64);
        FREE_LATE
    }
}
'''


# Cross-core GM: each block stores its tile of x to z, then reads its
# neighbour's tile of z back; XSYNC orders the stores before the loads
# (SyncAll) or not.  OUT is how the tile reaches y: a plain store (each
# block its own range), or every block onto the same range (ACC: with or
# without SetAtomicAdd).
XCORE = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR y)
{
    const int b = GetBlockIdx(), n = GetBlockNum();
    GlobalTensor<float> xg, zg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, 256 * n);
    zg.SetGlobalBuffer((__gm__ float *)z, 256 * n);
    yg.SetGlobalBuffer((__gm__ float *)y, 256 * n);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 256 * sizeof(float));
    LocalTensor<float> a = buf.Get<float>();
    DataCopy(a, xg[b * 256], 256);
    PipeBarrier<PIPE_ALL>();
    DataCopy(zg[b * 256], a, 256);
    PipeBarrier<PIPE_ALL>();   /* orders this core's pipes, not the cores */
    XSYNC
    DataCopy(a, zg[((b + 1) % n) * 256], 256);
    PipeBarrier<PIPE_ALL>();
    ACC
    DataCopy(yg[OUT], a, 256);
    SetAtomicNone();
}
'''
XCORE_OK = dict(XSYNC="SyncAll();", ACC="", OUT="b * 256")

# The cube pipes: ND -> NZ into L1 (MTE2), L1 -> L0A/L0B (MTE1), Mmad (M),
# Fixpipe L0C -> GM (FIX); CUBE_SYNC orders the loads before the Mmad.  A is
# M_ROWS x 32 (M_ROWS / 8 fractals of L0A), B and the product's columns 32.
CUBE_M = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    GlobalTensor<half> g;
    GlobalTensor<float> o;
    g.SetGlobalBuffer((__gm__ half *)x);
    o.SetGlobalBuffer((__gm__ float *)y);
    TPipe pipe;
    TBuf<TPosition::A1> a1;
    TBuf<TPosition::A2> a2;
    TBuf<TPosition::B2> b2;
    TBuf<TPosition::CO1> c1;
    pipe.InitBuffer(a1, L_BYTES); pipe.InitBuffer(a2, L_BYTES); pipe.InitBuffer(b2, L_BYTES); pipe.InitBuffer(c1, C_BYTES);
    LocalTensor<half> la1 = a1.Get<half>(), la2 = a2.Get<half>(), lb2 = b2.Get<half>();
    LocalTensor<float> lc = c1.Get<float>();
    DataCopy(la1, g, Nd2NzParams(1, M_ROWS, 32, 0, 32, M_ROWS, 1, 0));
    PipeBarrier<PIPE_ALL>();
    LoadData(la2, la1, LoadData2DParams(0, M_FRACS, 1, 0, 0, false, 0));
    LoadData(lb2, la1, LoadData2DParams(0, 4, 1, 0, 0, false, 0));
    CUBE_SYNC
    MmadParams p;
    p.m = M_ROWS; p.n = 32; p.k = 32;
    Mmad(lc, la2, lb2, p);
    PipeBarrier<PIPE_ALL>();
    FixpipeParamsV220 f(32, M_ROWS, M_ROWS, 32, false);
    Fixpipe(o, lc, f);
}
'''


def cube(m):
    """CUBE_M for an m x 32 A."""
    return (CUBE_M.replace("M_ROWS", str(m)).replace("M_FRACS", str(m // 8))
            .replace("L_BYTES", "4096" if m <= 32 else "8192").replace("C_BYTES", "4096" if m <= 32 else "16384"))


def accumulating(src):
    """src with a second Mmad accumulating onto the first, M_SYNC between."""
    return src.replace("    Mmad(lc, la2, lb2, p);\n",
                       "    Mmad(lc, la2, lb2, p);\n    M_SYNC\n    p.cmatrixInitVal = false;\n"
                       "    Mmad(lc, la2, lb2, p);   // accumulate\n")


CUBE = cube(32)


def render(src, **subs):
    for k, v in subs.items():
        src = src.replace(k, v)
    return src


def build(src, **subs):
    return arc.Program(render(src, **subs), "race.asc").compile(["--npu-arch=dav-2201"]).load().get_kernel("k")


def at(src, needle, **subs):
    """'race.asc:N', N the line of the kernel source that holds needle."""
    lines = render(src, **subs).splitlines()
    return "race.asc:%d" % next(i for i, ln in enumerate(lines, 1) if needle in ln)


def data(blocks=2):
    x = np.arange(blocks * N, dtype=np.float32)
    return x, np.zeros_like(x)


def run(kern, blocks=2, **kw):
    x, z = data(blocks)
    kern(x, z, block_dim=blocks, **kw)
    arc.synchronize()
    return x, z


def expect_race(kern, *words, runner=None):
    with pytest.raises(arc.LaunchError) as e:
        (runner or run)(kern)
    msg = str(e.value)
    assert "data race" in msg, msg
    for w in words:
        assert w in msg, (w, msg)
    return msg


def good_launch():
    k = build(TBUF, SYNC_IN="PipeBarrier<PIPE_ALL>();", SYNC_OUT="PipeBarrier<PIPE_ALL>();")
    x, z = run(k)
    assert np.array_equal(z, x + x)


@pytest.fixture(autouse=True)
def error_mode(monkeypatch):
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    yield
    monkeypatch.setenv("ASCENDRTC_RACE_CHECK", "error")
    good_launch()   # every case is followed by a clean launch in the same process


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


def test_cube_pipes_mte1_to_m():
    k = build(CUBE, CUBE_SYNC="")
    x, y = np.ones(32 * 32, np.float16), np.zeros(32 * 32, np.float32)
    with pytest.raises(arc.LaunchError) as e:
        k(x, y, block_dim=1)
        arc.synchronize()
    msg = str(e.value)
    for w in ("data race (read after write) on L0A", "MTE1_M",
              f"AscendC::LoadData(LoadData2DParams) (PIPE_MTE1 at {at(CUBE, 'LoadData(la2', CUBE_SYNC='')}) wrote",
              f"AscendC::Mmad (PIPE_M at {at(CUBE, 'Mmad(lc', CUBE_SYNC='')}) reads"):
        assert w in msg, (w, msg)
    k = build(CUBE, CUBE_SYNC="SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);")
    k(x, y, block_dim=1)      # synced: clean, and all ones times all ones over k = 32
    arc.synchronize()
    assert np.array_equal(y, np.full_like(y, 32.0))


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


def test_same_pipe_mmads_accumulating_into_a_small_l0c_tile():
    # 32 x 32 is 4 fractals of L0C: back-to-back accumulation needs PipeBarrier<PIPE_M>
    twice = ("CUBE_SYNC", "SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);")
    src = accumulating(CUBE)
    x, y = np.ones(32 * 32, np.float16), np.zeros(32 * 32, np.float32)
    k = build(src, **dict([twice], M_SYNC=""))
    with pytest.raises(arc.LaunchError) as e:
        k(x, y, block_dim=1)
        arc.synchronize()
    msg = str(e.value)
    lines = render(src, **dict([twice], M_SYNC="")).splitlines()
    first = next(i for i, ln in enumerate(lines, 1) if ln.strip() == "Mmad(lc, la2, lb2, p);")
    for w in ("read after write within PIPE_M", "on L0C", f"AscendC::Mmad (PIPE_M at race.asc:{first}) wrote",
              f"AscendC::Mmad (PIPE_M at {at(src, '// accumulate', **dict([twice], M_SYNC=''))}) reads and writes",
              "PipeBarrier<PIPE_M>()"):
        assert w in msg, (w, msg)
    build(src, **dict([twice], M_SYNC="PipeBarrier<PIPE_M>();"))(x, y, block_dim=1)
    arc.synchronize()
    assert np.array_equal(y, np.full_like(y, 64.0))   # synced: clean, two k = 32 products summed


# ---- MIX kernels: each AIC and AIV has its own pipes; cross-core flags order GM ----

# The AIC puts 1..256 into z with scalar stores and tells both AIVs (mode 2);
# each AIV then copies x in, adds z's values, and stores its half of y.
MIX = HEAD + r'''
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR z, GM_ADDR y)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    GlobalTensor<float> xg, zg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x);
    zg.SetGlobalBuffer((__gm__ float *)z);
    yg.SetGlobalBuffer((__gm__ float *)y);
    if ASCEND_IS_AIC {
        for (int i = 0; i < 256; i++) zg.SetValue(i, (float)(i + 1));
        DataCacheCleanAndInvalid<float, CacheLine::ENTIRE_DATA_CACHE, DcciDst::CACHELINE_OUT>(zg);
        XSET
    }
    if ASCEND_IS_AIV {
        XWAIT
        int h = GetSubBlockIdx() * 128;
        TPipe pipe;
        TBuf<TPosition::VECCALC> buf;
        pipe.InitBuffer(buf, 3 * 128 * sizeof(float));
        LocalTensor<float> a = buf.Get<float>(), b = a[128], c = a[256];
        DataCopy(a, xg[h], 128);
        DataCopy(b, zg[h], 128);
        SYNC_IN
        Add(c, a, b, 128);
        PipeBarrier<PIPE_ALL>();
        DataCopy(yg[h], c, 128);
    }
}
'''
MIX_OK = dict(XSET="CrossCoreSetFlag<2, PIPE_S>(3);", XWAIT="CrossCoreWaitFlag(3);",
              SYNC_IN="SetFlag<HardEvent::MTE2_V>(0); WaitFlag<HardEvent::MTE2_V>(0);")


def run_mix(kern):
    x = np.arange(256, dtype=np.float32)
    z, y = np.zeros_like(x), np.zeros_like(x)
    kern(x, z, y, block_dim=1)
    arc.synchronize()
    return x, z, y


def test_mix_aiv_missing_mte2_to_v_wait():
    subs = dict(MIX_OK, SYNC_IN="")
    expect_race(build(MIX, **subs), "(AIV 0)", "data race (read after write) on UB", "MTE2_V",
                f"AscendC::DataCopy (PIPE_MTE2 at {at(MIX, 'DataCopy(a, xg[h]', **subs)}) wrote",
                f"AscendC::Add (PIPE_V at {at(MIX, 'Add(c, a, b', **subs)}) reads", runner=run_mix)
    x, z, y = run_mix(build(MIX, **MIX_OK))     # synced twin: clean
    assert np.array_equal(y, x + np.arange(1, 257))


def test_mix_cross_core_flag_orders_aic_and_aiv_gm():
    subs = dict(MIX_OK, XSET="", XWAIT="")
    expect_race(build(MIX, **subs), "data race (read/write between cores) on GM", "kernel parameter 1 'z'", "(AIC)",
                f"AscendC::GlobalTensor::SetValue (PIPE_S at {at(MIX, 'zg.SetValue', **subs)}) in block 0 (AIC) writes",
                f"AscendC::DataCopy (PIPE_MTE2 at {at(MIX, 'DataCopy(b, zg', **subs)}) in block",
                "the usual cure is a cross-core flag: CrossCoreSetFlag", runner=run_mix)
    x, z, y = run_mix(build(MIX, **MIX_OK))     # CrossCoreSetFlag/WaitFlag order them: clean
    assert np.array_equal(z, np.arange(1, 257)) and np.array_equal(y, x + z)


# ---- the Matmul API's GM traffic joins the GM race check between cores ----

MATMUL = HEAD + r'''
#define ASCENDC_CUBE_ONLY   // AIC only: block_dim blocks of one core each (else MIX: two AIVs per block)
#include "lib/matmul_intf.h"
extern "C" __global__ __aicore__ void k(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR tiling)
{
    TCubeTiling t;
    GET_TILING_DATA_WITH_STRUCT(TCubeTiling, tl, tiling);
    t = tl;
    TPipe pipe;
    GlobalTensor<half> ga, gb; GlobalTensor<float> gc;
    ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b); gc.SetGlobalBuffer((__gm__ float *)c);
    matmul::Matmul<matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, half>,
                   matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(ga);
    mm.SetTensorB(gb);
    if (GetBlockIdx() == 0) mm.IterateAll(gc);   /* every block writes the same C */
    ORDER
    if (GetBlockIdx() == 1) mm.IterateAll(gc);
    mm.End();
}
'''


def test_matmul_api_blocks_writing_the_same_c_tile():
    import ascendrtc.matmul_tiling as mt
    M = N = K = 32
    a = np.arange(M * K, dtype=np.float32).reshape(M, K).__mod__(7).astype(np.float16)
    b = np.arange(K * N, dtype=np.float32).reshape(K, N).__mod__(5).astype(np.float16)
    t = mt.tiling(M, N, K, cores=1)

    def go(order):
        c = np.zeros((M, N), np.float32)
        build(MATMUL, ORDER=order)(a, b, c, t.array(), block_dim=2)
        arc.synchronize()
        return c
    with pytest.raises(arc.LaunchError) as e:
        go("")
    msg = str(e.value)
    for w in ("data race (write/write between cores) on GM", "kernel parameter 2 'c'", "Matmul::IterateAll (PIPE_FIX at",
              "in block 0 writes", "in block 1 writes"):
        assert w in msg, (w, msg)
    c = go("SyncAll();")                          # ordered: clean, and the product
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


# An 80 x 32 L0C tile is 10 fractals: the cube orders back-to-back
# accumulation itself, so two Mmads with no PipeBarrier<PIPE_M> are clean.
def test_same_pipe_mmads_on_ten_fractals_are_ordered_by_the_cube():
    x, y = np.ones(80 * 32, np.float16), np.zeros(80 * 32, np.float32)
    build(accumulating(cube(80)), CUBE_SYNC="SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);",
          M_SYNC="")(x, y, block_dim=1)
    arc.synchronize()
    assert np.array_equal(y, np.full_like(y, 64.0))
