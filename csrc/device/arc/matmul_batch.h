/* matmul_batch.h - the Matmul API's batches (IterateBatch, the
 * IterateBatch page) over arc/matmul_api.h's MatmulImpl: LayoutMode::NORMAL
 * -- batch b of A, B and C at b times one matrix (matrixStrideA/B when
 * given), the bias per batch (isBiasBatch, [batch, N]) or shared ([N]).
 * The BSNGD/SBNGD/BNGS1S2 layouts, batchA != batchB (the G-axis
 * broadcast and reduce), IterateNBatch and enPartialSum are refused. */
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
        static_assert(A_TYPE::layout == LayoutMode::NORMAL && B_TYPE::layout == LayoutMode::NORMAL &&
                          C_TYPE::layout == LayoutMode::NORMAL,
                      "Matmul::IterateBatch: only LayoutMode::NORMAL is simulated yet by ascendrtc (BSNGD, SBNGD, "
                      "BNGS1S2 are not)");
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
        this->a_ = a0;
        this->b_ = b0;
        this->bias_ = bias0;
        this->biasG_ = biasG0;
    }
    void WaitIterateBatch() {}
};

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto &MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>,
          template <const auto &, typename, typename, typename, typename, typename> class MATMUL_POLICY =
              Impl::Detail::MatmulPolicy>
class Matmul : public MatmulBatch<A_TYPE, B_TYPE, C_TYPE, BIAS_TYPE, MM_CFG, MM_CB, MATMUL_POLICY> {};

} // namespace AscendC

#endif /* ARC_MATMUL_BATCH_H_ */
