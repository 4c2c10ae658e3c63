/* tiling.h - the kernel side of tiling data and tiling keys: GET_TILING_DATA
 * and its variants, REGISTER_TILING_DEFAULT / _FOR_TILINGKEY, TILING_KEY_IS.
 * The DSL that defines tiling structs is arc/tiling_dsl.h (shared with the
 * host side). */
#ifndef ARC_TILING_H_
#define ARC_TILING_H_

#include "arc/state.h"
#include "arc/tiling_dsl.h"

namespace __arc_tiling {
/* What GET_TILING_DATA finds when nothing is registered. */
struct no_tiling_struct_registered {
};

/* The struct GET_TILING_DATA reads: REGISTER_TILING_DEFAULT's (D) if
 * given, else the one registered for this op (R), else the last
 * registered (L). */
template <class D, class R, class L> struct pick {
    typedef D type;
};
template <class R, class L> struct pick<no_tiling_struct_registered, R, L> {
    typedef R type;
};
template <class L> struct pick<no_tiling_struct_registered, no_tiling_struct_registered, L> {
    typedef L type;
};
template <class T> struct found {
    static constexpr bool value = true;
};
template <> struct found<no_tiling_struct_registered> {
    static constexpr bool value = false;
};

template <class T> inline void copy_tiling(T *dst, const uint8_t *src)
{
    if (src == nullptr)
        __arc_trap("GET_TILING_DATA", "the tiling argument is a null pointer (%u bytes of tiling data expected)",
                   (unsigned)sizeof(T));
    ::__arc::gm_access(src, sizeof(T), "GET_TILING_DATA (a tiling buffer smaller than the tiling struct?)");
    __builtin_memcpy((void *)dst, src, sizeof(T));
}
} // namespace __arc_tiling

/* Fallbacks, found by ordinary lookup; every registration is a better
 * overload (an exact non-template match, a more derived rank). */
::__arc_tiling::no_tiling_struct_registered __arc_tiling_default(long);
template <unsigned long long H>
::__arc_tiling::no_tiling_struct_registered __arc_tiling_of_op(::__arc_tiling::op_key<H>);
::__arc_tiling::no_tiling_struct_registered __arc_tiling_last(::__arc_tiling::rank<0>);

/* The op being compiled, a string: ascendrtc's op-project compile redefines
 * it after kernel_operator.h (a macro expands where it is used, so this
 * works with the precompiled device API too). */
#ifndef ASCENDRTC_OP_TYPE
#define ASCENDRTC_OP_TYPE ""
#endif
#define __ARC_OP_HASH ::__arc_tiling::op_hash(ASCENDRTC_OP_TYPE)

#define __ARC_TILING_T                                                                        \
    typename ::__arc_tiling::pick<decltype(__arc_tiling_default(0)),                           \
                                  decltype(__arc_tiling_of_op(::__arc_tiling::op_key<__ARC_OP_HASH>{})), \
                                  decltype(__arc_tiling_last(::__arc_tiling::rank<200>{}))>::type

/* New style: a plain struct names itself the default (a declaration only,
 * so it may stand at namespace or at block scope). */
#define REGISTER_TILING_DEFAULT(type) type __arc_tiling_default(int)
/* CANN picks a struct per key by the condition string; GET_TILING_DATA
 * here always reads the default, so kernels name per-key structs with
 * GET_TILING_DATA_WITH_STRUCT (as the samples do).  Checked: the condition
 * is a string and the type is complete. */
/* The kernel reads a tiling struct no REGISTER_TILING_* names, with
 * GET_TILING_DATA_WITH_STRUCT / _MEMBER / _PTR_WITH_STRUCT: nothing to record. */
#define REGISTER_NONE_TILING static_assert(true, "REGISTER_NONE_TILING")
#define REGISTER_TILING_FOR_TILINGKEY(cond, type) static_assert(sizeof(type) > 0, "" cond)

#define GET_TILING_DATA_WITH_STRUCT(type, var, tiling) \
    type var;                                          \
    ::__arc_tiling::copy_tiling(&var, (const uint8_t *)(tiling))
#define GET_TILING_DATA(var, tiling)                                                                      \
    static_assert(::__arc_tiling::found<__ARC_TILING_T>::value,                                           \
                  "GET_TILING_DATA: no tiling struct is registered for this kernel; compile the op "     \
                  "project's kernel with ascendrtc.op_kernel(project) (it includes op_host/<op>_tiling.h), " \
                  "or declare the struct here (BEGIN_TILING_DATA_DEF ... REGISTER_TILING_DATA_CLASS(Op, "   \
                  "Struct), or REGISTER_TILING_DEFAULT(Struct)), or use GET_TILING_DATA_WITH_STRUCT");     \
    GET_TILING_DATA_WITH_STRUCT(__ARC_TILING_T, var, tiling)
#define GET_TILING_DATA_PTR_WITH_STRUCT(type, var, tiling) type *var = (type *)(tiling)
#define GET_TILING_DATA_MEMBER(type, member, var, tiling)                        \
    decltype(((type *)0)->member) var;                                           \
    ::__arc::gm_access((const uint8_t *)(tiling) + __builtin_offsetof(type, member), sizeof(var), \
                       "GET_TILING_DATA_MEMBER");                                \
    __builtin_memcpy((void *)&var, (const uint8_t *)(tiling) + __builtin_offsetof(type, member), sizeof(var))

/* Tiling keys, both ways CANN uses them: the op build compiles once per key
 * with -DTILING_KEY_VAR=k (or an op-project compile redefines it after
 * kernel_operator.h); then TILING_KEY_IS is a constant and the key set at
 * launch is not read.  Otherwise the key is the one set at launch
 * (kernel(..., tiling_key=K), 0 when none). */
#ifndef TILING_KEY_VAR
#define TILING_KEY_VAR (__arc_core()->tiling_key)
#endif
#define TILING_KEY_IS(k) ((unsigned long long)(TILING_KEY_VAR) == (unsigned long long)(k))

#endif /* ARC_TILING_H_ */
