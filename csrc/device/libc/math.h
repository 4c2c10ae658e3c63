/* math.h - the C library part libc++'s <cmath> builds on (see README.md):
 * classification values (C11 7.12 names; their numbers are the C library's
 * choice), the evaluation types of FLT_EVAL_METHOD 0 and the special
 * values.  The functions themselves come from libc++ over clang builtins. */
#ifndef ARC_LIBC_MATH_H_
#define ARC_LIBC_MATH_H_
#define FP_NAN 0
#define FP_INFINITE 1
#define FP_ZERO 2
#define FP_SUBNORMAL 3
#define FP_NORMAL 4
typedef float float_t;
typedef double double_t;
#define HUGE_VAL (__builtin_huge_val())
#define HUGE_VALF (__builtin_huge_valf())
#define HUGE_VALL (__builtin_huge_vall())
#define INFINITY (__builtin_inff())
#define NAN (__builtin_nanf(""))
#endif
