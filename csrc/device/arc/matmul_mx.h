/* matmul_mx.h - MxMatmul (the Matmul API with MatmulWithScalePolicy,
 * dav-3510; the "MxMatmul场景" guide page): MatmulTypeWithScale, and the
 * scale part of MatmulImpl (SetTensorScaleA/B, each operand value times its
 * e8m0 scale 2^(e-127), one per 32 values along K; arc/mmad_mx.h owns the
 * element and scale facts).  Scales in GM, ND: scaleA [M, SK] or, with
 * isTransposeScaleA, [SK/2, M, 2]; scaleB [SK/2, N, 2] or, transposed (the
 * default), [N, SK]; SK = 2 * ceil(K / 64).  Local (TSCM/VECOUT) and NZ
 * scale matrices are refused by name. */
#ifndef ARC_MATMUL_MX_H_
#define ARC_MATMUL_MX_H_

#include "arc/matmul_policy.h"
#include "arc/mmad_mx.h"

namespace AscendC {
template <TPosition POSITION, TPosition SCALE_POSITION, CubeFormat FORMAT, typename TYPE, bool ISTRANS = false,
          TPosition SRCPOS = TPosition::GM, CubeFormat SCALE_FORMAT = FORMAT, bool SCALE_ISTRANS = ISTRANS,
          TPosition SCALE_SRCPOS = SRCPOS>
struct MatmulTypeWithScale : public MatmulType<POSITION, FORMAT, TYPE, ISTRANS> {
    constexpr static TPosition scalePosition = SCALE_POSITION;
    constexpr static CubeFormat scaleFormat = SCALE_FORMAT;
    constexpr static bool isScaleTrans = SCALE_ISTRANS;
    constexpr static TPosition srcScalePos = SCALE_SRCPOS;
};

namespace __mm {
/* fp4 pairs (two values a byte): an operand's index counts values. */
template <typename T> constexpr bool fp4_v = __arc::mx::elem<T>::per == 2;
template <typename T> inline float mx_value(const T *p, int64_t i)
{
    return __arc::mx::elem<T>::at((const uint8_t *)(const void *)p, (uint64_t)i);
}

/* The Matmul's scale part: nothing without MatmulWithScalePolicy. */
template <class A_TYPE, class B_TYPE, bool MX> struct MxPart {
    template <typename V> static V mx_a(int, int, V v, int, int) { return v; }
    template <typename V> static V mx_b(int, int, V v, int, int) { return v; }
    template <typename... X> static void mx_check(const char *, X...) {}
};
template <class A_TYPE, class B_TYPE> struct MxPart<A_TYPE, B_TYPE, true> {
    static_assert(__arc::mx::elem<typename A_TYPE::T>::ok && __arc::mx::elem<typename B_TYPE::T>::ok,
                  "MatmulWithScalePolicy: A and B of fp8_e4m3fn_t, fp8_e5m2_t, fp4x2_e2m1_t or fp4x2_e1m2_t "
                  "(MatmulTypeWithScale)");
    void SetTensorScaleA(const GlobalTensor<fp8_e8m0_t> &gm, bool isTransposeScaleA = false)
    {
        set(ga_, sa_, satr_, gm, isTransposeScaleA, A_TYPE::isScaleTrans, A_TYPE::scaleFormat, "SetTensorScaleA");
    }
    void SetTensorScaleB(const GlobalTensor<fp8_e8m0_t> &gm, bool isTransposeScaleB = true)
    {
        set(gb_, sb_, sbtr_, gm, isTransposeScaleB, B_TYPE::isScaleTrans, B_TYPE::scaleFormat, "SetTensorScaleB");
    }
    void SetTensorScaleA(const LocalTensor<fp8_e8m0_t> &, bool = false) { local("SetTensorScaleA"); }
    void SetTensorScaleB(const LocalTensor<fp8_e8m0_t> &, bool = true) { local("SetTensorScaleB"); }
    /* v (A's element (i, k) of an M x K matrix) times its scale. */
    float mx_a(int i, int k, float v, int M, int K) const
    {
        const int64_t s = k / 32, sk = (K + 63) / 64 * 2;
        return v * __arc::lp::e8m0_to_f32(sa_[satr_ ? (s / 2) * M * 2 + (int64_t)i * 2 + s % 2 : i * sk + s].__x);
    }
    /* v (B's element (k, j) of a K x N matrix) times its scale. */
    float mx_b(int k, int j, float v, int N, int K) const
    {
        const int64_t s = k / 32, sk = (K + 63) / 64 * 2;
        return v * __arc::lp::e8m0_to_f32(sb_[sbtr_ ? (int64_t)j * sk + s : (s / 2) * N * 2 + (int64_t)j * 2 + s % 2].__x);
    }
    /* Before a run: the scales set, the operands in GM as ND (what is
     * simulated), the scales' GM extents for this core's sm x sn block. */
    void mx_check(const char *api, bool gm, int sm, int sn, int M, int N, int K) const
    {
        ARC_CHECK(sa_ && sb_, api, "MatmulWithScalePolicy: SetTensorScaleA and SetTensorScaleB must come first");
        ARC_CHECK(gm && A_TYPE::format == CubeFormat::ND && B_TYPE::format == CubeFormat::ND, api,
                  "MatmulWithScalePolicy: A and B in GM as ND are simulated; local or NZ operands are not yet");
        const uint64_t sk = (K + 63) / 64 * 2;
        if (sm > 0) ga_.check_range(0, satr_ ? (sk / 2 - 1) * M * 2 + (uint64_t)sm * 2 : (uint64_t)sm * sk, api);
        if (sn > 0) gb_.check_range(0, sbtr_ ? (uint64_t)sn * sk : (sk / 2 - 1) * N * 2 + (uint64_t)sn * 2, api);
    }

private:
    static void set(GlobalTensor<fp8_e8m0_t> &g, const fp8_e8m0_t *&p, bool &tr, const GlobalTensor<fp8_e8m0_t> &gm,
                    bool want, bool declared, CubeFormat fmt, const char *api)
    {
        g = gm;
        ARC_CHECK(fmt == CubeFormat::ND, api, "an NZ (or VECTOR) scale matrix is not simulated yet: ND only");
        ARC_CHECK(!want || declared, api, "a transposed scale matrix needs SCALE_ISTRANS = true in its MatmulTypeWithScale");
        p = gm.GetPhyAddr();
        tr = want;
    }
    static void local(const char *api)
    {
        ARC_CHECK(false, api, "a scale matrix in TSCM/VECOUT (a LocalTensor) is not simulated yet: pass it in GM");
    }
    GlobalTensor<fp8_e8m0_t> ga_, gb_;
    const fp8_e8m0_t *sa_ = nullptr, *sb_ = nullptr;
    bool satr_ = false, sbtr_ = true;
};
} // namespace __mm
} // namespace AscendC

#endif /* ARC_MATMUL_MX_H_ */
