// A library header in CATLASS's style: an overloaded kernel template whose
// body each side chooses by g_coreType, launched from the header itself.
#pragma once
#include "acl/acl.h"
#include "kernel_operator.h"

#define LIB_HOST_DEVICE __forceinline__[host, aicore]

LIB_HOST_DEVICE int Twice(int x) { return 2 * x; }

struct Params {
    GM_ADDR out;
    int32_t add;
};

template <class Op, int32_t CORE = g_coreType> __aicore__ inline void Body(Params const &p, int32_t extra);
template <> __aicore__ inline void Body<int, AscendC::AIV>(Params const &p, int32_t extra)
{
    ((__gm__ int32_t *)p.out)[AscendC::GetBlockIdx()] = Twice(p.add) + extra;
}
template <> __aicore__ inline void Body<int, AscendC::AIC>(Params const &, int32_t) {}

template <class Op> __global__ __aicore__ void Adapter(Params p) { Body<Op>(p, 0); }
template <class Op> __global__ __aicore__ void Adapter(Params p, uint64_t syncAddr)
{
    AscendC::SetSyncBaseAddr(syncAddr);
    Body<Op>(p, 1000);
}

template <class Op> inline void Launch(aclrtStream s, uint32_t blocks, Params p, uint64_t syncAddr)
{
    if (syncAddr == 0)
        Adapter<Op><<<blocks, nullptr, s>>>(p);
    else
        Adapter<Op><<<blocks, nullptr, s>>>(p, syncAddr);
}
