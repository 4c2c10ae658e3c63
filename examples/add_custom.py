"""The seed article's add kernel, compiled at run time and launched on 8 cores from NumPy."""
import glob, os, sys
import numpy as np

CHECKOUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
if glob.glob(os.path.join(CHECKOUT, "ascendrtc", "_C*.so")):  # a built source checkout; else the installed package
    sys.path.insert(0, CHECKOUT)
import ascendrtc as arc

SRC = r'''
#include "kernel_operator.h"
constexpr int32_t TOTAL_LENGTH = 8 * 32, USE_CORE_NUM = 8, BLOCK_LENGTH = TOTAL_LENGTH / USE_CORE_NUM;
constexpr int32_t TILE_NUM = 1, BUFFER_NUM = 2, TILE_LENGTH = BLOCK_LENGTH / TILE_NUM / BUFFER_NUM;
class KernelAdd {
public:
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
        xGm.SetGlobalBuffer((__gm__ float *)x + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        yGm.SetGlobalBuffer((__gm__ float *)y + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        zGm.SetGlobalBuffer((__gm__ float *)z + BLOCK_LENGTH * AscendC::GetBlockIdx(), BLOCK_LENGTH);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(inQueueY, BUFFER_NUM, TILE_LENGTH * sizeof(float));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process() {
        for (int32_t i = 0; i < TILE_NUM * BUFFER_NUM; i++) {
            AscendC::LocalTensor<float> xLocal = inQueueX.AllocTensor<float>(), yLocal = inQueueY.AllocTensor<float>();
            AscendC::DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);
            AscendC::DataCopy(yLocal, yGm[i * TILE_LENGTH], TILE_LENGTH);
            inQueueX.EnQue(xLocal); inQueueY.EnQue(yLocal);
            xLocal = inQueueX.DeQue<float>(); yLocal = inQueueY.DeQue<float>();
            AscendC::LocalTensor<float> zLocal = outQueueZ.AllocTensor<float>();
            AscendC::Add(zLocal, xLocal, yLocal, TILE_LENGTH);
            outQueueZ.EnQue<float>(zLocal); inQueueX.FreeTensor(xLocal); inQueueY.FreeTensor(yLocal);
            zLocal = outQueueZ.DeQue<float>();
            AscendC::DataCopy(zGm[i * TILE_LENGTH], zLocal, TILE_LENGTH);
            outQueueZ.FreeTensor(zLocal);
        }
    }
private:
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::TPosition::VECIN, BUFFER_NUM> inQueueX, inQueueY;
    AscendC::TQue<AscendC::TPosition::VECOUT, BUFFER_NUM> outQueueZ;
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
};
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
'''

binary = arc.Program(SRC, "add_custom.asc").compile(["--npu-arch=dav-2201"])
add = binary.load().get_kernel("add_custom")
x, y = np.ones(256, np.float32), np.full(256, 2, np.float32)
z = arc.empty_like(x)                  # a device array
add[8](x, y, z)                        # 8 cores; arguments checked against add_custom(x, y, z)
print("z:", z.get()[:32])
assert np.array_equal(z.get(), x + y), "mismatch against NumPy"
print("ok: z == x + y on", arc.device_info()["soc_name"])
