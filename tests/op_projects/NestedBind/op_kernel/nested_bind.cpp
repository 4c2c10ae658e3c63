// Test op project (ascendrtc): writes the tiling's fields to z as float.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void nested_bind(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    AscendC::GlobalTensor<float> zg;
    zg.SetGlobalBuffer((__gm__ float *)z, 8);
    zg.SetValue(0, (float)t.inner.a);
    zg.SetValue(1, (float)t.inner.b);
    zg.SetValue(2, t.inner.scale);
    zg.SetValue(3, (float)t.mid.c);
    zg.SetValue(4, (float)t.mid.d);
    zg.SetValue(5, (float)t.e);
    zg.SetValue(6, (float)sizeof(t));
    zg.SetValue(7, 1.0f);
}
