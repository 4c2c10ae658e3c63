// One-tile matmul through the basic cube API, as a test kernel body:
// GM --ND2NZ--> L1 --LoadData--> L0A (ZZ) / L0B (ZN) --Mmad--> L0C --Fixpipe--> GM.
// TA x TA -> TC, A (M, K); B (K, N), or (N, K) when BT; optional bias (N).
// BMODE 0: B (K, N) with LoadData2D ifTranspose (b16);
//       1: B given as (N, K), one LoadData2D without transpose;
//       2: B (K, N) with LoadDataWithTranspose (b8 32x32 squares).
using namespace AscendC;

__aicore__ inline uint32_t CeilTo(uint32_t a, uint32_t b) { return (a + b - 1) / b * b; }

template <typename TA, typename TC, int BMODE, bool BIAS>
__aicore__ inline void CubeMatmul(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, uint32_t M, uint32_t N, uint32_t K,
                                  bool relu)
{
    constexpr uint32_t C0 = 32 / sizeof(TA);
    constexpr uint32_t F = 512 / sizeof(TA);
    constexpr uint32_t KB = BMODE == 2 ? 32 : C0; // k rows of B rounded for the 32x32 squares
    uint32_t M16 = CeilTo(M, 16), N16 = CeilTo(N, BMODE == 2 ? 32 : 16), Kc = CeilTo(K, KB);
    uint32_t M1 = M16 / 16, N1 = CeilTo(N, 16) / 16, K1 = Kc / C0; // N1: Mmad's ZN row of fractals
    GlobalTensor<TA> aG, bG;
    GlobalTensor<TC> cG, biasG;
    aG.SetGlobalBuffer((__gm__ TA *)a);
    bG.SetGlobalBuffer((__gm__ TA *)b);
    cG.SetGlobalBuffer((__gm__ TC *)c);
    biasG.SetGlobalBuffer((__gm__ TC *)bias);
    TPipe pipe;
    TQue<TPosition::A1, 1> qa1;
    TQue<TPosition::B1, 1> qb1;
    TQue<TPosition::A2, 1> qa2;
    TQue<TPosition::B2, 1> qb2;
    TQue<TPosition::CO1, 1> qc;
    TQue<TPosition::C1, 1> qbias1;
    TQue<TPosition::C2, 1> qbias2;
    pipe.InitBuffer(qa1, 1, M16 * Kc * sizeof(TA));
    pipe.InitBuffer(qb1, 1, N16 * Kc * sizeof(TA));
    pipe.InitBuffer(qa2, 1, M16 * Kc * sizeof(TA));
    pipe.InitBuffer(qb2, 1, N16 * Kc * sizeof(TA));
    pipe.InitBuffer(qc, 1, M16 * N16 * sizeof(TC));
    pipe.InitBuffer(qbias1, 1, N16 * sizeof(TC));
    pipe.InitBuffer(qbias2, 1, N16 * sizeof(TC));

    LocalTensor<TA> a1 = qa1.AllocTensor<TA>(), b1 = qb1.AllocTensor<TA>();
    DataCopy(a1, aG, Nd2NzParams(1, M, K, 0, K, M16, 1, 0));
    if (BMODE == 1)
        DataCopy(b1, bG, Nd2NzParams(1, N, K, 0, K, N16, 1, 0));
    else
        DataCopy(b1, bG, Nd2NzParams(1, K, N, 0, N, Kc, 1, 0));
    qa1.EnQue(a1);
    qb1.EnQue(b1);
    a1 = qa1.DeQue<TA>();
    b1 = qb1.DeQue<TA>();
    LocalTensor<TA> a2 = qa2.AllocTensor<TA>(), b2 = qb2.AllocTensor<TA>();
    for (uint32_t i = 0; i < M1; i++)
        LoadData(a2[i * K1 * F], a1[i * F], LoadData2DParams(0, (uint8_t)K1, (uint16_t)M1, 0, 0, false, 0));
    if (BMODE == 0) {
        for (uint32_t i = 0; i < K1; i++)
            LoadData(b2[i * N1 * F], b1[i * F], LoadData2DParams(0, (uint8_t)N1, (uint16_t)K1, 0, 0, true, 0));
    } else if (BMODE == 1) {
        LoadData(b2, b1, LoadData2DParams(0, (uint8_t)(K1 * N1), 1, 0, 0, false, 0));
    } else {
        // square (kb, nb) starts at L1 fractal nb * (Kc / 16) + kb * 2, square
        // nb * (Kc / 32) + kb (srcStride counts squares); its two transposed
        // fractals are ZN fractals (kb, 2nb) and (kb, 2nb + 1).
        for (uint32_t kb = 0; kb < Kc / 32; kb++)
            LoadDataWithTranspose(b2[kb * N1 * F], b1[kb * 2 * F],
                                  LoadData2dTransposeParams(0, (uint8_t)(N16 / 32), (uint16_t)(Kc / 32), 1, 0, 0));
    }
    qa1.FreeTensor(a1);
    qb1.FreeTensor(b1);
    qa2.EnQue(a2);
    qb2.EnQue(b2);
    a2 = qa2.DeQue<TA>();
    b2 = qb2.DeQue<TA>();
    LocalTensor<TC> c1 = qc.AllocTensor<TC>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    if (BIAS) {
        LocalTensor<TC> bs1 = qbias1.AllocTensor<TC>();
        DataCopy(bs1, biasG, Nd2NzParams(1, 1, N, 0, N, 1, 1, 0));
        qbias1.EnQue(bs1);                       // MTE2 -> MTE1
        bs1 = qbias1.DeQue<TC>();
        LocalTensor<TC> bs2 = qbias2.AllocTensor<TC>();
        DataCopy(bs2, bs1, DataCopyParams(1, (uint16_t)(N16 * sizeof(TC) / 64), 0, 0));
        qbias2.EnQue(bs2);                       // MTE1 -> M
        bs2 = qbias2.DeQue<TC>();
        mp.cmatrixInitVal = false;
        Mmad(c1, a2, b2, bs2, mp);
        qbias1.FreeTensor(bs1);
        qbias2.FreeTensor(bs2);
    } else {
        Mmad(c1, a2, b2, mp);
    }
    qa2.FreeTensor(a2);
    qb2.FreeTensor(b2);
    qc.EnQue(c1);
    c1 = qc.DeQue<TC>();
    FixpipeParamsV220 fp;
    fp.nSize = N;
    fp.mSize = M;
    fp.srcStride = M16;
    fp.dstStride = N;
    fp.reluEn = relu;
    Fixpipe(cG, c1, fp);
    qc.FreeTensor(c1);
}
