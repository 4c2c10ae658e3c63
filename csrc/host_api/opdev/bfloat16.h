/* opdev/bfloat16.h - op::bfloat16, the host's bfloat16 value type of
 * CANN's op development headers (the top 16 bits of a float).  Conversions
 * round the float to nearest even (a NaN stays a quiet NaN); arithmetic and
 * comparisons go through float, as for op::fp16_t (opdev/fp16_t.h). */
#ifndef ARC_OPDEV_BFLOAT16_H_
#define ARC_OPDEV_BFLOAT16_H_

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace op {

struct bfloat16 {
    uint16_t value = 0;

    bfloat16() = default;
    template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    bfloat16(T v)
    {
        float f = static_cast<float>(v);
        uint32_t u;
        std::memcpy(&u, &f, sizeof u);
        if ((u & 0x7fffffffu) > 0x7f800000u)
            value = static_cast<uint16_t>((u >> 16) | 0x40u);
        else
            value = static_cast<uint16_t>((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
    }
    operator float() const
    {
        uint32_t u = static_cast<uint32_t>(value) << 16;
        float f;
        std::memcpy(&f, &u, sizeof f);
        return f;
    }
    bfloat16 &operator+=(bfloat16 o) { return *this = bfloat16(float(*this) + float(o)); }
    bfloat16 &operator-=(bfloat16 o) { return *this = bfloat16(float(*this) - float(o)); }
    bfloat16 &operator*=(bfloat16 o) { return *this = bfloat16(float(*this) * float(o)); }
    bfloat16 &operator/=(bfloat16 o) { return *this = bfloat16(float(*this) / float(o)); }
};
static_assert(sizeof(bfloat16) == 2, "bfloat16 is the top 16 bits of a float");

} // namespace op

#endif
