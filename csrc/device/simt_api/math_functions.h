/* math_functions.h - the SIMT float math library (API SIMT-API/数学函数/
 * float类型数学库函数, 90 functions) and the integer abs/min/max family.
 * C library names (sinf, erfcf, j0f, ...) are the host C library's, which
 * the loader links kernels against (csrc/rt/loader/orc_builtins.c): declared here
 * in the device compile (whose libc++ <cmath> gives the classification
 * functions), taken from <math.h> when a kernel file compiles with the
 * system headers (host-code mode).  The CUDA-style names the C
 * library lacks (sinpif, erfinvf, normcdff, cyl_bessel_i0f, rnorm3df, ...)
 * are computed in double and rounded once to float. */
#ifndef ASC_SIMT_MATH_FUNCTIONS_H_
#define ASC_SIMT_MATH_FUNCTIONS_H_

#include <stdint.h>

#if defined(__ASCENDRTC_HOST_CODE__)
#include <math.h>
#include <stdlib.h>
#define ASC_SIMT_HOST_LIBM 1
#else
#include <cmath>   /* libc++: isfinite/isinf/isnan/signbit at global scope, std:: math */
#include <cstdlib> /* abs, labs, llabs */
extern "C" {
#define ASC_LIBM_F1(f) float f(float);
#define ASC_LIBM_F2(f) float f(float, float);
ASC_LIBM_F1(acosf) ASC_LIBM_F1(acoshf) ASC_LIBM_F1(asinf) ASC_LIBM_F1(asinhf) ASC_LIBM_F1(atanf)
ASC_LIBM_F1(atanhf) ASC_LIBM_F1(cbrtf) ASC_LIBM_F1(ceilf) ASC_LIBM_F1(cosf) ASC_LIBM_F1(coshf)
ASC_LIBM_F1(erfcf) ASC_LIBM_F1(erff) 
ASC_LIBM_F1(expm1f) ASC_LIBM_F1(fabsf) ASC_LIBM_F1(floorf) ASC_LIBM_F1(j0f) ASC_LIBM_F1(j1f)
ASC_LIBM_F1(lgammaf) ASC_LIBM_F1(log10f) ASC_LIBM_F1(log1pf) ASC_LIBM_F1(log2f) ASC_LIBM_F1(logbf)
ASC_LIBM_F1(logf) ASC_LIBM_F1(nearbyintf) ASC_LIBM_F1(rintf) ASC_LIBM_F1(roundf) ASC_LIBM_F1(sinf)
ASC_LIBM_F1(sinhf) ASC_LIBM_F1(tanf) ASC_LIBM_F1(tanhf) ASC_LIBM_F1(tgammaf)
ASC_LIBM_F1(truncf) ASC_LIBM_F1(y0f) ASC_LIBM_F1(y1f)
ASC_LIBM_F2(atan2f) ASC_LIBM_F2(copysignf) ASC_LIBM_F2(fdimf) ASC_LIBM_F2(fmaxf) ASC_LIBM_F2(fminf)
ASC_LIBM_F2(fmodf) ASC_LIBM_F2(nextafterf) ASC_LIBM_F2(remainderf)
#undef ASC_LIBM_F1
#undef ASC_LIBM_F2
float fmaf(float, float, float);
float frexpf(float, int *);
int ilogbf(float);
float jnf(int, float);
float ynf(int, float);
float ldexpf(float, int);
long long int llrintf(float);
long long int llroundf(float);
long int lrintf(float);
long int lroundf(float);
float modff(float, float *);
float remquof(float, float, int *);
float scalblnf(float, long);
float scalbnf(float, int);
void sincosf(float, float *, float *);
}
/* Ascend 950 has no subnormals in these (the docs of each: inputs and
 * results in the subnormal range become signed zeros), so the device
 * compile defines them over the C library's; host-code files get the C
 * library's own (not flushed). */
inline float __asc_ftz(float x) { return __builtin_fabsf(x) < 0x1p-126f ? __builtin_copysignf(0.0f, x) : x; }
inline float expf(float x) { return __asc_ftz(__builtin_expf(__asc_ftz(x))); }
inline float exp2f(float x) { return __asc_ftz(__builtin_exp2f(__asc_ftz(x))); }
inline float exp10f(float x) { return __asc_ftz(__builtin_exp10f(__asc_ftz(x))); }
inline float sqrtf(float x) { return __asc_ftz(__builtin_sqrtf(__asc_ftz(x))); }
inline float powf(float x, float y) { return __asc_ftz(__builtin_powf(__asc_ftz(x), __asc_ftz(y))); }
/* both inputs subnormal: NaN (the docs: its division sees 0/0) */
inline float hypotf(float x, float y)
{
    if (__asc_ftz(x) == 0 && __asc_ftz(y) == 0 && x != 0 && y != 0) return __builtin_nanf("");
    return __builtin_hypotf(x, y);
}
#endif

