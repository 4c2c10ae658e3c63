"""Device API: GlobalTensor / LocalTensor semantics, TPipe / TQue /
TQueBind / TBuf and the queue queries, a templated kernel instantiated for
two dtypes, half / bf16 scalars."""
import numpy as np
import pytest

import ascendrtc as arc

PRE = "using namespace AscendC;\n"

SRC = r'''
extern "C" __global__ __aicore__ void tensors(GM_ADDR x, GM_ADDR out)
{
    TPipe pipe; TBuf<TPosition::VECCALC> b1, b2; TBuf<> b3;
    pipe.InitBuffer(b1, 10);                       // rounds up to 32 bytes
    pipe.InitBuffer(b2, 256);
    GlobalTensor<float> gx; gx.SetGlobalBuffer((__gm__ float *)x, 64);
    GlobalTensor<int64_t> o; o.SetGlobalBuffer((__gm__ int64_t *)out, 32);
    LocalTensor<float> t = b2.Get<float>();
    LocalTensor<float> s = t[10];
    o.SetValue(0, t.GetSize());                    // 64
    o.SetValue(1, s.GetSize());                    // 54: operator[] shrinks
    o.SetValue(2, gx[10].GetSize());               // 64: GlobalTensor[] does not
    o.SetValue(3, t.ReinterpretCast<half>().GetSize());   // 128: same bytes
    o.SetValue(4, (int64_t)((uint8_t *)b2.Get<float>().GetPhyAddr() - (uint8_t *)b1.Get<float>().GetPhyAddr()));
    o.SetValue(5, (int64_t)(s.GetPhyAddr() - t.GetPhyAddr()));   // 40: a uint64_t byte address, as on the NPU
    DataCopy(t, gx, 64);
    s.SetValue(1, 42.0f);
    o.SetValue(6, (int64_t)t.GetValue(11));        // 42
    o.SetValue(7, (int64_t)gx.GetValue(5));        // x[5]
    gx.SetValue(63, -3.0f);
    o.SetValue(8, b2.Get<float>(8).GetSize());     // 8
    o.SetValue(9, b2.GetWithOffset<half>(16, 64).GetSize());
    o.SetValue(10, (int64_t)((uint8_t *)b2.GetWithOffset<half>(16, 64).GetPhyAddr() - (uint8_t *)t.GetPhyAddr()));
    t.SetSize(4); o.SetValue(11, t.GetSize());
    t(2) = 7.5f; o.SetValue(12, (int64_t)(t.GetValue(2) * 2));
    pipe.Reset();
    pipe.InitBuffer(b3, 32);
    o.SetValue(13, (int64_t)((uint8_t *)b3.Get<float>().GetPhyAddr() - (uint8_t *)b1.Get<float>().GetPhyAddr()));
    o.SetValue(14, GetTPipePtr() == &pipe);
}

extern "C" __global__ __aicore__ void queues(GM_ADDR out)
{
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> q;
    pipe.InitBuffer(q, 2, 64);
    GlobalTensor<int64_t> o; o.SetGlobalBuffer((__gm__ int64_t *)out, 32);
    int i = 0;
    o.SetValue(i++, q.HasIdleBuffer());
    auto a = q.AllocTensor<float>();
    auto b = q.AllocTensor<float>();
    o.SetValue(i++, q.HasIdleBuffer());                 // 0
    o.SetValue(i++, (int64_t)(b.GetPhyAddr() - a.GetPhyAddr()));  // 64 bytes (16 floats) apart
    a.SetValue(0, 1.0f); b.SetValue(0, 2.0f);
    q.EnQue(a); q.EnQue(b);
    o.SetValue(i++, q.GetTensorCountInQue());            // 2
    o.SetValue(i++, q.VacantInQue());                    // 0: depth 2 reached
    auto c = q.DeQue<float>();                           // FIFO: a first
    o.SetValue(i++, (int64_t)c.GetValue(0));
    q.FreeTensor(c);
    auto d = q.AllocTensor<float>();                     // reuses a's buffer
    o.SetValue(i++, d.GetPhyAddr() == a.GetPhyAddr());
    auto e = q.DeQue<float>();
    o.SetValue(i++, (int64_t)e.GetValue(0));
    o.SetValue(i++, q.HasTensorInQue());                 // 0
    q.FreeTensor(e); q.FreeTensor(d);
}

extern "C" __global__ __aicore__ void bind(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
    pipe.InitBuffer(q, 2, 128 * sizeof(half));
    GlobalTensor<half> gx, gy;
    gx.SetGlobalBuffer((__gm__ half *)x + GetBlockIdx() * 512);
    gy.SetGlobalBuffer((__gm__ half *)y + GetBlockIdx() * 512);
    for (int i = 0; i < 4; i++) {
        auto t = q.AllocTensor<half>();
        DataCopy(t, gx[i * 128], 128);
        q.EnQue(t);
        t = q.DeQue<half>();
        DataCopy(gy[i * 128], t, 128);
        q.FreeTensor(t);
    }
}

template <typename T> __global__ __aicore__ void tscale(GM_ADDR x, GM_ADDR y)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 512);
    GlobalTensor<T> gx, gy; gx.SetGlobalBuffer((__gm__ T *)x); gy.SetGlobalBuffer((__gm__ T *)y);
    LocalTensor<T> t = b.Get<T>();
    DataCopy(t, gx, 64);
    PipeBarrier<PIPE_ALL>();
    Muls(t, t, (T)3, 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, t, 64);
}

// idioms of real kernels: std traits and min() without includes, ASSERT,
// static LocalTensors without a TPipe, a <<<>>> launcher for the NPU build
template <typename T> struct is_f32 : std::conditional_t<std::is_same_v<T, float>, std::true_type, std::false_type> {};
extern "C" __global__ __aicore__ void idioms(GM_ADDR x, GM_ADDR y)
{
    ASSERT(GetBlockNum() != 0 && "block dim can not be zero!");
    static_assert(is_f32<float>::value && !is_f32<half>::value, "traits");
    uint32_t n = min(64u, (uint32_t)128);
    LocalTensor<float> a(TPosition::VECIN, 0, n), b(TPosition::VECOUT, 1024, n);
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float *)x);
    gy.SetGlobalBuffer((__gm__ float *)y);
    DataCopy(a, gx, n);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    Muls(b, a, (float)max(2, 1), n);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    DataCopy(gy, b, n);
}
#ifndef ASCENDC_CPU_DEBUG
void idioms_do(uint32_t blockDim, void *l2ctrl, void *stream, uint8_t *x, uint8_t *y)
{
    idioms<<<blockDim, l2ctrl, stream>>>(x, y);
}
#endif

extern "C" __global__ __aicore__ void assert_fails(GM_ADDR x)
{
    int32_t n = (int32_t)GetBlockIdx() - 5;
    ASSERT(n > 0);
}

extern "C" __global__ __aicore__ void scalars(GM_ADDR out)
{
    GlobalTensor<float> o; o.SetGlobalBuffer((__gm__ float *)out, 16);
    half h = (half)2.5f;
    bfloat16_t bf = 1.00390625f;                   // rounds to 1.0 in bf16 (ties to even)
    bfloat16_t bf2 = 3;
    o.SetValue(0, static_cast<float>(h * (half)2));
    o.SetValue(1, bf.ToFloat());
    o.SetValue(2, (float)bf2 + ToFloat(bf));
    o.SetValue(3, (float)(half)65504.0f);
    o.SetValue(4, (float)(half)1e-7f);             // half subnormal
    o.SetValue(5, (float)bfloat16_t(-0.0f));
}
'''


