/* matmul_api.h - the high-level Matmul API (lib/matmul_intf.h): MatmulType,
 * Matmul<A, B, C, BIAS, MM_CFG>, the configs, REGIST_MATMUL_OBJ
 * ("Cube unit" in csrc/device/README.md); the configs are arc/matmul_config.h.
 *
 * Model: the object computes on the core that calls it, straight from GM
 * (or a TSCM/VECOUT local A/B: this core's block), one baseM x baseN block per Iterate with
 * the whole singleCoreK, accumulating in float (int32 for int8) like L0C.
 * On the NPU an AIV's calls are messages to its AIC (an undocumented
 * protocol); the results are the same.  The tiling's base/step/depth fields
 * do not change the numbers; baseM/baseN set the blocks Iterate yields. */
#ifndef ARC_MATMUL_API_H_
#define ARC_MATMUL_API_H_

#include "arc/cube_types.h"
#include "arc/matmul_cost.h"
#include "arc/cube_micro.h"
#include "kernel_tiling/kernel_tiling.h"
#include "arc/matmul_mix.h"

/* Kernels write `mm.template IterateAll(c)` with no template arguments
 * (the public samples do); CANN's compiler accepts it, so the Matmul API
 * turns clang's default-error diagnostic off for the rest of the kernel. */
#pragma clang diagnostic ignored "-Wmissing-template-arg-list-after-template-kw"

#include "arc/matmul_config.h"
#include "arc/matmul_policy.h"
#include "arc/matmul_out.h"
#include "arc/matmul_mx.h"

namespace AscendC {

/* MATMUL_POLICY: one of the MatmulPolicy page's (arc/matmul_policy.h). */
#define ARC_MM_POLICY_PARAM_ template <const auto &, typename, typename, typename, typename, typename> class
template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE = C_TYPE, const auto &MM_CFG = CFG_NORM,
          class MM_CB = MatmulCallBackFunc<>, ARC_MM_POLICY_PARAM_ MATMUL_POLICY = Impl::Detail::MatmulPolicy>
class MatmulImpl : public __mm::MxPart<A_TYPE, B_TYPE, __mm::policy_kind<MATMUL_POLICY>::value == __mm::POLICY_MX> {
    using TA = typename A_TYPE::T;
    using TB = typename B_TYPE::T;
    using TC = typename C_TYPE::T;
    using TBias = typename BIAS_TYPE::T;
    using ACC = typename __mm::acc<TA>::type;
    static_assert(sizeof(TA) == sizeof(TB), "Matmul: A and B types differ in width");
    static_assert(__arc::packed_per_byte<TA>::value <= 2 && __arc::packed_per_byte<TB>::value <= 2,
                  "Matmul: 2-bit operands are not simulated yet by ascendrtc's Matmul API");
    /* The config (arc/matmul_policy.h says which members change the results). */
    static constexpr MatmulConfig CFG = __mm::cfg_of(MM_CFG);
    static constexpr MatmulApiStaticTiling ST = __mm::static_of(MM_CFG);
    static constexpr int POLICY = __mm::policy_kind<MATMUL_POLICY>::value;
    static_assert(__mm::cfg_check<POLICY, CFG.intraBlockPartSum,
                                  CFG.isPartialOutput && !CFG.doMultiDataLoad && !CFG.doSpecialMDL>::ok, "");
    static constexpr bool PARTIAL = CFG.isPartialOutput;
    static_assert(POLICY != __mm::POLICY_SPLIT_M || __NPU_ARCH__ == 3510, "SplitMMatmulPolicy: Ascend 950 (dav-3510) only");

public:
    __aicore__ MatmulImpl() = default;

