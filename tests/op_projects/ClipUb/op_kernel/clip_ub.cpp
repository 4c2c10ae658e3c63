// Test op project (ascendrtc): clip in tiles of tileLength (the last one of
// a core may be shorter; lengths are whole 32-byte blocks).
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void clip_ub(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t off = t.blockLength * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x + off, t.blockLength);
    yGm.SetGlobalBuffer((__gm__ float *)y + off, t.blockLength);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, t.tileLength * sizeof(float));
    AscendC::LocalTensor<float> l = buf.Get<float>();
    for (uint32_t done = 0; done < t.blockLength; done += t.tileLength) {
        uint32_t n = t.blockLength - done < t.tileLength ? t.blockLength - done : t.tileLength;
        AscendC::DataCopy(l, xGm[done], n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Maxs(l, l, t.bounds[0], n);
        AscendC::Mins(l, l, t.bounds[1], n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm[done], l, n);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
