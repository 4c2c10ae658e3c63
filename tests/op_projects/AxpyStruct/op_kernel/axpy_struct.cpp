// Test op project (ascendrtc): z = alpha * x + y.
#include "kernel_operator.h"
#include "axpy_struct_tiling.h"

extern "C" __global__ __aicore__ void axpy_struct(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(AxpyStructTilingData);
    GET_TILING_DATA_WITH_STRUCT(AxpyStructTilingData, t, tiling);
    uint32_t n = t.blockLength;
    uint32_t off = n * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + off, n);
    yGm.SetGlobalBuffer((__gm__ float *)y + off, n);
    zGm.SetGlobalBuffer((__gm__ float *)z + off, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, n * sizeof(float));
    pipe.InitBuffer(by, n * sizeof(float));
    AscendC::LocalTensor<float> a = bx.Get<float>(), b = by.Get<float>();
    AscendC::DataCopy(a, xGm, n);
    AscendC::DataCopy(b, yGm, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(a, a, t.alpha, n);
    AscendC::Add(a, a, b, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, a, n);
}