    /* Tiling from a local struct or from GM. */
    /* The second argument (a TPipe, or a queue some kernels pass) is not used. */
    template <class P = TPipe> void Init(const TCubeTiling *tiling, P *tpipe = nullptr)
    {
        (void)tpipe;
        __arc_uses(__mm::uses);
        ARC_CHECK(tiling != nullptr || init_static(), "Matmul::Init",
                  "the tiling pointer is null, and the Matmul's MM_CFG is no constant tiling with every singleCore "
                  "and base shape given (GetMatmulApiTiling)");
        if (tiling) t_ = *tiling;
        apply_static();
        __mm::check_cores(t_, "Matmul::Init");
        ARC_CHECK(t_.baseM > 0 && t_.baseN > 0, "Matmul::Init",
                  "tiling baseM %d and baseN %d must be positive (fill TCubeTiling with ascendrtc.matmul_tiling "
                  "or MultiCoreMatmulTiling::GetTiling)", t_.baseM, t_.baseN);
        use_tiling();
        hasBias_ = t_.isBias != 0 && CFG.enableSetBias;
    }
    /* A null tiling (REGIST_MATMUL_OBJ(..., nullptr)) with a constant
     * tiling of every singleCore and base shape (arc/matmul_policy.h). */
    bool init_static()
    {
        if (!__mm::static_tiling(ST, t_)) return false;
        use_tiling();
        return true;
    }
    void use_tiling()
    {
        M_ = t_.M;
        N_ = t_.N;
        Ka_ = t_.Ka;
        Kb_ = t_.Kb;
        Kc_ = 0;
        sm_ = t_.singleCoreM;
        sn_ = t_.singleCoreN;
        sk_ = t_.singleCoreK;
        inited_ = true;
        reset_iter();
    }
    void SetOrgShape(int orgM, int orgN, int orgK) { SetOrgShape(orgM, orgN, orgK, orgK, orgN); }
    /* orgKc: the N (row pitch) of C when it differs from B's N; 0 = orgN. */
    void SetOrgShape(int orgM, int orgN, int orgKa, int orgKb, int orgKc = 0)
    {
        Kc_ = orgKc;
        M_ = orgM;
        N_ = orgN;
        Ka_ = orgKa;
        Kb_ = orgKb;
    }
    void SetSingleShape(int singleM, int singleN, int singleK)
    {
        sm_ = singleM;
        sn_ = singleN;
        sk_ = singleK;
        reset_iter();
    }
    void SetTail(int tailM = -1, int tailN = -1, int tailK = -1)
    {
        if (tailM >= 0) sm_ = tailM;
        if (tailN >= 0) sn_ = tailN;
        if (tailK >= 0) sk_ = tailK;
        reset_iter();
    }
    void SetTensorA(const GlobalTensor<TA> &gm, bool isTransposeA = false)
    {
        check_trans<TA>(isTransposeA, A_TYPE::isTrans, "SetTensorA", "A");
        set_operand(a_, &gm, gm.addr_, __mm::nd_trans<A_TYPE::format>(isTransposeA, true, "SetTensorA"));
    }
    void SetTensorA(const LocalTensor<TA> &l, bool isTransposeA = false)
    {
        check_trans<TA>(isTransposeA, A_TYPE::isTrans, "SetTensorA", "A");
        set_operand<TA>(a_, nullptr, l.addr_, __mm::nd_trans<A_TYPE::format>(isTransposeA, false, "SetTensorA"));
    }
    void SetTensorA(TA scalar) { set_scalar(a_, scalar); }
    void SetTensorB(const GlobalTensor<TB> &gm, bool isTransposeB = false)
    {
        check_trans<TB>(isTransposeB, B_TYPE::isTrans, "SetTensorB", "B");
        set_operand(b_, &gm, gm.addr_, __mm::nd_trans<B_TYPE::format>(isTransposeB, true, "SetTensorB"));
    }
    void SetTensorB(const LocalTensor<TB> &l, bool isTransposeB = false)
    {
        check_trans<TB>(isTransposeB, B_TYPE::isTrans, "SetTensorB", "B");
        set_operand<TB>(b_, nullptr, l.addr_, __mm::nd_trans<B_TYPE::format>(isTransposeB, false, "SetTensorB"));
    }
    void SetTensorB(TB scalar) { set_scalar(b_, scalar); }
    /* With enableSetBias = false the bias code is compiled out: no bias. */
    void SetBias(const GlobalTensor<TBias> &gm)
    {
        bias_ = gm.addr_;
        biasG_ = gm;
        biasGm_ = true;
        hasBias_ = CFG.enableSetBias;
    }
    void SetBias(const LocalTensor<TBias> &l)
    {
        bias_ = l.addr_;
        biasGm_ = false;
        hasBias_ = CFG.enableSetBias;
    }
    void DisableBias() { hasBias_ = false; }
    void ClearBias() { hasBias_ = false; }
    template <typename... U> void SetSelfDefineData(U...) {}
    template <typename... U> void SetUserDefInfo(U...) {}
    /* The (de)quantisation of C (arc/matmul_out.h Quant): one word, or one per column of this core's C. */
    void SetQuantScalar(uint64_t quantScalar) { quant_ = __mm::Quant{1, quantScalar, nullptr}; }
    void SetQuantVector(const GlobalTensor<uint64_t> &quantTensor) { quant_ = __mm::Quant{2, 0, quantTensor.addr_}; }
    template <typename U> void SetLocalWorkspace(const U &) {}
    template <typename U> void SetWorkspace(const U &) {}
    template <typename U> void SetWorkspace(U *, int) {}
    void SetHF32(bool = false, int = 0) {}
    void SetSubBlockIdx(uint8_t) {}
    uint8_t GetSubBlockIdx() { return 0; }
    void End() { reset_iter(); }

