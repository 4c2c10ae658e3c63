// arc/pch_warm.h - the device API's most used instances, made once when the
// precompiled device API is built (rtc/pch.cpp: this header closes its
// prefix, built with -fpch-instantiate-templates).  A kernel that uses
// LocalTensor<float>, TQue<VECIN, 2>, DataCopy<float>, Add<float>... then
// finds their bodies ready in the PCH instead of instantiating them in every
// compile (about a third of a small kernel's frontend).  Nothing here is
// emitted: the function is inline and never called, and an instance is
// emitted only where a kernel uses it, exactly as it would be otherwise.
// Only included by the PCH prefix, never by kernel_operator.h.
#ifndef ARC_PCH_WARM_H_
#define ARC_PCH_WARM_H_

namespace __arc_pch_warm {

template <typename T>
inline void vector_ops(AscendC::LocalTensor<T> a, AscendC::GlobalTensor<T> g)
{
    using namespace AscendC;
    DataCopy(a, g, 16);
    DataCopy(g, a, 16);
    Add(a, a, a, 16);
    Sub(a, a, a, 16);
    Mul(a, a, a, 16);
    Div(a, a, a, 16);
    Max(a, a, a, 16);
    Min(a, a, a, 16);
    Adds(a, a, T(1), 16);
    Muls(a, a, T(1), 16);
    Exp(a, a, 16);
    Abs(a, a, 16);
    Relu(a, a, 16);
    Duplicate(a, T(0), 16);
    WholeReduceMax(a, a, 16, 1, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
    WholeReduceSum(a, a, 16, 1, 1, 1, 8);
    a.SetValue(0, a.GetValue(0));
    g.SetValue(0, g.GetValue(0));
    (void)a[16];
    (void)g[16];
}

template <typename T, typename Q>
inline void queue_ops(Q &q)
{
    AscendC::LocalTensor<T> t = q.template AllocTensor<T>();
    q.EnQue(t);
    t = q.template DeQue<T>();
    q.FreeTensor(t);
}

template <typename T>
inline void for_type(AscendC::TQue<AscendC::TPosition::VECIN, 1> &i1, AscendC::TQue<AscendC::TPosition::VECIN, 2> &i2,
                     AscendC::TQue<AscendC::TPosition::VECOUT, 1> &o1,
                     AscendC::TQue<AscendC::TPosition::VECOUT, 2> &o2, AscendC::TBuf<> &b)
{
    queue_ops<T>(i1);
    queue_ops<T>(i2);
    queue_ops<T>(o1);
    queue_ops<T>(o2);
    AscendC::GlobalTensor<T> g;
    g.SetGlobalBuffer(nullptr, 16);
    vector_ops<T>(b.Get<T>(), g);
}

inline void instances()
{
    using namespace AscendC;
    TPipe pipe;
    TQue<TPosition::VECIN, 1> i1;
    TQue<TPosition::VECIN, 2> i2;
    TQue<TPosition::VECOUT, 1> o1;
    TQue<TPosition::VECOUT, 2> o2;
    TBuf<> b;
    pipe.InitBuffer(i1, 1, 256);
    pipe.InitBuffer(i2, 2, 256);
    pipe.InitBuffer(o1, 1, 256);
    pipe.InitBuffer(o2, 2, 256);
    pipe.InitBuffer(b, 256);
    for_type<float>(i1, i2, o1, o2, b);
    for_type<half>(i1, i2, o1, o2, b);
    SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
    WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
    (void)GetBlockIdx();
    (void)GetBlockNum();
}

} // namespace __arc_pch_warm

#endif
