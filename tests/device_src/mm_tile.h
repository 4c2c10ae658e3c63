// One core's tile of C = A x B (half -> float, ND in GM) through the Matmul
// API, as the samples split the work: vector block i of usedCoreNum takes
// tile (i % mBlocks, i / mBlocks) of singleCoreM x singleCoreN; blocks
// beyond usedCoreNum have none.  Call after REGIST_MATMUL_OBJ (a MIX
// kernel's AIC stays there, serving).
template <class MM>
__aicore__ inline void MatmulTile(MM &mm, const TCubeTiling &t, GlobalTensor<half> ga, GlobalTensor<half> gb,
                                  GlobalTensor<float> gc)
{
    if (GetBlockIdx() >= t.usedCoreNum) return;
    int mBlocks = (t.M + t.singleCoreM - 1) / t.singleCoreM;
    int mi = GetBlockIdx() % mBlocks, ni = GetBlockIdx() / mBlocks;
    int tm = t.M - mi * t.singleCoreM < t.singleCoreM ? t.M - mi * t.singleCoreM : t.singleCoreM;
    int tn = t.N - ni * t.singleCoreN < t.singleCoreN ? t.N - ni * t.singleCoreN : t.singleCoreN;
    mm.SetTensorA(ga[mi * t.singleCoreM * t.Ka]);
    mm.SetTensorB(gb[ni * t.singleCoreN]);
    mm.SetTail(tm, tn);
    mm.IterateAll(gc[mi * t.singleCoreM * t.N + ni * t.singleCoreN]);
    mm.End();
}
