// TplAdd: z = x + y (+ bias), instantiated per template-argument
// combination; the host picks one with GET_TPL_TILING_KEY.
#include "kernel_operator.h"
#include "tpl_add_key.h"
#include "tpl_add_tiling.h"

template <class T, int TILES, bool BIAS>
__aicore__ inline void AddTiles(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, float bias)
{
    const uint32_t share = total / AscendC::GetBlockNum();
    const uint32_t len = share / TILES;
    AscendC::GlobalTensor<T> xg, yg, zg;
    const int64_t off = (int64_t)share * AscendC::GetBlockIdx();
    xg.SetGlobalBuffer((__gm__ T *)x + off, share);
    yg.SetGlobalBuffer((__gm__ T *)y + off, share);
    zg.SetGlobalBuffer((__gm__ T *)z + off, share);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> bx, by;
    pipe.InitBuffer(bx, len * sizeof(T));
    pipe.InitBuffer(by, len * sizeof(T));
    AscendC::LocalTensor<T> a = bx.Get<T>(), b = by.Get<T>();
    for (int i = 0; i < TILES; i++) {
        AscendC::DataCopy(a, xg[i * len], len);
        AscendC::DataCopy(b, yg[i * len], len);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::Add(a, a, b, len);
        if (BIAS)
            AscendC::Adds(a, a, (T)bias, len);
        AscendC::PipeBarrier<PIPE_ALL>();
        AscendC::DataCopy(zg[i * len], a, len);
        AscendC::PipeBarrier<PIPE_ALL>();
    }
}

template <int ELEM, int TILES, bool BIAS>
__global__ __aicore__ void tpl_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(optiling::TplAddTiling);
    REGISTER_TILING_FOR_TILINGKEY("ELEM == TPL_FLOAT", optiling::TplAddTilingWide);
    if constexpr (ELEM == TPL_FLOAT) {
        GET_TILING_DATA_WITH_STRUCT(optiling::TplAddTilingWide, t, tiling);
        AddTiles<float, TILES, BIAS>(x, y, z, t.totalLength, t.bias);
    } else {
        GET_TILING_DATA(t, tiling);
        AddTiles<half, TILES, BIAS>(x, y, z, t.totalLength, 0.0f);
    }
}