#ifdef ASC_SIMT_HOST_LIBM
inline float __asc_ftz(float x) { return __builtin_fabsf(x) < 0x1p-126f ? __builtin_copysignf(0.0f, x) : x; }
#endif

namespace __arc {
namespace simt {
constexpr double PI = 3.14159265358979323846;
/* x - 2 * round(x / 2): exact in float, in [-1, 1]. */
inline double mod2(float x) { return (double)__builtin_fmodf(x, 2.0f); }
/* erfc^-1(y) for 0 < y < 2: Giles' single-precision approximation on
 * w = -__builtin_log(y (2 - y)), then Newton on erfc in double. */
inline double erfcinv_d(double y)
{
    const double w = -__builtin_log(y * (2.0 - y));
    double p, x = 1.0 - y;
    if (w < 5.0) {
        const double t = w - 2.5;
        p = 2.81022636e-08; p = 3.43273939e-07 + p * t; p = -3.5233877e-06 + p * t;
        p = -4.39150654e-06 + p * t; p = 0.00021858087 + p * t; p = -0.00125372503 + p * t;
        p = -0.00417768164 + p * t; p = 0.246640727 + p * t; p = 1.50140941 + p * t;
    } else {
        const double t = __builtin_sqrt(w) - 3.0;
        p = -0.000200214257; p = 0.000100950558 + p * t; p = 0.00134934322 + p * t;
        p = -0.00367342844 + p * t; p = 0.00573950773 + p * t; p = -0.0076224613 + p * t;
        p = 0.00943887047 + p * t; p = 1.00167406 + p * t; p = 2.83297682 + p * t;
    }
    double r = p * x;
    for (int i = 0; i < 3; ++i) /* f = __builtin_erfc(r) - y, f' = -2/__builtin_sqrt(pi) __builtin_exp(-r^2) */
        r += (__builtin_erfc(r) - y) / (1.1283791670955126 * __builtin_exp(-r * r));
    return r;
}
/* Modified Bessel I0/I1 by their power series (positive terms). */
inline double bessel_i(double x, int order)
{
    const double q = x * x / 4.0;
    double term = order ? x / 2.0 : 1.0, sum = term;
    for (int k = 1; k < 400 && term > sum * 1e-17; ++k) {
        term *= q / ((double)k * (double)(k + order));
        sum += term;
    }
    return sum;
}
} // namespace simt
} // namespace __arc

