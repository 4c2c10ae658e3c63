// Test op project (ascendrtc): one ReduceSum per row; the last core may
// have fewer rows.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void row_sum(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    uint32_t first = t.rowsPerCore * AscendC::GetBlockIdx();
    uint32_t last = first + t.rowsPerCore < t.rows ? first + t.rowsPerCore : t.rows;
    AscendC::GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, t.rows * t.cols);
    yGm.SetGlobalBuffer((__gm__ float *)y, t.rows);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> src, dst, work;
    pipe.InitBuffer(src, t.cols * sizeof(float));
    pipe.InitBuffer(dst, 32);
    pipe.InitBuffer(work, t.cols * sizeof(float));
    AscendC::LocalTensor<float> s = src.Get<float>(), d = dst.Get<float>(), w = work.Get<float>();
    for (uint32_t r = first; r < last; r++) {
        AscendC::DataCopy(s, xGm[r * t.cols], t.cols);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::ReduceSum(d, s, w, t.cols);
        AscendC::PipeBarrier<PIPE_ALL>();
        yGm.SetValue(r, d.GetValue(0));
    }
}
