// KeySelect: one kernel, three computations chosen by TILING_KEY_IS; the
// last core also reports the ORIG_DTYPE_/FORMAT_ numbers it was built with.
#include "kernel_operator.h"

template <int OP>
__aicore__ inline void Binary(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
    AscendC::GlobalTensor<DTYPE_X> xg, yg, zg;
    const int64_t off = (int64_t)n * AscendC::GetBlockIdx();
    xg.SetGlobalBuffer((__gm__ DTYPE_X *)x + off, n);
    yg.SetGlobalBuffer((__gm__ DTYPE_X *)y + off, n);
    zg.SetGlobalBuffer((__gm__ DTYPE_X *)z + off, n);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> ba, bb;
    pipe.InitBuffer(ba, n * sizeof(DTYPE_X));
    pipe.InitBuffer(bb, n * sizeof(DTYPE_X));
    AscendC::LocalTensor<DTYPE_X> a = ba.Get<DTYPE_X>(), b = bb.Get<DTYPE_X>();
    AscendC::DataCopy(a, xg, n);
    AscendC::DataCopy(b, yg, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    if (OP == 1)
        AscendC::Add(a, a, b, n);
    else if (OP == 2)
        AscendC::Sub(a, a, b, n);
    else
        AscendC::Max(a, a, b, n);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zg, a, n);
}

extern "C" __global__ __aicore__ void key_select(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR info,
                                                 GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(1)) {
        Binary<1>(x, y, z, t.blockLength);
    } else if (TILING_KEY_IS(2)) {
        Binary<2>(x, y, z, t.blockLength);
    } else if (TILING_KEY_IS(3)) {
        Binary<3>(x, y, z, t.blockLength);
    }
    if (AscendC::GetBlockIdx() == AscendC::GetBlockNum() - 1) {
        __gm__ int32_t *o = (__gm__ int32_t *)info;
        o[0] = ORIG_DTYPE_X;
        o[1] = FORMAT_X;
        o[2] = ORIG_DTYPE_INFO;
        o[3] = (int32_t)sizeof(DTYPE_Z);
    }
}
