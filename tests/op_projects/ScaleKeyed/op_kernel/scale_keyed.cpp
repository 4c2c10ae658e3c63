// Test op project (ascendrtc): y = x * scale, code chosen by tiling key.
#include "kernel_operator.h"

template <typename T> class KernelScale {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t n, float scale)
    {
        this->n = n;
        this->scale = scale;
        xGm.SetGlobalBuffer((__gm__ T *)x + n * AscendC::GetBlockIdx(), n);
        yGm.SetGlobalBuffer((__gm__ T *)y + n * AscendC::GetBlockIdx(), n);
        pipe.InitBuffer(buf, n * sizeof(T));
    }
    __aicore__ inline void Process()
    {
        AscendC::LocalTensor<T> l = buf.Get<T>();
        AscendC::DataCopy(l, xGm, n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Muls(l, l, static_cast<T>(scale), n);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(yGm, l, n);
    }

private:
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    AscendC::GlobalTensor<T> xGm, yGm;
    uint32_t n;
    float scale;
};

extern "C" __global__ __aicore__ void scale_keyed(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    if (TILING_KEY_IS(1)) {
        KernelScale<half> op;
        op.Init(x, y, t.blockLength, t.scale);
        op.Process();
    } else if (TILING_KEY_IS(2)) {
        KernelScale<float> op;
        op.Init(x, y, t.blockLength, t.scale);
        op.Process();
    }
}
