// AddEven: each core adds its equal share of x and y in tileNum tiles,
// double-buffered; the element type is the op build's DTYPE_X.
#include "kernel_operator.h"

constexpr int32_t BUFS = 2;

class AddEvenKernel {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t tiles)
    {
        share = total / AscendC::GetBlockNum();
        tileNum = tiles;
        tileLen = share / tiles / BUFS;
        const int64_t off = share * AscendC::GetBlockIdx();
        xg.SetGlobalBuffer((__gm__ DTYPE_X *)x + off, share);
        yg.SetGlobalBuffer((__gm__ DTYPE_Y *)y + off, share);
        zg.SetGlobalBuffer((__gm__ DTYPE_Z *)z + off, share);
        pipe.InitBuffer(qx, BUFS, tileLen * sizeof(DTYPE_X));
        pipe.InitBuffer(qy, BUFS, tileLen * sizeof(DTYPE_Y));
        pipe.InitBuffer(qz, BUFS, tileLen * sizeof(DTYPE_Z));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < tileNum * BUFS; i++) {
            AscendC::LocalTensor<DTYPE_X> a = qx.AllocTensor<DTYPE_X>();
            AscendC::LocalTensor<DTYPE_Y> b = qy.AllocTensor<DTYPE_Y>();
            AscendC::DataCopy(a, xg[i * tileLen], tileLen);
            AscendC::DataCopy(b, yg[i * tileLen], tileLen);
            qx.EnQue(a);
            qy.EnQue(b);
            a = qx.DeQue<DTYPE_X>();
            b = qy.DeQue<DTYPE_Y>();
            AscendC::LocalTensor<DTYPE_Z> c = qz.AllocTensor<DTYPE_Z>();
            AscendC::Add(c, a, b, tileLen);
            qz.EnQue(c);
            qx.FreeTensor(a);
            qy.FreeTensor(b);
            c = qz.DeQue<DTYPE_Z>();
            AscendC::DataCopy(zg[i * tileLen], c, tileLen);
            qz.FreeTensor(c);
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFS> qx, qy;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFS> qz;
    AscendC::GlobalTensor<DTYPE_X> xg;
    AscendC::GlobalTensor<DTYPE_Y> yg;
    AscendC::GlobalTensor<DTYPE_Z> zg;
    uint32_t share, tileNum, tileLen;
};

extern "C" __global__ __aicore__ void add_even(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AddEvenKernel op;
    op.Init(x, y, z, t.totalLength, t.tileNum);
    op.Process();
}
