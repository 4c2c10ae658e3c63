/* matmul_batch.h - the Matmul API's batches (IterateBatch, the
 * IterateBatch page) over arc/matmul_api.h's MatmulImpl: LayoutMode::NORMAL
 * -- batch b of A, B and C at b times one matrix (matrixStrideA/B when
 * given), the bias per batch (isBiasBatch, [batch, N]) or shared ([N]);
 * BSNGD -- [B, S, N, G, D], a batch one (n, g)'s S x D matrix with rows
 * N * G * D apart, batch b at b * D (C: S1 x S2, b * S2).  SBNGD/BNGS1S2,
 * batchA != batchB (the G-axis broadcast and reduce), a BSNGD bias and
 * enPartialSum are refused.  IterateNBatch loops IterateBatch into the
 * workspace. */
#ifndef ARC_MATMUL_BATCH_H_
#define ARC_MATMUL_BATCH_H_

namespace AscendC {

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE, const auto &MM_CFG, class MM_CB,
          template <const auto &, typename, typename, typename, typename, typename> class MATMUL_POLICY>
class MatmulBatch : public MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY> {
    using Base = MatmulImpl<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY>;
    using TC = typename C_TYPE::T;

public:
    /* batchA (== batchB) products, batch b's C at b * M * N of gm. */
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateBatch(const GlobalTensor<TC> &gm, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                      const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                      const uint32_t matrixStrideC = 0, const bool enPartialSum = false, const uint8_t enAtomic = 0)
    {
        const char *api = "Matmul::IterateBatch";
        constexpr LayoutMode L = A_TYPE::layout;
        static_assert((L == LayoutMode::NORMAL || L == LayoutMode::BSNGD) && B_TYPE::layout == L && C_TYPE::layout == L,
                      "Matmul::IterateBatch: A, B and C all NORMAL or all BSNGD are simulated (SBNGD, BNGS1S2 "
                      "and mixed layouts are not yet)");
        (void)matrixStrideC;
        ARC_CHECK(batchA == batchB, api, "batchA %u and batchB %u differ: the broadcast is not simulated yet", batchA,
                  batchB);
        ARC_CHECK(!enPartialSum && !enSequentialWrite, api,
                  "enPartialSum / enSequentialWrite into GM are not simulated yet (C in GM: enSequentialWrite false)");
        __mm::Operand<typename A_TYPE::T> a0 = this->a_;
        __mm::Operand<typename B_TYPE::T> b0 = this->b_;
        const typename BIAS_TYPE::T *bias0 = this->bias_;
        GlobalTensor<typename BIAS_TYPE::T> biasG0 = this->biasG_;
        ARC_CHECK(a0.gm && b0.gm && !a0.scalar && !b0.scalar, api, "A and B must be GM matrices (SetTensorA/B first)");
        uint64_t sa = matrixStrideA ? matrixStrideA : (uint64_t)this->M_ * this->Ka_;
        uint64_t sb = matrixStrideB ? matrixStrideB : (uint64_t)this->Kb_ * this->N_;
        uint64_t sc = (uint64_t)this->M_ * this->N_;
        int shape[5] = {this->M_, this->N_, this->Ka_, this->Kb_, this->Kc_};
        if (L == LayoutMode::BSNGD) { /* batch j at the j-th D (S2) of a row; rows N * G * D (S2) apart */
            const TCubeTiling &t = this->t_;
            ARC_CHECK(!this->hasBias_, api, "a bias with the BSNGD layout is not simulated yet");
            sa = t.ALayoutInfoD;
            sb = t.BLayoutInfoD;
            sc = t.CLayoutInfoS2;
            (this->a_.trans ? this->M_ : this->Ka_) = t.ALayoutInfoN * t.ALayoutInfoG * t.ALayoutInfoD;
            (this->b_.trans ? this->Kb_ : this->N_) = t.BLayoutInfoN * t.BLayoutInfoG * t.BLayoutInfoD;
            this->Kc_ = t.CLayoutInfoN * t.CLayoutInfoG * t.CLayoutInfoS2;
        }
        for (uint32_t i = 0; i < batchA; i++) {
            this->a_.g = a0.g[sa * i];
            this->a_.p = this->a_.g.addr_;
            this->b_.g = b0.g[sb * i];
            this->b_.p = this->b_.g.addr_;
            if (this->hasBias_ && __mm::cfg_of(MM_CFG).isBiasBatch) {
                this->bias_ = bias0 + (uint64_t)this->N_ * i;
                if (this->biasGm_) this->biasG_ = biasG0[(uint64_t)this->N_ * i];
            }
            this->template IterateAll<true>(gm[sc * i], enAtomic);
        }
        this->M_ = shape[0];
        this->N_ = shape[1];
        this->Ka_ = shape[2];
        this->Kb_ = shape[3];
        this->Kc_ = shape[4];
        this->a_ = a0;
        this->b_ = b0;
        this->bias_ = bias0;
        this->biasG_ = biasG0;
    }
    void WaitIterateBatch() {}

