// Test op project (ascendrtc): LeakyReLU as Maxs(x, 0) + slope * Mins(x, 0).
#include "kernel_operator.h"

class KernelLeaky {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t total, uint32_t tiles, float slope)
    {
        uint32_t block = total / AscendC::GetBlockNum();
        tileNum = tiles;
        tile = block / tiles;
        this->slope = slope;
        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + block * AscendC::GetBlockIdx(), block);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y + block * AscendC::GetBlockIdx(), block);
        pipe.InitBuffer(inQ, 1, tile * sizeof(DTYPE_X));
        pipe.InitBuffer(outQ, 1, tile * sizeof(DTYPE_Y));
        pipe.InitBuffer(tmp, tile * sizeof(DTYPE_X));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum; i++) {
            AscendC::LocalTensor<DTYPE_X> xl = inQ.AllocTensor<DTYPE_X>();
            AscendC::DataCopy(xl, xGm[i * tile], tile);
            inQ.EnQue(xl);
            xl = inQ.DeQue<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> yl = outQ.AllocTensor<DTYPE_Y>();
            AscendC::LocalTensor<DTYPE_X> t = tmp.Get<DTYPE_X>();
            AscendC::Maxs(yl, xl, (DTYPE_X)0, tile);
            AscendC::Mins(t, xl, (DTYPE_X)0, tile);
            AscendC::Muls(t, t, (DTYPE_X)slope, tile);
            AscendC::Add(yl, yl, t, tile);
            outQ.EnQue(yl);
            inQ.FreeTensor(xl);
            yl = outQ.DeQue<DTYPE_Y>();
            AscendC::DataCopy(yGm[i * tile], yl, tile);
            outQ.FreeTensor(yl);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, 1> inQ;
    AscendC::TQue<AscendC::TPosition::VECOUT, 1> outQ;
    AscendC::TBuf<AscendC::TPosition::VECCALC> tmp;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    uint32_t tileNum, tile;
    float slope;
};

extern "C" __global__ __aicore__ void leaky_attr(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelLeaky op;
    op.Init(x, y, t.totalLength, t.tileNum, t.negativeSlope);
    op.Process();
}
