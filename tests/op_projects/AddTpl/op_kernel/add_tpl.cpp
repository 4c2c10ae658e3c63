// Test op project (ascendrtc): a templated kernel entry; the op build (and
// ascendrtc) instantiates it for the template arguments a tiling key holds.
#include "kernel_operator.h"
#include "tiling_key_add_tpl.h"

template <int D> struct Elem {
    using type = float;
};
template <> struct Elem<TPL_FP16> {
    using type = half;
};

template <int D_T, int TILE_NUM, int DOUBLE_IT>
__global__ __aicore__ void add_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    using T = typename Elem<D_T>::type;
    GET_TILING_DATA(t, tiling);
    uint32_t block = t.totalLength / AscendC::GetBlockNum();
    uint32_t tile = block / TILE_NUM;
    uint32_t off = block * AscendC::GetBlockIdx();
    AscendC::GlobalTensor<T> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ T *)x + off, block);
    yGm.SetGlobalBuffer((__gm__ T *)y + off, block);
    zGm.SetGlobalBuffer((__gm__ T *)z + off, block);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, tile * sizeof(T));
    pipe.InitBuffer(by, tile * sizeof(T));
    AscendC::LocalTensor<T> a = bx.Get<T>(), b = by.Get<T>();
    for (int i = 0; i < TILE_NUM; i++) {
        AscendC::DataCopy(a, xGm[i * tile], tile);
        AscendC::DataCopy(b, yGm[i * tile], tile);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(a, a, b, tile);
        if (DOUBLE_IT)
            AscendC::Add(a, a, a, tile);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zGm[i * tile], a, tile);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}
