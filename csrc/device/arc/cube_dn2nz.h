/* cube_dn2nz.h - DataCopy GM -> L1 with Dn2NzParams (dav-3510, the
 * "DataCopy（GMToL1随路转换-DN2NZ搬运）" page): a DN matrix (dValue rows of
 * nValue elements, rows srcDValue elements apart) becomes an NZ matrix of
 * nValue rows and dValue columns: element (row d, column n) of the source
 * goes to column block d / C0 (dstNzC0Stride x 32 bytes apart), row n
 * (dstNzNStride x 32 bytes apart), lane d % C0; the last column block is
 * zero-filled to 32 bytes.  dnNum matrices, srcDnMatrixStride and
 * dstNzMatrixStride elements apart.  4-bit pairs move as bytes (the page:
 * b4 is processed as b8).  SmallC0 is refused. */
#ifndef ARC_CUBE_DN2NZ_H_
#define ARC_CUBE_DN2NZ_H_

#include "arc/cube_load.h"

namespace AscendC {
struct Dn2NzParams {
    uint16_t dnNum = 0;
    uint16_t nValue = 0;
    uint32_t dValue = 0;
    uint64_t srcDnMatrixStride = 0;
    uint64_t srcDValue = 0;
    uint16_t dstNzC0Stride = 0;
    uint16_t dstNzNStride = 0;
    uint16_t dstNzMatrixStride = 0;
    Dn2NzParams() = default;
    Dn2NzParams(uint16_t dnNumIn, uint16_t nValueIn, uint32_t dValueIn, uint64_t srcDnMatrixStrideIn,
                uint64_t srcDValueIn, uint16_t dstNzC0StrideIn, uint16_t dstNzNStrideIn, uint16_t dstNzMatrixStrideIn)
        : dnNum(dnNumIn), nValue(nValueIn), dValue(dValueIn), srcDnMatrixStride(srcDnMatrixStrideIn),
          srcDValue(srcDValueIn), dstNzC0Stride(dstNzC0StrideIn), dstNzNStride(dstNzNStrideIn),
          dstNzMatrixStride(dstNzMatrixStrideIn) {}
};

template <typename T, bool enableSmallC0 = false>
inline void DataCopy(const LocalTensor<T> &dst, const GlobalTensor<T> &src, const Dn2NzParams &p)
{
    __arc_uses(ARC_USES_CUBE);
    const char *api = "AscendC::DataCopy(Dn2NzParams)";
    static_assert(sizeof(T) <= 4, "AscendC::DataCopy(Dn2NzParams): element types of 1, 2 or 4 bytes");
    static_assert(!enableSmallC0, "AscendC::DataCopy(Dn2NzParams): the SmallC0 mode is not simulated yet");
    constexpr uint32_t C0 = __cube::c0_of<T>();
    if (p.dnNum == 0 || p.nValue == 0 || p.dValue == 0) return;
    ARC_CHECK(p.dnNum <= 4095 && p.nValue <= 16384 && p.dValue < (1u << 21), api,
              "dnNum %u (max 4095), nValue %u (max 16384) or dValue %u (max 2^21-1) out of range", (unsigned)p.dnNum,
              (unsigned)p.nValue, p.dValue);
    ARC_CHECK(p.srcDValue >= 1 && p.dstNzC0Stride >= 1 && p.dstNzNStride >= 1 && p.dstNzC0Stride <= 16384 &&
                  p.dstNzNStride <= 16384 && p.dstNzMatrixStride <= 16384,
              api, "srcDValue %llu, dstNzC0Stride %u and dstNzNStride %u must be at least 1 (the strides at most 16384)",
              (unsigned long long)p.srcDValue, (unsigned)p.dstNzC0Stride, (unsigned)p.dstNzNStride);
    ARC_CHECK(__cube::is_l1(dst.pos_) || __cube::in_arena(dst.addr_, TPosition::A1), api,
              "dst is a %s tensor; Dn2NzParams copies GM into L1 (A1, B1)", __cube::pos_str(dst.pos_));
    uint32_t cblocks = (p.dValue + C0 - 1) / C0;
    uint64_t last = (uint64_t)(p.dnNum - 1) * p.dstNzMatrixStride + (uint64_t)(cblocks - 1) * p.dstNzC0Stride * C0 +
                    (uint64_t)(p.nValue - 1) * p.dstNzNStride * C0 + C0;
    __cube::check_operand(dst, __cube::where(dst), last * sizeof(T), api, "dst (L1)");
    uint64_t src_last = (uint64_t)(p.dnNum - 1) * p.srcDnMatrixStride + (uint64_t)(p.dValue - 1) * p.srcDValue +
                        p.nValue;
    src.check_range(0, src_last, api);
    __arc::race(__arc::RP_MTE2, 1 | ARC_RACE_SPARSE, dst.addr_, last * sizeof(T), api);
    if (__arc::race_gm_on())
        for (uint32_t i = 0; i < p.dnNum; i++)
            __arc::race_gm(ARC_GM_READ, __arc::RP_MTE2, src.addr_ + i * p.srcDnMatrixStride, p.dValue,
                           (uint64_t)p.nValue * sizeof(T), p.srcDValue * sizeof(T), api);
    T *d = dst.addr_;
    const T *s = src.addr_;
    for (uint32_t i = 0; i < p.dnNum; i++)
        for (uint32_t n = 0; n < p.nValue; n++) {
            T *row = d + (uint64_t)i * p.dstNzMatrixStride + (uint64_t)n * p.dstNzNStride * C0;
            const T *col = s + i * p.srcDnMatrixStride + n;
            for (uint32_t k = 0; k < cblocks * C0; k++) {
                T *o = row + (uint64_t)(k / C0) * p.dstNzC0Stride * C0 + k % C0;
                if (k < p.dValue) *o = col[(uint64_t)k * p.srcDValue];
                else __builtin_memset((void *)o, 0, sizeof(T)); /* the last column block's padding */
            }
        }
}
} // namespace AscendC

#endif /* ARC_CUBE_DN2NZ_H_ */
