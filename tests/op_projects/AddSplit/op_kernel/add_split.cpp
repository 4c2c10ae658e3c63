// Test op project (ascendrtc): z = x + y; each core adds its even share in
// tileNum tiles, double-buffered.
#include "kernel_operator.h"

constexpr int32_t BUFFER_NUM = 2;

class KernelAddSplit {
public:
    __aicore__ inline KernelAddSplit() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength = totalLength / AscendC::GetBlockNum();
        this->tileNum = tileNum;
        tileLength = blockLength / tileNum / BUFFER_NUM;
        uint32_t off = blockLength * AscendC::GetBlockIdx();
        xGm.SetGlobalBuffer((__gm__ DTYPE_X *)x + off, blockLength);
        yGm.SetGlobalBuffer((__gm__ DTYPE_Y *)y + off, blockLength);
        zGm.SetGlobalBuffer((__gm__ DTYPE_Z *)z + off, blockLength);
        pipe.InitBuffer(inX, BUFFER_NUM, tileLength * sizeof(DTYPE_X));
        pipe.InitBuffer(inY, BUFFER_NUM, tileLength * sizeof(DTYPE_Y));
        pipe.InitBuffer(outZ, BUFFER_NUM, tileLength * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum * BUFFER_NUM; i++) {
            AscendC::LocalTensor<DTYPE_X> xl = inX.AllocTensor<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> yl = inY.AllocTensor<DTYPE_Y>();
            AscendC::DataCopy(xl, xGm[i * tileLength], tileLength);
            AscendC::DataCopy(yl, yGm[i * tileLength], tileLength);
            inX.EnQue(xl);
            inY.EnQue(yl);
            xl = inX.DeQue<DTYPE_X>();
            yl = inY.DeQue<DTYPE_Y>();
            AscendC::LocalTensor<DTYPE_Z> zl = outZ.AllocTensor<DTYPE_Z>();
            AscendC::Add(zl, xl, yl, tileLength);
            outZ.EnQue<DTYPE_Z>(zl);
            inX.FreeTensor(xl);
            inY.FreeTensor(yl);
            zl = outZ.DeQue<DTYPE_Z>();
            AscendC::DataCopy(zGm[i * tileLength], zl, tileLength);
            outZ.FreeTensor(zl);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inX, inY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outZ;
    AscendC::GlobalTensor<DTYPE_X> xGm;
    AscendC::GlobalTensor<DTYPE_Y> yGm;
    AscendC::GlobalTensor<DTYPE_Z> zGm;
    uint32_t blockLength, tileNum, tileLength;
};

extern "C" __global__ __aicore__ void add_split(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    KernelAddSplit op;
    op.Init(x, y, z, tilingData.totalLength, tilingData.tileNum);
    op.Process();
}