    /* The workspace IterateNBatch writes C to (GM). */
    using Base::SetWorkspace;
    void SetWorkspace(const GlobalTensor<TC> &ws)
    {
        ws_ = ws;
        wsSet_ = true;
    }
    /* batchLoop IterateBatch calls (isNBatch), call i on the batches after
     * the first i * batchA, C into the workspace at its own place; computed
     * here, so GetBatchTensorC<false> finds them there. */
    template <bool sync = true, bool waitIterateBatch = false>
    void IterateNBatch(const uint32_t batchLoop, uint32_t batchA, uint32_t batchB, bool enSequentialWrite,
                       const uint32_t matrixStrideA = 0, const uint32_t matrixStrideB = 0,
                       const uint32_t matrixStrideC = 0)
    {
        static_assert(__mm::cfg_of(MM_CFG).isNBatch, "Matmul::IterateNBatch needs MatmulConfig.isNBatch");
        ARC_CHECK(wsSet_, "Matmul::IterateNBatch", "no workspace: SetWorkspace(GlobalTensor) first");
        const TCubeTiling &t = this->t_;
        bool bs = A_TYPE::layout == LayoutMode::BSNGD;
        uint64_t sa = bs ? t.ALayoutInfoD : (uint64_t)this->M_ * this->Ka_;
        uint64_t sb = bs ? t.BLayoutInfoD : (uint64_t)this->Kb_ * this->N_;
        uint64_t sc = bs ? t.CLayoutInfoS2 : (uint64_t)this->M_ * this->N_;
        __mm::Operand<typename A_TYPE::T> a0 = this->a_;
        __mm::Operand<typename B_TYPE::T> b0 = this->b_;
        for (uint32_t i = 0; i < batchLoop; i++) {
            this->a_.g = a0.g[(matrixStrideA ? matrixStrideA : sa) * batchA * i];
            this->a_.p = this->a_.g.addr_;
            this->b_.g = b0.g[(matrixStrideB ? matrixStrideB : sb) * batchB * i];
            this->b_.p = this->b_.g.addr_;
            IterateBatch(ws_[sc * batchA * i], batchA, batchB, enSequentialWrite, matrixStrideA, matrixStrideB,
                         matrixStrideC);
        }
        this->a_ = a0;
        this->b_ = b0;
    }
    /* After IterateNBatch<false>: the batches are in the workspace already. */
    template <bool sync = true> void GetBatchTensorC(uint32_t batchA, uint32_t batchB, bool enSequentialWrite = false)
    {
        (void)batchA; (void)batchB; (void)enSequentialWrite;
        ARC_CHECK(wsSet_, "Matmul::GetBatchTensorC", "no IterateNBatch<false> wrote the workspace");
    }

private:
    GlobalTensor<TC> ws_;
    bool wsSet_ = false;
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto &MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto &, typename, typename, typename, typename, typename> class MATMUL_POLICY =
              Impl::Detail::MatmulPolicy>
class Matmul : public MatmulBatch<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY> {};

} // namespace AscendC

#endif /* ARC_MATMUL_BATCH_H_ */
