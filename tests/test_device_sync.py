"""Device API: synchronisation (SyncAll over many blocks, SetFlag/WaitFlag
with FetchEventID/AllocEventID, PipeBarrier), system variables, tiling
macros, workspace, core-type guards, printf, mask control, Brcb, Copy and
TransDataTo5HD."""
import numpy as np
import pytest

import ascendrtc as arc
from helpers import dev

SRC = r'''
#include "kernel_operator.h"
#include <cstdint>
#include <type_traits>
using namespace AscendC;

BEGIN_TILING_DATA_DEF(LeakyTiling)
TILING_DATA_FIELD_DEF(uint32_t, totalLength)
TILING_DATA_FIELD_DEF(uint32_t, tileNum)
TILING_DATA_FIELD_DEF(float, slope)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(LeakyRelu, LeakyTiling)

struct NewTiling { int32_t n; float scale; };

// every block writes its index, meets the others, then reads its neighbour's
extern "C" __global__ __aicore__ void ring(GM_ADDR buf, GM_ADDR out)
{
    GlobalTensor<int32_t> b, o;
    b.SetGlobalBuffer((__gm__ int32_t *)buf);
    o.SetGlobalBuffer((__gm__ int32_t *)out);
    int64_t i = GetBlockIdx(), n = GetBlockNum();
    b.SetValue(i, (int32_t)(i * 10));
    // a scalar GM write sits in this core's data cache until written back
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(b[i]);
    SyncAll();
    o.SetValue(i, b.GetValue((i + 1) % n));
    SyncAll();
    b.SetValue(i, -1);
}

extern "C" __global__ __aicore__ void sysvars(GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> o; o.SetGlobalBuffer((__gm__ float *)out + GetBlockIdx() * 8);
    o.SetValue(0, (float)GetBlockNum());
    o.SetValue(1, (float)GetSubBlockIdx());
    o.SetValue(2, t.totalLength + t.tileNum * t.slope);
    o.SetValue(3, TILING_KEY_IS(0) ? 1.0f : 0.0f);
    o.SetValue(4, TILING_KEY_IS(1) ? 1.0f : 0.0f);
    o.SetValue(5, ASCEND_IS_AIV ? 1.0f : 0.0f);
    o.SetValue(6, ASCEND_IS_AIC ? 1.0f : 0.0f);
    o.SetValue(7, GetUserWorkspace(workspace) == workspace ? 1.0f : 0.0f);
}

extern "C" __global__ __aicore__ void newtiling(GM_ADDR out, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(NewTiling);
    GET_TILING_DATA_WITH_STRUCT(NewTiling, t, tiling);
    GlobalTensor<float> o; o.SetGlobalBuffer((__gm__ float *)out);
    o.SetValue(0, t.n * t.scale);
}

extern "C" __global__ __aicore__ void flags(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024);
    GlobalTensor<float> gx, gy; gx.SetGlobalBuffer((__gm__ float *)x); gy.SetGlobalBuffer((__gm__ float *)y);
    LocalTensor<float> t = b.Get<float>();
    DataCopy(t, gx, 64);
    event_t e1 = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE2_V));
    SetFlag<HardEvent::MTE2_V>(e1);
    WaitFlag<HardEvent::MTE2_V>(e1);
    Adds(t, t, 1.0f, 64);
    PipeBarrier<PIPE_V>();
    TEventID e2 = GetTPipePtr()->AllocEventID<HardEvent::V_MTE3>();
    SetFlag<HardEvent::V_MTE3>(e2);
    SetFlag<HardEvent::V_MTE3>(e2);
    WaitFlag<HardEvent::V_MTE3>(e2);
    WaitFlag<HardEvent::V_MTE3>(e2);
    GetTPipePtr()->ReleaseEventID<HardEvent::V_MTE3>(e2);
    float s = t.GetValue(0);
    SetFlag<HardEvent::S_V>(EVENT_ID0); WaitFlag<HardEvent::S_V>(EVENT_ID0);
    Muls(t, t, s, 64);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID1); WaitFlag<HardEvent::V_MTE3>(EVENT_ID1);
    DataCopy(gy, t, 64);
}

// Scalar GM atomics from every block at once: each AtomicAdd returns the
// value it replaced, so the 8 x 100 tickets are 0..799 with no repeat.
extern "C" __global__ __aicore__ void tickets(GM_ADDR counter, GM_ADDR got, GM_ADDR ext)
{
    __gm__ int32_t *c = (__gm__ int32_t *)counter, *g = (__gm__ int32_t *)got, *e = (__gm__ int32_t *)ext;
    const int32_t b = GetBlockIdx();
    for (int32_t i = 0; i < 100; i++) g[b * 100 + i] = AtomicAdd(c, 1);
    AtomicMax(e, b);
    AtomicMin(e + 1, -b);
}

// Inter-block and cross-core sync calls as real kernels spell them: they
// compile and order nothing (blocks run concurrently on the simulator).
extern "C" __global__ __aicore__ void inter_block(GM_ADDR ws, GM_ADDR out)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 256);
    GlobalTensor<int32_t> gws, o;
    gws.SetGlobalBuffer((__gm__ int32_t *)ws); o.SetGlobalBuffer((__gm__ int32_t *)out);
    LocalTensor<int32_t> lws = b.Get<int32_t>();
    const int32_t i = GetBlockIdx();
    IBSet(gws, lws, i, 0);
    IBWait<true>(gws, lws, i, 0);
    CrossCoreSetFlag<0x2, PIPE_MTE3>(0x8);
    CrossCoreWaitFlag(0x8);
    o.SetValue(i, i + 1);
}

extern "C" __global__ __aicore__ void say(GM_ADDR x)
{
    if (GetBlockIdx() == 1) AscendC::printf("block %d of %d: %.2f %s\n", (int)GetBlockIdx(), (int)GetBlockNum(), (half)1.25, "ok");
}

extern "C" __global__ __aicore__ void rearrange(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR w)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 8192);
    GlobalTensor<half> gx, gy, gz, gw;
    gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    gz.SetGlobalBuffer((__gm__ half *)z); gw.SetGlobalBuffer((__gm__ half *)w);
    LocalTensor<half> src = b.Get<half>(), dst = src[256], br = src[512], cp = src[1024];
    DataCopy(src, gx, 256);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<half> dl[16], sl[16];
    for (int i = 0; i < 16; i++) { sl[i] = src[i * 16]; dl[i] = dst[i * 16]; }
    TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams{false, false, 1, 0, 0});
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, dst, 256);
    PipeBarrier<PIPE_ALL>();
    Brcb(br, src, 2, BrcbRepeatParams{1, 8});          // 16 values -> 16 blocks of 16
    PipeBarrier<PIPE_ALL>();
    DataCopy(gz, br, 256);
    PipeBarrier<PIPE_ALL>();
    Duplicate(cp, (half)0, 256);
    Copy(cp, src, 32, 2, CopyRepeatParams{2, 1, 8, 8});   // 32 lanes, dst block stride 2
    PipeBarrier<PIPE_ALL>();
    DataCopy(gw, cp, 256);
    PipeBarrier<PIPE_ALL>();
    Transpose(dst, src);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gx, dst, 256);
}
'''


