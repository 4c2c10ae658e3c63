/* utils.h - small helpers and names real kernels use besides the vector
 * API: DivCeil/CeilDiv/AlignUp, AscendC::Std (min, max, type traits),
 * IsSameType, AscendCUtils, memory-size constants, float16_t/float32_t,
 * the AIC/AIV core-type values, the builtin block_idx/block_num, and the C
 * library names CANN's device build leaves in the global namespace. */
#ifndef ARC_UTILS_H_
#define ARC_UTILS_H_

#include "arc/state.h"
#include "arc/mask.h"
#include "arc/ctrl.h"
#include <type_traits>
#include <cstring>
#include <cmath>
#include <cassert>   /* CANN kernels call assert() without including it */
#include <tuple>     /* AscendC::Std::tuple, make_tuple, get, tuple_size */
#include <utility>   /* AscendC::Std::index_sequence, forward */

/* CANN's device build declares the C library's memory and math functions
 * at global scope; kernels call them unqualified or as ::name. */
using std::memcpy;
using std::memset;
using std::memcmp;
using std::sqrt;
using std::exp;
using std::log;
using std::fabs;
using std::floor;
using std::ceil;
using std::pow;
using std::round;

/* Branch hints CANN's kernel headers define (kernels write if (unlikely(c))). */
#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* Builtin scalar type names of the device compiler. */
typedef half float16_t;
typedef float float32_t;

namespace __arc {
/* The builtin block_idx / block_num variables: read the calling core. */
struct block_idx_t {
    operator int64_t() const { return __arc_core()->block_idx; }
};
struct block_num_t {
    operator int64_t() const { return __arc_core()->block_num; }
};
/* ... and sub_block_idx / sub_block_num: the AIV's index in its AI Core
 * (0 or 1 in a 1:2 MIX kernel) and how many AIVs the core runs. */
struct sub_block_idx_t {
    operator int64_t() const { return __arc_core()->sub_block_idx; }
};
struct sub_block_num_t {
    operator int64_t() const { return __arc_core()->sub_block_num; }
};
inline int64_t pf(block_idx_t v) { return (int64_t)v; }
inline int64_t pf(block_num_t v) { return (int64_t)v; }
inline int64_t pf(sub_block_idx_t v) { return (int64_t)v; }
inline int64_t pf(sub_block_num_t v) { return (int64_t)v; }
} // namespace __arc
[[maybe_unused]] static constexpr __arc::block_idx_t block_idx{};
[[maybe_unused]] static constexpr __arc::block_num_t block_num{};
[[maybe_unused]] static constexpr __arc::sub_block_idx_t sub_block_idx{};
[[maybe_unused]] static constexpr __arc::sub_block_num_t sub_block_num{};

