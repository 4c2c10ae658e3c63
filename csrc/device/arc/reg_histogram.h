/* reg_histogram.h - Reg histograms of dav-3510 in both spellings, defined
 * once: Histograms<uint8_t, uint16_t, BIN0|BIN1, FREQUENCY|ACCUMULATE> =
 * asc_frequency_histogram_bin0/1, asc_cumulative_histogram_bin0.  The
 * active uint8 elements of src are counted into dst's 128 uint16 elements
 * (added to what dst holds, wrapping at 16 bits): BIN0 the values 0..127,
 * BIN1 128..255; FREQUENCY: element n counts the value n (n + 128);
 * ACCUMULATE: element n counts the values 0..n.  The page leaves open
 * where BIN1's cumulative count starts (0 or 128): refused by name. */
#ifndef ARC_REG_HISTOGRAM_H_
#define ARC_REG_HISTOGRAM_H_

#include "arc/reg_api.h"

#if __NPU_ARCH__ == 3510
namespace __arc {
namespace reg {
template <bool high, bool cumulative>
inline void histogram(vreg<uint16_t> &d, const vreg<uint8_t> &s, const vmask &m)
{
    static_assert(!(high && cumulative), "the cumulative histogram of BIN1 (values 128..255) is not simulated: the "
                                         "page leaves open whether its counts start at 0 or at 128");
    uint16_t count[128] = {};
    for (uint32_t i = 0; i < vreg<uint8_t>::N; i++)
        if (on<uint8_t>(m, i) && (s.v[i] >= 128) == high) count[s.v[i] & 127]++;
    uint16_t run = 0;
    for (uint32_t n = 0; n < 128; n++) {
        run = (uint16_t)(run + count[n]);
        d.v[n] = (uint16_t)(d.v[n] + (cumulative ? run : count[n]));
    }
}
} // namespace reg
} // namespace __arc

namespace AscendC {
namespace Reg {
enum class HistogramsBinType { BIN0, BIN1 };
enum class HistogramsType { FREQUENCY, ACCUMULATE };

template <typename T = DefaultType, typename U = DefaultType, HistogramsBinType mode, HistogramsType type, typename S,
          typename V>
inline void Histograms(V &dstReg, S &srcReg, MaskReg &mask)
{
    static_assert(__arc::is_same<typename detail::elem_of<S>::type, uint8_t>::value &&
                      __arc::is_same<typename detail::elem_of<V>::type, uint16_t>::value,
                  "AscendC::Reg::Histograms: src uint8_t, dst uint16_t");
    __arc::reg::histogram<mode == HistogramsBinType::BIN1, type == HistogramsType::ACCUMULATE>(dstReg, srcReg, mask);
}
} // namespace Reg
} // namespace AscendC

inline void asc_frequency_histogram_bin0(__arc::reg::vreg<uint16_t> &dst, __arc::reg::vreg<uint8_t> src, __arc::reg::vmask mask)
{
    __arc::reg::histogram<false, false>(dst, src, mask);
}
inline void asc_frequency_histogram_bin1(__arc::reg::vreg<uint16_t> &dst, __arc::reg::vreg<uint8_t> src, __arc::reg::vmask mask)
{
    __arc::reg::histogram<true, false>(dst, src, mask);
}
inline void asc_cumulative_histogram_bin0(__arc::reg::vreg<uint16_t> &dst, __arc::reg::vreg<uint8_t> src, __arc::reg::vmask mask)
{
    __arc::reg::histogram<false, true>(dst, src, mask);
}
#endif /* __NPU_ARCH__ == 3510 */

#endif /* ARC_REG_HISTOGRAM_H_ */
