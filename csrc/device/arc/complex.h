/* complex.h - the complex types of dav-3510's vector API (the docs'
 * 辅助数据结构 complex32/complex64): AscendC::Complex<T> holds real then
 * imag, both half (complex32, 4 bytes) or float (complex64, 8 bytes), as
 * NumPy's complex64 lays them out.  The arithmetic the element-wise APIs
 * run on them (Add, Sub, Mul, Div, Adds, Muls, Abs) is defined here:
 * each component is computed in float and rounded to T once, products and
 * sums as separate operations (no fused multiply-add), so results do not
 * depend on the compiler's contraction.  The docs do not define the NPU's
 * order of operations for Mul, Div and Abs; this is the textbook one. */
#ifndef ARC_COMPLEX_H_
#define ARC_COMPLEX_H_

#include "arc/types.h"

namespace AscendC {
template <typename T> struct Complex {
    static_assert(__arc::one_of<T, half, float>, "AscendC::Complex: the real and imaginary parts are half or float");
    T real;
    T imag;
    Complex() = default;
    constexpr Complex(T r, T i = T(0)) : real(r), imag(i) {}
    constexpr bool operator==(const Complex &o) const { return real == o.real && imag == o.imag; }
    constexpr bool operator!=(const Complex &o) const { return !(*this == o); }
};
} // namespace AscendC
using complex32 = AscendC::Complex<half>;
using complex64 = AscendC::Complex<float>;

namespace __arc {
template <class T> struct is_complex { static constexpr bool value = false; };
template <class T> struct is_complex<AscendC::Complex<T>> { static constexpr bool value = true; };
template <class T> constexpr bool is_complex_v = is_complex<T>::value;
template <class T> inline AscendC::Complex<T> cx(float r, float i) { return AscendC::Complex<T>((T)r, (T)i); }
} // namespace __arc

/* Each float operation rounded on its own: the pragma (at the start of each
 * body, so it stays local) keeps FMA contraction out. */
namespace AscendC {
template <typename T> inline Complex<T> operator+(const Complex<T> &a, const Complex<T> &b)
{
#pragma clang fp contract(off)
    return __arc::cx<T>((float)a.real + (float)b.real, (float)a.imag + (float)b.imag);
}
template <typename T> inline Complex<T> operator-(const Complex<T> &a, const Complex<T> &b)
{
#pragma clang fp contract(off)
    return __arc::cx<T>((float)a.real - (float)b.real, (float)a.imag - (float)b.imag);
}
template <typename T> inline Complex<T> operator-(const Complex<T> &a) { return Complex<T>(-a.real, -a.imag); }
template <typename T> inline Complex<T> operator*(const Complex<T> &a, const Complex<T> &b)
{
#pragma clang fp contract(off)
    float ar = (float)a.real, ai = (float)a.imag, br = (float)b.real, bi = (float)b.imag;
    float rr = ar * br, ii = ai * bi, ri = ar * bi, ir = ai * br;
    return __arc::cx<T>(rr - ii, ri + ir);
}
template <typename T> inline Complex<T> operator/(const Complex<T> &a, const Complex<T> &b)
{
#pragma clang fp contract(off)
    float ar = (float)a.real, ai = (float)a.imag, br = (float)b.real, bi = (float)b.imag;
    float rr = br * br, ii = bi * bi, d = rr + ii;
    float n1 = ar * br, n2 = ai * bi, n3 = ai * br, n4 = ar * bi;
    float re = n1 + n2, im = n3 - n4;
    return __arc::cx<T>(re / d, im / d);
}
} // namespace AscendC

namespace __arc {
/* |z| = sqrt(re^2 + im^2) in float, rounded to the part type. */
template <class T> inline T cabs(const AscendC::Complex<T> &z)
{
#pragma clang fp contract(off)
    float r = (float)z.real, i = (float)z.imag;
    float rr = r * r, ii = i * i;
    return (T)__builtin_sqrtf(rr + ii);
}
} // namespace __arc
#endif
