// Test op project (ascendrtc): z = x * y with former and tail cores; the
// last tile of a core may be shorter (a whole number of 32-byte blocks).
#include "kernel_operator.h"

class KernelMulTail {
public:
    template <typename T> __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z, const T &t)
    {
        uint32_t idx = AscendC::GetBlockIdx();
        uint32_t off;
        if (idx < t.formerNum) {
            length = t.formerLength;
            off = t.formerLength * idx;
        } else {
            length = t.tailLength;
            off = t.formerLength * t.formerNum + t.tailLength * (idx - t.formerNum);
        }
        tile = t.tileLength;
        xGm.SetGlobalBuffer((__gm__ float *)x + off, length);
        yGm.SetGlobalBuffer((__gm__ float *)y + off, length);
        zGm.SetGlobalBuffer((__gm__ float *)z + off, length);
        pipe.InitBuffer(bx, tile * sizeof(float));
        pipe.InitBuffer(by, tile * sizeof(float));
        pipe.InitBuffer(bz, tile * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<float> xl = bx.Get<float>(), yl = by.Get<float>(), zl = bz.Get<float>();
        for (uint32_t done = 0; done < length; done += tile) {
            uint32_t n = length - done < tile ? length - done : tile;
            AscendC::DataCopy(xl, xGm[done], n);
            AscendC::DataCopy(yl, yGm[done], n);
            AscendC::PipeBarrier<PIPE_ALL>();
            AscendC::Mul(zl, xl, yl, n);
            AscendC::PipeBarrier<PIPE_ALL>();
            AscendC::DataCopy(zGm[done], zl, n);
            AscendC::PipeBarrier<PIPE_ALL>();
        }
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by, bz;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    uint32_t length, tile;
};

extern "C" __global__ __aicore__ void mul_tail(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    KernelMulTail op;
    op.Init(x, y, z, t);
    op.Process();
}
