"""The pipe race check on the cube side: MTE1 -> M on L0A, Mmads
accumulating into one L0C tile (ordered by the cube from 10 fractals), MIX
kernels (an AIV's missing wait, the cross-core flag ordering AIC and AIV
GM), and Matmul API blocks writing one C tile; each followed by a clean
launch."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers.race import HEAD, N, at, build, error_mode, expect_race, render  # noqa: F401 (error_mode: the autouse fixture)

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


# Two blocks Fixpipe one 32 x 32 product to the same y: alike (both read x's
# first half) they are no race, whichever lands last; from different halves
# of x they are.
def test_fixpipe_blocks_writing_the_same_bytes_alike_or_not():
    src = CUBE.replace("(__gm__ half *)x)", "(__gm__ half *)x + GetBlockIdx() * SHIFT)")
    x = np.concatenate([np.ones(32 * 32), np.full(32 * 32, 2.0)]).astype(np.float16)
    sync = "SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);"
    y = np.zeros(32 * 32, np.float32)
    build(src, CUBE_SYNC=sync, SHIFT="0")(x, y, block_dim=2)
    arc.synchronize()
    assert np.array_equal(y, np.full_like(y, 32.0))
    with pytest.raises(arc.LaunchError) as e:
        build(src, CUBE_SYNC=sync, SHIFT="1024")(x, y, block_dim=2)
        arc.synchronize()
    msg = str(e.value)
    for w in ("data race (write/write between cores) on GM", "kernel parameter 1 'y'",
              f"AscendC::Fixpipe (PIPE_FIX at {at(src, 'Fixpipe(o', CUBE_SYNC=sync, SHIFT='1024')}) in block 0 writes",
              "in block 1 writes"):
        assert w in msg, (w, msg)


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
    expect_race(build(MIX, **subs), "(AIV 0: GetBlockIdx() = 0)", "data race (read after write) on UB", "MTE2_V",
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
    mm.SetTensorA(ga[GetBlockIdx() * A_SHIFT]);   /* A_SHIFT 0: both blocks compute the same product */
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
    a = np.arange(2 * M * K, dtype=np.float32).reshape(2 * M, K).__mod__(7).astype(np.float16)
    b = np.arange(K * N, dtype=np.float32).reshape(K, N).__mod__(5).astype(np.float16)
    t = mt.tiling(M, N, K, cores=1)

    def go(order, shift=M * K):
        c = np.zeros((M, N), np.float32)
        build(MATMUL, ORDER=order, A_SHIFT=str(shift))(a, b, c, t.array(), block_dim=2)
        arc.synchronize()
        return c
    want = [a[i * M:(i + 1) * M].astype(np.float32) @ b.astype(np.float32) for i in range(2)]
    # The same C written alike by both blocks (the samples' IBShare): whichever
    # lands last, C ends the same, so no race.
    np.testing.assert_array_equal(go("", shift=0), want[0])
    with pytest.raises(arc.LaunchError) as e:    # different products: a race
        go("")
    msg = str(e.value)
    for w in ("data race (write/write between cores) on GM", "kernel parameter 2 'c'", "Matmul::IterateAll (PIPE_FIX at",
              "in block 0 writes", "in block 1 writes"):
        assert w in msg, (w, msg)
    c = go("SyncAll();")                          # ordered: clean, and block 1's product
    np.testing.assert_array_equal(c, want[1])


# An 80 x 32 L0C tile is 10 fractals: the cube orders back-to-back
# accumulation itself, so two Mmads with no PipeBarrier<PIPE_M> are clean.
def test_same_pipe_mmads_on_ten_fractals_are_ordered_by_the_cube():
    x, y = np.ones(80 * 32, np.float16), np.zeros(80 * 32, np.float32)
    build(accumulating(cube(80)), CUBE_SYNC="SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);",
          M_SYNC="")(x, y, block_dim=1)
    arc.synchronize()
    assert np.array_equal(y, np.full_like(y, 64.0))