    /* The whole singleCoreM x singleCoreN into C (GM: ND pitch N, or NZ). */
    template <bool sync = true>
    void IterateAll(const GlobalTensor<TC> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false,
                    bool waitIterateAll = false, bool fakeMsg = false)
    {
        (void)enSequentialWrite; (void)waitIterateAll; (void)fakeMsg;
        __mm::COut o = out_gm("Matmul::IterateAll");
        each_block([&](uint32_t mi, uint32_t ni) { write_gm(gm, mi * t_.baseM, ni * t_.baseN, o, enAtomic, "Matmul::IterateAll"); });
    }
    template <bool sync = true> void IterateAll(const LocalTensor<TC> &ub, uint8_t enAtomic = 0)
    {
        __mm::COut o = __mm::c_layout<TC, C_TYPE::format>(sn_, sm_, CFG.isEnableChannelSplit, "Matmul::IterateAll");
        each_block([&](uint32_t mi, uint32_t ni) { write_local(ub, mi * t_.baseM, ni * t_.baseN, o, enAtomic); });
    }
    void WaitIterateAll() {}

    /* One baseM x baseN block per call (with isPartialOutput, one per baseK
     * of it: the K chunks of a block in a row); false when all are done. */
    template <bool sync = true> bool Iterate(bool enPartialSum = false)
    {
        (void)enPartialSum;
        ARC_CHECK(POLICY != __mm::POLICY_UPPER && POLICY != __mm::POLICY_LOWER, "Matmul::Iterate",
                  "the triangle MatmulPolicy is simulated with IterateAll only");
        if (!sync) { /* every block at once; each GetTensorC<false> then takes the next, in iteration order */
            prepare("Matmul::Iterate");
            iter_ = 0;
            async_ = 0;
            return steps() > 0;
        }
        if (iter_ < 0) {
            prepare("Matmul::Iterate");
            iter_ = 0;
        } else {
            iter_++;
        }
        if ((uint32_t)iter_ >= steps()) {
            reset_iter();
            return false;
        }
        step((uint32_t)iter_);
        return true;
    }
    /* The next block into a CO1 tensor of the kernel's (C in CO1): NZ,
     * 16 x 16 fractals, baseM rounded up to 16 rows; enPartialSum adds it
     * to what the tensor holds.  The kernel moves it out with Fixpipe. */
    template <bool sync = true> bool Iterate(bool enPartialSum, const LocalTensor<TC> &co1)
    {
        static_assert(C_TYPE::pos == TPosition::CO1, "Matmul::Iterate(enPartialSum, co1) needs C in TPosition::CO1");
        if (!Iterate<true>(false)) return false;
        __mm::COut o;
        o.nz = true;
        o.rows = (t_.baseM + 15) / 16 * 16;
        uint64_t bytes = (uint64_t)((bn_ + 15) / 16) * o.rows * 16 * sizeof(TC);
        ARC_CHECK(bytes <= co1.bytes_, "Matmul::Iterate", "the block needs %llu bytes of the CO1 tensor, which has %u",
                  (unsigned long long)bytes, co1.bytes_);
        __arc::race(__arc::RP_M, enPartialSum ? 2 : 1, co1.addr_, bytes, "Matmul::Iterate"); /* as Mmad writes L0C */
        write_local(co1, 0, 0, o, enPartialSum ? 1 : 0);
        __arc::frac_mark(__arc::cube_meta()->l0c, __cube::frac_of(co1.addr_, TPosition::CO1, 1024), (uint32_t)(bytes / 1024));
        return true;
    }
    /* The current block to GM: at its place in singleCoreM x singleCoreN
     * (pitch N), or packed at gm with pitch baseN when enSequentialWrite. */
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<TC> &gm, uint8_t enAtomic = 0, bool enSequentialWrite = false)
    {
        ARC_CHECK(iter_ >= 0, "Matmul::GetTensorC", "no block: call Iterate() first (and while it returns true)");
        if (!sync && async_ >= 0) next_async("Matmul::GetTensorC");
        if (enSequentialWrite)
            write_gm(gm, 0, 0, out_packed("Matmul::GetTensorC"), enAtomic, "Matmul::GetTensorC");
        else
            write_gm(gm, cm_ * t_.baseM, cn_ * t_.baseN, out_gm("Matmul::GetTensorC"), enAtomic, "Matmul::GetTensorC");
    }
    /* The current block to a local tensor (VECIN): ND baseM x baseN,
     * pitch baseN (a tail block keeps the pitch). */
    template <bool sync = true>
    void GetTensorC(const LocalTensor<TC> &ub, uint8_t enAtomic = 0, bool enSequentialWrite = false)
    {
        ARC_CHECK(iter_ >= 0, "Matmul::GetTensorC", "no block: call Iterate() first (and while it returns true)");
        if (!sync && async_ >= 0) next_async("Matmul::GetTensorC");
        if (POLICY == __mm::POLICY_SPLIT_M) { /* this AIV's half of the block's rows (the first has one more) */
            ARC_CHECK(enSequentialWrite, "Matmul::GetTensorC", "SplitMMatmulPolicy writes each AIV's half packed: enSequentialWrite");
            int h = (bm_ + 1) / 2, sub = (int)AscendC::GetSubBlockIdx();
            write_local(ub, 0, 0, out_packed("Matmul::GetTensorC"), enAtomic, sub ? h : 0, sub ? bm_ : h);
        } else if (enSequentialWrite)
            write_local(ub, 0, 0, out_packed("Matmul::GetTensorC"), enAtomic);
        else
            write_local(ub, cm_ * t_.baseM, cn_ * t_.baseN,
                        __mm::c_layout<TC, C_TYPE::format>(sn_, sm_, CFG.isEnableChannelSplit, "Matmul::GetTensorC"),
                        enAtomic);
    }
    template <bool sync = true>
    void GetTensorC(const GlobalTensor<TC> &gm, const LocalTensor<TC> &ub, uint8_t enAtomic = 0,
                    bool enSequentialWrite = false)
    {
        GetTensorC<sync>(gm, enAtomic, enSequentialWrite);
        GetTensorC<true>(ub, enAtomic, true); /* the same block */
    }

