// Test op project (ascendrtc): each round adds 1 and stores the block in the
// core's slice of the user workspace, then reads it back from there.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void workspace_add(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t n = t.blockLength;
    uint32_t off = n * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xGm, yGm, wGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + off, n);
    yGm.SetGlobalBuffer((__gm__ float *)y + off, n);
    wGm.SetGlobalBuffer((__gm__ float *)AscendC::GetUserWorkspace(workspace) + off, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    AscendC::LocalTensor<float> l = buf.Get<float>();
    AscendC::DataCopy(l, xGm, n);
    for (uint32_t r = 0; r < t.rounds; r++) {
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Adds(l, l, 1.0f, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(wGm, l, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Duplicate(l, 0.0f, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(l, wGm, n);
    }
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yGm, l, n);
}
