// Compile check: instantiates every device-API family for its dtypes.
#include "kernel_operator.h"
#include <cstdint>
#include <type_traits>
#include <algorithm>
#include <cmath>
using namespace AscendC;

BEGIN_TILING_DATA_DEF(TD)
TILING_DATA_FIELD_DEF(uint32_t, total)
TILING_DATA_FIELD_DEF(float, slope)
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Op, TD)

template <typename T> __aicore__ inline void arith(TBuf<TPosition::VECCALC> &b)
{
    LocalTensor<T> x = b.Get<T>(), y = x[256], z = x[512];
    uint64_t m2[2] = {~0ull, ~0ull};
    Add(z, x, y, 64); Sub(z, x, y, 64); Mul(z, x, y, 64); Max(z, x, y, 64); Min(z, x, y, 64);
    Add(z, x, y, 64, 2, {1, 1, 1, 8, 8, 8}); Mul<T, false>(z, x, y, MASK_PLACEHOLDER, 1, BinaryRepeatParams());
    Sub(z, x, y, m2, 1, BinaryRepeatParams());
    Adds(z, x, (T)1, 64); Muls(z, x, (T)2, 64); Maxs(z, x, (T)0, 64); Mins(z, x, (T)0, 64);
    Adds(z, x, (T)1, 64, 1, UnaryRepeatParams()); Muls(z, x, (T)1, m2, 1, {1, 1, 8, 8});
    Duplicate(z, (T)3, 64); Duplicate(z, (T)3, 64, 1, 1, 8); Duplicate(z, (T)3, m2, 1, 1, 8);
    if constexpr (std::is_integral_v<T>) ShiftLeft(z, x, (T)1, 64);
    CreateVecIndex(z, (T)0, 64);
}
template <typename T> __aicore__ inline void flt(TBuf<TPosition::VECCALC> &b)
{
    LocalTensor<T> x = b.Get<T>(), y = x[256], z = x[512], w = x[1024];
    uint64_t m2[2] = {~0ull, ~0ull};
    Div(z, x, y, 64); Div(z, x, y, 64, 1, BinaryRepeatParams());
    Abs(z, x, 64); Exp(z, x, 64); Ln(z, x, 64); Sqrt(z, x, 64); Rsqrt(z, x, 64); Reciprocal(z, x, 64); Relu(z, x, 64);
    Exp(z, x, 64, 1, UnaryRepeatParams()); Abs(z, x, m2, 1, UnaryRepeatParams());
    LeakyRelu(z, x, (T)0.1, 64); LeakyRelu(z, x, (T)0.1, 64, 1, UnaryRepeatParams());
    Axpy(z, x, (T)2, 64); Floor(z, x, 64); Ceil(z, x, 64);
    ReduceSum(w, x, y, 300); ReduceMax(w, x, y, 300, true); ReduceMin(w, x, y, 300);
    ReduceSum(w, x, y, 64, 2, 8); ReduceMax(w, x, y, 64, 2, 8, true);
    WholeReduceSum(w, x, 64, 2, 1, 1, 8); WholeReduceMax(w, x, 64, 2, 1, 1, 8);
    WholeReduceMin(w, x, m2, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    BlockReduceSum(w, x, 2, 64, 1, 1, 8); BlockReduceMax(w, x, 2, m2, 1, 1, 8); BlockReduceMin(w, x, 2, 64, 1, 1, 8);
    PairReduceSum(w, x, 2, 64, 1, 1, 8);
    LocalTensor<uint8_t> bits = b.GetWithOffset<uint8_t>(256, 8192);
    Compare(bits, x, y, CMPMODE::LT, 128); Compare(bits, x, y, CMPMODE::GE, 64, 1, BinaryRepeatParams());
    CompareScalar(bits, x, (T)0, CMPMODE::GT, 128); CompareScalar(bits, x, (T)0, CMPMODE::GT, 64, 1, UnaryRepeatParams());
    Compare(x, y, CMPMODE::EQ, 64, BinaryRepeatParams());
    Select(z, bits, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64);
    Select(z, bits, x, (T)0, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
    Select(z, bits, x, y, SELMODE::VSEL_TENSOR_TENSOR_MODE, 64, 1, BinaryRepeatParams());
    Select(z, bits, x, 1.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64, 1, BinaryRepeatParams());
    uint64_t cnt;
    GatherMask(z, x, 1, false, 0, {1, 1, 8, 0}, cnt);
    GatherMask(z, x, bits.ReinterpretCast<uint32_t>(), true, 64, {1, 1, 8, 0}, cnt);
    LocalTensor<uint32_t> offs = b.GetWithOffset<uint32_t>(64, 16384);
    Gather(z, x, offs, 0, 64);
    Brcb(z, x, 1, {1, 8});
    Copy(z, x, 64, 1, {1, 1, 8, 8});
    ArithProgression(z, (T)0, (T)1, 64);
}
template <typename TD, typename TS> __aicore__ inline void cast(TBuf<TPosition::VECCALC> &b)
{
    LocalTensor<TS> s = b.Get<TS>();
    LocalTensor<TD> d = b.GetWithOffset<TD>(1024, 32768);
    Cast(d, s, RoundMode::CAST_RINT, 64); Cast(d, s, RoundMode::CAST_FLOOR, 64); Cast(d, s, RoundMode::CAST_NONE, 64);
    Cast(d, s, RoundMode::CAST_ROUND, 64, 1, UnaryRepeatParams(1, 1, 8, 4));
}

extern "C" __global__ __aicore__ void all_apis(GM_ADDR x, GM_ADDR y, GM_ADDR ws, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    GET_TILING_DATA(t, tiling);
    TPipe pipe;
    TBuf<TPosition::VECCALC> b;
    TQue<QuePosition::VECIN, 1> q;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> qb;
    pipe.InitBuffer(b, 65536);
    pipe.InitBuffer(q, 2, 1024);
    pipe.InitBuffer(qb, 1, 1024);
    GlobalTensor<float> g;
    g.SetGlobalBuffer((__gm__ float *)x, t.total);
    LocalTensor<float> l = q.AllocTensor<float>();
    DataCopy(l, g, 64);
    DataCopy(l, g, DataCopyParams{1, 2, 0, 0});
    DataCopyPad(l, g, DataCopyExtParams{1, 12, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, 5, 0.0f});
    DataCopyPad(l, g, DataCopyParams{1, 12, 0, 0}, DataCopyPadParams{false, 0, 0, 0});
    q.EnQue(l);
    l = q.DeQue<float>();
    SetAtomicAdd<float>();
    DataCopy(g, l, 64);
    DataCopyPad(g, l, DataCopyExtParams{1, 12, 0, 0, 0});
    DataCopyPad(g, l, DataCopyParams{1, 12, 0, 0});
    SetAtomicNone();
    q.FreeTensor(l);
    arith<float>(b); arith<half>(b); arith<int32_t>(b); arith<int16_t>(b);
    flt<float>(b); flt<half>(b);
    LocalTensor<uint16_t> u = b.Get<uint16_t>();
    And(u, u, u, 128); Or(u, u, u, 128); Not(u, u, 128); ShiftRight(u, u, (uint16_t)2, 128);
    cast<half, float>(b); cast<float, half>(b); cast<int32_t, float>(b); cast<float, int32_t>(b);
    cast<bfloat16_t, float>(b); cast<float, bfloat16_t>(b); cast<int8_t, half>(b); cast<half, int8_t>(b);
    cast<int16_t, float>(b); cast<half, int16_t>(b); cast<int32_t, bfloat16_t>(b); cast<half, int32_t>(b);
    SetVectorMask<float>(0, 0xff); SetMaskCount(); SetVectorMask<float, MaskMode::COUNTER>(100); SetMaskNorm(); ResetMask();
    PipeBarrier<PIPE_V>();
    event_t e = (event_t)GetTPipePtr()->FetchEventID(HardEvent::V_MTE3);
    SetFlag<HardEvent::V_MTE3>(e); WaitFlag<HardEvent::V_MTE3>(e);
    TEventID e2 = GetTPipePtr()->AllocEventID<HardEvent::MTE2_V>();
    GetTPipePtr()->ReleaseEventID<HardEvent::MTE2_V>(e2);
    if (TILING_KEY_IS(1)) { printf("key %d %f\n", 1, (half)1.5); }
    if ASCEND_IS_AIV { SyncAll(); }
    GM_ADDR uws = GetUserWorkspace(ws);
    (void)uws;
    half h = (half)2.5f; bfloat16_t bf = 1.5f; float f = bf.ToFloat() + (float)h + std::min(1.0f, 2.0f) + std::exp(0.0f);
    (void)f;
    InitGlobalMemory(g, 8, 0.0f);
    LocalTensor<half> hh = b.Get<half>();
    LocalTensor<half> dl[16], sl[16];
    for (int i = 0; i < 16; i++) { dl[i] = hh[i * 16]; sl[i] = hh[256 + i * 16]; }
    TransDataTo5HD<half>(dl, sl, TransDataTo5HDParams{false, false, 1, 0, 0});
    (void)GetBlockNum(); (void)GetSubBlockIdx();
}

extern "C" __global__ __aicore__ void extras(GM_ADDR x)
{
    TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 4096);
    LocalTensor<half> h = b.Get<half>();
    Transpose(h[256], h);
    MulAddDst(h, h[256], h[512], 64); FusedMulAdd(h, h[256], h[512], 64);
    half v, i; GetReduceMaxMinCount(v, i); float a = GetAccVal<float>(); (void)a;
    DumpTensor(h, 1, 8);
}

extern "C" __global__ __aicore__ void extras2(GM_ADDR x)
{
    TPipe pipe; TBuf<> b; TQue<QuePosition::VECIN, 1> q; pipe.InitBuffer(b, 4096); pipe.InitBuffer(q, 1, 64);
    LocalTensor<float> f = b.Get<float>(), t;
    uint32_t ds[2] = {4, 8}, ss[2] = {1, 8}, ss1[2] = {4, 1};
    BroadCast<float, 2, 0>(f[64], f, ds, ss);
    BroadCast<float, 2, 1>(f[128], f, ds, ss1, b.Get<uint8_t>());
    q.AllocTensor<float>(t); q.EnQue(t); q.DeQue<float>(t); q.FreeTensor(t);
    set_mask_count(); set_vector_mask(0, 64); set_mask_norm();
    LocalTensor<uint8_t> tmp = b.Get<uint8_t>();
    Sigmoid(f[256], f, 64); Tanh<float, false>(f[256], f, tmp, 64); Erf(f[256], f, 64); Log10(f[256], f, 64);
    Power(f[256], f, f[64], 64); Power(f[256], f, 2.0f, tmp, 64); Power(f[256], 2.0f, f, 64);
    CrossCoreSetFlag<0x2, PIPE_MTE3>(1); CrossCoreWaitFlag(1);
}