@pytest.fixture(scope="module")
def mod():
    p = arc.Program('#include "kernel_operator.h"\n' + PRE + SRC, "pipe.asc")
    p.add_name_expression("tscale<float>")
    p.add_name_expression("tscale<half>")
    return p.compile(["--npu-arch=dav-2201"]).load()


def test_tensor_semantics(mod):
    x = np.arange(64, dtype=np.float32)
    out = np.zeros(32, np.int64)
    mod.get_kernel("tensors")[1](x, out)
    arc.synchronize()
    assert list(out[:15]) == [64, 54, 64, 128, 32, 40, 42, 5, 8, 16, 64, 4, 15, 0, 1]
    assert x[63] == -3


def test_queue_order_and_queries(mod):
    out = np.full(32, -1, np.int64)
    mod.get_kernel("queues")[1](out)
    arc.synchronize()
    assert list(out[:9]) == [1, 0, 64, 2, 0, 1, 1, 2, 0]


def test_tquebind_copy_through(mod):
    x = np.random.default_rng(0).standard_normal(2048).astype(np.float16)
    y = np.zeros_like(x)
    mod.get_kernel("bind")[4](x, y)
    arc.synchronize()
    np.testing.assert_array_equal(y, x)


@pytest.mark.parametrize("expr,dt", [("tscale<float>", np.float32), ("tscale<half>", np.float16)])
def test_template_kernel_two_dtypes(mod, expr, dt):
    x = np.arange(64).astype(dt)
    y = np.zeros_like(x)
    mod.get_kernel(expr)[1](x, y)
    arc.synchronize()
    np.testing.assert_array_equal(y, (x * 3).astype(dt))


def test_half_and_bf16_scalars(mod):
    out = np.zeros(16, np.float32)
    mod.get_kernel("scalars")[1](out)
    arc.synchronize()
    np.testing.assert_array_equal(out[:6], [5.0, 1.0, 4.0, 65504.0, float(np.float16(1e-7)), -0.0])
    assert np.signbit(out[5])


def test_real_kernel_idioms(mod):
    x = np.arange(64, dtype=np.float32)
    y = np.zeros(64, np.float32)
    mod.get_kernel("idioms")[1](x, y)
    arc.synchronize()
    np.testing.assert_array_equal(y, 2 * x)
    with pytest.raises(arc.LaunchError, match=r"assert_fails block 0/1: ASSERT: n > 0"):
        mod.get_kernel("assert_fails")[1](x)
        arc.synchronize()