    /* Shapes as kernels read them back. */
    TCubeTiling t_{};

protected: /* arc/matmul_batch.h walks the batches */
    void reset_iter() { iter_ = -1; async_ = -1; }
    /* After Iterate<false>: the next block, computed now. */
    void next_async(const char *api)
    {
        ARC_CHECK((uint32_t)async_ < steps(), api,
                  "GetTensorC<false> after all %u blocks of Iterate<false>() were taken", steps());
        step((uint32_t)async_++);
    }
    uint32_t m_blocks() const { return (sm_ + t_.baseM - 1) / t_.baseM; }
    uint32_t n_blocks() const { return (sn_ + t_.baseN - 1) / t_.baseN; }
    /* K chunks per block: baseK each with isPartialOutput, else one of singleCoreK. */
    uint32_t k_chunks() const { return PARTIAL ? (uint32_t)((sk_ + t_.baseK - 1) / t_.baseK) : 1u; }
    uint32_t steps() const { return m_blocks() * n_blocks() * k_chunks(); }
    /* Step i of Iterate: its block (in iteration order) and K chunk, computed. */
    void step(uint32_t i)
    {
        uint32_t kc = k_chunks();
        block_of(i / kc, m_blocks(), n_blocks(), cm_, cn_);
        if (PARTIAL) {
            ARC_CHECK(t_.baseK > 0, "Matmul::Iterate", "isPartialOutput needs the tiling's baseK (%d) positive", t_.baseK);
            int k0 = (int)(i % kc) * t_.baseK;
            compute(cm_, cn_, k0, sk_ - k0 < t_.baseK ? sk_ - k0 : t_.baseK);
        } else {
            compute(cm_, cn_, 0, sk_);
        }
    }
    /* IterateAll: every block computed in iteration order, then written;
     * the triangle policies skip the blocks below (upper) or above (lower)
     * the diagonal of the core's blocks. */
    template <typename Write> void each_block(Write write)
    {
        prepare("Matmul::IterateAll");
        ARC_CHECK(!PARTIAL, "Matmul::IterateAll", "MatmulConfig.isPartialOutput yields K chunks through Iterate and GetTensorC");
        uint32_t mb = m_blocks(), nb = n_blocks();
        for (uint32_t i = 0; i < mb * nb; i++) {
            uint32_t mi, ni;
            block_of(i, mb, nb, mi, ni);
            if ((POLICY == __mm::POLICY_UPPER && mi > ni) || (POLICY == __mm::POLICY_LOWER && mi < ni)) continue;
            compute(mi, ni, 0, sk_);
            write(mi, ni);
        }
        reset_iter();
    }
    /* The constant tiling's base shapes and order over the tiling's (the
     * NPU compiles the constants in). */
    void apply_static()
    {
        if (ST.baseM > 0) t_.baseM = ST.baseM;
        if (ST.baseN > 0) t_.baseN = ST.baseN;
        if (ST.baseK > 0) t_.baseK = ST.baseK;
        if (ST.iterateOrder >= 0) t_.iterateOrder = ST.iterateOrder;
    }
    /* C's layout in GM (pitch N, or NZ of the original M) and packed (enSequentialWrite). */
    __mm::COut out_gm(const char *api) const
    {
        return __mm::c_layout<TC, C_TYPE::format>(Kc_ > 0 ? Kc_ : N_, M_, CFG.isEnableChannelSplit, api);
    }
    __mm::COut out_packed(const char *api) const
    {
        return __mm::c_layout<TC, C_TYPE::format>(t_.baseN, t_.baseM, CFG.isEnableChannelSplit, api);
    }
    /* A GM operand (g non-null) or a local one at p. */
    template <typename T>
    void set_operand(__mm::Operand<T> &o, const GlobalTensor<T> *g, const T *p, bool trans)
    {
        o = __mm::Operand<T>{};
        if (g) {
            o.g = *g;
            o.gm = true;
        }
        o.p = p;
        o.trans = trans;
        o.set = true;
        reset_iter();
    }
    template <typename T> void set_scalar(__mm::Operand<T> &o, T v)
    {
        o = __mm::Operand<T>{};
        o.scalar = true;
        o.value = v;
        o.set = true;
        reset_iter();
    }
    /* ISTRANS = false forbids a transposed operand, except half and
     * bfloat16_t ones: SetTensorA/B's pages require the two to agree for the
     * other types only, and CANN's matmul_high_performance example
     * transposes a half B with ISTRANS = false. */
    template <typename T> static void check_trans(bool want, bool declared, const char *api, const char *what)
    {
        ARC_CHECK(!want || declared || (sizeof(T) == 2 && __arc::is_float_v<T>), api,
                  "transposing %s needs ISTRANS = true in its MatmulType (MatmulType<pos, fmt, T, true>)", what);
    }
    void block_of(uint32_t i, uint32_t mb, uint32_t nb, uint32_t &mi, uint32_t &ni) const
    {
        /* OUTER_PRODUCT takes the config's order (the MatmulConfig page) */
        bool nFirst = CFG.scheduleType == ScheduleType::OUTER_PRODUCT && CFG.iterateOrder != IterateOrder::UNDEF
                          ? CFG.iterateOrder == IterateOrder::ORDER_N : t_.iterateOrder == 1;
        if (nFirst) {
            mi = i / nb;
            ni = i % nb;
        } else {
            mi = i % mb;
            ni = i / mb;
        }
    }
    void prepare(const char *api)
    {
        ARC_CHECK(inited_, api, "the Matmul object has no tiling: REGIST_MATMUL_OBJ(..., &tiling) or Init(&tiling) first");
        ARC_CHECK(a_.set && b_.set, api, "SetTensorA and SetTensorB must come first (A %s, B %s)",
                  a_.set ? "set" : "not set", b_.set ? "set" : "not set");
        ARC_CHECK(sm_ >= 0 && sn_ >= 0 && sk_ >= 0, api, "single shape %d x %d x %d is negative", sm_, sn_, sk_);
        this->mx_check(api, a_.gm && b_.gm, sm_, sn_, M_, N_, Ka_);
        ARC_CHECK(!hasBias_ || bias_ != nullptr, api, "the tiling says isBias but SetBias was not called");
        __mm::check_quant<TC, ACC>(quant_, api);
        ARC_CHECK(!PARTIAL || !hasBias_, api,
                  "MatmulConfig.isPartialOutput with a bias: which K chunk adds it is not documented");
        int lda = a_.trans ? M_ : Ka_, ldb = b_.trans ? Kb_ : N_;
        ARC_CHECK(__mm::nd_like(A_TYPE::format) || A_TYPE::format == CubeFormat::VECTOR ||
                      A_TYPE::format == CubeFormat::SCALAR || A_TYPE::format == CubeFormat::NZ,
                  api, "A format %d is not supported (ND, COLUMN_MAJOR, NZ, VECTOR, SCALAR)", (int)A_TYPE::format);
        (void)lda; (void)ldb;
        /* GM extents of this core's A and B. */
        constexpr uint64_t pa = __mm::fp4_v<TA> ? 2 : __arc::packed_per_byte<TA>::value,
                           pb = __mm::fp4_v<TB> ? 2 : __arc::packed_per_byte<TB>::value;
        if (a_.gm && __mm::nd_like(A_TYPE::format) && sm_ && sk_) /* in bytes for a packed type */
            a_.g.check_range(0, ((a_.trans ? (uint64_t)(sk_ - 1) * M_ + sm_ : (uint64_t)(sm_ - 1) * Ka_ + sk_) + pa - 1) / pa,
                             api);
        if (b_.gm && __mm::nd_like(B_TYPE::format) && sn_ && sk_)
            b_.g.check_range(0, ((b_.trans ? (uint64_t)(sn_ - 1) * Kb_ + sk_ : (uint64_t)(sk_ - 1) * N_ + sn_) + pb - 1) / pb,
                             api);
        if (hasBias_ && biasGm_ && sn_) biasG_.check_range(0, sn_, api);
        if (__arc::race_gm_log()) log_reads(api); /* the cost model counts the loads per block (cost_block) */
    }
    void log_reads(const char *api)
    {
        if (a_.trans) __mm::log_operand<A_TYPE::format>(a_, sk_, sm_, M_, (Ka_ + 15) / 16 * 16, api);
        else __mm::log_operand<A_TYPE::format>(a_, sm_, sk_, Ka_, (M_ + 15) / 16 * 16, api);
        if (b_.trans) __mm::log_operand<B_TYPE::format>(b_, sn_, sk_, Kb_, (N_ + 15) / 16 * 16, api);
        else __mm::log_operand<B_TYPE::format>(b_, sk_, sn_, N_, (Kb_ + 15) / 16 * 16, api);
        if (hasBias_ && biasGm_ && sn_)
            __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, bias_, 1, (uint64_t)sn_ * sizeof(TBias),
                           (uint64_t)sn_ * sizeof(TBias), api);
    }
    /* Element i of an operand in the accumulator type (int4b_t: two per
     * byte, the first in the low nibble). */
    template <typename T> static ACC elem(const T *p, int64_t i)
    {
        if constexpr (__mm::fp4_v<T>) return (ACC)__mm::mx_value(p, i);
        else if constexpr (__arc::packed_per_byte<T>::value > 1) return (ACC)__arc::packed_get(p, (uint64_t)i);
        else return (ACC)__mm::wide(p[i]);
    }
    /* Leading dimensions.  A GM operand is the whole matrix from the core's
     * offset; a local one (TSCM/VECOUT) holds just this core's singleM x
     * singleK (singleK x singleN) block -- SetTensorA's page: at least
     * singleM * singleK elements -- in ND rows padded to 32 bytes, as
     * DataCopyPad leaves them in the UB. */
    template <typename T> static int row32(int n)
    {
        constexpr int e = 32 * __arc::packed_per_byte<T>::value / (int)sizeof(T);
        return (n + e - 1) / e * e;
    }
    int lda() const { return a_.gm ? (a_.trans ? M_ : Ka_) : row32<TA>(a_.trans ? t_.singleCoreM : t_.singleCoreK); }
    int ldb() const { return b_.gm ? (b_.trans ? Kb_ : N_) : row32<TB>(b_.trans ? t_.singleCoreK : t_.singleCoreN); }
    /* Element (i, k) of A and (k, j) of B in this core's block. */
    ACC a_at(int i, int k) const
    {
        if (a_.scalar) return elem(&a_.value, 0);
        if (A_TYPE::format == CubeFormat::NZ) {
            constexpr int C0 = 32 * __arc::packed_per_byte<TA>::value / sizeof(TA);
            int r = a_.trans ? k : i, c = a_.trans ? i : k, rows = a_.trans ? (Ka_ + 15) / 16 * 16 : (M_ + 15) / 16 * 16;
            return elem(a_.p, (int64_t)(c / C0) * rows * C0 + (int64_t)r * C0 + c % C0);
        }
        return this->mx_a(i, k, elem(a_.p, a_.trans ? (int64_t)k * lda() + i : (int64_t)i * lda() + k), M_, Ka_);
    }
    ACC b_at(int k, int j) const
    {
        if (b_.scalar) return elem(&b_.value, 0);
        if (B_TYPE::format == CubeFormat::NZ) {
            constexpr int C0 = 32 * __arc::packed_per_byte<TB>::value / sizeof(TB);
            int r = b_.trans ? j : k, c = b_.trans ? k : j, rows = b_.trans ? (N_ + 15) / 16 * 16 : (Kb_ + 15) / 16 * 16;
            return elem(b_.p, (int64_t)(c / C0) * rows * C0 + (int64_t)r * C0 + c % C0);
        }
        return this->mx_b(k, j, elem(b_.p, b_.trans ? (int64_t)j * ldb() + k : (int64_t)k * ldb() + j), N_, Kb_);
    }
    /* Block (i0, j0)'s cube work for the cost model (arc/matmul_cost.h). */
    /* (int4b_t is priced as int8_t here: twice its bytes and Mmad cycles, an
     * over-estimate; its flops are counted exactly.) */
    void cost_block(int i0, int j0) const
    {
        arc_cost_mm c{nullptr, nullptr, 0, 0, 0, 0, (unsigned)bm_, (unsigned)bn_, (unsigned)sk_,
                      t_.baseK > 0 ? (unsigned)t_.baseK : 0u, (unsigned)sizeof(TA), (unsigned)t_.stepKa,
                      (unsigned)t_.stepKb};
        __mm::cost_operand(a_, A_TYPE::format == CubeFormat::NZ, a_.trans ? i0 : (long long)i0 * lda(), lda(),
                           a_.trans, c.a, c.lda, c.a_krows);
        __mm::cost_operand(b_, B_TYPE::format == CubeFormat::NZ, b_.trans ? (long long)j0 * ldb() : j0, ldb(),
                           !b_.trans, c.b, c.ldb, c.b_krows);
        __arc_cost_mm(&c);
    }
    /* Block (mi, ni) into acc_ (bm x bn, pitch baseN). */
    /* K rows kb .. kb + kl - 1 only (a partial output's chunk); the cost
     * model counts the whole block with its first chunk. */
    void compute(uint32_t mi, uint32_t ni, int kb, int kl)
    {
        bm_ = sm_ - (int)(mi * t_.baseM) < t_.baseM ? sm_ - (int)(mi * t_.baseM) : t_.baseM;
        bn_ = sn_ - (int)(ni * t_.baseN) < t_.baseN ? sn_ - (int)(ni * t_.baseN) : t_.baseN;
        int i0 = mi * t_.baseM, j0 = ni * t_.baseN, ld = t_.baseN;
        if (__arc::cost_on() && kb == 0) cost_block(i0, j0);
        ARC_CHECK((uint64_t)t_.baseM * t_.baseN <= (64u << 10) && t_.baseN <= 4096, "Matmul::Iterate",
                  "baseM %d x baseN %d exceeds what one L0C (128 KB of 32-bit values) holds", t_.baseM, t_.baseN);
        ACC *acc = acc_;
        for (int r = 0; r < bm_; r++)
            for (int c = 0; c < bn_; c++)
                acc[r * ld + c] = hasBias_ ? (ACC)__mm::wide(bias_[j0 + c]) : (ACC)0;
        if (t_.baseN % 16 == 0) { /* the cube microkernel (arc/cube_micro.h), K in chunks */
            constexpr bool fused = __arc::is_same<TA, half>::value && __arc::is_same<TB, half>::value &&
                                   __arc::is_same<ACC, float>::value;
            const int kc = bm_ * 64 <= 16384 ? 64 : 16; /* A chunk: bm x kc values on the stack */
            ACC *aw = (ACC *)__builtin_alloca((size_t)bm_ * kc * sizeof(ACC));
            ACC *bp = bbuf_; /* kc rows of 16 columns */
            for (int k0 = kb; k0 < kb + kl; k0 += kc) {
                int kn = kb + kl - k0 < kc ? kb + kl - k0 : kc;
                for (int r = 0; r < bm_; r++)
                    for (int k = 0; k < kn; k++) aw[r * kc + k] = a_at(i0 + r, k0 + k);
                for (int c0 = 0; c0 < bn_; c0 += 16) {
                    for (int k = 0; k < kn; k++)
                        for (int c = 0; c < 16; c++)
                            bp[k * 16 + c] = c0 + c < bn_ ? b_at(k0 + k, j0 + c0 + c) : (ACC)0;
                    __arc::micro::panel<fused>(acc + c0, ld, aw, kc, bp, bm_, kn, true, acc);
                }
            }
            return;
        }
        /* B rows of this block in the accumulator type, then a
         * broadcast multiply-add over contiguous columns. */
        ACC *brow = bbuf_;
        for (int k = kb; k < kb + kl; k++) {
            for (int c = 0; c < bn_; c++) brow[c] = b_at(k, j0 + c);
            for (int r = 0; r < bm_; r++) {
                ACC av = a_at(i0 + r, k);
                ACC *out = acc + r * ld;
                for (int c = 0; c < bn_; c++) out[c] += av * brow[c];
            }
        }
    }
    /* Element (r, c) of the block at column j0 stored into d (arc/matmul_out.h store). */
    void put_c(TC &d, int r, int c, int j0, uint8_t atomic) const
    {
        __mm::store<TC, ACC>(d, acc_[r * t_.baseN + c], quant_, j0 + c, CFG.enableRelu, atomic);
    }
    /* The block at (i0, j0) of C in GM, laid out as o says. */
    void write_gm(const GlobalTensor<TC> &gm, int i0, int j0, const __mm::COut &o, uint8_t atomic, const char *api)
    {
        if (bm_ == 0 || bn_ == 0) return;
        int64_t lo = o.at(i0, j0), hi = o.at(i0 + bm_ - 1, j0 + bn_ - 1) + 1;
        gm.check_range((uint64_t)lo, (uint64_t)(hi - lo), api);
        TC *d = gm.addr_;
        if (__arc::cost_on()) __arc_cost_mm_out((uint64_t)bm_ * bn_ * sizeof(TC));
        /* the GM race check between cores: the cube's Fixpipe writes the block,
         * an ND row at a time with each row's content (IBShare: two AIVs write C alike) */
        if (!atomic && !o.nz && !o.col && __arc::race_gm_log()) {
            for (int r = 0; r < bm_; r++) {
                TC *row = d + o.at(i0 + r, j0);
                unsigned long long sum = 0;
                for (int c = 0; c < bn_; c++) {
                    put_c(row[c], r, c, j0, 0);
                    TC x = row[c];
                    sum += __arc::gm_mix(row + c, x);
                }
                __arc::race_gm_written(__arc::RP_FIX, row, (uint64_t)bn_ * sizeof(TC), sum, api);
            }
            return;
        }
        __mm::race_c_block(o, d, i0, j0, bm_, bn_, atomic, api);
        for (int r = 0; r < bm_; r++)
            for (int c = 0; c < bn_; c++) put_c(d[o.at(i0 + r, j0 + c)], r, c, j0, atomic);
    }
    /* Rows r0 .. r1 - 1 of the block (all by default) from row i0 of the local tensor. */
    void write_local(const LocalTensor<TC> &ub, int i0, int j0, const __mm::COut &o, uint8_t atomic, int r0 = 0,
                     int r1 = -1)
    {
        if (r1 < 0) r1 = bm_;
        if (r1 <= r0 || bn_ == 0) return;
        ARC_CHECK(!o.col, "Matmul::GetTensorC", "C in CubeFormat::COLUMN_MAJOR must be in GM (the MatmulType page)");
        uint64_t need = (uint64_t)(o.at(i0 + r1 - r0 - 1, j0 + bn_ - 1) + 1) * sizeof(TC);
        ARC_CHECK(need <= ub.bytes_, "Matmul::GetTensorC",
                  "the block needs %llu bytes of the local tensor, which has %u", (unsigned long long)need, ub.bytes_);
        TC *d = ub.addr_;
        if (__arc::cost_on()) __arc_cost_mm_out((uint64_t)(r1 - r0) * bn_ * sizeof(TC));
        for (int r = r0; r < r1; r++)
            for (int c = 0; c < bn_; c++) put_c(d[o.at(i0 + r - r0, j0 + c)], r, c, j0, atomic);
    }

    __mm::Operand<TA> a_;
    __mm::Operand<TB> b_;
    const TBias *bias_ = nullptr;
    __mm::Quant quant_;
    GlobalTensor<TBias> biasG_;
    bool biasGm_ = false, hasBias_ = false, inited_ = false;
    int M_ = 0, N_ = 0, Ka_ = 0, Kb_ = 0, Kc_ = 0, sm_ = 0, sn_ = 0, sk_ = 0, bm_ = 0, bn_ = 0;
    int iter_ = -1;
    int async_ = -1; /* the next block GetTensorC<false> takes after Iterate<false>, -1: none */
    uint32_t cm_ = 0, cn_ = 0;
    /* One block's accumulators (at most one L0C) and a B row. */
    ACC acc_[64 * 1024];
    ACC bbuf_[4096];
};

#undef ARC_MM_POLICY_PARAM_
} // namespace AscendC
#include "arc/matmul_batch.h" /* Matmul: MatmulImpl with the batches */

namespace matmul {
using namespace AscendC;
} // namespace matmul
/* The experimental quantised-matmul namespace of CANN's samples: the same
 * Matmul (its kernels name AscendC::MatmulImpl). */
namespace matmul_asc {
using namespace AscendC;
} // namespace matmul_asc

#endif /* ARC_MATMUL_API_H_ */
