// WsCopy: y = x + add, going through the workspace: each core copies its
// part of x into its own slice of the workspace, then from there to y.
#include "kernel_operator.h"
#include "ws_copy_tiling.h"

REGISTER_TILING_DEFAULT(WsCopyTiling);

extern "C" __global__ __aicore__ void ws_copy(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    const uint32_t n = t.blockLength;
    const int64_t off = (int64_t)n * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<int32_t> xg, wg, yg;
    xg.SetGlobalBuffer((__gm__ int32_t *)x + off, n);
    wg.SetGlobalBuffer((__gm__ int32_t *)AscendC::GetUserWorkspace(workspace) + off, n);
    yg.SetGlobalBuffer((__gm__ int32_t *)y + off, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(int32_t));
    AscendC::LocalTensor<int32_t> v = buf.Get<int32_t>();
    AscendC::DataCopy(v, xg, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(wg, v, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Duplicate(v, 0, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(v, wg, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Adds(v, v, t.add, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, v, n);
}
