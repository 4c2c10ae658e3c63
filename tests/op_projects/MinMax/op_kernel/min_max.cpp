// Test op project (ascendrtc): Min and Max of one block per core.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void min_max(GM_ADDR x, GM_ADDR y, GM_ADDR lo, GM_ADDR hi, GM_ADDR workspace,
                                              GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t n = static_cast<uint32_t>(t.blockLength);
    uint32_t off = n * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<DTYPE_X> xGm, yGm, loGm, hiGm;
    xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + off, n);
    yGm.SetGlobalBuffer((__gm__ DTYPE_X *)y + off, n);
    loGm.SetGlobalBuffer((__gm__ DTYPE_X *)lo + off, n);
    hiGm.SetGlobalBuffer((__gm__ DTYPE_X *)hi + off, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bo;
    pipe.InitBuffer(bx, n * sizeof(DTYPE_X));
    pipe.InitBuffer(by, n * sizeof(DTYPE_X));
    pipe.InitBuffer(bo, n * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> a = bx.Get<DTYPE_X>(), b = by.Get<DTYPE_X>(), o = bo.Get<DTYPE_X>();
    AscendC::DataCopy(a, xGm, n);
    AscendC::DataCopy(b, yGm, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Min(o, a, b, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(loGm, o, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Max(o, a, b, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(hiGm, o, n);
}