namespace AscendC {
/* Integer helpers (CANN names both spellings). */
template <typename T, typename U> __attribute__((always_inline)) constexpr T DivCeil(T a, U b)
{
    return (T)((a + (T)b - 1) / (T)b);
}
template <typename T, typename U> __attribute__((always_inline)) constexpr T CeilDiv(T a, U b) { return DivCeil(a, b); }
template <typename T, typename U> __attribute__((always_inline)) constexpr T AlignUp(T a, U b)
{
    return (T)(DivCeil(a, b) * (T)b);
}
template <typename T, typename U> __attribute__((always_inline)) constexpr T CeilAlign(T a, U b) { return AlignUp(a, b); }
/* Integer Ceil(a, b): a / b rounded up (the scalar overload beside the
 * advanced API's tensor Ceil; the arguments may differ in type, as in
 * Ceil(n * sizeof(T), 32)).  A zero divisor gives 0, as CeilDivision's
 * documentation states for itself. */
template <typename T, typename U,
          typename = std::enable_if_t<std::is_integral<T>::value && std::is_integral<U>::value>>
__attribute__((always_inline)) constexpr decltype(T() + U()) Ceil(T a, U b)
{
    using R = decltype(T() + U());
    return b == 0 ? (R)0 : (R)(((R)a + (R)b - 1) / (R)b);
}
/* CeilDivision(num1, num2): the documented int32 form (0 when num2 is 0). */
__attribute__((always_inline)) constexpr int32_t CeilDivision(int32_t num1, int32_t num2)
{
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2;
}
template <typename T, typename U> __attribute__((always_inline)) constexpr T AlignDown(T a, U b)
{
    return (T)(a / (T)b * (T)b);
}

/* Conditional<cond, A, B>::type: A when cond holds, else B (std::conditional's
 * Ascend C spelling; kernels pick a Matmul type with it). */
template <bool cond, typename A, typename B> struct Conditional { using type = A; };
template <typename A, typename B> struct Conditional<false, A, B> { using type = B; };
/* IsSameType<A, B>::value */
template <typename A, typename B> struct IsSameType { static constexpr bool value = false; };
template <typename A> struct IsSameType<A, A> { static constexpr bool value = true; };

/* A subset of the C++ standard library kernels reach as AscendC::Std. */
namespace Std {
template <typename T> constexpr const T &min(const T &a, const T &b) { return b < a ? b : a; }
template <typename T> constexpr const T &max(const T &a, const T &b) { return a < b ? b : a; }
using std::integral_constant;
using std::true_type;
using std::false_type;
using std::bool_constant;
using std::is_same;
using std::is_same_v;
using std::enable_if;
using std::enable_if_t;
using std::conditional;
using std::conditional_t;
using std::remove_cv;
using std::remove_cv_t;
using std::remove_reference;
using std::remove_reference_t;
using std::is_base_of;
using std::is_base_of_v;
using std::is_convertible;
using std::is_convertible_v;
using std::is_integral;
using std::is_integral_v;
using std::is_floating_point;
using std::is_floating_point_v;
using std::forward;
using std::integer_sequence;
using std::make_integer_sequence;
using std::index_sequence;
using std::make_index_sequence;
using std::tuple;
using std::tuple_element;
using std::tuple_size;
using std::tuple_size_v;
using std::make_tuple;
using std::get;
/* The rest of the Utils API's type traits (CPP标准库/类型特性), with their
 * _t/_v forms. */
using std::is_void;
using std::is_void_v;
using std::is_array;
using std::is_array_v;
using std::is_const;
using std::is_const_v;
using std::is_pointer;
using std::is_pointer_v;
using std::is_reference;
using std::is_reference_v;
using std::remove_const;
using std::remove_const_t;
using std::remove_volatile;
using std::remove_volatile_t;
using std::remove_pointer;
using std::remove_pointer_t;
using std::add_const;
using std::add_const_t;
using std::add_volatile;
using std::add_volatile_t;
using std::add_cv;
using std::add_cv_t;
using std::add_pointer;
using std::add_pointer_t;
using std::add_lvalue_reference;
using std::add_lvalue_reference_t;
using std::add_rvalue_reference;
using std::add_rvalue_reference_t;
/* abs and sqrt (CPP标准库/数学函数): abs for int8/16/32/64 and float (the
 * most negative integer stays itself, as two's complement negation wraps);
 * sqrt for float and int64_t, whose root is truncated to an integer (a
 * negative input, whose result the docs leave undefined, stops the kernel). */
template <typename T> inline T abs(const T src)
{
    static_assert(std::is_same<T, int8_t>::value || std::is_same<T, int16_t>::value ||
                      std::is_same<T, int32_t>::value || std::is_same<T, int64_t>::value ||
                      std::is_same<T, float>::value,
                  "AscendC::Std::abs: int8_t, int16_t, int32_t, int64_t or float");
    if constexpr (std::is_same<T, float>::value) return __builtin_fabsf(src);
    else {
        using U = std::make_unsigned_t<T>;
        return src < 0 ? (T)(U)(0u - (U)src) : src;
    }
}
template <typename T> inline T sqrt(const T src)
{
    static_assert(std::is_same<T, float>::value || std::is_same<T, int64_t>::value,
                  "AscendC::Std::sqrt: float or int64_t");
    ARC_CHECK(!(src < 0), "AscendC::Std::sqrt", "the input %g is negative (the docs give it no result)",
              (double)src);
    if constexpr (std::is_same<T, float>::value) return __builtin_sqrtf(src);
    else {
        uint64_t x = (uint64_t)src, r = (uint64_t)__builtin_sqrt((double)x);
        while (r * r > x) r--;                         /* exact floor of the root */
        while ((r + 1) * (r + 1) <= x && r < 3037000499u) r++;
        return (T)r;
    }
}
/* remove_cvref (C++20's, which CANN's library offers in C++17 code) */
template <typename T> struct remove_cvref { using type = std::remove_cv_t<std::remove_reference_t<T>>; };
template <typename T> using remove_cvref_t = typename remove_cvref<T>::type;
/* false for every T: a static_assert in a discarded if-constexpr branch */
template <typename...> constexpr bool always_false_v = false;
template <typename T> struct is_tuple : std::false_type {};
template <typename... T> struct is_tuple<std::tuple<T...>> : std::true_type {};
template <typename T> constexpr bool is_tuple_v = is_tuple<remove_cvref_t<T>>::value;
} // namespace Std

/* Memory sizes of the compile's arch (common/socs.h). */
constexpr uint32_t TOTAL_UB_SIZE = __arc::arch_bytes(__arc::ARCH_UB);
constexpr uint32_t TOTAL_VEC_LOCAL_SIZE = TOTAL_UB_SIZE;
constexpr uint32_t TOTAL_L1_SIZE = __arc::arch_bytes(__arc::ARCH_L1);
constexpr uint32_t TOTAL_L0A_SIZE = __arc::arch_bytes(__arc::ARCH_L0A);
constexpr uint32_t TOTAL_L0B_SIZE = __arc::arch_bytes(__arc::ARCH_L0B);
constexpr uint32_t TOTAL_L0C_SIZE = __arc::arch_bytes(__arc::ARCH_L0C);
constexpr uint32_t ONE_BLOCK_SIZE = 32;

/* A type's width in bits; a packed sub-byte type's is its element's (int4b_t: 4). */
template <typename T> struct SizeOfBits {
    static constexpr uint32_t value = sizeof(T) * 8 / __arc::packed_per_byte<T>::value;
};

/* Core-type values compared with g_coreType (arc/sys.h). */
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;

/* Static helpers CANN groups under AscendCUtils. */
struct AscendCUtils {
    static constexpr uint32_t GetBitSize(uint32_t byteSize) { return byteSize * 8; }
    static constexpr uint32_t GetC0Size() { return 32; }
    static constexpr uint32_t GetC0Count(uint32_t dtypeSize) { return 32 / dtypeSize; }
    template <typename T> static void SetMask(uint64_t maskHigh, uint64_t maskLow)
    {
        SetVectorMask<T>(maskHigh, maskLow);
    }
    template <typename T> static void SetMask(int32_t len) { SetVectorMask<T>(len); }
    template <typename T> static void ResetMask() { AscendC::ResetMask(); }
    /* CTRL[48]: 1 keeps inf/NaN, 0 saturates float results (arc/ctrl.h). */
    static void SetOverflow(uint64_t ctrlValue) { SetCtrlSpr<48, 48>((int64_t)ctrlValue); }
};
} // namespace AscendC

#endif /* ARC_UTILS_H_ */
