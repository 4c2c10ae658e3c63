/* dropout.h - DropOut (advanced API, data filter; every SoC), and
 * DropOutShapeInfo, as its page defines them: dst = src * (1 / keepProb)
 * where the mask keeps an element, else 0; src and dst are
 * [firstAxis, srcLastAxis].
 * - Byte mode (dropOutMode 1, 2): mask row r is maskLastAxis uint8_t
 *   (>= srcLastAxis; the extra bytes are dirty data), a nonzero byte keeps.
 * - Bit mode (3: no dirty data, the firstAxis * srcLastAxis bits follow
 *   one another; 4: each mask row maskLastAxis bytes, the first
 *   srcLastAxis bits used): bit c of a byte is element c, least
 *   significant first, as the example's golden (gen_data.py) reads it.
 * - dropOutMode 0 infers: byte mode when maskLastAxis >= srcLastAxis, else
 *   bit mode by rows.
 * The scale is a Muls (the page's algorithm): 1 / keepProb rounded to T,
 * each product rounded once.  keepProb must be in (0, 1] (the page: (0,
 * 1); 1 keeps everything).  src and dst may be the same tensor. */
#include "kernel_operator.h" /* first: it brings in every family in order */
#ifndef ARC_LIB_FILTER_DROPOUT_H_
#define ARC_LIB_FILTER_DROPOUT_H_

#include "lib/adv/common.h"

namespace AscendC {
struct DropOutShapeInfo {
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<uint8_t> &maskLocal,
                    const float keepProb, const DropOutShapeInfo &info)
{
    ARC_ADV_HF(DropOut);
    static_assert(dropOutMode <= 4, "AscendC::DropOut: dropOutMode is 0 (inferred) to 4");
    const char *api = "AscendC::DropOut";
    const uint32_t rows = info.firstAxis, sk = info.srcLastAxis, mk = info.maskLastAxis;
    ARC_CHECK(rows > 0 && sk > 0 && mk > 0, api, "info {firstAxis %u, srcLastAxis %u, maskLastAxis %u}: each must be positive",
              rows, sk, mk);
    ARC_CHECK(keepProb > 0.0f && keepProb <= 1.0f, api, "keepProb %g is not in (0, 1]", (double)keepProb);
    const bool bytes = dropOutMode == 0 ? mk >= sk : dropOutMode <= 2;
    const bool flat_bits = dropOutMode == 3;
    if (bytes)
        ARC_CHECK(mk >= sk, api, "byte mode: maskLastAxis %u is less than srcLastAxis %u", mk, sk);
    else if (!flat_bits)
        ARC_CHECK((uint64_t)mk * 8 >= sk, api, "bit mode: maskLastAxis %u bytes hold fewer than srcLastAxis %u bits",
                  mk, sk);
    const uint64_t n = (uint64_t)rows * sk;
    __arc::adv_need(dstLocal, n, api, "dst");
    __arc::adv_need(srcLocal, n, api, "src");
    __arc::adv_need(maskLocal, flat_bits ? (n + 7) / 8 : (uint64_t)rows * mk, api, "mask");
    const T scale = (T)(1.0f / keepProb);
    const uint8_t *m = maskLocal.addr_;
    for (uint32_t r = 0; r < rows; r++)
        for (uint32_t c = 0; c < sk; c++) {
            const uint64_t i = (uint64_t)r * sk + c;
            bool keep;
            if (bytes)
                keep = m[(uint64_t)r * mk + c] != 0;
            else if (flat_bits)
                keep = (m[i / 8] >> (i % 8)) & 1u;
            else
                keep = (m[(uint64_t)r * mk + c / 8] >> (c % 8)) & 1u;
            dstLocal.addr_[i] = keep ? (T)((float)srcLocal.addr_[i] * (float)scale) : (T)0.0f;
        }
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T> &dstLocal, const LocalTensor<T> &srcLocal, const LocalTensor<uint8_t> &maskLocal,
                    const LocalTensor<uint8_t> &sharedTmpBuffer, const float keepProb, const DropOutShapeInfo &info)
{
    __arc::adv_tmp(sharedTmpBuffer, "AscendC::DropOut");
    DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, keepProb, info);
}
} // namespace AscendC

#endif /* ARC_LIB_FILTER_DROPOUT_H_ */