@pytest.fixture(scope="module")
def mod():
    return dev.load(SRC, "sync.asc")


def run(mod, name, blocks, *arrays):
    mod.get_kernel(name)[blocks](*arrays)
    arc.synchronize()


def test_syncall_48_blocks(mod):
    n = 48
    buf = np.zeros(n, np.int32)
    out = np.zeros(n, np.int32)
    run(mod, "ring", n, buf, out)
    np.testing.assert_array_equal(out, ((np.arange(n) + 1) % n) * 10)
    np.testing.assert_array_equal(buf, -1)


def test_system_variables_and_tiling(mod):
    tiling = np.zeros(3, np.uint32)
    tiling[0], tiling[1] = 1000, 8
    tiling[2:3] = np.array([0.5], np.float32).view(np.uint32)
    out = np.zeros(8 * 3, np.float32)
    ws = np.zeros(16, np.uint8)
    run(mod, "sysvars", 3, out, ws, tiling)
    np.testing.assert_array_equal(out.reshape(3, 8), [[3, 0, 1004, 1, 0, 1, 0, 1]] * 3)
    t2 = np.zeros(2, np.int32)
    t2[0] = 6
    t2[1:2] = np.array([2.5], np.float32).view(np.int32)
    out = np.zeros(1, np.float32)
    run(mod, "newtiling", 1, out, t2)
    assert out[0] == 15


def test_flags_and_barriers(mod):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros_like(x)
    run(mod, "flags", 1, x, y)   # one block: two would both store y[0:64), a write/write race between cores
    np.testing.assert_array_equal(y, (x + 1) * 1)


def test_scalar_atomics_return_the_value_they_replaced(mod):
    counter, got, ext = np.zeros(8, np.int32), np.full(800, -1, np.int32), np.zeros(8, np.int32)
    run(mod, "tickets", 8, counter, got, ext)
    assert counter[0] == 800
    np.testing.assert_array_equal(np.sort(got), np.arange(800))
    assert ext[0] == 7 and ext[1] == -7


def test_inter_block_and_cross_core_flags_compile_and_run(mod):
    ws, out = np.zeros(64, np.int32), np.zeros(4, np.int32)
    run(mod, "inter_block", 4, ws, out)
    np.testing.assert_array_equal(out, [1, 2, 3, 4])


def test_printf(mod, capfd):
    run(mod, "say", 2, np.zeros(1, np.float32))
    out, err = capfd.readouterr()
    assert "block 1 of 2: 1.25 ok" in out + err


def test_rearrangement(mod):
    x = np.arange(256).astype(np.float16)
    y, z, w = (np.zeros(256, np.float16) for _ in range(3))
    x0 = x.copy()
    run(mod, "rearrange", 1, x, y, z, w)
    np.testing.assert_array_equal(x, x0.reshape(16, 16).T.reshape(-1))      # Transpose
    x = x0
    np.testing.assert_array_equal(y, x.reshape(16, 16).T.reshape(-1))      # 16x16 transpose
    np.testing.assert_array_equal(z, np.repeat(x[:16], 16))                 # Brcb
    want = np.zeros(256, np.float16)
    for r in range(2):
        for l in range(32):
            want[(r * 8 + (l // 16) * 2) * 16 + l % 16] = x[(r * 8 + l // 16) * 16 + l % 16]
    np.testing.assert_array_equal(w, want)
