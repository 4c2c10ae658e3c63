// ScaleTail: former cores take formerLength elements, the others
// tailLength; each core scales its part and adds offset[core % 4].
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void scale_tail(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GET_TILING_DATA_MEMBER(ScaleTailTilingData, split, split, tiling);
    GET_TILING_DATA_PTR_WITH_STRUCT(ScaleTailTilingData, tp, tiling);
    const uint32_t core = AscendC::GetBlockIdx();
    const uint32_t former = split.formerNum;
    const uint64_t len = core < former ? split.formerLength : t.split.tailLength;
    const uint64_t start = core < former ? core * split.formerLength
                                         : former * split.formerLength + (core - former) * t.split.tailLength;
    AscendC::GlobalTensor<DTYPE_X> xg;
    AscendC::GlobalTensor<DTYPE_Y> yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x + start, len);
    yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y + start, len);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, len * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> v = buf.Get<DTYPE_X>();
    AscendC::DataCopy(v, xg, len);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Muls(v, v, (DTYPE_X)t.scale, len);
    AscendC::Adds(v, v, (DTYPE_X)tp->offset[core % 4], len);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, v, len);
}
