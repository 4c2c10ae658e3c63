/* opdev/fp16_t.h - op::fp16_t, the host's IEEE binary16 value type that
 * CANN's op development headers give host code (CATLASS's examples fill
 * and check their half data with it).  Conversions from any arithmetic
 * type round to nearest even (with overflow to infinity).  As CANN's
 * (opbase's opdev/fp16_t.h), + - * / of two fp16_t values give an fp16_t:
 * each result is rounded to half (computed in double, exact for + - *, then
 * rounded once); comparisons and mixed expressions go through float. */
#ifndef ARC_OPDEV_FP16_T_H_
#define ARC_OPDEV_FP16_T_H_

#include <algorithm> /* as CANN's opdev/fp16_t.h: programs that include it get <algorithm> and <cmath> */
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace op {

struct fp16_t {
    uint16_t val = 0;

    fp16_t() = default;
    template <class T, class = typename std::enable_if<std::is_arithmetic<T>::value>::type>
    fp16_t(T v)
    {
        _Float16 h = static_cast<_Float16>(v);
        std::memcpy(&val, &h, sizeof val);
    }
    operator float() const
    {
        _Float16 h;
        std::memcpy(&h, &val, sizeof h);
        return static_cast<float>(h);
    }
    fp16_t operator+(fp16_t o) const { return fp16_t(double(float(*this)) + double(float(o))); }
    fp16_t operator-(fp16_t o) const { return fp16_t(double(float(*this)) - double(float(o))); }
    fp16_t operator*(fp16_t o) const { return fp16_t(double(float(*this)) * double(float(o))); }
    fp16_t operator/(fp16_t o) const { return fp16_t(double(float(*this)) / double(float(o))); }
    fp16_t &operator+=(fp16_t o) { return *this = *this + o; }
    fp16_t &operator-=(fp16_t o) { return *this = *this - o; }
    fp16_t &operator*=(fp16_t o) { return *this = *this * o; }
    fp16_t &operator/=(fp16_t o) { return *this = *this / o; }
};
static_assert(sizeof(fp16_t) == 2, "fp16_t is the 16 bits of a half");

} // namespace op

#endif
