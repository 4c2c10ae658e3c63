"""Cube-unit device code shared by tests/test_device_cube_layouts.py (the
layouts against NumPy) and tests/test_cube_registers.py (the same loads
configured through the registers, and UnitFlag): the img2col 3D load of a
small feature map and one 32 x 32 x 32 half tile staged into L0A/L0B.
Prepend CUBE_HELPERS to a test's kernels (dev.program([CUBE_HELPERS, SRC]))."""

CUBE_HELPERS = r'''
using namespace AscendC;
constexpr IsResetLoad3dConfig IMG2COL_FROM_REGS = {false, false};

// img2col of NC1HWC0 half (C1 = 1, H x W), 3x3 filter, stride 1, pad 1, padValue -1, into L0A and back to GM:
// mode 0 every field in the params, 1 the Feature Map and Pad from the registers (SetFmatrix,
// SetLoadDataPaddingValue), 2 from the registers without setting them (an error)
__aicore__ inline void Img2col(GM_ADDR x, GM_ADDR y, uint32_t H, uint32_t W, uint32_t mode)
{
    GlobalTensor<half> gx, gy; gx.SetGlobalBuffer((__gm__ half *)x); gy.SetGlobalBuffer((__gm__ half *)y);
    TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a;
    pipe.InitBuffer(l1, 8192); pipe.InitBuffer(l0a, 32 * 144 * 2);
    LocalTensor<half> s = l1.Get<half>(), d = l0a.Get<half>();
    DataCopy(s, gx, H * W * 16); PipeBarrier<PIPE_ALL>();
    LoadData3DParamsV2<half> p;
    p.channelSize = 16; p.kExtension = 144; p.mExtension = 32; p.filterW = 3; p.filterH = 3;
    if (mode == 0) {
        p.padList[0] = p.padList[1] = p.padList[2] = p.padList[3] = 1;
        p.l1H = H; p.l1W = W; p.padValue = (half)-1;
        LoadData(d, s, p);
    } else if (mode == 3) {   // the same fields as a braced list, pad list first (CATLASS's conv)
        uint8_t pad[4] = {1, 1, 1, 1};
        LoadData(d, s, {pad, (uint16_t)H, (uint16_t)W, 16, 144, 32, 0, 0, 1, 1, 3, 3, 1, 1, false, false, (half)-1});
    } else {
        if (mode == 1) {
            const uint8_t pad[4] = {1, 1, 1, 1};
            SetFmatrix(H, W, pad, FmatrixMode::FMATRIX_LEFT);
            SetLoadDataPaddingValue<half>((half)-1);
        }
        LoadData<half, IMG2COL_FROM_REGS>(d, s, p);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(gy, d, 32 * 144); PipeBarrier<PIPE_ALL>();
}

// A 32x32x32 half tile: A (M, K) and B (N, K) from GM through L1 into L0A and L0B (fractal by fractal),
// and L0C's float accumulator; the buffers live as long as the tile.
struct Tile32 {
    TBuf<TPosition::A1> a1, b1; TBuf<TPosition::A2> a2; TBuf<TPosition::B2> b2; TBuf<TPosition::CO1> c1;
    LocalTensor<half> la2, lb2;
    LocalTensor<float> lc;
    __aicore__ inline void Load(TPipe &pipe, GM_ADDR a, GM_ADDR b)
    {
        GlobalTensor<half> ga, gb; ga.SetGlobalBuffer((__gm__ half *)a); gb.SetGlobalBuffer((__gm__ half *)b);
        pipe.InitBuffer(a1, 2048); pipe.InitBuffer(b1, 2048); pipe.InitBuffer(a2, 2048); pipe.InitBuffer(b2, 2048);
        pipe.InitBuffer(c1, 4096);
        LocalTensor<half> la1 = a1.Get<half>(), lb1 = b1.Get<half>();
        la2 = a2.Get<half>(); lb2 = b2.Get<half>(); lc = c1.Get<float>();
        DataCopy(la1, ga, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();
        DataCopy(lb1, gb, Nd2NzParams(1, 32, 32, 0, 32, 32, 1, 0)); PipeBarrier<PIPE_ALL>();
        for (int i = 0; i < 2; i++) LoadData(la2[i * 512], la1[i * 256], LoadData2DParams(0, 2, 2, 0, 0, false, 0));
        PipeBarrier<PIPE_ALL>();
        LoadData(lb2, lb1, LoadData2DParams(0, 4, 1, 0, 0, false, 0)); PipeBarrier<PIPE_ALL>();
    }
};
'''