/* division flushes subnormal inputs and results to signed zero */
inline float fdividef(float x, float y) { return __asc_ftz(__asc_ftz(x) / __asc_ftz(y)); }
/* a subnormal x gives +inf (the docs: its sqrtf flushes) */
inline float rsqrtf(float x) { return (float)(1.0 / __builtin_sqrt((double)__asc_ftz(x))); }
inline float rcbrtf(float x) { return (float)(1.0 / __builtin_cbrt((double)x)); }
inline float rhypotf(float x, float y)
{
    if (__asc_ftz(x) == 0 && __asc_ftz(y) == 0 && x != 0 && y != 0) return __builtin_nanf("");
    return (float)(1.0 / __builtin_hypot((double)x, (double)y));
}
namespace __arc {
namespace simt {
/* sum of squares in double (exact enough: 48-bit products, no overflow);
 * -1 when an operand is infinite (the norm is then inf even with a NaN),
 * NaN when every operand is subnormal (the docs: the device's scaling
 * division sees 0/0). */
inline double sumsq(int n, const float *a)
{
    double s = 0.0;
    bool all_sub = n > 0;
    for (int i = 0; i < n; ++i) {
        if (__builtin_isinf(a[i])) return -1.0;
        all_sub = all_sub && a[i] != 0 && __builtin_fabsf(a[i]) < 0x1p-126f;
        s += (double)a[i] * a[i];
    }
    return all_sub ? __builtin_nan("") : s;
}
inline float norm_of(double s) { return s < 0 ? __builtin_inff() : (float)__builtin_sqrt(s); }
inline float rnorm_of(double s) { return s < 0 ? 0.0f : (float)(1.0 / __builtin_sqrt(s)); }
} // namespace simt
} // namespace __arc
inline float norm3df(float a, float b, float c) { const float v[3] = {a, b, c}; return __arc::simt::norm_of(__arc::simt::sumsq(3, v)); }
inline float norm4df(float a, float b, float c, float d) { const float v[4] = {a, b, c, d}; return __arc::simt::norm_of(__arc::simt::sumsq(4, v)); }
inline float rnorm3df(float a, float b, float c) { const float v[3] = {a, b, c}; return __arc::simt::rnorm_of(__arc::simt::sumsq(3, v)); }
inline float rnorm4df(float a, float b, float c, float d) { const float v[4] = {a, b, c, d}; return __arc::simt::rnorm_of(__arc::simt::sumsq(4, v)); }
inline float normf(int n, float *a) { return __arc::simt::norm_of(__arc::simt::sumsq(n, a)); }
inline float rnormf(int n, float *a) { return __arc::simt::rnorm_of(__arc::simt::sumsq(n, a)); }
inline float sinpif(float x)
{
    if (!__builtin_isfinite(x)) return __builtin_nanf("");
    const double r = __arc::simt::mod2(x);
    if (r == 0.0 || r == 1.0 || r == -1.0) return __builtin_copysignf(0.0f, (float)r == 0.0f ? x : -x);
    return (float)__builtin_sin(__arc::simt::PI * r);
}
inline float cospif(float x)
{
    if (!__builtin_isfinite(x)) return __builtin_nanf("");
    const double r = __arc::simt::mod2(x);
    if (r == 0.5 || r == -0.5 || r == 1.5 || r == -1.5) return 0.0f;
    return (float)__builtin_cos(__arc::simt::PI * r);
}
inline float tanpif(float x)
{
    if (!__builtin_isfinite(x)) return __builtin_nanf("");
    const double r = __arc::simt::mod2(x);
    return (float)(__builtin_sin(__arc::simt::PI * r) / __builtin_cos(__arc::simt::PI * r));
}
inline void sincospif(float x, float *s, float *c) { *s = sinpif(x); *c = cospif(x); }
inline float erfcinvf(float y)
{
    if (__builtin_isnan(y) || y < 0.0f || y > 2.0f) return __builtin_nanf("");
    if (y == 0.0f) return __builtin_inff();
    if (y == 2.0f) return -__builtin_inff();
    return (float)__arc::simt::erfcinv_d((double)y);
}
inline float erfinvf(float x)
{
    if (__builtin_isnan(x) || x < -1.0f || x > 1.0f) return __builtin_nanf("");
    if (x == 1.0f || x == -1.0f) return __builtin_copysignf(__builtin_inff(), x);
    if (x == 0.0f) return x;
    const double a = x < 0 ? -(double)x : (double)x;
    double r;
    if (a < 0.5) {  /* Newton on erf from the series start */
        r = a * 0.886226925452758;
        for (int i = 0; i < 6; ++i) r -= (__builtin_erf(r) - a) / (1.1283791670955126 * __builtin_exp(-r * r));
    } else {
        r = __arc::simt::erfcinv_d(1.0 - a);
    }
    return (float)(x < 0 ? -r : r);
}
inline float erfcxf(float x)
{
    if (__builtin_isnan(x)) return x;
    const double d = x;
    if (d < 25.0) return (float)(__builtin_exp(d * d) * __builtin_erfc(d));
    const double z = 1.0 / (d * d);  /* asymptotic series, 1e-13 relative at d >= 25 */
    return (float)(0.5641895835477563 / d * (1.0 + z * (-0.5 + z * (0.75 + z * (-1.875 + z * 6.5625)))));
}
inline float normcdff(float x) { return (float)(0.5 * __builtin_erfc(-(double)x * 0.7071067811865476)); }
inline float normcdfinvf(float p)
{
    if (__builtin_isnan(p) || p < 0.0f || p > 1.0f) return __builtin_nanf("");
    if (p == 0.0f) return -__builtin_inff();
    if (p == 1.0f) return __builtin_inff();
    return (float)(-1.4142135623730951 * __arc::simt::erfcinv_d(2.0 * (double)p));
}
inline float cyl_bessel_i0f(float x)
{
    if (__builtin_isnan(x)) return x;
    if (__builtin_isinf(x)) return __builtin_inff();
    return (float)__arc::simt::bessel_i(x < 0 ? -(double)x : (double)x, 0);
}
inline float cyl_bessel_i1f(float x)
{
    if (__builtin_isnan(x)) return x;
    if (__builtin_isinf(x)) return x;
    const double v = __arc::simt::bessel_i(x < 0 ? -(double)x : (double)x, 1);
    return (float)(x < 0 ? -v : v);
}

/* ---- integer abs/min/max (API 整型数学库函数) ---- */
inline long long int llmax(const long long int x, const long long int y) { return x > y ? x : y; }
inline long long int llmin(const long long int x, const long long int y) { return x < y ? x : y; }
inline unsigned long long int ullmax(const unsigned long long int x, const unsigned long long int y) { return x > y ? x : y; }
inline unsigned long long int ullmin(const unsigned long long int x, const unsigned long long int y) { return x < y ? x : y; }
inline unsigned int umax(const unsigned int x, const unsigned int y) { return x > y ? x : y; }
inline unsigned int umin(const unsigned int x, const unsigned int y) { return x < y ? x : y; }
inline long long max(long long x, long long y) { return x > y ? x : y; }
inline long long min(long long x, long long y) { return x < y ? x : y; }

#endif /* ASC_SIMT_MATH_FUNCTIONS_H_ */
